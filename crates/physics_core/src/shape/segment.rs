//! A line segment with no thickness: ground outlines, walls, terrain edges.

use super::ShapeError;
use crate::constants::LINEAR_SLOP;
use crate::math::is_finite_vec;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// A two-sided line segment in its body's local frame. It has no area, so it contributes no
/// mass: use it on static or kinematic bodies, or beside a massive shape.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    /// First end point.
    pub point1: Vec2,
    /// Second end point.
    pub point2: Vec2,
}

impl Segment {
    /// A validated segment: finite end points at least the linear slop apart.
    pub fn new(point1: Vec2, point2: Vec2) -> Result<Self, ShapeError> {
        let segment = Segment { point1, point2 };
        segment.validate()?;
        Ok(segment)
    }

    /// Checks the fields.
    pub fn validate(&self) -> Result<(), ShapeError> {
        validate_end_points(self.point1, self.point2, "segment end point")
    }

    /// A segment never contains a point: it has no interior.
    pub fn contains_point(&self, _local_point: Vec2) -> bool {
        false
    }
}

/// Two finite end points further apart than the linear slop.
pub(crate) fn validate_end_points(a: Vec2, b: Vec2, what: &'static str) -> Result<(), ShapeError> {
    if !is_finite_vec(a) || !is_finite_vec(b) {
        return Err(ShapeError::NonFinite { what });
    }
    let length = a.distance(b);
    if length < LINEAR_SLOP {
        return Err(ShapeError::TooSmall {
            size: length,
            min: LINEAR_SLOP,
        });
    }
    Ok(())
}

/// The point of segment `a`-`b` closest to `p`.
pub(crate) fn closest_point_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let e = b - a;
    let len_sq = e.length_squared();
    if len_sq <= f32::EPSILON * f32::EPSILON {
        return a;
    }
    let t = ((p - a).dot(e) / len_sq).clamp(0.0, 1.0);
    a + t * e
}

/// Parameters (s, t) in [0, 1] of the closest points of segments p1 + s d1 and p2 + t d2.
///
/// Minimises |p1 + s d1 - p2 - t d2|^2: the unconstrained optimum of s on A's line, clamped;
/// then B's parameter for that point, and A's again if B's had to be clamped. Parallel lines
/// pick s = 0. A zero-length segment gives (0, 0).
pub(crate) fn closest_segment_parameters(p1: Vec2, d1: Vec2, p2: Vec2, d2: Vec2) -> (f32, f32) {
    let r = p1 - p2;
    let a = d1.dot(d1);
    let e = d2.dot(d2);
    if a <= f32::EPSILON || e <= f32::EPSILON {
        return (0.0, 0.0);
    }
    let b = d1.dot(d2);
    let c = d1.dot(r);
    let f = d2.dot(r);
    let denominator = a * e - b * b;
    let mut s = if denominator > f32::EPSILON * a * e {
        ((b * f - c * e) / denominator).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (s, t)
}
