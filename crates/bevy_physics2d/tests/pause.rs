//! Paused means still: no interpolation drift on screen while paused, and a step taken while
//! paused is shown exactly as it ends.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{InterpolationPoses, PhysicsBody};
use bevy_time::Time;
use std::time::Duration;

/// Frames at 144 Hz over a 60 Hz physics step, interpolation on: a ball thrown sideways.
fn app_at_144_hz() -> (App, Entity) {
    let mut app = support::app_with(true, Duration::from_secs_f64(1.0 / 144.0));
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            Transform::from_xyz(0.0, 10.0, 0.0),
            LinearVelocity(Vec2::new(3.0, 0.0)),
        ))
        .id();
    for _ in 0..50 {
        app.update();
    }
    (app, ball)
}

fn shown(app: &App, ball: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(ball)
        .unwrap()
        .translation
        .truncate()
}

fn steps(app: &App) -> u64 {
    app.world().resource::<PhysicsWorld>().step_count()
}

#[test]
fn a_paused_world_stays_still_on_screen() {
    let (mut app, ball) = app_at_144_hz();
    app.world_mut().resource_mut::<Time<Physics>>().pause();
    app.update();
    let first = shown(&app, ball);
    let paused_at = steps(&app);
    for frame in 0..30 {
        app.update();
        let p = shown(&app, ball);
        assert!(
            (p - first).length() < 1e-4,
            "frame {frame}: shown at {p}, paused at {first}"
        );
    }
    assert_eq!(steps(&app), paused_at);
    // What is shown is the last step's pose, not a blend short of it.
    let poses = app.world().get::<InterpolationPoses>(ball).unwrap();
    assert_eq!(first, poses.physics_pose().0.truncate());
}

#[test]
fn a_step_taken_while_paused_is_shown_exactly_as_it_ends() {
    let (mut app, ball) = app_at_144_hz();
    app.world_mut().resource_mut::<Time<Physics>>().pause();
    for _ in 0..5 {
        app.update();
    }
    let paused_at = steps(&app);
    app.world_mut().resource_mut::<Time<Physics>>().step_once();
    // Until the next fixed step comes due (at 144 Hz, within three frames), then held.
    let mut stepped_in = None;
    for frame in 0..10 {
        app.update();
        if steps(&app) > paused_at && stepped_in.is_none() {
            stepped_in = Some(frame);
            let id = app.world().get::<PhysicsBody>(ball).unwrap().id();
            let physics = app.world().resource::<PhysicsWorld>();
            let core = physics.to_game(physics.core().body_position(id).unwrap());
            assert_eq!(shown(&app, ball), core, "the new pose, not a blend");
        }
    }
    assert!(
        stepped_in.is_some_and(|f| f < 3),
        "stepped in frame {stepped_in:?}"
    );
    assert_eq!(steps(&app), paused_at + 1, "one step, then held");
    let time = app.world().resource::<Time<Physics>>();
    assert!(time.is_paused() && time.queued_steps() == 0);
}
