//! Contact points by clipping (Bittle, "Contact Points Using Clipping").
//!
//! The reference edge is the face the collision normal belongs to; the incident edge is the
//! other shape's edge most anti-parallel to it. The incident edge is clipped against the two
//! side planes through the reference edge's end points, and each surviving point gets its own
//! separation along the reference normal. A point created by a clip is not a vertex of either
//! shape, so its depth differs from the depth the collision detector reported: keeping one
//! separation per point is what stops the solver from over-correcting.

use crate::math::right_perp;
use bevy_math::Vec2;

/// A point of the incident edge during clipping, with the index of the incident vertex it
/// came from (stable while the same features touch, so it can key warm starting).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipVertex {
    /// Position.
    pub point: Vec2,
    /// Incident vertex index (0 or 1 along the incident edge).
    pub incident_index: u8,
}

/// Keeps the part of segment `v` on the side `normal . p >= offset` of a line.
/// Returns the kept points (0, 1 or 2) and their count; a point created where the segment
/// crosses the line takes the index of the vertex that was cut away.
pub fn clip_segment_to_line(
    v: [ClipVertex; 2],
    normal: Vec2,
    offset: f32,
) -> ([ClipVertex; 2], usize) {
    let mut out = v;
    let mut count = 0;
    let d0 = normal.dot(v[0].point) - offset;
    let d1 = normal.dot(v[1].point) - offset;
    if d0 >= 0.0 {
        out[count] = v[0];
        count += 1;
    }
    if d1 >= 0.0 {
        out[count] = v[1];
        count += 1;
    }
    if d0 * d1 < 0.0 {
        let u = d0 / (d0 - d1);
        let cut = if d0 < 0.0 { v[0] } else { v[1] };
        out[count] = ClipVertex {
            point: v[0].point + u * (v[1].point - v[0].point),
            incident_index: cut.incident_index,
        };
        count += 1;
    }
    (out, count)
}

/// A contact point produced by clipping.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClippedPoint {
    /// Point on the incident edge.
    pub point: Vec2,
    /// Signed distance from the reference edge along its outward normal (negative inside).
    pub separation: f32,
    /// Incident vertex the point came from (0 or 1).
    pub incident_index: u8,
}

/// Clips the incident edge `incident` (from its vertex 0 to vertex 1) against the reference
/// edge `reference`, given in the counter-clockwise order of its polygon so that
/// `right_perp(reference.1 - reference.0)` points out of it. Points whose separation exceeds
/// `max_separation` are dropped (0 keeps only overlapping points; a positive margin keeps
/// speculative ones). Returns up to two points and their count.
pub fn clip_incident_edge(
    reference: (Vec2, Vec2),
    incident: (Vec2, Vec2),
    max_separation: f32,
) -> ([ClippedPoint; 2], usize) {
    let empty = ClippedPoint {
        point: Vec2::ZERO,
        separation: 0.0,
        incident_index: 0,
    };
    let mut result = [empty; 2];
    let tangent = (reference.1 - reference.0).normalize_or_zero();
    if tangent == Vec2::ZERO {
        return (result, 0);
    }
    let segment = [
        ClipVertex {
            point: incident.0,
            incident_index: 0,
        },
        ClipVertex {
            point: incident.1,
            incident_index: 1,
        },
    ];
    // Side plane at the reference edge's first vertex, then at its second.
    let (first, n1) = clip_segment_to_line(segment, tangent, tangent.dot(reference.0));
    if n1 < 2 {
        return (result, 0);
    }
    let (second, n2) = clip_segment_to_line(first, -tangent, -tangent.dot(reference.1));
    if n2 < 2 {
        return (result, 0);
    }
    let normal = right_perp(tangent);
    let mut count = 0;
    for v in second {
        let separation = normal.dot(v.point - reference.0);
        if separation <= max_separation {
            result[count] = ClippedPoint {
                point: v.point,
                separation,
                incident_index: v.incident_index,
            };
            count += 1;
        }
    }
    (result, count)
}

#[cfg(test)]
mod tests {
    //! The three worked examples of Bittle's clipping post. The post states depths as positive numbers; our
    //! separations are their negatives.
    use super::*;

    fn assert_point(p: &ClippedPoint, x: f32, y: f32, depth: f32) {
        assert!(
            (p.point.x - x).abs() <= 0.01 && (p.point.y - y).abs() <= 0.01,
            "point {:?}, expected ({x}, {y})",
            p.point
        );
        assert!(
            (-p.separation - depth).abs() <= 0.01,
            "depth {}, expected {depth}",
            -p.separation
        );
    }

    #[test]
    fn bittle_example_1_two_points_same_depth() {
        // Box A's bottom edge (8,4)->(14,4) is the reference, B's top edge (12,5)->(4,5) the
        // incident edge; normal (0,-1), depth 1.
        let (points, count) = clip_incident_edge(
            (Vec2::new(8.0, 4.0), Vec2::new(14.0, 4.0)),
            (Vec2::new(12.0, 5.0), Vec2::new(4.0, 5.0)),
            0.0,
        );
        assert_eq!(count, 2);
        assert_point(&points[0], 12.0, 5.0, 1.0);
        assert_point(&points[1], 8.0, 5.0, 1.0);
    }

    #[test]
    fn bittle_example_2_final_clip_removes_a_point() {
        // The reference is B's top edge (12,5)->(4,5) (the post's "flip" case); the incident
        // edge is A's (2,8)->(6,4). Only (6,4) survives, at depth 1.
        let (points, count) = clip_incident_edge(
            (Vec2::new(12.0, 5.0), Vec2::new(4.0, 5.0)),
            (Vec2::new(2.0, 8.0), Vec2::new(6.0, 4.0)),
            0.0,
        );
        assert_eq!(count, 1);
        assert_point(&points[0], 6.0, 4.0, 1.0);
    }

    #[test]
    fn bittle_example_3_each_point_gets_its_own_depth() {
        // Reference: A's edge (9,4)->(13,3); incident: B's top edge (12,5)->(4,5).
        // The post lists (12,5) at depth 1.69 and (9.28,5) at depth 1.04. It rounds the clip
        // parameter u = 2.67/7.76 = 0.344 to 0.34 before multiplying by the edge length 8, so
        // its x of 9.28 is 12 - 8 * 0.34; unrounded, 12 - 8 * 11/32 = 9.25 (u is exactly
        // 11/32 for these integer vertices), and that point's depth is 4.25/sqrt(17) = 1.031.
        // We assert the unrounded point and both of the post's depths to 0.01.
        let (points, count) = clip_incident_edge(
            (Vec2::new(9.0, 4.0), Vec2::new(13.0, 3.0)),
            (Vec2::new(12.0, 5.0), Vec2::new(4.0, 5.0)),
            0.0,
        );
        assert_eq!(count, 2);
        assert_point(&points[0], 12.0, 5.0, 1.69);
        assert_point(&points[1], 9.25, 5.0, 1.04);
    }

    #[test]
    fn clip_keeps_speculative_points_within_margin() {
        // The reference edge runs -x, so its outward normal is +y; the incident edge lies 0.01
        // outside it: dropped at margin 0, kept at 0.02.
        let reference = (Vec2::new(1.0, 0.0), Vec2::new(-1.0, 0.0));
        let incident = (Vec2::new(-0.5, 0.01), Vec2::new(0.5, 0.01));
        assert_eq!(clip_incident_edge(reference, incident, 0.0).1, 0);
        let (points, count) = clip_incident_edge(reference, incident, 0.02);
        assert_eq!(count, 2);
        assert!((points[0].separation - 0.01).abs() < 1e-6);
    }
}
