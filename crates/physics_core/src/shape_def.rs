//! Shapes attached to bodies: the material and filter a user gives, and the world's record.

use crate::broadphase::ProxyKey;
use crate::filter::Filter;
use crate::id::BodyId;
use crate::shape::{Aabb, Shape};
use serde::{Deserialize, Serialize};

/// Material and behaviour of a shape attached to a body.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShapeDef {
    /// Mass per unit area (kg/m^2). Zero is allowed (a massless shape).
    pub density: f32,
    /// Coulomb friction coefficient.
    pub friction: f32,
    /// Bounciness: 0 keeps no speed, 1 returns all of it.
    pub restitution: f32,
    /// Speed of the surface along itself (m/s), as a conveyor belt: what touches it is
    /// carried clockwise around the shape (to the right on top of it) at this speed, as far
    /// as friction allows. Two touching shapes add theirs.
    pub tangent_speed: f32,
    /// Rolling resistance coefficient (no unit): a round shape rolling on another meets a
    /// torque of this times its radius times the normal force, so a ball rolling at speed v
    /// on flat ground stops after v^2 / (2 c g) when its inertia is negligible (more with
    /// it). The larger of two touching shapes' coefficients applies.
    pub rolling_resistance: f32,
    /// Detects overlap without collision response.
    pub is_sensor: bool,
    /// Which shapes this one collides with.
    pub filter: Filter,
    /// Report hit events when this shape is struck faster than the world's hit threshold.
    pub enable_hit_events: bool,
    /// Find contacts between this shape and the shapes of other bodies that are not dynamic
    /// either (a kinematic body against a static or kinematic one), for their begin and end
    /// events and contact data. Such contacts are never solved: neither body answers to
    /// forces. Off by default (Box2D never pairs two non-dynamic bodies); sensors always see
    /// kinematic and static shapes without it.
    pub enable_kinematic_contacts: bool,
    /// Ask the caller's pair filter about this shape's new pairs
    /// ([`World::update_pairs_filtered`](crate::world::World::update_pairs_filtered)) and
    /// its contact modifier about its touching contacts every step
    /// ([`World::collide_modified`](crate::world::World::collide_modified)). Off by
    /// default: shapes without it never pay for the calls.
    pub enable_contact_hooks: bool,
    /// How this shape's friction combines with another's, instead of the world's
    /// [`WorldDef::friction_mixing`](crate::world::WorldDef::friction_mixing). When both
    /// shapes have a rule, the one that ranks higher in [`MixRule::precedence`](crate::mix_rule::MixRule::precedence) applies
    /// (`Max` over `Multiply` over `Min` over `Average` over `GeometricMean`).
    pub friction_mixing: Option<crate::mix_rule::MixRule>,
    /// How this shape's restitution combines with another's (as `friction_mixing`).
    pub restitution_mixing: Option<crate::mix_rule::MixRule>,
}

impl Default for ShapeDef {
    fn default() -> Self {
        ShapeDef {
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            tangent_speed: 0.0,
            rolling_resistance: 0.0,
            is_sensor: false,
            filter: Filter::default(),
            enable_hit_events: false,
            enable_kinematic_contacts: false,
            enable_contact_hooks: false,
            friction_mixing: None,
            restitution_mixing: None,
        }
    }
}

impl ShapeDef {
    /// Checks the numbers: finite, density and friction and restitution not negative.
    pub fn validate(&self) -> Result<(), crate::error::WorldError> {
        use crate::error::WorldError;
        let numbers = [
            ("shape density", self.density),
            ("shape friction", self.friction),
            ("shape restitution", self.restitution),
            ("shape tangent speed", self.tangent_speed),
            ("shape rolling resistance", self.rolling_resistance),
        ];
        if let Some((name, _)) = numbers.iter().find(|(_, x)| !x.is_finite()) {
            return Err(WorldError::NonFinite(name));
        }
        let negative = [
            ("friction must not be negative", self.friction),
            ("restitution must not be negative", self.restitution),
            (
                "rolling resistance must not be negative",
                self.rolling_resistance,
            ),
        ];
        if self.density < 0.0 {
            return Err(WorldError::NegativeDensity(self.density));
        }
        if let Some((what, _)) = negative.iter().find(|(_, x)| *x < 0.0) {
            return Err(WorldError::InvalidSetting(what));
        }
        Ok(())
    }
}

/// The world's record of an attached shape.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ShapeRecord {
    pub body: BodyId,
    pub shape: Shape,
    pub def: ShapeDef,
    pub proxy: ProxyKey,
    /// Enlarged box stored in the broadphase (a copy of its leaf's box, so not serialised:
    /// a snapshot fills it in from the tree).
    #[serde(skip)]
    pub fat_aabb: Aabb,
    /// The farthest point of the shape from its body origin (for contact recycling; not
    /// serialised: a snapshot recomputes it from the shape).
    #[serde(skip)]
    pub reach: f32,
}
