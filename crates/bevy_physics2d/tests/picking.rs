//! The bevy_picking backend: a pointer's ray finds the colliders under it.
#![cfg(feature = "picking")]

mod support;

use bevy_camera::Camera;
use bevy_ecs::message::MessageCursor;
use bevy_math::{Dir3, Ray3d, Vec3};
use bevy_physics2d::PhysicsPickingPlugin;
use bevy_physics2d::prelude::*;
use bevy_picking::backend::PointerHits;
use bevy_picking::backend::ray::{RayId, RayMap};
use bevy_picking::pointer::PointerId;
use support::{app, step};

#[test]
fn a_pointer_over_a_collider_hits_it_and_empty_space_hits_nothing() {
    let mut app = app();
    app.add_plugins(PhysicsPickingPlugin)
        .add_message::<PointerHits>()
        .init_resource::<RayMap>();
    let camera = app.world_mut().spawn(Camera::default()).id();
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::circle(1.0),
            Transform::from_xyz(3.0, 2.0, 0.0),
        ))
        .id();
    let trigger = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(2.0, 2.0),
            Sensor,
            Transform::from_xyz(3.5, 2.0, 0.0),
        ))
        .id();
    step(&mut app, 1);
    let mut cursor = MessageCursor::<PointerHits>::default();
    let mut pick_at = |app: &mut bevy_app::App, x: f32, y: f32| {
        let ray = Ray3d::new(Vec3::new(x, y, 10.0), Dir3::NEG_Z);
        let mut rays = app.world_mut().resource_mut::<RayMap>();
        rays.map.clear();
        rays.map.insert(RayId::new(camera, PointerId::Mouse), ray);
        app.update();
        support::read(app, &mut cursor)
    };
    // Over the ball and the sensor: both, on the plane 10 units down the ray.
    let hits = pick_at(&mut app, 3.3, 2.2);
    assert_eq!(hits.len(), 1);
    let mut picked: Vec<_> = hits[0].picks.iter().map(|(e, _)| *e).collect();
    picked.sort();
    let mut expected = vec![ball, trigger];
    expected.sort();
    assert_eq!(picked, expected);
    let data = &hits[0].picks[0].1;
    assert_eq!(data.camera, camera);
    assert!((data.depth - 10.0).abs() < 1e-5);
    assert_eq!(data.position, Some(Vec3::new(3.3, 2.2, 0.0)));
    // Just outside the ball's left edge and the sensor: nothing.
    assert!(pick_at(&mut app, 1.9, 2.0).is_empty());
}
