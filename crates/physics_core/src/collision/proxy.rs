//! The view of a convex shape that GJK and EPA work on: up to eight core points and a radius.

use crate::constants::MAX_POLYGON_VERTICES;
use crate::shape::Shape;
use bevy_math::Vec2;

/// A convex shape as the hull of a few points swept by a disk of `radius`.
/// A circle is one point, a capsule or segment two, a polygon its vertices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeProxy {
    points: [Vec2; MAX_POLYGON_VERTICES],
    count: usize,
    /// Radius of the disk that sweeps the core points.
    pub radius: f32,
}

impl ShapeProxy {
    /// A proxy from 1 to 8 points (extra points are ignored) and a radius.
    pub fn from_points(points: &[Vec2], radius: f32) -> Self {
        let count = points.len().clamp(1, MAX_POLYGON_VERTICES);
        let mut proxy = ShapeProxy {
            points: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            count,
            radius,
        };
        let n = points.len().min(count);
        proxy.points[..n].copy_from_slice(&points[..n]);
        proxy
    }

    /// The proxy of a shape in its body's local frame.
    pub fn from_shape(shape: &Shape) -> Self {
        match shape {
            Shape::Circle(c) => Self::from_points(&[c.center], c.radius),
            Shape::Capsule(c) => Self::from_points(&[c.center1, c.center2], c.radius),
            Shape::Segment(s) => Self::from_points(&[s.point1, s.point2], 0.0),
            Shape::ChainSegment(s) => Self::from_points(&[s.point1, s.point2], 0.0),
            Shape::Polygon(p) => Self::from_points(p.vertices(), p.radius()),
        }
    }

    /// The core points.
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.count]
    }

    /// Index of the core point furthest along `direction` (the first on ties).
    pub fn support(&self, direction: Vec2) -> usize {
        let mut best = 0;
        let mut best_value = self.points[0].dot(direction);
        for (i, p) in self.points().iter().enumerate().skip(1) {
            let value = p.dot(direction);
            if value > best_value {
                best = i;
                best_value = value;
            }
        }
        best
    }
}
