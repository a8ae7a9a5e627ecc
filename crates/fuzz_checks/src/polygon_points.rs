//! Fuzz check: a polygon from arbitrary points is either refused or a valid convex polygon.

use crate::input::{COORDINATE_LIMIT, assert_finite, assert_unit, bounded, count, point};
use arbitrary::Unstructured;
use physics_core::constants::WELD_TOLERANCE;
use physics_core::shape::{Polygon, polygon_mass};

/// Scales the points are drawn at: millimetre-sized shapes up to the coordinate limit.
const SCALES: [f32; 4] = [1.0e-2, 1.0, 1.0e2, COORDINATE_LIMIT];

/// Builds `Polygon::from_points` from 0 to 12 points and a radius taken from `data`. A refusal
/// is fine (with any input); a polygon it returns must have 3 to 8 finite vertices in
/// counter-clockwise convex order, unit outward normals perpendicular to their edges, every
/// input point inside within the weld tolerance, its centroid inside, and a positive finite
/// mass and inertia. Returns whether a polygon was built (and so checked).
pub fn check_polygon_from_points(data: &[u8]) -> bool {
    let mut u = Unstructured::new(data);
    let scale = SCALES[count(&mut u, SCALES.len() - 1)];
    let n = count(&mut u, 12);
    let points: Vec<_> = (0..n).map(|_| point(&mut u, scale)).collect();
    let radius = bounded(&mut u, 1.0) * scale;
    let Ok(polygon) = Polygon::from_points(&points, radius) else {
        return false;
    };
    let vertices = polygon.vertices();
    let normals = polygon.normals();
    assert!(
        (3..=8).contains(&vertices.len()),
        "{} vertices from {points:?}",
        vertices.len()
    );
    // Round-off in a cross or dot product of coordinates of size `scale`.
    let round_off = 1.0e-5 * scale;
    for (i, (&v, &normal)) in vertices.iter().zip(normals).enumerate() {
        assert_finite(v, "vertex");
        assert_unit(normal, 1.0e-5, "polygon normal");
        let next = vertices[(i + 1) % vertices.len()];
        let edge = next - v;
        assert!(
            normal.dot(edge).abs() <= 1.0e-4 * edge.length(),
            "normal {i} {normal:?} is not perpendicular to its edge {edge:?}"
        );
        assert!(
            edge.perp_dot(normal) < 0.0,
            "normal {i} points inwards: the vertices are not counter-clockwise ({vertices:?})"
        );
        for (j, &w) in vertices.iter().enumerate() {
            let outside = normal.dot(w - v);
            assert!(
                outside <= round_off,
                "vertex {j} is {outside} outside edge {i}: not convex ({vertices:?} from {points:?})"
            );
        }
        for &p in &points {
            let outside = normal.dot(p - v);
            assert!(
                outside <= 2.0 * WELD_TOLERANCE + round_off,
                "input point {p:?} is {outside} outside edge {i} of {vertices:?} (input {points:?})"
            );
        }
        let outside = normal.dot(polygon.centroid() - v);
        assert!(outside <= round_off, "centroid outside edge {i}: {outside}");
    }
    let mass = polygon_mass(&polygon, 1.0);
    assert!(
        mass.mass.is_finite() && mass.mass > 0.0,
        "mass {} of {vertices:?}",
        mass.mass
    );
    assert!(
        mass.rotational_inertia.is_finite() && mass.rotational_inertia > 0.0,
        "inertia {} of {vertices:?}",
        mass.rotational_inertia
    );
    assert_finite(mass.center, "centre of mass");
    true
}
