//! Colliders from what a Bevy game already has: its 2D primitives (`Collider::from(Circle)`)
//! and terrain heights; and the convex pieces of outlines past eight corners.

use crate::collision::collider::{Collider, CompoundPart};
use bevy_math::Vec2;
use bevy_math::primitives::{
    Capsule2d, Circle, ConvexPolygon, Polyline2d, Rectangle, RegularPolygon, Rhombus, Segment2d,
    Triangle2d,
};
use physics_core::constants::MAX_POLYGON_VERTICES;

impl From<Circle> for Collider {
    fn from(c: Circle) -> Self {
        Collider::circle(c.radius)
    }
}

impl From<Rectangle> for Collider {
    fn from(r: Rectangle) -> Self {
        Collider::rectangle(2.0 * r.half_size.x, 2.0 * r.half_size.y)
    }
}

/// Bevy's capsule stands along y, as ours does.
impl From<Capsule2d> for Collider {
    fn from(c: Capsule2d) -> Self {
        Collider::capsule(c.radius, 2.0 * c.half_length)
    }
}

impl From<Segment2d> for Collider {
    fn from(s: Segment2d) -> Self {
        Collider::segment(s.vertices[0], s.vertices[1])
    }
}

/// The corners where Bevy's mesh of the same polygon puts them (the first at the top).
impl From<RegularPolygon> for Collider {
    fn from(p: RegularPolygon) -> Self {
        Collider::convex_hull(p.vertices(0.0).into_iter().collect())
    }
}

impl From<Triangle2d> for Collider {
    fn from(t: Triangle2d) -> Self {
        Collider::convex_hull(t.vertices.to_vec())
    }
}

impl From<Rhombus> for Collider {
    fn from(r: Rhombus) -> Self {
        let (x, y) = (r.half_diagonals.x, r.half_diagonals.y);
        Collider::convex_hull(vec![
            Vec2::new(x, 0.0),
            Vec2::new(0.0, y),
            Vec2::new(-x, 0.0),
            Vec2::new(0.0, -y),
        ])
    }
}

/// Any number of corners: past eight, convex pieces.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_math::primitives::{Circle, ConvexPolygon, Rectangle};
///
/// let ball: Collider = Circle::new(0.5).into();
/// let crate_: Collider = Rectangle::new(1.0, 1.0).into();
/// let corners = (0..12).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 12.0));
/// let dodecagon = Collider::from(ConvexPolygon::new(corners).unwrap());
/// assert_eq!(dodecagon.to_shapes(Default::default()).unwrap().len(), 2);
/// # let _ = (ball, crate_);
/// ```
impl From<ConvexPolygon> for Collider {
    fn from(p: ConvexPolygon) -> Self {
        Collider::convex_hull(p.vertices().to_vec())
    }
}

/// Ground along the polyline, walked on from the left of its direction.
impl From<Polyline2d> for Collider {
    fn from(p: Polyline2d) -> Self {
        Collider::polyline(p.vertices)
    }
}

impl Collider {
    /// Terrain from evenly spaced heights: `heights[i] * scale.y` at x from `-scale.x / 2`
    /// to `scale.x / 2`, walked on from above (a smooth chain: nothing catches on the joins
    /// between samples).
    ///
    /// ```
    /// use bevy_physics2d::prelude::*;
    /// // 64 m of hills, heights in metres.
    /// let heights: Vec<f32> = (0..65).map(|i| (i as f32 * 0.2).sin()).collect();
    /// let terrain = Collider::heightfield(heights, Vec2::new(64.0, 1.0));
    /// assert_eq!(terrain.to_shapes(Default::default()).unwrap().len(), 64);
    /// ```
    pub fn heightfield(heights: Vec<f32>, scale: Vec2) -> Self {
        let n = heights.len();
        let step = if n > 1 { scale.x / (n - 1) as f32 } else { 0.0 };
        let points = heights
            .iter()
            .enumerate()
            .map(|(i, h)| Vec2::new(-0.5 * scale.x + i as f32 * step, h * scale.y))
            .collect();
        Collider::polyline(points)
    }
}

/// The convex pieces of the hull of `points` when it has more than eight corners; `None`
/// when it has eight or fewer, or when the points are not finite or all on one line (the
/// core's polygon reports those).
pub(crate) fn hull_pieces(points: &[Vec2]) -> Option<Vec<Vec<Vec2>>> {
    if points.len() <= MAX_POLYGON_VERTICES {
        return None;
    }
    let hull = outline_hull(points)?;
    if hull.len() <= MAX_POLYGON_VERTICES {
        return None;
    }
    let Collider::Compound { parts } = fan_pieces(&hull) else {
        return None;
    };
    Some(
        parts
            .into_iter()
            .filter_map(|part| match part.collider {
                Collider::ConvexHull { points, .. } => Some(points),
                _ => None,
            })
            .collect(),
    )
}

/// Convex pieces of a counter-clockwise convex outline: the fan of triangles from the first
/// corner, shared out as evenly as possible among the fewest pieces of at most eight corners
/// (each piece is the first corner and a run of consecutive corners, overlapping the next
/// piece by one corner). Even shares keep every piece at five corners or more, so no piece
/// is a thin triangle whose middle corner the core would weld away on a fine outline.
pub(crate) fn fan_pieces(corners: &[Vec2]) -> Collider {
    let triangles = corners.len().saturating_sub(2);
    let per_piece = MAX_POLYGON_VERTICES - 2;
    let pieces = triangles.div_ceil(per_piece).max(1);
    let mut parts = Vec::with_capacity(pieces);
    let mut start = 1;
    for piece in 0..pieces {
        // Triangles of this piece: the remainder spread over the first pieces.
        let share = triangles / pieces + usize::from(piece < triangles % pieces);
        let end = start + share;
        let mut points = vec![corners[0]];
        points.extend_from_slice(&corners[start..=end]);
        parts.push(CompoundPart {
            position: Vec2::ZERO,
            angle: 0.0,
            collider: Collider::convex_hull(points),
        });
        start = end;
    }
    Collider::Compound { parts }
}

/// Counter-clockwise convex hull of finite points (Andrew's monotone chain, collinear
/// points dropped), or `None` when a point is not finite or fewer than three corners remain.
fn outline_hull(points: &[Vec2]) -> Option<Vec<Vec2>> {
    if points.iter().any(|p| !p.is_finite()) {
        return None;
    }
    let mut sorted = points.to_vec();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    sorted.dedup();
    if sorted.len() < 3 {
        return None;
    }
    let turn = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<Vec2> = Vec::with_capacity(2 * sorted.len());
    for pass in [sorted.clone(), sorted.into_iter().rev().collect()] {
        let floor = hull.len();
        for p in pass {
            while hull.len() >= floor + 2
                && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    (hull.len() >= 3).then_some(hull)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hull_of_a_square_with_inner_and_edge_points_is_its_four_corners() {
        let points = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(0.5, 0.5),
            Vec2::new(0.5, 0.0),
        ];
        let hull = outline_hull(&points).unwrap();
        assert_eq!(hull.len(), 4);
        // Counter-clockwise: positive area.
        let area: f32 = (0..4).map(|i| hull[i].perp_dot(hull[(i + 1) % 4])).sum();
        assert!((area - 2.0).abs() < 1e-6);
    }

    #[test]
    fn a_fine_outline_builds_with_no_sliver_piece() {
        // 63 corners on a 0.5 m circle: a last piece of three corners would have its middle
        // corner within the weld tolerance of its chord (a sagitta of 2.5 mm) and fail.
        for sides in [9, 15, 33, 63, 100] {
            let collider = Collider::regular_polygon(0.5, sides);
            let shapes = collider.to_shapes(Default::default());
            assert!(shapes.is_ok(), "{sides} sides: {shapes:?}");
            let Collider::Compound { parts } = collider else {
                panic!("a compound");
            };
            for part in &parts {
                let Collider::ConvexHull { points, .. } = &part.collider else {
                    panic!("convex pieces");
                };
                assert!(
                    (5..=MAX_POLYGON_VERTICES).contains(&points.len()),
                    "{sides}: {}",
                    points.len()
                );
            }
        }
    }

    #[test]
    fn fan_pieces_cover_the_outline_area() {
        let corners: Vec<Vec2> = (0..20)
            .map(|i| Vec2::from_angle(std::f32::consts::TAU * i as f32 / 20.0))
            .collect();
        let Collider::Compound { parts } = fan_pieces(&corners) else {
            panic!("a compound");
        };
        let polygon_area = |p: &[Vec2]| -> f32 {
            (0..p.len())
                .map(|i| p[i].perp_dot(p[(i + 1) % p.len()]))
                .sum::<f32>()
                / 2.0
        };
        let total: f32 = parts
            .iter()
            .map(|part| match &part.collider {
                Collider::ConvexHull { points, .. } => {
                    assert!(points.len() <= MAX_POLYGON_VERTICES);
                    polygon_area(points)
                }
                _ => panic!("convex pieces"),
            })
            .sum();
        assert!((total - polygon_area(&corners)).abs() < 1e-5);
    }
}
