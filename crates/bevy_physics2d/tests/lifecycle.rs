//! Bodies coming and going: despawning cleans up the core world, and changing the body type
//! rebuilds the body with its colliders and joints.

mod support;

use bevy_ecs::message::MessageCursor;
use bevy_physics2d::physics_core::math::Rot;
use bevy_physics2d::prelude::*;
use support::app;
use support::core_pose;
use support::read;
use support::spawn_box;
use support::step;

#[test]
fn despawning_cleans_up_the_core_world_and_breaks_joints_with_an_event() {
    let mut app = app();
    let anchor = app
        .world_mut()
        .spawn((RigidBody::Static, Transform::from_xyz(0.0, 5.0, 0.0)))
        .id();
    // A compound body: two child colliders.
    let bob = app
        .world_mut()
        .spawn((RigidBody::Dynamic, Transform::from_xyz(1.0, 5.0, 0.0)))
        .with_children(|c| {
            c.spawn((Collider::circle(0.25), Transform::from_xyz(-0.3, 0.0, 0.0)));
            c.spawn((Collider::circle(0.25), Transform::from_xyz(0.3, 0.0, 0.0)));
        })
        .id();
    let joint = app
        .world_mut()
        .spawn(Joint::revolute(anchor, bob).with_anchor(bevy_math::Vec2::new(0.0, 5.0)))
        .id();
    step(&mut app, 2);
    {
        let physics = app.world().resource::<PhysicsWorld>();
        let core = physics.core();
        assert_eq!(
            (core.body_count(), core.shape_count(), core.joint_count()),
            (2, 2, 1)
        );
        // Two disks of radius 0.25 at density 1.
        let mass = core
            .body_mass_data(physics.body(bob).unwrap())
            .unwrap()
            .mass;
        assert!((mass - 2.0 * std::f32::consts::PI * 0.0625).abs() < 1e-4);
    }
    let mut broken = MessageCursor::<JointBroken>::default();
    app.world_mut().entity_mut(bob).despawn();
    step(&mut app, 1);
    let events = read(&mut app, &mut broken);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].joint, joint);
    let physics = app.world().resource::<PhysicsWorld>();
    let core = physics.core();
    assert_eq!(
        (core.body_count(), core.shape_count(), core.joint_count()),
        (1, 0, 0)
    );
    assert!(physics.joint(joint).is_none() && physics.body(bob).is_none());
    // The joint entity is still there, with its component, for the game to inspect.
    assert!(app.world().get::<Joint>(joint).is_some());
}

#[test]
fn changing_the_body_type_rebuilds_it_with_its_colliders_and_joints() {
    let mut app = app();
    let a = spawn_box(&mut app, 0.0, 5.0);
    let b = spawn_box(&mut app, 2.0, 5.0);
    app.world_mut().spawn(Joint::distance(a, b));
    step(&mut app, 1);
    *app.world_mut().get_mut::<RigidBody>(a).unwrap() = RigidBody::Static;
    step(&mut app, 60);
    let physics = app.world().resource::<PhysicsWorld>();
    let core = physics.core();
    assert_eq!(
        (core.body_count(), core.shape_count(), core.joint_count()),
        (2, 2, 1)
    );
    // A is now fixed where it was; B hangs at the rod's length.
    let pa = core_pose(&app, a).p;
    let pb = core_pose(&app, b).p;
    assert!(
        pa.y > 4.9 && pa.y < 5.0,
        "static A stayed near where it was: {pa}"
    );
    assert!(((pb - pa).length() - 2.0).abs() < 0.01, "{pa} {pb}");
    let _ = Rot::IDENTITY;
}
