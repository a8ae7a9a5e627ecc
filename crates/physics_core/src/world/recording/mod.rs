//! Recording a world and replaying it: a snapshot taken when recording starts, then every
//! world-changing call in order, so a run can be saved when something odd happens and
//! stepped through again, bit for bit.
//!
//! Each world-changing method notes its call (with its arguments) as it is entered, before it
//! checks them. A refused call changes nothing, and replaying it from the same state refuses
//! it again, so replay applies every call and ignores refusals. A call made inside another
//! (the stages inside [`World::step`]) is not noted twice: the outer call stands for it.
//! What the host decides during a step is noted with the call that asked: the pairs a
//! [`World::update_pairs_filtered`] filter refused, the contacts a pre-solve hook turned off
//! and what a [`World::collide_modified`] modifier changed. Replay answers with those
//! decisions, so it needs neither the hook nor the closures. The task runner and the contact
//! lanes change no bits and are not recorded.
//!
//! The recording belongs to the caller once [`World::stop_recording`] hands it over; it can
//! be written with [`Recording::to_bytes`] and read back with [`Recording::from_bytes`].

mod calls;
mod replay;

pub(crate) use calls::{ModifiedContact, RecordedCall};
pub use replay::Replay;

use super::{World, WorldError, WorldSnapshot};
use crate::id::ShapeId;
use serde::{Deserialize, Serialize};

/// First bytes of [`Recording::to_bytes`]: a tag and the format version.
const MAGIC: &[u8; 4] = b"P2DR";
/// Bumped whenever a recorded call changes shape (2: world defs and snapshots with the
/// carried mass fraction; 3: with the deeper-point-first switch).
const FORMAT_VERSION: u8 = 3;
/// Deflate effort (as snapshots use).
const DEFLATE_LEVEL: u8 = 3;
/// Most bytes decoding may claim for one recording (1 GiB).
const DECODE_LIMIT: usize = 1 << 30;

/// A world's state when recording started and every world-changing call since.
///
/// ```
/// use physics_core::prelude::*;
///
/// let mut world = World::new(WorldDef::default()).unwrap();
/// world.start_recording();
/// let ball = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 4.0))).unwrap();
/// let circle = Circle::new(Vec2::ZERO, 0.5).unwrap().into();
/// world.create_shape(ball, &ShapeDef::default(), circle).unwrap();
/// for _ in 0..60 {
///     world.step(1.0 / 60.0).unwrap();
/// }
/// let recording = world.stop_recording().unwrap();
/// // Saved to bytes and read back, it replays to the same bits.
/// let read = Recording::from_bytes(&recording.to_bytes()).unwrap();
/// assert_eq!(read.replay().unwrap().state_hash(), world.state_hash());
/// // Or only its first 30 steps, to look at the run halfway.
/// assert_eq!(read.step_count(), 60);
/// let halfway = read.replay_steps(30).unwrap();
/// assert!(halfway.body_position(ball).unwrap().y > world.body_position(ball).unwrap().y);
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Recording {
    start: WorldSnapshot,
    calls: Vec<RecordedCall>,
}

/// A recording in progress, kept by the world.
#[derive(Debug)]
pub(in crate::world) struct Recorder {
    recording: Recording,
    /// Inside [`World::step`]: its stages are not noted on their own.
    in_step: bool,
}

impl Recording {
    /// The state recording started from.
    pub fn start(&self) -> &WorldSnapshot {
        &self.start
    }

    /// Number of calls recorded.
    pub fn call_count(&self) -> usize {
        self.calls.len()
    }

    /// Number of steps recorded: calls of [`World::step`], and of [`World::finalize`] for a
    /// host that runs the stages one by one.
    pub fn step_count(&self) -> u64 {
        self.calls.iter().filter(|c| c.ends_step()).count() as u64
    }

    /// A new world in the recorded state at the end.
    pub fn replay(&self) -> Result<World, WorldError> {
        self.replay_steps(u64::MAX)
    }

    /// A new world in the recorded state right after its `steps`-th step (the calls made
    /// after that step are not made; 0 gives the state recording started from); past the
    /// end, the state at the end. Stepping back through a recording is replaying one step
    /// fewer ([`Replay`] keeps the world between moves).
    pub fn replay_steps(&self, steps: u64) -> Result<World, WorldError> {
        let mut world = World::new(self.start.def)?;
        world.restore(&self.start)?;
        replay::apply_calls(&self.calls, &mut world, steps);
        Ok(world)
    }

    /// A compact binary encoding: the calls and the starting snapshot in bincode, deflated,
    /// behind a 4-byte tag, a version byte and an 8-byte checksum of the deflated bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let encoded = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("a recording always encodes");
        super::framed::frame(MAGIC, FORMAT_VERSION, &encoded, DEFLATE_LEVEL)
    }

    /// Decodes [`Recording::to_bytes`]; bytes of another format version, damaged or
    /// truncated bytes, and snapshots inside that are inconsistent are an error, never a
    /// panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Recording, WorldError> {
        use WorldError::InvalidRecording;
        let encoded = super::framed::unframe(bytes, MAGIC, FORMAT_VERSION, DECODE_LIMIT)
            .map_err(InvalidRecording)?;
        let (recording, read): (Recording, usize) = bincode::serde::decode_from_slice(
            &encoded,
            bincode::config::standard().with_limit::<DECODE_LIMIT>(),
        )
        .map_err(|_| InvalidRecording("damaged or truncated"))?;
        if read != encoded.len() {
            return Err(InvalidRecording("trailing bytes"));
        }
        recording.start.validate()?;
        for call in &recording.calls {
            if let RecordedCall::Restore(snapshot) = call {
                snapshot.validate()?;
            }
        }
        Ok(recording)
    }
}

impl World {
    /// Starts recording: a snapshot of the world now, then every world-changing call (a
    /// recording already under way is dropped and a new one starts).
    pub fn start_recording(&mut self) {
        self.recorder = Some(Box::new(Recorder {
            recording: Recording {
                start: self.snapshot(),
                calls: Vec::new(),
            },
            in_step: false,
        }));
    }

    /// Stops recording and hands the recording over (`None` if none was under way).
    pub fn stop_recording(&mut self) -> Option<Recording> {
        self.recorder.take().map(|r| r.recording)
    }

    /// The recording under way, if any.
    pub fn recording(&self) -> Option<&Recording> {
        self.recorder.as_ref().map(|r| &r.recording)
    }

    /// Notes a world-changing call as it is entered, when recording and not inside a call
    /// that stands for it. Costs one test when not recording.
    #[inline]
    pub(in crate::world) fn note(&mut self, call: impl FnOnce() -> RecordedCall) {
        if let Some(recorder) = &mut self.recorder
            && !recorder.in_step
        {
            recorder.recording.calls.push(call());
        }
    }

    /// Marks the stages of [`World::step`] as part of the step call noted before them.
    pub(in crate::world) fn set_in_step(&mut self, in_step: bool) {
        if let Some(recorder) = &mut self.recorder {
            recorder.in_step = in_step;
        }
    }

    /// Whether calls are being recorded (the hooks' decisions are then noted too).
    pub(in crate::world) fn is_recording(&self) -> bool {
        self.recorder.is_some()
    }

    /// Adds what the host decided during a stage to the call that ran it: the last one noted
    /// (the step, or the stage called on its own).
    pub(in crate::world) fn note_decisions(
        &mut self,
        refused_pairs: Vec<(ShapeId, ShapeId)>,
        turned_off: Option<Vec<(ShapeId, ShapeId)>>,
        modified: Vec<ModifiedContact>,
    ) {
        let Some(recorder) = &mut self.recorder else {
            return;
        };
        if refused_pairs.is_empty() && turned_off.is_none() && modified.is_empty() {
            // Nothing decided: the call keeps no decisions (and allocates nothing).
            return;
        }
        if let Some(decisions) = recorder
            .recording
            .calls
            .last_mut()
            .and_then(RecordedCall::decisions_mut)
        {
            decisions.refused_pairs.extend(refused_pairs);
            if let Some(off) = turned_off {
                decisions
                    .pre_solve_off
                    .get_or_insert_with(Vec::new)
                    .extend(off);
            }
            decisions.modified.extend(modified);
        }
    }
}
