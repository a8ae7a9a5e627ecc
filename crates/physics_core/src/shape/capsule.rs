//! A capsule: a segment swept by a disk (a stadium shape).

use super::ShapeError;
use super::circle::validate_radius;
use super::segment::{closest_point_on_segment, validate_end_points};
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// All points within `radius` of the segment from `center1` to `center2`, in body-local frame.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capsule {
    /// Centre of the first end cap.
    pub center1: Vec2,
    /// Centre of the second end cap.
    pub center2: Vec2,
    /// Radius of the caps and half the capsule's thickness.
    pub radius: f32,
}

impl Capsule {
    /// A validated capsule. The caps must be at least the linear slop apart (a capsule with
    /// coincident caps is a circle: use `Circle`).
    pub fn new(center1: Vec2, center2: Vec2, radius: f32) -> Result<Self, ShapeError> {
        let capsule = Capsule {
            center1,
            center2,
            radius,
        };
        capsule.validate()?;
        Ok(capsule)
    }

    /// A capsule centred on the origin along the y axis, `length` between the cap centres
    /// (total height `length + 2 radius`), as game engines usually describe one.
    pub fn vertical(length: f32, radius: f32) -> Result<Self, ShapeError> {
        let half = Vec2::new(0.0, 0.5 * length);
        Self::new(-half, half, radius)
    }

    /// Checks the fields.
    pub fn validate(&self) -> Result<(), ShapeError> {
        validate_end_points(self.center1, self.center2, "capsule centre")?;
        validate_radius(self.radius)
    }

    /// True when the local point lies inside or on the capsule.
    pub fn contains_point(&self, local_point: Vec2) -> bool {
        let closest = closest_point_on_segment(self.center1, self.center2, local_point);
        local_point.distance_squared(closest) <= self.radius * self.radius
    }
}
