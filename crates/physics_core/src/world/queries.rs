//! Spatial queries through the broadphase trees (the query work builds richer ones on these).

use super::World;
use crate::id::ShapeId;
use crate::shape::{Aabb, RayCastInput, RayHit};
use bevy_math::Vec2;

impl World {
    /// Every shape whose enlarged box overlaps `aabb`, sorted by id.
    pub fn query_aabb(&self, aabb: &Aabb) -> Vec<ShapeId> {
        let mut found = Vec::new();
        for tree in [&self.broadphase.static_tree, &self.broadphase.moving_tree] {
            tree.query(aabb, |_, data| {
                found.push(self.shape_id(data as u32));
                true
            });
        }
        found.sort();
        found
    }

    /// The closest shape hit by the ray from `origin` along `translation`, with the hit.
    pub fn ray_cast_closest(&self, origin: Vec2, translation: Vec2) -> Option<(ShapeId, RayHit)> {
        let input = RayCastInput {
            origin,
            translation,
            max_fraction: 1.0,
        };
        let mut best: Option<(ShapeId, RayHit)> = None;
        for tree in [&self.broadphase.static_tree, &self.broadphase.moving_tree] {
            tree.ray_cast(&input, |clipped, _, data| {
                let record = self.shapes.at(data as u32);
                let xf = self.bodies.at(record.body.index).transform;
                match record.shape.ray_cast(xf, clipped) {
                    Some(hit) => {
                        let id = self.shape_id(data as u32);
                        let closer = best.is_none_or(|(bid, b)| {
                            hit.fraction < b.fraction || (hit.fraction == b.fraction && id < bid)
                        });
                        if closer {
                            best = Some((id, hit));
                        }
                        hit.fraction
                    }
                    None => clipped.max_fraction,
                }
            });
        }
        best
    }
}
