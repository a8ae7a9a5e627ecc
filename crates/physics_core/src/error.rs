//! Why a world call was refused. A refused call changes nothing.

use crate::id::{BodyId, JointId, ShapeId};
use crate::shape::ShapeError;
use std::fmt;

/// A world call that was refused; the world is unchanged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WorldError {
    /// The body was destroyed (or the id belongs to another world).
    StaleBody(BodyId),
    /// The shape was destroyed (or the id belongs to another world).
    StaleShape(ShapeId),
    /// The joint was destroyed.
    StaleJoint(JointId),
    /// A joint definition is invalid (says why).
    InvalidJoint(&'static str),
    /// An input value is NaN or infinite.
    NonFinite(&'static str),
    /// A density is negative.
    NegativeDensity(f32),
    /// The world already holds [`WorldDef::max_bodies`](crate::world::WorldDef::max_bodies)
    /// bodies.
    TooManyBodies {
        /// The limit.
        limit: u32,
    },
    /// A shape's density times its area is a mass the engine cannot add up without
    /// overflowing (above [`MAX_SHAPE_MASS`](crate::constants::MAX_SHAPE_MASS) kg).
    ShapeMassTooLarge {
        /// The density given.
        density: f32,
        /// The mass it gives the shape (may be infinite).
        mass: f32,
    },
    /// A mass or rotational inertia override is negative or not finite.
    InvalidMass(&'static str),
    /// The shape geometry is invalid.
    InvalidShape(ShapeError),
    /// A world or body setting is out of range.
    InvalidSetting(&'static str),
    /// The time step is negative or not finite.
    InvalidTimeStep(f32),
    /// Bytes given to [`WorldSnapshot::from_bytes`](crate::world::WorldSnapshot::from_bytes)
    /// are not a snapshot of this engine version.
    InvalidSnapshot(&'static str),
    /// Bytes given to [`Recording::from_bytes`](crate::world::Recording::from_bytes) are not
    /// a recording of this engine version.
    InvalidRecording(&'static str),
    /// This processor cannot run what was asked (says what it lacks).
    Unsupported(&'static str),
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorldError::StaleBody(id) => write!(f, "body {id:?} does not exist (destroyed?)"),
            WorldError::StaleShape(id) => write!(f, "shape {id:?} does not exist (destroyed?)"),
            WorldError::StaleJoint(id) => write!(f, "joint {id:?} does not exist (destroyed?)"),
            WorldError::InvalidJoint(why) => write!(f, "invalid joint: {why}"),
            WorldError::NonFinite(what) => write!(f, "{what} is NaN or infinite"),
            WorldError::NegativeDensity(d) => write!(f, "density {d} is negative"),
            WorldError::TooManyBodies { limit } => {
                write!(f, "the world already holds its limit of {limit} bodies")
            }
            WorldError::ShapeMassTooLarge { density, mass } => write!(
                f,
                "density {density:e} gives the shape a mass of {mass:e} kg, above the limit of {:e} kg",
                crate::constants::MAX_SHAPE_MASS
            ),
            WorldError::InvalidMass(what) => write!(f, "{what} must be finite and not negative"),
            WorldError::InvalidShape(e) => write!(f, "invalid shape: {e}"),
            WorldError::InvalidSetting(what) => write!(f, "invalid setting: {what}"),
            WorldError::InvalidSnapshot(why) => write!(f, "not a world snapshot: {why}"),
            WorldError::InvalidRecording(why) => write!(f, "not a world recording: {why}"),
            WorldError::Unsupported(why) => write!(f, "not on this processor: {why}"),
            WorldError::InvalidTimeStep(dt) => {
                write!(f, "time step {dt} must be finite and not negative")
            }
        }
    }
}

impl std::error::Error for WorldError {}

impl From<ShapeError> for WorldError {
    fn from(value: ShapeError) -> Self {
        WorldError::InvalidShape(value)
    }
}
