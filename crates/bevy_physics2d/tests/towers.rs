//! Awake towers through the plugin (issue 28): the ECS path must stand as the core does.

mod support;

use bevy_physics2d::PhysicsSettings;
use bevy_physics2d::prelude::*;
use support::{app, step};

/// Twenty `Collider::rectangle(1.0, 1.0)` boxes stacked on a static ground with sleeping off:
/// before recycled manifolds kept their anchors (as Box2D v3 keeps them) the tower toppled
/// and its top box ended 60 m away after 30 s. Box2D holds the same tower within 2 cm; the
/// top box must stay within 10 cm of its column for the whole half minute.
#[test]
fn an_awake_tower_of_twenty_rectangles_stands_for_thirty_seconds() {
    let mut app = app();
    app.world_mut()
        .resource_mut::<PhysicsSettings>()
        .enable_sleep = false;
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(40.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let boxes: Vec<_> = (0..20)
        .map(|i| {
            app.world_mut()
                .spawn((
                    RigidBody::Dynamic,
                    Collider::rectangle(1.0, 1.0),
                    Transform::from_xyz(0.0, 0.5 + i as f32, 0.0),
                ))
                .id()
        })
        .collect();
    let top = *boxes.last().unwrap();
    let mut worst = 0.0f32;
    for _ in 0..30 * 60 {
        step(&mut app, 1);
        let x = app.world().get::<Transform>(top).unwrap().translation.x;
        worst = worst.max(x.abs());
    }
    assert!(worst < 0.1, "the top box strayed {worst} m sideways");
    let awake = app
        .world()
        .resource::<PhysicsWorld>()
        .core()
        .awake_body_count();
    assert_eq!(awake, 20, "the tower was meant to stay awake");
}
