//! Continuous collision of fast dynamic bodies against static geometry, and of bullets against
//! everything.
//!
//! Speculative points only reach a few centimetres ahead, so a body that moves more than half
//! a quarter of its smallest extent in one step could pass through a thin static wall or sink deep into the
//! ground. After the solver, such a body is swept from its start pose to its end pose against
//! the static shapes along the way; at the first time of impact it is moved back to that pose
//! (keeping its velocity), and next step's speculative contact stops it at the surface.
//! Bodies flagged as bullets are swept last, also against the other dynamic bodies at their
//! final poses, so a small fast projectile cannot pass through a thin box either.

use super::World;
use crate::body::BodyType;
use crate::collision::{ShapeProxy, Sweep, ToiState, time_of_impact};
use crate::math::Rot;
use crate::shape::Shape;
use bevy_math::Vec2;

/// A body moving more than this fraction of its smallest extent per step is swept. A quarter
/// bounds how deep a body can sink before its contact acts (a ball at impact speed sinks at
/// most a quarter of its radius), which keeps bounce heights true to the restitution.
const FAST_FRACTION: f32 = 0.25;

/// Smallest and largest extent of a shape around a body's centre of mass: how thin it is and
/// how far it reaches.
pub(crate) fn shape_extents(shape: &Shape, local_center: Vec2, linear_slop: f32) -> (f32, f32) {
    match shape {
        Shape::Circle(c) => (c.radius, c.center.distance(local_center) + c.radius),
        Shape::Capsule(c) => (
            c.radius,
            c.center1
                .distance(local_center)
                .max(c.center2.distance(local_center))
                + c.radius,
        ),
        Shape::Segment(s) => (
            linear_slop,
            s.point1
                .distance(local_center)
                .max(s.point2.distance(local_center)),
        ),
        Shape::Polygon(p) => {
            let centroid = p.centroid();
            let inner = p
                .vertices()
                .iter()
                .zip(p.normals())
                .map(|(v, n)| n.dot(*v - centroid))
                .fold(f32::INFINITY, f32::min);
            let outer = p
                .vertices()
                .iter()
                .map(|v| v.distance(local_center))
                .fold(0.0f32, f32::max);
            (inner + p.radius(), outer + p.radius())
        }
    }
}

impl World {
    /// Sweeps a dynamic body that moved from (`c1`, `q1`) to its current pose this step, and
    /// pulls it back to the first impact with static geometry if it moved fast.
    pub(crate) fn solve_continuous(&mut self, body_slot: u32, c1: Vec2, q1: Rot) {
        let body = self.bodies.at(body_slot);
        let bullet = body.bullet;
        let (c2, q2) = (body.center, body.transform.q);
        let mut min_extent = f32::INFINITY;
        let mut max_extent = 0.0f32;
        for id in &body.shapes {
            let (lo, hi) = shape_extents(
                &self.shapes.at(id.index).shape,
                body.local_center,
                self.tolerances.linear_slop,
            );
            min_extent = min_extent.min(lo);
            max_extent = max_extent.max(hi);
        }
        let sweep = Sweep {
            local_center: body.local_center,
            c1,
            c2,
            q1,
            q2,
        };
        let turn = Vec2::new(q2.c - q1.c, q2.s - q1.s).length() * std::f32::consts::FRAC_PI_2;
        let travel = c1.distance(c2) + turn * max_extent;
        if body.shapes.is_empty() || travel < FAST_FRACTION * min_extent {
            return;
        }

        self.counters.bodies_swept += 1;
        let target = self.tolerances.linear_slop;
        let mut first = 1.0f32;
        let start = sweep.transform_at(0.0);
        let end = sweep.transform_at(1.0);
        for id in &body.shapes {
            let record = self.shapes.at(id.index);
            if record.def.is_sensor {
                continue;
            }
            let swept_box = record
                .shape
                .compute_aabb(start)
                .union(&record.shape.compute_aabb(end));
            let proxy = ShapeProxy::from_shape(&record.shape);
            let mut sweep_against = |data: u64| {
                let other = self.shapes.at(data as u32);
                let other_body = self.bodies.at(other.body.index);
                let blocks = !other.def.is_sensor
                    && other.body != record.body
                    && record.def.filter.should_collide(&other.def.filter)
                    && !self.joint_blocks_collision(body_slot, other.body.index);
                // A bullet meets dynamic bodies at their end-of-step pose (they were swept
                // first); other fast bodies only meet static geometry.
                let fixed = other_body.body_type == BodyType::Static
                    || (bullet && other_body.body_type == BodyType::Dynamic && !other_body.bullet);
                if blocks && fixed {
                    let out = time_of_impact(
                        &proxy,
                        &sweep,
                        &ShapeProxy::from_shape(&other.shape),
                        &Sweep::fixed(other_body.transform),
                        target,
                    );
                    if out.state == ToiState::Hit && out.fraction > 0.0 && out.fraction < first {
                        first = out.fraction;
                    }
                }
            };
            self.broadphase.static_tree.query(&swept_box, |_, data| {
                sweep_against(data);
                true
            });
            if bullet {
                self.broadphase.moving_tree.query(&swept_box, |_, data| {
                    sweep_against(data);
                    true
                });
            }
        }
        if first < 1.0 {
            let xf = sweep.transform_at(first);
            let body = self.bodies.at_mut(body_slot);
            body.transform = xf;
            body.center = xf.apply(body.local_center);
        }
    }
}
