//! Axis-aligned bounding boxes, and the box of every shape under a transform.

use super::Shape;
use crate::math::{Transform, is_finite_vec};
use crate::position::WorldTransform;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// An axis-aligned bounding box.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Aabb {
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
}

impl Aabb {
    /// A box from its corners.
    pub fn new(min: Vec2, max: Vec2) -> Self {
        Aabb { min, max }
    }

    /// The smallest box holding every point (an empty slice gives the default box at the origin).
    pub fn from_points(points: &[Vec2]) -> Self {
        let Some(first) = points.first() else {
            return Aabb::default();
        };
        points.iter().fold(Aabb::new(*first, *first), |b, p| {
            Aabb::new(b.min.min(*p), b.max.max(*p))
        })
    }

    /// True when the corners are finite and ordered.
    pub fn is_valid(&self) -> bool {
        is_finite_vec(self.min) && is_finite_vec(self.max) && self.min.cmple(self.max).all()
    }

    /// Centre of the box.
    pub fn center(&self) -> Vec2 {
        0.5 * (self.min + self.max)
    }

    /// Half the box's size along each axis.
    pub fn half_extents(&self) -> Vec2 {
        0.5 * (self.max - self.min)
    }

    /// Perimeter, the cost the broadphase tree minimises.
    pub fn perimeter(&self) -> f32 {
        let d = self.max - self.min;
        2.0 * (d.x + d.y)
    }

    /// The smallest box holding both.
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb::new(self.min.min(other.min), self.max.max(other.max))
    }

    /// The box grown by `margin` on every side.
    pub fn expanded(&self, margin: f32) -> Aabb {
        let m = Vec2::splat(margin);
        Aabb::new(self.min - m, self.max + m)
    }

    /// True when `other` lies entirely inside this box.
    pub fn contains(&self, other: &Aabb) -> bool {
        self.min.cmple(other.min).all() && other.max.cmple(self.max).all()
    }

    /// True when the point lies inside or on the box.
    pub fn contains_point(&self, p: Vec2) -> bool {
        self.min.cmple(p).all() && p.cmple(self.max).all()
    }

    /// True when the boxes overlap or touch.
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }
}

impl Shape {
    /// The shape's broadphase box when its body is at `xf` in the world: [`compute_aabb`]
    /// in the float build; in the `large-world` build the box around the body's origin,
    /// moved out to it in double and rounded outward to float, so it always holds the shape.
    ///
    /// [`compute_aabb`]: Shape::compute_aabb
    #[inline]
    pub fn world_aabb(&self, xf: WorldTransform) -> Aabb {
        #[cfg(feature = "large-world")]
        {
            let local = self.compute_aabb(Transform::new(Vec2::ZERO, xf.q));
            let (min, max) = crate::position::outward_corners(
                crate::position::offset(xf.p, local.min),
                crate::position::offset(xf.p, local.max),
            );
            Aabb::new(min, max)
        }
        #[cfg(not(feature = "large-world"))]
        {
            self.compute_aabb(xf)
        }
    }

    /// The shape's bounding box when its body has transform `xf`.
    pub fn compute_aabb(&self, xf: Transform) -> Aabb {
        match self {
            Shape::Circle(c) => {
                let p = xf.apply(c.center);
                Aabb::new(p, p).expanded(c.radius)
            }
            Shape::Capsule(c) => {
                Aabb::from_points(&[xf.apply(c.center1), xf.apply(c.center2)]).expanded(c.radius)
            }
            Shape::Segment(s) => Aabb::from_points(&[xf.apply(s.point1), xf.apply(s.point2)]),
            Shape::ChainSegment(s) => Aabb::from_points(&[xf.apply(s.point1), xf.apply(s.point2)]),
            Shape::Polygon(p) => {
                let mut b = Aabb::new(xf.apply(p.vertices()[0]), xf.apply(p.vertices()[0]));
                for v in &p.vertices()[1..] {
                    let w = xf.apply(*v);
                    b = Aabb::new(b.min.min(w), b.max.max(w));
                }
                b.expanded(p.radius())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rot;
    use crate::shape::{Capsule, Circle, Polygon};
    use approx::assert_relative_eq;

    #[test]
    fn box_operations() {
        let a = Aabb::new(Vec2::ZERO, Vec2::ONE);
        let b = Aabb::new(Vec2::splat(0.5), Vec2::splat(2.0));
        let c = Aabb::new(Vec2::splat(3.0), Vec2::splat(4.0));
        assert!(a.overlaps(&b) && !a.overlaps(&c));
        assert_eq!(a.union(&c), Aabb::new(Vec2::ZERO, Vec2::splat(4.0)));
        assert!(a.union(&b).contains(&a) && !a.contains(&b));
        assert_eq!(a.perimeter(), 4.0);
        assert_eq!(a.expanded(0.5).min, Vec2::splat(-0.5));
        assert!(!Aabb::new(Vec2::ONE, Vec2::ZERO).is_valid());
    }

    #[test]
    fn rotated_box_bounds_grow_by_root_two() {
        let square = Shape::Polygon(Polygon::new_box(1.0, 1.0).unwrap());
        let xf = Transform::new(
            Vec2::new(5.0, 0.0),
            Rot::from_angle(std::f32::consts::FRAC_PI_4),
        );
        let b = square.compute_aabb(xf);
        assert_relative_eq!(b.max.x, 5.0 + 2f32.sqrt(), epsilon = 1e-5);
        assert_relative_eq!(b.min.y, -(2f32.sqrt()), epsilon = 1e-5);
    }

    #[test]
    fn curved_shapes_bounds_include_radius() {
        let xf = Transform::new(
            Vec2::new(1.0, 1.0),
            Rot::from_angle(std::f32::consts::FRAC_PI_2),
        );
        let capsule = Shape::Capsule(Capsule::new(Vec2::new(-1.0, 0.0), Vec2::X, 0.5).unwrap());
        let b = capsule.compute_aabb(xf);
        // The capsule turned upright: 1 wide (2 r), 3 tall (2 + 2 r).
        assert_relative_eq!(b.max.x - b.min.x, 1.0, epsilon = 1e-5);
        assert_relative_eq!(b.max.y - b.min.y, 3.0, epsilon = 1e-5);
        let circle = Shape::Circle(Circle::new(Vec2::X, 0.25).unwrap());
        let b = circle.compute_aabb(xf);
        assert_relative_eq!(b.center().y, 2.0, epsilon = 1e-5);
    }
}
