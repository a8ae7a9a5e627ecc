//! The physics clock `Time<Physics>`: relative speed and pausing for the physics alone.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_physics2d::prelude::*;
use bevy_time::{Time, Virtual};
use std::time::Duration;

/// Without interpolation, so `Transform` is the pose the last step ended with.
fn app() -> App {
    support::app_with(false, Duration::from_secs_f64(1.0 / support::HZ))
}

fn drop_ball(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.25),
            Transform::from_xyz(0.0, 100.0, 0.0),
        ))
        .id()
}

fn fallen(app: &App, ball: Entity) -> f32 {
    100.0 - app.world().get::<Transform>(ball).unwrap().translation.y
}

fn physics_elapsed(app: &App) -> Duration {
    app.world().resource::<Time<Physics>>().elapsed()
}

#[test]
fn half_speed_takes_twice_the_frames_to_cover_the_same_simulated_time() {
    let frames = 60;
    let mut normal = app();
    normal
        .world_mut()
        .resource_mut::<Time<Physics>>()
        .set_relative_speed(1.0);
    let ball = drop_ball(&mut normal);
    let start = physics_elapsed(&normal);
    for _ in 0..frames {
        normal.update();
    }
    let normal_time = physics_elapsed(&normal) - start;

    let mut slow = app();
    slow.world_mut()
        .resource_mut::<Time<Physics>>()
        .set_relative_speed(0.5);
    let slow_ball = drop_ball(&mut slow);
    let (start, game_start) = (
        physics_elapsed(&slow),
        slow.world().resource::<Time<Virtual>>().elapsed(),
    );
    for _ in 0..frames {
        slow.update();
    }
    let half = physics_elapsed(&slow) - start;
    // The same frames cover half the simulated time: the ball has fallen about a quarter as
    // far (d = g t^2 / 2; the step length changes the integration error only, well under
    // a few centimetres here).
    assert!(
        (half.as_secs_f64() - normal_time.as_secs_f64() / 2.0).abs() < 1e-6,
        "{half:?} against {normal_time:?}"
    );
    let quarter = fallen(&slow, slow_ball) / fallen(&normal, ball);
    assert!((quarter - 0.25).abs() < 0.02, "fell {quarter} as far");
    // Twice the frames catch up: the same simulated time, the same fall within the
    // integration error of the halved step. Explicit Euler over T = 1 s in substeps of h
    // falls g T^2 / 2 + g T h / 2; h halves from 1/240 s, a difference of g T / 960 = 1 cm.
    for _ in 0..frames {
        slow.update();
    }
    let full = physics_elapsed(&slow) - start;
    assert!((full.as_secs_f64() - normal_time.as_secs_f64()).abs() < 1e-6);
    let (d_slow, d_normal) = (fallen(&slow, slow_ball), fallen(&normal, ball));
    assert!(
        (d_slow - d_normal).abs() < 0.02,
        "{d_slow} against {d_normal}"
    );
    // The game's own clock ran at full speed all along.
    let game = slow.world().resource::<Time<Virtual>>().elapsed() - game_start;
    assert!((game.as_secs_f64() - 2.0 * normal_time.as_secs_f64()).abs() < 1e-6);
}

#[test]
fn a_paused_clock_stops_the_physics_but_not_the_game_and_a_bad_speed_is_refused() {
    let mut app = app();
    let ball = drop_ball(&mut app);
    support::step(&mut app, 5);
    app.world_mut().resource_mut::<Time<Physics>>().pause();
    let (held, steps, game) = (
        fallen(&app, ball),
        app.world().resource::<PhysicsWorld>().step_count(),
        app.world().resource::<Time<Virtual>>().elapsed(),
    );
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(fallen(&app, ball), held);
    assert_eq!(app.world().resource::<PhysicsWorld>().step_count(), steps);
    assert!(app.world().resource::<Time<Virtual>>().elapsed() > game);
    let mut time = app.world_mut().resource_mut::<Time<Physics>>();
    time.set_relative_speed(f64::NAN);
    time.set_relative_speed(-1.0);
    assert_eq!(time.relative_speed(), 1.0);
    time.unpause();
    support::step(&mut app, 1);
    assert!(fallen(&app, ball) > held);
}
