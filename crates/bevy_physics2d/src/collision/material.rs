//! Collider materials and filtering: density, friction, restitution, sensors, layers.
//!
//! Each component is read from the collider's entity first and, when absent there, from the
//! entity of its body, so a material set on a compound body applies to all of its parts.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use physics_core::filter::Filter;
use physics_core::world::MixRule;
use serde::{Deserialize, Serialize};

/// Mass per unit area of a collider (1 by default).
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ColliderDensity(pub f32);

impl Default for ColliderDensity {
    fn default() -> Self {
        ColliderDensity(1.0)
    }
}

/// Coulomb friction coefficient (0.6 by default); two colliders combine theirs by the
/// geometric mean.
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Friction(pub f32);

impl Default for Friction {
    fn default() -> Self {
        Friction(0.6)
    }
}

impl Friction {
    /// This friction with its own combine rule: `Friction(0.02).with_combine_rule(MixRule::Min)`
    /// is ice against anything without a higher-ranked rule of its own (see
    /// [`FrictionCombine`]).
    pub fn with_combine_rule(self, rule: MixRule) -> (Friction, FrictionCombine) {
        (self, FrictionCombine(rule))
    }
}

/// How this collider's friction combines with another's, instead of the world's rule
/// (`PhysicsSettings`' friction mixing, the geometric mean by default). When both colliders
/// bring a rule, the higher ranked applies: `Max`, then `Multiply`, `Min`, `Average`,
/// `GeometricMean` (Avian's order).
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn spawn(mut commands: Commands) {
///     // Ice: the smaller friction of a pair, so a grippy boot still slides on it.
///     commands.spawn((
///         RigidBody::Static,
///         Collider::rectangle(20.0, 1.0),
///         Friction(0.02).with_combine_rule(MixRule::Min),
///     ));
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub struct FrictionCombine(pub MixRule);

/// How this collider's restitution combines with another's, instead of the world's rule
/// (the maximum by default); ranked as [`FrictionCombine`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub struct RestitutionCombine(pub MixRule);

impl Restitution {
    /// This restitution with its own combine rule (see [`RestitutionCombine`]).
    pub fn with_combine_rule(self, rule: MixRule) -> (Restitution, RestitutionCombine) {
        (self, RestitutionCombine(rule))
    }
}

/// Bounciness: 0 keeps no speed (the default), 1 returns all of it; two colliders combine
/// theirs by the maximum.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Restitution(pub f32);

/// The surface of this collider moves along itself at this speed (units per second), as a
/// conveyor belt: what rests on it is carried clockwise around the collider (to the right on
/// its top side) at that speed, as far as friction allows. Two touching colliders add theirs.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
/// fn spawn_belt(mut commands: Commands) {
///     // A belt carrying boxes to the left at 2 m/s.
///     commands.spawn((
///         RigidBody::Static,
///         Collider::rectangle(10.0, 0.5),
///         TangentSpeed(-2.0),
///         Transform::default(),
///     ));
/// }
/// # bevy_ecs::system::assert_is_system(spawn_belt);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct TangentSpeed(pub f32);

/// Rolling resistance coefficient (no unit, 0 by default): a rolling circle or capsule meets
/// a torque of this times its radius times the normal force, so a ball rolling at speed v on
/// flat ground slows down and stops instead of rolling forever. The larger coefficient of two
/// touching colliders applies.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct RollingResistance(pub f32);

/// The collider detects overlaps (sensor events) without pushing anything.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Sensor;

/// Turns on collision events for this collider, as in Avian: [`CollisionStart`] and
/// [`CollisionEnd`] are sent as messages for every pair where either collider has it, and
/// triggered on each collider of the pair that has it (for observers). Pairs where neither
/// has it send nothing, which keeps busy worlds quiet.
///
/// It also lets a collider of a kinematic body find contacts with static and other kinematic
/// colliders (a kinematic player against a wall), which are otherwise never paired: they are
/// reported as events and contact data, never solved.
///
/// Sensor events ([`SensorEntered`], [`SensorExited`]) are always sent as messages; the
/// marker on the sensor also triggers them on it.
///
/// [`CollisionStart`]: crate::CollisionStart
/// [`CollisionEnd`]: crate::CollisionEnd
/// [`SensorEntered`]: crate::SensorEntered
/// [`SensorExited`]: crate::SensorExited
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct CollisionEventsEnabled;

/// Which colliders touch which. Two colliders collide when each one's `memberships` meets
/// the other's `filters`, unless they share a non-zero `group`: a positive shared group
/// always collides, a negative one never does.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct CollisionLayers {
    /// Layers this collider belongs to (bit mask).
    pub memberships: u64,
    /// Layers this collider collides with (bit mask).
    pub filters: u64,
    /// Group override (0 for none).
    pub group: i32,
}

impl Default for CollisionLayers {
    fn default() -> Self {
        let filter = Filter::default();
        CollisionLayers {
            memberships: filter.category_bits,
            filters: filter.mask_bits,
            group: filter.group_index,
        }
    }
}

impl CollisionLayers {
    /// Belongs to `memberships`, collides with `filters`: bit masks (`u64`), one
    /// [`PhysicsLayer`](crate::PhysicsLayer) or an array of them.
    pub fn new(
        memberships: impl Into<crate::LayerMask>,
        filters: impl Into<crate::LayerMask>,
    ) -> Self {
        CollisionLayers {
            memberships: memberships.into().0,
            filters: filters.into().0,
            group: 0,
        }
    }

    /// The same layers in `group`.
    pub fn with_group(mut self, group: i32) -> Self {
        self.group = group;
        self
    }

    /// The core filter.
    pub fn to_filter(self) -> Filter {
        Filter {
            category_bits: self.memberships,
            mask_bits: self.filters,
            group_index: self.group,
        }
    }
}
