//! [`collide`]: the one dispatch that picks the manifold function for a pair of shapes. Pairs
//! with a circle second-class (circle first, other shape second) and pairs with a chain
//! segment second are computed the other way round and flipped, so each geometric case is
//! written once; capsules and segments meet polygons as two-vertex rounded polygons.

use super::manifold::{CollideSettings, Manifold};
use super::{capsules, chains, circles, polygons};
use crate::math::Transform;
use crate::shape::{Polygon, Shape};
use bevy_math::Vec2;

/// The contact manifold of two shapes on bodies at `xf_a` and `xf_b`. Empty (no points)
/// when they are further apart than the speculative distance.
pub fn collide(
    a: &Shape,
    xf_a: Transform,
    b: &Shape,
    xf_b: Transform,
    settings: &CollideSettings,
) -> Manifold {
    use Shape::*;
    match (a, b) {
        // Chains are terrain: they meet solid shapes, never segments or other chains.
        (ChainSegment(_), Segment(_) | ChainSegment(_)) | (Segment(_), ChainSegment(_)) => {
            Manifold::default()
        }
        (ChainSegment(sa), Circle(cb)) => {
            chains::collide_chain_segment_and_circle(sa, xf_a, cb, xf_b, settings)
        }
        (ChainSegment(sa), Polygon(pb)) => {
            chains::collide_chain_segment_and_polygon(sa, xf_a, pb, xf_b, settings)
        }
        (ChainSegment(sa), Capsule(_)) => {
            chains::collide_chain_segment_and_polygon(sa, xf_a, &as_polygon(b), xf_b, settings)
        }
        (_, ChainSegment(_)) => collide(b, xf_b, a, xf_a, settings).flipped(),
        (Circle(ca), Circle(cb)) => circles::collide_circles(ca, xf_a, cb, xf_b, settings),
        (Capsule(ca), Circle(cb)) => circles::collide_rounded_segment_and_circle(
            (ca.center1, ca.center2, ca.radius),
            xf_a,
            cb,
            xf_b,
            settings,
        ),
        (Segment(sa), Circle(cb)) => circles::collide_rounded_segment_and_circle(
            (sa.point1, sa.point2, 0.0),
            xf_a,
            cb,
            xf_b,
            settings,
        ),
        (Polygon(pa), Circle(cb)) => {
            circles::collide_polygon_and_circle(pa, xf_a, cb, xf_b, settings)
        }
        (Circle(_), _) => collide(b, xf_b, a, xf_a, settings).flipped(),
        (Capsule(_) | Segment(_), Capsule(_) | Segment(_)) => {
            let (a1, a2, ra) = rounded_segment(a);
            let (b1, b2, rb) = rounded_segment(b);
            capsules::collide_rounded_segments((a1, a2, ra), xf_a, (b1, b2, rb), xf_b, settings)
        }
        (Polygon(pa), Polygon(pb)) => polygons::collide_polygons(pa, xf_a, pb, xf_b, settings),
        (Polygon(pa), Capsule(_) | Segment(_)) => {
            polygons::collide_polygons(pa, xf_a, &as_polygon(b), xf_b, settings)
        }
        (Capsule(_) | Segment(_), Polygon(pb)) => {
            polygons::collide_polygons(&as_polygon(a), xf_a, pb, xf_b, settings)
        }
    }
}

/// Core end points and radius of a capsule or segment (a segment is a capsule of radius 0).
fn rounded_segment(shape: &Shape) -> (Vec2, Vec2, f32) {
    match shape {
        Shape::Capsule(c) => (c.center1, c.center2, c.radius),
        Shape::Segment(s) => (s.point1, s.point2, 0.0),
        Shape::Circle(c) => (c.center, c.center, c.radius),
        Shape::Polygon(p) => (p.vertices()[0], p.vertices()[1], p.radius()),
        Shape::ChainSegment(s) => (s.point1, s.point2, 0.0),
    }
}

/// A capsule or segment as a two-vertex rounded polygon, for the polygon routine.
fn as_polygon(shape: &Shape) -> Polygon {
    let (a, b, r) = rounded_segment(shape);
    Polygon::from_segment(a, b, r)
}
