//! Convex hull of arbitrary points, the only way a `Polygon` is built from user input.
//!
//! Gift wrapping: from the lowest point, repeatedly take the point with no other point to its
//! right, the farthest one when several lie on that line. Before the sweep, points closer than the weld tolerance are merged; after it,
//! vertices that sit within the weld tolerance of the line through their neighbours are removed,
//! so the polygon has no near-parallel edges that would make collision normals noisy.

use super::ShapeError;
use crate::constants::{MAX_POLYGON_VERTICES, WELD_TOLERANCE};
use crate::math::{cross, is_finite_vec};
use bevy_math::Vec2;

/// The smallest bounding-box diagonal a polygon may have.
pub const MIN_POLYGON_SIZE: f32 = 4.0 * WELD_TOLERANCE;

/// Counter-clockwise convex hull of `points`, 3 to `MAX_POLYGON_VERTICES` vertices.
pub fn convex_hull(points: &[Vec2]) -> Result<Vec<Vec2>, ShapeError> {
    if points.iter().any(|p| !is_finite_vec(*p)) {
        return Err(ShapeError::NonFinite {
            what: "polygon point",
        });
    }
    if points.is_empty() {
        return Err(ShapeError::TooFewPoints { distinct: 0 });
    }
    let (lo, hi) = points.iter().fold((points[0], points[0]), |(lo, hi), p| {
        (lo.min(*p), hi.max(*p))
    });
    let size = lo.distance(hi);
    if size < MIN_POLYGON_SIZE {
        return Err(ShapeError::TooSmall {
            size,
            min: MIN_POLYGON_SIZE,
        });
    }

    // Coordinates a trillion times smaller than the shape are zero: products of such
    // coordinates underflow to subnormals, and the hull's exact turn tests then answer at
    // random (a point 7e-44 above an axis made the axis points look left of each other).
    let flush = size * 1.0e-12;
    let flushed: Vec<Vec2> = points
        .iter()
        .map(|p| Vec2::new(flush_tiny(p.x, flush), flush_tiny(p.y, flush)))
        .collect();
    let distinct = weld(&flushed);
    if distinct.len() < 3 {
        return Err(ShapeError::TooFewPoints {
            distinct: distinct.len(),
        });
    }

    let mut hull = gift_wrap(&distinct);
    if hull.len() > MAX_POLYGON_VERTICES {
        // Too many vertices for gift wrapping's budget: the sweep finds them all, and the
        // near-collinear pass below may still bring them within the limit. (One pass only: a
        // second one would not know what the first removed, and could cascade.)
        hull = monotone_chain(distinct);
    }
    remove_near_collinear(&mut hull);
    if hull.len() < 3 {
        return Err(ShapeError::Collinear);
    }
    if hull.len() > MAX_POLYGON_VERTICES {
        return Err(ShapeError::TooManyHullPoints {
            count: hull.len(),
            max: MAX_POLYGON_VERTICES,
        });
    }
    Ok(hull)
}

/// x, then y, compared numerically: -0 and +0 are one coordinate (`total_cmp` would put -0
/// first and break the hull's sweep order). The points are finite, so the comparison exists.
fn lexicographic(a: &Vec2, b: &Vec2) -> std::cmp::Ordering {
    let order = |a: f32, b: f32| a.partial_cmp(&b).unwrap_or(std::cmp::Ordering::Equal);
    order(a.x, b.x).then(order(a.y, b.y))
}

/// `x`, or zero when its magnitude is below `limit`.
fn flush_tiny(x: f32, limit: f32) -> f32 {
    if x.abs() < limit { 0.0 } else { x }
}

/// The input with points closer than the weld tolerance to an earlier point dropped.
fn weld(points: &[Vec2]) -> Vec<Vec2> {
    let tol_sq = WELD_TOLERANCE * WELD_TOLERANCE;
    let mut kept: Vec<Vec2> = Vec::with_capacity(points.len());
    for p in points {
        if kept.iter().all(|q| q.distance_squared(*p) > tol_sq) {
            kept.push(*p);
        }
    }
    kept
}

/// Counter-clockwise hull by gift wrapping, starting at the lowest-x (then lowest-y) point.
/// Each next vertex is the point with every other point on its left as seen from the current
/// vertex; of points exactly on that line the farthest wins, so a point along an edge never
/// becomes a vertex and never hides the edge's far end. (A tolerance on the turn would make
/// "collinear" intransitive and can wrap around a wrong, non-convex chain; the exact test
/// errs only by round-off, which the weld-tolerance pass then removes.) A
/// sorted sweep (Andrew's monotone chain) gets this wrong when round-off orders points along
/// a nearly vertical edge by x against their order along the edge. Stops after one vertex
/// more than a polygon may hold; the caller refuses such a hull.
fn gift_wrap(points: &[Vec2]) -> Vec<Vec2> {
    let start = (0..points.len())
        .min_by(|&i, &j| lexicographic(&points[i], &points[j]))
        .expect("at least three points");
    let mut hull = Vec::with_capacity(MAX_POLYGON_VERTICES + 1);
    // Vertices already wrapped are never candidates again (the start is, to close the hull):
    // from a vertex that round-off put on a straight edge, the previous vertex and the true
    // next one lie in opposite directions, and a previous vertex held as the candidate made
    // the true next one look collinear with it and lose.
    let mut wrapped = vec![false; points.len()];
    let mut current = start;
    loop {
        hull.push(points[current]);
        if current != start {
            wrapped[current] = true;
        }
        let candidate = |i: usize| i != current && !wrapped[i];
        let Some(mut next) = (0..points.len()).find(|&i| candidate(i)) else {
            return hull;
        };
        for (i, &p) in points.iter().enumerate() {
            if i == next || !candidate(i) {
                continue;
            }
            let to_next = points[next] - points[current];
            let to_p = p - points[current];
            let turn = cross(to_next, to_p);
            let farther_on_line = turn == 0.0 && to_p.length_squared() > to_next.length_squared();
            if turn < 0.0 || farther_on_line {
                next = i;
            }
        }
        current = next;
        if current == start || hull.len() > MAX_POLYGON_VERTICES {
            return hull;
        }
    }
}

/// Strictly convex counter-clockwise hull by Andrew's monotone chain (exactly collinear points
/// dropped), starting at the same lowest point as gift wrapping. Used when gift wrapping runs
/// past a polygon's vertex budget: it is O(n log n) where gift wrapping would take O(n h) on a
/// hostile input of many points.
fn monotone_chain(mut points: Vec<Vec2>) -> Vec<Vec2> {
    points.sort_by(lexicographic);
    let mut hull: Vec<Vec2> = Vec::with_capacity(points.len() + 1);
    // Lower chain left to right, then upper chain right to left; pop while not turning left.
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for p in iter {
            while hull.len() >= start + 2 {
                let a = hull[hull.len() - 2];
                let b = hull[hull.len() - 1];
                if cross(b - a, *p - b) > 0.0 {
                    break;
                }
                hull.pop();
            }
            hull.push(*p);
        }
        // The chain's last point is the next chain's first.
        hull.pop();
    }
    hull
}

/// Removes vertices within the weld tolerance of the line through their neighbours, as long
/// as no vertex removed so far would end up further than the tolerance outside the polygon.
/// Without that guard the removals cascade: each one moves the chord a little further in, and
/// a shape of a few centimetres could lose a corner twice the tolerance deep.
fn remove_near_collinear(hull: &mut Vec<Vec2>) {
    let mut removed: Vec<Vec2> = Vec::new();
    let mut i = 0;
    while hull.len() >= 3 && i < hull.len() {
        let n = hull.len();
        let prev = hull[(i + n - 1) % n];
        let next = hull[(i + 1) % n];
        // How far a point lies outside the chord prev -> next (right of it, on a
        // counter-clockwise hull); 0 for a degenerate chord.
        let outside = |point: Vec2| {
            let edge = next - prev;
            let len = edge.length();
            if len > 0.0 {
                cross(point - prev, edge) / len
            } else {
                0.0
            }
        };
        let stays_close = removed
            .iter()
            .chain(std::iter::once(&hull[i]))
            .all(|&point| outside(point) < WELD_TOLERANCE);
        if stays_close {
            removed.push(hull.remove(i));
            i = 0;
        } else {
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Panics unless every point lies inside `hull`, or outside an edge by less than twice
    /// the weld tolerance (welding moves a point by up to the tolerance, and near-collinear
    /// removal by up to the tolerance again).
    fn assert_points_inside(hull: &[Vec2], points: &[Vec2]) {
        let n = hull.len();
        for i in 0..n {
            let (a, b) = (hull[i], hull[(i + 1) % n]);
            for &p in points {
                let outside = cross(p - a, b - a) / (b - a).length();
                assert!(
                    outside < 2.0 * WELD_TOLERANCE,
                    "{p:?} is {outside} outside edge {i} of {hull:?}"
                );
            }
        }
    }

    #[test]
    fn hull_of_a_square_with_interior_and_duplicate_points() {
        let points = [
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(0.5, 0.5),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0 + 1e-4),
            Vec2::new(0.5, 0.0),
        ];
        let hull = convex_hull(&points).unwrap();
        assert_eq!(hull.len(), 4);
        for i in 0..4 {
            let a = hull[i];
            let b = hull[(i + 1) % 4];
            let c = hull[(i + 2) % 4];
            assert!(
                cross(b - a, c - b) > 0.0,
                "hull must turn left at every vertex"
            );
        }
    }

    #[test]
    fn nearly_collinear_vertex_is_removed() {
        let points = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.001),
            Vec2::new(2.0, 0.0),
            Vec2::new(1.0, 1.0),
        ];
        assert_eq!(convex_hull(&points).unwrap().len(), 3);
    }

    /// Found by the `polygon_from_points` fuzz target: removing near-collinear vertices one
    /// after another left an input point 5.5 mm outside a 2 cm polygon. Welding may move a
    /// point by up to the tolerance and removal by up to the tolerance again, so no input point
    /// may end up further out than twice the tolerance.
    #[test]
    fn regression_cascading_collinear_removal_drops_a_corner() {
        let points = [
            Vec2::new(0.01, 0.0037370287),
            Vec2::new(-0.0072140153, 0.0037248193),
            Vec2::new(0.006183616, -0.003688194),
            Vec2::new(0.0, 0.009921866),
            Vec2::new(-0.008752288, -0.002862898),
            Vec2::new(-0.009294348, 0.0037248193),
            Vec2::new(-0.009990233, -0.01),
            Vec2::new(0.0, 0.003734586),
            Vec2::new(0.01, 0.0),
            Vec2::new(0.0, 0.0),
        ];
        let hull = convex_hull(&points).unwrap();
        assert_points_inside(&hull, &points);
    }

    /// Found by the `polygon_from_points` fuzz target: sorting with `total_cmp` put (-0, 0)
    /// before (0, -1e4), and the hull of a tall triangle lost its bottom corner.
    #[test]
    fn regression_negative_zero_broke_the_sweep_order() {
        let points = [
            Vec2::new(0.0, -1.0e4),
            Vec2::new(-0.0, 0.0),
            Vec2::new(0.0, 1.0e4),
            Vec2::new(1.0e4, 1.0e4),
        ];
        let hull = convex_hull(&points).unwrap();
        assert_eq!(hull.len(), 3, "{hull:?}");
        assert!(hull.contains(&Vec2::new(0.0, -1.0e4)), "{hull:?}");
    }

    /// Found by the `polygon_from_points` fuzz target: a point 6e-44 m right of a vertical
    /// edge's line sorted after the edge's top end, and the sorted sweep dropped that end.
    #[test]
    fn regression_nearly_vertical_edge_lost_its_end() {
        let points = [
            Vec2::new(0.0, -0.01),
            Vec2::new(-0.005065316, -0.009926748),
            Vec2::new(6.3e-44, -0.006713768),
            Vec2::new(0.0, 0.0),
        ];
        let hull = convex_hull(&points).unwrap();
        assert!(hull.contains(&Vec2::ZERO), "{hull:?}");
        assert_eq!(hull.len(), 3, "{hull:?}");
    }

    /// Found by the `polygon_from_points` fuzz target in a first gift-wrapping version that
    /// counted turns within a relative tolerance as collinear: seen from 6 km away, two points
    /// 6 mm apart near the origin were "on one line", and the wrap went round a non-convex
    /// chain. Every hull vertex must have every point on its inner side.
    #[test]
    fn regression_tolerant_turns_wrapped_a_non_convex_chain() {
        let points = [
            Vec2::new(6342.326, 560.37067),
            Vec2::new(-6474.179, -5372.97),
            Vec2::new(-7873.2754, -5372.97),
            Vec2::new(0.002856924, 0.005866436),
            Vec2::new(-5372.97, -5372.97),
            Vec2::new(-391.89337, -1861.7993),
            Vec2::new(0.0, 0.0),
        ];
        let hull = convex_hull(&points).unwrap();
        assert_points_inside(&hull, &points);
    }

    /// Found by the `polygon_from_points` fuzz target: with a point at (-0.01, 6.7e-44), the
    /// turn products underflowed to subnormals and the hull lost two points on the x axis.
    #[test]
    fn regression_subnormal_coordinates_hid_points_on_an_axis() {
        let points = [
            Vec2::new(0.0071871565, 0.0),
            Vec2::new(-1.246363e-10, 0.01),
            Vec2::new(-0.01, 6.7e-44),
            Vec2::new(-0.0072140153, 0.0),
            Vec2::new(0.0099243065, 0.0),
            Vec2::new(0.0062348912, 0.00984373),
            Vec2::new(-0.002889757, 0.01),
            Vec2::new(0.0, 0.0),
        ];
        let hull = convex_hull(&points).unwrap();
        assert_points_inside(&hull, &points);
    }

    /// Found by the `polygon_from_points` fuzz target: twelve points whose hull had more than
    /// eight vertices went through the near-collinear pass twice, the second pass not knowing
    /// what the first had removed, and a point ended 5.8 mm outside a 2 cm triangle.
    #[test]
    fn regression_two_collinear_passes_cascaded() {
        let points = [
            Vec2::new(-0.003673544, 0.006718349),
            Vec2::new(-0.009934073, 0.003749237),
            Vec2::new(-0.002814064, -0.0092699295),
            Vec2::new(0.0036759852, -0.009990233),
            Vec2::new(1.9047653e-17, -0.009748504),
            Vec2::new(0.0, -0.005155659),
            Vec2::new(-0.0051385663, -0.009287022),
            Vec2::new(0.0037150525, 0.009990233),
            Vec2::new(0.008647295, 0.008666828),
            Vec2::new(0.008666828, 6.5813e-39),
            Vec2::new(8.3706784e-21, -0.0076486384),
            Vec2::new(0.01, 0.005077524),
        ];
        let Ok(hull) = convex_hull(&points) else {
            return; // refusing is fine; a wrong polygon is not
        };
        assert_points_inside(&hull, &points);
    }

    /// Fuzz find (`fuzz/corpus/polygon_from_points/a782323...`): round-off made the wrap
    /// take a point lying on the long edge from (9951, 9966) to (824, 839) as a vertex; from
    /// there the previous vertex and the edge's far end point in opposite directions, and the
    /// far end, compared against the previous vertex, lost: the hull skipped a corner 154
    /// units outside it.
    #[test]
    fn regression_wrap_turned_back_along_a_straight_edge() {
        let points = [
            Vec2::new(9951.166, 9965.815),
            Vec2::new(824.07477, 838.7256),
            Vec2::new(4574.5327, 4589.183),
            Vec2::new(4589.183, 4589.183),
            Vec2::new(4608.717, 4589.183),
            Vec2::new(4589.183, 4589.183),
            Vec2::new(4589.183, 4589.183),
            Vec2::new(-9191.796, -10000.0),
        ];
        let hull = convex_hull(&points).unwrap();
        assert!(hull.contains(&Vec2::new(824.07477, 838.7256)), "{hull:?}");
        assert_points_inside(&hull, &points);
    }
}
