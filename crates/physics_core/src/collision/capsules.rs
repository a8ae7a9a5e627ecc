//! Capsules and segments against each other: two rounded segments.
//!
//! The closest points of the two core segments give the normal and one contact. When the
//! segments are nearly parallel and overlap along their length (a capsule lying on another,
//! or on a segment of ground), one point would let the body rock, so B's core is clipped to
//! A's extent and each end of the overlap becomes a point with its own separation along A's
//! face normal.

use super::manifold::{CollideSettings, LocalPoint, Manifold, feature_id, world_manifold};
use super::polygons::collide_polygons;
use crate::math::{Transform, cross, left_perp, length_and_normalize};
use crate::shape::{Polygon, closest_segment_parameters};
use bevy_math::Vec2;

/// |sin| of the angle between the segments below which they count as parallel (about 5.7°).
const PARALLEL_SIN: f32 = 0.1;

/// Two rounded segments `(end1, end2, radius)` (radius 0 for a plain segment).
pub fn collide_rounded_segments(
    (a1, a2, radius_a): (Vec2, Vec2, f32),
    xf_a: Transform,
    (b1_body, b2_body, radius_b): (Vec2, Vec2, f32),
    xf_b: Transform,
    settings: &CollideSettings,
) -> Manifold {
    let xf = xf_a.inv_mul(xf_b);
    let (b1, b2) = (xf.apply(b1_body), xf.apply(b2_body));
    let d1 = a2 - a1;
    let d2 = b2 - b1;
    let radius = radius_a + radius_b;
    let (s, t) = closest_segment_parameters(a1, d1, b1, d2);
    let closest_a = a1 + s * d1;
    let closest_b = b1 + t * d2;
    let (distance, normal) = length_and_normalize(closest_b - closest_a);
    if distance - radius > settings.speculative_distance {
        return Manifold::default();
    }
    if distance < 0.1 * settings.linear_slop {
        // The cores cross, so the closest-point direction is rounding noise. The Minkowski
        // difference of two segments is a parallelogram whose edge normals are the segments'
        // normals, so SAT over the two-vertex polygons gives the exact least-penetration axis.
        return collide_polygons(
            &Polygon::from_segment(a1, a2, radius_a),
            Transform::IDENTITY,
            &Polygon::from_segment(b1, b2, radius_b),
            Transform::IDENTITY,
            settings,
        )
        .rebased(xf_a, xf_b);
    }
    let (length_a, axis_a) = length_and_normalize(d1);
    let mut face_normal = left_perp(axis_a);
    if face_normal.dot(normal) < 0.0 {
        face_normal = -face_normal;
    }

    let parallel = cross(axis_a, d2.normalize_or_zero()).abs() < PARALLEL_SIN;
    if parallel
        && let Some(points) = clip_parallel(
            a1,
            axis_a,
            length_a,
            b1,
            b2,
            face_normal,
            radius_a,
            radius_b,
            settings,
        )
    {
        return world_manifold(xf_a, xf_b, face_normal, &points);
    }

    let surface_a = closest_a + radius_a * normal;
    let surface_b = closest_b - radius_b * normal;
    let point = LocalPoint {
        point: 0.5 * (surface_a + surface_b),
        separation: distance - radius,
        id: feature_id(end_feature(s), end_feature(t)),
    };
    world_manifold(xf_a, xf_b, normal, &[point])
}

/// Feature index of a segment parameter: 0 or 1 at the ends, 2 for the interior.
fn end_feature(parameter: f32) -> usize {
    if parameter <= 0.0 {
        0
    } else if parameter >= 1.0 {
        1
    } else {
        2
    }
}

/// Two points from B's core clipped to A's extent, each with its separation along A's face
/// normal; `None` when the overlap is shorter than the slop or no point is near enough.
#[allow(clippy::too_many_arguments)]
fn clip_parallel(
    a1: Vec2,
    axis_a: Vec2,
    length_a: f32,
    b1: Vec2,
    b2: Vec2,
    face_normal: Vec2,
    radius_a: f32,
    radius_b: f32,
    settings: &CollideSettings,
) -> Option<[LocalPoint; 2]> {
    let u1 = axis_a.dot(b1 - a1);
    let u2 = axis_a.dot(b2 - a1);
    let (lo, hi) = (u1.min(u2).max(0.0), u1.max(u2).min(length_a));
    if hi - lo < settings.linear_slop || (u2 - u1).abs() < f32::EPSILON {
        return None;
    }
    let at = |u: f32| b1 + (b2 - b1) * ((u - u1) / (u2 - u1));
    let mut points = [LocalPoint {
        point: Vec2::ZERO,
        separation: 0.0,
        id: 0,
    }; 2];
    for (k, (u, end)) in [(lo, 0usize), (hi, 1usize)].into_iter().enumerate() {
        let on_b = at(u);
        let height = face_normal.dot(on_b - a1);
        let on_a = on_b - height * face_normal;
        let separation = height - radius_a - radius_b;
        if separation > settings.speculative_distance {
            return None;
        }
        let surface_a = on_a + radius_a * face_normal;
        let surface_b = on_b - radius_b * face_normal;
        points[k] = LocalPoint {
            point: 0.5 * (surface_a + surface_b),
            separation,
            id: feature_id(3, end),
        };
    }
    Some(points)
}
