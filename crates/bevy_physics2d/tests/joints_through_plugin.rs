//! The joints a Bevy user builds with `Joint::pulley`, `gear`, `mouse` and `motor`, each
//! checked against the constraint it promises, through the plugin.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use support::{app, step};

fn pos(app: &App, e: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(e)
        .unwrap()
        .translation
        .truncate()
}

fn angle(app: &App, e: Entity) -> f32 {
    let r = app.world().get::<Transform>(e).unwrap().rotation;
    r.to_euler(bevy_math::EulerRot::XYZ).2
}

fn dynamic_box(app: &mut App, at: Vec2, density: f32) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(0.5, 0.5),
            ColliderDensity(density),
            Transform::from_xyz(at.x, at.y, 0.0),
        ))
        .id()
}

#[test]
fn a_pulley_keeps_its_rope_length_and_the_heavy_side_goes_down() {
    let mut app = app();
    let (ga, gb) = (Vec2::new(-2.0, 10.0), Vec2::new(2.0, 10.0));
    let light = dynamic_box(&mut app, Vec2::new(-2.0, 5.0), 1.0);
    let heavy = dynamic_box(&mut app, Vec2::new(2.0, 5.0), 3.0);
    app.world_mut().spawn(Joint::pulley(
        light,
        heavy,
        (ga, gb),
        (Vec2::new(-2.0, 5.25), Vec2::new(2.0, 5.25)),
        1.0,
    ));
    // Attached at each box's top centre: rope lengths from the fixed points.
    let rope = |app: &App| {
        let top = Vec2::new(0.0, 0.25);
        (pos(app, light) + top).distance(ga) + (pos(app, heavy) + top).distance(gb)
    };
    step(&mut app, 1);
    let length = rope(&app);
    let mut worst = 0.0f32;
    for _ in 0..60 {
        step(&mut app, 1);
        worst = worst.max((rope(&app) - length).abs());
    }
    // A rigid rope row, softened as every joint is: under the rope's tension
    // T = 2 m1 m2 g / (m1 + m2) = 3.7 N against the soft row's stiffness
    // k = m_eff (2 pi 60 Hz)^2 = 27 kN/m it stretches T / k = 0.14 mm.
    assert!(worst < 5e-4, "the rope changed length by {worst} m");
    // The heavy side accelerates at g (m2 - m1) / (m1 + m2) = g / 2 for the 61 steps.
    let t = 61.0 / support::HZ as f32;
    let expected = 0.5 * 0.5 * 9.81 * t * t;
    let fall = 5.0 - pos(&app, heavy).y;
    assert!(
        (fall - expected).abs() < 0.05 * expected,
        "fell {fall} m, not {expected}"
    );
    assert!((pos(&app, light).y - 5.0 - fall).abs() < 1e-3);
}

#[test]
fn a_gear_keeps_b_turning_at_ratio_times_a() {
    let mut app = app();
    let ground = app
        .world_mut()
        .spawn((RigidBody::Static, Transform::default()))
        .id();
    let wheel = |app: &mut App, x: f32| {
        app.world_mut()
            .spawn((
                RigidBody::Dynamic,
                Collider::circle(0.5),
                Transform::from_xyz(x, 0.0, 0.0),
            ))
            .id()
    };
    let (a, b) = (wheel(&mut app, -2.0), wheel(&mut app, 2.0));
    app.world_mut().spawn(
        Joint::revolute(ground, a)
            .with_anchor(Vec2::new(-2.0, 0.0))
            .with_motor(2.0, 1000.0),
    );
    app.world_mut()
        .spawn(Joint::revolute(ground, b).with_anchor(Vec2::new(2.0, 0.0)));
    app.world_mut().spawn(Joint::gear(a, b, -0.5));
    let mut worst = 0.0f32;
    let mut turned = 0.0f32;
    for _ in 0..60 {
        step(&mut app, 1);
        let (wa, wb) = (
            app.world().get::<AngularVelocity>(a).unwrap().0,
            app.world().get::<AngularVelocity>(b).unwrap().0,
        );
        turned = turned.max(wa.abs());
        worst = worst.max((wb + 0.5 * wa).abs());
    }
    // The motor turns A at 2 rad/s; the gear makes B turn at -0.5 times that.
    assert!((turned - 2.0).abs() < 0.05, "A turned at {turned} rad/s");
    assert!(worst < 0.02, "B's spin strayed {worst} rad/s from -0.5 A");
}

/// Regression: `Joint::mouse`'s default, no force cap (`f32::INFINITY`), was rejected by the
/// core as non-finite, so a mouse joint built without `with_max_force` did nothing but warn.
#[test]
fn a_mouse_joint_pulls_the_grabbed_point_to_its_target() {
    let mut app = app();
    let body = dynamic_box(&mut app, Vec2::ZERO, 1.0);
    let target = Vec2::new(3.0, 2.0);
    // Grabbed at its centre, then the target moved (as a mouse drag does).
    let joint = app.world_mut().spawn(Joint::mouse(body, Vec2::ZERO)).id();
    step(&mut app, 1);
    app.world_mut()
        .get_mut::<Joint>(joint)
        .unwrap()
        .set_target(target)
        .unwrap();
    step(&mut app, 180);
    // The 5 Hz spring holds the body against gravity a sag of g / (2 pi 5)^2 = 1 cm below
    // the target.
    let sag = 9.81 / (std::f32::consts::TAU * 5.0).powi(2);
    let at = pos(&app, body);
    assert!(
        (at - (target - Vec2::new(0.0, sag))).length() < 0.01,
        "held at {at}, target {target}"
    );
}

#[test]
fn a_motor_joint_drives_b_to_its_offset_from_a() {
    let mut app = app();
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = Vec2::ZERO;
    let a = app
        .world_mut()
        .spawn((RigidBody::Static, Transform::default()))
        .id();
    let b = dynamic_box(&mut app, Vec2::new(-1.0, -1.0), 1.0);
    app.world_mut().spawn(
        Joint::motor(a, b)
            .with_target_offset(Vec2::new(2.0, 1.0), 0.5)
            .with_max_force_and_torque(100.0, 100.0),
    );
    step(&mut app, 180);
    let at = pos(&app, b);
    assert!((at - Vec2::new(2.0, 1.0)).length() < 0.01, "{at}");
    assert!((angle(&app, b) - 0.5).abs() < 0.01, "{}", angle(&app, b));
}
