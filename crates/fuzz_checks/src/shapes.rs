//! Shapes of every kind out of fuzz bytes.

use crate::input::{count, magnitude, point};
use arbitrary::Unstructured;
use physics_core::shape::{Capsule, Circle, Polygon, Segment, Shape};

/// A shape of any kind from the bytes, or `None` when its constructor refuses the input.
pub fn shape(u: &mut Unstructured, scale: f32) -> Option<Shape> {
    let shape = match count(u, 5) {
        0 => Shape::Circle(Circle::new(point(u, scale), magnitude(u, scale)).ok()?),
        1 => Shape::Capsule(
            Capsule::new(point(u, scale), point(u, scale), magnitude(u, scale)).ok()?,
        ),
        2 => Shape::Segment(Segment::new(point(u, scale), point(u, scale)).ok()?),
        3 => Shape::Polygon(Polygon::new_box(magnitude(u, scale), magnitude(u, scale)).ok()?),
        4 => Shape::Polygon(Polygon::regular(3 + count(u, 5), magnitude(u, scale)).ok()?),
        _ => {
            let points: Vec<_> = (0..3 + count(u, 6)).map(|_| point(u, scale)).collect();
            let radius = if count(u, 1) == 0 {
                0.0
            } else {
                magnitude(u, 0.5) * scale
            };
            Shape::Polygon(Polygon::from_points(&points, radius).ok()?)
        }
    };
    Some(shape)
}
