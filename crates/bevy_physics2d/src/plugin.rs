//! [`PhysicsCorePlugin`]: the world resource, settings, observers, and the systems of every
//! stage in the [`PhysicsSystems`] sets.

use crate::body::{
    AngularDamping, AngularVelocity, Bullet, ExternalForce, ExternalImpulse, GravityScale,
    LinearDamping, LinearVelocity, LockedRotation, Mass, RigidBody, Sleeping,
};
use crate::collider::Collider;
use crate::events::{CollisionEnd, CollisionStart, JointBroken, SensorEntered, SensorExited};
use crate::joint::Joint;
use crate::material::{
    ColliderDensity, CollisionEventsEnabled, CollisionLayers, Friction, Restitution, Sensor,
};
use crate::physics_time::{self, Physics};
use crate::physics_world::PhysicsWorld;
use crate::schedule::{PhysicsSchedule, PhysicsSystems};
use crate::settings::PhysicsSettings;
use crate::stages::{PhysicsDiagnostics, StageClock};
use crate::warnings::PhysicsWarning;
use crate::{
    events, hierarchy, interpolation, lifecycle, prepare_bodies, prepare_colliders, prepare_joints,
    stages, sync, writeback,
};
use bevy_app::{App, FixedPostUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use physics_core::world::WorldDef;

/// The physics world and the stage systems (part of [`PhysicsPlugins`](crate::PhysicsPlugins)).
#[derive(Default)]
pub struct PhysicsCorePlugin;

impl Plugin for PhysicsCorePlugin {
    fn build(&self, app: &mut App) {
        let settings = app
            .world_mut()
            .get_resource_or_insert_with(PhysicsSettings::default)
            .clone();
        let world = PhysicsWorld::new(settings.to_world_def()).unwrap_or_else(|error| {
            bevy_log::warn!("physics: settings rejected ({error}); using the defaults");
            PhysicsWorld::new(WorldDef::default()).expect("the default settings are valid")
        });
        let schedule = app
            .world()
            .get_resource::<PhysicsSchedule>()
            .map_or(FixedPostUpdate.intern(), |s| s.0);
        app.insert_resource(world)
            .init_resource::<PhysicsDiagnostics>()
            .init_resource::<StageClock>()
            .init_resource::<writeback::LastWriteback>()
            .add_message::<PhysicsWarning>()
            .add_message::<CollisionStart>()
            .add_message::<CollisionEnd>()
            .add_message::<SensorEntered>()
            .add_message::<SensorExited>()
            .add_message::<JointBroken>()
            .add_message::<crate::events::CollisionHit>()
            .add_message::<crate::contacts::ContactForce>();
        app.register_type::<PhysicsSettings>()
            .register_type::<RigidBody>()
            .register_type::<Collider>()
            .register_type::<Joint>()
            .register_type::<LinearVelocity>()
            .register_type::<AngularVelocity>()
            .register_type::<ExternalForce>()
            .register_type::<ExternalImpulse>()
            .register_type::<GravityScale>()
            .register_type::<LinearDamping>()
            .register_type::<AngularDamping>()
            .register_type::<LockedRotation>()
            .register_type::<Mass>()
            .register_type::<Sleeping>()
            .register_type::<Bullet>()
            .register_type::<crate::FastRotation>()
            .register_type::<ColliderDensity>()
            .register_type::<Friction>()
            .register_type::<Restitution>()
            .register_type::<Sensor>()
            .register_type::<CollisionLayers>()
            .register_type::<CollisionEventsEnabled>()
            .register_type::<crate::material::TangentSpeed>()
            .register_type::<crate::material::RollingResistance>()
            .register_type::<interpolation::NoInterpolation>()
            .register_type::<crate::CharacterController>()
            .register_type::<crate::CharacterVelocity>()
            .register_type::<crate::CharacterState>()
            .register_type::<crate::OneWayPlatform>()
            .register_type::<crate::LockedAxes>()
            .register_type::<crate::Dominance>()
            .register_type::<crate::SleepingDisabled>()
            .register_type::<crate::SleepThreshold>()
            .register_type::<crate::RigidBodyDisabled>()
            .register_type::<crate::ColliderDisabled>()
            .register_type::<crate::ActiveCollisionHooks>()
            .register_type::<crate::FrictionCombine>()
            .register_type::<crate::RestitutionCombine>()
            .register_type::<crate::CollidingEntities>()
            .register_type::<crate::ContactForceEventThreshold>()
            .register_type::<crate::ComputedMass>()
            .register_type::<crate::ComputedAngularInertia>()
            .register_type::<crate::ComputedCenterOfMass>();
        lifecycle::add_observers(app);
        #[cfg(feature = "mesh")]
        app.register_type::<crate::ColliderConstructor>()
            .register_type::<crate::ColliderConstructorHierarchy>()
            .add_systems(
                bevy_app::PreUpdate,
                crate::collider_mesh::build_mesh_colliders,
            );
        app.init_resource::<bevy_time::Time<Physics>>()
            .register_type::<Physics>();
        app.add_systems(
            schedule,
            physics_time::advance_physics_time
                .in_set(PhysicsSystems::Prepare)
                .before(stages::begin_prepare),
        );
        let running = physics_time::physics_running;
        app.add_systems(
            schedule,
            (
                (
                    stages::begin_prepare,
                    sync::apply_settings,
                    prepare_bodies::queue_changed_bodies,
                    prepare_bodies::create_bodies,
                    lifecycle::queue_changed_colliders,
                    prepare_colliders::create_colliders,
                    prepare_colliders::update_materials,
                    prepare_joints::queue_changed_joints,
                    prepare_joints::create_joints,
                    queue_changed_props,
                    prepare_bodies::apply_body_props,
                    sync::apply_user_motion,
                    hierarchy::apply_hierarchy_motion,
                    crate::character::move_characters,
                    sync::apply_forces,
                    crate::computed_mass::write_computed_mass,
                    stages::end_prepare,
                )
                    .chain()
                    .in_set(PhysicsSystems::Prepare),
                stages::solve.in_set(PhysicsSystems::Solve),
                stages::integrate.in_set(PhysicsSystems::Integrate),
                (
                    stages::begin_writeback,
                    writeback::write_back_bodies,
                    hierarchy::write_back_child_bodies,
                    events::send_events,
                    crate::contacts::send_contact_forces,
                    crate::contacts::update_colliding_entities,
                    crate::casters::update_casters,
                    stages::end_writeback,
                    physics_time::take_queued_step,
                )
                    .chain()
                    .in_set(PhysicsSystems::Writeback),
            )
                .run_if(running),
        );
    }
}

/// Body settings mutated in place (arrivals and removals come from observers).
#[allow(clippy::type_complexity)]
fn queue_changed_props(
    mut physics: ResMut<PhysicsWorld>,
    changed: Query<
        Entity,
        (
            With<RigidBody>,
            Or<(
                Changed<GravityScale>,
                Changed<LinearDamping>,
                Changed<AngularDamping>,
                Changed<Mass>,
                Changed<crate::body_control::LockedAxes>,
                Changed<crate::body_control::Dominance>,
                Changed<crate::body_control::SleepThreshold>,
            )>,
        ),
    >,
) {
    let mut queued: Vec<(u32, Entity)> = changed
        .iter()
        .filter_map(|e| physics.body(e).map(|b| (b.index, e)))
        .collect();
    queued.sort_unstable();
    for (_, e) in queued {
        physics.pending.props.push(e);
    }
}
