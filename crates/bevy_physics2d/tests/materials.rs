//! Surface materials through the plugin: a conveyor belt carries at its tangent speed and
//! rolling resistance stops a ball.

mod support;

use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use support::app;
use support::core_of;
use support::ground;
use support::step;

#[test]
fn a_belt_carries_and_rolling_resistance_stops() {
    let mut app = app();
    app.world_mut()
        .resource_mut::<PhysicsSettings>()
        .enable_sleep = false;
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(40.0, 1.0),
        TangentSpeed(-2.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let crate_ = support::spawn_dynamic(&mut app, Collider::rectangle(1.0, 1.0), 5.0, 0.5);
    step(&mut app, 120);
    assert!(
        (core_of(&app, crate_).1.x + 2.0).abs() < 0.02,
        "{}",
        core_of(&app, crate_).1
    );

    // A ball on a plain floor with rolling resistance: 3 v^2 / (4 c g) = 6.75 m from 3 m/s
    // with c = 0.1 (a rolling disk carries 3/4 m v^2; the torque c r m g takes c m g per
    // metre).
    let mut app = support::app();
    ground(&mut app);
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            RollingResistance(0.1),
            Transform::from_xyz(0.0, 0.5, 0.0),
            LinearVelocity(Vec2::new(3.0, 0.0)),
            AngularVelocity(-6.0),
        ))
        .id();
    step(&mut app, 300);
    let (p, v, _) = core_of(&app, ball);
    assert!(v.length() < 1e-3, "still moving at {v}");
    assert!((p.x - 6.75).abs() < 0.2, "stopped at {p}");
}

/// Regression (found by the plugin operations fuzz check in `crates/fuzz_checks`): a negative
/// friction inserted on a collider was warned about twice, once by the rebuild its insertion
/// queues and once more by the in-place material update. Now once; the shape keeps the
/// friction it had.
#[test]
fn regression_a_bad_friction_was_warned_about_twice() {
    use bevy_ecs::message::MessageCursor;
    let mut app = app();
    ground(&mut app);
    let ball = support::spawn_dynamic(&mut app, Collider::circle(0.5), 0.0, 3.0);
    step(&mut app, 2);
    let mut cursor = MessageCursor::<PhysicsWarning>::default();
    support::read(&mut app, &mut cursor);
    app.world_mut().entity_mut(ball).insert(Friction(-0.5));
    let mut warned = Vec::new();
    for _ in 0..3 {
        step(&mut app, 1);
        warned.extend(support::read(&mut app, &mut cursor));
    }
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert_eq!(warned[0].entity, ball);
    let physics = app.world().resource::<PhysicsWorld>();
    let shape = physics.shapes(ball)[0];
    let kept = physics.core().shape_def(shape).unwrap().friction;
    assert_eq!(kept, 0.6, "the default friction stays");
}
