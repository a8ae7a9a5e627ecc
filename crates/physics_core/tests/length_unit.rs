//! The length unit: a game in pixels behaves like one in metres.

mod support;

use physics_core::position::to_vec2;
use physics_core::prelude::*;
use support::DT;

#[test]
fn a_game_in_pixels_behaves_like_one_in_metres() {
    // The same drop onto the ground in metres and in pixels (100 per metre): every length,
    // speed and gravity times 100, and the length unit set to 100.
    let run = |unit: f32| {
        let mut w = World::new(WorldDef {
            gravity: Vec2::new(0.0, -10.0 * unit),
            length_units_per_meter: unit,
            ..Default::default()
        })
        .unwrap();
        let g = w
            .create_body(&BodyDef::fixed(Vec2::new(0.0, -unit)))
            .unwrap();
        w.create_shape(
            g,
            &ShapeDef::default(),
            Polygon::new_box(20.0 * unit, unit).unwrap().into(),
        )
        .unwrap();
        let mut bodies = Vec::new();
        for i in 0..3 {
            let b = w
                .create_body(
                    &BodyDef::dynamic(Vec2::new(0.1 * i as f32, 0.6 + 1.05 * i as f32) * unit)
                        .with_angle(0.05),
                )
                .unwrap();
            w.create_shape(
                b,
                &ShapeDef::default(),
                Polygon::new_box(0.5 * unit, 0.5 * unit).unwrap().into(),
            )
            .unwrap();
            bodies.push(b);
        }
        let ball = w
            .create_body(
                &BodyDef::dynamic(Vec2::new(3.0, 4.0) * unit)
                    .with_velocity(Vec2::new(2.0, 0.0) * unit),
            )
            .unwrap();
        let bouncy = ShapeDef {
            restitution: 0.5,
            ..Default::default()
        };
        w.create_shape(
            ball,
            &bouncy,
            Circle::new(Vec2::ZERO, 0.3 * unit).unwrap().into(),
        )
        .unwrap();
        bodies.push(ball);
        for _ in 0..180 {
            w.step(DT).unwrap();
        }
        bodies
            .iter()
            .map(|b| to_vec2(w.body_position(*b).unwrap()) / unit)
            .collect::<Vec<_>>()
    };
    let metres = run(1.0);
    let pixels = run(100.0);
    for (m, p) in metres.iter().zip(&pixels) {
        // Same trajectories up to f32 rounding of the scaled numbers: within a millimetre.
        assert!(m.distance(*p) < 1e-3, "metres {m} vs pixels/100 {p}");
    }
}
