//! Forces and motion: impulses, forces and torques change velocity by the textbook amounts;
//! gravity scale, damping and fixed rotation; the spin limit per step.

mod support;

use physics_core::position::to_vec2;
use physics_core::prelude::*;
use support::{DT, unit_box, world};

#[test]
fn impulses_forces_and_torques_change_velocity_by_the_textbook_amounts() {
    let mut w = World::new(WorldDef {
        gravity: Vec2::ZERO,
        ..Default::default()
    })
    .unwrap();
    let b = unit_box(&mut w, Vec2::ZERO);
    let m = w.body_mass_data(b).unwrap();
    assert!((m.mass - 1.0).abs() < 1e-6);
    w.apply_linear_impulse(b, Vec2::new(2.0, 0.0)).unwrap();
    assert!((w.linear_velocity(b).unwrap().x - 2.0).abs() < 1e-6);
    // An impulse at a point off the centre also spins: dw = (r x J) / I.
    w.apply_linear_impulse_at_point(b, Vec2::new(0.0, 1.0), Vec2::new(0.5, 0.0))
        .unwrap();
    let expected_w = 0.5 / m.rotational_inertia;
    assert!((w.angular_velocity(b).unwrap() - expected_w).abs() < 1e-4);
    // A force acts over one step: dv = F dt / m.
    let v0 = w.linear_velocity(b).unwrap();
    w.apply_force(b, Vec2::new(0.0, 60.0)).unwrap();
    w.step(DT).unwrap();
    assert!((w.linear_velocity(b).unwrap().y - (v0.y + 1.0)).abs() < 1e-4);
    // Forces are cleared after the step.
    let v1 = w.linear_velocity(b).unwrap();
    w.step(DT).unwrap();
    assert!((w.linear_velocity(b).unwrap() - v1).length() < 1e-5);
    let w0 = w.angular_velocity(b).unwrap();
    w.apply_torque(b, m.rotational_inertia * 60.0).unwrap();
    w.step(DT).unwrap();
    assert!((w.angular_velocity(b).unwrap() - (w0 + 1.0)).abs() < 1e-3);
}

#[test]
fn gravity_scale_damping_and_fixed_rotation() {
    let mut w = world();
    let floating = unit_box(&mut w, Vec2::new(0.0, 10.0));
    w.set_gravity_scale(floating, 0.0).unwrap();
    let damped = unit_box(&mut w, Vec2::new(5.0, 10.0));
    w.set_gravity_scale(damped, 0.0).unwrap();
    w.set_damping(damped, 1.0, 0.0).unwrap();
    w.set_linear_velocity(damped, Vec2::new(1.0, 0.0)).unwrap();
    let fixed = unit_box(&mut w, Vec2::new(-5.0, 10.0));
    w.set_fixed_rotation(fixed, true).unwrap();
    w.apply_angular_impulse(fixed, 10.0).unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    assert_eq!(
        to_vec2(w.body_position(floating).unwrap()),
        Vec2::new(0.0, 10.0)
    );
    // v' = -c v integrates to exp(-1) after 1 s; the implicit update gives (1 + h)^-240.
    let expected = (1.0f32 + 1.0 / 240.0).powi(-240);
    assert!((w.linear_velocity(damped).unwrap().x - expected).abs() < 1e-4);
    assert_eq!(w.angular_velocity(fixed).unwrap(), 0.0);
    assert!(matches!(
        w.set_damping(damped, -1.0, 0.0),
        Err(WorldError::InvalidSetting(_))
    ));
}

/// Regression (with Box2D v3's limit): spin was clamped at a quarter turn per substep, four
/// times Box2D's quarter turn per step, so a capsule knocked to 82 rad/s in the spinner
/// turned 0.9 rad in one step and swept an end through the bowl. Now a body turns at most a
/// quarter turn per step unless it allows fast rotation (wheels).
#[test]
fn regression_spin_was_clamped_per_substep_not_per_step() {
    let dt = 1.0 / 60.0;
    let limit = 0.25 * std::f32::consts::PI / dt;
    for allow in [false, true] {
        let mut world = World::new(WorldDef {
            gravity: Vec2::ZERO,
            ..Default::default()
        })
        .unwrap();
        let body = world
            .create_body(&BodyDef {
                angular_velocity: 100.0,
                allow_fast_rotation: allow,
                ..BodyDef::dynamic(Vec2::ZERO)
            })
            .unwrap();
        world
            .create_shape(
                body,
                &ShapeDef::default(),
                Polygon::new_box(0.5, 0.1).unwrap().into(),
            )
            .unwrap();
        world.step(dt).unwrap();
        let w = world.angular_velocity(body).unwrap();
        let turned = world.body_rotation(body).unwrap().angle();
        // Each substep turns the rotation by atan(h w) (the normalised first-order update).
        let substeps = WorldDef::default().substep_count as f32;
        let expected = |w: f32| substeps * (w * dt / substeps).atan();
        let spin = if allow { 100.0 } else { limit };
        assert!((w - spin).abs() < 1e-3, "allow {allow}: {w} against {spin}");
        assert!(
            (turned - expected(spin)).abs() < 1e-4,
            "allow {allow}: {turned}"
        );
    }
    // It can be switched on a live body.
    let mut world = World::new(WorldDef::default()).unwrap();
    let b = world.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
    assert!(world.set_allow_fast_rotation(b, true).is_ok());
}

/// Regression (found by the plugin operations fuzz target): a kinematic body given a finite
/// but absurd velocity, (0.2, 1e30) m/s, kept it, reached 2.9e28 m in one step, far past
/// `MAX_WORLD_COORDINATE`, and dragged its child bodies' placements out of the world. Every
/// body is now held to the world's speed limit, kinematic ones too, as in Box2D v3.
#[test]
fn regression_a_kinematic_body_outran_the_speed_limit_and_left_the_world() {
    let mut w = World::new(WorldDef::default()).unwrap();
    let limit = WorldDef::default().max_linear_speed;
    let mover = w.create_body(&BodyDef::kinematic(Vec2::ZERO)).unwrap();
    let slow = w
        .create_body(&BodyDef::kinematic(Vec2::new(0.0, 5.0)).with_velocity(Vec2::new(3.0, 0.0)))
        .unwrap();
    w.set_linear_velocity(mover, Vec2::new(0.2, 1e30)).unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    let v = w.linear_velocity(mover).unwrap();
    // The limit, to float rounding, pointing (almost exactly) up as it was given.
    assert!((v.length() - limit).abs() < 1e-3 * limit, "{v}");
    assert!(v.y > 0.99 * limit, "{v}");
    // One second at the limit: 400 m up, not 1e30.
    let p = to_vec2(w.body_position(mover).unwrap());
    assert!((p.y - limit).abs() < 1e-3 * limit, "{p}");
    // A kinematic body under the limit keeps its velocity exactly.
    assert_eq!(w.linear_velocity(slow).unwrap(), Vec2::new(3.0, 0.0));
    let q = to_vec2(w.body_position(slow).unwrap());
    assert!((q.x - 3.0).abs() < 1e-4, "{q}");
}
