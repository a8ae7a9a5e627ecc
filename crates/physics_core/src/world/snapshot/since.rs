//! A snapshot written as what changed since an earlier one: a server that sent a client a
//! whole keyframe can send the next as a [`bytes_delta`] against it. Bodies asleep, shapes
//! and joints that did not change, and the broadphase nodes of what did not move cost almost
//! nothing; what moved costs about what it costs in a whole snapshot.

use super::{DECODE_LIMIT, DEFLATE_LEVEL, FORMAT_VERSION, MAGIC, WorldSnapshot, unframe_snapshot};
use crate::world::WorldError;
use crate::world::bytes_delta::{self, DeltaError};

impl WorldSnapshot {
    /// This snapshot as a change to `base`, the [`WorldSnapshot::to_bytes`] of an earlier
    /// one. [`WorldSnapshot::from_bytes_since`] (or [`WorldSnapshot::bytes_since`]) with the
    /// same `base` reads it back. An error if `base` is not snapshot bytes.
    ///
    /// ```
    /// use physics_core::prelude::*;
    ///
    /// let mut world = World::new(WorldDef::default()).unwrap();
    /// let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    /// world
    ///     .create_shape(ground, &ShapeDef::default(), Polygon::new_box(50.0, 1.0).unwrap().into())
    ///     .unwrap();
    /// let ball = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 4.0))).unwrap();
    /// world
    ///     .create_shape(ball, &ShapeDef::default(), Circle::new(Vec2::ZERO, 0.5).unwrap().into())
    ///     .unwrap();
    /// let keyframe = world.snapshot().to_bytes();
    /// for _ in 0..10 {
    ///     world.step(1.0 / 60.0).unwrap();
    /// }
    /// let now = world.snapshot();
    /// let delta = now.to_bytes_since(&keyframe).unwrap();
    /// // The receiver holds the keyframe: it rebuilds the same bytes.
    /// assert_eq!(WorldSnapshot::bytes_since(&keyframe, &delta).unwrap(), now.to_bytes());
    /// ```
    pub fn to_bytes_since(&self, base: &[u8]) -> Result<Vec<u8>, WorldError> {
        let base = unframe_snapshot(base)?;
        Ok(bytes_delta::encode(&base, &self.encoded()))
    }

    /// The [`WorldSnapshot::to_bytes`] of the snapshot that `delta` (from
    /// [`WorldSnapshot::to_bytes_since`]) describes as a change to `base`, byte for byte: the
    /// receiver can keep it as the base of the next delta. An error, and nothing else, for
    /// bytes that are not a snapshot's, a delta written against another base, or damaged
    /// bytes; what the rebuilt bytes hold is checked when they are read
    /// ([`WorldSnapshot::from_bytes`]).
    pub fn bytes_since(base: &[u8], delta: &[u8]) -> Result<Vec<u8>, WorldError> {
        let encoded = Self::encoded_since(base, delta)?;
        Ok(crate::world::framed::frame(
            MAGIC,
            FORMAT_VERSION,
            &encoded,
            DEFLATE_LEVEL,
        ))
    }

    /// The snapshot that `delta` describes as a change to `base`, checked as
    /// [`WorldSnapshot::from_bytes`] checks one.
    pub fn from_bytes_since(base: &[u8], delta: &[u8]) -> Result<WorldSnapshot, WorldError> {
        Self::from_encoded(&Self::encoded_since(base, delta)?)
    }

    /// The encoded content `delta` rebuilds from `base`.
    fn encoded_since(base: &[u8], delta: &[u8]) -> Result<Vec<u8>, WorldError> {
        let base = unframe_snapshot(base)?;
        bytes_delta::decode(&base, delta, DECODE_LIMIT).map_err(|error| match error {
            DeltaError::WrongBase => {
                WorldError::InvalidSnapshot("a delta written against another keyframe")
            }
            DeltaError::Damaged(why) => WorldError::InvalidSnapshot(why),
        })
    }
}
