//! The joints a Bevy user builds with `Joint::pulley`, `gear`, `mouse` and `motor`, each
//! checked against the constraint it promises, through the plugin; and a revolute pendulum
//! built from components swings with the small-angle period.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::physics_core;
use bevy_physics2d::prelude::*;
use bevy_reflect::GetPath;
use bevy_reflect::PartialReflect;
use bevy_reflect::ReflectRef;
use support::app;
use support::core_pose;
use support::dt;
use support::step;

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

#[test]
fn a_revolute_pendulum_from_components_swings_with_the_small_angle_period() {
    let mut app = app();
    let length = 1.0f32;
    let pivot = app
        .world_mut()
        .spawn((RigidBody::Static, Transform::from_xyz(0.0, 5.0, 0.0)))
        .id();
    // A small heavy bob released 0.1 rad from the vertical.
    let angle = 0.1f32;
    let bob_at = bevy_math::Vec2::new(length * angle.sin(), 5.0 - length * angle.cos());
    let bob = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.05),
            Transform::from_xyz(bob_at.x, bob_at.y, 0.0),
        ))
        .id();
    app.world_mut()
        .spawn(Joint::revolute(pivot, bob).with_anchor(bevy_math::Vec2::new(0.0, 5.0)));
    // Time between the first and third crossings of the vertical is one period.
    let mut crossings = Vec::new();
    let mut last_x = bob_at.x;
    let h = dt(&app);
    let mut max_stretch = 0.0f32;
    for i in 1..=400 {
        step(&mut app, 1);
        let p = core_pose(&app, bob).p;
        max_stretch =
            max_stretch.max(((p - bevy_math::Vec2::new(0.0, 5.0)).length() - length).abs());
        if last_x.signum() != p.x.signum() {
            // Linear interpolation of the crossing time within the step.
            crossings.push((i as f32 - p.x / (p.x - last_x)) * h);
        }
        last_x = p.x;
    }
    assert!(crossings.len() >= 3, "{crossings:?}");
    let period = crossings[2] - crossings[0];
    // A small disk bob: T = 2 pi sqrt(L/g) (the disk's own inertia adds under 0.2 %).
    let expected = std::f32::consts::TAU * (length / 9.81f32).sqrt();
    assert!(
        (period / expected - 1.0).abs() < 0.01,
        "period {period} vs {expected}"
    );
    assert!(
        max_stretch < 0.005,
        "the pin held within linear slop: {max_stretch}"
    );
}

#[test]
fn a_joint_shows_its_fields_to_reflection() {
    let mut app = app();
    let a = app.world_mut().spawn(RigidBody::Static).id();
    let b = app
        .world_mut()
        .spawn((RigidBody::Dynamic, Collider::circle(0.5)))
        .id();
    let joint: Joint = Joint::revolute(a, b)
        .with_motor(2.0, 5.0)
        .with_break_force(100.0)
        .into();
    let ReflectRef::Struct(fields) = joint.reflect_ref() else {
        panic!("a Joint should reflect as a struct");
    };
    assert!(fields.field("collide_connected").is_some());
    assert_eq!(*joint.path::<f32>("break_force").unwrap(), 100.0);
    assert_eq!(*joint.path::<f32>("kind.0.motor_speed").unwrap(), 2.0);
    // Registered for inspectors, with its component data.
    let registry = app.world().resource::<AppTypeRegistry>().read();
    let registration = registry.get(std::any::TypeId::of::<Joint>()).unwrap();
    assert!(registration.data::<ReflectComponent>().is_some());
    // Editing a field through reflection reaches the core like any change.
    drop(registry);
    let entity = app.world_mut().spawn(joint).id();
    step(&mut app, 1);
    let mut component = app.world_mut().get_mut::<Joint>(entity).unwrap();
    *component.path_mut::<f32>("kind.0.motor_speed").unwrap() = -3.0;
    step(&mut app, 1);
    let physics = app.world().resource::<PhysicsWorld>();
    let def = physics
        .core()
        .joint_def(physics.joint(entity).unwrap())
        .unwrap();
    let physics_core::joint::JointKind::Revolute(r) = def.kind else {
        panic!("{def:?}");
    };
    assert_eq!(r.motor_speed, -3.0);
}
