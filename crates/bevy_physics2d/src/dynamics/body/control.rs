//! Components that restrict or switch off a body's motion: axis locks, dominance, sleep
//! settings, and disabling a body or a collider without despawning it.
//!
//! Each takes effect at the next step when it is added, changed or removed.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use serde::{Deserialize, Serialize};

/// Locks a dynamic body's motion along the world x or y axis, or its rotation. A locked
/// axis keeps its value whatever pushes the body: contacts, joints, forces and gravity move
/// it only along the free axes (the lock is applied last in every substep, as Box2D v3's
/// motion locks). Side-scroller characters lock rotation; a piston or an elevator car locks
/// one translation axis.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn spawn(mut commands: Commands) {
///     // A crate that slides along x only and never tips.
///     commands.spawn((
///         RigidBody::Dynamic,
///         Collider::rectangle(1.0, 1.0),
///         LockedAxes::new().lock_translation_y().lock_rotation(),
///     ));
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// assert!(LockedAxes::ROTATION_LOCKED.is_rotation_locked());
/// assert!(!LockedAxes::ROTATION_LOCKED.is_translation_x_locked());
/// ```
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize,
)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct LockedAxes {
    translation_x: bool,
    translation_y: bool,
    rotation: bool,
}

impl LockedAxes {
    /// Nothing locked.
    pub const NONE: LockedAxes = LockedAxes {
        translation_x: false,
        translation_y: false,
        rotation: false,
    };
    /// Rotation locked (the same as [`LockedRotation`](crate::LockedRotation)).
    pub const ROTATION_LOCKED: LockedAxes = LockedAxes {
        rotation: true,
        ..LockedAxes::NONE
    };
    /// Both translation axes locked: the body only turns.
    pub const TRANSLATION_LOCKED: LockedAxes = LockedAxes {
        translation_x: true,
        translation_y: true,
        rotation: false,
    };
    /// Everything locked: the body stays put but still pushes what moves into it.
    pub const ALL_LOCKED: LockedAxes = LockedAxes {
        translation_x: true,
        translation_y: true,
        rotation: true,
    };

    /// Nothing locked; add locks with the `lock_` methods.
    pub const fn new() -> Self {
        LockedAxes::NONE
    }

    /// Also locks motion along the world x axis.
    pub const fn lock_translation_x(mut self) -> Self {
        self.translation_x = true;
        self
    }

    /// Also locks motion along the world y axis.
    pub const fn lock_translation_y(mut self) -> Self {
        self.translation_y = true;
        self
    }

    /// Also locks rotation.
    pub const fn lock_rotation(mut self) -> Self {
        self.rotation = true;
        self
    }

    /// Frees motion along the world x axis.
    pub const fn unlock_translation_x(mut self) -> Self {
        self.translation_x = false;
        self
    }

    /// Frees motion along the world y axis.
    pub const fn unlock_translation_y(mut self) -> Self {
        self.translation_y = false;
        self
    }

    /// Frees rotation.
    pub const fn unlock_rotation(mut self) -> Self {
        self.rotation = false;
        self
    }

    /// True when motion along x is locked.
    pub const fn is_translation_x_locked(&self) -> bool {
        self.translation_x
    }

    /// True when motion along y is locked.
    pub const fn is_translation_y_locked(&self) -> bool {
        self.translation_y
    }

    /// True when rotation is locked.
    pub const fn is_rotation_locked(&self) -> bool {
        self.rotation
    }
}

/// A body's rank in contacts between dynamic bodies (-127 to 127, 0 without the
/// component): the body of higher dominance meets the other as a static body would, so it is
/// not pushed back at all, whatever the masses. A player character that crates and enemies
/// must never shove gets a dominance above theirs. It has no effect against static or
/// kinematic bodies (they are never pushed anyway) or between bodies of equal dominance.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn spawn(mut commands: Commands) {
///     commands.spawn((RigidBody::Dynamic, Collider::capsule(0.4, 0.8), Dominance(5)));
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(
    Component,
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Reflect,
    Serialize,
    Deserialize,
)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Dominance(pub i8);

/// The body never falls asleep, and its island stays awake with it (a body the player
/// drives, or one whose velocity a system sets every frame).
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn spawn(mut commands: Commands) {
///     commands.spawn((RigidBody::Dynamic, Collider::circle(0.5), SleepingDisabled));
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize,
)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct SleepingDisabled;

/// The speed (units per second) below which this body counts as resting for sleep, in place
/// of the world's (`PhysicsSettings`' sleep speed, 0.05 m/s by default). A slow, heavy
/// machine part that should not doze off gets a lower one; debris that should settle fast a
/// higher one. Zero or more; a negative or NaN value is refused with a warning.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn spawn(mut commands: Commands) {
///     commands.spawn((RigidBody::Dynamic, Collider::rectangle(0.3, 0.3), SleepThreshold(0.3)));
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct SleepThreshold(pub f32);

/// Takes a body out of the simulation without despawning it: it stops moving, its colliders
/// stop colliding and its joints stop acting. Removing it puts the body back where its
/// `Transform` says, with the velocities its components hold, and rebuilds its colliders
/// and joints.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// // Park every body of a level section the player left.
/// fn park(mut commands: Commands, bodies: Query<Entity, With<RigidBody>>) {
///     for body in &bodies {
///         commands.entity(body).insert(RigidBodyDisabled);
///     }
/// }
/// # bevy_ecs::system::assert_is_system(park);
/// ```
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize,
)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct RigidBodyDisabled;

/// Takes a collider out of the simulation without removing it: nothing touches it, queries
/// do not see it and it adds no mass to its body. Removing it builds the collider again.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn open_door(mut commands: Commands, door: Single<Entity, With<Door>>) {
///     commands.entity(*door).insert(ColliderDisabled);
/// }
/// # #[derive(Component)] struct Door;
/// # bevy_ecs::system::assert_is_system(open_door);
/// ```
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize,
)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ColliderDisabled;
