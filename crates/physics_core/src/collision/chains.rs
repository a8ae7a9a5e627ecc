//! Manifolds of a chain segment (shape A) against a circle, capsule or polygon (shape B).
//!
//! A chain segment is one-sided and shares each end with a neighbour. A contact normal n from
//! the segment to B is only this segment's to report when it lies in the segment's share of
//! the normals around its ends (the Gauss map of the chain):
//! - facing the segment (n . e = 0 for the direction e), always;
//! - towards an end where the chain turns convex (away from the colliding side), up to the
//!   neighbour's face normal: beyond that the neighbour reports it;
//! - towards an end where the chain is flat or turns concave, never: the normal snaps to the
//!   segment's face normal, so a box sliding across a flat joint meets two faces with the
//!   same normal and no corner to catch on.
//!
//! The polygon routine runs separating axes over the segment's face, its convex neighbours'
//! faces (a neighbour that separates more owns the contact) and B's faces whose normals this
//! segment may report, then clips as `polygons.rs` does. Capsules run through it as two-vertex
//! rounded polygons.

use super::clip::clip_incident_edge;
use super::manifold::{CollideSettings, LocalPoint, Manifold, feature_id, world_manifold};
use crate::math::{Transform, cross, right_perp};
use crate::shape::{ChainSegment, Circle, Polygon};
use bevy_math::Vec2;

/// How far (as a sine) a normal may stray past a neighbour's face normal and still count as
/// this segment's, and how sharp a turn must be to count as a convex corner.
const ANGLE_TOLERANCE: f32 = 0.01;

/// A chain segment's frame for sorting normals: its direction, face normal, and at each end
/// the normal the segment may report up to (the neighbour's face normal at a convex corner,
/// the face normal itself at a flat or concave one).
struct GaussMap {
    p1: Vec2,
    p2: Vec2,
    direction: Vec2,
    normal: Vec2,
    /// Reach at the first end, and whether that end is a convex corner.
    normal0: Vec2,
    convex1: bool,
    /// Reach at the second end, and whether that end is a convex corner.
    normal2: Vec2,
    convex2: bool,
}

/// Where a candidate contact normal falls for this segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NormalShare {
    /// This segment reports it.
    Own,
    /// A neighbour reports it (past a convex corner's reach).
    Neighbour,
    /// Towards a flat or concave end: use the segment's face normal instead.
    Snap,
}

impl GaussMap {
    fn new(s: &ChainSegment) -> Self {
        let direction = (s.point2 - s.point1).normalize_or_zero();
        let normal = right_perp(direction);
        let before = (s.point1 - s.ghost1).normalize_or_zero();
        let after = (s.ghost2 - s.point2).normalize_or_zero();
        let convex1 = cross(before, direction) >= ANGLE_TOLERANCE;
        let convex2 = cross(direction, after) >= ANGLE_TOLERANCE;
        GaussMap {
            p1: s.point1,
            p2: s.point2,
            direction,
            normal,
            normal0: if convex1 { right_perp(before) } else { normal },
            convex1,
            normal2: if convex2 { right_perp(after) } else { normal },
            convex2,
        }
    }

    /// Whose normal `n` (pointing from the segment to B) is.
    fn share(&self, n: Vec2) -> NormalShare {
        let (convex, past) = if n.dot(self.direction) <= 0.0 {
            (self.convex1, cross(n, self.normal0))
        } else {
            (self.convex2, cross(self.normal2, n))
        };
        match (convex, past > ANGLE_TOLERANCE) {
            (false, _) => NormalShare::Snap,
            (true, true) => NormalShare::Neighbour,
            (true, false) => NormalShare::Own,
        }
    }

    /// True when `point` lies behind the segment's face and behind the faces of its convex
    /// neighbours: a chain collides from one side only.
    fn is_behind(&self, point: Vec2) -> bool {
        let behind = |normal: Vec2, at: Vec2| normal.dot(point - at) < 0.0;
        behind(self.normal, self.p1)
            && (!self.convex1 || behind(self.normal0, self.p1))
            && (!self.convex2 || behind(self.normal2, self.p2))
    }
}

/// A chain segment against a circle: one point, from the segment's closest point to the
/// centre, unless the centre is behind the chain or in a neighbour's share of the corner.
pub fn collide_chain_segment_and_circle(
    a: &ChainSegment,
    xf_a: Transform,
    b: &Circle,
    xf_b: Transform,
    settings: &CollideSettings,
) -> Manifold {
    let center = xf_a.inv_mul(xf_b).apply(b.center);
    let map = GaussMap::new(a);
    if map.normal.dot(center - map.p1) < 0.0 {
        return Manifold::default();
    }
    let along = map.direction.dot(center - map.p1);
    let length = map.direction.dot(map.p2 - map.p1);
    let closest = if along <= 0.0 {
        // Before the first end: the previous segment's if the centre is within its extent.
        let previous = a.point1 - a.ghost1;
        if previous.dot(center - a.point1) <= 0.0 {
            return Manifold::default();
        }
        map.p1
    } else if along >= length {
        let next = a.ghost2 - a.point2;
        if next.dot(center - a.point2) > 0.0 {
            return Manifold::default();
        }
        map.p2
    } else {
        map.p1 + along * map.direction
    };
    let (distance, normal) = crate::math::length_and_normalize(center - closest);
    let normal = if distance == 0.0 { map.normal } else { normal };
    let separation = distance - b.radius;
    if separation > settings.speculative_distance {
        return Manifold::default();
    }
    let point = LocalPoint {
        point: 0.5 * (closest + center - b.radius * normal),
        separation,
        id: 0,
    };
    world_manifold(xf_a, xf_b, normal, &[point])
}

/// B's core vertices and outward face normals in A's frame, with its rounding radius.
struct Outline {
    vertices: Vec<Vec2>,
    normals: Vec<Vec2>,
    radius: f32,
    centroid: Vec2,
}

impl Outline {
    fn of(polygon: &Polygon, xf: Transform) -> Self {
        Outline {
            vertices: polygon.vertices().iter().map(|&v| xf.apply(v)).collect(),
            normals: polygon.normals().iter().map(|&n| xf.q.rotate(n)).collect(),
            radius: polygon.radius(),
            centroid: xf.apply(polygon.centroid()),
        }
    }

    /// The least distance of B's core along `normal` in front of the line through `at`, and
    /// the vertex that has it.
    fn depth_along(&self, normal: Vec2, at: Vec2) -> (f32, usize) {
        self.vertices
            .iter()
            .enumerate()
            .map(|(i, v)| (normal.dot(*v - at), i))
            .fold(
                (f32::INFINITY, 0),
                |best, x| if x.0 < best.0 { x } else { best },
            )
    }
}

/// A chain segment against a polygon (possibly rounded; capsules come as two-vertex rounded
/// polygons). See the module docs.
pub fn collide_chain_segment_and_polygon(
    a: &ChainSegment,
    xf_a: Transform,
    b: &Polygon,
    xf_b: Transform,
    settings: &CollideSettings,
) -> Manifold {
    let b_in_a = xf_a.inv_mul(xf_b);
    let outline = Outline::of(b, b_in_a);
    let map = GaussMap::new(a);
    if map.is_behind(outline.centroid) {
        return Manifold::default();
    }
    let radius = outline.radius;
    let limit = settings.speculative_distance;

    // The segment's face.
    let (face_separation, deepest) = outline.depth_along(map.normal, map.p1);
    let face_separation = face_separation - radius;
    // A convex neighbour whose face separates B further owns this contact.
    let neighbour_separation = [
        (map.convex1, map.normal0, map.p1),
        (map.convex2, map.normal2, map.p2),
    ]
    .into_iter()
    .filter(|(convex, ..)| *convex)
    .map(|(_, normal, at)| outline.depth_along(normal, at).0 - radius)
    .fold(f32::NEG_INFINITY, f32::max);

    // B's faces whose normals this segment reports.
    let count = outline.vertices.len();
    let mut best_b = (f32::NEG_INFINITY, usize::MAX);
    for i in 0..count {
        let n = outline.normals[i];
        if map.share(-n) != NormalShare::Own {
            continue;
        }
        let v = outline.vertices[i];
        let s = n.dot(map.p1 - v).min(n.dot(map.p2 - v)) - radius;
        if s > best_b.0 {
            best_b = (s, i);
        }
    }

    let best = face_separation.max(neighbour_separation).max(best_b.0);
    if best > limit {
        return Manifold::default();
    }
    if best_b.0 > face_separation && best_b.0 >= neighbour_separation {
        return b_face_contact(&map, &outline, best_b.1, xf_a, xf_b, limit);
    }
    if neighbour_separation > face_separation {
        return Manifold::default();
    }
    segment_face_contact(&map, &outline, deepest, xf_a, xf_b, limit)
}

/// B's face `reference` against the segment: the segment clipped to the face's side planes.
/// The neighbour reports it instead when its face meets B's face more squarely at the end
/// of the segment that reaches deepest.
fn b_face_contact(
    map: &GaussMap,
    outline: &Outline,
    reference: usize,
    xf_a: Transform,
    xf_b: Transform,
    limit: f32,
) -> Manifold {
    let count = outline.vertices.len();
    let (a1, a2) = (
        outline.vertices[reference],
        outline.vertices[(reference + 1) % count],
    );
    let n = outline.normals[reference];
    let (reach, own) = if n.dot(map.p1 - a1) < n.dot(map.p2 - a1) {
        (map.normal0, map.normal)
    } else {
        (map.normal2, map.normal)
    };
    if reach.dot(n) < own.dot(n) {
        return Manifold::default();
    }
    let radius = outline.radius;
    let (clipped, kept) = clip_incident_edge((a1, a2), (map.p1, map.p2), limit + radius);
    let points: Vec<LocalPoint> = clipped[..kept]
        .iter()
        .map(|c| {
            let separation = c.separation - radius;
            LocalPoint {
                point: c.point - 0.5 * (c.separation - radius) * n,
                separation,
                // B's face (marked, so ids differ from the segment-face case) and the
                // segment end the point came from.
                id: feature_id(c.incident_index as usize, 0x80 | reference),
            }
        })
        .collect();
    world_manifold(xf_a, xf_b, -n, &points)
}

/// The segment's face against B: B's edge beside its deepest vertex that faces the segment
/// most squarely, clipped to the segment's side planes.
fn segment_face_contact(
    map: &GaussMap,
    outline: &Outline,
    deepest: usize,
    xf_a: Transform,
    xf_b: Transform,
    limit: f32,
) -> Manifold {
    let count = outline.vertices.len();
    let before = (deepest + count - 1) % count;
    let facing = |i: usize| map.normal.dot(outline.normals[i]);
    let (i1, i2) = if facing(before) < facing(deepest) {
        (before, deepest)
    } else {
        (deepest, (deepest + 1) % count)
    };
    let radius = outline.radius;
    let incident = (outline.vertices[i1], outline.vertices[i2]);
    let (clipped, kept) = clip_incident_edge((map.p1, map.p2), incident, limit + radius);
    let points: Vec<LocalPoint> = clipped[..kept]
        .iter()
        .map(|c| {
            let vertex = if c.incident_index == 0 { i1 } else { i2 };
            LocalPoint {
                point: c.point - 0.5 * (c.separation + radius) * map.normal,
                separation: c.separation - radius,
                id: feature_id(0, vertex),
            }
        })
        .collect();
    world_manifold(xf_a, xf_b, map.normal, &points)
}
