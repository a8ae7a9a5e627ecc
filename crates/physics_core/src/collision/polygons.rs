//! Polygon against polygon (capsules and segments come here as two-vertex rounded polygons).
//!
//! 1. SAT on the cores: the edge of A along which B is furthest out, and the edge of B along
//!    which A is furthest out. Beyond the speculative distance plus both radii: no contact.
//! 2. The face with the larger separation is the reference face; A's wins near ties so the
//!    choice does not flicker between steps.
//! 3. The incident edge is the other polygon's edge most anti-parallel to the reference normal.
//! 4. When the cores are apart and their closest features are two corners, no face is
//!    involved: one point along the corner-to-corner line.
//! 5. Otherwise the incident edge is clipped to the reference face (seed 000), each point
//!    with its own separation.

use super::clip::clip_incident_edge;
use super::manifold::{
    CollideSettings, EDGE_FEATURE, LocalPoint, Manifold, feature_id, world_manifold,
};
use super::sat::find_max_separation;
use crate::math::{Transform, length_and_normalize};
use crate::shape::{Polygon, closest_segment_parameters};
use bevy_math::Vec2;

/// Contact manifold of two convex polygons, sharp or rounded.
pub fn collide_polygons(
    a: &Polygon,
    xf_a: Transform,
    b: &Polygon,
    xf_b: Transform,
    settings: &CollideSettings,
) -> Manifold {
    let b_local = b.transformed(xf_a.inv_mul(xf_b));
    let (edge_a, separation_a) = find_max_separation(a, &b_local);
    let (edge_b, separation_b) = find_max_separation(&b_local, a);
    let radius = a.radius() + b.radius();
    let core_separation = separation_a.max(separation_b);
    if core_separation - radius > settings.speculative_distance {
        return Manifold::default();
    }

    let flip = separation_b > separation_a + 0.1 * settings.linear_slop;
    let (reference, incident, ref_edge) = if flip {
        (&b_local, a, edge_b)
    } else {
        (a, &b_local, edge_a)
    };
    let face = Face::new(reference, incident, ref_edge, flip);

    if core_separation > 0.1 * settings.linear_slop
        && let Some(points) = face.corner_to_corner(settings)
    {
        return world_manifold(xf_a, xf_b, points.0, &[points.1]);
    }

    let (clipped, count) = clip_incident_edge(
        (face.ref1, face.ref2),
        (face.inc1, face.inc2),
        settings.speculative_distance + radius,
    );
    if count == 0 {
        // The incident edge misses the reference face's side planes (possible only when the
        // cores are apart): fall back to the closest features.
        return match face.closest_features(settings) {
            Some((normal, point)) => world_manifold(xf_a, xf_b, normal, &[point]),
            None => Manifold::default(),
        };
    }
    let n = face.normal;
    let mut points = [LocalPoint {
        point: Vec2::ZERO,
        separation: 0.0,
        id: 0,
    }; 2];
    for (dst, c) in points.iter_mut().zip(&clipped[..count]) {
        let on_reference = c.point - c.separation * n;
        let surface_ref = on_reference + face.ref_radius * n;
        let surface_inc = c.point - face.inc_radius * n;
        let inc_vertex = (face.inc_edge + c.incident_index as usize) % incident.count();
        *dst = LocalPoint {
            point: 0.5 * (surface_ref + surface_inc),
            separation: c.separation - radius,
            id: face.id(ref_edge | EDGE_FEATURE, inc_vertex),
        };
    }
    let normal = if flip { -n } else { n };
    world_manifold(xf_a, xf_b, normal, &points[..count])
}

/// The reference face and incident edge of a polygon pair, in A's frame.
struct Face {
    ref1: Vec2,
    ref2: Vec2,
    inc1: Vec2,
    inc2: Vec2,
    /// Outward normal of the reference face.
    normal: Vec2,
    ref_edge: usize,
    ref_count: usize,
    inc_edge: usize,
    inc_count: usize,
    ref_radius: f32,
    inc_radius: f32,
    /// True when the reference face belongs to B.
    flip: bool,
}

impl Face {
    fn new(reference: &Polygon, incident: &Polygon, ref_edge: usize, flip: bool) -> Face {
        let normal = reference.normals()[ref_edge];
        let inc_edge = incident
            .normals()
            .iter()
            .enumerate()
            .min_by(|(_, x), (_, y)| x.dot(normal).total_cmp(&y.dot(normal)))
            .map_or(0, |(i, _)| i);
        let rv = reference.vertices();
        let iv = incident.vertices();
        Face {
            ref1: rv[ref_edge],
            ref2: rv[(ref_edge + 1) % rv.len()],
            inc1: iv[inc_edge],
            inc2: iv[(inc_edge + 1) % iv.len()],
            normal,
            ref_edge,
            ref_count: rv.len(),
            inc_edge,
            inc_count: iv.len(),
            ref_radius: reference.radius(),
            inc_radius: incident.radius(),
            flip,
        }
    }

    /// Feature id with A's feature in the high byte.
    fn id(&self, ref_feature: usize, inc_feature: usize) -> u16 {
        if self.flip {
            feature_id(inc_feature, ref_feature)
        } else {
            feature_id(ref_feature, inc_feature)
        }
    }

    /// Closest points of the reference and incident edges as segment parameters.
    fn closest_parameters(&self) -> (f32, f32) {
        let d1 = self.ref2 - self.ref1;
        let d2 = self.inc2 - self.inc1;
        closest_segment_parameters(self.ref1, d1, self.inc1, d2)
    }

    /// One point between the closest features of the two edges, with the A-to-B normal.
    fn closest_features(&self, settings: &CollideSettings) -> Option<(Vec2, LocalPoint)> {
        let (s, t) = self.closest_parameters();
        let on_ref = self.ref1 + s * (self.ref2 - self.ref1);
        let on_inc = self.inc1 + t * (self.inc2 - self.inc1);
        let (distance, mut normal) = length_and_normalize(on_inc - on_ref);
        if distance == 0.0 {
            normal = self.normal;
        }
        let separation = distance - self.ref_radius - self.inc_radius;
        if separation > settings.speculative_distance {
            return None;
        }
        let surface_ref = on_ref + self.ref_radius * normal;
        let surface_inc = on_inc - self.inc_radius * normal;
        let ref_vertex = (self.ref_edge + usize::from(s >= 1.0)) % self.ref_count;
        let inc_vertex = (self.inc_edge + usize::from(t >= 1.0)) % self.inc_count;
        let point = LocalPoint {
            point: 0.5 * (surface_ref + surface_inc),
            separation,
            id: self.id(ref_vertex, inc_vertex),
        };
        Some((if self.flip { -normal } else { normal }, point))
    }

    /// The corner-to-corner contact when both closest features are vertices; `None` when a
    /// face is involved (the caller clips) or the corners are out of range.
    fn corner_to_corner(&self, settings: &CollideSettings) -> Option<(Vec2, LocalPoint)> {
        let (s, t) = self.closest_parameters();
        let at_end = |x: f32| x <= 0.0 || x >= 1.0;
        if !(at_end(s) && at_end(t)) {
            return None;
        }
        self.closest_features(settings)
    }
}
