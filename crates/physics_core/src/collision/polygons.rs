//! Polygon against polygon (capsules and segments come here as two-vertex rounded polygons).
//!
//! The steps and their tie-breaks follow Box2D v3's polygon manifold, so that the two engines
//! produce the same points in the same order with the same ids (the differential mode of
//! bench_compare checks this step by step):
//!
//! 1. Both polygons in A's frame, shifted so A's first vertex is the origin (round-off).
//! 2. SAT on the cores: the edge of A along which B is furthest out, and the edge of B along
//!    which A is furthest out. Beyond the speculative distance plus both radii: no contact.
//! 3. The face with the larger separation is the reference face (A's on a tie); the incident
//!    edge is the other polygon's edge most anti-parallel to the reference normal.
//! 4. The incident edge is clipped to the reference face's side planes (Bittle), each point
//!    with its own separation. Nothing is dropped for being far: a speculative point far
//!    apart costs nothing, and keeping it keeps the manifold's two ids from step to step.
//! 5. When the cores are apart (by more than a tenth of the slop) and the closest features of
//!    the two edges are two corners whose distance is clearly less than what clipping
//!    measured, one point on the corner-to-corner line replaces the clipped ones.
//!
//! Point order and ids do not depend on which face is the reference: point 0 is always the
//! point at the start vertex of A's edge, and an id is (A's vertex, B's vertex), the vertices
//! each point came from. A box rocking between two nearly equal faces therefore keeps its
//! points, their warm-start impulses and their order.

use super::manifold::{CollideSettings, LocalPoint, Manifold, feature_id, world_manifold};
use super::sat::max_separation;
use crate::constants::MAX_POLYGON_VERTICES;
use crate::math::{Transform, left_perp};
use crate::shape::{Polygon, closest_segment_parameters};
use bevy_math::Vec2;

/// A polygon's vertices and normals in the frame the manifold is computed in.
struct Local {
    vertices: [Vec2; MAX_POLYGON_VERTICES],
    normals: [Vec2; MAX_POLYGON_VERTICES],
    count: usize,
    radius: f32,
}

impl Local {
    /// `polygon` carried by `xf`, then shifted by `-origin`.
    fn new(polygon: &Polygon, xf: Transform, origin: Vec2) -> Local {
        let mut local = Local {
            vertices: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            count: polygon.count(),
            radius: polygon.radius(),
        };
        for (i, (v, n)) in polygon.vertices().iter().zip(polygon.normals()).enumerate() {
            local.vertices[i] = xf.apply(*v) - origin;
            local.normals[i] = xf.q.rotate(*n);
        }
        local
    }

    fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.count]
    }

    fn normals(&self) -> &[Vec2] {
        &self.normals[..self.count]
    }

    fn next(&self, i: usize) -> usize {
        if i + 1 < self.count { i + 1 } else { 0 }
    }

    /// The edge whose normal is most anti-parallel to `direction` (the first on a tie).
    fn incident_edge(&self, direction: Vec2) -> usize {
        let mut best = (0, f32::MAX);
        for (i, n) in self.normals().iter().enumerate() {
            let d = direction.dot(*n);
            if d < best.1 {
                best = (i, d);
            }
        }
        best.0
    }
}

/// Contact manifold of two convex polygons, sharp or rounded.
pub fn collide_polygons(
    a: &Polygon,
    xf_a: Transform,
    b: &Polygon,
    xf_b: Transform,
    settings: &CollideSettings,
) -> Manifold {
    let origin = a.vertices()[0];
    let local_a = Local::new(a, Transform::IDENTITY, origin);
    let local_b = Local::new(b, xf_a.inv_mul(xf_b), origin);
    let (mut edge_a, separation_a) =
        max_separation(local_a.normals(), local_a.vertices(), local_b.vertices());
    let (mut edge_b, separation_b) =
        max_separation(local_b.normals(), local_b.vertices(), local_a.vertices());
    let radius = local_a.radius + local_b.radius;
    let speculative = settings.speculative_distance;
    if separation_a > speculative + radius || separation_b > speculative + radius {
        return Manifold::default();
    }
    let flip = separation_b > separation_a;
    if flip {
        edge_a = local_a.incident_edge(local_b.normals[edge_b]);
    } else {
        edge_b = local_b.incident_edge(local_a.normals[edge_a]);
    }

    let slop = settings.linear_slop;
    let mut points = [LocalPoint::default(); 2];
    let (normal, count) = if separation_a > 0.1 * slop || separation_b > 0.1 * slop {
        // The cores are apart: the closest features of the two edges may be two corners.
        let (a1, a2) = (edge_a, local_a.next(edge_a));
        let (b1, b2) = (edge_b, local_b.next(edge_b));
        let (v11, v12) = (local_a.vertices[a1], local_a.vertices[a2]);
        let (v21, v22) = (local_b.vertices[b1], local_b.vertices[b2]);
        let (s, t) = closest_segment_parameters(v11, v12 - v11, v21, v22 - v21);
        let (closest_a, closest_b) = (v11 + s * (v12 - v11), v21 + t * (v22 - v21));
        let distance = closest_a.distance(closest_b);
        if distance - radius > speculative {
            return Manifold::default();
        }
        let (normal, count) = clip(&local_a, &local_b, edge_a, edge_b, flip, &mut points);
        let clipped_min = points[..count]
            .iter()
            .map(|p| p.separation)
            .fold(f32::MAX, f32::min);
        let corner = |x: f32| x == 0.0 || x == 1.0;
        if distance - radius + 0.1 * slop < clipped_min && corner(s) && corner(t) && distance > 0.0
        {
            let (va, ia) = if s == 0.0 { (v11, a1) } else { (v12, a2) };
            let (vb, ib) = if t == 0.0 { (v21, b1) } else { (v22, b2) };
            let n = (vb - va) / distance;
            let (ca, cb) = (va + local_a.radius * n, vb - local_b.radius * n);
            points[0] = LocalPoint {
                point: 0.5 * (ca + cb),
                separation: distance - radius,
                id: feature_id(ia, ib),
            };
            (n, 1)
        } else {
            (normal, count)
        }
    } else {
        clip(&local_a, &local_b, edge_a, edge_b, flip, &mut points)
    };
    for p in &mut points[..count] {
        p.point += origin;
    }
    world_manifold(xf_a, xf_b, normal, &points[..count])
}

/// Clips the incident edge to the reference face into `out` and returns the A-to-B normal and
/// the point count (0 when the edges do not overlap along the face).
///
/// Along the reference face's tangent t (from its first vertex r1 to its second r2, at
/// 0 and `upper1`), the incident edge runs the other way (counter-clockwise winding): its
/// second vertex i2 is at `lower2`, its first i1 at `upper2`. The kept part is
/// [max(0, lower2), min(upper1, upper2)]; each end gets its separation along the reference
/// normal and is placed midway between the two rounded surfaces.
fn clip(
    a: &Local,
    b: &Local,
    edge_a: usize,
    edge_b: usize,
    flip: bool,
    out: &mut [LocalPoint; 2],
) -> (Vec2, usize) {
    let (reference, incident, ref_edge, inc_edge) = if flip {
        (b, a, edge_b, edge_a)
    } else {
        (a, b, edge_a, edge_b)
    };
    let (r1, r2) = (ref_edge, reference.next(ref_edge));
    let (i1, i2) = (inc_edge, incident.next(inc_edge));
    let normal = reference.normals[r1];
    let v11 = reference.vertices[r1];
    let v12 = reference.vertices[r2];
    let v21 = incident.vertices[i1];
    let v22 = incident.vertices[i2];
    let tangent = left_perp(normal);
    let (lower1, upper1) = (0.0, (v12 - v11).dot(tangent));
    let upper2 = (v21 - v11).dot(tangent);
    let lower2 = (v22 - v11).dot(tangent);
    if upper2 < lower1 || upper1 < lower2 {
        return (normal, 0);
    }
    let span = upper2 - lower2;
    let lower = if lower2 < lower1 && span > f32::EPSILON {
        lerp(v22, v21, (lower1 - lower2) / span)
    } else {
        v22
    };
    let upper = if upper2 > upper1 && span > f32::EPSILON {
        lerp(v22, v21, (upper1 - lower2) / span)
    } else {
        v21
    };
    let separation_lower = (lower - v11).dot(normal);
    let separation_upper = (upper - v11).dot(normal);
    let (r_ref, r_inc) = (reference.radius, incident.radius);
    let radius = r_ref + r_inc;
    let lower = lower + 0.5 * (r_ref - r_inc - separation_lower) * normal;
    let upper = upper + 0.5 * (r_ref - r_inc - separation_upper) * normal;
    let lower_point = |id| LocalPoint {
        point: lower,
        separation: separation_lower - radius,
        id,
    };
    let upper_point = |id| LocalPoint {
        point: upper,
        separation: separation_upper - radius,
        id,
    };
    if flip {
        // B's face: A's incident edge runs from i1 (the upper end) to i2.
        out[0] = upper_point(feature_id(i1, r2));
        out[1] = lower_point(feature_id(i2, r1));
        (-normal, 2)
    } else {
        out[0] = lower_point(feature_id(r1, i2));
        out[1] = upper_point(feature_id(r2, i1));
        (normal, 2)
    }
}

/// (1 - t) a + t b, rounded as Box2D rounds it.
fn lerp(a: Vec2, b: Vec2, t: f32) -> Vec2 {
    (1.0 - t) * a + t * b
}
