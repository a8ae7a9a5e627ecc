//! The character controller through the plugin: a `CharacterController` with a capsule,
//! steered by `CharacterVelocity`, over level geometry spawned as bare colliders.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use support::{app, step};

/// The capsule: radius 0.3, 1 m between its end centres, so the feet are 0.8 m below the
/// centre.
const RADIUS: f32 = 0.3;
const FEET: f32 = 0.8;

fn floor(app: &mut App) {
    app.world_mut().spawn((
        Collider::rectangle(60.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
}

fn character(app: &mut App, feet: Vec2) -> Entity {
    app.world_mut()
        .spawn((
            CharacterController::default(),
            Collider::capsule(RADIUS, 1.0),
            Transform::from_xyz(feet.x, feet.y + FEET, 0.0),
        ))
        .id()
}

fn feet(app: &App, e: Entity) -> Vec2 {
    let t = app.world().get::<Transform>(e).unwrap().translation;
    Vec2::new(t.x, t.y - FEET)
}

fn state(app: &App, e: Entity) -> CharacterState {
    app.world().get::<CharacterState>(e).unwrap().clone()
}

/// Walks for `steps` physics steps at `speed` across.
fn walk(app: &mut App, e: Entity, speed: f32, steps: u64) {
    for _ in 0..steps {
        app.world_mut().get_mut::<CharacterVelocity>(e).unwrap().0.x = speed;
        step(app, 1);
    }
}

/// A slope of `degrees` rising from x = 0 to 3 m, with a flat top beyond.
fn slope(app: &mut App, degrees: f32) {
    let run = 3.0 / degrees.to_radians().tan();
    app.world_mut().spawn((
        Collider::convex_hull(vec![
            Vec2::new(0.0, -1.0),
            Vec2::new(run, -1.0),
            Vec2::new(run, 3.0),
            Vec2::new(0.0, 0.0),
        ]),
        Transform::default(),
    ));
    app.world_mut().spawn((
        Collider::rectangle(20.0, 1.0),
        Transform::from_xyz(run + 10.0, 2.5, 0.0),
    ));
}

#[test]
fn walks_up_a_40_degree_slope_and_not_a_60_degree_one() {
    for (degrees, climbs) in [(40.0, true), (60.0, false)] {
        let mut app = app();
        floor(&mut app);
        slope(&mut app, degrees);
        let player = character(&mut app, Vec2::new(-3.0, 0.0));
        walk(&mut app, player, 4.0, 300);
        let at = feet(&app, player);
        if climbs {
            assert!((at.y - 3.0).abs() < 0.02, "{degrees}: {at}");
            assert!(state(&app, player).grounded);
        } else {
            assert!(at.y < 0.2 && at.x < 0.1, "{degrees}: {at}");
        }
    }
}

#[test]
fn climbs_0_3_m_steps_and_not_0_6_m_ones() {
    for (height, climbs) in [(0.3, true), (0.6, false)] {
        let mut app = app();
        floor(&mut app);
        app.world_mut().spawn((
            Collider::rectangle(5.0, height),
            Transform::from_xyz(2.5, height / 2.0, 0.0),
        ));
        let player = character(&mut app, Vec2::new(-2.0, 0.0));
        walk(&mut app, player, 3.0, 90);
        let at = feet(&app, player);
        if climbs {
            assert!(at.x > 1.5 && (at.y - height).abs() < 0.02, "{height}: {at}");
        } else {
            assert!(at.x < -RADIUS + 0.01 && at.y.abs() < 0.02, "{height}: {at}");
        }
    }
}

#[test]
fn never_ends_inside_a_wall_at_20_m_per_s() {
    let mut app = app();
    floor(&mut app);
    // A 10 cm wall: a step at 20 m/s covers a third of a metre.
    app.world_mut().spawn((
        Collider::rectangle(0.1, 10.0),
        Transform::from_xyz(5.05, 5.0, 0.0),
    ));
    let player = character(&mut app, Vec2::new(-2.0, 0.0));
    for _ in 0..90 {
        app.world_mut()
            .get_mut::<CharacterVelocity>(player)
            .unwrap()
            .0
            .x = 20.0;
        step(&mut app, 1);
        let right = feet(&app, player).x + RADIUS;
        assert!(right < 5.0 + 0.005, "{} m into the wall", right - 5.0);
    }
    assert!(feet(&app, player).x + RADIUS > 4.98);
    // Speed does not build up against it.
    let v = app.world().get::<CharacterVelocity>(player).unwrap().0;
    assert!(v.x.abs() < 1e-3, "{v}");
}

#[test]
fn rides_a_moving_platform_without_sliding() {
    let mut app = app();
    floor(&mut app);
    let platform = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            Collider::rectangle(4.0, 0.5),
            Transform::from_xyz(0.0, 2.0, 0.0),
        ))
        .id();
    let player = character(&mut app, Vec2::new(0.5, 2.25));
    step(&mut app, 30);
    let offset = |app: &App| {
        feet(app, player)
            - app
                .world()
                .get::<Transform>(platform)
                .unwrap()
                .translation
                .truncate()
    };
    let start = offset(&app);
    let mut worst: f32 = 0.0;
    for i in 0..480 {
        let v = [
            Vec2::new(3.0, 0.0),
            Vec2::new(0.0, 1.5),
            Vec2::new(-3.0, 0.0),
            Vec2::new(0.0, -1.5),
        ][(i / 60) % 4];
        app.world_mut()
            .get_mut::<LinearVelocity>(platform)
            .unwrap()
            .0 = v;
        step(&mut app, 1);
        worst = worst.max((offset(&app) - start).length());
        let s = state(&app, player);
        assert!(
            s.grounded && s.ground_entity == Some(platform),
            "step {i}: {s:?}"
        );
    }
    assert!(worst < 0.01, "slid {worst} m");
}

#[test]
fn jumps_through_a_one_way_platform_and_pushes_light_crates_only() {
    let mut app = app();
    floor(&mut app);
    app.world_mut().spawn((
        OneWayPlatform,
        Collider::rectangle(4.0, 0.2),
        Transform::from_xyz(0.0, 2.1, 0.0),
    ));
    let player = character(&mut app, Vec2::new(0.0, 0.0));
    step(&mut app, 5);
    app.world_mut()
        .get_mut::<CharacterVelocity>(player)
        .unwrap()
        .0
        .y = 9.0;
    step(&mut app, 150);
    assert!(
        (feet(&app, player).y - 2.2).abs() < 0.02,
        "{}",
        feet(&app, player)
    );
    assert!(state(&app, player).grounded);

    let mut app = self::app();
    floor(&mut app);
    let crate_of = |app: &mut App, x: f32, density: f32| {
        app.world_mut()
            .spawn((
                RigidBody::Dynamic,
                Collider::rectangle(1.0, 1.0),
                ColliderDensity(density),
                Transform::from_xyz(x, 0.5, 0.0),
            ))
            .id()
    };
    let light = crate_of(&mut app, 2.0, 1.0);
    let heavy = crate_of(&mut app, -2.0, 500.0);
    let player = character(&mut app, Vec2::ZERO);
    walk(&mut app, player, 3.0, 150);
    let x = |app: &App, e: Entity| app.world().get::<Transform>(e).unwrap().translation.x;
    assert!(x(&app, light) > 6.0, "light crate at {}", x(&app, light));
    walk(&mut app, player, -3.0, 300);
    assert!(
        (x(&app, heavy) + 2.0).abs() < 1e-3,
        "heavy crate at {}",
        x(&app, heavy)
    );
    assert!(feet(&app, player).x > -1.5 + RADIUS - 0.01);
}

#[test]
fn a_character_that_cannot_move_says_why_once() {
    let mut app = app();
    floor(&mut app);
    // A box is not round: the controller needs a capsule or a circle.
    let boxy = app
        .world_mut()
        .spawn((
            CharacterController::default(),
            Collider::rectangle(0.5, 1.0),
            Transform::from_xyz(0.0, 3.0, 0.0),
        ))
        .id();
    let mut cursor = bevy_ecs::message::MessageCursor::<PhysicsWarning>::default();
    let mut said = 0;
    for _ in 0..10 {
        step(&mut app, 1);
        said += support::read(&mut app, &mut cursor)
            .iter()
            .filter(|w| w.entity == boxy)
            .count();
    }
    assert_eq!(said, 1);
    // Left where it was, the rest of the world steps on.
    assert_eq!(feet(&app, boxy).y, 3.0 - FEET);
}
