//! Rigid bodies: the [`RigidBody`] component and everything a body carries
//! (velocities, forces, mass, damping, locks, sleep, disabling), bodies inside hierarchies,
//! the writeback of simulated poses and velocities, and the switch of Bevy's static-tree
//! marking while most bodies move. [`RigidBodyPlugin`] registers them.

pub(crate) mod components;
pub(crate) mod computed_mass;
pub(crate) mod control;
pub(crate) mod forces;
pub(crate) mod frame;
pub(crate) mod hierarchy;
pub(crate) mod lifecycle;
pub(crate) mod motion;
pub(crate) mod prepare;
pub(crate) mod tree_marking;
pub(crate) mod writeback;

use crate::schedule::{PhysicsStageSchedule, PrepareSystems, WritebackSystems};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use components::*;
use control::*;

/// Rigid bodies (part of [`PhysicsPlugins`](crate::PhysicsPlugins); every other feature
/// needs it): the body components and their observers, and the Prepare and Writeback steps
/// that move bodies between the components and the core world.
#[derive(Default)]
pub struct RigidBodyPlugin;

impl Plugin for RigidBodyPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<writeback::LastWriteback>()
            .init_resource::<tree_marking::TreeMarking>()
            .register_type::<tree_marking::TreeMarking>()
            .register_type::<RigidBody>()
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
            .register_type::<FastRotation>()
            .register_type::<LockedAxes>()
            .register_type::<Dominance>()
            .register_type::<SleepingDisabled>()
            .register_type::<SleepThreshold>()
            .register_type::<RigidBodyDisabled>()
            .register_type::<ColliderDisabled>()
            .register_type::<computed_mass::ComputedMass>()
            .register_type::<computed_mass::ComputedAngularInertia>()
            .register_type::<computed_mass::ComputedCenterOfMass>();
        lifecycle::add_observers(app);
        app.add_systems(
            PhysicsStageSchedule::Prepare,
            (
                (prepare::queue_changed_bodies, prepare::create_bodies)
                    .chain()
                    .in_set(PrepareSystems::Bodies),
                (prepare::queue_changed_props, prepare::apply_body_props)
                    .chain()
                    .in_set(PrepareSystems::BodyProperties),
                (
                    prepare::restate_built_velocities,
                    motion::apply_user_motion,
                    // Not skipped by a run condition: the change ticks it compares must
                    // advance every step, or a body that later gets a parent would take
                    // old writebacks for the game's moves.
                    hierarchy::apply_hierarchy_motion,
                    hierarchy::rebuild_rescaled_roots,
                    hierarchy::forget_restored_velocities,
                )
                    .chain()
                    .in_set(PrepareSystems::Motion),
                motion::apply_forces.in_set(PrepareSystems::Forces),
                computed_mass::write_computed_mass.in_set(PrepareSystems::Mass),
            ),
        )
        .add_systems(
            PhysicsStageSchedule::Writeback,
            (
                writeback::write_back_bodies,
                hierarchy::write_back_child_bodies.run_if(hierarchy::any_child_body),
                tree_marking::tune_tree_marking,
            )
                .chain()
                .in_set(WritebackSystems::Bodies),
        );
    }
}
