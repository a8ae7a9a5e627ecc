//! Settings (pause, length unit), joints breaking under load, and contact data of a pair.

mod support;

use bevy_ecs::message::MessageCursor;
use bevy_math::{Vec2, Vec3};
use bevy_physics2d::prelude::*;
use bevy_physics2d::{JointBreakReason, JointBroken};
use support::{app, read, step, steps_taken};

#[test]
fn pausing_stops_the_steps_and_resuming_continues_them() {
    let mut app = app();
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            Transform::from_xyz(0.0, 5.0, 0.0),
        ))
        .id();
    step(&mut app, 10);
    app.world_mut()
        .resource_mut::<bevy_time::Time<Physics>>()
        .pause();
    let (before, taken) = (
        *app.world().get::<LinearVelocity>(body).unwrap(),
        steps_taken(&app),
    );
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(steps_taken(&app), taken);
    assert_eq!(*app.world().get::<LinearVelocity>(body).unwrap(), before);
    app.world_mut()
        .resource_mut::<bevy_time::Time<Physics>>()
        .unpause();
    step(&mut app, 1);
    assert!(app.world().get::<LinearVelocity>(body).unwrap().0.y < before.0.y);
}

/// Drops a box of `size` from `height` onto a ground of the same scale and returns the time
/// it took to come to rest on it and its resting height.
fn drop_box(units_per_meter: f32) -> (u64, f32) {
    let mut app = app();
    *app.world_mut().resource_mut::<PhysicsSettings>() =
        PhysicsSettings::with_length_unit(units_per_meter);
    let s = units_per_meter;
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(20.0 * s, s),
        Transform::from_xyz(0.0, -0.5 * s, 0.0),
    ));
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(s, s),
            Transform::from_xyz(0.0, 2.0 * s, 0.0),
        ))
        .id();
    let mut landed = None;
    for i in 0..180 {
        step(&mut app, 1);
        let y = app.world().get::<Transform>(body).unwrap().translation.y;
        if landed.is_none() && y < 0.51 * s {
            landed = Some(i);
        }
    }
    let y = app
        .world()
        .get::<bevy_physics2d::InterpolationPoses>(body)
        .unwrap()
        .physics_pose()
        .0
        .y;
    (landed.expect("the box landed"), y / s)
}

#[test]
fn a_game_in_pixels_behaves_like_one_in_metres() {
    let (steps_m, rest_m) = drop_box(1.0);
    let (steps_px, rest_px) = drop_box(100.0);
    // The same fall time to the step, and the same resting height in metres (both within the
    // engine's linear slop, 0.005 m, of half the box's height).
    assert_eq!(steps_m, steps_px);
    assert!(
        (rest_m - 0.5).abs() < 0.005 && (rest_px - 0.5).abs() < 0.005,
        "{rest_m} {rest_px}"
    );
}

#[test]
fn an_overloaded_joint_breaks_once_with_an_event_and_lets_go() {
    let mut app = app();
    let anchor = app
        .world_mut()
        .spawn((RigidBody::Static, Transform::from_xyz(0.0, 5.0, 0.0)))
        .id();
    // A 1 m^2 box of density 50 hangs on a joint that holds at most 100 N: its weight (about
    // 490 N) breaks it at once.
    let weight = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            ColliderDensity(50.0),
            Transform::from_xyz(0.0, 4.0, 0.0),
        ))
        .id();
    let joint = app
        .world_mut()
        .spawn(
            Joint::revolute(anchor, weight)
                .with_anchor(Vec2::new(0.0, 5.0))
                .with_break_force(100.0),
        )
        .id();
    let mut cursor = MessageCursor::<JointBroken>::default();
    let mut events = Vec::new();
    for _ in 0..30 {
        step(&mut app, 1);
        events.extend(read(&mut app, &mut cursor));
    }
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].joint, joint);
    let JointBreakReason::Overloaded { force, .. } = events[0].reason else {
        panic!("{:?}", events[0].reason);
    };
    assert!(force.length() > 100.0);
    // Half a second of free fall after the break: well below the anchor.
    let y = app.world().get::<Transform>(weight).unwrap().translation.y;
    assert!(y < 3.0, "{y}");
}

#[test]
fn contact_data_of_a_pair_reports_the_resting_weight() {
    let mut app = app();
    let ground = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(10.0, 1.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ))
        .id();
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Transform::from_translation(Vec3::new(0.0, 0.5, 0.0)),
        ))
        .id();
    step(&mut app, 60);
    let physics = app.world().resource::<PhysicsWorld>();
    let data = physics.contact_pair(body, ground).expect("they touch");
    // Normal from the first collider given (the box) to the second (the ground): down.
    assert!((data.manifold.normal - Vec2::NEG_Y).length() < 1e-3);
    // The stored impulses are those of one substep (4 per step), and they hold the 1 kg box
    // up: m g dt / 4 in total.
    let total: f32 = data
        .manifold
        .points()
        .iter()
        .map(|p| p.normal_impulse)
        .sum();
    let expected = 9.81 / 60.0 / 4.0;
    assert!(
        (total / expected - 1.0).abs() < 0.05,
        "{total} vs {expected}"
    );
    assert!(
        physics
            .contact_pairs()
            .iter()
            .any(|(a, b, _)| { (*a, *b) == (body, ground) || (*a, *b) == (ground, body) })
    );
}
