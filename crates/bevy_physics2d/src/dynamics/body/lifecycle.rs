//! Observers that keep the core bodies in step with component arrivals and departures:
//! an arriving `RigidBody` is queued (in arrival order) and built in the Prepare stage; a
//! departing one is destroyed at once, so a despawned entity never leaves a core body behind.

use crate::dynamics::body::components::{
    AngularDamping, Bullet, FastRotation, GravityScale, LinearDamping, LockedRotation, Mass,
    RigidBody, Sleeping,
};
use crate::dynamics::body::control::{
    Dominance, LockedAxes, RigidBodyDisabled, SleepThreshold, SleepingDisabled,
};
use crate::dynamics::joint::{JointBreakReason, JointBroken};
use crate::world::physics_world::PhysicsWorld;
use bevy_app::App;
use bevy_ecs::lifecycle::{Insert, Remove};
use bevy_ecs::message::Messages;
use bevy_ecs::prelude::*;

/// Registers the body observers.
pub(crate) fn add_observers(app: &mut App) {
    app.add_observer(
        |on: On<Insert, RigidBody>, mut physics: ResMut<PhysicsWorld>| {
            physics.pending.bodies.push(on.entity);
        },
    )
    .add_observer(on_body_removed)
    .add_observer(
        |on: On<Insert, Sleeping>, mut physics: ResMut<PhysicsWorld>| {
            if let Some(body) = physics.body(on.entity)
                && physics.world.is_awake(body) == Ok(true)
            {
                let _ = physics.world.set_awake(body, false);
            }
        },
    )
    .add_observer(
        |on: On<Remove, Sleeping>, mut physics: ResMut<PhysicsWorld>| {
            if let Some(body) = physics.body(on.entity)
                && physics.world.is_awake(body) == Ok(false)
            {
                let _ = physics.world.set_awake(body, true);
            }
        },
    );
    add_props_observers::<GravityScale>(app);
    add_props_observers::<LinearDamping>(app);
    add_props_observers::<AngularDamping>(app);
    add_props_observers::<LockedRotation>(app);
    add_props_observers::<Bullet>(app);
    add_props_observers::<FastRotation>(app);
    add_props_observers::<Mass>(app);
    add_props_observers::<LockedAxes>(app);
    add_props_observers::<Dominance>(app);
    add_props_observers::<SleepingDisabled>(app);
    add_props_observers::<SleepThreshold>(app);
    add_disable_observers(app);
}

/// Disabling a body takes its core body out (its colliders and joints wait for it, silently);
/// enabling builds it again from its components, then its colliders and joints. Disabling a
/// collider takes its shapes out; enabling queues it to be built.
fn add_disable_observers(app: &mut App) {
    app.add_observer(
        |on: On<Insert, RigidBodyDisabled>,
         mut commands: Commands,
         mut physics: ResMut<PhysicsWorld>| {
            if physics.body(on.entity).is_some() {
                physics.destroy_body_keeping_parts(on.entity);
                commands
                    .entity(on.entity)
                    .try_remove::<crate::world::handle::PhysicsBody>();
            }
        },
    )
    .add_observer(
        |on: On<Remove, RigidBodyDisabled>, mut physics: ResMut<PhysicsWorld>| {
            // Its joints, which waited while it was out, are queued by `JointPlugin`.
            physics.pending.bodies.push(on.entity);
        },
    );
}

/// Body settings: queued on arrival and departure (mutations are found by change detection).
fn add_props_observers<T: Component>(app: &mut App) {
    app.add_observer(|on: On<Insert, T>, mut physics: ResMut<PhysicsWorld>| {
        physics.pending.props.push(on.entity);
    })
    .add_observer(|on: On<Remove, T>, mut physics: ResMut<PhysicsWorld>| {
        physics.pending.props.push(on.entity);
    });
}

/// A body's removal destroys its core body; the joints it had are broken, each a
/// [`JointBroken`] (a message while the [`JointPlugin`](crate::JointPlugin) registers it, and
/// an entity event).
fn on_body_removed(
    on: On<Remove, RigidBody>,
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    mut broken: Option<ResMut<Messages<JointBroken>>>,
) {
    let entity = on.entity;
    for joint_entity in physics.remove_body(entity) {
        bevy_log::debug!(
            "physics: joint {joint_entity} destroyed because its body {entity} was removed"
        );
        let event = JointBroken {
            joint: joint_entity,
            reason: JointBreakReason::BodyRemoved { body: entity },
        };
        if let Some(messages) = broken.as_mut() {
            messages.write(event);
        }
        commands.trigger(event);
    }
}
