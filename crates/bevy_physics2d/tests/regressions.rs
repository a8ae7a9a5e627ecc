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
