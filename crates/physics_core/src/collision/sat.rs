//! Separating-axis test for convex polygons.
//!
//! For two convex polygons the candidate separating axes are their edge normals. Along the
//! normal of edge i of polygon 1, polygon 2 is separated by min over its vertices of
//! n_i . (v - v1_i); the largest of these over all edges of both polygons is the signed
//! distance between the cores (negative when they overlap, and then minus the penetration
//! depth).

use crate::math::Transform;
use crate::shape::Polygon;
use bevy_math::Vec2;

/// The edge of `poly1` along whose normal `poly2` is furthest out, and that separation.
/// Both polygons must be in the same frame.
pub fn find_max_separation(poly1: &Polygon, poly2: &Polygon) -> (usize, f32) {
    max_separation(poly1.normals(), poly1.vertices(), poly2.vertices())
}

/// [`find_max_separation`] on bare arrays: the edge (normal `normals1[i]` through
/// `vertices1[i]`) along which the points `vertices2` are furthest out, the first on a tie.
pub(crate) fn max_separation(
    normals1: &[Vec2],
    vertices1: &[Vec2],
    vertices2: &[Vec2],
) -> (usize, f32) {
    let mut best_edge = 0;
    let mut max_separation = f32::NEG_INFINITY;
    for (i, (n, v1)) in normals1.iter().zip(vertices1).enumerate() {
        let separation = vertices2
            .iter()
            .map(|v2| n.dot(*v2 - *v1))
            .fold(f32::INFINITY, f32::min);
        if separation > max_separation {
            max_separation = separation;
            best_edge = i;
        }
    }
    (best_edge, max_separation)
}

/// The best separating axis of two polygons on their bodies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatAxis {
    /// Unit world normal pointing from A to B.
    pub normal: Vec2,
    /// Signed distance between the cores (negative: penetration depth).
    pub separation: f32,
}

/// The axis of least penetration (or greatest separation) between two polygons' cores.
pub fn polygon_separation(a: &Polygon, xf_a: Transform, b: &Polygon, xf_b: Transform) -> SatAxis {
    let b_in_a = b.transformed(xf_a.inv_mul(xf_b));
    let (edge_a, sep_a) = find_max_separation(a, &b_in_a);
    let (edge_b, sep_b) = find_max_separation(&b_in_a, a);
    let (local_normal, separation) = if sep_b > sep_a {
        (-b_in_a.normals()[edge_b], sep_b)
    } else {
        (a.normals()[edge_a], sep_a)
    };
    SatAxis {
        normal: xf_a.q.rotate(local_normal),
        separation,
    }
}
