//! Prints the contact manifold of every pair of shape kinds placed slightly overlapping:
//! normal, points, separations and feature ids. A quick look at what the narrowphase gives.
//!
//! `cargo run --example manifolds`

use physics_core::collision::{CollideSettings, collide};
use physics_core::prelude::*;

fn main() {
    // Each shape with its half height, so B can be placed just overlapping A.
    let shapes: [(&str, Shape, f32); 4] = [
        (
            "circle",
            Shape::Circle(Circle::new(Vec2::ZERO, 0.5).expect("valid circle")),
            0.5,
        ),
        (
            "capsule",
            Shape::Capsule(
                Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.25)
                    .expect("valid capsule"),
            ),
            0.25,
        ),
        (
            "segment",
            Shape::Segment(
                Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)).expect("valid segment"),
            ),
            0.0,
        ),
        (
            "box",
            Shape::Polygon(Polygon::new_box(0.5, 0.5).expect("valid box")),
            0.5,
        ),
    ];
    let settings = CollideSettings::default();
    for (name_a, a, half_a) in &shapes {
        for (name_b, b, half_b) in &shapes {
            // B above A, tilted a little, overlapping by about 5 cm.
            let xf_b = Transform::from_angle(Vec2::new(0.1, half_a + half_b - 0.05), 0.05);
            let m = collide(a, Transform::IDENTITY, b, xf_b, &settings);
            print!(
                "{name_a:>8} vs {name_b:<8} normal ({:+.3}, {:+.3})",
                m.normal.x, m.normal.y
            );
            for p in m.points() {
                print!(
                    "  [({:+.3}, {:+.3}) sep {:+.4} id {:#06x}]",
                    p.point.x, p.point.y, p.separation, p.id
                );
            }
            println!();
        }
    }
}
