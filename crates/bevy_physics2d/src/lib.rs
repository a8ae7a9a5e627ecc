//! # bevy_physics2d
//!
//! The Bevy plugin over `physics_core`: spawn entities with [`RigidBody`], [`Collider`] and
//! [`Joint`] components and they move.
//!
//! ```
//! use bevy_app::prelude::*;
//! use bevy_ecs::prelude::*;
//! use bevy_physics2d::prelude::*;
//!
//! let mut app = App::new();
//! app.add_plugins((bevy_time::TimePlugin, PhysicsPlugins::default()))
//!     .add_systems(Startup, |mut commands: Commands| {
//!         commands.spawn((RigidBody::Static, Collider::rectangle(40.0, 1.0), Transform::default()));
//!         let a = commands
//!             .spawn((RigidBody::Dynamic, Collider::circle(0.5), Transform::from_xyz(0.0, 4.0, 0.0)))
//!             .id();
//!         let b = commands
//!             .spawn((RigidBody::Dynamic, Collider::capsule(0.2, 1.0), Transform::from_xyz(1.0, 4.0, 0.0)))
//!             .id();
//!         commands.spawn(Joint::revolute(a, b).with_anchor(Vec2::new(0.5, 4.0)));
//!     });
//! app.update();
//! app.world_mut().run_schedule(FixedPostUpdate);
//! assert_eq!(app.world().resource::<PhysicsWorld>().core().joint_count(), 1);
//! ```
//!
//! The stages run in `FixedPostUpdate` as the chained sets [`PhysicsSystems`]; order your
//! systems against them (each set runs its stage's own [`PhysicsStageSchedule`] on one
//! thread). [`PhysicsPlugins`] lists one plugin per feature, each in its own module
//! ([`world`], [`dynamics`], [`collision`], [`spatial_query`], [`character`],
//! [`interpolation`], [`rollback`]); the optional ones can be disabled.
//! [`PhysicsSettings`] holds gravity, the length unit, substeps and solver settings;
//! [`PhysicsDebugPlugin`] draws the world with gizmos.

// Bevy systems take queries with filter tuples and many parameters by design.
#![allow(clippy::type_complexity, clippy::too_many_arguments)]

pub mod character;
pub mod collision;
pub mod debug;
pub mod dynamics;
pub mod interpolation;
pub mod origin;
mod plugins;
pub mod rollback;
pub mod schedule;
pub mod spatial_query;
pub mod world;

pub use bevy_physics2d_derive::PhysicsLayer;
pub use character::CharacterControllerPlugin;
pub use character::controller::{
    CharacterController, CharacterState, CharacterVelocity, OneWayPlatform,
};
pub use collision::collider::Collider;
#[cfg(feature = "mesh")]
pub use collision::collider_mesh::{
    ColliderConstructor, ColliderConstructorHierarchy, MeshColliderError, MeshShape,
};
pub use collision::contacts::{
    CollidingEntities, Collisions, ContactForce, ContactForceEventThreshold, ContactManifold,
    ContactPoint,
};
pub use collision::events::CollisionEventsPlugin;
pub use collision::events::{
    CollisionEnd, CollisionHit, CollisionStart, SensorEntered, SensorExited,
};
pub use collision::hooks::{ActiveCollisionHooks, CollisionHooks, ContactPair};
pub use collision::layers::{LayerMask, PhysicsLayer};
pub use collision::material::{
    ColliderDensity, CollisionEventsEnabled, CollisionLayers, Friction, FrictionCombine,
    Restitution, RestitutionCombine, RollingResistance, Sensor, TangentSpeed,
};
pub use collision::{ColliderPlugin, PhysicsPairStagesPlugin};
pub use debug::{DebugRender, PhysicsDebugPlugin, PhysicsDebugStats, PhysicsGizmos};
pub use dynamics::body::RigidBodyPlugin;
pub use dynamics::body::components::{
    AngularDamping, AngularVelocity, Bullet, ExternalForce, ExternalImpulse, FastRotation,
    GravityScale, LinearDamping, LinearVelocity, LockedRotation, Mass, RigidBody, Sleeping,
};
pub use dynamics::body::computed_mass::{
    ComputedAngularInertia, ComputedCenterOfMass, ComputedMass,
};
pub use dynamics::body::control::{
    ColliderDisabled, Dominance, LockedAxes, RigidBodyDisabled, SleepThreshold, SleepingDisabled,
};
pub use dynamics::body::forces::{Forces, PendingForces};
pub use dynamics::body::tree_marking::{
    MARKING_OFF_FACTOR, MARKING_OFF_MIN_WRITES, TreeMarking, tree_marking_wanted,
};
pub use dynamics::joint::JointPlugin;
pub use dynamics::joint::builder::{
    HasLimits, HasMotor, HasReferenceAngle, HasSpring, JointBuilder, JointType, joint_types,
};
pub use dynamics::joint::components::{Joint, JointAnchor, JointTypeError};
pub use dynamics::joint::{JointBreakReason, JointBroken};
pub use interpolation::{InterpolationPoses, NoInterpolation, PhysicsInterpolationPlugin};
pub use origin::{FloatingOrigin, PhysicsOrigin, PhysicsOriginPlugin};
pub use physics_core;
pub use plugins::PhysicsPlugins;
pub use rollback::PhysicsWorldSnapshot;
#[cfg(feature = "ggrs")]
pub use rollback::ggrs::{PhysicsRollbackPlugin, PhysicsWorldStrategy};
#[cfg(feature = "lightyear")]
pub use rollback::lightyear::{PhysicsLightyearPlugin, PhysicsNetId, PhysicsNetSystems};
pub use rollback::snapshot_bytes::SnapshotDecodeError;
pub use schedule::PhysicsDiagnostics;
pub use schedule::physics_time::{Physics, PhysicsTime};
pub use schedule::{PhysicsSchedule, PhysicsSchedulePlugin, PhysicsSystems};
pub use schedule::{PhysicsStageSchedule, PrepareSystems, WritebackSystems};
pub use spatial_query::SpatialQueryPlugin;
pub use spatial_query::casters::{RayCaster, RayHits, ShapeCaster, ShapeHits};
#[cfg(feature = "picking")]
pub use spatial_query::picking::{
    PhysicsPickingCamera, PhysicsPickingPlugin, PhysicsPickingSettings,
};
pub use spatial_query::query::{PointProjection, QueryHit, SpatialQuery, SpatialQueryFilter};
pub use world::PhysicsWorldPlugin;
pub use world::diagnostics_store::PhysicsDiagnosticsPlugin;
pub use world::game_frame::GameFrame;
pub use world::handle::PhysicsBody;
pub use world::physics_world::{PhysicsWorld, pose_from_transform, quat_from_rot, rot_from_quat};
pub use world::settings::PhysicsSettings;
pub use world::threads::ComputeTaskPoolRunner;
pub use world::warnings::PhysicsWarning;

/// The types most programs need.
pub mod prelude {
    pub use crate::{
        ActiveCollisionHooks, AngularDamping, AngularVelocity, Bullet, CharacterController,
        CharacterState, CharacterVelocity, Collider, ColliderDensity, ColliderDisabled,
        CollidingEntities, CollisionEnd, CollisionEventsEnabled, CollisionHit, CollisionHooks,
        CollisionLayers, CollisionStart, Collisions, ComputedAngularInertia, ComputedCenterOfMass,
        ComputedMass, ContactForce, ContactForceEventThreshold, ContactPair, Dominance,
        ExternalForce, ExternalImpulse, FastRotation, Forces, Friction, GravityScale, Joint,
        JointBroken, LinearDamping, LinearVelocity, LockedAxes, LockedRotation, Mass,
        NoInterpolation, OneWayPlatform, Physics, PhysicsDebugPlugin, PhysicsDiagnostics,
        PhysicsGizmos, PhysicsPlugins, PhysicsSchedulePlugin, PhysicsSettings, PhysicsSystems,
        PhysicsTime, PhysicsWarning, PhysicsWorld, Restitution, RigidBody, RigidBodyDisabled,
        RollingResistance, Sensor, SensorEntered, SensorExited, SleepThreshold, Sleeping,
        SleepingDisabled, SpatialQuery, SpatialQueryFilter, TangentSpeed,
    };
    #[cfg(feature = "mesh")]
    pub use crate::{ColliderConstructor, ColliderConstructorHierarchy, MeshShape};
    pub use crate::{
        DebugRender, FloatingOrigin, FrictionCombine, LayerMask, PhysicsLayer, PhysicsOrigin,
        RayCaster, RayHits, RestitutionCombine, ShapeCaster, ShapeHits,
    };
    pub use bevy_math::Vec2;
    pub use bevy_transform::components::Transform;
    pub use physics_core::position::Position;
    pub use physics_core::world::{ContactLanes, MixRule};
}
