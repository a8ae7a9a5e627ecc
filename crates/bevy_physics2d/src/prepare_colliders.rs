//! Prepare stage, colliders: attach the core shape of every queued collider to the body found
//! on its entity or nearest ancestor, placed by the transforms in between.

use crate::collider::Collider;
use crate::material::{ColliderDensity, CollisionLayers, Friction, Restitution, Sensor};
use crate::physics_world::{PhysicsWorld, pose_from_transform};
use crate::warnings::{PhysicsWarning, warn_skipped};
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_ecs::query::QueryData;
use bevy_transform::components::Transform;
use physics_core::math::Transform as CoreTransform;
use physics_core::shape_def::ShapeDef;

/// The material components of an entity (a collider's own, or its body's as a fallback).
#[derive(QueryData)]
pub(crate) struct MaterialComponents {
    density: Option<&'static ColliderDensity>,
    friction: Option<&'static Friction>,
    restitution: Option<&'static Restitution>,
    layers: Option<&'static CollisionLayers>,
    sensor: Has<Sensor>,
}

/// The shape def of a collider: each material from the collider's entity, else from its
/// body's entity, else the default.
pub(crate) fn shape_def(
    own: &MaterialComponentsItem,
    body: Option<&MaterialComponentsItem>,
) -> ShapeDef {
    let base = ShapeDef::default();
    let pick = |f: fn(&MaterialComponentsItem) -> Option<f32>, default: f32| {
        f(own).or_else(|| body.and_then(f)).unwrap_or(default)
    };
    ShapeDef {
        density: pick(|m| m.density.map(|d| d.0), base.density),
        friction: pick(|m| m.friction.map(|f| f.0), base.friction),
        restitution: pick(|m| m.restitution.map(|r| r.0), base.restitution),
        is_sensor: own.sensor || body.is_some_and(|b| b.sensor),
        filter: own
            .layers
            .or_else(|| body.and_then(|b| b.layers))
            .map_or(base.filter, |l| l.to_filter()),
        enable_hit_events: false,
    }
}

/// Creates the core shape of every queued collider (replacing the old one if any).
pub(crate) fn create_colliders(
    mut physics: ResMut<PhysicsWorld>,
    mut warnings: MessageWriter<PhysicsWarning>,
    colliders: Query<&Collider>,
    materials: Query<MaterialComponents>,
    placement: Query<(&Transform, Option<&ChildOf>)>,
    body_components: Query<(), With<crate::body::RigidBody>>,
) {
    if physics.pending.colliders.is_empty() {
        return;
    }
    for entity in physics.pending.colliders.take() {
        if let Some(old) = physics.unmap_shape(entity) {
            let _ = physics.world.destroy_shape(old);
        }
        let Ok(collider) = colliders.get(entity) else {
            continue; // the collider was removed or the entity despawned
        };
        // Walk up to the nearest body, composing the transforms in between.
        let mut offset = CoreTransform::IDENTITY;
        let mut current = entity;
        let body = loop {
            if let Some(body) = physics.body(current) {
                break Some((current, body));
            }
            let Ok((transform, parent)) = placement.get(current) else {
                break None;
            };
            let (p, q) = pose_from_transform(transform.translation, transform.rotation);
            offset = CoreTransform::new(p + q.rotate(offset.p), q * offset.q);
            match parent {
                Some(parent) => current = parent.parent(),
                None => break None,
            }
        };
        let Some((body_entity, body)) = body else {
            // A body that is waiting or was rejected (with its own warning) queues its
            // colliders again when it is created.
            if !has_body_ancestor(entity, &placement, &body_components) {
                warn_skipped(
                    &mut warnings,
                    entity,
                    "collider has no RigidBody on its entity or an ancestor",
                );
            }
            continue;
        };
        let shape = match collider.to_shape(offset) {
            Ok(shape) => shape,
            Err(error) => {
                warn_skipped(&mut warnings, entity, format_args!("collider: {error}"));
                continue;
            }
        };
        let Ok(own) = materials.get(entity) else {
            continue;
        };
        let body_materials = (body_entity != entity)
            .then(|| materials.get(body_entity).ok())
            .flatten();
        let def = shape_def(&own, body_materials.as_ref());
        match physics.world.create_shape(body, &def, shape) {
            Ok(id) => physics.map_shape(entity, id),
            Err(error) => warn_skipped(&mut warnings, entity, format_args!("collider: {error}")),
        }
    }
}

/// True when the entity or an ancestor has a `RigidBody` component (whose core body does not
/// exist yet or was rejected).
fn has_body_ancestor(
    entity: Entity,
    placement: &Query<(&Transform, Option<&ChildOf>)>,
    bodies: &Query<(), With<crate::body::RigidBody>>,
) -> bool {
    let mut current = Some(entity);
    while let Some(e) = current {
        if bodies.contains(e) {
            return true;
        }
        current = placement
            .get(e)
            .ok()
            .and_then(|(_, p)| p.map(|p| p.parent()));
    }
    false
}

/// Friction and restitution changed in place: update the shapes without rebuilding them
/// (contacts keep their warm-start impulses).
pub(crate) fn update_materials(
    mut physics: ResMut<PhysicsWorld>,
    mut warnings: MessageWriter<PhysicsWarning>,
    changed: Query<Entity, Or<(Changed<Friction>, Changed<Restitution>)>>,
    materials: Query<MaterialComponents>,
    colliders: Query<(), With<Collider>>,
) {
    for entity in &changed {
        // The entity's own shape, or, for a body, the shapes that inherit its materials.
        let mut targets = Vec::new();
        if physics.shape(entity).is_some() {
            targets.push((entity, None));
        }
        if let Some(body) = physics.body(entity) {
            for &shape in physics.world.body_shapes(body).unwrap_or(&[]) {
                if let Some(e) = physics.collider_entity(shape)
                    && e != entity
                {
                    targets.push((e, Some(entity)));
                }
            }
        }
        for (collider, body_entity) in targets {
            let (Some(shape), Ok(own)) = (physics.shape(collider), materials.get(collider)) else {
                continue;
            };
            if !colliders.contains(collider) {
                continue;
            }
            let body_m = body_entity.and_then(|b| materials.get(b).ok());
            let def = shape_def(&own, body_m.as_ref());
            if let Err(error) =
                physics
                    .world
                    .set_shape_material(shape, def.friction, def.restitution)
            {
                warn_skipped(&mut warnings, collider, format_args!("material: {error}"));
            }
        }
    }
}
