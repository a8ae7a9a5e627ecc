//! EPA: penetration depth and normal of two overlapping convex shapes.
//!
//! When GJK finds the cores overlapping, the origin lies inside the Minkowski difference
//! M = B - A. EPA grows a polygon inscribed in M: it takes the polygon edge closest to the
//! origin, asks M for its support point along that edge's outward normal, and inserts the point
//! unless it lies on the edge already. The closest edge of the converged polygon is the closest
//! boundary of M: its distance is the depth and B separates by moving along minus its normal.

use super::distance::{SimplexCache, gjk_core};
use super::proxy::ShapeProxy;
use crate::constants::MAX_POLYGON_VERTICES;
use crate::math::{Transform, cross, left_perp, right_perp};
use bevy_math::Vec2;

/// Iteration limit; M has at most 16 edges for two 8-gons.
const MAX_ITERATIONS: usize = 64;

/// How deep two shapes overlap and along which direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// Unit direction from A to B: moving B by `depth * normal` separates the shapes.
    pub normal: Vec2,
    /// Overlap depth including both radii (positive).
    pub depth: f32,
}

/// Penetration of two shapes with their radii, or `None` when they do not overlap.
pub fn shape_penetration(
    proxy_a: &ShapeProxy,
    transform_a: Transform,
    proxy_b: &ShapeProxy,
    transform_b: Transform,
) -> Option<Penetration> {
    let xf = transform_a.inv_mul(transform_b);
    let mut points_b = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    let n_b = proxy_b.points().len();
    for (dst, src) in points_b.iter_mut().zip(proxy_b.points()) {
        *dst = xf.apply(*src);
    }
    let points_b = &points_b[..n_b];
    let radii = proxy_a.radius + proxy_b.radius;

    let (simplex, _) = gjk_core(proxy_a, points_b, &mut SimplexCache::default());
    let gjk_points: Vec<Vec2> = simplex.points().collect();
    // Distance from the origin to the simplex: the core distance when the cores are apart.
    let closest = closest_on_simplex(&gjk_points);
    let core_distance = closest.length();
    let (local_normal, depth) = if gjk_points.len() < 3 && core_distance > 1e-6 {
        // Cores apart: only the rounding can overlap. The closest point of M is B - A, so
        // the direction from A to B is the closest point's direction.
        (closest / core_distance, radii - core_distance)
    } else {
        let (n, d) = expand(proxy_a, points_b);
        (n, d + radii)
    };
    (depth > 0.0).then(|| Penetration {
        normal: transform_a.q.rotate(local_normal),
        depth,
    })
}

/// The point of a 1- or 2-point simplex closest to the origin (a triangle gives zero).
fn closest_on_simplex(points: &[Vec2]) -> Vec2 {
    match points {
        [p] => *p,
        [a, b] => crate::shape::closest_point_on_segment(*a, *b, Vec2::ZERO),
        _ => Vec2::ZERO,
    }
}

/// Support point of M = B - A along `d`.
fn support(proxy_a: &ShapeProxy, points_b: &[Vec2], d: Vec2) -> Vec2 {
    let b = points_b
        .iter()
        .copied()
        .reduce(|best, p| if p.dot(d) > best.dot(d) { p } else { best })
        .unwrap_or(Vec2::ZERO);
    b - proxy_a.points()[proxy_a.support(-d)]
}

/// Runs the expansion on the cores; returns the A-to-B normal and the core depth.
fn expand(proxy_a: &ShapeProxy, points_b: &[Vec2]) -> (Vec2, f32) {
    // Start from supports in eight directions: they come out in counter-clockwise order.
    let mut polytope: Vec<Vec2> = Vec::with_capacity(24);
    // The eight directions k * 45 degrees, written out (no platform sin/cos in the step).
    const H: f32 = std::f32::consts::FRAC_1_SQRT_2;
    const DIRECTIONS: [Vec2; 8] = [
        Vec2::new(1.0, 0.0),
        Vec2::new(H, H),
        Vec2::new(0.0, 1.0),
        Vec2::new(-H, H),
        Vec2::new(-1.0, 0.0),
        Vec2::new(-H, -H),
        Vec2::new(0.0, -1.0),
        Vec2::new(H, -H),
    ];
    for direction in DIRECTIONS {
        let p = support(proxy_a, points_b, direction);
        if polytope
            .last()
            .is_none_or(|last: &Vec2| last.distance_squared(p) > 1e-12)
        {
            polytope.push(p);
        }
    }
    while polytope.len() > 1 && polytope[0].distance_squared(polytope[polytope.len() - 1]) <= 1e-12
    {
        polytope.pop();
    }
    if polytope.len() < 3 || polygon_area(&polytope) <= 1e-12 {
        // M is flat (two parallel segments): the depth across it is zero and the normal is
        // its perpendicular, oriented from A to B by the centres.
        let axis = if polytope.len() >= 2 {
            left_perp(polytope[1] - polytope[0]).normalize_or(Vec2::Y)
        } else {
            Vec2::Y
        };
        return (axis, 0.0);
    }

    for _ in 0..MAX_ITERATIONS {
        let (edge, normal, distance) = closest_edge(&polytope);
        let p = support(proxy_a, points_b, normal);
        let gain = normal.dot(p) - distance;
        if gain <= 1e-5 * distance.abs().max(1.0) {
            return (-normal, distance);
        }
        polytope.insert(edge + 1, p);
    }
    let (_, normal, distance) = closest_edge(&polytope);
    (-normal, distance)
}

/// The edge of the counter-clockwise polygon closest to the origin: (index, outward normal,
/// signed distance of its line from the origin).
fn closest_edge(polytope: &[Vec2]) -> (usize, Vec2, f32) {
    let n = polytope.len();
    let mut best = (0, Vec2::Y, f32::INFINITY);
    for i in 0..n {
        let a = polytope[i];
        let b = polytope[(i + 1) % n];
        let normal = right_perp(b - a).normalize_or_zero();
        if normal == Vec2::ZERO {
            continue;
        }
        let distance = normal.dot(a);
        if distance < best.2 {
            best = (i, normal, distance);
        }
    }
    best
}

fn polygon_area(points: &[Vec2]) -> f32 {
    let n = points.len();
    0.5 * (0..n)
        .map(|i| cross(points[i], points[(i + 1) % n]))
        .sum::<f32>()
}
