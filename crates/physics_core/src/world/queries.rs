//! Spatial queries through the broadphase trees: candidates come from the trees, each one is
//! confirmed by the exact shape test, and results are sorted so they never depend on the
//! trees' shape.

use super::World;
use crate::collision::{DistanceInput, SimplexCache};
use crate::collision::{
    ShapeProxy, Sweep, ToiState, shape_distance, shapes_overlap, time_of_impact,
};
use crate::id::ShapeId;
use crate::position::{FrameOrigin, Position, WorldTransform, offset, outward_corners};
use crate::shape::{Aabb, RayCastInput, RayHit, Shape};
use crate::shape_def::ShapeRecord;
use bevy_math::Vec2;

/// Which shapes a query sees: those whose category is in `mask_bits` and whose mask contains
/// `category_bits`; sensors only if asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryFilter {
    /// The categories the query belongs to.
    pub category_bits: u64,
    /// The categories the query wants to see.
    pub mask_bits: u64,
    /// Whether sensor shapes are reported.
    pub include_sensors: bool,
}

impl Default for QueryFilter {
    fn default() -> Self {
        QueryFilter {
            category_bits: 1,
            mask_bits: u64::MAX,
            include_sensors: false,
        }
    }
}

impl QueryFilter {
    fn accepts(&self, record: &ShapeRecord) -> bool {
        (record.def.filter.category_bits & self.mask_bits) != 0
            && (record.def.filter.mask_bits & self.category_bits) != 0
            && (self.include_sensors || !record.def.is_sensor)
    }
}

/// The first shape a swept shape meets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastHit {
    /// The shape hit.
    pub shape: ShapeId,
    /// Contact point (world) when they meet.
    pub point: Position,
    /// Unit normal out of the hit shape at the contact.
    pub normal: Vec2,
    /// Fraction of the translation travelled (0 when already overlapping).
    pub fraction: f32,
}

impl World {
    /// Calls `visit` for every shape accepted by `filter` whose stored box overlaps `aabb`.
    pub(super) fn candidates(
        &self,
        aabb: &Aabb,
        filter: &QueryFilter,
        mut visit: impl FnMut(u32, &ShapeRecord),
    ) {
        for tree in [&self.broadphase.static_tree, &self.broadphase.moving_tree] {
            tree.query(aabb, |_, data| {
                let record = self.shapes.at(data as u32);
                if filter.accepts(record) {
                    visit(data as u32, record);
                }
                true
            });
        }
    }

    pub(super) fn transform_of(&self, record: &ShapeRecord) -> WorldTransform {
        self.bodies.at(record.body.index).transform
    }

    /// Shapes whose bounding box overlaps `aabb`, sorted by id.
    pub fn query_aabb(&self, aabb: &Aabb, filter: &QueryFilter) -> Vec<ShapeId> {
        let mut found = Vec::new();
        self.candidates(aabb, filter, |slot, record| {
            if record
                .shape
                .world_aabb(self.transform_of(record))
                .overlaps(aabb)
            {
                found.push(self.shape_id(slot));
            }
        });
        found.sort();
        found
    }

    /// Shapes containing `point`, sorted by id.
    pub fn query_point(&self, point: impl Into<Position>, filter: &QueryFilter) -> Vec<ShapeId> {
        let point = point.into();
        let mut found = Vec::new();
        let (low, high) = outward_corners(point, point);
        // Each shape is tested in a float frame at the point (the world's in the float build).
        let frame = FrameOrigin::at(point);
        self.candidates(&Aabb::new(low, high), filter, |slot, record| {
            let xf = frame.transform_to_frame(self.transform_of(record));
            if record.shape.contains_point(xf, frame.to_frame(point)) {
                found.push(self.shape_id(slot));
            }
        });
        found.sort();
        found
    }

    /// Shapes overlapping `shape` placed at `xf`, sorted by id.
    pub fn query_overlap(
        &self,
        shape: &Shape,
        xf: impl Into<WorldTransform>,
        filter: &QueryFilter,
    ) -> Vec<ShapeId> {
        let xf = xf.into();
        let proxy = ShapeProxy::from_shape(shape);
        let mut found = Vec::new();
        // Tested in a float frame at the query shape (the world's in the float build).
        let frame = FrameOrigin::at(xf.p);
        let xf_in_frame = frame.transform_to_frame(xf);
        self.candidates(&shape.world_aabb(xf), filter, |slot, record| {
            let other = ShapeProxy::from_shape(&record.shape);
            let other_xf = frame.transform_to_frame(self.transform_of(record));
            if shapes_overlap(&proxy, xf_in_frame, &other, other_xf) {
                found.push(self.shape_id(slot));
            }
        });
        found.sort();
        found
    }

    /// Every shape the ray from `origin` along `translation` hits, nearest first (ties by id).
    pub fn ray_cast_all(
        &self,
        origin: impl Into<Position>,
        translation: Vec2,
        filter: &QueryFilter,
    ) -> Vec<(ShapeId, RayHit<Position>)> {
        let origin = origin.into();
        let input = RayCastInput {
            origin,
            translation,
            max_fraction: 1.0,
        };
        let mut hits = Vec::new();
        for tree in [&self.broadphase.static_tree, &self.broadphase.moving_tree] {
            tree.ray_cast(&input, |clipped, _, data| {
                let record = self.shapes.at(data as u32);
                if filter.accepts(record)
                    && let Some(hit) = record.shape.ray_cast(self.transform_of(record), clipped)
                {
                    hits.push((self.shape_id(data as u32), hit));
                }
                clipped.max_fraction
            });
        }
        hits.sort_by(|a, b| a.1.fraction.total_cmp(&b.1.fraction).then(a.0.cmp(&b.0)));
        hits
    }

    /// The nearest shape the ray hits (ties by id).
    pub fn ray_cast_closest(
        &self,
        origin: impl Into<Position>,
        translation: Vec2,
        filter: &QueryFilter,
    ) -> Option<(ShapeId, RayHit<Position>)> {
        let origin = origin.into();
        self.ray_cast_closest_where(origin, translation, filter, &mut |_| true)
    }

    /// [`World::ray_cast_closest`] among the shapes `accept` agrees to (after `filter`): the
    /// first hit shortens the ray, so farther shapes are never tested and nothing is
    /// collected or sorted.
    pub fn ray_cast_closest_where(
        &self,
        origin: impl Into<Position>,
        translation: Vec2,
        filter: &QueryFilter,
        accept: &mut dyn FnMut(ShapeId) -> bool,
    ) -> Option<(ShapeId, RayHit<Position>)> {
        let origin = origin.into();
        let input = RayCastInput {
            origin,
            translation,
            max_fraction: 1.0,
        };
        let mut best: Option<(ShapeId, RayHit<Position>)> = None;
        for tree in [&self.broadphase.static_tree, &self.broadphase.moving_tree] {
            tree.ray_cast(&input, |clipped, _, data| {
                let record = self.shapes.at(data as u32);
                if !filter.accepts(record) || !accept(self.shape_id(data as u32)) {
                    return clipped.max_fraction;
                }
                match record.shape.ray_cast(self.transform_of(record), &input) {
                    Some(hit) => {
                        let id = self.shape_id(data as u32);
                        if best.is_none_or(|(bid, b)| (hit.fraction, id) < (b.fraction, bid)) {
                            best = Some((id, hit));
                        }
                        // Keep equal fractions in reach so ties resolve by id.
                        hit.fraction.max(f32::MIN_POSITIVE)
                    }
                    None => clipped.max_fraction,
                }
            });
        }
        best
    }

    /// The first shape `shape` (at `xf`) meets when swept along `translation`.
    pub fn shape_cast(
        &self,
        shape: &Shape,
        xf: impl Into<WorldTransform>,
        translation: Vec2,
        filter: &QueryFilter,
    ) -> Option<ShapeCastHit> {
        let xf = xf.into();
        self.shape_cast_excluding(shape, xf, translation, filter, &[])
    }

    /// Every shape `shape` (at `xf`) meets when swept along `translation`, nearest first (ties
    /// by id), each with where it is first met; at most `max_hits`. Shapes `accept` refuses
    /// are left out.
    pub fn shape_cast_all(
        &self,
        shape: &Shape,
        xf: impl Into<WorldTransform>,
        translation: Vec2,
        filter: &QueryFilter,
        max_hits: usize,
        accept: &mut dyn FnMut(ShapeId) -> bool,
    ) -> Vec<ShapeCastHit> {
        let xf = xf.into();
        let caster = Caster::new(shape, xf, translation, self.tolerances.linear_slop);
        let mut hits = Vec::new();
        self.candidates(&caster.swept, filter, |slot, record| {
            let id = self.shape_id(slot);
            if !accept(id) {
                return;
            }
            if let Some(fraction) = caster.fraction(self.transform_of(record), &record.shape) {
                hits.push(caster.hit(id, self.transform_of(record), &record.shape, fraction));
            }
        });
        hits.sort_by(|a, b| {
            a.fraction
                .total_cmp(&b.fraction)
                .then(a.shape.cmp(&b.shape))
        });
        hits.truncate(max_hits);
        hits
    }

    /// [`World::shape_cast`] ignoring the shapes in `excluded` (for example the caster's own
    /// body).
    pub fn shape_cast_excluding(
        &self,
        shape: &Shape,
        xf: impl Into<WorldTransform>,
        translation: Vec2,
        filter: &QueryFilter,
        excluded: &[ShapeId],
    ) -> Option<ShapeCastHit> {
        let xf = xf.into();
        let caster = Caster::new(shape, xf, translation, self.tolerances.linear_slop);
        let mut best: Option<ShapeCastHit> = None;
        self.candidates(&caster.swept, filter, |slot, record| {
            let id = self.shape_id(slot);
            if excluded.contains(&id) {
                return;
            }
            let other_xf = self.transform_of(record);
            let Some(fraction) = caster.fraction(other_xf, &record.shape) else {
                return;
            };
            if best.is_some_and(|b| (b.fraction, b.shape) <= (fraction, id)) {
                return;
            }
            best = Some(caster.hit(id, other_xf, &record.shape, fraction));
        });
        best
    }
}

/// A shape swept along a translation, tested against one shape after another, in a float
/// frame at the shape's start (the world's own frame in the float build).
struct Caster {
    proxy: ShapeProxy,
    frame: FrameOrigin,
    /// The sweep, in `frame`.
    sweep: Sweep,
    /// The box the sweep covers.
    swept: Aabb,
    /// Separation the time of impact aims for (the linear slop).
    target: f32,
}

impl Caster {
    fn new(shape: &Shape, xf: WorldTransform, translation: Vec2, target: f32) -> Self {
        let frame = FrameOrigin::at(xf.p);
        let (sweep, swept) = translation_sweep(shape, xf, translation, frame);
        Caster {
            proxy: ShapeProxy::from_shape(shape),
            frame,
            sweep,
            swept,
            target,
        }
    }

    /// The fraction of the translation at which the cast meets `other` (at `other_xf`), 0
    /// when they overlap from the start, `None` when it passes by.
    fn fraction(&self, other_xf: WorldTransform, other: &Shape) -> Option<f32> {
        let other = ShapeProxy::from_shape(other);
        let out = time_of_impact(
            &self.proxy,
            &self.sweep,
            &other,
            &Sweep::fixed(self.frame.transform_to_frame(other_xf)),
            self.target,
        );
        match out.state {
            ToiState::Hit => Some(out.fraction),
            ToiState::Overlapped => Some(0.0),
            ToiState::Separated => None,
        }
    }

    /// The hit on `other` at `fraction`: where they touch, and the normal out of `other`.
    fn hit(
        &self,
        id: ShapeId,
        other_xf: WorldTransform,
        other: &Shape,
        fraction: f32,
    ) -> ShapeCastHit {
        let at = DistanceInput {
            proxy_a: self.proxy,
            proxy_b: ShapeProxy::from_shape(other),
            transform_a: self.sweep.transform_at(fraction),
            transform_b: self.frame.transform_to_frame(other_xf),
            use_radii: true,
        };
        let contact = shape_distance(&at, &mut SimplexCache::default());
        ShapeCastHit {
            shape: id,
            point: self.frame.to_world(contact.point_b),
            normal: -contact.normal,
            fraction,
        }
    }
}

/// The sweep of `shape` at `xf` moved by `translation` without turning, in `frame`, and the
/// world box it covers on the way (shape casts and a mover's casts).
pub(super) fn translation_sweep(
    shape: &Shape,
    xf: WorldTransform,
    translation: Vec2,
    frame: FrameOrigin,
) -> (Sweep, Aabb) {
    let start = frame.to_frame(xf.p);
    let sweep = Sweep {
        local_center: Vec2::ZERO,
        c1: start,
        c2: start + translation,
        q1: xf.q,
        q2: xf.q,
    };
    let end = WorldTransform::new(offset(xf.p, translation), xf.q);
    let swept = shape.world_aabb(xf).union(&shape.world_aabb(end));
    (sweep, swept)
}
