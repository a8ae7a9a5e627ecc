//! A [`PhysicsWorldSnapshot`] as bytes, for another process or machine: the core world's own
//! encoding followed by the entity maps, with every entity written as a number the caller
//! chooses (its bits on the same machine, a network id across machines).

use crate::dynamics::joint::components::Joint;
use crate::rollback::PhysicsWorldSnapshot;
use crate::world::physics_world::Pending;
use bevy_ecs::entity::{EntityHashMap, EntityMapper, MapEntities};
use bevy_ecs::prelude::*;
use physics_core::id::{BodyId, JointId, ShapeId};
use physics_core::world::WorldSnapshot;
use serde::{Deserialize, Serialize};

/// Why bytes did not become a [`PhysicsWorldSnapshot`].
#[derive(Debug, Clone, PartialEq)]
pub enum SnapshotDecodeError {
    /// Not a snapshot, or a damaged one.
    Invalid(String),
    /// An entity number the caller could not turn into an entity (not known here yet).
    UnknownEntity(u64),
}

impl std::fmt::Display for SnapshotDecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotDecodeError::Invalid(why) => write!(f, "not a physics snapshot: {why}"),
            SnapshotDecodeError::UnknownEntity(id) => write!(f, "entity {id} is not known here"),
        }
    }
}

impl std::error::Error for SnapshotDecodeError {}

/// The maps of a snapshot with entities as numbers.
#[derive(Serialize, Deserialize)]
struct WireMaps {
    ground: Option<BodyId>,
    body_entity: Vec<Option<(BodyId, u64)>>,
    shape_entity: Vec<Option<(ShapeId, u64)>>,
    shape_of: Vec<(u64, ShapeId)>,
    compound_parts: Vec<(u64, Vec<ShapeId>)>,
    retired_shapes: Vec<(ShapeId, u64)>,
    joint_entity: Vec<Option<(JointId, u64)>>,
    /// Joint entity, its description with both bodies blanked, and the bodies (`None`: the
    /// world).
    joint_source: Vec<(u64, Joint, Option<u64>, Option<u64>)>,
    pending: [Vec<u64>; 4],
    steps: u64,
    built_scale: Vec<(u64, bevy_math::Vec2)>,
    child_poses_seen: Vec<(u64, (bevy_math::Vec2, bevy_math::Quat))>,
    refused_bodies: Vec<(u64, [u32; 9])>,
    /// The floating origin.
    origin: physics_core::position::Position,
}

/// Tag and version in front of the maps (3: the floating origin).
pub(super) const MAGIC: &[u8; 4] = b"PWS3";
/// Largest map section accepted (a million bodies' worth).
pub(super) const DECODE_LIMIT: usize = 256 << 20;

fn slots<I: Copy>(
    slots: &[Option<(I, Entity)>],
    number: &mut impl FnMut(Entity) -> u64,
) -> Vec<Option<(I, u64)>> {
    slots
        .iter()
        .map(|slot| slot.map(|(id, e)| (id, number(e))))
        .collect()
}

/// Entries of a map, ordered by the number of their entity (the same bytes for the same
/// state, whatever the hash map's order).
fn entries<V: Clone>(
    map: &EntityHashMap<V>,
    number: &mut impl FnMut(Entity) -> u64,
) -> Vec<(u64, V)> {
    let mut entries: Vec<(u64, V)> = map.iter().map(|(e, v)| (number(*e), v.clone())).collect();
    entries.sort_unstable_by_key(|(n, _)| *n);
    entries
}

impl PhysicsWorldSnapshot {
    /// The snapshot as bytes, each entity written as `number(entity)` (for example
    /// `Entity::to_bits`, or a network id the receiver knows).
    pub fn to_bytes(&self, number: impl FnMut(Entity) -> u64) -> Vec<u8> {
        join_tagged(MAGIC, &self.core.to_bytes(), &self.wire_maps(number))
    }

    /// The entity maps as written after the core's bytes.
    pub(super) fn wire_maps(&self, mut number: impl FnMut(Entity) -> u64) -> Vec<u8> {
        let joint_source = entries(&self.joint_source, &mut number)
            .into_iter()
            .map(|(n, mut joint)| {
                let mut body = |e: Entity| (e != Entity::PLACEHOLDER).then(|| number(e));
                let (a, b) = (body(joint.entity_a), body(joint.entity_b));
                joint.entity_a = Entity::PLACEHOLDER;
                joint.entity_b = Entity::PLACEHOLDER;
                (n, joint, a, b)
            })
            .collect();
        let maps = WireMaps {
            ground: self.ground,
            body_entity: slots(&self.body_entity, &mut number),
            shape_entity: slots(&self.shape_entity, &mut number),
            shape_of: entries(&self.shape_of, &mut number),
            compound_parts: entries(&self.compound_parts, &mut number),
            retired_shapes: self
                .retired_shapes
                .iter()
                .map(|(id, e)| (*id, number(*e)))
                .collect(),
            joint_entity: slots(&self.joint_entity, &mut number),
            joint_source,
            pending: self
                .pending
                .queues()
                .map(|q| q.iter().map(|e| number(*e)).collect()),
            steps: self.steps,
            built_scale: entries(&self.built_scale, &mut number),
            child_poses_seen: entries(&self.child_poses_seen, &mut number),
            refused_bodies: entries(&self.refused_bodies, &mut number),
            origin: self.frame.origin(),
        };
        bincode::serde::encode_to_vec(&maps, bincode::config::standard())
            .expect("writing to a Vec cannot fail")
    }

    /// Reads bytes written by [`PhysicsWorldSnapshot::to_bytes`], each entity number turned
    /// back into an entity by `entity` (`None`: not known here, and the whole read fails).
    pub fn from_bytes(
        bytes: &[u8],
        mut entity: impl FnMut(u64) -> Option<Entity>,
    ) -> Result<PhysicsWorldSnapshot, SnapshotDecodeError> {
        let (core, rest) = split(bytes, MAGIC)?;
        let core = WorldSnapshot::from_bytes(core)
            .map_err(|e| SnapshotDecodeError::Invalid(e.to_string()))?;
        let (maps, _): (WireMaps, usize) = bincode::serde::decode_from_slice(
            rest,
            bincode::config::standard().with_limit::<DECODE_LIMIT>(),
        )
        .map_err(|e| SnapshotDecodeError::Invalid(e.to_string()))?;
        let mut find = |n: u64| entity(n).ok_or(SnapshotDecodeError::UnknownEntity(n));
        let body_entity = unslot(maps.body_entity, &mut find)?;
        let shape_entity = unslot(maps.shape_entity, &mut find)?;
        let joint_entity = unslot(maps.joint_entity, &mut find)?;
        let body_of = body_entity
            .iter()
            .flatten()
            .map(|(id, e)| (*e, *id))
            .collect();
        let joint_of = joint_entity
            .iter()
            .flatten()
            .map(|(id, e)| (*e, *id))
            .collect();
        let shape_of = rekey(maps.shape_of, &mut find)?;
        let compound_parts = rekey(maps.compound_parts, &mut find)?;
        let mut joint_source = EntityHashMap::default();
        for (n, mut joint, a, b) in maps.joint_source {
            joint.entity_a = a.map_or(Ok(Entity::PLACEHOLDER), &mut find)?;
            joint.entity_b = b.map_or(Ok(Entity::PLACEHOLDER), &mut find)?;
            joint_source.insert(find(n)?, joint);
        }
        let retired_shapes = maps
            .retired_shapes
            .into_iter()
            .map(|(id, n)| find(n).map(|e| (id, e)))
            .collect::<Result<_, _>>()?;
        let mut pending = Pending::default();
        for (queue, numbers) in pending.queues_mut().into_iter().zip(maps.pending) {
            for n in numbers {
                queue.push(find(n)?);
            }
        }
        Ok(PhysicsWorldSnapshot {
            core,
            ground: maps.ground,
            body_of,
            body_entity,
            shape_of,
            compound_parts,
            shape_entity,
            retired_shapes,
            joint_of,
            joint_entity,
            joint_source,
            pending,
            steps: maps.steps,
            built_scale: rekey(maps.built_scale, &mut find)?,
            child_poses_seen: rekey(maps.child_poses_seen, &mut find)?,
            refused_bodies: rekey(maps.refused_bodies, &mut find)?,
            frame: crate::world::game_frame::GameFrame::at(maps.origin),
        })
    }
}

/// The core's bytes and the maps' behind `MAGIC` (a snapshot) or another tag (a delta),
/// with the length of the first.
pub(super) fn join_tagged(tag: &[u8; 4], core: &[u8], maps: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(12 + core.len() + maps.len());
    bytes.extend_from_slice(tag);
    bytes.extend((core.len() as u64).to_le_bytes());
    bytes.extend_from_slice(core);
    bytes.extend_from_slice(maps);
    bytes
}

/// The two parts [`join_tagged`] put behind `tag`, or why the bytes are not such.
pub(super) fn split<'a>(
    bytes: &'a [u8],
    tag: &[u8; 4],
) -> Result<(&'a [u8], &'a [u8]), SnapshotDecodeError> {
    let invalid = |why: &str| SnapshotDecodeError::Invalid(why.to_string());
    let rest = bytes
        .strip_prefix(tag.as_slice())
        .ok_or_else(|| invalid("missing tag"))?;
    let (len, rest) = rest
        .split_first_chunk::<8>()
        .ok_or_else(|| invalid("truncated"))?;
    let len = usize::try_from(u64::from_le_bytes(*len)).map_err(|_| invalid("truncated core"))?;
    rest.split_at_checked(len)
        .ok_or_else(|| invalid("truncated core"))
}

/// Slots of (id, entity number) back to (id, entity).
fn unslot<I>(
    slots: Vec<Option<(I, u64)>>,
    find: &mut impl FnMut(u64) -> Result<Entity, SnapshotDecodeError>,
) -> Result<Vec<Option<(I, Entity)>>, SnapshotDecodeError> {
    slots
        .into_iter()
        .map(|slot| slot.map(|(id, n)| find(n).map(|e| (id, e))).transpose())
        .collect()
}

/// Entries keyed by entity number back to a map keyed by entity.
fn rekey<V>(
    entries: Vec<(u64, V)>,
    find: &mut impl FnMut(u64) -> Result<Entity, SnapshotDecodeError>,
) -> Result<EntityHashMap<V>, SnapshotDecodeError> {
    entries
        .into_iter()
        .map(|(n, v)| find(n).map(|e| (e, v)))
        .collect()
}

impl MapEntities for PhysicsWorldSnapshot {
    /// Renames every entity the snapshot refers to.
    fn map_entities<M: EntityMapper>(&mut self, mapper: &mut M) {
        crate::rollback::map_maps!(self, mapper);
    }
}
