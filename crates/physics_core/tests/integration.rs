//! Free flight matches the integrator's closed form exactly (to float rounding).
//!
//! The solver integrates velocity then position each substep (symplectic Euler), so after n
//! substeps of length h from rest with acceleration g:
//!   v_n = v0 + n h g,   x_n = x0 + n h v0 + h^2 g n (n + 1) / 2.

use physics_core::position::to_vec2;
use physics_core::prelude::*;

fn closed_form(x0: Vec2, v0: Vec2, g: Vec2, h: f32, n: usize) -> (Vec2, Vec2) {
    let n_f = n as f32;
    (
        x0 + n_f * h * v0 + h * h * g * (n_f * (n_f + 1.0) / 2.0),
        v0 + n_f * h * g,
    )
}

fn fly(v0: Vec2, steps: usize) -> (Vec2, Vec2, Vec2) {
    let mut world = World::new(WorldDef::default()).unwrap();
    let x0 = Vec2::new(1.0, 100.0);
    let body = world
        .create_body(&BodyDef::dynamic(x0).with_velocity(v0))
        .unwrap();
    world
        .create_shape(
            body,
            &ShapeDef::default(),
            Circle::new(Vec2::ZERO, 0.5).unwrap().into(),
        )
        .unwrap();
    for _ in 0..steps {
        world.step(1.0 / 60.0).unwrap();
    }
    (
        x0,
        to_vec2(world.body_position(body).unwrap()),
        world.linear_velocity(body).unwrap(),
    )
}

#[test]
fn free_fall_matches_the_integrator() {
    let (x0, x, v) = fly(Vec2::ZERO, 60);
    let (expected_x, expected_v) =
        closed_form(x0, Vec2::ZERO, Vec2::new(0.0, -10.0), 1.0 / 240.0, 240);
    // One second of fall: about 5 m; f32 accumulation over 240 substeps stays below 1e-4 m.
    assert!((x - expected_x).length() < 1e-4, "{x} vs {expected_x}");
    assert!((v - expected_v).length() < 1e-4, "{v} vs {expected_v}");
    // And close to the continuous answer, within the integrator's O(h) error: g h t / 2.
    assert!((x.y - (100.0 - 5.0)).abs() < 10.0 * (1.0 / 240.0) / 2.0 + 1e-4);
}

#[test]
fn projectile_matches_the_integrator() {
    let v0 = Vec2::new(7.0, 12.0);
    let (x0, x, v) = fly(v0, 90);
    let (expected_x, expected_v) = closed_form(x0, v0, Vec2::new(0.0, -10.0), 1.0 / 240.0, 360);
    assert!((x - expected_x).length() < 2e-4, "{x} vs {expected_x}");
    assert!((v - expected_v).length() < 1e-4);
    // Horizontal motion is untouched by gravity.
    assert!((x.x - (x0.x + 7.0 * 1.5)).abs() < 1e-4);
}
