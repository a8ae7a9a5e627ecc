//! A convex polygon of up to eight vertices, optionally rounded.

use super::ShapeError;
use super::hull::convex_hull;
use crate::constants::MAX_POLYGON_VERTICES;
use crate::math::{Rot, Transform, cross, right_perp};
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// A convex polygon in its body's local frame: counter-clockwise vertices, outward edge
/// normals, and an optional rounding radius (the polygon swept by a disk).
///
/// Fields are private so the invariants hold: build one with [`Polygon::from_points`] (any
/// points, through a convex hull) or the box and regular-polygon helpers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "PolygonDescription", into = "PolygonDescription")]
pub struct Polygon {
    vertices: [Vec2; MAX_POLYGON_VERTICES],
    normals: [Vec2; MAX_POLYGON_VERTICES],
    count: usize,
    radius: f32,
    centroid: Vec2,
}

/// The serialised form of a polygon: its vertices and rounding radius. Deserialising keeps
/// vertices that already form a convex counter-clockwise polygon exactly as they are (so a
/// saved polygon reads back bit for bit); anything else goes through
/// [`Polygon::from_points`] and its validation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PolygonDescription {
    /// Vertices (any order; the hull is recomputed).
    pub vertices: Vec<Vec2>,
    /// Rounding radius.
    pub radius: f32,
}

impl TryFrom<PolygonDescription> for Polygon {
    type Error = ShapeError;
    fn try_from(value: PolygonDescription) -> Result<Self, Self::Error> {
        if validate_rounding(value.radius).is_ok() && is_convex_ccw(&value.vertices) {
            return Ok(Polygon::from_convex_ccw(&value.vertices, value.radius));
        }
        Polygon::from_points(&value.vertices, value.radius)
    }
}

/// Whether `vertices` (3 to 8, finite) are a convex polygon in counter-clockwise order: every
/// corner turns left, and no vertex lies outside another edge by more than round-off (which
/// rules out star shapes whose corners all turn left but that wind twice).
fn is_convex_ccw(vertices: &[Vec2]) -> bool {
    let n = vertices.len();
    if !(3..=MAX_POLYGON_VERTICES).contains(&n) || vertices.iter().any(|v| !v.is_finite()) {
        return false;
    }
    (0..n).all(|i| {
        let (a, b, c) = (vertices[i], vertices[(i + 1) % n], vertices[(i + 2) % n]);
        let edge = b - a;
        let turns_left = edge.perp_dot(c - b) > 0.0;
        turns_left
            && vertices.iter().all(|&v| {
                let offset = v - a;
                edge.perp_dot(offset) >= -1.0e-5 * edge.length() * offset.length()
            })
    })
}

impl From<Polygon> for PolygonDescription {
    fn from(value: Polygon) -> Self {
        PolygonDescription {
            vertices: value.vertices().to_vec(),
            radius: value.radius,
        }
    }
}

impl Polygon {
    /// The convex hull of `points`, rounded by `radius` (0 for sharp corners).
    ///
    /// Errors: non-finite input, fewer than 3 distinct points, collinear points, more than 8
    /// hull vertices, input smaller than the engine resolves, negative radius.
    pub fn from_points(points: &[Vec2], radius: f32) -> Result<Self, ShapeError> {
        validate_rounding(radius)?;
        let hull = convex_hull(points)?;
        Ok(Self::from_convex_ccw(&hull, radius))
    }

    /// An axis-aligned box centred on the body origin with the given half extents.
    pub fn new_box(half_width: f32, half_height: f32) -> Result<Self, ShapeError> {
        Self::new_offset_box(half_width, half_height, Vec2::ZERO, Rot::IDENTITY)
    }

    /// A box with the given half extents, centred at `center` and rotated by `rotation`
    /// within the body.
    pub fn new_offset_box(
        half_width: f32,
        half_height: f32,
        center: Vec2,
        rotation: Rot,
    ) -> Result<Self, ShapeError> {
        if !half_width.is_finite() || !half_height.is_finite() {
            return Err(ShapeError::NonFinite {
                what: "box half extent",
            });
        }
        if half_width <= 0.0 || half_height <= 0.0 {
            return Err(ShapeError::InvalidExtent {
                half_width,
                half_height,
            });
        }
        let xf = Transform::new(center, rotation);
        if !xf.is_valid() {
            return Err(ShapeError::NonFinite {
                what: "box centre or rotation",
            });
        }
        let corners = [
            Vec2::new(-half_width, -half_height),
            Vec2::new(half_width, -half_height),
            Vec2::new(half_width, half_height),
            Vec2::new(-half_width, half_height),
        ]
        .map(|v| xf.apply(v));
        Self::from_points(&corners, 0.0)
    }

    /// A box with rounded corners: the sharp box of the given half extents swept by `radius`.
    pub fn new_rounded_box(
        half_width: f32,
        half_height: f32,
        radius: f32,
    ) -> Result<Self, ShapeError> {
        Self::new_box(half_width, half_height)?.with_radius(radius)
    }

    /// A regular polygon with `sides` (3 to 8) vertices on a circle of `circumradius`, the
    /// first vertex on the +x axis.
    pub fn regular(sides: usize, circumradius: f32) -> Result<Self, ShapeError> {
        if !(3..=MAX_POLYGON_VERTICES).contains(&sides) {
            return Err(ShapeError::InvalidSideCount { sides });
        }
        if !circumradius.is_finite() {
            return Err(ShapeError::NonFinite {
                what: "circumradius",
            });
        }
        if circumradius <= 0.0 {
            return Err(ShapeError::InvalidRadius {
                radius: circumradius,
            });
        }
        let step = std::f32::consts::TAU / sides as f32;
        let points: Vec<Vec2> = (0..sides)
            .map(|i| Rot::from_angle(step * i as f32).x_axis() * circumradius)
            .collect();
        Self::from_points(&points, 0.0)
    }

    /// The same polygon with a different rounding radius (0 or more).
    pub fn with_radius(mut self, radius: f32) -> Result<Self, ShapeError> {
        validate_rounding(radius)?;
        self.radius = radius;
        Ok(self)
    }

    /// Builds from vertices already known to be convex and counter-clockwise (2 to 8 of them;
    /// two vertices make the core of a capsule or segment).
    pub(crate) fn from_convex_ccw(vertices: &[Vec2], radius: f32) -> Self {
        let count = vertices.len().min(MAX_POLYGON_VERTICES);
        let mut polygon = Polygon {
            vertices: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            count,
            radius,
            centroid: Vec2::ZERO,
        };
        polygon.vertices[..count].copy_from_slice(&vertices[..count]);
        for i in 0..count {
            let edge = vertices[(i + 1) % count] - vertices[i];
            polygon.normals[i] = right_perp(edge).normalize_or(Vec2::Y);
        }
        polygon.centroid = area_centroid(&vertices[..count]);
        polygon
    }

    /// The two-vertex rounded core of a capsule (radius > 0) or a segment (radius 0).
    pub(crate) fn from_segment(a: Vec2, b: Vec2, radius: f32) -> Self {
        Self::from_convex_ccw(&[a, b], radius)
    }

    /// Vertices, counter-clockwise.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.count]
    }

    /// Outward unit normal of edge `i` (from vertex `i` to vertex `i + 1`).
    pub fn normals(&self) -> &[Vec2] {
        &self.normals[..self.count]
    }

    /// Number of vertices.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Rounding radius (0 for sharp corners).
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Area centroid of the core polygon (the rounding keeps it for symmetric shapes and
    /// shifts it slightly otherwise; mass properties compute the exact one).
    pub fn centroid(&self) -> Vec2 {
        self.centroid
    }

    /// The polygon with every vertex mapped through `xf`.
    pub(crate) fn transformed(&self, xf: Transform) -> Polygon {
        let mut out = *self;
        for i in 0..self.count {
            out.vertices[i] = xf.apply(self.vertices[i]);
            out.normals[i] = xf.q.rotate(self.normals[i]);
        }
        out.centroid = xf.apply(self.centroid);
        out
    }

    /// Signed distance from the core polygon's boundary to `p`: negative inside (depth of the
    /// shallowest face), positive outside (exact Euclidean distance).
    pub(crate) fn core_signed_distance(&self, p: Vec2) -> f32 {
        let vs = self.vertices();
        let max_face = vs
            .iter()
            .zip(self.normals())
            .map(|(v, n)| n.dot(p - *v))
            .fold(f32::NEG_INFINITY, f32::max);
        if max_face <= 0.0 && self.count >= 3 {
            return max_face;
        }
        let mut best = f32::INFINITY;
        for i in 0..self.count {
            let a = vs[i];
            let b = vs[(i + 1) % self.count];
            let closest = super::segment::closest_point_on_segment(a, b, p);
            best = best.min(closest.distance(p));
        }
        best
    }

    /// True when the local point lies inside or on the (rounded) polygon.
    pub fn contains_point(&self, local_point: Vec2) -> bool {
        self.core_signed_distance(local_point) <= self.radius
    }
}

fn validate_rounding(radius: f32) -> Result<(), ShapeError> {
    if !radius.is_finite() {
        return Err(ShapeError::NonFinite {
            what: "rounding radius",
        });
    }
    if radius < 0.0 {
        return Err(ShapeError::InvalidRadius { radius });
    }
    Ok(())
}

/// Area centroid of a convex counter-clockwise polygon; the midpoint for two vertices.
fn area_centroid(vertices: &[Vec2]) -> Vec2 {
    if vertices.len() < 3 {
        return vertices.iter().copied().sum::<Vec2>() / vertices.len().max(1) as f32;
    }
    // Fan of triangles from the first vertex, relative to it to keep precision far from origin.
    let origin = vertices[0];
    let mut area = 0.0;
    let mut weighted = Vec2::ZERO;
    for i in 1..vertices.len() - 1 {
        let e1 = vertices[i] - origin;
        let e2 = vertices[i + 1] - origin;
        let a = 0.5 * cross(e1, e2);
        area += a;
        weighted += a * (e1 + e2) / 3.0;
    }
    origin + weighted / area
}
