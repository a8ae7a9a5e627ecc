//! A [`PhysicsWorldSnapshot`]'s bytes written as a change to an earlier snapshot's bytes: a
//! server that sent a client a whole keyframe sends the next ones as deltas against the last
//! one the client acknowledged (see the lightyear `keyframes` module). The core's part is a
//! [`WorldSnapshot::to_bytes_since`], the entity maps a
//! [`bytes_delta`](physics_core::world::bytes_delta) of their own bytes.

use super::PhysicsWorldSnapshot;
use super::snapshot_bytes::{DECODE_LIMIT, MAGIC, join_tagged, split};
use crate::SnapshotDecodeError;
use bevy_ecs::prelude::*;
use physics_core::world::WorldSnapshot;
use physics_core::world::bytes_delta;

/// Tag of delta bytes (the core's delta, then the maps' delta).
const DELTA_MAGIC: &[u8; 4] = b"PWD1";

impl PhysicsWorldSnapshot {
    /// [`PhysicsWorldSnapshot::to_bytes`] written as a change to `base`, the bytes `to_bytes`
    /// gave for an earlier snapshot with the same numbering of entities.
    /// [`PhysicsWorldSnapshot::bytes_since`] with the same `base` rebuilds this snapshot's
    /// `to_bytes` exactly. An error if `base` is not snapshot bytes.
    pub fn to_bytes_since(
        &self,
        base: &[u8],
        number: impl FnMut(Entity) -> u64,
    ) -> Result<Vec<u8>, SnapshotDecodeError> {
        let (base_core, base_maps) = split(base, MAGIC)?;
        let core = self
            .core
            .to_bytes_since(base_core)
            .map_err(|e| SnapshotDecodeError::Invalid(e.to_string()))?;
        let maps = bytes_delta::encode(base_maps, &self.wire_maps(number));
        Ok(join_tagged(DELTA_MAGIC, &core, &maps))
    }

    /// The [`PhysicsWorldSnapshot::to_bytes`] that `delta` (from
    /// [`PhysicsWorldSnapshot::to_bytes_since`]) describes as a change to `base`. An error, and
    /// nothing else, for bytes that are not a snapshot's or a delta's, a delta written against
    /// other bytes than `base`, or damaged bytes; the rebuilt bytes are checked when read
    /// ([`PhysicsWorldSnapshot::from_bytes`]).
    pub fn bytes_since(base: &[u8], delta: &[u8]) -> Result<Vec<u8>, SnapshotDecodeError> {
        let (base_core, base_maps) = split(base, MAGIC)?;
        let (core_delta, maps_delta) = split(delta, DELTA_MAGIC)?;
        let core = WorldSnapshot::bytes_since(base_core, core_delta)
            .map_err(|e| SnapshotDecodeError::Invalid(e.to_string()))?;
        let maps = bytes_delta::decode(base_maps, maps_delta, DECODE_LIMIT)
            .map_err(|e| SnapshotDecodeError::Invalid(e.to_string()))?;
        Ok(join_tagged(MAGIC, &core, &maps))
    }
}
