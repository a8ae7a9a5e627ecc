//! Chain segments: the pieces of a polyline or a closed loop of terrain, each a one-sided
//! segment that knows the vertices of its neighbours, so a body sliding over the joint between
//! two segments never catches on it (no ghost collisions).
//!
//! A chain collides on the right of each segment's direction from `point1` to `point2` (as in
//! Box2D): walking the chain, the solid side is on the left. A counter-clockwise loop is thus
//! solid inside and collides outside; terrain listed from right to left is walked from above.
//! Each segment is its own shape (and broadphase proxy); [`chain_segments`] makes them from a
//! list of points.

use super::ShapeError;
use super::segment::validate_end_points;
use crate::math::{is_finite_vec, right_perp};
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// One segment of a chain with its neighbours' far vertices (the ghosts). It has no area and
/// no mass, and collides only from its right side.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChainSegment {
    /// The vertex before `point1` on the chain (the previous segment's first vertex).
    pub ghost1: Vec2,
    /// First end point.
    pub point1: Vec2,
    /// Second end point.
    pub point2: Vec2,
    /// The vertex after `point2` on the chain (the next segment's second vertex).
    pub ghost2: Vec2,
}

impl ChainSegment {
    /// Checks the fields: finite points, end points at least the linear slop apart, and
    /// ghosts apart from the end points they join.
    pub fn validate(&self) -> Result<(), ShapeError> {
        validate_end_points(self.point1, self.point2, "chain point")?;
        if !is_finite_vec(self.ghost1) || !is_finite_vec(self.ghost2) {
            return Err(ShapeError::NonFinite {
                what: "chain neighbour point",
            });
        }
        validate_end_points(self.ghost1, self.point1, "chain point")?;
        validate_end_points(self.point2, self.ghost2, "chain point")
    }

    /// The unit normal of the colliding side: the right of the direction point1 -> point2.
    pub fn normal(&self) -> Vec2 {
        right_perp(self.point2 - self.point1).normalize_or_zero()
    }
}

/// The segments of a chain through `points`: a closed loop (the last point joins the first)
/// or an open polyline, whose two ends act as convex corners (a body meets an end as it meets
/// the end of a lone segment, from the colliding side). Consecutive points closer than the
/// linear slop are merged. At least two distinct points (three for a loop).
pub fn chain_segments(points: &[Vec2], closed: bool) -> Result<Vec<ChainSegment>, ShapeError> {
    if points.iter().any(|p| !is_finite_vec(*p)) {
        return Err(ShapeError::NonFinite {
            what: "chain point",
        });
    }
    let slop = crate::constants::LINEAR_SLOP;
    let mut kept: Vec<Vec2> = Vec::with_capacity(points.len());
    for &p in points {
        if kept.last().is_none_or(|last| last.distance(p) >= slop) {
            kept.push(p);
        }
    }
    if closed && kept.len() > 1 && kept[0].distance(kept[kept.len() - 1]) < slop {
        kept.pop();
    }
    let needed = if closed { 3 } else { 2 };
    if kept.len() < needed {
        return Err(ShapeError::TooFewPoints {
            distinct: kept.len(),
        });
    }
    let n = kept.len();
    let segment_count = if closed { n } else { n - 1 };
    let at = |i: isize| kept[i.rem_euclid(n as isize) as usize];
    let segments = (0..segment_count as isize)
        .map(|i| {
            let (point1, point2) = (at(i), at(i + 1));
            let length = point1.distance(point2);
            // An open end turns a quarter turn towards the back, a convex corner.
            let back = -right_perp(point2 - point1) / length;
            let ghost1 = if closed || i > 0 {
                at(i - 1)
            } else {
                point1 + back * length
            };
            let ghost2 = if closed || (i as usize) < segment_count - 1 {
                at(i + 2)
            } else {
                point2 + back * length
            };
            ChainSegment {
                ghost1,
                point1,
                point2,
                ghost2,
            }
        })
        .collect::<Vec<_>>();
    for s in &segments {
        s.validate()?;
    }
    Ok(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_polyline_links_its_segments_and_turns_its_ends_back() {
        let points = [Vec2::new(2.0, 0.0), Vec2::ZERO, Vec2::new(-2.0, 0.0)];
        let segments = chain_segments(&points, false).unwrap();
        assert_eq!(segments.len(), 2);
        // Right to left: the right side is up.
        assert_eq!(segments[0].normal(), Vec2::Y);
        assert_eq!(segments[0].ghost2, points[2]);
        assert_eq!(segments[1].ghost1, points[0]);
        // The open ends' ghosts lie below (behind the colliding side), a quarter turn back.
        assert_eq!(segments[0].ghost1, Vec2::new(2.0, -2.0));
        assert_eq!(segments[1].ghost2, Vec2::new(-2.0, -2.0));
    }

    #[test]
    fn a_loop_closes_and_bad_points_are_refused() {
        let square = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
        let segments = chain_segments(&square, true).unwrap();
        assert_eq!(segments.len(), 4);
        assert_eq!(segments[0].ghost1, Vec2::Y);
        assert_eq!(segments[3].ghost2, Vec2::X);
        assert!(matches!(
            chain_segments(&[Vec2::ZERO, Vec2::ZERO], false),
            Err(ShapeError::TooFewPoints { distinct: 1 })
        ));
        assert!(chain_segments(&[Vec2::ZERO, Vec2::X], true).is_err());
        assert!(chain_segments(&[Vec2::ZERO, Vec2::NAN, Vec2::X], false).is_err());
    }
}
