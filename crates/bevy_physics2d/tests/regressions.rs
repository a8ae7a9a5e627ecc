//! One test per plugin bug fixed, named after the bug.

mod support;

use bevy_ecs::prelude::*;
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
