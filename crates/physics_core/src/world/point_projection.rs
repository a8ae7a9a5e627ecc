//! The nearest point of the world's shapes to a point.

use super::World;
use super::queries::QueryFilter;
use crate::collision::{DistanceInput, ShapeProxy, SimplexCache, shape_distance};
use crate::id::ShapeId;
use crate::math::Transform;
use crate::position::{
    FrameOrigin, Position, is_finite_position, offset, outward_corners, relative, to_position,
};
use crate::shape::Aabb;
use bevy_math::Vec2;

/// Where a point projects onto the nearest shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointProjection {
    /// The nearest shape.
    pub shape: ShapeId,
    /// The nearest point of it (the point itself when it is inside).
    pub point: Position,
    /// True when the point is inside the shape.
    pub inside: bool,
    /// Distance from the point to the shape (zero inside).
    pub distance: f32,
}

impl World {
    /// The shape nearest to `point` among those `filter` and `accept` let through, and its
    /// nearest point (ties by id). The search looks in a box around the point that doubles
    /// until it holds a shape, and stops there: any nearer shape's box would overlap it.
    /// `None` when no shape is accepted.
    pub fn project_point(
        &self,
        point: impl Into<Position>,
        filter: &QueryFilter,
        accept: &mut dyn FnMut(ShapeId) -> bool,
    ) -> Option<PointProjection> {
        let point = point.into();
        if !is_finite_position(point) {
            return None;
        }
        // Distances are measured in a float frame at the point (the world's own frame in
        // the float build).
        let frame = FrameOrigin::at(point);
        let probe = ShapeProxy::from_points(&[frame.to_frame(point)], 0.0);
        let world_size = [&self.broadphase.static_tree, &self.broadphase.moving_tree]
            .iter()
            .filter_map(|t| t.root_aabb())
            .map(|b| (b.max - b.min).length() + relative(to_position(b.center()), point).length())
            .fold(0.0f32, f32::max);
        let mut reach = 1.0f32;
        // Doubling from 1 passes any finite world within 130 rounds; more means a point or a
        // world beyond f32's range.
        for _ in 0..160 {
            if !reach.is_finite() {
                return None;
            }
            let (low, high) = outward_corners(
                offset(point, -Vec2::splat(reach)),
                offset(point, Vec2::splat(reach)),
            );
            let region = Aabb::new(low, high);
            let mut best: Option<PointProjection> = None;
            self.candidates(&region, filter, |slot, record| {
                let id = self.shape_id(slot);
                if !accept(id) {
                    return;
                }
                let input = DistanceInput {
                    proxy_a: probe,
                    proxy_b: ShapeProxy::from_shape(&record.shape),
                    transform_a: Transform::IDENTITY,
                    transform_b: frame.transform_to_frame(self.transform_of(record)),
                    use_radii: true,
                };
                let out = shape_distance(&input, &mut SimplexCache::default());
                let found = PointProjection {
                    shape: id,
                    point: if out.distance > 0.0 {
                        frame.to_world(out.point_b)
                    } else {
                        point
                    },
                    inside: out.distance <= 0.0,
                    distance: out.distance,
                };
                if best.is_none_or(|b| (found.distance, found.shape) < (b.distance, b.shape)) {
                    best = Some(found);
                }
            });
            // A shape found within the box's half width is the nearest: a nearer one lies
            // in the box too. Farther hits need the box grown to their distance.
            match best {
                Some(b) if b.distance <= reach => return Some(b),
                Some(b) => reach = b.distance * 1.01,
                None if reach > world_size => return None,
                None => reach *= 2.0,
            }
        }
        None
    }
}
