//! Prepare stage, colliders: attach the core shape of every queued collider to the body found
//! on its entity or nearest ancestor, placed by the transforms in between.

use crate::collision::collider::Collider;
use crate::collision::material::{
    ColliderDensity, CollisionEventsEnabled, CollisionLayers, Friction, Restitution,
    RollingResistance, Sensor, TangentSpeed,
};
use crate::dynamics::body::frame::Frame;
use crate::dynamics::body::hierarchy::world_frame;
use crate::world::physics_world::PhysicsWorld;
use crate::world::warnings::{PhysicsWarning, warn_entity, warn_skipped};
use bevy_ecs::entity::EntityHashSet;
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_ecs::query::QueryData;
use bevy_math::Vec2;
use bevy_transform::components::Transform;
use physics_core::id::BodyId;
use physics_core::math::Transform as CoreTransform;
use physics_core::shape_def::ShapeDef;

/// The material components of an entity (a collider's own, or its body's as a fallback).
#[derive(QueryData)]
pub(crate) struct MaterialComponents {
    density: Option<&'static ColliderDensity>,
    friction: Option<&'static Friction>,
    restitution: Option<&'static Restitution>,
    tangent_speed: Option<&'static TangentSpeed>,
    rolling_resistance: Option<&'static RollingResistance>,
    layers: Option<&'static CollisionLayers>,
    sensor: Has<Sensor>,
    events: Has<CollisionEventsEnabled>,
    hooks: Option<&'static crate::collision::hooks::ActiveCollisionHooks>,
    friction_combine: Option<&'static crate::collision::material::FrictionCombine>,
    restitution_combine: Option<&'static crate::collision::material::RestitutionCombine>,
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
        tangent_speed: pick(|m| m.tangent_speed.map(|t| t.0), base.tangent_speed),
        rolling_resistance: pick(
            |m| m.rolling_resistance.map(|r| r.0),
            base.rolling_resistance,
        ),
        is_sensor: own.sensor || body.is_some_and(|b| b.sensor),
        filter: own
            .layers
            .or_else(|| body.and_then(|b| b.layers))
            .map_or(base.filter, |l| l.to_filter()),
        // Fast impacts are collision events too: reported for colliders that asked.
        enable_hit_events: own.events,
        // A collider that asked for collision events also meets static and kinematic
        // colliders when its body is kinematic (see `CollisionEventsEnabled`).
        enable_kinematic_contacts: own.events,
        // Hooks are asked about a collider that opted in, or whose body did.
        enable_contact_hooks: own
            .hooks
            .or_else(|| body.and_then(|b| b.hooks))
            .is_some_and(|h| !h.is_empty()),
        friction_mixing: own
            .friction_combine
            .or_else(|| body.and_then(|b| b.friction_combine))
            .map(|c| c.0),
        restitution_mixing: own
            .restitution_combine
            .or_else(|| body.and_then(|b| b.restitution_combine))
            .map(|c| c.0),
    }
}

/// Creates the core shape of every queued collider, or brings an existing one up to date:
/// a collider whose shape, material and filter come out as the core already holds them
/// costs nothing and sends nothing (Bevy marks components changed on any mutable access);
/// one that changed on the same body is updated in place, keeping its contacts and their
/// warm start; only a new body or a sensor switch rebuilds the shape.
pub(crate) fn create_colliders(
    mut physics: ResMut<PhysicsWorld>,
    mut warnings: MessageWriter<PhysicsWarning>,
    colliders: Query<&Collider, Without<crate::dynamics::body::control::ColliderDisabled>>,
    materials: Query<MaterialComponents>,
    placement: Query<(&Transform, Option<&ChildOf>)>,
    body_components: Query<(), With<crate::dynamics::body::components::RigidBody>>,
    overridden: Query<(), With<crate::dynamics::body::components::Mass>>,
    mut stretched_warned: Local<EntityHashSet>,
) -> EntityHashSet {
    let mut built = EntityHashSet::default();
    if physics.pending.colliders.is_empty() {
        return built;
    }
    // Colliders gone are forgotten, so a long session of churn does not grow this.
    if !stretched_warned.is_empty() {
        stretched_warned.retain(|e| colliders.contains(*e));
    }
    for entity in physics.pending.colliders.take() {
        built.insert(entity);
        let old = physics.shapes(entity);
        let drop_old = |physics: &mut PhysicsWorld| {
            for old in physics.unmap_shapes(entity) {
                let _ = physics.world.destroy_shape(old);
            }
        };
        let Ok(collider) = colliders.get(entity) else {
            drop_old(&mut physics); // the collider was removed or the entity despawned
            continue;
        };
        // The nearest entity with a `RigidBody` at or above the collider owns it. Without a
        // core body (waiting, rejected with its own warning, or disabled) its colliders wait:
        // they are queued again when it is built, never handed to a body further up.
        if let Some(owner) = nearest_body_entity(entity, &placement, &body_components)
            && physics.body(owner).is_none()
        {
            drop_old(&mut physics);
            continue;
        }
        // Walk up to the nearest body, composing the transforms in between (scales too).
        let (body_entity, body, frame) = match frame_in_body(entity, &physics, &placement) {
            Some(found) => {
                physics.note_built_scale(found.entity, found.body_scale);
                (Some(found.entity), found.body, found.frame)
            }
            // No body anywhere above: static level geometry, on the shared static body.
            None => (None, physics.ground(), world_frame(entity, &placement)),
        };
        let offset = CoreTransform::new(frame.p, frame.q);
        let shapes = match collider.to_scaled_shapes(offset, frame.scale) {
            Ok((shapes, stretched)) => {
                if stretched && stretched_warned.insert(entity) {
                    warn_entity(
                        &mut warnings,
                        entity,
                        format_args!(
                            "collider: a round shape under unequal x and y scale {} takes the \
                             larger factor (it stays round)",
                            frame.scale
                        ),
                    );
                }
                shapes
            }
            Err(error) => {
                drop_old(&mut physics);
                warn_skipped(&mut warnings, entity, format_args!("collider: {error}"));
                continue;
            }
        };
        let Ok(own) = materials.get(entity) else {
            continue;
        };
        let body_materials = body_entity
            .filter(|b| *b != entity)
            .and_then(|b| materials.get(b).ok());
        let def = shape_def(&own, body_materials.as_ref());
        // A partial mass override is taken over what the shapes give: redone when they change.
        if let Some(b) = body_entity.filter(|b| overridden.contains(*b)) {
            physics.pending.props.push(b);
        }
        // The same number of parts on the same body: each part updated in place.
        if old.len() == shapes.len()
            && let Some(updates) = old
                .iter()
                .zip(&shapes)
                .map(|(&id, shape)| update_in_place(&mut physics.world, id, body, shape, &def))
                .collect::<Option<Vec<_>>>()
        {
            if let Some(Err(error)) = updates.into_iter().find(Result::is_err) {
                warn_skipped(&mut warnings, entity, format_args!("collider: {error}"));
            }
            continue;
        }
        drop_old(&mut physics);
        let mut created = Vec::with_capacity(shapes.len());
        for shape in shapes {
            match physics.world.create_shape(body, &def, shape) {
                Ok(id) => created.push(id),
                Err(error) => {
                    // All parts or none: a compound missing a part would be another shape.
                    for id in created.drain(..) {
                        let _ = physics.world.destroy_shape(id);
                    }
                    warn_skipped(&mut warnings, entity, format_args!("collider: {error}"));
                    break;
                }
            }
        }
        physics.map_shapes(entity, &created);
    }
    built
}

/// Brings the live shape `old` to `shape` and `def` without destroying it, when it is on
/// `body` and stays a sensor or not as it was; `None` when it must be rebuilt. Only what
/// differs is handed to the core, so an unchanged collider costs a comparison.
fn update_in_place(
    world: &mut physics_core::world::World,
    old: physics_core::id::ShapeId,
    body: physics_core::id::BodyId,
    shape: &physics_core::shape::Shape,
    def: &ShapeDef,
) -> Option<Result<(), physics_core::world::WorldError>> {
    let (Ok(old_body), Ok(old_def), Ok(old_shape)) = (
        world.shape_body(old),
        world.shape_def(old),
        world.shape(old),
    ) else {
        return None;
    };
    let (old_def, old_shape) = (*old_def, *old_shape);
    if old_body != body
        || old_def.is_sensor != def.is_sensor
        || old_def.enable_hit_events != def.enable_hit_events
    {
        return None;
    }
    let mut result = Ok(());
    if old_shape != *shape {
        result = world.set_shape_geometry(old, *shape);
    }
    if old_def.density != def.density {
        result = result.and_then(|_| world.set_shape_density(old, def.density));
    }
    if (old_def.friction, old_def.restitution) != (def.friction, def.restitution) {
        result = result.and_then(|_| world.set_shape_material(old, def.friction, def.restitution));
    }
    let surface = |d: &ShapeDef| (d.tangent_speed, d.rolling_resistance);
    if surface(&old_def) != surface(def) {
        result = result.and_then(|_| {
            world.set_shape_surface_motion(old, def.tangent_speed, def.rolling_resistance)
        });
    }
    if old_def.filter != def.filter {
        result = result.and_then(|_| world.set_shape_filter(old, def.filter));
    }
    let mixing = |d: &ShapeDef| (d.friction_mixing, d.restitution_mixing);
    if mixing(&old_def) != mixing(def) {
        result = result
            .and_then(|_| world.set_shape_mixing(old, def.friction_mixing, def.restitution_mixing));
    }
    if old_def.enable_contact_hooks != def.enable_contact_hooks {
        result = result.and_then(|_| world.set_shape_contact_hooks(old, def.enable_contact_hooks));
    }
    if old_def.enable_kinematic_contacts != def.enable_kinematic_contacts {
        result = result
            .and_then(|_| world.set_shape_kinematic_contacts(old, def.enable_kinematic_contacts));
    }
    Some(result)
}

/// Where a collider sits on the body it belongs to.
struct PlacedOnBody {
    /// The body's entity and core body.
    entity: Entity,
    body: BodyId,
    /// The body's own world scale (its colliders are built at it).
    body_scale: Vec2,
    /// The collider's frame in the body's frame.
    frame: Frame,
}

/// The core body of the nearest entity at or above `entity` that has one, and the frame of
/// the collider in that body's frame: the transforms in between composed (translation,
/// rotation and scale), under the body's own world scale (its pose is the core's, its scale
/// scales its colliders). `None` when no entity above has a core body.
fn frame_in_body(
    entity: Entity,
    physics: &PhysicsWorld,
    placement: &Query<(&Transform, Option<&ChildOf>)>,
) -> Option<PlacedOnBody> {
    let mut local = Frame::IDENTITY;
    let mut current = entity;
    loop {
        if let Some(body) = physics.body(current) {
            let scale = world_frame(current, placement).scale;
            // Composed by hand, without renormalising the rotation: a collider placed without
            // scale keeps the bits it had before scale was taken into account.
            let frame = if scale == Vec2::ONE {
                local
            } else {
                Frame {
                    p: scale * local.p,
                    q: local.q,
                    scale: scale * local.scale,
                }
            };
            return Some(PlacedOnBody {
                entity: current,
                body,
                body_scale: scale,
                frame,
            });
        }
        let (transform, parent) = placement.get(current).ok()?;
        let step = Frame::of(transform);
        local = Frame {
            p: step.p + step.q.rotate(step.scale * local.p),
            q: step.q * local.q,
            scale: step.scale * local.scale,
        };
        current = parent?.parent();
    }
}

/// True when the entity or an ancestor has a `RigidBody` component (whose core body does not
/// exist yet or was rejected).
fn nearest_body_entity(
    entity: Entity,
    placement: &Query<(&Transform, Option<&ChildOf>)>,
    bodies: &Query<(), With<crate::dynamics::body::components::RigidBody>>,
) -> Option<Entity> {
    let mut current = Some(entity);
    while let Some(e) = current {
        if bodies.contains(e) {
            return Some(e);
        }
        current = placement
            .get(e)
            .ok()
            .and_then(|(_, p)| p.map(|p| p.parent()));
    }
    None
}

/// Friction and restitution changed in place: update the shapes without rebuilding them
/// (contacts keep their warm-start impulses).
pub(crate) fn update_materials(
    In(built): In<EntityHashSet>,
    mut physics: ResMut<PhysicsWorld>,
    mut warnings: MessageWriter<PhysicsWarning>,
    changed: Query<
        Entity,
        Or<(
            Changed<Friction>,
            Changed<Restitution>,
            Changed<TangentSpeed>,
            Changed<RollingResistance>,
            Changed<crate::collision::material::FrictionCombine>,
            Changed<crate::collision::material::RestitutionCombine>,
        )>,
    >,
    materials: Query<MaterialComponents>,
    colliders: Query<(), With<Collider>>,
) {
    for entity in &changed {
        // The entity's own shape, or, for a body, the shapes that inherit its materials.
        let mut targets = Vec::new();
        if physics.shape(entity).is_some() {
            // A child collider inherits what it does not set from its body.
            let body = crate::collision::events::body_of_collider(&physics, entity)
                .filter(|b| *b != entity);
            targets.push((entity, body));
        }
        if let Some(body) = physics.body(entity) {
            for &shape in physics.world.body_shapes(body).unwrap_or(&[]) {
                if let Some(e) = physics.collider_entity(shape)
                    && e != entity
                    && !targets.iter().any(|(t, _)| *t == e)
                {
                    targets.push((e, Some(entity)));
                }
            }
        }
        for (collider, body_entity) in targets {
            // Built (or refused, with its warning) from these materials a moment ago.
            if built.contains(&collider) {
                continue;
            }
            let Ok(own) = materials.get(collider) else {
                continue;
            };
            if !colliders.contains(collider) {
                continue;
            }
            let body_m = body_entity.and_then(|b| materials.get(b).ok());
            let def = shape_def(&own, body_m.as_ref());
            for shape in physics.shapes(collider) {
                let Ok(old) = physics.world.shape_def(shape).copied() else {
                    continue;
                };
                let world = &mut physics.world;
                let mut result = Ok(());
                if (old.friction, old.restitution) != (def.friction, def.restitution) {
                    result = world.set_shape_material(shape, def.friction, def.restitution);
                }
                if (old.friction_mixing, old.restitution_mixing)
                    != (def.friction_mixing, def.restitution_mixing)
                {
                    result = result.and_then(|_| {
                        world.set_shape_mixing(shape, def.friction_mixing, def.restitution_mixing)
                    });
                }
                if (old.tangent_speed, old.rolling_resistance)
                    != (def.tangent_speed, def.rolling_resistance)
                {
                    result = result.and_then(|_| {
                        world.set_shape_surface_motion(
                            shape,
                            def.tangent_speed,
                            def.rolling_resistance,
                        )
                    });
                }
                if let Err(error) = result {
                    warn_skipped(&mut warnings, collider, format_args!("material: {error}"));
                    break;
                }
            }
        }
    }
}
