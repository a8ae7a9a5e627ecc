//! Moving through a recording: forward a step at a time, or to any step.

use super::{RecordedCall, Recording};
use crate::world::{World, WorldError};

/// A recording being played: its world at some step, moved forward call by call and back by
/// replaying from the start (what a viewer stepping through a saved run needs).
///
/// ```
/// use physics_core::prelude::*;
/// use physics_core::world::Replay;
///
/// let mut world = World::new(WorldDef::default()).unwrap();
/// world.start_recording();
/// let ball = world.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
/// for _ in 0..10 {
///     world.step(1.0 / 60.0).unwrap();
/// }
/// let mut replay = Replay::new(world.stop_recording().unwrap()).unwrap();
/// assert!(replay.step_forward());
/// let one_step = replay.world().body_position(ball).unwrap();
/// replay.seek(10).unwrap();
/// assert_eq!(replay.world().state_hash(), world.state_hash());
/// replay.seek(1).unwrap();
/// assert_eq!(replay.world().body_position(ball).unwrap(), one_step);
/// ```
pub struct Replay {
    recording: Recording,
    world: World,
    /// The next call to make.
    next: usize,
    /// Steps made so far.
    step: u64,
}

impl Replay {
    /// Plays `recording` from its start.
    pub fn new(recording: Recording) -> Result<Replay, WorldError> {
        let mut world = World::new(recording.start.def)?;
        world.restore(&recording.start)?;
        Ok(Replay {
            recording,
            world,
            next: 0,
            step: 0,
        })
    }

    /// The world at [`Replay::step`].
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Steps made from the start.
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The recording played.
    pub fn recording(&self) -> &Recording {
        &self.recording
    }

    /// Makes the calls up to and including the next step; `false` at the end (nothing made:
    /// calls recorded after the last step are left out, as [`Recording::replay_steps`]
    /// leaves them).
    pub fn step_forward(&mut self) -> bool {
        let calls = &self.recording.calls[self.next..];
        let Some(end) = calls.iter().position(RecordedCall::ends_step) else {
            return false;
        };
        apply_calls(&calls[..=end], &mut self.world, u64::MAX);
        self.next += end + 1;
        self.step += 1;
        true
    }

    /// Moves to the state right after step `step` (0: the start; past the end: the last
    /// step), as [`Recording::replay_steps`] gives it: forward from here, or back by playing
    /// again from the start.
    pub fn seek(&mut self, step: u64) -> Result<(), WorldError> {
        if step < self.step {
            self.world.restore(&self.recording.start)?;
            self.next = 0;
            self.step = 0;
        }
        while self.step < step && self.step_forward() {}
        Ok(())
    }

    /// The recording back, to save or play again.
    pub fn into_recording(self) -> Recording {
        self.recording
    }
}

/// Makes `calls` on `world` in order until `steps` steps are done.
pub(super) fn apply_calls(calls: &[RecordedCall], world: &mut World, steps: u64) {
    let mut done = 0;
    for call in calls {
        if done == steps {
            break;
        }
        call.apply(world);
        done += u64::from(call.ends_step());
    }
    world.set_pre_solve(None);
}
