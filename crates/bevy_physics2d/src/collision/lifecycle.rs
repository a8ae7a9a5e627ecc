//! Observers that keep the core shapes in step with collider arrivals and departures, and
//! the queueing of colliders whose shape or material changed: arrivals are queued (in
//! arrival order) and built in the Prepare stage after the bodies; departures are applied at
//! once.

use crate::collision::collider::Collider;
use crate::collision::hooks::ActiveCollisionHooks;
use crate::collision::material::{
    ColliderDensity, CollisionEventsEnabled, CollisionLayers, Friction, FrictionCombine,
    Restitution, RestitutionCombine, RollingResistance, Sensor, TangentSpeed,
};
use crate::dynamics::body::components::RigidBody;
use crate::dynamics::body::control::ColliderDisabled;
use crate::world::physics_world::PhysicsWorld;
use bevy_app::App;
use bevy_ecs::lifecycle::{Insert, Remove};
use bevy_ecs::prelude::*;

/// Registers the collider observers.
pub(crate) fn add_observers(app: &mut App) {
    app.add_observer(
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
    // Disabling a collider takes its shapes out; enabling queues it to be built.
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
    add_material_observers::<ColliderDensity>(app);
    add_material_observers::<CollisionLayers>(app);
    add_material_observers::<Sensor>(app);
    add_material_observers::<Friction>(app);
    add_material_observers::<Restitution>(app);
    add_material_observers::<CollisionEventsEnabled>(app);
    add_material_observers::<TangentSpeed>(app);
    add_material_observers::<RollingResistance>(app);
    add_material_observers::<ActiveCollisionHooks>(app);
    add_material_observers::<FrictionCombine>(app);
    add_material_observers::<RestitutionCombine>(app);
}

/// Collider materials: arrival or departure rebuilds the shapes that use them.
fn add_material_observers<T: Component>(app: &mut App) {
    app.add_observer(|on: On<Insert, T>, mut physics: ResMut<PhysicsWorld>| {
        physics.queue_material_users(on.entity);
    })
    .add_observer(|on: On<Remove, T>, mut physics: ResMut<PhysicsWorld>| {
        physics.queue_material_users(on.entity);
    });
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
            Changed<ActiveCollisionHooks>,
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
            physics.queue_material_users(e);
        }
    }
}
