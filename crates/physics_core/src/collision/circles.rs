//! Manifolds with a circle as shape B: against a circle, a capsule or segment, a polygon.
//! Each reduces to "closest point of A's core to B's centre", then one point between the
//! two surfaces along the line joining them.

use super::manifold::{CollideSettings, LocalPoint, Manifold, world_manifold};
use crate::math::{Transform, length_and_normalize};
use crate::shape::{Circle, Polygon, closest_point_on_segment};
use bevy_math::Vec2;

/// One contact between a point `core_a` of A's core (rounded by `radius_a`) and the centre
/// `center_b` of B's disk (radius `radius_b`), both in A's frame. `fallback` is the normal
/// used when the two coincide.
fn point_contact(
    (xf_a, xf_b): (Transform, Transform),
    (core_a, radius_a): (Vec2, f32),
    (center_b, radius_b): (Vec2, f32),
    fallback: Vec2,
    settings: &CollideSettings,
) -> Manifold {
    let (distance, mut normal) = length_and_normalize(center_b - core_a);
    if distance == 0.0 {
        normal = fallback;
    }
    let separation = distance - radius_a - radius_b;
    if separation > settings.speculative_distance {
        return Manifold::default();
    }
    let surface_a = core_a + radius_a * normal;
    let surface_b = center_b - radius_b * normal;
    let point = LocalPoint {
        point: 0.5 * (surface_a + surface_b),
        separation,
        id: 0,
    };
    world_manifold(xf_a, xf_b, normal, &[point])
}

/// Circle against circle.
pub fn collide_circles(
    a: &Circle,
    xf_a: Transform,
    b: &Circle,
    xf_b: Transform,
    settings: &CollideSettings,
) -> Manifold {
    let center_b = xf_a.inv_mul(xf_b).apply(b.center);
    point_contact(
        (xf_a, xf_b),
        (a.center, a.radius),
        (center_b, b.radius),
        Vec2::Y,
        settings,
    )
}

/// A capsule or segment (`(end1, end2, radius)`, radius 0 for a segment) against a circle.
pub fn collide_rounded_segment_and_circle(
    (p1, p2, radius_a): (Vec2, Vec2, f32),
    xf_a: Transform,
    b: &Circle,
    xf_b: Transform,
    settings: &CollideSettings,
) -> Manifold {
    let center_b = xf_a.inv_mul(xf_b).apply(b.center);
    let closest = closest_point_on_segment(p1, p2, center_b);
    let fallback = crate::math::left_perp(p2 - p1).normalize_or(Vec2::Y);
    point_contact(
        (xf_a, xf_b),
        (closest, radius_a),
        (center_b, b.radius),
        fallback,
        settings,
    )
}

/// Polygon (possibly rounded) against circle.
pub fn collide_polygon_and_circle(
    a: &Polygon,
    xf_a: Transform,
    b: &Circle,
    xf_b: Transform,
    settings: &CollideSettings,
) -> Manifold {
    let center = xf_a.inv_mul(xf_b).apply(b.center);
    let vertices = a.vertices();
    let normals = a.normals();
    // The face the centre is furthest outside of.
    let mut face = 0;
    let mut face_separation = f32::NEG_INFINITY;
    for i in 0..a.count() {
        let s = normals[i].dot(center - vertices[i]);
        if s > face_separation {
            face_separation = s;
            face = i;
        }
    }
    if face_separation - a.radius() - b.radius > settings.speculative_distance {
        return Manifold::default();
    }
    let v1 = vertices[face];
    let v2 = vertices[(face + 1) % a.count()];
    if face_separation <= 0.0 {
        // Centre inside the core: push out through the nearest face.
        let normal = normals[face];
        let separation = face_separation - a.radius() - b.radius;
        let surface_a = center - (face_separation - a.radius()) * normal;
        let surface_b = center - b.radius * normal;
        let point = LocalPoint {
            point: 0.5 * (surface_a + surface_b),
            separation,
            id: 0,
        };
        return world_manifold(xf_a, xf_b, normal, &[point]);
    }
    // Outside: the closest point of the core lies on this face's edge (at a vertex when the
    // centre is in a vertex region).
    let closest = closest_point_on_segment(v1, v2, center);
    point_contact(
        (xf_a, xf_b),
        (closest, a.radius()),
        (center, b.radius),
        normals[face],
        settings,
    )
}
