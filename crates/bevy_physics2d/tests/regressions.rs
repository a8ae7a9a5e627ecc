//! One test per plugin bug fixed, named after the bug.

mod support;

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_math::Vec3;
use bevy_physics2d::prelude::*;
use support::{app, step};

/// A collider spawned as a child with no `Transform` was silently never created: placing it
/// walks the transforms up to the body, and it had none. `Collider` now requires `Transform`.
#[test]
fn child_collider_spawned_without_a_transform_still_collides() {
    let mut app = app();
    // Terrain as one static body with segment children that carry only a Collider.
    let ground = app
        .world_mut()
        .spawn((RigidBody::Static, Transform::default()))
        .id();
    let segment = app
        .world_mut()
        .spawn((
            Collider::segment(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0)),
            ChildOf(ground),
        ))
        .id();
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            Transform::from_xyz(0.0, 2.0, 0.0),
        ))
        .id();
    step(&mut app, 120);
    assert!(
        app.world()
            .resource::<PhysicsWorld>()
            .shape(segment)
            .is_some()
    );
    let y = app.world().get::<Transform>(ball).unwrap().translation.y;
    // Resting on the segment: centre one radius above it, within the contact slop.
    assert!((y - 0.5).abs() < 0.02, "ball at {y}");
}

/// A collider despawned by an observer of its collision start (a bullet gone on impact)
/// gave the collider it hit no `CollisionEnd`: the Writeback stage forgot the shapes
/// retired in its own command flush, where the end events of the next step look for them.
#[test]
fn collider_despawned_by_a_start_observer_still_ends_the_collision() {
    let mut app = app();
    let target = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(4.0, 1.0),
            CollisionEventsEnabled,
            Transform::default(),
        ))
        .id();
    let bullet = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.2),
            LinearVelocity(Vec2::new(0.0, -10.0)),
            Transform::from_xyz(0.0, 1.5, 0.0),
        ))
        .id();
    app.world_mut().entity_mut(target).observe(
        |start: On<CollisionStart>, mut commands: Commands| {
            commands.entity(start.collider2).despawn();
        },
    );
    let mut cursor = bevy_ecs::message::MessageCursor::<CollisionEnd>::default();
    let mut ends = Vec::new();
    for _ in 0..30 {
        step(&mut app, 1);
        ends.extend(support::read(&mut app, &mut cursor));
    }
    assert!(
        app.world().get_entity(bullet).is_err(),
        "the observer despawned the bullet"
    );
    assert!(
        ends.iter()
            .any(|e| (e.collider1, e.collider2) == (target, bullet)
                || (e.collider1, e.collider2) == (bullet, target)),
        "no end for the despawned bullet: {ends:?}"
    );
}

/// A body built some frames after it was spawned (enabled late, or under a parent that was
/// placed at infinity and came back) moved off at another velocity than the same body built
/// at once. Its colliders, attached after the body, move the centre of mass, and the core
/// keeps the body origin's velocity, so the centre's changes by `ω × Δc`; a body built in its
/// spawn frame had its `LinearVelocity` applied again by the motion stage (the component had
/// just been added), one built later did not. A rollback restore, which marks the component
/// changed, then gave a replay other bits than the first run (found by the
/// `plugin_operations` fuzz target). Now every body built in a step takes its components'
/// velocities at its centre of mass, once its colliders and mass are in place.
#[test]
fn regression_a_body_built_late_took_another_velocity_than_one_built_at_once() {
    let mut app = app();
    let (v, w) = (Vec2::new(2.0, 0.0), 3.0);
    let spawn_body = |app: &mut App, at: Vec3| {
        let body = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                LinearVelocity(v),
                AngularVelocity(w),
                GravityScale(0.0),
                Transform::from_translation(at),
            ))
            .id();
        // The collider 0.6 m off the body's origin, so the centre of mass is there.
        app.world_mut().spawn((
            Collider::circle(0.25),
            Transform::from_xyz(0.6, 0.0, 0.0),
            ChildOf(body),
        ));
        body
    };
    let at_once = spawn_body(&mut app, Vec3::new(-10.0, 5.0, 0.0));
    let enabled_late = spawn_body(&mut app, Vec3::new(0.0, 5.0, 0.0));
    app.world_mut()
        .entity_mut(enabled_late)
        .insert(RigidBodyDisabled);
    // The same two spawned asleep: both are woken by the velocity they are given.
    let asleep_at_once = spawn_body(&mut app, Vec3::new(-10.0, 10.0, 0.0));
    let asleep_late = spawn_body(&mut app, Vec3::new(0.0, 10.0, 0.0));
    app.world_mut().entity_mut(asleep_at_once).insert(Sleeping);
    app.world_mut()
        .entity_mut(asleep_late)
        .insert((Sleeping, RigidBodyDisabled));
    let parent = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Transform::from_xyz(f32::INFINITY, 0.0, 0.0),
        ))
        .id();
    let under_parent = spawn_body(&mut app, Vec3::new(0.0, 5.0, 0.0));
    app.world_mut()
        .entity_mut(under_parent)
        .insert(ChildOf(parent));
    step(&mut app, 1);
    let velocity = |app: &App, e: Entity| app.world().get::<LinearVelocity>(e).unwrap().0;
    // No gravity, nothing to touch: one step leaves the centre of mass moving as given.
    // The angular velocity turns the vector by ω·dt = 0.05 rad in a step only if it is read
    // at another point than the centre; the tolerance is the float rounding of one step.
    let close = |got: Vec2| (got - v).abs().max_element() < 1e-5;
    let built = |app: &App, e: Entity| app.world().resource::<PhysicsWorld>().body(e).is_some();
    for e in [at_once, asleep_at_once] {
        assert!(close(velocity(&app, e)), "{e}: {}", velocity(&app, e));
        assert!(app.world().get::<Sleeping>(e).is_none());
    }
    for late in [enabled_late, asleep_late, under_parent] {
        assert!(!built(&app, late));
    }
    for late in [enabled_late, asleep_late] {
        app.world_mut()
            .entity_mut(late)
            .remove::<RigidBodyDisabled>();
    }
    app.world_mut()
        .entity_mut(parent)
        .insert(Transform::from_xyz(10.0, 0.0, 0.0));
    step(&mut app, 1);
    for late in [enabled_late, asleep_late, under_parent] {
        assert!(built(&app, late));
        let got = velocity(&app, late);
        assert!(close(got), "{late}: {got}, built at once: {v}");
        assert!(app.world().get::<Sleeping>(late).is_none());
    }
}
