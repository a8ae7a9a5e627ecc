//! How far a shape extends around a point: how thin it is (continuous collision sweeps a
//! body that moves more than a fraction of that per step) and how far it reaches (bounds of
//! rotating bodies, the speculative margin).

use super::Shape;
use bevy_math::Vec2;

impl Shape {
    /// Smallest and largest extent of the shape around `local_center` (a body's centre of
    /// mass in its frame): how thin it is and how far it reaches. A segment is as thin as
    /// `linear_slop`.
    pub(crate) fn extents(&self, local_center: Vec2, linear_slop: f32) -> (f32, f32) {
        let thinnest = match self {
            Shape::Circle(c) => c.radius,
            Shape::Capsule(c) => c.radius,
            Shape::Segment(_) | Shape::ChainSegment(_) => linear_slop,
            Shape::Polygon(p) => {
                let centroid = p.centroid();
                let inner = p
                    .vertices()
                    .iter()
                    .zip(p.normals())
                    .map(|(v, n)| n.dot(*v - centroid))
                    .fold(f32::INFINITY, f32::min);
                inner + p.radius()
            }
        };
        (thinnest, self.reach_from(local_center))
    }

    /// How far the shape reaches from `center`: the distance to its farthest point,
    /// rounding included.
    pub(crate) fn reach_from(&self, center: Vec2) -> f32 {
        let farther = |a: Vec2, b: Vec2| a.distance(center).max(b.distance(center));
        match self {
            Shape::Circle(c) => c.center.distance(center) + c.radius,
            Shape::Capsule(c) => farther(c.center1, c.center2) + c.radius,
            Shape::Segment(s) => farther(s.point1, s.point2),
            Shape::ChainSegment(s) => farther(s.point1, s.point2),
            Shape::Polygon(p) => {
                let outer = p
                    .vertices()
                    .iter()
                    .map(|v| v.distance(center))
                    .fold(0.0f32, f32::max);
                outer + p.radius()
            }
        }
    }
}
