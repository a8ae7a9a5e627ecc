//! [`RayCaster`] and [`ShapeCaster`]: casts that run after every physics step from their
//! entity's pose, with the results in [`RayHits`] and [`ShapeHits`] components.

use crate::collision::collider::Collider;
use crate::dynamics::body::hierarchy::world_frame;
use crate::spatial_query::query::{QueryHit, SpatialQuery, SpatialQueryFilter};
use crate::world::physics_world::{PhysicsWorld, quat_from_rot};
use crate::world::warnings::{PhysicsWarning, warn_skipped};
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_transform::components::Transform;

/// A ray cast after every physics step from this entity, turning and moving with it; the
/// hits (nearest first) are in its [`RayHits`]. The caster's own body and colliders are
/// skipped unless `ignore_self` is false.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// // A ground probe under a character: 0.6 m down from its centre.
/// fn spawn(mut commands: Commands) {
///     commands.spawn((
///         RigidBody::Dynamic,
///         Collider::capsule(0.3, 0.8),
///         RayCaster::new(Vec2::ZERO, Vec2::NEG_Y).with_max_distance(0.8),
///     ));
/// }
/// fn grounded(probes: Query<&RayHits>) -> bool {
///     probes.iter().any(|hits| !hits.is_empty())
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(Component, Clone, Debug)]
#[require(RayHits)]
pub struct RayCaster {
    /// Start of the ray in the entity's frame.
    pub origin: Vec2,
    /// Direction in the entity's frame (normalised when cast).
    pub direction: Vec2,
    /// How far the ray reaches.
    pub max_distance: f32,
    /// Most hits kept (1: only the first, found without collecting the others).
    pub max_hits: usize,
    /// Which colliders it sees.
    pub filter: SpatialQueryFilter,
    /// Skip the entity's own body and colliders.
    pub ignore_self: bool,
    /// Cast at all.
    pub enabled: bool,
}

impl RayCaster {
    /// A ray from `origin` along `direction` (both in the entity's frame), reaching 1000
    /// units, keeping the first hit.
    pub fn new(origin: Vec2, direction: Vec2) -> Self {
        RayCaster {
            origin,
            direction,
            max_distance: 1000.0,
            max_hits: 1,
            filter: SpatialQueryFilter::default(),
            ignore_self: true,
            enabled: true,
        }
    }

    /// The same ray reaching `distance`.
    pub fn with_max_distance(mut self, distance: f32) -> Self {
        self.max_distance = distance;
        self
    }

    /// The same ray keeping up to `hits` hits.
    pub fn with_max_hits(mut self, hits: usize) -> Self {
        self.max_hits = hits;
        self
    }

    /// The same ray with `filter`.
    pub fn with_filter(mut self, filter: SpatialQueryFilter) -> Self {
        self.filter = filter;
        self
    }
}

/// The hits of this entity's [`RayCaster`] at the last step, nearest first.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct RayHits(pub Vec<QueryHit>);

impl RayHits {
    /// The hits, nearest first.
    pub fn iter(&self) -> impl Iterator<Item = &QueryHit> {
        self.0.iter()
    }

    /// True when the ray hit nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The nearest hit.
    pub fn first(&self) -> Option<&QueryHit> {
        self.0.first()
    }
}

/// A shape cast after every physics step from this entity, turning and moving with it; the
/// hits (nearest first) are in its [`ShapeHits`]. Skips the caster's own body and colliders
/// unless `ignore_self` is false.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// // What a 1 m box would meet 5 m ahead of a kinematic mover.
/// fn spawn(mut commands: Commands) {
///     commands.spawn((
///         RigidBody::Kinematic,
///         Collider::rectangle(1.0, 1.0),
///         ShapeCaster::new(Collider::rectangle(1.0, 1.0), Vec2::X).with_max_distance(5.0),
///     ));
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(Component, Clone, Debug)]
#[require(ShapeHits)]
pub struct ShapeCaster {
    /// The shape swept.
    pub shape: Collider,
    /// Where the shape starts, in the entity's frame.
    pub origin: Vec2,
    /// Direction in the entity's frame (normalised when cast).
    pub direction: Vec2,
    /// How far the shape travels.
    pub max_distance: f32,
    /// Most hits kept.
    pub max_hits: usize,
    /// Which colliders it sees.
    pub filter: SpatialQueryFilter,
    /// Skip the entity's own body and colliders.
    pub ignore_self: bool,
    /// Cast at all.
    pub enabled: bool,
}

impl ShapeCaster {
    /// `shape` swept from the entity's origin along `direction` (in its frame) up to 1000
    /// units, keeping the first hit.
    pub fn new(shape: Collider, direction: Vec2) -> Self {
        ShapeCaster {
            shape,
            origin: Vec2::ZERO,
            direction,
            max_distance: 1000.0,
            max_hits: 1,
            filter: SpatialQueryFilter::default(),
            ignore_self: true,
            enabled: true,
        }
    }

    /// The same cast reaching `distance`.
    pub fn with_max_distance(mut self, distance: f32) -> Self {
        self.max_distance = distance;
        self
    }

    /// The same cast keeping up to `hits` hits.
    pub fn with_max_hits(mut self, hits: usize) -> Self {
        self.max_hits = hits;
        self
    }
}

/// The hits of this entity's [`ShapeCaster`] at the last step, nearest first.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct ShapeHits(pub Vec<QueryHit>);

impl ShapeHits {
    /// The hits, nearest first.
    pub fn iter(&self) -> impl Iterator<Item = &QueryHit> {
        self.0.iter()
    }

    /// True when the cast met nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The filter of a caster, with its own body and colliders excluded when asked.
fn caster_filter(
    entity: Entity,
    filter: &SpatialQueryFilter,
    ignore_self: bool,
    physics: &PhysicsWorld,
) -> SpatialQueryFilter {
    let mut filter = filter.clone();
    if ignore_self {
        filter.excluded.insert(entity);
        // The body the entity's collider belongs to (a caster on a child collider).
        if let Some(body) = physics
            .shape(entity)
            .and_then(|s| physics.core().shape_body(s).ok())
            .and_then(|b| physics.body_entity(b))
        {
            filter.excluded.insert(body);
        }
    }
    filter
}

/// Casts every enabled caster from its entity's world pose (Writeback stage, after the
/// bodies' poses are written).
pub(crate) fn update_casters(
    query: SpatialQuery,
    frames: Query<(&Transform, Option<&ChildOf>)>,
    mut rays: Query<(Entity, &RayCaster, &mut RayHits)>,
    mut shapes: Query<(Entity, &ShapeCaster, &mut ShapeHits)>,
    mut warnings: MessageWriter<PhysicsWarning>,
    mut warned: Local<bevy_ecs::entity::EntityHashSet>,
) {
    // Casters gone are forgotten, so a long session of churn does not grow this.
    if !warned.is_empty() {
        warned.retain(|e| rays.contains(*e) || shapes.contains(*e));
    }
    let physics = query.physics();
    for (entity, caster, mut hits) in &mut rays {
        if !caster.enabled {
            continue;
        }
        let pose = world_frame(entity, &frames).pose();
        let origin = pose.apply(caster.origin);
        let direction = pose.q.rotate(caster.direction);
        if !origin.is_finite() || !direction.is_finite() || caster.max_distance.is_nan() {
            // Once per bad value: the caster is cast every step.
            if warned.insert(entity) {
                warn_skipped(
                    &mut warnings,
                    entity,
                    format_args!(
                        "ray caster from {origin} towards {direction} up to {}: not a number; \
                         it finds nothing until mended",
                        caster.max_distance
                    ),
                );
            }
            if !hits.0.is_empty() {
                hits.0.clear();
            }
            continue;
        }
        warned.remove(&entity);
        let filter = caster_filter(entity, &caster.filter, caster.ignore_self, physics);
        let found: Vec<QueryHit> = if caster.max_hits == 0 {
            Vec::new()
        } else if caster.max_hits == 1 {
            query
                .cast_ray(origin, direction, caster.max_distance, &filter)
                .into_iter()
                .collect()
        } else {
            let mut all = query.ray_hits(origin, direction, caster.max_distance, &filter);
            all.truncate(caster.max_hits);
            all
        };
        if hits.0 != found {
            hits.0 = found;
        }
    }
    for (entity, caster, mut hits) in &mut shapes {
        if !caster.enabled {
            continue;
        }
        let pose = world_frame(entity, &frames).pose();
        let origin = pose.apply(caster.origin);
        let direction = pose.q.rotate(caster.direction);
        let filter = caster_filter(entity, &caster.filter, caster.ignore_self, physics);
        let found = query.shape_hits(
            &caster.shape,
            origin,
            quat_from_rot(pose.q),
            direction,
            caster.max_distance,
            caster.max_hits,
            &filter,
        );
        match found {
            Ok(found) => {
                // Cast again: a later bad shape is a new one, worth its own warning.
                warned.remove(&entity);
                if hits.0 != found {
                    hits.0 = found;
                }
            }
            Err(error) => {
                // Once per entity: the caster is cast every step.
                if warned.insert(entity) {
                    warn_skipped(&mut warnings, entity, format_args!("shape caster: {error}"));
                }
                hits.0.clear();
            }
        }
    }
}
