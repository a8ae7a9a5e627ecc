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
    app.world()
        .resource::<PhysicsWorld>()
        .core()
        .body_position(id)
        .unwrap()
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
