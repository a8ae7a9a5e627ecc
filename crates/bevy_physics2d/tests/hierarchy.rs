//! Rigid bodies as children of other entities: their `Transform` is local to the parent, the
//! physics works in world space, and a moving parent drags each body type as the docs say.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::PhysicsBody;
use bevy_physics2d::prelude::*;
use bevy_transform::components::GlobalTransform;
use std::time::Duration;
use support::{HZ, step};

/// One physics step per update, without interpolation, so `Transform` holds the physics
/// pose after every update.
fn app() -> App {
    app_with(false, 1)
}

/// An App whose updates each advance time by `1 / updates_per_step` of a fixed step, with or
/// without interpolation.
fn app_with(interpolate: bool, updates_per_step: u32) -> App {
    let frame = Duration::from_secs_f64(1.0 / HZ / f64::from(updates_per_step));
    support::app_with(interpolate, frame)
}

fn core_position(app: &App, entity: Entity) -> Vec2 {
    let id = app.world().get::<PhysicsBody>(entity).unwrap().id();
    let physics = app.world().resource::<PhysicsWorld>();
    physics.to_game(physics.core().body_position(id).unwrap())
}

fn core_velocity(app: &App, entity: Entity) -> Vec2 {
    let id = app.world().get::<PhysicsBody>(entity).unwrap().id();
    app.world()
        .resource::<PhysicsWorld>()
        .core()
        .linear_velocity(id)
        .unwrap()
}

fn local(app: &App, entity: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(entity)
        .unwrap()
        .translation
        .truncate()
}

#[test]
fn a_child_ball_under_a_parent_lands_on_ground_that_exists_only_under_the_parent() {
    child_ball_lands(app());
    // Interpolated, three frames per step: the blends shown between steps are not moves.
    child_ball_lands(app_with(true, 3));
}

fn child_ball_lands(mut app: App) {
    let world = app.world_mut();
    // Ground at world (10, 20), a root body: its top is at y = 20.5.
    world.spawn((
        RigidBody::Static,
        Collider::rectangle(4.0, 1.0),
        Transform::from_xyz(10.0, 20.0, 0.0),
    ));
    let parent = world.spawn(Transform::from_xyz(10.0, 20.0, 0.0)).id();
    let ball = world
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            Transform::from_xyz(0.0, 3.0, 0.0),
            ChildOf(parent),
        ))
        .id();
    step(&mut app, 180);
    // Taken as a world pose, the ball would have fallen from (0, 3) with nothing below it.
    let p = core_position(&app, ball);
    assert!((p - Vec2::new(10.0, 21.0)).length() < 0.02, "ball at {p}");
    // Its Transform stays local to the parent, and Bevy's propagation puts it back on top.
    let l = local(&app, ball);
    assert!((l - Vec2::new(0.0, 1.0)).length() < 0.02, "local {l}");
    let global = app
        .world()
        .get::<GlobalTransform>(ball)
        .unwrap()
        .translation();
    assert!((global.truncate() - p).length() < 0.01, "drawn at {global}");
}

#[test]
fn a_static_child_collides_where_its_parent_puts_it() {
    let mut app = app();
    let world = app.world_mut();
    let parent = world
        .spawn(
            Transform::from_xyz(10.0, 0.0, 0.0)
                .with_rotation(bevy_math::Quat::from_rotation_z(0.3)),
        )
        .id();
    // A shelf under a rotated parent: at local (0, 0) turned back by -0.3, it is level.
    world.spawn((
        RigidBody::Static,
        Collider::rectangle(4.0, 1.0),
        Transform::from_rotation(bevy_math::Quat::from_rotation_z(-0.3)),
        ChildOf(parent),
    ));
    let ball = world
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            Transform::from_xyz(10.0, 3.0, 0.0),
        ))
        .id();
    step(&mut app, 180);
    let p = core_position(&app, ball);
    assert!((p - Vec2::new(10.0, 1.0)).length() < 0.02, "ball at {p}");
}

#[test]
fn a_moving_parent_drags_static_and_kinematic_children_and_leaves_dynamic_ones_alone() {
    let mut app = app();
    let world = app.world_mut();
    let carrier = world.spawn(Transform::default()).id();
    let wall = world
        .spawn((
            RigidBody::Static,
            Collider::rectangle(0.5, 2.0),
            Transform::from_xyz(-5.0, 10.0, 0.0),
            ChildOf(carrier),
        ))
        .id();
    let platform = world
        .spawn((
            RigidBody::Kinematic,
            Collider::rectangle(6.0, 0.5),
            Transform::from_xyz(0.0, 0.0, 0.0),
            ChildOf(carrier),
        ))
        .id();
    // A crate riding the platform (a root body), and a dynamic ball under the carrier, high
    // above everything, falling freely.
    let crate_ = world
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Transform::from_xyz(0.0, 0.76, 0.0),
        ))
        .id();
    let ball = world
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.25),
            Transform::from_xyz(3.0, 50.0, 0.0),
            GravityScale(0.0),
            ChildOf(carrier),
        ))
        .id();
    step(&mut app, 30);
    // The carrier moves right at 2 m/s, by the game, every frame.
    let speed = 2.0;
    let dt = 1.0 / HZ as f32;
    for _ in 0..60 {
        app.world_mut()
            .get_mut::<Transform>(carrier)
            .unwrap()
            .translation
            .x += speed * dt;
        step(&mut app, 1);
    }
    let moved = 60.0 * speed * dt;
    // The static wall went with it.
    let w = core_position(&app, wall);
    assert!(
        (w - Vec2::new(-5.0 + moved, 10.0)).length() < 1e-4,
        "wall at {w}"
    );
    // The kinematic platform followed as a velocity, and its own velocity stayed zero.
    let p = core_position(&app, platform);
    assert!((p.x - moved).abs() < 1e-3, "platform at {p}");
    assert!((core_velocity(&app, platform).x - speed).abs() < 1e-3);
    assert_eq!(
        app.world().get::<LinearVelocity>(platform).unwrap().0,
        Vec2::ZERO
    );
    // So the crate on it was carried by friction, which a teleported platform would not do:
    // it slips until friction (0.6 g) has brought it to the platform's speed, losing
    // v^2 / (2 * 0.6 g) = 0.33 m, then rides along.
    let c = core_position(&app, crate_);
    let slip = speed * speed / (2.0 * 0.6 * 10.0);
    assert!(
        (c.x - (moved - slip)).abs() < 0.05,
        "crate at {c}, platform moved {moved}"
    );
    assert!((core_velocity(&app, crate_).x - speed).abs() < 0.02);
    // The dynamic ball kept its world motion (none) and its local Transform took the
    // parent's move back.
    let b = core_position(&app, ball);
    assert!((b - Vec2::new(3.0, 50.0)).length() < 1e-4, "ball at {b}");
    assert!((local(&app, ball).x - (3.0 - moved)).abs() < 1e-4);
}

#[test]
fn setting_a_dynamic_childs_own_transform_teleports_it_under_its_parent() {
    let mut app = app();
    let world = app.world_mut();
    let parent = world.spawn(Transform::from_xyz(-20.0, 5.0, 0.0)).id();
    let ball = world
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            Transform::default(),
            GravityScale(0.0),
            ChildOf(parent),
        ))
        .id();
    step(&mut app, 5);
    app.world_mut()
        .get_mut::<Transform>(ball)
        .unwrap()
        .translation = bevy_math::Vec3::new(1.0, 2.0, 0.0);
    step(&mut app, 1);
    let p = core_position(&app, ball);
    assert!((p - Vec2::new(-19.0, 7.0)).length() < 1e-5, "ball at {p}");
    assert!((local(&app, ball) - Vec2::new(1.0, 2.0)).length() < 1e-5);
}

/// Regression (found by the plugin operations fuzz check in `crates/fuzz_checks`): a body
/// under a parent the game placed at infinity got a NaN `Transform` from the writeback (its
/// local pose is its world pose under the parent's inverse, which has none). Now the
/// writeback leaves the child's `Transform` as it was, and the body steps on in the world.
#[test]
fn regression_a_body_under_a_parent_at_infinity_was_written_a_nan() {
    let mut app = support::app();
    support::ground_20m(&mut app);
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(1.0, 0.0, 0.0))
        .id();
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.3),
            Transform::from_xyz(0.0, 4.0, 0.0),
            ChildOf(parent),
        ))
        .id();
    support::step(&mut app, 5);
    let before = *app.world().get::<Transform>(body).unwrap();
    assert!(before.translation.y < 4.0, "it falls: {before:?}");
    app.world_mut()
        .get_mut::<Transform>(parent)
        .unwrap()
        .translation
        .x = f32::INFINITY;
    for _ in 0..5 {
        support::step(&mut app, 1);
        let now = app.world().get::<Transform>(body).unwrap();
        assert!(now.translation.is_finite(), "no NaN written: {now:?}");
    }
    let physics = app.world().resource::<PhysicsWorld>();
    let id = physics.body(body).expect("still in the world");
    assert!(
        physics
            .to_game(physics.core().body_position(id).unwrap())
            .is_finite()
    );
}

/// An App with a ground and a dynamic ball at (`x`, 4) under a parent placed at infinity,
/// stepped until the ball was refused: the App, the parent and the ball.
fn body_under_a_parent_at_infinity(x: f32) -> (App, Entity, Entity) {
    let mut app = support::app();
    support::ground_20m(&mut app);
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(f32::INFINITY, 0.0, 0.0))
        .id();
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.3),
            Transform::from_xyz(x, 4.0, 0.0),
            ChildOf(parent),
        ))
        .id();
    support::step(&mut app, 2);
    assert!(app.world().resource::<PhysicsWorld>().body(body).is_none());
    (app, parent, body)
}

/// Regression (found by the plugin operations fuzz check in `crates/fuzz_checks`): a body
/// refused because its parent stood at infinity stayed out of the world once the parent was
/// moved back; only a change to its own `Transform` tried it again. Now a parent's move does.
#[test]
fn regression_a_body_under_a_parent_at_infinity_stayed_out_once_the_parent_came_back() {
    let (mut app, parent, body) = body_under_a_parent_at_infinity(0.0);
    app.world_mut()
        .get_mut::<Transform>(parent)
        .unwrap()
        .translation
        .x = 1.0;
    support::step(&mut app, 3);
    let physics = app.world().resource::<PhysicsWorld>();
    let id = physics.body(body).expect("built once the parent is placed");
    let at = physics.to_game(physics.core().body_position(id).unwrap());
    assert!(
        (at.x - 1.0).abs() < 1e-4 && at.y < 4.0,
        "falls from (1, 4): {at}"
    );
}

/// Regression (found by the plugin operations fuzz check in `crates/fuzz_checks`): a body
/// refused under a parent at infinity stayed out of the world once taken off that parent
/// (while physics was paused, so no system saw the removal). Now leaving the parent tries
/// it again.
#[test]
fn regression_a_body_refused_under_a_parent_stayed_out_once_taken_off_it() {
    let (mut app, _, body) = body_under_a_parent_at_infinity(2.0);
    app.world_mut()
        .resource_mut::<bevy_time::Time<Physics>>()
        .pause();
    app.world_mut().entity_mut(body).remove::<ChildOf>();
    for _ in 0..3 {
        app.update();
    }
    app.world_mut()
        .resource_mut::<bevy_time::Time<Physics>>()
        .unpause();
    support::step(&mut app, 2);
    let physics = app.world().resource::<PhysicsWorld>();
    let id = physics.body(body).expect("built once off the parent");
    let at = physics.to_game(physics.core().body_position(id).unwrap());
    assert!(
        (at.x - 2.0).abs() < 1e-4,
        "placed by its own transform: {at}"
    );
}

/// Regression (found by the plugin operations fuzz check in `crates/fuzz_checks`): a body
/// taken off a parent scaled by two kept colliders built at twice their size, until its own
/// `Transform` changed. Now its colliders are rebuilt at its own scale.
#[test]
fn regression_a_body_taken_off_a_scaled_parent_kept_the_parents_scale() {
    let mut app = support::app();
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(0.0, 5.0, 0.0).with_scale(bevy_math::Vec3::splat(2.0)))
        .id();
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            Collider::circle(0.5),
            Transform::default(),
            ChildOf(parent),
        ))
        .id();
    let radius = |app: &App| {
        let physics = app.world().resource::<PhysicsWorld>();
        let shape = physics.shapes(body)[0];
        match physics.core().shape(shape).unwrap() {
            bevy_physics2d::physics_core::shape::Shape::Circle(c) => c.radius,
            other => panic!("a circle: {other:?}"),
        }
    };
    support::step(&mut app, 2);
    assert_eq!(radius(&app), 1.0, "twice its size under the parent");
    app.world_mut().entity_mut(body).remove::<ChildOf>();
    support::step(&mut app, 2);
    assert_eq!(radius(&app), 0.5, "its own size once off the parent");
}

/// Regression (found by the plugin operations fuzz target): a kinematic parent given a
/// finite but absurd `LinearVelocity`, (0.2, 1e30), kept it, so the core moved it 2.9e28 m
/// in a step and its child body was refused with a warning about a bad value nobody gave.
/// The core now holds kinematic bodies to the world's speed limit (400 m/s by default), as
/// Box2D v3 does: the parent stays in the world and the child follows it, unwarned.
#[test]
fn regression_a_kinematic_parent_outran_the_speed_limit_and_its_child_was_refused() {
    let mut app = app();
    let parent = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            Collider::circle(0.5),
            Transform::from_xyz(5.0, 2.0, 0.0),
        ))
        .id();
    let child = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            Collider::circle(0.3),
            Transform::from_xyz(-4.0, 3.7, 0.0),
            ChildOf(parent),
        ))
        .id();
    step(&mut app, 2);
    app.world_mut().get_mut::<LinearVelocity>(parent).unwrap().0 = Vec2::new(0.2, 1e30);
    let mut cursor = bevy_ecs::message::MessageCursor::<bevy_physics2d::PhysicsWarning>::default();
    let mut warnings = Vec::new();
    for frame in 0..20 {
        if frame == 10 {
            // The game moves the child within its parent, which places it anew.
            app.world_mut()
                .get_mut::<Transform>(child)
                .unwrap()
                .translation = bevy_math::Vec3::new(4.7, 8.7, 0.0);
        }
        step(&mut app, 1);
        warnings.extend(support::read(&mut app, &mut cursor));
    }
    assert!(warnings.is_empty(), "{warnings:?}");
    let limit = bevy_physics2d::PhysicsSettings::default().max_linear_speed;
    let v = app.world().get::<LinearVelocity>(parent).unwrap().0;
    assert!((v.length() - limit).abs() < 1e-3 * limit, "{v}");
    // 20 steps at the limit: about 133 m up.
    let p = app.world().get::<Transform>(parent).unwrap().translation;
    let expected = 2.0 + 20.0 * limit / HZ as f32;
    assert!((p.y - expected).abs() < 1.0, "{p}");
    let physics = app.world().resource::<PhysicsWorld>();
    assert!(
        physics.body(child).is_some(),
        "the child is still in the world"
    );
}

/// A kinematic child follows its parent as a velocity, and the world's speed limit holds
/// kinematic bodies too: a parent that jumps 100 m in one step takes the child along as a
/// teleport, where following at the limit (400 m/s, 6.7 m a step) would leave it trailing
/// for 15 steps.
#[test]
fn a_kinematic_child_jumps_with_a_parent_that_jumps_past_the_speed_limit() {
    let mut app = app();
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(0.0, 0.0, 0.0))
        .id();
    let child = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            Collider::circle(0.3),
            Transform::from_xyz(1.0, 2.0, 0.0),
            ChildOf(parent),
        ))
        .id();
    step(&mut app, 2);
    // A small move is followed as a velocity, reaching the new pose at the end of the step.
    app.world_mut()
        .get_mut::<Transform>(parent)
        .unwrap()
        .translation
        .x = 1.0;
    step(&mut app, 1);
    let at = core_position(&app, child);
    assert!((at - Vec2::new(2.0, 2.0)).length() < 1e-4, "{at}");
    // A jump of 100 m in one step.
    app.world_mut()
        .get_mut::<Transform>(parent)
        .unwrap()
        .translation
        .x = 101.0;
    step(&mut app, 1);
    let at = core_position(&app, child);
    assert!((at - Vec2::new(102.0, 2.0)).length() < 1e-3, "{at}");
    let local = app.world().get::<Transform>(child).unwrap().translation;
    assert!(
        (local.truncate() - Vec2::new(1.0, 2.0)).length() < 1e-3,
        "{local}"
    );
}
