//! Collision shapes in a body's local frame, with their mass, bounds, containment and ray casts.

mod aabb;
mod capsule;
mod chain;
mod circle;
mod error;
mod extent;
mod hull;
mod mass;
mod polygon;
mod raycast;
mod segment;

pub use aabb::Aabb;
pub use capsule::Capsule;
pub use chain::{ChainSegment, chain_segments};
pub use circle::Circle;
pub use error::ShapeError;
pub use hull::{MIN_POLYGON_SIZE, convex_hull};
pub use mass::{MassData, circle_mass, polygon_mass};
pub use polygon::{Polygon, PolygonDescription};
pub use raycast::{RayCastInput, RayHit, ray_cast_circle, ray_cast_polygon, ray_cast_segment};
pub use segment::Segment;

pub(crate) use segment::{closest_point_on_segment, closest_segment_parameters};

use crate::math::Transform;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// Any collision shape.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// A disk.
    Circle(Circle),
    /// A segment swept by a disk.
    Capsule(Capsule),
    /// A line segment without thickness.
    Segment(Segment),
    /// A convex polygon, optionally rounded.
    Polygon(Polygon),
    /// One one-sided segment of a chain (terrain without ghost collisions).
    ChainSegment(ChainSegment),
}

/// The kind of a shape, for dispatch tables and debug output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ShapeKind {
    /// [`Shape::Circle`]
    Circle,
    /// [`Shape::Capsule`]
    Capsule,
    /// [`Shape::Segment`]
    Segment,
    /// [`Shape::Polygon`]
    Polygon,
    /// [`Shape::ChainSegment`]
    ChainSegment,
}

impl Shape {
    /// The shape's kind.
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Circle(_) => ShapeKind::Circle,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::Segment(_) => ShapeKind::Segment,
            Shape::Polygon(_) => ShapeKind::Polygon,
            Shape::ChainSegment(_) => ShapeKind::ChainSegment,
        }
    }

    /// The farthest point of the shape (rounding included) from its body's origin.
    pub fn reach(&self) -> f32 {
        self.reach_from(Vec2::ZERO)
    }

    /// Checks every field; the world calls this before accepting a shape.
    pub fn validate(&self) -> Result<(), ShapeError> {
        match self {
            Shape::Circle(c) => c.validate(),
            Shape::Capsule(c) => c.validate(),
            Shape::Segment(s) => s.validate(),
            // The constructors (and deserialisation) validate the geometry.
            Shape::Polygon(_) => Ok(()),
            Shape::ChainSegment(s) => s.validate(),
        }?;
        let extent = self.reach();
        let max = crate::constants::MAX_SHAPE_EXTENT;
        if extent.is_nan() || extent > max {
            return Err(ShapeError::TooLarge { extent, max });
        }
        Ok(())
    }

    /// True when the world point lies inside or on the shape of a body at `xf`.
    pub fn contains_point(&self, xf: Transform, point: Vec2) -> bool {
        let local = xf.apply_inverse(point);
        match self {
            Shape::Circle(c) => c.contains_point(local),
            Shape::Capsule(c) => c.contains_point(local),
            Shape::Segment(s) => s.contains_point(local),
            Shape::Polygon(p) => p.contains_point(local),
            // No interior, like a segment.
            Shape::ChainSegment(_) => false,
        }
    }

    /// The radius the shape's core is rounded by: a circle's or capsule's radius, a rounded
    /// polygon's rounding, zero for sharp shapes and segments (what rolling resistance
    /// scales with).
    pub fn rounding_radius(&self) -> f32 {
        match self {
            Shape::Circle(c) => c.radius,
            Shape::Capsule(c) => c.radius,
            Shape::Polygon(p) => p.radius(),
            Shape::Segment(_) | Shape::ChainSegment(_) => 0.0,
        }
    }

    /// The centre of the shape's area in body-local coordinates (used to orient normals and
    /// as a reference point for queries).
    pub fn centroid(&self) -> Vec2 {
        match self {
            Shape::Circle(c) => c.center,
            Shape::Capsule(c) => 0.5 * (c.center1 + c.center2),
            Shape::Segment(s) => 0.5 * (s.point1 + s.point2),
            Shape::Polygon(p) => p.centroid(),
            Shape::ChainSegment(s) => 0.5 * (s.point1 + s.point2),
        }
    }
}

impl From<Circle> for Shape {
    fn from(value: Circle) -> Self {
        Shape::Circle(value)
    }
}

impl From<Capsule> for Shape {
    fn from(value: Capsule) -> Self {
        Shape::Capsule(value)
    }
}

impl From<Segment> for Shape {
    fn from(value: Segment) -> Self {
        Shape::Segment(value)
    }
}

impl From<ChainSegment> for Shape {
    fn from(value: ChainSegment) -> Self {
        Shape::ChainSegment(value)
    }
}

impl From<Polygon> for Shape {
    fn from(value: Polygon) -> Self {
        Shape::Polygon(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constants::MAX_POLYGON_VERTICES;

    #[test]
    fn contains_point_for_every_shape() {
        let xf = Transform::from_angle(Vec2::new(2.0, 0.0), 0.5);
        let circle = Shape::Circle(Circle::new(Vec2::ZERO, 1.0).unwrap());
        assert!(circle.contains_point(xf, Vec2::new(2.9, 0.0)));
        assert!(!circle.contains_point(xf, Vec2::new(3.1, 0.0)));
        let capsule = Shape::Capsule(Capsule::new(Vec2::new(-1.0, 0.0), Vec2::X, 0.25).unwrap());
        assert!(capsule.contains_point(Transform::IDENTITY, Vec2::new(1.2, 0.0)));
        assert!(!capsule.contains_point(Transform::IDENTITY, Vec2::new(0.0, 0.3)));
        let segment = Shape::Segment(Segment::new(Vec2::ZERO, Vec2::X).unwrap());
        assert!(!segment.contains_point(Transform::IDENTITY, Vec2::new(0.5, 0.0)));
        let rounded = Shape::Polygon(Polygon::new_rounded_box(1.0, 1.0, 0.2).unwrap());
        assert!(rounded.contains_point(Transform::IDENTITY, Vec2::new(1.1, 1.1)));
        assert!(!rounded.contains_point(Transform::IDENTITY, Vec2::new(1.19, 1.19)));
        assert!(rounded.contains_point(Transform::IDENTITY, Vec2::new(0.0, 1.19)));
    }

    // Every ShapeError path, once.

    #[test]
    fn error_non_finite_points() {
        let e = Polygon::from_points(&[Vec2::ZERO, Vec2::X, Vec2::new(f32::NAN, 1.0)], 0.0);
        assert_eq!(
            e,
            Err(ShapeError::NonFinite {
                what: "polygon point"
            })
        );
        assert!(matches!(
            Circle::new(Vec2::new(f32::INFINITY, 0.0), 1.0),
            Err(ShapeError::NonFinite { .. })
        ));
        assert!(matches!(
            Polygon::new_box(f32::NAN, 1.0),
            Err(ShapeError::NonFinite { .. })
        ));
        assert!(matches!(
            Polygon::regular(5, f32::INFINITY),
            Err(ShapeError::NonFinite { .. })
        ));
        assert!(matches!(
            Polygon::new_box(1.0, 1.0).unwrap().with_radius(f32::NAN),
            Err(ShapeError::NonFinite { .. })
        ));
        assert!(matches!(
            Segment::new(Vec2::ZERO, Vec2::NAN),
            Err(ShapeError::NonFinite { .. })
        ));
    }

    #[test]
    fn error_invalid_radius() {
        assert_eq!(
            Circle::new(Vec2::ZERO, -1.0),
            Err(ShapeError::InvalidRadius { radius: -1.0 })
        );
        assert_eq!(
            Circle::new(Vec2::ZERO, 0.0),
            Err(ShapeError::InvalidRadius { radius: 0.0 })
        );
        assert!(matches!(
            Capsule::new(Vec2::ZERO, Vec2::X, -0.1),
            Err(ShapeError::InvalidRadius { .. })
        ));
        assert!(matches!(
            Polygon::new_rounded_box(1.0, 1.0, -0.5),
            Err(ShapeError::InvalidRadius { .. })
        ));
        assert!(matches!(
            Polygon::regular(4, 0.0),
            Err(ShapeError::InvalidRadius { .. })
        ));
    }

    #[test]
    fn error_invalid_box_extent() {
        assert_eq!(
            Polygon::new_box(0.0, 1.0),
            Err(ShapeError::InvalidExtent {
                half_width: 0.0,
                half_height: 1.0
            })
        );
    }

    #[test]
    fn error_too_few_distinct_points() {
        // Two distinct points; the third is a near-duplicate merged by welding.
        let e = Polygon::from_points(
            &[Vec2::ZERO, Vec2::new(1.0, 0.0), Vec2::new(1.0, 1e-4)],
            0.0,
        );
        assert_eq!(e, Err(ShapeError::TooFewPoints { distinct: 2 }));
        assert_eq!(
            Polygon::from_points(&[], 0.0),
            Err(ShapeError::TooFewPoints { distinct: 0 })
        );
    }

    #[test]
    fn error_collinear() {
        let points = [
            Vec2::ZERO,
            Vec2::new(1.0, 1.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(3.0, 3.0),
        ];
        assert_eq!(
            Polygon::from_points(&points, 0.0),
            Err(ShapeError::Collinear)
        );
    }

    #[test]
    fn error_too_many_hull_points() {
        let points: Vec<Vec2> = (0..12)
            .map(|i| crate::math::Rot::from_angle(i as f32 * std::f32::consts::TAU / 12.0).x_axis())
            .collect();
        assert_eq!(
            Polygon::from_points(&points, 0.0),
            Err(ShapeError::TooManyHullPoints {
                count: 12,
                max: MAX_POLYGON_VERTICES
            })
        );
        // Interior points don't count: 8 on the hull plus many inside is fine.
        let mut ok: Vec<Vec2> = (0..8)
            .map(|i| crate::math::Rot::from_angle(i as f32 * std::f32::consts::TAU / 8.0).x_axis())
            .collect();
        ok.extend((0..20).map(|i| Vec2::splat(0.01 * i as f32)));
        assert_eq!(Polygon::from_points(&ok, 0.0).unwrap().count(), 8);
    }

    #[test]
    fn error_too_small() {
        let tiny = [Vec2::ZERO, Vec2::new(1e-4, 0.0), Vec2::new(0.0, 1e-4)];
        assert!(matches!(
            Polygon::from_points(&tiny, 0.0),
            Err(ShapeError::TooSmall { .. })
        ));
        assert!(matches!(
            Capsule::new(Vec2::ZERO, Vec2::new(0.001, 0.0), 0.5),
            Err(ShapeError::TooSmall { .. })
        ));
        assert!(matches!(
            Segment::new(Vec2::ONE, Vec2::ONE),
            Err(ShapeError::TooSmall { .. })
        ));
    }

    #[test]
    fn error_invalid_side_count() {
        assert_eq!(
            Polygon::regular(2, 1.0),
            Err(ShapeError::InvalidSideCount { sides: 2 })
        );
        assert_eq!(
            Polygon::regular(9, 1.0),
            Err(ShapeError::InvalidSideCount { sides: 9 })
        );
    }

    #[test]
    fn error_messages_say_what_is_wrong() {
        let text = ShapeError::TooManyHullPoints { count: 12, max: 8 }.to_string();
        assert!(text.contains("12") && text.contains('8'), "{text}");
        let text = ShapeError::TooFewPoints { distinct: 2 }.to_string();
        assert!(text.contains("at least 3") && text.contains('2'), "{text}");
    }

    #[test]
    fn polygon_serde_round_trip_revalidates() {
        let p = Polygon::regular(6, 1.5).unwrap().with_radius(0.1).unwrap();
        let desc = PolygonDescription::from(p);
        let back = Polygon::try_from(desc).unwrap();
        assert_eq!(back.count(), 6);
        assert_eq!(back.radius(), 0.1);
        let bad = PolygonDescription {
            vertices: vec![Vec2::ZERO, Vec2::X],
            radius: 0.0,
        };
        assert!(Polygon::try_from(bad).is_err());
    }
}
