//! Mass, centre of mass and rotational inertia of every shape from its density.
//!
//! A rounded polygon is split exactly into pieces whose mass properties are known in closed
//! form: the core polygon (a fan of triangles), one rectangle per edge (the edge swept outward
//! by the radius) and one circular sector per vertex (the sectors add up to a full disk). A
//! capsule is the rounded polygon of its two cap centres, so it goes the same way.

use super::{Circle, Polygon, Shape};
use crate::math::{Rot, cross};
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// Mass properties of a shape or body.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct MassData {
    /// Mass in kilograms (density times area).
    pub mass: f32,
    /// Centre of mass in body-local coordinates.
    pub center: Vec2,
    /// Rotational inertia about the centre of mass.
    pub rotational_inertia: f32,
}

/// Sums pieces as (mass, first moment, inertia about the local origin) and converts to
/// centroidal form at the end.
#[derive(Default)]
struct MassSum {
    mass: f32,
    moment: Vec2,
    inertia_origin: f32,
}

impl MassSum {
    /// Adds a piece given its mass, centroid and inertia about its own centroid.
    fn add(&mut self, mass: f32, center: Vec2, inertia_center: f32) {
        self.mass += mass;
        self.moment += mass * center;
        self.inertia_origin += inertia_center + mass * center.length_squared();
    }

    /// Adds a convex counter-clockwise polygon (at least 3 vertices) of uniform density.
    fn add_polygon(&mut self, vertices: &[Vec2], density: f32) {
        if vertices.len() < 3 {
            return;
        }
        let r = vertices[0];
        for i in 1..vertices.len() - 1 {
            // Triangle (r, r + e1, r + e2): area A = cross(e1, e2) / 2, centroid r + (e1 + e2)/3,
            // polar moment about the vertex r per unit density A/6 (e1.e1 + e1.e2 + e2.e2).
            let e1 = vertices[i] - r;
            let e2 = vertices[i + 1] - r;
            let area = 0.5 * cross(e1, e2);
            let mass = density * area;
            let offset = (e1 + e2) / 3.0;
            let inertia_vertex = mass / 6.0 * (e1.dot(e1) + e1.dot(e2) + e2.dot(e2));
            let inertia_center = inertia_vertex - mass * offset.length_squared();
            self.add(mass, r + offset, inertia_center);
        }
    }

    /// Adds a circular sector with apex `apex`, radius `radius`, starting at direction `from`
    /// and sweeping `angle` radians counter-clockwise.
    fn add_sector(&mut self, apex: Vec2, radius: f32, from: Vec2, angle: f32, density: f32) {
        if angle <= 0.0 {
            return;
        }
        // Sector of angle t: mass rho t r^2 / 2, inertia about the apex m r^2 / 2, centroid on
        // the bisector at 4 r sin(t/2) / (3 t) from the apex.
        let mass = 0.5 * density * angle * radius * radius;
        let bisector = Rot::from_angle(0.5 * angle).rotate(from);
        let offset = bisector * (4.0 * radius * (0.5 * angle).sin() / (3.0 * angle));
        let inertia_center = 0.5 * mass * radius * radius - mass * offset.length_squared();
        self.add(mass, apex + offset, inertia_center);
    }

    fn finish(self) -> MassData {
        if self.mass <= 0.0 {
            return MassData::default();
        }
        let center = self.moment / self.mass;
        MassData {
            mass: self.mass,
            center,
            rotational_inertia: (self.inertia_origin - self.mass * center.length_squared())
                .max(0.0),
        }
    }
}

/// Mass properties of a disk.
pub fn circle_mass(circle: &Circle, density: f32) -> MassData {
    let r_sq = circle.radius * circle.radius;
    let mass = density * std::f32::consts::PI * r_sq;
    MassData {
        mass,
        center: circle.center,
        rotational_inertia: 0.5 * mass * r_sq,
    }
}

/// Mass properties of a (possibly rounded, possibly two-vertex) convex polygon.
pub fn polygon_mass(polygon: &Polygon, density: f32) -> MassData {
    let mut sum = MassSum::default();
    let vertices = polygon.vertices();
    sum.add_polygon(vertices, density);
    let radius = polygon.radius();
    if radius > 0.0 {
        let normals = polygon.normals();
        let n = vertices.len();
        for i in 0..n {
            let a = vertices[i];
            let b = vertices[(i + 1) % n];
            let offset = normals[i] * radius;
            // Counter-clockwise: out along the normal, along the edge, back in.
            sum.add_polygon(&[a, a + offset, b + offset, b], density);
            // The sector at vertex b turns from this edge's normal to the next edge's normal.
            let next = normals[(i + 1) % n];
            let turn = cross(normals[i], next).atan2(normals[i].dot(next));
            // Two vertices: the normals are opposite and the cap is a half disk.
            let angle = if n == 2 { std::f32::consts::PI } else { turn };
            sum.add_sector(b, radius, normals[i], angle, density);
        }
    }
    sum.finish()
}

impl Shape {
    /// Mass properties of the shape at `density` (kg per square metre). Segments have no area
    /// and so no mass.
    pub fn mass_data(&self, density: f32) -> MassData {
        match self {
            Shape::Circle(c) => circle_mass(c, density),
            Shape::Capsule(c) => polygon_mass(
                &Polygon::from_segment(c.center1, c.center2, c.radius),
                density,
            ),
            Shape::Segment(_) | Shape::ChainSegment(_) => MassData::default(),
            Shape::Polygon(p) => polygon_mass(p, density),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Polygon};
    use approx::assert_relative_eq;
    use std::f32::consts::PI;

    #[test]
    fn disk_matches_closed_form() {
        let m = Shape::Circle(Circle::new(Vec2::new(1.0, 2.0), 0.5).unwrap()).mass_data(2.0);
        assert_relative_eq!(m.mass, 2.0 * PI * 0.25, max_relative = 1e-6);
        assert_relative_eq!(
            m.rotational_inertia,
            0.5 * m.mass * 0.25,
            max_relative = 1e-6
        );
        assert_eq!(m.center, Vec2::new(1.0, 2.0));
    }

    #[test]
    fn rectangle_matches_closed_form() {
        // Solid rectangle w x h: m = rho w h, I = m (w^2 + h^2) / 12.
        let (w, h, rho) = (3.0, 1.0, 1.5);
        let m = Shape::Polygon(Polygon::new_box(w / 2.0, h / 2.0).unwrap()).mass_data(rho);
        assert_relative_eq!(m.mass, rho * w * h, max_relative = 1e-6);
        assert_relative_eq!(
            m.rotational_inertia,
            m.mass * (w * w + h * h) / 12.0,
            max_relative = 1e-5
        );
        assert!(m.center.length() < 1e-6);
    }

    #[test]
    fn offset_box_has_offset_centre_and_same_centroidal_inertia() {
        let centred = Polygon::new_box(0.5, 0.25).unwrap();
        let offset =
            Polygon::new_offset_box(0.5, 0.25, Vec2::new(3.0, -2.0), Rot::from_angle(0.4)).unwrap();
        let a = polygon_mass(&centred, 1.0);
        let b = polygon_mass(&offset, 1.0);
        assert_relative_eq!(b.center.x, 3.0, epsilon = 1e-5);
        assert_relative_eq!(b.center.y, -2.0, epsilon = 1e-5);
        assert_relative_eq!(
            a.rotational_inertia,
            b.rotational_inertia,
            max_relative = 1e-4
        );
    }

    #[test]
    fn triangle_matches_closed_form() {
        // Right triangle with legs a (x) and b (y): area ab/2, centroid (a/3, b/3),
        // centroidal polar moment m (a^2 + b^2) / 18.
        let (a, b) = (2.0f32, 1.0f32);
        let tri =
            Polygon::from_points(&[Vec2::ZERO, Vec2::new(a, 0.0), Vec2::new(0.0, b)], 0.0).unwrap();
        let m = polygon_mass(&tri, 1.0);
        assert_relative_eq!(m.mass, a * b / 2.0, max_relative = 1e-6);
        assert_relative_eq!(m.center.x, a / 3.0, epsilon = 1e-6);
        assert_relative_eq!(m.center.y, b / 3.0, epsilon = 1e-6);
        assert_relative_eq!(
            m.rotational_inertia,
            m.mass * (a * a + b * b) / 18.0,
            max_relative = 1e-5
        );
    }

    #[test]
    fn capsule_matches_closed_form() {
        // Rectangle L x 2r plus a disk split into two half disks at the ends. A half disk's
        // centroid is d = 4r / (3 pi) from its flat side, so about the capsule centre
        // I = m_rect (L^2 + 4 r^2) / 12 + m_disk (r^2 / 2 + L^2 / 4 + L d).
        let (length, r, rho) = (2.0f32, 0.5f32, 3.0f32);
        let capsule = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), r).unwrap();
        let m = Shape::Capsule(capsule).mass_data(rho);
        let m_rect = rho * length * 2.0 * r;
        let m_disk = rho * PI * r * r;
        let d = 4.0 * r / (3.0 * PI);
        let inertia = m_rect * (length * length + 4.0 * r * r) / 12.0
            + m_disk * (0.5 * r * r + 0.25 * length * length + length * d);
        assert_relative_eq!(m.mass, m_rect + m_disk, max_relative = 1e-5);
        assert_relative_eq!(m.rotational_inertia, inertia, max_relative = 1e-4);
        assert!(m.center.length() < 1e-5);
    }

    #[test]
    fn rounded_box_area_adds_strips_and_a_full_disk() {
        // Area of a rounded w x h box: w h + 2 (w + h) r + pi r^2.
        let (hx, hy, r) = (1.0f32, 0.5f32, 0.1f32);
        let m = polygon_mass(&Polygon::new_rounded_box(hx, hy, r).unwrap(), 1.0);
        let (w, h) = (2.0 * hx, 2.0 * hy);
        assert_relative_eq!(
            m.mass,
            w * h + 2.0 * (w + h) * r + PI * r * r,
            max_relative = 1e-5
        );
        // Rounding only adds material far from the centre: more inertia than the sharp box.
        let sharp = polygon_mass(&Polygon::new_box(hx, hy).unwrap(), 1.0);
        assert!(m.rotational_inertia > sharp.rotational_inertia);
    }

    #[test]
    fn segment_has_no_mass() {
        let s = crate::shape::Segment::new(Vec2::ZERO, Vec2::X).unwrap();
        assert_eq!(Shape::Segment(s).mass_data(1.0).mass, 0.0);
    }
}
