//! Fuzz check: the manifold of any two shapes in any placement is well formed.

use crate::input::{SIZE_LIMIT, assert_finite, assert_unit, bounded, count, point};
use crate::shapes::shape;
use arbitrary::Unstructured;
use physics_core::collision::{CollideSettings, collide};
use physics_core::math::{Rot, Transform};
use physics_core::shape::Shape;

/// Scales the shapes and their offset are drawn at.
const SCALES: [f32; 4] = [1.0e-2, 1.0, 1.0e1, SIZE_LIMIT];

/// Builds two shapes and two transforms from `data` (B placed near A, at the same scale) and
/// calls `collide`. The manifold must have at most two points; when it has any, a unit normal,
/// finite points with anchors that agree with the bodies' origins, a closest point no further
/// apart than the speculative distance (plus the tenth of the linear slop by which a
/// polygon's clipped face may keep it, as Box2D's does), and every separation within the
/// size of the two shapes either way, past the speculative distance on the far side (a
/// polygon manifold keeps the far end of its incident edge, as Box2D's does, so a second
/// point may lie further apart; and shapes smaller than the speculative distance get points
/// that far apart). Returns whether the manifold had points (and so was checked beyond its
/// point count).
pub fn check_manifold_pair(data: &[u8]) -> bool {
    let mut u = Unstructured::new(data);
    let scale = SCALES[count(&mut u, SCALES.len() - 1)];
    let (Some(a), Some(b)) = (shape(&mut u, scale), shape(&mut u, scale)) else {
        return false;
    };
    let xf_a = Transform::new(
        point(&mut u, 100.0 * scale),
        Rot::from_angle(bounded(&mut u, 10.0)),
    );
    let xf_b = Transform::new(
        xf_a.p + point(&mut u, 3.0 * scale),
        Rot::from_angle(bounded(&mut u, 10.0)),
    );
    let settings = CollideSettings::default();
    let manifold = collide(&a, xf_a, &b, xf_b, &settings);
    assert!(manifold.point_count <= 2, "{} points", manifold.point_count);
    if manifold.point_count == 0 {
        return false;
    }
    let context = format!("{a:?} at {xf_a:?} against {b:?} at {xf_b:?}");
    assert_unit(manifold.normal, 1.0e-4, &format!("normal of {context}"));
    // Round-off of positions of magnitude |xf.p| plus the shape's own size.
    let magnitude = xf_a.p.length().max(xf_b.p.length()) + a.reach() + b.reach();
    let round_off = 1.0e-5 * magnitude + 1.0e-6;
    let depth_limit = 2.0 * (a.reach() + b.reach()) + round_off;
    let gap_limit = depth_limit + settings.speculative_distance;
    for p in manifold.points() {
        assert_finite(p.point, "manifold point");
        assert_finite(p.anchor_a, "anchor a");
        assert_finite(p.anchor_b, "anchor b");
        assert!(
            (p.point - xf_a.p - p.anchor_a).length() <= round_off
                && (p.point - xf_b.p - p.anchor_b).length() <= round_off,
            "anchors disagree with the point {p:?} for {context}"
        );
        assert!(
            p.separation.is_finite() && p.separation <= gap_limit && p.separation >= -depth_limit,
            "separation {} out of range for {context}",
            p.separation
        );
    }
    let closest = manifold
        .points()
        .iter()
        .map(|p| p.separation)
        .fold(f32::INFINITY, f32::min);
    // A polygon pair's clipped face manifold is kept while its closest point is within a
    // tenth of the linear slop of the closest corners' distance, as in Box2D, so that point
    // may lie that much past the speculative distance (the same manifold as Box2D's
    // `b2CollidePolygons`: `crates/bench_compare/tests/manifold_parity.rs`).
    let clip_allowance = if through_polygon_routine(&a, &b) {
        0.1 * settings.linear_slop
    } else {
        0.0
    };
    assert!(
        closest <= settings.speculative_distance + clip_allowance + round_off,
        "closest separation {closest} beyond the speculative distance for {context}"
    );
    true
}

/// Whether `collide` takes the pair through the polygon routine: a polygon against a polygon,
/// a capsule or a segment (these two as two-vertex rounded polygons).
fn through_polygon_routine(a: &Shape, b: &Shape) -> bool {
    let polygonal =
        |s: &Shape| matches!(s, Shape::Polygon(_) | Shape::Capsule(_) | Shape::Segment(_));
    let polygon = |s: &Shape| matches!(s, Shape::Polygon(_));
    (polygon(a) || polygon(b)) && polygonal(a) && polygonal(b)
}
