//! Saving and restoring a world: everything the next steps depend on, so that restoring a
//! snapshot and stepping N times gives the bits N steps would have given without the round
//! trip. This is what rollback networking needs (resimulating from a confirmed frame) and
//! what a save game needs.
//!
//! A snapshot holds the bodies (poses, velocities, forces, sleep timers), the shapes with
//! their broadphase boxes, the contacts with their manifolds, warm-start impulses and
//! recycling caches, the joints with their impulses, the broadphase trees node for node (their
//! layout decides the order in which new pairs are found) and its queue of moved proxies, the
//! settings, and the end events waiting for the next step. Islands are not stored: they are
//! rebuilt from contacts and joints at every step. The task runner and the pre-solve hook
//! belong to the host and stay as they are.
//!
//! The bytes leave out what reading can rebuild bit for bit, then deflate the rest: a shape's
//! broadphase box (its tree leaf has it) and reach, a tree's parents, heights and inner boxes
//! (`broadphase/dynamic_tree/saved.rs`), empty manifold points, the parts of a recycling cache
//! that recycling overwrites, and the geometry of recycled manifolds (`snapshot_contacts.rs`).
//! A settled 5,000-box pyramid takes about 135 bytes per body, a ragdoll about 170.

use super::{ContactEvent, SensorEvent, World, WorldDef, WorldError};
use crate::world::recording::RecordedCall;
use contacts::{SavedContact, read_contacts, save_contacts};

mod check;
mod contacts;
mod since;
use crate::body::Body;
use crate::broadphase::BroadPhase;
use crate::contact::{Contact, pair_key};
use crate::id::Slots;
use crate::joint::Joint;
use crate::pair_hash::PairMap;
use crate::position::WorldTransform;
use crate::shape_def::ShapeRecord;
use serde::{Deserialize, Serialize};

/// First bytes of [`WorldSnapshot::to_bytes`]: a tag and the format version.
const MAGIC: &[u8; 4] = b"P2DS";
/// Bumped whenever the stored state changes shape (3: deflated, derived data left out; 4:
/// shapes with surface motion, kinematic-contact and hit-event flags, contacts with rolling
/// resistance, bodies allowing fast rotation; 5: the world def's exact joint mass ratio; 6:
/// bodies' motion locks, sleep thresholds and dominance, shapes' contact-hook flag; 7: a
/// body's fields in their new memory order; 8: the world def's carried mass fraction; 9: the
/// world def's deeper-point-first switch).
const FORMAT_VERSION: u8 = 9;
/// Deflate effort, 0 to 10: 3 writes within 3% of level 6's size in under half its time, and
/// 1 costs 8% more bytes (measured by `tests/snapshot_size.rs`).
const DEFLATE_LEVEL: u8 = 3;
/// Most bytes decoding may claim for one snapshot (256 MiB, a million bodies and more):
/// damaged bytes announcing a huge list are refused instead of allocated.
const DECODE_LIMIT: usize = 1 << 28;

/// The complete simulation state of a [`World`] at one moment (between steps).
///
/// ```
/// use physics_core::prelude::*;
///
/// let mut world = World::new(WorldDef::default()).unwrap();
/// let ball = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 4.0))).unwrap();
/// world
///     .create_shape(ball, &ShapeDef::default(), Circle::new(Vec2::ZERO, 0.5).unwrap().into())
///     .unwrap();
/// let saved = world.snapshot();
/// let bytes = saved.to_bytes();
/// for _ in 0..30 {
///     world.step(1.0 / 60.0).unwrap();
/// }
/// let fallen = world.body_position(ball).unwrap();
/// // Back to the saved moment (through bytes, as over a network), and again 30 steps.
/// world.restore(&WorldSnapshot::from_bytes(&bytes).unwrap()).unwrap();
/// for _ in 0..30 {
///     world.step(1.0 / 60.0).unwrap();
/// }
/// assert_eq!(world.body_position(ball).unwrap(), fallen);
/// ```
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "SavedWorld")]
pub struct WorldSnapshot {
    pub(in crate::world) def: WorldDef,
    pub(in crate::world) bodies: Slots<Body>,
    pub(in crate::world) shapes: Slots<ShapeRecord>,
    pub(in crate::world) contacts: Slots<Contact>,
    pub(in crate::world) joints: Slots<Joint>,
    pub(in crate::world) broadphase: BroadPhase,
    pub(in crate::world) pending_end_events: Vec<ContactEvent>,
    pub(in crate::world) pending_sensor_end_events: Vec<SensorEvent>,
    pub(in crate::world) step_count: u64,
    pub(in crate::world) last_dt: f32,
}

/// [`WorldSnapshot`] as written: contacts without what `snapshot_contacts.rs` rebuilds, and
/// the collide poses that rebuilding needs (a body's collide pose only decides what later
/// snapshots can rebuild, so the others read back as the body's pose).
#[derive(Serialize)]
struct SavedWorldRef<'a> {
    def: &'a WorldDef,
    bodies: &'a Slots<Body>,
    collide_poses: Vec<(u32, WorldTransform)>,
    shapes: &'a Slots<ShapeRecord>,
    contacts: Slots<SavedContact>,
    joints: &'a Slots<Joint>,
    broadphase: &'a BroadPhase,
    pending_end_events: &'a [ContactEvent],
    pending_sensor_end_events: &'a [SensorEvent],
    step_count: u64,
    last_dt: f32,
}

/// [`WorldSnapshot`] as read (the fields of [`SavedWorldRef`], owned), before what the
/// snapshot copies or recomputes is filled in: the bodies' collide poses, the shapes'
/// broadphase boxes (from their tree leaves) and reaches (from their geometry), and the
/// contacts.
#[derive(Deserialize)]
struct SavedWorld {
    def: WorldDef,
    bodies: Slots<Body>,
    collide_poses: Vec<(u32, WorldTransform)>,
    shapes: Slots<ShapeRecord>,
    contacts: Slots<SavedContact>,
    joints: Slots<Joint>,
    broadphase: BroadPhase,
    pending_end_events: Vec<ContactEvent>,
    pending_sensor_end_events: Vec<SensorEvent>,
    step_count: u64,
    last_dt: f32,
}

impl Serialize for WorldSnapshot {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (contacts, collide_poses) = save_contacts(&self.contacts, &self.bodies);
        SavedWorldRef {
            def: &self.def,
            bodies: &self.bodies,
            collide_poses,
            shapes: &self.shapes,
            contacts,
            joints: &self.joints,
            broadphase: &self.broadphase,
            pending_end_events: &self.pending_end_events,
            pending_sensor_end_events: &self.pending_sensor_end_events,
            step_count: self.step_count,
            last_dt: self.last_dt,
        }
        .serialize(serializer)
    }
}

impl TryFrom<SavedWorld> for WorldSnapshot {
    type Error = &'static str;

    fn try_from(saved: SavedWorld) -> Result<Self, Self::Error> {
        let mut bodies = saved.bodies;
        for (_, body) in bodies.iter_mut() {
            body.collide_pose = body.transform;
        }
        for (slot, pose) in saved.collide_poses {
            if !bodies.is_live(slot) {
                return Err("a collide pose of no body");
            }
            bodies.at_mut(slot).collide_pose = pose;
        }
        let mut shapes = saved.shapes;
        for (_, record) in shapes.iter_mut() {
            let tree = saved.broadphase.tree(record.proxy.tree);
            tree.leaf_user_data(record.proxy.id)
                .ok_or("a shape's broadphase proxy is not a leaf")?;
            record.fat_aabb = tree.fat_aabb(record.proxy.id);
            record.reach = record.shape.reach();
        }
        let contacts = read_contacts(&saved.contacts, &shapes, &bodies)?;
        Ok(WorldSnapshot {
            def: saved.def,
            bodies,
            shapes,
            contacts,
            joints: saved.joints,
            broadphase: saved.broadphase,
            pending_end_events: saved.pending_end_events,
            pending_sensor_end_events: saved.pending_sensor_end_events,
            step_count: saved.step_count,
            last_dt: saved.last_dt,
        })
    }
}

impl WorldSnapshot {
    /// A compact binary encoding: the state in bincode (variable-length integers,
    /// little-endian floats, only what cannot be recomputed), deflated, behind a 4-byte tag, a
    /// version byte and an 8-byte checksum of the deflated bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        super::framed::frame(MAGIC, FORMAT_VERSION, &self.encoded(), DEFLATE_LEVEL)
    }

    /// The state in bincode, before framing.
    fn encoded(&self) -> Vec<u8> {
        bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("a snapshot always encodes")
    }

    /// Decodes [`WorldSnapshot::to_bytes`]; bytes of another format version, damaged bytes,
    /// and bytes whose content is inconsistent ([`WorldSnapshot::validate`]) are an error,
    /// never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<WorldSnapshot, WorldError> {
        Self::from_encoded(&unframe_snapshot(bytes)?)
    }

    /// Decodes the content of [`WorldSnapshot::to_bytes`] once unframed.
    fn from_encoded(encoded: &[u8]) -> Result<WorldSnapshot, WorldError> {
        let (snapshot, read): (WorldSnapshot, usize) = bincode::serde::decode_from_slice(
            encoded,
            bincode::config::standard().with_limit::<DECODE_LIMIT>(),
        )
        .map_err(|_| WorldError::InvalidSnapshot("damaged or truncated"))?;
        if read != encoded.len() {
            return Err(WorldError::InvalidSnapshot("trailing bytes"));
        }
        snapshot.validate()?;
        Ok(snapshot)
    }

    /// Number of bodies in the snapshot.
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }
}

/// The encoded content of snapshot bytes, or why they are not a snapshot's.
fn unframe_snapshot(bytes: &[u8]) -> Result<Vec<u8>, WorldError> {
    super::framed::unframe(bytes, MAGIC, FORMAT_VERSION, DECODE_LIMIT)
        .map_err(WorldError::InvalidSnapshot)
}

/// FNV-1a over the encoded state: catches damaged or truncated bytes before they are
/// decoded into a world whose internal links would be broken. (It is not a defence against
/// bytes crafted to pass it; snapshots are meant to come from this engine.)
pub(in crate::world) fn checksum(bytes: &[u8]) -> u64 {
    let mut hash = Fnv1a::default();
    hash.write_bytes(bytes);
    hash.0
}

/// FNV-1a: the snapshot checksum over bytes, the state hash over 64-bit words.
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    fn write_bytes(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn write(&mut self, word: u64) {
        self.write_bytes(&word.to_le_bytes());
    }
}

impl World {
    /// A 64-bit digest of the simulation state: FNV-1a over the step count and every body's
    /// position, rotation and velocities, bit for bit, in storage order. Two worlds that will
    /// step on identically hash alike; one ulp of difference in any body changes it. Cheap
    /// enough to compare every frame between peers or between a run and its replay.
    pub fn state_hash(&self) -> u64 {
        let mut hash = Fnv1a::default();
        hash.write(self.step_count);
        for (_, body) in self.bodies.iter() {
            let xf = body.transform;
            // A position's bits (a double's, in the `large-world` build).
            for coordinate in crate::position::position_bits(xf.p) {
                hash.write(coordinate);
            }
            for value in [xf.q.c, xf.q.s].into_iter().chain([
                body.linear_velocity.x,
                body.linear_velocity.y,
                body.angular_velocity,
            ]) {
                hash.write(value.to_bits() as u64);
            }
        }
        hash.0
    }

    /// The world's state now, to [`World::restore`] later.
    pub fn snapshot(&self) -> WorldSnapshot {
        WorldSnapshot {
            def: self.def,
            bodies: self.bodies.clone(),
            shapes: self.shapes.clone(),
            contacts: self.contacts.clone(),
            joints: self.joints_with_results(),
            broadphase: self.broadphase.clone(),
            pending_end_events: self.pending_end_events.clone(),
            pending_sensor_end_events: self.pending_sensor_end_events.clone(),
            step_count: self.step_count,
            last_dt: self.last_dt,
        }
    }

    /// Puts the world back in the state `snapshot` recorded: the next steps give the same
    /// bits they gave after the snapshot was taken. Ids handed out before the snapshot are
    /// valid again; ids of objects created after it are stale. The last step's events are
    /// cleared; the task runner and the pre-solve hook stay.
    pub fn restore(&mut self, snapshot: &WorldSnapshot) -> Result<(), WorldError> {
        self.note(|| RecordedCall::Restore(Box::new(snapshot.clone())));
        snapshot.def.validate()?;
        let s = snapshot.clone();
        self.tolerances = s.def.tolerances();
        self.def = s.def;
        self.bodies = s.bodies;
        // The solver's arrays are emptied below: nothing to finalize or keep.
        self.solver_bodies = super::step::solver_bodies::SolverBodies::Stale;
        self.shapes = s.shapes;
        self.contacts = s.contacts;
        self.joints = s.joints;
        self.broadphase = s.broadphase;
        self.pending_end_events = s.pending_end_events;
        self.pending_sensor_end_events = s.pending_sensor_end_events;
        self.step_count = s.step_count;
        self.mass_revision = self.mass_revision.wrapping_add(1);
        self.last_dt = s.last_dt;
        // The pair map is an index of the contacts: rebuilt, not stored.
        self.contact_map = PairMap::default();
        self.touching_contacts = self.contacts.iter().filter(|(_, c)| c.touching).count();
        self.simulated_bodies = self.count_simulated_bodies();
        for (slot, c) in self.contacts.iter() {
            self.contact_map
                .insert(pair_key(c.shape_a, c.shape_b), slot);
        }
        self.joint_breaks.clear();
        self.begin_events.clear();
        self.end_events.clear();
        self.sensor_begin_events.clear();
        self.sensor_end_events.clear();
        self.hit_events.clear();
        // The contact lane width is this processor's choice, not the snapshot's: it stays.
        let lanes = self.contact_lanes();
        self.solver = Default::default();
        if let Some(groups) = crate::solver::wide_contacts::ContactGroups::new(lanes) {
            self.solver.wide_contacts = groups;
        }
        self.solve_set = super::step::solve_set::SolveSetCache::empty();
        // Derived from the shapes, so not stored.
        self.rebuild_pair_filters();
        let slots: Vec<u32> = self.bodies.iter().map(|(slot, _)| slot).collect();
        for slot in slots {
            self.update_extents(slot);
        }
        Ok(())
    }
}
