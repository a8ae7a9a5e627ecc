//! The world draws itself through a [`DebugDraw`] renderer.

use super::World;
use crate::debug_draw::{DebugColor, DebugDraw, DebugDrawOptions};
use crate::joint::JointKind;
use crate::math::Transform;
use crate::position::{Position, WorldTransform, relative, to_position};
use crate::shape::{Aabb, Shape};
use bevy_math::Vec2;

impl World {
    /// Hands every element selected by `options` to `draw`: shapes (coloured by body type and
    /// sleep state), broadphase boxes, contact points with normals and impulses, joints and
    /// centres of mass.
    pub fn debug_draw(&self, draw: &mut impl DebugDraw, options: &DebugDrawOptions) {
        let origin = options.origin;
        if options.shapes || options.aabbs {
            for (slot, record) in self.shapes.iter() {
                let body = self.bodies.at(record.body.index);
                if !draw.begin_shape(self.shape_id(slot)) {
                    continue;
                }
                if options.shapes {
                    let color =
                        DebugColor::for_body(body.body_type, body.awake, record.def.is_sensor);
                    draw_shape(
                        draw,
                        &record.shape,
                        seen_from(origin, body.transform),
                        color,
                    );
                }
                if options.aabbs {
                    let b = record.fat_aabb;
                    let corner = |v: Vec2| relative(to_position(v), origin);
                    draw.aabb(Aabb::new(corner(b.min), corner(b.max)), DebugColor::Aabb);
                }
            }
        }
        if options.contacts || options.contact_impulses {
            self.draw_contacts(draw, options);
        }
        if options.joints {
            self.draw_joints(draw, options);
        }
        if options.centers_of_mass {
            for (_, body) in self.bodies.iter() {
                if body.is_moving() {
                    let xf = Transform::new(relative(body.center, origin), body.transform.q);
                    draw.transform(xf, options.axis_length, DebugColor::CenterOfMass);
                }
            }
        }
    }

    fn draw_contacts(&self, draw: &mut impl DebugDraw, options: &DebugDrawOptions) {
        let size = 0.1 * options.axis_length;
        let origin = options.origin;
        for (_, contact) in self.contacts.iter() {
            if contact.sensor || !contact.enabled {
                continue;
            }
            let normal = contact.manifold.normal;
            for p in contact.manifold.points() {
                let point = relative(p.point, origin);
                if options.contacts {
                    let color = if p.separation > self.tolerances.linear_slop {
                        DebugColor::SpeculativePoint
                    } else {
                        DebugColor::ContactPoint
                    };
                    draw.point(point, size, color);
                    draw.segment(
                        point,
                        point + options.axis_length * normal,
                        DebugColor::ContactNormal,
                    );
                }
                if options.contact_impulses && p.normal_impulse > 0.0 {
                    let tip = point + options.impulse_scale * p.normal_impulse * normal;
                    draw.segment(point, tip, DebugColor::ContactImpulse);
                }
            }
        }
    }

    fn draw_joints(&self, draw: &mut impl DebugDraw, options: &DebugDrawOptions) {
        let size = 0.1 * options.axis_length;
        let seen = |p: Position| relative(p, options.origin);
        for (_, joint) in self.joints.iter() {
            let def = &joint.def;
            let xa = seen_from(options.origin, self.bodies.at(def.body_a.index).transform);
            let xb = seen_from(options.origin, self.bodies.at(def.body_b.index).transform);
            let (pa, pb) = (xa.apply(def.local_anchor_a), xb.apply(def.local_anchor_b));
            draw.point(pa, size, DebugColor::Joint);
            draw.point(pb, size, DebugColor::Joint);
            let axis_color = DebugColor::JointAxis;
            if let Some((axis, limit)) = slider_axis(&def.kind) {
                let axis = xa.q.rotate(axis.normalize_or_zero());
                draw_line_limits(draw, pa, axis, limit, options.axis_length);
                draw.segment(pa, pb, DebugColor::Joint);
                continue;
            }
            match def.kind {
                JointKind::Revolute(j) => {
                    // The reference direction of A and, with limits, the two limit directions.
                    let len = options.axis_length;
                    let base = j.reference_angle;
                    let dir = |angle: f32| xa.q.rotate(Vec2::from_angle(angle));
                    draw.segment(pb, pb + len * xb.q.rotate(Vec2::X), DebugColor::Joint);
                    if j.enable_limit {
                        draw.segment(pa, pa + len * dir(base + j.lower_angle), axis_color);
                        draw.segment(pa, pa + len * dir(base + j.upper_angle), axis_color);
                    }
                }
                JointKind::Pulley(j) => {
                    let (ga, gb) = (seen(j.ground_a), seen(j.ground_b));
                    draw.segment(ga, pa, DebugColor::Joint);
                    draw.segment(gb, pb, DebugColor::Joint);
                    draw.segment(ga, gb, axis_color);
                }
                JointKind::Mouse(j) => {
                    draw.point(seen(j.target), size, axis_color);
                    draw.segment(seen(j.target), pb, DebugColor::Joint);
                }
                _ => {
                    draw.segment(xa.p, pa, DebugColor::Joint);
                    draw.segment(pa, pb, DebugColor::Joint);
                    draw.segment(pb, xb.p, DebugColor::Joint);
                }
            }
        }
    }
}

/// The axis in A's frame and the (enabled, lower, upper) translation limits of a joint that
/// slides along a line.
fn slider_axis(kind: &JointKind) -> Option<(Vec2, (bool, f32, f32))> {
    match kind {
        JointKind::Prismatic(j) => Some((
            j.local_axis_a,
            (j.enable_limit, j.lower_translation, j.upper_translation),
        )),
        JointKind::Wheel(j) => Some((
            j.local_axis_a,
            (j.enable_limit, j.lower_translation, j.upper_translation),
        )),
        _ => None,
    }
}

/// A slider axis through `anchor`, with marks at the limits when they are enabled.
fn draw_line_limits(
    draw: &mut impl DebugDraw,
    anchor: Vec2,
    axis: Vec2,
    (limited, lower, upper): (bool, f32, f32),
    length: f32,
) {
    let color = DebugColor::JointAxis;
    if limited {
        let (lo, hi) = (anchor + lower * axis, anchor + upper * axis);
        draw.segment(lo, hi, color);
        let tick = 0.5 * length * crate::math::left_perp(axis);
        draw.segment(lo - tick, lo + tick, color);
        draw.segment(hi - tick, hi + tick, color);
    } else {
        draw.segment(anchor - length * axis, anchor + length * axis, color);
    }
}

/// A body's pose as drawn: relative to the drawing's origin.
fn seen_from(origin: Position, xf: WorldTransform) -> Transform {
    Transform::new(relative(xf.p, origin), xf.q)
}

/// One shape of a body at `xf`.
fn draw_shape(draw: &mut impl DebugDraw, shape: &Shape, xf: Transform, color: DebugColor) {
    match shape {
        Shape::Circle(c) => {
            draw.circle(xf.apply(c.center), c.radius, xf.q.rotate(Vec2::X), color);
        }
        Shape::Capsule(c) => {
            draw.capsule(xf.apply(c.center1), xf.apply(c.center2), c.radius, color)
        }
        Shape::Segment(s) => draw.segment(xf.apply(s.point1), xf.apply(s.point2), color),
        Shape::ChainSegment(s) => {
            // The segment and a short tick on its colliding side.
            let (a, b) = (xf.apply(s.point1), xf.apply(s.point2));
            draw.segment(a, b, color);
            let mid = 0.5 * (a + b);
            let tick = 0.1 * a.distance(b).min(1.0);
            draw.segment(mid, mid + tick * xf.q.rotate(s.normal()), color);
        }
        Shape::Polygon(p) => {
            let mut world = [Vec2::ZERO; crate::constants::MAX_POLYGON_VERTICES];
            for (w, v) in world.iter_mut().zip(p.vertices()) {
                *w = xf.apply(*v);
            }
            draw.polygon(&world[..p.count()], p.radius(), color);
        }
    }
}
