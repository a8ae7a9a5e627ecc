//! Ray casts against single shapes. A ray that starts inside a shape reports no hit, so a
//! query from inside a wall finds what lies beyond it.

use super::{Circle, Polygon, Segment, Shape};
use crate::math::{cross, left_perp};
use crate::position::{Position, WorldTransform};
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// A ray: the points `origin + t * translation` for `t` in `[0, max_fraction]`. `P` is the
/// type of its start: `Vec2` in a shape's own frame, [`Position`] for a ray in the world
/// (the same type in the float build; double in the `large-world` build).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayCastInput<P = Vec2> {
    /// Start point.
    pub origin: P,
    /// Direction and length of the ray (not necessarily unit).
    pub translation: Vec2,
    /// The largest fraction of `translation` to consider (usually 1).
    pub max_fraction: f32,
}

/// Where a ray first enters a shape. `P` is the type of the hit point, as for
/// [`RayCastInput`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayHit<P = Vec2> {
    /// The hit point.
    pub point: P,
    /// Unit surface normal at the hit, pointing out of the shape.
    pub normal: Vec2,
    /// Fraction of the translation travelled to the hit.
    pub fraction: f32,
}

impl Shape {
    /// Casts a ray given in world coordinates against this shape on a body at `xf`.
    pub fn ray_cast(
        &self,
        xf: WorldTransform,
        input: &RayCastInput<Position>,
    ) -> Option<RayHit<Position>> {
        let local = RayCastInput {
            origin: xf.apply_inverse(input.origin),
            translation: xf.q.inv_rotate(input.translation),
            max_fraction: input.max_fraction,
        };
        let hit = match self {
            Shape::Circle(c) => ray_cast_circle(c, &local),
            Shape::Capsule(c) => ray_cast_polygon(
                &Polygon::from_segment(c.center1, c.center2, c.radius),
                &local,
            ),
            Shape::Segment(s) => ray_cast_segment(s, &local),
            // One-sided: a ray from behind passes through.
            Shape::ChainSegment(s) if local.translation.dot(s.normal()) < 0.0 => {
                let segment = Segment {
                    point1: s.point1,
                    point2: s.point2,
                };
                ray_cast_segment(&segment, &local).map(|hit| RayHit {
                    normal: s.normal(),
                    ..hit
                })
            }
            Shape::ChainSegment(_) => None,
            Shape::Polygon(p) => ray_cast_polygon(p, &local),
        }?;
        Some(RayHit {
            point: xf.apply(hit.point),
            normal: xf.q.rotate(hit.normal),
            fraction: hit.fraction,
        })
    }
}

/// Entry fraction of a ray into the disk of `center` and `radius`, if the origin is outside.
fn ray_disk_entry(center: Vec2, radius: f32, input: &RayCastInput) -> Option<f32> {
    // |o + t d - c|^2 = r^2  ->  (d.d) t^2 + 2 (m.d) t + (m.m - r^2) = 0 with m = o - c.
    let m = input.origin - center;
    let c = m.length_squared() - radius * radius;
    if c < 0.0 {
        return None;
    }
    let a = input.translation.length_squared();
    if a <= 0.0 {
        return None;
    }
    let b = m.dot(input.translation);
    let discriminant = b * b - a * c;
    if discriminant < 0.0 {
        return None;
    }
    let t = (-b - discriminant.sqrt()) / a;
    (0.0..=input.max_fraction).contains(&t).then_some(t)
}

/// Ray against a circle.
pub fn ray_cast_circle(circle: &Circle, input: &RayCastInput) -> Option<RayHit> {
    let t = ray_disk_entry(circle.center, circle.radius, input)?;
    let point = input.origin + t * input.translation;
    Some(RayHit {
        point,
        normal: (point - circle.center).normalize_or(Vec2::Y),
        fraction: t,
    })
}

/// Ray against a two-sided segment; the normal faces the ray's origin.
pub fn ray_cast_segment(segment: &Segment, input: &RayCastInput) -> Option<RayHit> {
    let edge = segment.point2 - segment.point1;
    let d = input.translation;
    let denominator = cross(d, edge);
    if denominator == 0.0 {
        return None;
    }
    // Solve o + t d = p1 + s e for t and s.
    let offset = segment.point1 - input.origin;
    let t = cross(offset, edge) / denominator;
    let s = cross(offset, d) / denominator;
    if !(0.0..=input.max_fraction).contains(&t) || !(0.0..=1.0).contains(&s) {
        return None;
    }
    let mut normal = left_perp(edge).normalize_or(Vec2::Y);
    if normal.dot(d) > 0.0 {
        normal = -normal;
    }
    Some(RayHit {
        point: input.origin + t * d,
        normal,
        fraction: t,
    })
}

/// Ray against a convex polygon, sharp or rounded (two-vertex rounded polygons are capsules).
pub fn ray_cast_polygon(polygon: &Polygon, input: &RayCastInput) -> Option<RayHit> {
    if polygon.radius() == 0.0 {
        return ray_cast_sharp_polygon(polygon, input);
    }
    if polygon.contains_point(input.origin) {
        return None;
    }
    // The rounded polygon is the union of edge strips and vertex disks around the core. The
    // first entry into the union is the earliest entry through an outer strip face (the edge
    // moved out by the radius) or into a vertex disk.
    let vertices = polygon.vertices();
    let normals = polygon.normals();
    let radius = polygon.radius();
    let d = input.translation;
    let mut best: Option<(f32, Vec2)> = None;
    for i in 0..polygon.count() {
        let n = normals[i];
        let approach = n.dot(d);
        if approach < 0.0 {
            let a = vertices[i] + radius * n;
            let t = n.dot(a - input.origin) / approach;
            let b = vertices[(i + 1) % polygon.count()] + radius * n;
            let along = (input.origin + t * d - a).dot(b - a);
            let within_edge = along >= 0.0 && along <= (b - a).length_squared();
            if within_edge
                && (0.0..=input.max_fraction).contains(&t)
                && best.is_none_or(|(bt, _)| t < bt)
            {
                best = Some((t, n));
            }
        }
        if let Some(t) = ray_disk_entry(vertices[i], radius, input)
            && best.is_none_or(|(bt, _)| t < bt)
        {
            let point = input.origin + t * d;
            best = Some((t, (point - vertices[i]).normalize_or(n)));
        }
    }
    best.map(|(t, normal)| RayHit {
        point: input.origin + t * d,
        normal,
        fraction: t,
    })
}

/// Clips the ray against every edge's half plane (Cyrus-Beck); the last plane to cut the
/// entry side gives the hit edge.
fn ray_cast_sharp_polygon(polygon: &Polygon, input: &RayCastInput) -> Option<RayHit> {
    let (mut lower, mut upper) = (0.0f32, input.max_fraction);
    let mut hit_edge = None;
    let d = input.translation;
    for (i, (v, n)) in polygon.vertices().iter().zip(polygon.normals()).enumerate() {
        // Inside edge i means n.(o + t d - v) <= 0, i.e. t * (n.d) <= n.(v - o).
        let numerator = n.dot(*v - input.origin);
        let denominator = n.dot(d);
        if denominator == 0.0 {
            if numerator < 0.0 {
                return None;
            }
        } else if denominator < 0.0 {
            if numerator < lower * denominator {
                lower = numerator / denominator;
                hit_edge = Some(i);
            }
        } else if numerator < upper * denominator {
            upper = numerator / denominator;
        }
        if upper < lower {
            return None;
        }
    }
    let edge = hit_edge?;
    Some(RayHit {
        point: input.origin + lower * d,
        normal: polygon.normals()[edge],
        fraction: lower,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rot;
    use crate::position::{to_position, to_vec2};
    use crate::shape::Capsule;
    use approx::assert_relative_eq;

    fn ray(origin: Vec2, translation: Vec2) -> RayCastInput<Position> {
        RayCastInput {
            origin: to_position(origin),
            translation,
            max_fraction: 1.0,
        }
    }

    #[test]
    fn circle_hit_fraction_and_normal() {
        let s = Shape::Circle(Circle::new(Vec2::ZERO, 1.0).unwrap());
        let hit = s
            .ray_cast(
                WorldTransform::IDENTITY,
                &ray(Vec2::new(-5.0, 0.0), Vec2::new(10.0, 0.0)),
            )
            .unwrap();
        assert_relative_eq!(hit.fraction, 0.4, epsilon = 1e-6);
        assert_relative_eq!(hit.normal.x, -1.0, epsilon = 1e-6);
        assert!(
            s.ray_cast(WorldTransform::IDENTITY, &ray(Vec2::ZERO, Vec2::X))
                .is_none()
        );
        assert!(
            s.ray_cast(
                WorldTransform::IDENTITY,
                &ray(Vec2::new(-5.0, 2.0), Vec2::new(10.0, 0.0))
            )
            .is_none()
        );
    }

    #[test]
    fn rotated_box_hit_in_world_frame() {
        let s = Shape::Polygon(Polygon::new_box(1.0, 0.5).unwrap());
        let xf = WorldTransform::new(
            to_position(Vec2::new(0.0, 3.0)),
            Rot::from_angle(std::f32::consts::FRAC_PI_2),
        );
        // Upright now: 1 wide, 2 tall; a ray from below hits the bottom face at y = 2.
        let hit = s
            .ray_cast(xf, &ray(Vec2::ZERO, Vec2::new(0.0, 4.0)))
            .unwrap();
        assert_relative_eq!(to_vec2(hit.point).y, 2.0, epsilon = 1e-5);
        assert_relative_eq!(hit.normal.y, -1.0, epsilon = 1e-5);
        assert_relative_eq!(hit.fraction, 0.5, epsilon = 1e-5);
        // Short ray stops before it.
        let short = RayCastInput {
            max_fraction: 0.4,
            ..ray(Vec2::ZERO, Vec2::new(0.0, 4.0))
        };
        assert!(s.ray_cast(xf, &short).is_none());
    }

    #[test]
    fn segment_normal_faces_the_ray() {
        let s = Shape::Segment(Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)).unwrap());
        let down = s
            .ray_cast(
                WorldTransform::IDENTITY,
                &ray(Vec2::new(0.5, 2.0), Vec2::new(0.0, -4.0)),
            )
            .unwrap();
        assert_relative_eq!(down.normal.y, 1.0, epsilon = 1e-6);
        let up = s
            .ray_cast(
                WorldTransform::IDENTITY,
                &ray(Vec2::new(0.5, -2.0), Vec2::new(0.0, 4.0)),
            )
            .unwrap();
        assert_relative_eq!(up.normal.y, -1.0, epsilon = 1e-6);
        assert_relative_eq!(up.fraction, 0.5, epsilon = 1e-6);
    }

    #[test]
    fn capsule_side_and_cap_hits() {
        let s = Shape::Capsule(Capsule::new(Vec2::new(-1.0, 0.0), Vec2::X, 0.5).unwrap());
        let side = s
            .ray_cast(
                WorldTransform::IDENTITY,
                &ray(Vec2::new(0.0, 3.0), Vec2::new(0.0, -6.0)),
            )
            .unwrap();
        assert_relative_eq!(to_vec2(side.point).y, 0.5, epsilon = 1e-5);
        assert_relative_eq!(side.normal.y, 1.0, epsilon = 1e-5);
        let cap = s
            .ray_cast(
                WorldTransform::IDENTITY,
                &ray(Vec2::new(4.0, 0.0), Vec2::new(-6.0, 0.0)),
            )
            .unwrap();
        assert_relative_eq!(to_vec2(cap.point).x, 1.5, epsilon = 1e-5);
        assert_relative_eq!(cap.normal.x, 1.0, epsilon = 1e-5);
    }

    #[test]
    fn rounded_box_corner_hit_lies_on_the_corner_arc() {
        let p = Polygon::new_rounded_box(1.0, 1.0, 0.5).unwrap();
        let s = Shape::Polygon(p);
        let dir = Vec2::new(-1.0, -1.0).normalize();
        let hit = s
            .ray_cast(WorldTransform::IDENTITY, &ray(Vec2::splat(5.0), dir * 10.0))
            .unwrap();
        // The diagonal ray reaches the corner disk at (1, 1) + 0.5 (1, 1)/sqrt 2.
        let expected = Vec2::ONE + Vec2::ONE.normalize() * 0.5;
        assert_relative_eq!(to_vec2(hit.point).x, expected.x, epsilon = 1e-4);
        assert_relative_eq!(to_vec2(hit.point).y, expected.y, epsilon = 1e-4);
        assert_relative_eq!(
            hit.normal.x,
            std::f32::consts::FRAC_1_SQRT_2,
            epsilon = 1e-4
        );
    }
}
