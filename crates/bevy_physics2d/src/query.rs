//! [`SpatialQuery`]: rays, shape casts, point and box queries against the physics world.

use crate::collider::Collider;
use crate::physics_world::{PhysicsWorld, rot_from_quat};
use bevy_ecs::entity::EntityHashSet;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_math::{Quat, Vec2};
use physics_core::math::Transform as CoreTransform;
use physics_core::shape::{Aabb, ShapeError};
use physics_core::world::QueryFilter;

/// Which colliders a query sees.
#[derive(Clone, Debug, Default)]
pub struct SpatialQueryFilter {
    /// Layers the query looks for (colliders with a membership in this mask); all by default.
    pub mask: Option<u64>,
    /// Report sensors too.
    pub include_sensors: bool,
    /// Colliders (or bodies, which exclude all their colliders) to ignore.
    pub excluded: EntityHashSet,
}

impl SpatialQueryFilter {
    /// Only colliders with a membership in `mask`.
    pub fn with_mask(mut self, mask: u64) -> Self {
        self.mask = Some(mask);
        self
    }

    /// Ignores these entities (colliders or bodies).
    pub fn with_excluded(mut self, entities: impl IntoIterator<Item = Entity>) -> Self {
        self.excluded.extend(entities);
        self
    }

    fn core(&self) -> QueryFilter {
        QueryFilter {
            category_bits: u64::MAX,
            mask_bits: self.mask.unwrap_or(u64::MAX),
            include_sensors: self.include_sensors,
        }
    }
}

/// Where a ray or shape cast hit a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueryHit {
    /// The collider hit.
    pub entity: Entity,
    /// Its body.
    pub body: Option<Entity>,
    /// Distance travelled along the cast to the hit.
    pub distance: f32,
    /// The hit point.
    pub point: Vec2,
    /// Unit surface normal at the hit, out of the collider hit.
    pub normal: Vec2,
}

/// Spatial queries as a system parameter.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn look_down(query: SpatialQuery) {
///     if let Some(hit) = query.cast_ray(Vec2::new(0.0, 10.0), Vec2::NEG_Y, 100.0, &Default::default()) {
///         println!("ground {} below", hit.distance);
///     }
/// }
/// # bevy_ecs::system::assert_is_system(look_down);
/// ```
#[derive(SystemParam)]
pub struct SpatialQuery<'w> {
    physics: Res<'w, PhysicsWorld>,
}

impl SpatialQuery<'_> {
    fn accept(
        &self,
        collider: Entity,
        filter: &SpatialQueryFilter,
    ) -> Option<(Entity, Option<Entity>)> {
        let shape = self.physics.shape(collider)?;
        let body = self
            .physics
            .core()
            .shape_body(shape)
            .ok()
            .and_then(|b| self.physics.body_entity(b));
        if filter.excluded.contains(&collider) || body.is_some_and(|b| filter.excluded.contains(&b))
        {
            return None;
        }
        Some((collider, body))
    }

    /// The first collider along the ray from `origin` in `direction` (normalised here) up to
    /// `max_distance`.
    pub fn cast_ray(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Option<QueryHit> {
        self.ray_hits(origin, direction, max_distance, filter)
            .into_iter()
            .next()
    }

    /// Every collider along the ray, nearest first, each once.
    pub fn ray_hits(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Vec<QueryHit> {
        let dir = direction.normalize_or_zero();
        if dir == Vec2::ZERO || !max_distance.is_finite() || max_distance <= 0.0 {
            return Vec::new();
        }
        let world = self.physics.core();
        let mut hits: Vec<QueryHit> = world
            .ray_cast_all(origin, dir * max_distance, &filter.core())
            .into_iter()
            .filter_map(|(shape, hit)| {
                let (entity, body) = self.accept(self.physics.collider_entity(shape)?, filter)?;
                Some(QueryHit {
                    entity,
                    body,
                    distance: hit.fraction * max_distance,
                    point: hit.point,
                    normal: hit.normal,
                })
            })
            .collect();
        hits.sort_by(|a, b| a.distance.total_cmp(&b.distance));
        // A compound collider is one collider: its nearest part's hit, once.
        let mut seen = bevy_ecs::entity::EntityHashSet::default();
        hits.retain(|h| seen.insert(h.entity));
        hits
    }

    /// The first collider met by `shape` at `origin` with `rotation`, moved along `direction`
    /// up to `max_distance`. Errors when the shape is invalid.
    pub fn cast_shape(
        &self,
        shape: &Collider,
        origin: Vec2,
        rotation: Quat,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Result<Option<QueryHit>, ShapeError> {
        let core_shapes = shape.to_shapes(CoreTransform::IDENTITY)?;
        let dir = direction.normalize_or_zero();
        let xf = CoreTransform::new(origin, rot_from_quat(rotation));
        let mut core_filter = filter.core();
        // Excluded entities are skipped by casting again past them; few casts exclude many.
        let mut excluded_shapes = Vec::new();
        for e in &filter.excluded {
            excluded_shapes.extend(self.physics.shapes(*e));
            if let Some(b) = self.physics.body(*e) {
                excluded_shapes
                    .extend_from_slice(self.physics.core().body_shapes(b).unwrap_or(&[]));
            }
        }
        core_filter.include_sensors = filter.include_sensors;
        // A compound casts each part; the first hit of any part is the compound's.
        let hit = core_shapes
            .iter()
            .filter_map(|core_shape| {
                self.physics.core().shape_cast_excluding(
                    core_shape,
                    xf,
                    dir * max_distance,
                    &core_filter,
                    &excluded_shapes,
                )
            })
            .min_by(|a, b| a.fraction.total_cmp(&b.fraction));
        Ok(hit.and_then(|h| {
            let (entity, body) = self.accept(self.physics.collider_entity(h.shape)?, filter)?;
            Some(QueryHit {
                entity,
                body,
                distance: h.fraction * max_distance,
                point: h.point,
                normal: h.normal,
            })
        }))
    }

    /// Colliders containing `point`, in a stable order.
    pub fn point_intersections(&self, point: Vec2, filter: &SpatialQueryFilter) -> Vec<Entity> {
        self.entities(
            self.physics.core().query_point(point, &filter.core()),
            filter,
        )
    }

    /// Colliders whose bounds overlap the box from `min` to `max`.
    pub fn aabb_intersections(
        &self,
        min: Vec2,
        max: Vec2,
        filter: &SpatialQueryFilter,
    ) -> Vec<Entity> {
        let aabb = Aabb::new(min.min(max), min.max(max));
        self.entities(
            self.physics.core().query_aabb(&aabb, &filter.core()),
            filter,
        )
    }

    /// Colliders overlapping `shape` placed at `position` with `rotation`.
    pub fn shape_intersections(
        &self,
        shape: &Collider,
        position: Vec2,
        rotation: Quat,
        filter: &SpatialQueryFilter,
    ) -> Result<Vec<Entity>, ShapeError> {
        let core_shapes = shape.to_shapes(CoreTransform::IDENTITY)?;
        let xf = CoreTransform::new(position, rot_from_quat(rotation));
        // A compound overlaps what any of its parts overlaps, each shape once.
        let mut found = Vec::new();
        for core_shape in &core_shapes {
            for s in self
                .physics
                .core()
                .query_overlap(core_shape, xf, &filter.core())
            {
                if !found.contains(&s) {
                    found.push(s);
                }
            }
        }
        Ok(self.entities(found, filter))
    }

    fn entities(
        &self,
        shapes: Vec<physics_core::id::ShapeId>,
        filter: &SpatialQueryFilter,
    ) -> Vec<Entity> {
        // A compound collider's parts name one entity: each entity once, first seen first.
        let mut seen = bevy_ecs::entity::EntityHashSet::default();
        shapes
            .into_iter()
            .filter_map(|s| Some(self.accept(self.physics.collider_entity(s)?, filter)?.0))
            .filter(|e| seen.insert(*e))
            .collect()
    }
}
