//! Collision hooks: game code with ECS access that filters pairs of colliders and modifies
//! their contacts every step (one-way platforms, conveyor belts, per-pair friction); the
//! broadphase and narrowphase stages that call them are in `pair_stages.rs`.
//!
//! Hooks are asked only about colliders with [`ActiveCollisionHooks`] (on the collider or its
//! body), in the core's fixed order, so the same world and components give the same calls:
//! deterministic, and rollback-safe as long as the hook reads only what is rolled back.

use crate::world::game_frame::GameFrame;
use bevy_ecs::prelude::*;
use bevy_ecs::system::ReadOnlySystemParam;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;
use physics_core::world::ContactModification;

/// Game rules for pairs of colliders, with ECS access: implement it on a `SystemParam`
/// struct (queries and resources it reads) and install it with
/// [`PhysicsPlugins::with_collision_hooks`](crate::PhysicsPlugins::with_collision_hooks).
/// Only colliders with [`ActiveCollisionHooks`] are offered to it. Changes to the world go
/// through the `Commands` each method gets (they apply after the stage).
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
/// use bevy_ecs::system::SystemParam;
///
/// #[derive(Component)]
/// struct Ghost;
///
/// /// Ghosts pass through everything; belts carry what lies on them at 2 m/s.
/// #[derive(SystemParam)]
/// struct GameHooks<'w, 's> {
///     ghosts: Query<'w, 's, (), With<Ghost>>,
///     belts: Query<'w, 's, (), With<Belt>>,
/// }
/// # #[derive(Component)] struct Belt;
///
/// impl CollisionHooks for GameHooks<'_, '_> {
///     fn filter_pairs(&self, a: Entity, b: Entity, _: &mut Commands) -> bool {
///         !self.ghosts.contains(a) && !self.ghosts.contains(b)
///     }
///
///     fn modify_contacts(&self, contact: &mut ContactPair, _: &mut Commands) -> bool {
///         if self.belts.contains(contact.collider1) || self.belts.contains(contact.collider2) {
///             contact.tangent_speed = 2.0;
///             contact.friction = 1.0;
///         }
///         true
///     }
/// }
///
/// # fn build(app: &mut bevy_app::App) {
/// app.add_plugins(PhysicsPlugins::default().with_collision_hooks::<GameHooks>());
/// # }
/// ```
pub trait CollisionHooks: ReadOnlySystemParam + Send + Sync {
    /// Called once when the bounding boxes of two colliders (one of them with
    /// [`ActiveCollisionHooks::FILTER_PAIRS`]) start to overlap and their layers agree;
    /// false means the pair gets no contact. It is asked again when the pair is found again
    /// (one of them moved out of its box margin while they still overlap).
    fn filter_pairs(&self, collider1: Entity, collider2: Entity, commands: &mut Commands) -> bool {
        let _ = (collider1, collider2, commands);
        true
    }

    /// Called every step for every touching contact of a collider with
    /// [`ActiveCollisionHooks::MODIFY_CONTACTS`] (sensors excluded), after the narrowphase.
    /// It may change the contact's friction, restitution and surface speed for this step;
    /// false switches the contact off for this step.
    fn modify_contacts(&self, contact: &mut ContactPair, commands: &mut Commands) -> bool {
        let _ = (contact, commands);
        true
    }
}

/// No hooks: every pair and contact as the layers and materials say.
impl CollisionHooks for () {}

/// Which [`CollisionHooks`] methods are called for a collider (or, on a body, for its
/// colliders). Combine with `|`.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// let both = ActiveCollisionHooks::FILTER_PAIRS | ActiveCollisionHooks::MODIFY_CONTACTS;
/// assert!(both.filters_pairs() && both.modifies_contacts());
/// assert!(!ActiveCollisionHooks::default().modifies_contacts());
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct ActiveCollisionHooks {
    filter_pairs: bool,
    modify_contacts: bool,
}

impl ActiveCollisionHooks {
    /// [`CollisionHooks::filter_pairs`] is asked about this collider's new pairs.
    pub const FILTER_PAIRS: ActiveCollisionHooks = ActiveCollisionHooks {
        filter_pairs: true,
        modify_contacts: false,
    };
    /// [`CollisionHooks::modify_contacts`] sees this collider's contacts every step.
    pub const MODIFY_CONTACTS: ActiveCollisionHooks = ActiveCollisionHooks {
        filter_pairs: false,
        modify_contacts: true,
    };
    /// Both.
    pub const ALL: ActiveCollisionHooks = ActiveCollisionHooks {
        filter_pairs: true,
        modify_contacts: true,
    };

    /// True when the pair filter is asked.
    pub fn filters_pairs(&self) -> bool {
        self.filter_pairs
    }

    /// True when the contact modifier is called.
    pub fn modifies_contacts(&self) -> bool {
        self.modify_contacts
    }

    /// True when neither is.
    pub fn is_empty(&self) -> bool {
        !self.filter_pairs && !self.modify_contacts
    }
}

impl std::ops::BitOr for ActiveCollisionHooks {
    type Output = ActiveCollisionHooks;

    fn bitor(self, other: ActiveCollisionHooks) -> ActiveCollisionHooks {
        ActiveCollisionHooks {
            filter_pairs: self.filter_pairs || other.filter_pairs,
            modify_contacts: self.modify_contacts || other.modify_contacts,
        }
    }
}

/// A touching contact offered to [`CollisionHooks::modify_contacts`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPair {
    /// The first collider.
    pub collider1: Entity,
    /// The second collider.
    pub collider2: Entity,
    /// Friction coefficient for this step (starts at the colliders' mixed value).
    pub friction: f32,
    /// Restitution for this step (starts at the colliders' mixed value).
    pub restitution: f32,
    /// Surface speed for this step along the contact's tangent (the normal turned a
    /// quarter turn clockwise), in units per second: what touches is carried that way.
    /// Starts at the colliders' summed [`TangentSpeed`](crate::TangentSpeed).
    pub tangent_speed: f32,
    normal: Vec2,
    points: [Vec2; 2],
    separations: [f32; 2],
    point_count: usize,
}

impl ContactPair {
    /// Unit normal, pointing from collider A to collider B.
    pub fn normal(&self) -> Vec2 {
        self.normal
    }

    /// The contact points (world, midway between the surfaces), one or two.
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.point_count]
    }

    /// How far apart the surfaces are at each point (negative: overlapping).
    pub fn separations(&self) -> &[f32] {
        &self.separations[..self.point_count]
    }

    pub(crate) fn from_core(
        m: &ContactModification,
        collider1: Entity,
        collider2: Entity,
        frame: GameFrame,
    ) -> Self {
        let mut points = [Vec2::ZERO; 2];
        let mut separations = [0.0; 2];
        for (i, p) in m.manifold.points().iter().enumerate() {
            points[i] = frame.to_game(p.point);
            separations[i] = p.separation;
        }
        ContactPair {
            collider1,
            collider2,
            friction: m.friction,
            restitution: m.restitution,
            tangent_speed: m.tangent_speed,
            normal: m.manifold.normal,
            points,
            separations,
            point_count: m.manifold.point_count,
        }
    }
}
