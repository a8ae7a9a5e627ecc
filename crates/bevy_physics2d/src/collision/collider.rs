//! The [`Collider`] component: a shape description that is reflectable and serialisable, and
//! is turned into a validated core shape when the body is built.

use crate::dynamics::body::frame::Frame;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;
use physics_core::constants::MAX_POLYGON_VERTICES;
use physics_core::math::{Rot, Transform as CoreTransform};
use physics_core::shape::{
    Capsule, ChainSegment, Circle, Polygon, Segment, Shape, ShapeError, chain_segments,
};
use serde::{Deserialize, Serialize};

/// A collision shape. Put it on a [`RigidBody`](crate::RigidBody) entity or on any of its
/// descendants (a child's `Transform` places the shape in the body, so several children make
/// a compound body).
///
/// Constructors never fail; the shape is checked when it reaches the physics world, and an
/// invalid one (a degenerate polygon, a negative radius, NaN) is skipped with a warning that
/// names the entity, while everything else steps on. Shapes the engine holds as several
/// (a regular polygon of more than eight sides, [`Collider::compound`]) are one collider
/// made of parts: one entity, one set of events.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// let ground = Collider::rectangle(40.0, 1.0);
/// let wheel = Collider::circle(0.5);
/// let limb = Collider::capsule(0.2, 1.0);
/// let rock = Collider::convex_hull(vec![Vec2::ZERO, Vec2::X, Vec2::new(0.3, 0.8)]);
/// assert_eq!(rock.to_shapes(Default::default()).unwrap().len(), 1);
/// assert!(Collider::circle(-1.0).to_shapes(Default::default()).is_err());
/// // Sixteen sides: two parts of eight vertices or fewer, one collider.
/// assert!(Collider::regular_polygon(1.0, 16).to_shapes(Default::default()).unwrap().len() > 1);
/// ```
#[derive(Component, Clone, Debug, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
// A child collider is placed by the transforms up to its body, so it needs one of its own
// (the identity unless given).
#[require(bevy_transform::components::Transform)]
pub enum Collider {
    /// A disk of `radius` around the local origin.
    Circle {
        /// Radius.
        radius: f32,
    },
    /// An axis-aligned rectangle centred on the origin, with corners rounded by `radius`
    /// (the rounding adds to the size).
    Rectangle {
        /// Half the width and half the height.
        half_size: Vec2,
        /// Corner rounding (0 for sharp corners).
        radius: f32,
    },
    /// A vertical capsule: a segment of `length` along the local y axis swept by a disk.
    Capsule {
        /// Radius of the round ends.
        radius: f32,
        /// Distance between the two end centres.
        length: f32,
    },
    /// A line segment without thickness (terrain, walls).
    Segment {
        /// First end.
        a: Vec2,
        /// Second end.
        b: Vec2,
    },
    /// The convex hull of up to eight points, rounded by `radius`.
    ConvexHull {
        /// Points in the local frame, any order.
        points: Vec<Vec2>,
        /// Corner rounding (0 for sharp corners).
        radius: f32,
    },
    /// An open chain of one-sided segments through `points` (terrain): it collides on the
    /// left as you walk it from the first point to the last, so ground listed from left to
    /// right is walked on from above, and bodies slide over its joints without catching.
    Polyline {
        /// At least two points, in the local frame.
        points: Vec<Vec2>,
    },
    /// A closed chain through `points` (the last joins the first), colliding on the left as
    /// you walk it: listed counter-clockwise it holds bodies inside (a level's outline),
    /// clockwise it keeps them out (an island).
    ChainLoop {
        /// At least three points, in the local frame.
        points: Vec<Vec2>,
    },
    /// One segment of a chain as the core holds it: it collides on the right of `a` to `b`
    /// and knows its neighbours' outer points (what [`Collider::from_core_shape`] gives for
    /// a chain segment; build chains with [`Collider::polyline`] and
    /// [`Collider::chain_loop`]).
    ChainPiece {
        /// The point before `a` on the chain.
        ghost1: Vec2,
        /// First end.
        a: Vec2,
        /// Second end.
        b: Vec2,
        /// The point after `b` on the chain.
        ghost2: Vec2,
    },
    /// Several colliders as one, each placed in this collider's frame.
    Compound {
        /// The parts.
        parts: Vec<CompoundPart>,
    },
}

/// One part of a [`Collider::Compound`]: a collider placed in the compound's frame.
#[derive(Clone, Debug, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Debug, PartialEq, Serialize, Deserialize)]
pub struct CompoundPart {
    /// Where the part's origin sits in the compound's frame.
    pub position: Vec2,
    /// The part's rotation in the compound's frame (radians, counter-clockwise).
    pub angle: f32,
    /// The part itself.
    pub collider: Collider,
}

impl Collider {
    /// A disk.
    pub fn circle(radius: f32) -> Self {
        Collider::Circle { radius }
    }

    /// A rectangle of the given full width and height.
    pub fn rectangle(width: f32, height: f32) -> Self {
        Collider::Rectangle {
            half_size: 0.5 * Vec2::new(width, height),
            radius: 0.0,
        }
    }

    /// A rectangle of the given full width and height (rounding included) whose corners are
    /// rounded by `radius`.
    pub fn round_rectangle(width: f32, height: f32, radius: f32) -> Self {
        Collider::Rectangle {
            half_size: 0.5 * Vec2::new(width, height) - Vec2::splat(radius),
            radius,
        }
    }

    /// A vertical capsule: `length` between the end centres, round ends of `radius`.
    pub fn capsule(radius: f32, length: f32) -> Self {
        Collider::Capsule { radius, length }
    }

    /// A segment from `a` to `b`.
    pub fn segment(a: Vec2, b: Vec2) -> Self {
        Collider::Segment { a, b }
    }

    /// Ground through `points`, walked on from the left side as you go from the first point
    /// to the last (see [`Collider::Polyline`]).
    ///
    /// ```
    /// use bevy_physics2d::prelude::*;
    /// // Rolling hills, listed left to right: walked on from above.
    /// let hills: Vec<Vec2> = (0..=100)
    ///     .map(|i| Vec2::new(i as f32, (i as f32 * 0.3).sin()))
    ///     .collect();
    /// let ground = Collider::polyline(hills);
    /// assert_eq!(ground.to_shapes(Default::default()).unwrap().len(), 100);
    /// ```
    pub fn polyline(points: Vec<Vec2>) -> Self {
        Collider::Polyline { points }
    }

    /// A closed chain through `points` (see [`Collider::ChainLoop`]).
    pub fn chain_loop(points: Vec<Vec2>) -> Self {
        Collider::ChainLoop { points }
    }

    /// The convex hull of `points`, any number of them: up to eight hull corners it is one
    /// convex polygon; past eight, convex pieces fanned from one corner (one collider all
    /// the same, so a 20-sided outline is not an error). Invalid points (NaN, all on one
    /// line) are reported when the collider is built.
    ///
    /// ```
    /// use bevy_physics2d::prelude::*;
    /// let wheel: Vec<Vec2> = (0..20).map(|i| Vec2::from_angle(i as f32 * 0.314159)).collect();
    /// // Twenty corners: three pieces of at most eight.
    /// assert_eq!(Collider::convex_hull(wheel).to_shapes(Default::default()).unwrap().len(), 3);
    /// ```
    pub fn convex_hull(points: Vec<Vec2>) -> Self {
        Collider::ConvexHull {
            points,
            radius: 0.0,
        }
    }

    /// The convex hull of `points` with corners rounded by `radius`.
    pub fn round_convex_hull(points: Vec<Vec2>, radius: f32) -> Self {
        Collider::ConvexHull { points, radius }
    }

    /// A regular polygon with `sides` corners on a circle of `circumradius`, any number of
    /// sides from 3: beyond the eight vertices a core polygon holds, it is a compound of
    /// convex pieces fanned from its first corner (one collider all the same).
    pub fn regular_polygon(circumradius: f32, sides: usize) -> Self {
        let corners: Vec<Vec2> = (0..sides)
            .map(|i| {
                let angle = std::f32::consts::TAU * i as f32 / sides.max(1) as f32;
                circumradius * Vec2::from_angle(angle)
            })
            .collect();
        if sides <= MAX_POLYGON_VERTICES {
            return Collider::convex_hull(corners);
        }
        crate::collision::collider_from::fan_pieces(&corners)
    }

    /// Several colliders as one, each given as (position, angle, collider) in this
    /// collider's frame.
    ///
    /// ```
    /// use bevy_physics2d::prelude::*;
    /// // A hammer: a handle and a head.
    /// let hammer = Collider::compound([
    ///     (Vec2::ZERO, 0.0, Collider::rectangle(0.1, 1.0)),
    ///     (Vec2::new(0.0, 0.5), 0.0, Collider::rectangle(0.4, 0.2)),
    /// ]);
    /// assert_eq!(hammer.to_shapes(Default::default()).unwrap().len(), 2);
    /// ```
    pub fn compound(parts: impl IntoIterator<Item = (Vec2, f32, Collider)>) -> Self {
        Collider::Compound {
            parts: parts
                .into_iter()
                .map(|(position, angle, collider)| CompoundPart {
                    position,
                    angle,
                    collider,
                })
                .collect(),
        }
    }

    /// The collider describing a core shape, and where it sits in its body (the identity for
    /// shapes around the origin; circles, capsules off the origin are placed by it). Put the
    /// collider on a child entity with that placement when it is not the identity.
    pub fn from_core_shape(shape: &Shape) -> (Collider, CoreTransform) {
        match shape {
            Shape::Circle(c) => (
                Collider::circle(c.radius),
                CoreTransform::new(c.center, Rot::IDENTITY),
            ),
            Shape::Capsule(c) => {
                let d = c.center2 - c.center1;
                let length = d.length();
                let axis = d.normalize_or(Vec2::Y);
                // The rotation taking the capsule's local y axis onto `axis`.
                let q = Rot {
                    c: axis.y,
                    s: -axis.x,
                };
                let center = 0.5 * (c.center1 + c.center2);
                (
                    Collider::capsule(c.radius, length),
                    CoreTransform::new(center, q),
                )
            }
            Shape::Segment(s) => (
                Collider::segment(s.point1, s.point2),
                CoreTransform::IDENTITY,
            ),
            Shape::Polygon(p) => (
                Collider::round_convex_hull(p.vertices().to_vec(), p.radius()),
                CoreTransform::IDENTITY,
            ),
            Shape::ChainSegment(s) => (
                Collider::ChainPiece {
                    ghost1: s.ghost1,
                    a: s.point1,
                    b: s.point2,
                    ghost2: s.ghost2,
                },
                CoreTransform::IDENTITY,
            ),
        }
    }

    /// The core shapes, placed by `offset` in the body's frame (the identity for a collider
    /// on the body entity itself): one, or a compound's parts in order. Errors say what is
    /// wrong with the description (with the part's place in the compound).
    pub fn to_shapes(&self, offset: CoreTransform) -> Result<Vec<Shape>, ShapeError> {
        self.to_scaled_shapes(offset, Vec2::ONE)
            .map(|(shapes, _)| shapes)
    }

    /// The core shapes scaled by `scale` along the collider's own axes, then placed by
    /// `offset`: exact for polygons, rectangles, segments and chains under any scale, and
    /// for every shape under a uniform scale. A circle's or capsule's radius (and a
    /// polygon's rounding) under unequal x and y scale takes the larger factor, and the
    /// second value says so. A negative scale mirrors (a mirrored chain keeps its colliding
    /// side where the mirror image puts it).
    pub fn to_scaled_shapes(
        &self,
        offset: CoreTransform,
        scale: Vec2,
    ) -> Result<(Vec<Shape>, bool), ShapeError> {
        if !scale.is_finite() || scale.x == 0.0 || scale.y == 0.0 {
            return Err(ShapeError::NonFinite {
                what: "a collider's scale (zero, NaN or infinite)",
            });
        }
        let frame = Frame {
            p: offset.p,
            q: offset.q,
            scale,
        };
        let mut shapes = Vec::new();
        let mut stretched = false;
        self.push_shapes(frame, &mut shapes, &mut stretched)?;
        Ok((shapes, stretched))
    }

    fn push_shapes(
        &self,
        frame: Frame,
        out: &mut Vec<Shape>,
        stretched: &mut bool,
    ) -> Result<(), ShapeError> {
        let at = |p: Vec2| frame.apply(p);
        let mut radius_of = |r: f32| {
            let (factor, exact) = frame.radius_scale();
            if r > 0.0 && !exact {
                *stretched = true;
            }
            r * factor
        };
        let uniform = frame.scale.x.abs() == frame.scale.y.abs();
        let shape = match self {
            Collider::Circle { radius } => {
                Shape::Circle(Circle::new(at(Vec2::ZERO), radius_of(*radius))?)
            }
            Collider::Rectangle { half_size, radius } if uniform => {
                // A box is symmetric: mirrored or turned by a half turn, it is itself.
                let s = frame.scale.x.abs();
                Shape::Polygon(
                    Polygon::new_offset_box(s * half_size.x, s * half_size.y, frame.p, frame.q)?
                        .with_radius(radius_of(*radius))?,
                )
            }
            Collider::Rectangle { half_size, radius } => {
                let (hx, hy) = (half_size.x, half_size.y);
                let corners = [
                    Vec2::new(-hx, -hy),
                    Vec2::new(hx, -hy),
                    Vec2::new(hx, hy),
                    Vec2::new(-hx, hy),
                ]
                .map(at);
                Shape::Polygon(Polygon::from_points(&corners, radius_of(*radius))?)
            }
            Collider::Capsule { radius, length } => {
                let half = Vec2::new(0.0, 0.5 * length);
                Shape::Capsule(Capsule::new(at(-half), at(half), radius_of(*radius))?)
            }
            Collider::Segment { a, b } => Shape::Segment(Segment::new(at(*a), at(*b))?),
            Collider::ConvexHull { points, radius } => {
                let moved: Vec<Vec2> = points.iter().map(|&p| at(p)).collect();
                let radius = radius_of(*radius);
                // Past the eight corners a core polygon holds: convex pieces, one collider.
                if let Some(pieces) = crate::collision::collider_from::hull_pieces(&moved) {
                    for piece in pieces {
                        out.push(Shape::Polygon(Polygon::from_points(&piece, radius)?));
                    }
                    return Ok(());
                }
                Shape::Polygon(Polygon::from_points(&moved, radius)?)
            }
            Collider::Polyline { points } | Collider::ChainLoop { points } => {
                // The core's chains collide on the right of their direction: walked
                // backwards, the user's left (and forwards once a mirror has swapped sides).
                let mut moved: Vec<Vec2> = points.iter().map(|&p| at(p)).collect();
                if !frame.mirrors() {
                    moved.reverse();
                }
                let closed = matches!(self, Collider::ChainLoop { .. });
                for segment in chain_segments(&moved, closed)? {
                    out.push(Shape::ChainSegment(segment));
                }
                return Ok(());
            }
            Collider::ChainPiece {
                ghost1,
                a,
                b,
                ghost2,
            } => {
                let mut segment = ChainSegment {
                    ghost1: at(*ghost1),
                    point1: at(*a),
                    point2: at(*b),
                    ghost2: at(*ghost2),
                };
                if frame.mirrors() {
                    segment = ChainSegment {
                        ghost1: segment.ghost2,
                        point1: segment.point2,
                        point2: segment.point1,
                        ghost2: segment.ghost1,
                    };
                }
                segment.validate()?;
                Shape::ChainSegment(segment)
            }
            Collider::Compound { parts } => {
                if parts.is_empty() {
                    return Err(ShapeError::EmptyCompound);
                }
                for part in parts {
                    if !(part.position.is_finite() && part.angle.is_finite()) {
                        return Err(ShapeError::NonFinite {
                            what: "a compound part's position or angle",
                        });
                    }
                    let local = Frame {
                        p: part.position,
                        q: Rot::from_angle(part.angle),
                        scale: Vec2::ONE,
                    };
                    part.collider
                        .push_shapes(frame.then(local), out, stretched)?;
                }
                return Ok(());
            }
        };
        out.push(shape);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scaled(collider: Collider, scale: Vec2) -> (Vec<Shape>, bool) {
        collider
            .to_scaled_shapes(CoreTransform::IDENTITY, scale)
            .unwrap()
    }

    #[test]
    fn segments_and_polygons_scale_exactly_under_any_scale() {
        let (shapes, stretched) = scaled(
            Collider::segment(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 1.0)),
            Vec2::new(2.0, 3.0),
        );
        assert!(!stretched);
        let Shape::Segment(s) = shapes[0] else {
            panic!("{shapes:?}")
        };
        assert_eq!(
            (s.point1, s.point2),
            (Vec2::new(-2.0, 0.0), Vec2::new(2.0, 3.0))
        );

        let triangle = vec![Vec2::ZERO, Vec2::X, Vec2::Y];
        let (shapes, stretched) = scaled(Collider::convex_hull(triangle), Vec2::new(4.0, 0.5));
        assert!(!stretched);
        let Shape::Polygon(p) = shapes[0] else {
            panic!("{shapes:?}")
        };
        let mut vertices = p.vertices().to_vec();
        vertices.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        assert_eq!(
            vertices,
            vec![Vec2::ZERO, Vec2::new(0.0, 0.5), Vec2::new(4.0, 0.0)]
        );
    }

    #[test]
    fn round_shapes_scale_exactly_when_uniform_and_take_the_larger_factor_when_not() {
        let (shapes, stretched) = scaled(Collider::capsule(0.5, 2.0), Vec2::splat(-2.0));
        assert!(!stretched);
        let Shape::Capsule(c) = shapes[0] else {
            panic!("{shapes:?}")
        };
        assert_eq!(c.radius, 1.0);
        assert_eq!(c.center1.distance(c.center2), 4.0);

        let (shapes, stretched) = scaled(Collider::capsule(0.5, 2.0), Vec2::new(1.0, 3.0));
        assert!(stretched);
        let Shape::Capsule(c) = shapes[0] else {
            panic!("{shapes:?}")
        };
        // The length follows the y scale exactly, the radius takes the larger factor.
        assert_eq!((c.radius, c.center1.distance(c.center2)), (1.5, 6.0));

        // A square corner has no radius: nothing to stretch.
        let (_, stretched) = scaled(Collider::rectangle(1.0, 1.0), Vec2::new(1.0, 3.0));
        assert!(!stretched);
        assert!(
            Collider::circle(1.0)
                .to_scaled_shapes(CoreTransform::IDENTITY, Vec2::new(0.0, 1.0))
                .is_err()
        );
    }
}
