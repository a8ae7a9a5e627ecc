//! The physics clock, `Time<Physics>`: pause, single steps and slow motion for the physics
//! alone, while the rest of the game (animation, UI, input) keeps its own time.
//!
//! Every physics step advances it by the schedule's time step (the fixed step in
//! `FixedPostUpdate`) times its relative speed, and the stages integrate by its delta. At a
//! relative speed of 0.5 each step covers half the time, so the world takes twice the frames
//! to get as far, and the fixed steps, interpolation and input keep their rate.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use bevy_time::Time;
use std::time::Duration;

/// The context of the physics clock `Time<Physics>` (a Bevy [`Time`] like `Time<Virtual>`).
/// Use it through the [`PhysicsTime`] methods.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
/// use bevy_time::Time;
///
/// // Space pauses, N steps once while paused, T toggles half speed: the testbed's controls.
/// fn controls(keys: Res<Keys>, mut time: ResMut<Time<Physics>>) {
///     if keys.pause { time.toggle_pause(); }
///     if keys.step { time.step_once(); }
///     if keys.slow {
///         let speed = if time.relative_speed() == 1.0 { 0.5 } else { 1.0 };
///         time.set_relative_speed(speed);
///     }
/// }
/// # #[derive(Resource)] struct Keys { pause: bool, step: bool, slow: bool }
/// # bevy_ecs::system::assert_is_system(controls);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
pub struct Physics {
    paused: bool,
    relative_speed: f64,
    queued_steps: u32,
}

impl Default for Physics {
    fn default() -> Self {
        Physics {
            paused: false,
            relative_speed: 1.0,
            queued_steps: 0,
        }
    }
}

/// Pause, single-step and speed controls of the physics clock `Time<Physics>`.
pub trait PhysicsTime {
    /// Stops the physics: no step runs (unless queued with [`PhysicsTime::step_once`]);
    /// components keep their values and interpolation shows the last step's poses, still.
    fn pause(&mut self);
    /// Lets the physics run again.
    fn unpause(&mut self);
    /// Pauses when running, runs when paused.
    fn toggle_pause(&mut self);
    /// True while paused.
    fn is_paused(&self) -> bool;
    /// While paused, runs one more step at the next physics step (a single step for a
    /// debugger or an editor), shown exactly as it ends. Ignored while running.
    fn step_once(&mut self);
    /// Steps queued while paused and not yet run.
    fn queued_steps(&self) -> u32;
    /// How fast simulated time runs against the schedule's (1 by default).
    fn relative_speed(&self) -> f64;
    /// Sets the relative speed: 0.5 is half speed (slow motion), 2 double. A value that is
    /// not a finite number of zero or more is ignored with a warning; zero stops the steps
    /// as pausing does.
    fn set_relative_speed(&mut self, speed: f64);
}

impl PhysicsTime for Time<Physics> {
    fn pause(&mut self) {
        self.context_mut().paused = true;
    }

    fn unpause(&mut self) {
        let context = self.context_mut();
        context.paused = false;
        context.queued_steps = 0;
    }

    fn toggle_pause(&mut self) {
        if self.is_paused() {
            self.unpause();
        } else {
            self.pause();
        }
    }

    fn is_paused(&self) -> bool {
        self.context().paused
    }

    fn step_once(&mut self) {
        if self.is_paused() {
            self.context_mut().queued_steps += 1;
        }
    }

    fn queued_steps(&self) -> u32 {
        self.context().queued_steps
    }

    fn relative_speed(&self) -> f64 {
        self.context().relative_speed
    }

    fn set_relative_speed(&mut self, speed: f64) {
        if !speed.is_finite() || speed < 0.0 {
            bevy_log::warn!("physics: relative speed {speed} ignored; it must be 0 or more");
            return;
        }
        self.context_mut().relative_speed = speed;
    }
}

/// Advances the physics clock for this step by the schedule's delta times the relative
/// speed, or by nothing while paused with no step queued (first in the Prepare stage's
/// runner, whether the stages then run or not).
pub(crate) fn advance_physics_time(world: &mut World) {
    let schedule_delta = world.resource::<Time>().delta();
    let mut time = world.resource_mut::<Time<Physics>>();
    let context = *time.context();
    let runs = !context.paused || context.queued_steps > 0;
    let delta = if runs {
        schedule_delta.mul_f64(context.relative_speed)
    } else {
        Duration::ZERO
    };
    time.advance_by(delta);
}

/// Whether the stages run: not paused (or a step queued) and a relative speed above zero.
pub(crate) fn physics_running(time: &Time<Physics>) -> bool {
    let context = time.context();
    (!context.paused || context.queued_steps > 0) && context.relative_speed > 0.0
}

/// A queued step taken while paused is used up (last in the Writeback stage's runner).
pub(crate) fn take_queued_step(time: &mut Time<Physics>) {
    let context = time.context_mut();
    if context.paused && context.queued_steps > 0 {
        context.queued_steps -= 1;
    }
}
