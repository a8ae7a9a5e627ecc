//! Render-frame interpolation: the raw physics pose is kept apart, and a frame between two
//! steps shows the blend of their poses.

mod support;

use bevy_physics2d::prelude::*;
use bevy_time::Time;
use support::app;
use support::dt;
use support::spawn_box;
use support::step;

#[test]
fn transform_interpolation_is_off_in_the_raw_pose_but_smooth_between_steps() {
    let mut app = app();
    let body = spawn_box(&mut app, 0.0, 10.0);
    step(&mut app, 5);
    // One update of a full step: the shown pose is the blend at the overstep (zero here), so
    // it equals the pose before the last step, never a pose the physics did not produce.
    let poses = *app
        .world()
        .get::<bevy_physics2d::InterpolationPoses>(body)
        .unwrap();
    let shown = app.world().get::<Transform>(body).unwrap().translation;
    let physics = poses.physics_pose().0;
    assert!(shown.y >= physics.y, "shown {shown} physics {physics}");
    assert!(
        shown.y - physics.y < 0.2,
        "at most one step behind: {shown} vs {physics}"
    );
}

#[test]
fn a_frame_a_quarter_step_into_the_next_shows_a_quarter_of_the_way() {
    // Frames of a quarter step: between physics steps the shown pose is the blend of the
    // last two physics poses at the time run into the next step. A body gliding at 6 m/s
    // in zero gravity is shown at previous + alpha (current - previous), alpha the overstep
    // fraction (1/4, 1/2, 3/4, then a step): swapping the two poses or ignoring alpha is caught at
    // the quarters, where the blend is not symmetric.
    let step_time = std::time::Duration::from_secs_f64(1.0 / support::HZ);
    let mut app = support::app_with(true, step_time / 4);
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = bevy_math::Vec2::ZERO;
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.25),
            LinearVelocity(bevy_math::Vec2::new(6.0, 0.0)),
            Transform::default(),
        ))
        .id();
    let mut alphas = Vec::new();
    for _ in 0..40 {
        app.update();
        let Some(poses) = app
            .world()
            .get::<bevy_physics2d::InterpolationPoses>(body)
            .copied()
        else {
            continue;
        };
        let alpha = app
            .world()
            .resource::<bevy_time::Time<bevy_time::Fixed>>()
            .overstep_fraction();
        let (previous, current) = (poses.previous_pose().0.x, poses.physics_pose().0.x);
        if current == previous {
            continue;
        }
        let shown = app.world().get::<Transform>(body).unwrap().translation.x;
        let expected = previous + alpha * (current - previous);
        assert!(
            (shown - expected).abs() < 1e-5,
            "alpha {alpha}: shown {shown}, expected {expected} between {previous} and {current}"
        );
        // One step apart at 6 m/s.
        assert!((current - previous - 6.0 * dt(&app)).abs() < 1e-5);
        alphas.push((alpha * 4.0).round() as i32);
    }
    // (The step boundary itself falls on alpha 1 or 0 by rounding; the quarters between
    // are the ones that tell the blend's direction.)
    for quarter in 1..4 {
        assert!(
            alphas.contains(&quarter),
            "no frame at alpha {quarter}/4: {alphas:?}"
        );
    }
}

/// Regression (found by the plugin operations fuzz check in `crates/fuzz_checks`): a body
/// refused for a bad value after it had been in the physics world kept the poses of its last
/// core body, and interpolation went on blending them into its `Transform`, overwriting what
/// the game wrote there (here a NaN, which the game must mend itself) and later building the
/// body at that stale place. Now only bodies in the world blend.
#[test]
fn regression_a_refused_body_was_dragged_back_by_its_old_poses() {
    let mut app = support::app();
    support::ground_20m(&mut app);
    let body = support::spawn_box(&mut app, 0.0, 6.0);
    support::step(&mut app, 10);
    // Disabled while paused: nothing is blended, and the last blend is taken back.
    app.world_mut().entity_mut(body).insert(RigidBodyDisabled);
    app.world_mut().resource_mut::<Time<Physics>>().pause();
    app.update();
    let nowhere = Transform::from_xyz(f32::NAN, 7.0, 0.0);
    app.world_mut().entity_mut(body).insert(nowhere);
    app.world_mut()
        .entity_mut(body)
        .remove::<RigidBodyDisabled>();
    app.world_mut().resource_mut::<Time<Physics>>().unpause();
    for _ in 0..3 {
        support::step(&mut app, 1);
        let now = app.world().get::<Transform>(body).unwrap().translation;
        assert!(
            now.x.is_nan(),
            "the game's value stays until it mends it: {now}"
        );
        assert!(app.world().resource::<PhysicsWorld>().body(body).is_none());
    }
    // Mended, it is built where the game put it and falls from there.
    let placed = Transform::from_xyz(3.0, 7.0, 0.0);
    app.world_mut().entity_mut(body).insert(placed);
    support::step(&mut app, 3);
    let at = app.world().get::<Transform>(body).unwrap().translation;
    assert!(
        (at.x - 3.0).abs() < 1e-4 && at.y < 7.0 && at.y > 6.9,
        "falls from (3, 7): {at}"
    );
}
