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
//! systems against them. [`PhysicsSettings`] holds gravity, the length unit, substeps and
//! solver settings; [`PhysicsDebugPlugin`] draws the world with gizmos.

// Bevy systems take queries with filter tuples and many parameters by design.
#![allow(clippy::type_complexity, clippy::too_many_arguments)]

mod body;
mod body_control;
mod casters;
mod character;
mod collider;
mod collider_from;
#[cfg(feature = "mesh")]
mod collider_mesh;
mod computed_mass;
mod contacts;
mod debug;
mod diagnostics_store;
mod events;
mod forces;
mod frame;
#[cfg(feature = "ggrs")]
mod ggrs_rollback;
mod handle;
mod hierarchy;
mod hooks;
mod interpolation;
mod joint;
mod joint_builder;
mod layers;
mod lifecycle;
#[cfg(feature = "lightyear")]
pub mod lightyear_net;
mod material;
mod physics_time;
mod physics_world;
#[cfg(feature = "picking")]
mod picking;
mod plugin;
mod prepare_bodies;
mod prepare_colliders;
mod prepare_joints;
mod query;
pub mod rollback;
mod schedule;
mod sent_events;
mod settings;
mod snapshot_bytes;
mod stages;
mod sync;
mod threads;
mod warnings;
mod writeback;

pub use bevy_physics2d_derive::PhysicsLayer;
pub use body::{
    AngularDamping, AngularVelocity, Bullet, ExternalForce, ExternalImpulse, FastRotation,
    GravityScale, LinearDamping, LinearVelocity, LockedRotation, Mass, RigidBody, Sleeping,
};
pub use body_control::{
    ColliderDisabled, Dominance, LockedAxes, RigidBodyDisabled, SleepThreshold, SleepingDisabled,
};
pub use casters::{RayCaster, RayHits, ShapeCaster, ShapeHits};
pub use character::{CharacterController, CharacterState, CharacterVelocity, OneWayPlatform};
pub use collider::Collider;
#[cfg(feature = "mesh")]
pub use collider_mesh::{
    ColliderConstructor, ColliderConstructorHierarchy, MeshColliderError, MeshShape,
};
pub use computed_mass::{ComputedAngularInertia, ComputedCenterOfMass, ComputedMass};
pub use contacts::{
    CollidingEntities, Collisions, ContactForce, ContactForceEventThreshold, ContactManifold,
    ContactPoint,
};
pub use debug::{DebugRender, PhysicsDebugPlugin, PhysicsDebugStats, PhysicsGizmos};
pub use diagnostics_store::PhysicsDiagnosticsPlugin;
pub use events::{
    CollisionEnd, CollisionHit, CollisionStart, JointBreakReason, JointBroken, SensorEntered,
    SensorExited,
};
pub use forces::{Forces, PendingForces};
#[cfg(feature = "ggrs")]
pub use ggrs_rollback::{PhysicsRollbackPlugin, PhysicsWorldStrategy};
pub use handle::PhysicsBody;
pub use hooks::{ActiveCollisionHooks, CollisionHooks, ContactPair, PhysicsPairStagesPlugin};
pub use interpolation::{InterpolationPoses, NoInterpolation, PhysicsInterpolationPlugin};
pub use joint::{Joint, JointAnchor, JointTypeError};
pub use joint_builder::{
    HasLimits, HasMotor, HasReferenceAngle, HasSpring, JointBuilder, JointType, joint_types,
};
pub use layers::{LayerMask, PhysicsLayer};
#[cfg(feature = "lightyear")]
pub use lightyear_net::{PhysicsLightyearPlugin, PhysicsNetId, PhysicsNetSystems};
pub use material::{
    ColliderDensity, CollisionEventsEnabled, CollisionLayers, Friction, FrictionCombine,
    Restitution, RestitutionCombine, RollingResistance, Sensor, TangentSpeed,
};
pub use physics_core;
pub use physics_time::{Physics, PhysicsTime};
pub use physics_world::{PhysicsWorld, pose_from_transform, quat_from_rot, rot_from_quat};
#[cfg(feature = "picking")]
pub use picking::{PhysicsPickingCamera, PhysicsPickingPlugin, PhysicsPickingSettings};
pub use plugin::PhysicsCorePlugin;
pub use query::{PointProjection, QueryHit, SpatialQuery, SpatialQueryFilter};
pub use rollback::PhysicsWorldSnapshot;
pub use schedule::{PhysicsPlugins, PhysicsSchedule, PhysicsSchedulePlugin, PhysicsSystems};
pub use settings::PhysicsSettings;
pub use snapshot_bytes::SnapshotDecodeError;
pub use stages::PhysicsDiagnostics;
pub use threads::ComputeTaskPoolRunner;
pub use warnings::PhysicsWarning;

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
        DebugRender, FrictionCombine, LayerMask, PhysicsLayer, RayCaster, RayHits,
        RestitutionCombine, ShapeCaster, ShapeHits,
    };
    pub use bevy_math::Vec2;
    pub use bevy_transform::components::Transform;
    pub use physics_core::world::MixRule;
}
