//! Bodies: the user-facing definition and the world's record of each body.

use crate::id::ShapeId;
use crate::math::Rot;
use crate::position::{Position, WorldTransform};
use crate::shape::MassData;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum BodyType {
    /// Never moves; infinite mass.
    #[default]
    Static,
    /// Moves with the velocity you set; pushes dynamic bodies, is not pushed.
    Kinematic,
    /// Moves under forces, gravity and contacts.
    Dynamic,
}

/// Everything needed to create a body.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyDef {
    /// Static, kinematic or dynamic.
    pub body_type: BodyType,
    /// World position of the body origin (double precision in the `large-world` build).
    pub position: Position,
    /// World rotation.
    pub rotation: Rot,
    /// Velocity of the centre of mass.
    pub linear_velocity: Vec2,
    /// Angular velocity in radians per second (counter-clockwise positive).
    pub angular_velocity: f32,
    /// Multiplies the world's gravity for this body.
    pub gravity_scale: f32,
    /// Linear velocity damping per second (0 for none).
    pub linear_damping: f32,
    /// Angular velocity damping per second (0 for none).
    pub angular_damping: f32,
    /// Never rotates (infinite rotational inertia).
    pub fixed_rotation: bool,
    /// Starts awake (sleeping arrives with islands).
    pub awake: bool,
    /// May fall asleep when at rest.
    pub can_sleep: bool,
    /// Continuous collision against everything, for small fast projectiles.
    pub bullet: bool,
    /// May turn faster than a quarter turn per step. Without it, as in Box2D v3, spin is
    /// clamped to a quarter turn per step (47 rad/s at 60 Hz): a body knocked into a wild
    /// spin cannot sweep its ends through thin walls between two steps. Wheels and other
    /// fast rotors set it.
    pub allow_fast_rotation: bool,
    /// Never moves along the world x axis: the centre of mass keeps its x whatever pushes
    /// it (applied last in every substep, as Box2D v3's motion locks).
    pub lock_linear_x: bool,
    /// Never moves along the world y axis (see [`BodyDef::lock_linear_x`]).
    pub lock_linear_y: bool,
    /// This body counts as resting below this speed, in world units per second: unlike the
    /// settings marked (m/s), it is not multiplied by `length_units_per_meter` (a game in
    /// pixels gives pixels per second, as the plugin's `SleepThreshold` does). `None` takes
    /// the world's [`WorldDef::sleep_linear_speed`](crate::world::WorldDef::sleep_linear_speed),
    /// which is scaled.
    pub sleep_threshold: Option<f32>,
    /// In a contact between two dynamic bodies, the one of higher dominance acts on the
    /// other as a static body would and is not pushed back (a player that crates cannot
    /// stop). Equal dominance (the default, 0) solves the contact normally.
    pub dominance: i8,
}

impl Default for BodyDef {
    fn default() -> Self {
        BodyDef {
            body_type: BodyType::Static,
            position: Position::ZERO,
            rotation: Rot::IDENTITY,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            gravity_scale: 1.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            fixed_rotation: false,
            awake: true,
            can_sleep: true,
            bullet: false,
            allow_fast_rotation: false,
            lock_linear_x: false,
            lock_linear_y: false,
            sleep_threshold: None,
            dominance: 0,
        }
    }
}

impl BodyDef {
    /// A dynamic body at `position`.
    pub fn dynamic(position: impl Into<Position>) -> Self {
        let position = position.into();
        BodyDef {
            body_type: BodyType::Dynamic,
            position,
            ..Default::default()
        }
    }

    /// A static body at `position`.
    pub fn fixed(position: impl Into<Position>) -> Self {
        let position = position.into();
        BodyDef {
            position,
            ..Default::default()
        }
    }

    /// A kinematic body at `position`.
    pub fn kinematic(position: impl Into<Position>) -> Self {
        let position = position.into();
        BodyDef {
            body_type: BodyType::Kinematic,
            position,
            ..Default::default()
        }
    }

    /// The same def rotated by `angle` radians.
    pub fn with_angle(mut self, angle: f32) -> Self {
        self.rotation = Rot::from_angle(angle);
        self
    }

    /// The same def with an initial linear velocity.
    pub fn with_velocity(mut self, velocity: Vec2) -> Self {
        self.linear_velocity = velocity;
        self
    }
}

/// The world's record of a body (cold data: read by user calls and between stages, not by the
/// solver's inner loops, which use the dense state arrays).
///
/// Laid out in declaration order (`repr(C)`), what every step reads first: with the slot's
/// generation, the flags, pose and velocities (the solver's gather, the finalize, the
/// narrowphase's transforms) fill the slot's first 64 bytes, the forces, damping and the
/// finalize's box and sweep data the next 64, and what only user calls and topology changes
/// read (the shape, contact and joint lists, the mass data) comes last. A step's reads of a
/// body then span two or three cache lines (slots are 240 bytes, so not all start on a line)
/// where Rust's own order, the three lists first, spread them over four or five. The
/// snapshot encodes the fields in this order too (its format version 7).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[repr(C)]
pub(crate) struct Body {
    pub body_type: BodyType,
    pub awake: bool,
    pub bullet: bool,
    /// May turn faster than a quarter turn per step (see [`BodyDef::allow_fast_rotation`]).
    pub allow_fast_rotation: bool,
    /// Axes the centre of mass may not move along (see [`BodyDef::lock_linear_x`]).
    pub lock_linear: [bool; 2],
    /// See [`BodyDef::dominance`].
    pub dominance: i8,
    pub fixed_rotation: bool,
    /// Transform of the body origin.
    pub transform: WorldTransform,
    /// World centre of mass.
    pub center: Position,
    /// Centre of mass in the body frame.
    pub local_center: Vec2,
    pub linear_velocity: Vec2,
    pub angular_velocity: f32,
    pub inv_mass: f32,
    pub inv_inertia: f32,
    pub torque: f32,
    pub force: Vec2,
    pub gravity_scale: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    /// The slot of the body's shape when it has exactly one (most bodies), so the finalize of
    /// every step finds it without reading `shapes` from the heap (a cache miss per body).
    /// Kept with `extents`.
    #[serde(skip)]
    pub only_shape: Option<u32>,
    /// Smallest and largest extent of the shapes around the centre of mass (how thin the
    /// body is and how far it reaches), for the continuous-collision test of every step.
    /// Kept by `World::update_mass` whenever the shapes or the centre change.
    #[serde(skip)]
    pub extents: BodyExtents,
    /// The transform the last narrowphase saw: the pose before the last step moved the body
    /// (or the pose it was given). A recycled manifold follows from its cache and the two
    /// bodies' poses then, so a snapshot stores this instead of the manifold's geometry; the
    /// snapshot stores it separately, and only where it differs from `transform`.
    #[serde(skip)]
    pub collide_pose: WorldTransform,
    pub can_sleep: bool,
    /// Seconds this body has spent below the sleep speeds.
    pub sleep_time: f32,
    /// Resting speed of this body, when it has its own (see [`BodyDef::sleep_threshold`]).
    pub sleep_threshold: Option<f32>,
    pub mass: f32,
    /// Rotational inertia about the centre of mass.
    pub inertia: f32,
    /// A user override of the shape-derived mass data.
    pub mass_override: Option<MassData>,
    /// Shapes attached, in creation order.
    pub shapes: Vec<ShapeId>,
    /// Slot indices of the contacts touching this body's shapes.
    pub contacts: Vec<u32>,
    /// Slot indices of the joints attached to this body.
    pub joints: Vec<u32>,
}

/// How thin a body is and how far it reaches from its centre of mass, over all its shapes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct BodyExtents {
    /// Smallest extent of any shape (a circle's radius, a box's half width).
    pub min: f32,
    /// Distance from the centre of mass to the farthest point of any shape.
    pub max: f32,
}

/// What the parallel part of `finalize` found about a body, for the serial part.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Finalized {
    /// Centre of mass and rotation at the start of the step (for the sweep).
    pub start_center: Position,
    pub start_rotation: crate::math::Rot,
    /// The solver's result was not finite: the body was stopped where it was.
    pub non_finite: bool,
    /// Moved fast enough to be swept for continuous collision.
    pub needs_sweep: bool,
    /// A shape left its enlarged broadphase box.
    pub left_its_box: bool,
    /// Moved faster than its sleep speeds only by a contact's push out of overlap (its
    /// velocity, which the relax stage cleared of the push, is below them): the step does
    /// not count as rest.
    pub pushed_out_of_overlap: bool,
    /// The body is a bullet (read only when it needs a sweep: bullets are swept last).
    pub bullet: bool,
    /// For a body of one shape that left its box: the shape's new broadphase box at the
    /// body's new pose, so the serial pass need not compute it again (a sweep moves the body
    /// and makes it stale).
    pub single_shape_box: Option<SingleShapeBox>,
}

/// The new broadphase box of a body's only shape (written into the shape's record by the
/// parallel pass of `finalize`), with what the serial pass needs to move its proxy: it then
/// reads neither the body's record nor the shape's (in a crowd that churns, most bodies leave
/// their boxes every step, and those records are no longer in this core's cache after the
/// parallel pass).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SingleShapeBox {
    /// The shape's broadphase proxy.
    pub proxy: crate::broadphase::ProxyKey,
    /// Its new enlarged box.
    pub fat: crate::shape::Aabb,
}

impl Body {
    /// The linear speed below which this body counts as resting: its own threshold, or the
    /// world's `world_linear` (both in world units per second).
    pub(crate) fn linear_sleep_speed(&self, world_linear: f32) -> f32 {
        self.sleep_threshold.unwrap_or(world_linear)
    }

    /// Whether the body's velocity is at or below the sleep speeds `linear` (from
    /// [`Body::linear_sleep_speed`]) and `angular`.
    pub(crate) fn velocity_at_rest(&self, linear: f32, angular: f32) -> bool {
        self.linear_velocity.length_squared() <= linear * linear
            && self.angular_velocity.abs() <= angular
    }

    pub fn new(def: &BodyDef) -> Self {
        Body {
            body_type: def.body_type,
            transform: WorldTransform::new(def.position, def.rotation),
            collide_pose: WorldTransform::new(def.position, def.rotation),
            center: def.position,
            local_center: Vec2::ZERO,
            linear_velocity: def.linear_velocity,
            angular_velocity: def.angular_velocity,
            force: Vec2::ZERO,
            torque: 0.0,
            mass: 0.0,
            inv_mass: 0.0,
            inertia: 0.0,
            inv_inertia: 0.0,
            mass_override: None,
            gravity_scale: def.gravity_scale,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            fixed_rotation: def.fixed_rotation,
            awake: def.awake,
            can_sleep: def.can_sleep,
            bullet: def.bullet,
            allow_fast_rotation: def.allow_fast_rotation,
            lock_linear: [def.lock_linear_x, def.lock_linear_y],
            sleep_threshold: def.sleep_threshold,
            dominance: def.dominance,
            sleep_time: 0.0,
            shapes: Vec::new(),
            contacts: Vec::new(),
            joints: Vec::new(),
            extents: BodyExtents::default(),
            only_shape: None,
        }
    }

    /// The def that creates this body again as it is now: its type, pose, velocities and
    /// settings (its shapes, mass override and contacts are not part of a def).
    pub fn def(&self) -> BodyDef {
        BodyDef {
            body_type: self.body_type,
            position: self.transform.p,
            rotation: self.transform.q,
            linear_velocity: self.linear_velocity,
            angular_velocity: self.angular_velocity,
            gravity_scale: self.gravity_scale,
            linear_damping: self.linear_damping,
            angular_damping: self.angular_damping,
            fixed_rotation: self.fixed_rotation,
            awake: self.awake,
            can_sleep: self.can_sleep,
            bullet: self.bullet,
            allow_fast_rotation: self.allow_fast_rotation,
            lock_linear_x: self.lock_linear[0],
            lock_linear_y: self.lock_linear[1],
            sleep_threshold: self.sleep_threshold,
            dominance: self.dominance,
        }
    }

    /// True for kinematic and dynamic bodies.
    pub fn is_moving(&self) -> bool {
        self.body_type != BodyType::Static
    }

    /// Moving and awake: the step integrates it.
    pub fn is_simulated(&self) -> bool {
        self.is_moving() && self.awake
    }

    /// One for each axis the centre of mass may move along, zero for a locked one: the
    /// factor a velocity or displacement is multiplied by.
    pub fn linear_freedom(&self) -> Vec2 {
        // A kinematic body moves as it is told: locks are for bodies the solver moves.
        if self.body_type != BodyType::Dynamic {
            return Vec2::ONE;
        }
        let free = |locked: bool| if locked { 0.0 } else { 1.0 };
        Vec2::new(free(self.lock_linear[0]), free(self.lock_linear[1]))
    }
}

/// Checks a body def's numbers.
pub(crate) fn validate_body_def(def: &BodyDef) -> Result<(), crate::error::WorldError> {
    use crate::error::WorldError::{InvalidSetting, NonFinite};
    use crate::math::is_finite_vec;
    use crate::position::is_finite_position;
    if !is_finite_position(def.position) || !def.rotation.is_valid() {
        return Err(NonFinite("body position or rotation"));
    }
    check_world_coordinate(def.position)?;
    if !is_finite_vec(def.linear_velocity) || !def.angular_velocity.is_finite() {
        return Err(NonFinite("body velocity"));
    }
    if !def.gravity_scale.is_finite()
        || !def.linear_damping.is_finite()
        || !def.angular_damping.is_finite()
    {
        return Err(NonFinite("gravity scale or damping"));
    }
    if def.linear_damping < 0.0 || def.angular_damping < 0.0 {
        return Err(InvalidSetting("damping must not be negative"));
    }
    validate_sleep_threshold(def.sleep_threshold)
}

/// A place within [`MAX_WORLD_COORDINATE`](crate::constants::MAX_WORLD_COORDINATE) of the
/// origin along each axis.
pub(crate) fn check_world_coordinate(p: Position) -> Result<(), crate::error::WorldError> {
    let limit = crate::position::to_position(bevy_math::Vec2::splat(
        crate::constants::MAX_WORLD_COORDINATE,
    ));
    if p.x.abs() > limit.x || p.y.abs() > limit.y {
        return Err(crate::error::WorldError::InvalidSetting(
            "position farther than MAX_WORLD_COORDINATE (1e9) from the origin",
        ));
    }
    Ok(())
}

/// A body's own resting speed must be a number, zero or more (infinity allowed: always
/// resting).
pub(crate) fn validate_sleep_threshold(
    threshold: Option<f32>,
) -> Result<(), crate::error::WorldError> {
    match threshold {
        Some(t) if t.is_nan() || t < 0.0 => Err(crate::error::WorldError::InvalidSetting(
            "sleep threshold must be zero or more",
        )),
        _ => Ok(()),
    }
}

#[cfg(all(test, not(feature = "large-world")))]
mod tests {
    use super::Body;
    use std::mem::offset_of;

    /// What every step reads of a body ends within 128 bytes of its slot's start (the slot's
    /// generation takes the first 8): the solver's gather up to the damping, the finalize up
    /// to the pose the narrowphase saw. A field added to the front, or a reordering, that
    /// pushes them into a third line fails here. (The `large-world` build's double poses
    /// take more room and a third line.)
    #[test]
    fn a_step_reads_the_first_two_cache_lines_of_a_body_slot() {
        let slot_offset = 8;
        let end = |offset: usize, size: usize| slot_offset + offset + size;
        assert!(end(offset_of!(Body, linear_velocity), 8) <= 64);
        assert!(end(offset_of!(Body, angular_velocity), 4) <= 64);
        assert!(end(offset_of!(Body, transform), 16) <= 64);
        assert!(end(offset_of!(Body, center), 8) <= 64);
        assert!(end(offset_of!(Body, angular_damping), 4) <= 128);
        assert!(end(offset_of!(Body, extents), 8) <= 128);
        assert!(end(offset_of!(Body, collide_pose), 16) <= 128);
        assert!(offset_of!(Body, shapes) >= 128 - slot_offset);
    }
}
