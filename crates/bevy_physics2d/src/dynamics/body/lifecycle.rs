//! Observers that keep the core world in step with component arrivals and departures.
//!
//! Arrivals are queued (in arrival order) and built in the Prepare stage, where bodies come
//! before colliders and colliders before joints; departures are applied at once, so a
//! despawned entity never leaves a core object behind.

use crate::RigidBody;
use crate::body::{
    AngularDamping, Bullet, FastRotation, GravityScale, LinearDamping, LockedRotation, Mass,
    Sleeping,
};
use crate::body_control::{
    ColliderDisabled, Dominance, LockedAxes, RigidBodyDisabled, SleepThreshold, SleepingDisabled,
};
use crate::collider::Collider;
use crate::events::{JointBreakReason, JointBroken};
use crate::joint::Joint;
use crate::material::{
    ColliderDensity, CollisionEventsEnabled, CollisionLayers, Friction, Restitution,
    RollingResistance, Sensor, TangentSpeed,
};
use crate::physics_world::PhysicsWorld;
use bevy_app::App;
use bevy_ecs::lifecycle::{Insert, Remove};
use bevy_ecs::prelude::*;

/// Registers the observers.
pub(crate) fn add_observers(app: &mut App) {
    app.add_observer(
        |on: On<Insert, RigidBody>, mut physics: ResMut<PhysicsWorld>| {
            physics.pending.bodies.push(on.entity);
        },
    )
    .add_observer(on_body_removed)
    .add_observer(
        |on: On<Insert, Collider>, mut physics: ResMut<PhysicsWorld>| {
            physics.pending.colliders.push(on.entity);
        },
    )
    .add_observer(
        |on: On<Remove, Collider>, mut physics: ResMut<PhysicsWorld>| {
            for shape in physics.unmap_shapes(on.entity) {
                // The body's mass settings are redone without the shape (a partial `Mass`
                // override starts from what the shapes give).
                if let Some(body) = physics.world.shape_body(shape).ok()
                    && let Some(body_entity) = physics.body_entity(body)
                {
                    physics.pending.props.push(body_entity);
                }
                let _ = physics.world.destroy_shape(shape);
            }
        },
    )
    .add_observer(|on: On<Insert, Joint>, mut physics: ResMut<PhysicsWorld>| {
        physics.pending.joints.push(on.entity);
    })
    .add_observer(|on: On<Remove, Joint>, mut physics: ResMut<PhysicsWorld>| {
        if let Some(joint) = physics.unmap_joint(on.entity) {
            let _ = physics.world.destroy_joint(joint);
        }
    })
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
    add_material_observers::<ColliderDensity>(app);
    add_material_observers::<CollisionLayers>(app);
    add_material_observers::<Sensor>(app);
    add_material_observers::<Friction>(app);
    add_material_observers::<Restitution>(app);
    add_material_observers::<CollisionEventsEnabled>(app);
    add_material_observers::<TangentSpeed>(app);
    add_material_observers::<RollingResistance>(app);
    add_material_observers::<crate::hooks::ActiveCollisionHooks>(app);
    add_material_observers::<crate::material::FrictionCombine>(app);
    add_material_observers::<crate::material::RestitutionCombine>(app);
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
                destroy_body_keeping_parts(&mut physics, on.entity);
                commands
                    .entity(on.entity)
                    .try_remove::<crate::handle::PhysicsBody>();
            }
        },
    )
    .add_observer(
        |on: On<Remove, RigidBodyDisabled>,
         mut physics: ResMut<PhysicsWorld>,
         joints: Query<(Entity, &Joint)>| {
            physics.pending.bodies.push(on.entity);
            // Joints to this body waited while it was out: they are built once it is back.
            let mut waiting: Vec<Entity> = joints
                .iter()
                .filter(|(_, j)| j.entity_a == on.entity || j.entity_b == on.entity)
                .map(|(e, _)| e)
                .collect();
            waiting.sort_unstable();
            for joint in waiting {
                physics.pending.joints.push(joint);
            }
        },
    )
    .add_observer(
        |on: On<Insert, ColliderDisabled>, mut physics: ResMut<PhysicsWorld>| {
            physics.pending.colliders.push(on.entity);
        },
    )
    .add_observer(
        |on: On<Remove, ColliderDisabled>, mut physics: ResMut<PhysicsWorld>| {
            physics.pending.colliders.push(on.entity);
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

/// Collider materials: arrival or departure rebuilds the shapes that use them.
fn add_material_observers<T: Component>(app: &mut App) {
    app.add_observer(|on: On<Insert, T>, mut physics: ResMut<PhysicsWorld>| {
        queue_material_users(&mut physics, on.entity);
    })
    .add_observer(|on: On<Remove, T>, mut physics: ResMut<PhysicsWorld>| {
        queue_material_users(&mut physics, on.entity);
    });
}

/// Queues for rebuilding the collider on `entity` and, when it is a body, its other colliders.
pub(crate) fn queue_material_users(physics: &mut PhysicsWorld, entity: Entity) {
    if physics.shape(entity).is_some() {
        physics.pending.colliders.push(entity);
    }
    if let Some(body) = physics.body(entity) {
        let shapes = physics
            .world
            .body_shapes(body)
            .map(<[_]>::to_vec)
            .unwrap_or_default();
        for shape in shapes {
            if let Some(e) = physics.collider_entity(shape) {
                physics.pending.colliders.push(e);
            }
        }
    }
}

/// Mutated densities, layers and placements of child colliders rebuild their shapes.
pub(crate) fn queue_changed_colliders(
    mut physics: ResMut<PhysicsWorld>,
    changed: Query<
        Entity,
        Or<(
            Changed<Collider>,
            Changed<ColliderDensity>,
            Changed<CollisionLayers>,
            Changed<crate::hooks::ActiveCollisionHooks>,
        )>,
    >,
    moved_parts: Query<
        Entity,
        (
            Changed<bevy_transform::components::Transform>,
            With<Collider>,
            Without<RigidBody>,
        ),
    >,
) {
    let mut queued: Vec<Entity> = changed.iter().chain(moved_parts.iter()).collect();
    // Shape ids first (existing shapes in id order), so rebuilds do not depend on layout.
    queued.sort_by_key(|e| physics.shape(*e).map(|s| s.index));
    for e in queued {
        if physics.shape(e).is_some() || physics.body(e).is_some() {
            queue_material_users(&mut physics, e);
        }
    }
}

fn on_body_removed(
    on: On<Remove, RigidBody>,
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    mut broken: MessageWriter<JointBroken>,
) {
    let entity = on.entity;
    let Some(body) = physics.body(entity) else {
        return;
    };
    for joint in physics.world.body_joints(body).unwrap_or_default() {
        let Some(joint_entity) = physics.joint_entity(joint) else {
            continue;
        };
        physics.unmap_joint(joint_entity);
        bevy_log::debug!(
            "physics: joint {joint_entity} destroyed because its body {entity} was removed"
        );
        let event = JointBroken {
            joint: joint_entity,
            reason: JointBreakReason::BodyRemoved { body: entity },
        };
        broken.write(event);
        commands.trigger(event);
    }
    // Colliders that outlive the body look for another one at the next step.
    for collider in unmap_body_shapes(&mut physics, body) {
        physics.pending.colliders.push(collider);
    }
    physics.unmap_body(entity);
    let _ = physics.world.destroy_body(body);
}

fn unmap_body_shapes(physics: &mut PhysicsWorld, body: physics_core::id::BodyId) -> Vec<Entity> {
    let shapes = physics
        .world
        .body_shapes(body)
        .map(<[_]>::to_vec)
        .unwrap_or_default();
    let mut entities = Vec::new();
    for shape in shapes {
        // A compound's parts share an entity: unmapped with its first part found.
        if let Some(e) = physics.collider_entity(shape)
            && physics.shape(e).is_some()
        {
            physics.unmap_shapes(e);
            entities.push(e);
        }
    }
    entities
}

/// Destroys an entity's core body to rebuild it (a new body type): its colliders and joints
/// are queued to be rebuilt with it, silently.
pub(crate) fn destroy_body_keeping_parts(physics: &mut PhysicsWorld, entity: Entity) {
    let Some(body) = physics.body(entity) else {
        return;
    };
    for joint in physics.world.body_joints(body).unwrap_or_default() {
        if let Some(e) = physics.joint_entity(joint) {
            physics.unmap_joint(e);
            physics.pending.joints.push(e);
        }
    }
    for collider in unmap_body_shapes(physics, body) {
        physics.pending.colliders.push(collider);
    }
    physics.unmap_body(entity);
    let _ = physics.world.destroy_body(body);
}
