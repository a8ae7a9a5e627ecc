//! Colliders through the plugin: scale applied to shapes and mass, colliders without a body as
//! static geometry, chain terrain walked from the left, and regular polygons of any side count.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_math::Vec3;
use bevy_physics2d::PhysicsBody;
use bevy_physics2d::PhysicsWarning;
use bevy_physics2d::prelude::*;
use support::app;
use support::core_of;
use support::ground;
use support::mass_data;
use support::read;
use support::step;

fn warnings_about(app: &mut App, cursor: &mut MessageCursor<PhysicsWarning>, e: Entity) -> usize {
    read(app, cursor).iter().filter(|w| w.entity == e).count()
}

#[test]
fn a_scaled_body_has_scaled_colliders_and_mass() {
    let mut app = app();
    ground(&mut app);
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            Transform::from_xyz(-3.0, 3.0, 0.0).with_scale(Vec3::splat(2.0)),
        ))
        .id();
    // Any scale is exact for a rectangle: 3 m by 0.5 m.
    let plank = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Transform::from_xyz(3.0, 3.0, 0.0).with_scale(Vec3::new(3.0, 0.5, 1.0)),
        ))
        .id();
    step(&mut app, 180);
    let (p, _, m) = core_of(&app, ball);
    // A radius of 1 m resting on y = 0 (a soft contact sags a few millimetres).
    assert!((p.y - 1.0).abs() < 0.01, "ball at {p}");
    assert!((m - std::f32::consts::PI).abs() < 1e-3, "mass {m}");
    let (p, _, m) = core_of(&app, plank);
    assert!((p.y - 0.25).abs() < 0.01, "plank at {p}");
    assert!((m - 1.5).abs() < 1e-4, "mass {m}");
}

#[test]
fn changing_scale_at_run_time_rebuilds_the_collider() {
    let mut app = app();
    ground(&mut app);
    let ball = support::spawn_dynamic(&mut app, Collider::circle(0.5), 0.0, 0.5);
    step(&mut app, 60);
    assert!((core_of(&app, ball).0.y - 0.5).abs() < 0.01);
    app.world_mut().get_mut::<Transform>(ball).unwrap().scale = Vec3::splat(3.0);
    step(&mut app, 120);
    let (p, _, m) = core_of(&app, ball);
    assert!((p.y - 1.5).abs() < 0.01, "ball at {p}");
    assert!(
        (m - 9.0 * std::f32::consts::PI * 0.25).abs() < 1e-3,
        "mass {m}"
    );
}

#[test]
fn a_circle_under_unequal_scale_takes_the_larger_factor_and_says_so_once() {
    let mut app = app();
    ground(&mut app);
    let mut cursor = MessageCursor::<PhysicsWarning>::default();
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            Transform::from_xyz(0.0, 2.0, 0.0).with_scale(Vec3::new(1.0, 2.0, 1.0)),
        ))
        .id();
    let mut said = 0;
    // Messages live two updates: read after each one.
    for _ in 0..120 {
        step(&mut app, 1);
        said += warnings_about(&mut app, &mut cursor, ball);
    }
    assert!((core_of(&app, ball).0.y - 1.0).abs() < 0.01);
    assert_eq!(said, 1);
    // Rebuilt twice more under unequal scales: still the one warning.
    for scale in [Vec3::new(1.0, 2.5, 1.0), Vec3::new(3.0, 1.0, 1.0)] {
        app.world_mut().get_mut::<Transform>(ball).unwrap().scale = scale;
        for _ in 0..30 {
            step(&mut app, 1);
            said += warnings_about(&mut app, &mut cursor, ball);
        }
    }
    assert_eq!(said, 1);
}

#[test]
fn a_collider_without_a_body_is_static_geometry_that_moves_with_its_transform() {
    let mut app = app();
    // A shelf and a ramp with no RigidBody: what Avian and bevy_rapier users write.
    let shelf = app
        .world_mut()
        .spawn((
            Collider::rectangle(4.0, 0.5),
            Transform::from_xyz(0.0, 2.0, 0.0),
        ))
        .id();
    let ball = support::spawn_dynamic(&mut app, Collider::circle(0.5), 0.0, 5.0);
    step(&mut app, 120);
    assert!((core_of(&app, ball).0.y - 2.75).abs() < 0.01);
    // Raising the shelf's Transform by 0.25 m raises the shape (a teleport, so it overlaps
    // the ball, which is pushed out upwards) and the ball with it.
    app.world_mut()
        .get_mut::<Transform>(shelf)
        .unwrap()
        .translation
        .y = 2.25;
    step(&mut app, 120);
    let y = core_of(&app, ball).0.y;
    assert!((y - 3.0).abs() < 0.01, "ball at {y}");
    // Despawned, it is gone: the ball falls.
    app.world_mut().entity_mut(shelf).despawn();
    step(&mut app, 30);
    assert!(core_of(&app, ball).0.y < 3.0);
}

#[test]
fn polyline_ground_is_walked_from_the_left_and_slid_over_without_bumps() {
    let mut app = app();
    app.world_mut()
        .resource_mut::<PhysicsSettings>()
        .enable_sleep = false;
    // 200 points left to right: walked on from above.
    let points: Vec<Vec2> = (0..200)
        .map(|i| Vec2::new(-10.0 + 0.3 * i as f32, 0.0))
        .collect();
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::polyline(points),
        Transform::default(),
    ));
    let slider = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(0.5, 0.5),
            Friction(0.0),
            Transform::from_xyz(-8.0, 0.25, 0.0),
            LinearVelocity(Vec2::new(5.0, 0.0)),
        ))
        .id();
    let mut bump = 0.0f32;
    let mut last = 0.0f32;
    for i in 0..600 {
        step(&mut app, 1);
        let vy = core_of(&app, slider).1.y;
        if i > 10 {
            bump = bump.max((vy - last).abs());
        }
        last = vy;
    }
    let (p, v, _) = core_of(&app, slider);
    assert!(
        p.x > 40.0 && (v.x - 5.0).abs() < 1e-3,
        "slider at {p} moving {v}"
    );
    assert!(
        bump < 1e-3,
        "vertical velocity jumped by {bump} m/s at a joint"
    );
}

#[test]
fn regular_polygons_of_many_sides_become_compounds_and_roll() {
    let mut app = app();
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(40.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let wheel = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::regular_polygon(1.0, 24),
            Transform::from_xyz(0.0, 1.0, 0.0),
            LinearVelocity(Vec2::new(4.0, 0.0)),
        ))
        .id();
    let mut warnings = bevy_ecs::message::MessageCursor::<PhysicsWarning>::default();
    step(&mut app, 60);
    let sent = support::read(&mut app, &mut warnings);
    assert!(sent.is_empty(), "{sent:?}");
    // Its mass is the 24-gon's: (n / 2) r^2 sin(2 pi / n) at density 1.
    let n = 24.0f32;
    let area = 0.5 * n * (std::f32::consts::TAU / n).sin();
    let m = mass_data(&app, wheel);
    assert!(
        (m.mass - area).abs() < 1e-3,
        "mass {} against {area}",
        m.mass
    );
    assert!(m.center.length() < 1e-5);
    // A near-circle rolls: it has gone forward and spins as it rolls.
    let id = app.world().get::<PhysicsBody>(wheel).unwrap().id();
    let physics = app.world().resource::<PhysicsWorld>();
    let core = physics.core();
    let x = physics.to_game(core.body_position(id).unwrap()).x;
    let (v, w) = (
        core.linear_velocity(id).unwrap().x,
        core.angular_velocity(id).unwrap(),
    );
    assert!(x > 2.0, "x = {x}");
    assert!((v + w * 0.99).abs() < 0.2, "v {v}, w {w}: not rolling");
}
