//! GJK distance between two convex proxies: distance, closest points and a simplex cache that
//! warm-starts the next query between the same pair.
//!
//! GJK walks a simplex (point, segment or triangle) of the Minkowski difference B - A towards
//! the origin. Each iteration keeps the sub-simplex whose Voronoi region holds the origin,
//! takes the support point in the direction of the origin, and stops when the support point
//! brings no progress (it is already in the simplex) or the simplex encloses the origin
//! (the cores overlap). The closest points follow from the barycentric weights of the final
//! simplex applied to the support points of A and B.

use super::proxy::ShapeProxy;
use crate::math::{Transform, cross, left_perp, right_perp};
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// Maximum GJK iterations; convex proxies of at most 8 points converge in far fewer.
const MAX_ITERATIONS: usize = 20;

/// Input of a distance query.
#[derive(Clone, Copy, Debug)]
pub struct DistanceInput {
    /// First shape, in its body frame.
    pub proxy_a: ShapeProxy,
    /// Second shape, in its body frame.
    pub proxy_b: ShapeProxy,
    /// Transform of the first body.
    pub transform_a: Transform,
    /// Transform of the second body.
    pub transform_b: Transform,
    /// Measure between the rounded surfaces (true) or between the cores (false).
    pub use_radii: bool,
}

/// The support-point indices of the last simplex, to start the next query from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimplexCache {
    /// Number of vertices (0 means: no cache, start from scratch).
    pub count: u8,
    /// Indices into proxy A's points.
    pub index_a: [u8; 3],
    /// Indices into proxy B's points.
    pub index_b: [u8; 3],
}

/// Result of a distance query, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceOutput {
    /// Closest point on A.
    pub point_a: Vec2,
    /// Closest point on B.
    pub point_b: Vec2,
    /// Unit vector from A towards B (zero when the shapes overlap).
    pub normal: Vec2,
    /// Distance between the shapes; 0 when they overlap.
    pub distance: f32,
    /// GJK iterations used.
    pub iterations: usize,
    /// Vertices in the final simplex (3 means the cores overlap).
    pub simplex_count: usize,
}

#[derive(Clone, Copy, Debug, Default)]
struct SimplexVertex {
    /// Support point of A (in A's frame).
    wa: Vec2,
    /// Support point of B (in A's frame).
    wb: Vec2,
    /// wb - wa, a point of the Minkowski difference.
    w: Vec2,
    /// Barycentric weight of this vertex in the closest point.
    a: f32,
    index_a: usize,
    index_b: usize,
}

impl SimplexVertex {
    fn new(proxy_a: &ShapeProxy, points_b: &[Vec2], index_a: usize, index_b: usize) -> Self {
        let wa = proxy_a.points()[index_a];
        let wb = points_b[index_b];
        SimplexVertex {
            wa,
            wb,
            w: wb - wa,
            a: 1.0,
            index_a,
            index_b,
        }
    }
}

/// A simplex of 1 to 3 vertices with barycentric weights.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Simplex {
    v: [SimplexVertex; 3],
    count: usize,
}

impl Simplex {
    /// Closest points on A and B.
    fn witness_points(&self) -> (Vec2, Vec2) {
        let pa = self.v[..self.count].iter().map(|v| v.a * v.wa).sum();
        let pb = self.v[..self.count].iter().map(|v| v.a * v.wb).sum();
        (pa, pb)
    }

    /// The Minkowski-difference points of the simplex.
    pub(crate) fn points(&self) -> impl Iterator<Item = Vec2> + '_ {
        self.v[..self.count].iter().map(|v| v.w)
    }

    /// Direction from the simplex towards the origin.
    fn search_direction(&self) -> Vec2 {
        match self.count {
            1 => -self.v[0].w,
            _ => {
                // Perpendicular to the segment, on the origin's side. Using the perpendicular
                // rather than -closest_point keeps the direction exact when the origin is near
                // the segment.
                let e = self.v[1].w - self.v[0].w;
                if cross(e, -self.v[0].w) > 0.0 {
                    left_perp(e)
                } else {
                    right_perp(e)
                }
            }
        }
    }

    /// Keeps the sub-segment or endpoint whose Voronoi region holds the origin.
    fn solve2(&mut self) {
        let (w1, w2) = (self.v[0].w, self.v[1].w);
        let e12 = w2 - w1;
        // Weight of w2 is proportional to -w1.e12, weight of w1 to w2.e12.
        let d12_2 = -w1.dot(e12);
        if d12_2 <= 0.0 {
            self.v[0].a = 1.0;
            self.count = 1;
            return;
        }
        let d12_1 = w2.dot(e12);
        if d12_1 <= 0.0 {
            self.v[0] = self.v[1];
            self.v[0].a = 1.0;
            self.count = 1;
            return;
        }
        let inv = 1.0 / (d12_1 + d12_2);
        self.v[0].a = d12_1 * inv;
        self.v[1].a = d12_2 * inv;
        self.count = 2;
    }

    /// Keeps the vertex, edge or whole triangle whose Voronoi region holds the origin.
    fn solve3(&mut self) {
        let (w1, w2, w3) = (self.v[0].w, self.v[1].w, self.v[2].w);
        let e12 = w2 - w1;
        let (d12_1, d12_2) = (w2.dot(e12), -w1.dot(e12));
        let e13 = w3 - w1;
        let (d13_1, d13_2) = (w3.dot(e13), -w1.dot(e13));
        let e23 = w3 - w2;
        let (d23_1, d23_2) = (w3.dot(e23), -w2.dot(e23));
        // Signed areas of the sub-triangles with the origin, oriented like the triangle.
        let n123 = cross(e12, e13);
        let d123_1 = n123 * cross(w2, w3);
        let d123_2 = n123 * cross(w3, w1);
        let d123_3 = n123 * cross(w1, w2);

        if d12_2 <= 0.0 && d13_2 <= 0.0 {
            self.v[0].a = 1.0;
            self.count = 1;
        } else if d12_1 > 0.0 && d12_2 > 0.0 && d123_3 <= 0.0 {
            let inv = 1.0 / (d12_1 + d12_2);
            self.v[0].a = d12_1 * inv;
            self.v[1].a = d12_2 * inv;
            self.count = 2;
        } else if d13_1 > 0.0 && d13_2 > 0.0 && d123_2 <= 0.0 {
            let inv = 1.0 / (d13_1 + d13_2);
            self.v[0].a = d13_1 * inv;
            self.v[2].a = d13_2 * inv;
            self.v[1] = self.v[2];
            self.count = 2;
        } else if d12_1 <= 0.0 && d23_2 <= 0.0 {
            self.v[0] = self.v[1];
            self.v[0].a = 1.0;
            self.count = 1;
        } else if d13_1 <= 0.0 && d23_1 <= 0.0 {
            self.v[0] = self.v[2];
            self.v[0].a = 1.0;
            self.count = 1;
        } else if d23_1 > 0.0 && d23_2 > 0.0 && d123_1 <= 0.0 {
            let inv = 1.0 / (d23_1 + d23_2);
            self.v[1].a = d23_1 * inv;
            self.v[2].a = d23_2 * inv;
            self.v[0] = self.v[2];
            self.count = 2;
        } else {
            let inv = 1.0 / (d123_1 + d123_2 + d123_3);
            self.v[0].a = d123_1 * inv;
            self.v[1].a = d123_2 * inv;
            self.v[2].a = d123_3 * inv;
            self.count = 3;
        }
    }
}

/// Runs GJK on the cores (no radii) with B expressed in A's frame. Returns the final simplex
/// and the iteration count; updates the cache.
pub(crate) fn gjk_core(
    proxy_a: &ShapeProxy,
    points_b: &[Vec2],
    cache: &mut SimplexCache,
) -> (Simplex, usize) {
    let mut simplex = Simplex::default();
    let cached = cache.count as usize;
    let valid_cache = (1..=3).contains(&cached)
        && (0..cached).all(|i| {
            (cache.index_a[i] as usize) < proxy_a.points().len()
                && (cache.index_b[i] as usize) < points_b.len()
        });
    if valid_cache {
        for i in 0..cached {
            simplex.v[i] = SimplexVertex::new(
                proxy_a,
                points_b,
                cache.index_a[i] as usize,
                cache.index_b[i] as usize,
            );
        }
        simplex.count = cached;
        let n = simplex.count as f32;
        for v in &mut simplex.v[..simplex.count] {
            v.a = 1.0 / n;
        }
    } else {
        simplex.v[0] = SimplexVertex::new(proxy_a, points_b, 0, 0);
        simplex.count = 1;
    }

    let support_b = |d: Vec2| {
        let mut best = 0;
        for (i, p) in points_b.iter().enumerate().skip(1) {
            if p.dot(d) > points_b[best].dot(d) {
                best = i;
            }
        }
        best
    };

    let mut iterations = 0;
    while iterations < MAX_ITERATIONS {
        match simplex.count {
            2 => simplex.solve2(),
            3 => simplex.solve3(),
            _ => {}
        }
        if simplex.count == 3 {
            break;
        }
        let d = simplex.search_direction();
        if d.length_squared() < f32::EPSILON * f32::EPSILON {
            // The origin lies on the simplex: touching or overlapping cores.
            break;
        }
        let index_a = proxy_a.support(-d);
        let index_b = support_b(d);
        iterations += 1;
        let repeated = simplex.v[..simplex.count]
            .iter()
            .any(|v| v.index_a == index_a && v.index_b == index_b);
        if repeated {
            break;
        }
        let vertex = SimplexVertex::new(proxy_a, points_b, index_a, index_b);
        // No progress towards the origin: the simplex already holds the closest feature.
        // Parallel edges (a box beside an upright capsule) offer a new vertex exactly as far
        // along `d` as the current one; taking it makes a flat triangle, and rounding can
        // then put the origin inside it (a false overlap) or cycle between the edges.
        let reach = (vertex.w - simplex.v[0].w).dot(d);
        let scale = 1.0
            + vertex
                .w
                .abs()
                .max_element()
                .max(simplex.v[0].w.abs().max_element());
        if reach <= 8.0 * f32::EPSILON * scale * d.length() {
            break;
        }
        simplex.v[simplex.count] = vertex;
        simplex.count += 1;
    }
    // A vertex added by the last allowed iteration is weighed like any other.
    match simplex.count {
        2 => simplex.solve2(),
        3 => simplex.solve3(),
        _ => {}
    }

    cache.count = simplex.count as u8;
    for (i, v) in simplex.v[..simplex.count].iter().enumerate() {
        cache.index_a[i] = v.index_a as u8;
        cache.index_b[i] = v.index_b as u8;
    }
    (simplex, iterations)
}

/// Distance and closest points between two convex shapes.
pub fn shape_distance(input: &DistanceInput, cache: &mut SimplexCache) -> DistanceOutput {
    let xf = input.transform_a.inv_mul(input.transform_b);
    let mut points_b = [Vec2::ZERO; crate::constants::MAX_POLYGON_VERTICES];
    let n_b = input.proxy_b.points().len();
    for (dst, src) in points_b.iter_mut().zip(input.proxy_b.points()) {
        *dst = xf.apply(*src);
    }
    let (simplex, iterations) = gjk_core(&input.proxy_a, &points_b[..n_b], cache);

    let (mut pa, mut pb) = simplex.witness_points();
    let mut distance = pa.distance(pb);
    let mut normal = if distance > 0.0 {
        (pb - pa) / distance
    } else {
        Vec2::ZERO
    };
    if simplex.count == 3 {
        // The origin is inside the simplex: the cores overlap and the witness points coincide
        // up to rounding.
        distance = 0.0;
        normal = Vec2::ZERO;
        pb = pa;
    }
    if input.use_radii {
        let (ra, rb) = (input.proxy_a.radius, input.proxy_b.radius);
        if distance > ra + rb {
            distance -= ra + rb;
            pa += ra * normal;
            pb -= rb * normal;
        } else {
            let p = 0.5 * (pa + pb);
            pa = p;
            pb = p;
            distance = 0.0;
        }
    }
    let q = input.transform_a.q;
    DistanceOutput {
        point_a: input.transform_a.apply(pa),
        point_b: input.transform_a.apply(pb),
        normal: q.rotate(normal),
        distance,
        iterations,
        simplex_count: simplex.count,
    }
}

/// True when the two shapes (with their radii) overlap or touch.
pub fn shapes_overlap(
    proxy_a: &ShapeProxy,
    transform_a: Transform,
    proxy_b: &ShapeProxy,
    transform_b: Transform,
) -> bool {
    let input = DistanceInput {
        proxy_a: *proxy_a,
        proxy_b: *proxy_b,
        transform_a,
        transform_b,
        use_radii: true,
    };
    shape_distance(&input, &mut SimplexCache::default()).distance < 10.0 * f32::EPSILON
}
