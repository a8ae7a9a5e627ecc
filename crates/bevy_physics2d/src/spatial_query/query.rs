//! [`SpatialQuery`]: rays, shape casts, point and box queries against the physics world.

use crate::collision::collider::Collider;
use crate::world::physics_world::{PhysicsWorld, rot_from_quat};
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
    /// Only colliders with a membership in `mask` (bits, a layer or an array of layers).
    pub fn with_mask(mut self, mask: impl Into<crate::LayerMask>) -> Self {
        self.mask = Some(mask.into().0);
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

/// Where a point projects onto the nearest collider ([`SpatialQuery::project_point`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointProjection {
    /// The nearest collider.
    pub entity: Entity,
    /// Its nearest point (the queried point itself when inside).
    pub point: Vec2,
    /// True when the queried point is inside the collider.
    pub inside: bool,
    /// Distance from the queried point to the collider (zero inside).
    pub distance: f32,
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
    /// The physics world the queries read.
    pub(crate) fn physics(&self) -> &PhysicsWorld {
        &self.physics
    }

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

    /// True when the shape belongs to a collider the filter and the predicate accept.
    fn shape_accepted(
        &self,
        shape: physics_core::id::ShapeId,
        filter: &SpatialQueryFilter,
        predicate: &dyn Fn(Entity) -> bool,
    ) -> bool {
        self.physics
            .collider_entity(shape)
            .and_then(|e| self.accept(e, filter))
            .is_some_and(|(e, _)| predicate(e))
    }

    /// The first collider along the ray from `origin` in `direction` (normalised here) up to
    /// `max_distance`. The first hit shortens the ray: farther colliders are never tested.
    pub fn cast_ray(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Option<QueryHit> {
        self.cast_ray_predicate(origin, direction, max_distance, filter, &|_| true)
    }

    /// [`SpatialQuery::cast_ray`] among the colliders `predicate` accepts (after the
    /// filter): a ray that sees through glass, or only enemies that are alive.
    ///
    /// ```
    /// use bevy_physics2d::prelude::*;
    /// use bevy_ecs::prelude::*;
    ///
    /// fn aim(query: SpatialQuery, glass: Query<(), With<Glass>>) {
    ///     let through_glass = |e: Entity| !glass.contains(e);
    ///     let hit = query.cast_ray_predicate(Vec2::ZERO, Vec2::X, 50.0, &Default::default(), &through_glass);
    ///     let _ = hit;
    /// }
    /// # #[derive(Component)] struct Glass;
    /// # bevy_ecs::system::assert_is_system(aim);
    /// ```
    pub fn cast_ray_predicate(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
        predicate: &dyn Fn(Entity) -> bool,
    ) -> Option<QueryHit> {
        let dir = direction.normalize_or_zero();
        if dir == Vec2::ZERO || !max_distance.is_finite() || max_distance <= 0.0 {
            return None;
        }
        let game = self.physics.game_frame();
        let (shape, hit) = self.physics.core().ray_cast_closest_where(
            game.to_world(origin),
            dir * max_distance,
            &filter.core(),
            &mut |s| self.shape_accepted(s, filter, predicate),
        )?;
        let (entity, body) = self.accept(self.physics.collider_entity(shape)?, filter)?;
        Some(QueryHit {
            entity,
            body,
            distance: hit.fraction * max_distance,
            point: game.to_game(hit.point),
            normal: hit.normal,
        })
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
        let game = self.physics.game_frame();
        let mut hits: Vec<QueryHit> = world
            .ray_cast_all(game.to_world(origin), dir * max_distance, &filter.core())
            .into_iter()
            .filter_map(|(shape, hit)| {
                let (entity, body) = self.accept(self.physics.collider_entity(shape)?, filter)?;
                Some(QueryHit {
                    entity,
                    body,
                    distance: hit.fraction * max_distance,
                    point: game.to_game(hit.point),
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
        let game = self.physics.game_frame();
        let xf = game.pose_to_world(CoreTransform::new(origin, rot_from_quat(rotation)));
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
                point: game.to_game(h.point),
                normal: h.normal,
            })
        }))
    }

    /// Every collider `shape` meets when moved from `origin` along `direction` up to
    /// `max_distance`, nearest first, at most `max_hits` (a compound cast or a compound
    /// collider counts once, at its first meeting). Errors when the shape is invalid.
    ///
    /// ```
    /// use bevy_physics2d::prelude::*;
    /// use bevy_ecs::prelude::*;
    ///
    /// /// Everything a 1 m wide sweep to the right would touch within 10 m.
    /// fn sweep(query: SpatialQuery) {
    ///     let hits = query
    ///         .shape_hits(&Collider::circle(0.5), Vec2::ZERO, Quat::IDENTITY, Vec2::X, 10.0, 16, &Default::default())
    ///         .unwrap();
    ///     for hit in hits { let _ = (hit.entity, hit.distance); }
    /// }
    /// # use bevy_math::Quat;
    /// # bevy_ecs::system::assert_is_system(sweep);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn shape_hits(
        &self,
        shape: &Collider,
        origin: Vec2,
        rotation: Quat,
        direction: Vec2,
        max_distance: f32,
        max_hits: usize,
        filter: &SpatialQueryFilter,
    ) -> Result<Vec<QueryHit>, ShapeError> {
        let core_shapes = shape.to_shapes(CoreTransform::IDENTITY)?;
        let dir = direction.normalize_or_zero();
        if dir == Vec2::ZERO || !max_distance.is_finite() || max_distance <= 0.0 {
            return Ok(Vec::new());
        }
        let game = self.physics.game_frame();
        let xf = game.pose_to_world(CoreTransform::new(origin, rot_from_quat(rotation)));
        let mut hits: Vec<QueryHit> = Vec::new();
        for core_shape in &core_shapes {
            let found = self.physics.core().shape_cast_all(
                core_shape,
                xf,
                dir * max_distance,
                &filter.core(),
                usize::MAX,
                &mut |s| self.shape_accepted(s, filter, &|_| true),
            );
            hits.extend(found.into_iter().filter_map(|h| {
                let (entity, body) = self.accept(self.physics.collider_entity(h.shape)?, filter)?;
                Some(QueryHit {
                    entity,
                    body,
                    distance: h.fraction * max_distance,
                    point: game.to_game(h.point),
                    normal: h.normal,
                })
            }));
        }
        hits.sort_by(|a, b| a.distance.total_cmp(&b.distance));
        let mut seen = EntityHashSet::default();
        hits.retain(|h| seen.insert(h.entity));
        hits.truncate(max_hits);
        Ok(hits)
    }

    /// The collider nearest to `point` and its nearest point (the point itself when it is
    /// inside a collider), among those the filter accepts.
    ///
    /// ```
    /// use bevy_physics2d::prelude::*;
    /// use bevy_ecs::prelude::*;
    ///
    /// fn nearest_wall(query: SpatialQuery) {
    ///     if let Some(p) = query.project_point(Vec2::new(3.0, 1.0), &Default::default()) {
    ///         let _ = (p.entity, p.point, p.inside);
    ///     }
    /// }
    /// # bevy_ecs::system::assert_is_system(nearest_wall);
    /// ```
    pub fn project_point(
        &self,
        point: Vec2,
        filter: &SpatialQueryFilter,
    ) -> Option<PointProjection> {
        self.project_point_predicate(point, filter, &|_| true)
    }

    /// [`SpatialQuery::project_point`] among the colliders `predicate` accepts.
    pub fn project_point_predicate(
        &self,
        point: Vec2,
        filter: &SpatialQueryFilter,
        predicate: &dyn Fn(Entity) -> bool,
    ) -> Option<PointProjection> {
        let game = self.physics.game_frame();
        let found =
            self.physics
                .core()
                .project_point(game.to_world(point), &filter.core(), &mut |s| {
                    self.shape_accepted(s, filter, predicate)
                })?;
        let (entity, _) = self.accept(self.physics.collider_entity(found.shape)?, filter)?;
        Some(PointProjection {
            entity,
            point: game.to_game(found.point),
            inside: found.inside,
            distance: found.distance,
        })
    }

    /// Colliders containing `point`, in a stable order.
    pub fn point_intersections(&self, point: Vec2, filter: &SpatialQueryFilter) -> Vec<Entity> {
        self.entities(
            self.physics
                .core()
                .query_point(self.physics.to_world(point), &filter.core()),
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
        let aabb = self
            .physics
            .game_frame()
            .aabb_to_world(Aabb::new(min.min(max), min.max(max)));
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
        let xf = self
            .physics
            .game_frame()
            .pose_to_world(CoreTransform::new(position, rot_from_quat(rotation)));
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
