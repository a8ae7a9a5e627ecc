//! Capsules and segments against each other: two rounded segments.
//!
//! When each core's projection onto the other overlaps it (they lie side by side, at any
//! angle), the face of least penetration is the reference: the other core is clipped to its
//! extent and each end of the clipped piece becomes a point with its own separation along
//! the face normal. Two points keep a capsule lying on another from rocking, and keep the far
//! end of a capsule turning against a wall from swinging through it within one step: its
//! point is speculative, so the solver lets it close only the gap it has. Otherwise (end to
//! end, or clipped points too far apart), the closest points of the cores give one contact.
//! This is Box2D v3's capsule manifold.

use super::manifold::{CollideSettings, LocalPoint, Manifold, feature_id, world_manifold};
use crate::math::{Transform, left_perp, length_and_normalize};
use crate::shape::closest_segment_parameters;
use bevy_math::Vec2;

/// Two rounded segments `(end1, end2, radius)` (radius 0 for a plain segment).
pub fn collide_rounded_segments(
    (a1, a2, radius_a): (Vec2, Vec2, f32),
    xf_a: Transform,
    (b1_body, b2_body, radius_b): (Vec2, Vec2, f32),
    xf_b: Transform,
    settings: &CollideSettings,
) -> Manifold {
    let xf = xf_a.inv_mul(xf_b);
    // Everything relative to A's first end, for round-off far from A's origin.
    let origin = a1;
    let (p1, q1) = (Vec2::ZERO, a2 - origin);
    let (p2, q2) = (xf.apply(b1_body) - origin, xf.apply(b2_body) - origin);
    let (d1, d2) = (q1 - p1, q2 - p2);
    let radius = radius_a + radius_b;
    let (s, t) = closest_segment_parameters(p1, d1, p2, d2);
    let closest_a = p1 + s * d1;
    let closest_b = p2 + t * d2;
    let distance = closest_a.distance(closest_b);
    if distance - radius > settings.speculative_distance {
        return Manifold::default();
    }
    let (length_a, axis_a) = length_and_normalize(d1);
    let (length_b, axis_b) = length_and_normalize(d2);
    // Where each core's ends project along the other core.
    let (fp2, fq2) = (axis_a.dot(p2 - p1), axis_a.dot(q2 - p1));
    let (fp1, fq1) = (axis_b.dot(p1 - p2), axis_b.dot(q1 - p2));
    let beyond =
        |u: f32, v: f32, length: f32| (u <= 0.0 && v <= 0.0) || (u >= length && v >= length);
    let side_by_side = !beyond(fp2, fq2, length_a) && !beyond(fp1, fq1, length_b);

    let mut normal = Vec2::ZERO;
    let mut points: Vec<LocalPoint> = Vec::with_capacity(2);
    if side_by_side {
        let (normal_a, separation_a) = face_separation(axis_a, p1, p2, q2);
        let (normal_b, separation_b) = face_separation(axis_b, p2, p1, q1);
        // A wins ties (by a tenth of the slop), so the reference does not flip back and forth.
        let near = distance + settings.linear_slop;
        if separation_a + 0.1 * settings.linear_slop >= separation_b {
            let (cp, cq) = clip_to_extent(p2, q2, fp2, fq2, length_a);
            let (sp, sq) = ((cp - p1).dot(normal_a), (cq - p1).dot(normal_a));
            if sp <= near || sq <= near {
                normal = normal_a;
                for (k, (c, h)) in [(cp, sp), (cq, sq)].into_iter().enumerate() {
                    points.push(LocalPoint {
                        point: c + 0.5 * (radius_a - radius_b - h) * normal_a + origin,
                        separation: h - radius,
                        id: feature_id(0, k),
                    });
                }
            }
        } else {
            let (cp, cq) = clip_to_extent(p1, q1, fp1, fq1, length_b);
            let (sp, sq) = ((cp - p2).dot(normal_b), (cq - p2).dot(normal_b));
            if sp <= near || sq <= near {
                // The normal points from A to B.
                normal = -normal_b;
                for (k, (c, h)) in [(cp, sp), (cq, sq)].into_iter().enumerate() {
                    points.push(LocalPoint {
                        point: c + 0.5 * (radius_b - radius_a - h) * normal_b + origin,
                        separation: h - radius,
                        id: feature_id(k, 0),
                    });
                }
            }
        }
    }
    if points.is_empty() {
        normal = (closest_b - closest_a)
            .try_normalize()
            .unwrap_or_else(|| left_perp(axis_a));
        let surface_a = closest_a + radius_a * normal;
        let surface_b = closest_b - radius_b * normal;
        points.push(LocalPoint {
            point: 0.5 * (surface_a + surface_b) + origin,
            separation: distance - radius,
            id: feature_id(usize::from(s != 0.0), usize::from(t != 0.0)),
        });
    }
    world_manifold(xf_a, xf_b, normal, &points)
}

/// The normal of `axis`'s core (through `base`) on the side where the other core (`p`, `q`)
/// lies furthest out, and that core's least separation along it.
fn face_separation(axis: Vec2, base: Vec2, p: Vec2, q: Vec2) -> (Vec2, f32) {
    let n = left_perp(axis);
    let (hp, hq) = (n.dot(p - base), n.dot(q - base));
    let (up, down) = (hp.min(hq), (-hp).min(-hq));
    if up > down { (n, up) } else { (-n, down) }
}

/// The core `p`-`q` cut to the extent `[0, length]` of the reference core, given where its
/// ends project (`fp`, `fq`).
fn clip_to_extent(p: Vec2, q: Vec2, fp: f32, fq: f32, length: f32) -> (Vec2, Vec2) {
    let (mut cp, mut cq) = (p, q);
    if fp < 0.0 && fq > 0.0 {
        cp = p.lerp(q, -fp / (fq - fp));
    } else if fq < 0.0 && fp > 0.0 {
        cq = q.lerp(p, -fq / (fp - fq));
    }
    if fp > length && fq < length {
        cp = p.lerp(q, (fp - length) / (fp - fq));
    } else if fq > length && fp < length {
        cq = q.lerp(p, (fq - length) / (fq - fp));
    }
    (cp, cq)
}
