//! The [`PhysicsWorld`] resource: the core world and the maps between entities and core ids.

use crate::world::game_frame::GameFrame;
use bevy_ecs::entity::{EntityHashMap, EntityHashSet};
use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec2, Vec3};
use physics_core::id::{BodyId, JointId, ShapeId};
use physics_core::math::Rot;
use physics_core::position::Position;
use physics_core::world::{ContactData, Recording, World, WorldDef};

/// The core physics world, with the entity of every body, collider and joint in it.
///
/// Read it for anything the components do not carry (contact data, joint reactions, counts);
/// [`PhysicsWorld::core_mut`] is an escape hatch for core features the plugin does not wrap,
/// but bodies, shapes and joints the plugin created should be changed through their
/// components so the two sides stay in agreement.
#[derive(Resource)]
pub struct PhysicsWorld {
    pub(crate) world: World,
    /// A static body without an entity, for joints attached to the world.
    pub(crate) ground: Option<BodyId>,
    pub(crate) body_of: EntityHashMap<BodyId>,
    pub(crate) body_entity: Vec<Option<(BodyId, Entity)>>,
    /// The first (for most colliders the only) core shape of each collider entity.
    pub(crate) shape_of: EntityHashMap<ShapeId>,
    /// The other shapes of compound colliders, in part order.
    pub(crate) compound_parts: EntityHashMap<Vec<ShapeId>>,
    pub(crate) shape_entity: Vec<Option<(ShapeId, Entity)>>,
    /// Shapes destroyed since the last events were sent, so their end events still name them.
    pub(crate) retired_shapes: Vec<(ShapeId, Entity)>,
    pub(crate) joint_of: EntityHashMap<JointId>,
    pub(crate) joint_entity: Vec<Option<(JointId, Entity)>>,
    /// The component each core joint was built from.
    pub(crate) joint_source: EntityHashMap<crate::dynamics::joint::components::Joint>,
    pub(crate) pending: Pending,
    pub(crate) steps: u64,
    /// The world scale each body's colliders were last built at, for bodies scaled other
    /// than by one (so a changed scale rebuilds them, and unscaled worlds pay nothing).
    pub(crate) built_scale: EntityHashMap<Vec2>,
    /// The events recent steps sent, so a step resimulated after a rollback does not send
    /// them again. Not part of a snapshot: it is the history of what the game was told.
    pub(crate) sent_events: crate::world::sent_events::SentEventLog,
    /// The velocities a restore put back, by entity, until the next step's motion stage has
    /// read the game's changes: a restored `LinearVelocity` or `AngularVelocity` equal to
    /// them is the rollback's, not the game's, even when a collider rebuilt before the
    /// motion stage has moved the centre of mass (and with it the core's velocity).
    pub(crate) restored_velocities: EntityHashMap<(Vec2, f32)>,
    /// The bodies built in this step's prepare stage and the velocities each was built with,
    /// until their colliders and mass are in place (see
    /// `dynamics::body::prepare::restate_built_velocities`). Emptied there, and again when
    /// the next bodies are built and on a restore, so no entry outlives its step.
    pub(crate) built_velocities: Vec<(Entity, Vec2, f32)>,
    /// The local pose (x, y and rotation of its `Transform`) each body with a parent had
    /// when the plugin last read or wrote it. Its own move is told by value against this,
    /// not by change ticks alone: a rollback's restore marks every `Transform` changed, and
    /// a restored one equal to this is not the game's move. Part of a snapshot.
    pub(crate) child_poses_seen: EntityHashMap<(Vec2, Quat)>,
    /// The bodies refused for a bad value and the numbers they were refused for (see
    /// `dynamics::body::prepare::queue_changed_bodies`). Part of a snapshot.
    pub(crate) refused_bodies: EntityHashMap<RefusedDef>,
    /// Where the game's coordinates are measured from (the floating origin,
    /// `origin/mod.rs`). Part of a snapshot.
    pub(crate) frame: GameFrame,
}

/// The numbers a body was refused for, as bits: its world pose, velocities, gravity scale
/// and damping. A body is tried again once they change (NaN compared by its bits, so the
/// same bad value is not tried, and warned about, every step).
pub(crate) type RefusedDef = [u32; 9];

/// Entities whose physics objects must be created or rebuilt at the next step, in the order
/// their components arrived (which keeps core ids independent of archetype layout).
#[derive(Clone, Default)]
pub(crate) struct Pending {
    pub bodies: EntityQueue,
    pub colliders: EntityQueue,
    pub joints: EntityQueue,
    /// Bodies whose settings (damping, gravity scale, mass...) changed.
    pub props: EntityQueue,
}

impl Pending {
    /// The four queues, in a fixed order.
    pub fn queues(&self) -> [&EntityQueue; 4] {
        [&self.bodies, &self.colliders, &self.joints, &self.props]
    }

    /// The four queues, in the order of [`Pending::queues`].
    pub fn queues_mut(&mut self) -> [&mut EntityQueue; 4] {
        [
            &mut self.bodies,
            &mut self.colliders,
            &mut self.joints,
            &mut self.props,
        ]
    }
}

impl bevy_ecs::entity::MapEntities for Pending {
    fn map_entities<M: bevy_ecs::entity::EntityMapper>(&mut self, mapper: &mut M) {
        for queue in self.queues_mut() {
            let order = queue.take();
            for entity in order {
                queue.push(mapper.get_mapped(entity));
            }
        }
    }
}

/// Entities in arrival order, each at most once until the queue is taken.
#[derive(Clone, Default)]
pub(crate) struct EntityQueue {
    order: Vec<Entity>,
    queued: EntityHashSet,
}

impl EntityQueue {
    /// Queues `e` unless it is already waiting.
    pub fn push(&mut self, e: Entity) {
        if self.queued.insert(e) {
            self.order.push(e);
        }
    }

    /// The queued entities in arrival order.
    pub fn iter(&self) -> impl Iterator<Item = &Entity> {
        self.order.iter()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Everything queued, in arrival order, leaving the queue empty.
    pub fn take(&mut self) -> Vec<Entity> {
        self.queued.clear();
        std::mem::take(&mut self.order)
    }
}

fn set_slot<I: Copy>(v: &mut Vec<Option<(I, Entity)>>, index: u32, value: Option<(I, Entity)>) {
    let i = index as usize;
    if v.len() <= i {
        v.resize(i + 1, None);
    }
    v[i] = value;
}

impl PhysicsWorld {
    /// A world with the given settings.
    pub fn new(def: WorldDef) -> Result<Self, physics_core::world::WorldError> {
        Ok(PhysicsWorld {
            world: World::new(def)?,
            ground: None,
            body_of: EntityHashMap::default(),
            body_entity: Vec::new(),
            shape_of: EntityHashMap::default(),
            compound_parts: EntityHashMap::default(),
            shape_entity: Vec::new(),
            retired_shapes: Vec::new(),
            joint_of: EntityHashMap::default(),
            joint_entity: Vec::new(),
            joint_source: EntityHashMap::default(),
            pending: Pending::default(),
            steps: 0,
            built_scale: EntityHashMap::default(),
            sent_events: Default::default(),
            restored_velocities: EntityHashMap::default(),
            built_velocities: Vec::new(),
            child_poses_seen: EntityHashMap::default(),
            refused_bodies: EntityHashMap::default(),
            frame: GameFrame::default(),
        })
    }

    /// How the game's coordinates (every `Transform`, every point the plugin takes or gives)
    /// meet the core world's positions: measured from the floating origin.
    pub fn game_frame(&self) -> GameFrame {
        self.frame
    }

    pub(crate) fn set_game_frame(&mut self, frame: GameFrame) {
        self.frame = frame;
    }

    /// The world point at the game's (0, 0): the floating origin, moved with
    /// [`PhysicsOrigin`](crate::PhysicsOrigin).
    pub fn origin(&self) -> Position {
        self.frame.origin()
    }

    /// The core world's position of the game point `v`.
    pub fn to_world(&self, v: Vec2) -> Position {
        self.frame.to_world(v)
    }

    /// The game point of the core world's position `p`.
    pub fn to_game(&self, p: Position) -> Vec2 {
        self.frame.to_game(p)
    }

    /// Sends this step's events through `send`, which gets the world to read them from and
    /// the filter that lets each event out only the first time this step number sends it (a
    /// step resimulated after a rollback sends only what its first run did not).
    pub(crate) fn send_once<R>(
        &mut self,
        send: impl FnOnce(&PhysicsWorld, &mut crate::world::sent_events::StepFilter<'_>) -> R,
    ) -> R {
        // The log leaves the world while `send` reads the world and writes the log.
        let mut log = std::mem::take(&mut self.sent_events);
        let result = send(self, &mut log.begin(self.steps));
        log.drop_empty();
        self.sent_events = log;
        result
    }

    /// The core world.
    pub fn core(&self) -> &World {
        &self.world
    }

    /// The core world, mutable (see the type's notes).
    pub fn core_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Starts recording the core world: a snapshot now, then every change the plugin makes
    /// to it (from components, messages, hooks and rollbacks) and every step, so the run can
    /// be saved and replayed bit for bit ([`Recording`]). A recording under way is dropped.
    pub fn start_recording(&mut self) {
        self.world.start_recording();
    }

    /// Whether the game changed a body's velocities (`pushed`, `spun`: changed since the
    /// last writeback): a velocity equal to the one a restore put back is the rollback's.
    pub(crate) fn game_changed_velocities(
        &self,
        entity: Entity,
        (pushed, spun): (bool, bool),
        (linear, angular): (Vec2, f32),
    ) -> (bool, bool) {
        match self.restored_velocities.get(&entity) {
            Some(&(v, w)) => (pushed && v != linear, spun && w != angular),
            None => (pushed, spun),
        }
    }

    /// Entities waiting for their core body to be built or rebuilt at the next step, in
    /// order (for tests and diagnostics).
    pub fn pending_bodies(&self) -> impl Iterator<Item = Entity> + '_ {
        self.pending.bodies.iter().copied()
    }

    /// Stops recording and hands the recording over (`None` if none was under way).
    pub fn stop_recording(&mut self) -> Option<Recording> {
        self.world.stop_recording()
    }

    /// Whether no entity waits for its core object to be built or rebuilt (the lightyear
    /// world state is sent only then).
    #[cfg(feature = "lightyear")]
    pub(crate) fn pending_is_empty(&self) -> bool {
        self.pending.queues().iter().all(|q| q.is_empty())
    }

    /// Steps taken by the plugin.
    pub fn step_count(&self) -> u64 {
        self.steps
    }

    /// The core body of a rigid-body entity.
    pub fn body(&self, entity: Entity) -> Option<BodyId> {
        self.body_of.get(&entity).copied()
    }

    /// The core shape of a collider entity (for a compound collider, its first part's).
    pub fn shape(&self, entity: Entity) -> Option<ShapeId> {
        self.shape_of.get(&entity).copied()
    }

    /// Every core shape of a collider entity: one, or a compound collider's parts in order.
    pub fn shapes(&self, entity: Entity) -> Vec<ShapeId> {
        let Some(first) = self.shape(entity) else {
            return Vec::new();
        };
        let mut shapes = vec![first];
        if let Some(rest) = self.compound_parts.get(&entity) {
            shapes.extend_from_slice(rest);
        }
        shapes
    }

    /// The core joint of a joint entity.
    pub fn joint(&self, entity: Entity) -> Option<JointId> {
        self.joint_of.get(&entity).copied()
    }

    /// The entity of a core body.
    pub fn body_entity(&self, id: BodyId) -> Option<Entity> {
        match self.body_entity.get(id.index as usize) {
            Some(Some((stored, e))) if *stored == id => Some(*e),
            _ => None,
        }
    }

    /// The entity of a core shape (also for a shape destroyed since the last step, so its
    /// end events can name it).
    pub fn collider_entity(&self, id: ShapeId) -> Option<Entity> {
        match self.shape_entity.get(id.index as usize) {
            Some(Some((stored, e))) if *stored == id => Some(*e),
            _ => self
                .retired_shapes
                .iter()
                .find(|(s, _)| *s == id)
                .map(|(_, e)| *e),
        }
    }

    /// The entity of a core joint.
    pub fn joint_entity(&self, id: JointId) -> Option<Entity> {
        match self.joint_entity.get(id.index as usize) {
            Some(Some((stored, e))) if *stored == id => Some(*e),
            _ => None,
        }
    }

    /// Contact data of every touching pair: the collider entities and the manifold with the
    /// last step's impulses (one new `Vec` per call).
    pub fn contact_pairs(&self) -> Vec<(Entity, Entity, ContactData)> {
        self.world
            .contact_data()
            .into_iter()
            .filter_map(|c| {
                Some((
                    self.collider_entity(c.shape_a)?,
                    self.collider_entity(c.shape_b)?,
                    c,
                ))
            })
            .collect()
    }

    /// Contact data of one pair of colliders (in either order), when they touch; the manifold
    /// normal points from the first collider given to the second.
    ///
    /// Cost: a hash lookup in the core's contact map per pair of parts (one for colliders
    /// that are not compounds). For compound colliders, the first touching pair of their
    /// parts. A contact a collision hook switched off this step is not touching.
    pub fn contact_pair(&self, a: Entity, b: Entity) -> Option<ContactData> {
        let (sa, sb) = (self.shapes(a), self.shapes(b));
        sa.iter()
            .flat_map(|&x| sb.iter().map(move |&y| (x, y)))
            .find_map(|(x, y)| {
                let mut c = self.world.contact_between(x, y)?;
                if c.shape_a != x {
                    std::mem::swap(&mut c.shape_a, &mut c.shape_b);
                    c.manifold.normal = -c.manifold.normal;
                }
                Some(c)
            })
    }

    /// Pushes every dynamic body with a collider within `radius` of `center` away from it:
    /// an impulse of `impulse` for a collider at the centre, falling off linearly to zero at
    /// `radius`, applied at the body's nearest point (see `World::explode`). Sensors are not
    /// pushed; sleeping bodies wake. Returns each pushed body's entity and impulse (bodies
    /// without an entity, made through [`PhysicsWorld::core_mut`], are pushed but not
    /// listed). The velocities reach the components at the next writeback. A centre, radius
    /// or impulse that is not finite (or a radius not positive) is refused with an error.
    ///
    /// ```
    /// use bevy_physics2d::prelude::*;
    /// use bevy_ecs::prelude::*;
    /// fn blast(mut physics: ResMut<PhysicsWorld>) {
    ///     let pushed = physics.explode(Vec2::new(0.0, 1.0), 4.0, 25.0).unwrap_or_default();
    ///     for (body, impulse) in pushed {
    ///         println!("{body} pushed by {impulse}");
    ///     }
    /// }
    /// # bevy_ecs::system::assert_is_system(blast);
    /// ```
    pub fn explode(
        &mut self,
        center: Vec2,
        radius: f32,
        impulse: f32,
    ) -> Result<Vec<(Entity, Vec2)>, physics_core::world::WorldError> {
        let filter = physics_core::world::QueryFilter::default();
        let pushed = self
            .world
            .explode(self.frame.to_world(center), radius, impulse, &filter)?;
        Ok(pushed
            .into_iter()
            .filter_map(|(body, push)| Some((self.body_entity(body)?, push)))
            .collect())
    }

    pub(crate) fn map_body(&mut self, entity: Entity, id: BodyId) {
        self.body_of.insert(entity, id);
        set_slot(&mut self.body_entity, id.index, Some((id, entity)));
    }

    pub(crate) fn unmap_body(&mut self, entity: Entity) -> Option<BodyId> {
        let id = self.body_of.remove(&entity)?;
        set_slot(&mut self.body_entity, id.index, None);
        self.built_scale.remove(&entity);
        self.child_poses_seen.remove(&entity);
        Some(id)
    }

    /// Records the core shapes of a collider entity (several for a compound collider).
    pub(crate) fn map_shapes(&mut self, entity: Entity, ids: &[ShapeId]) {
        let Some((&first, rest)) = ids.split_first() else {
            return;
        };
        self.shape_of.insert(entity, first);
        if !rest.is_empty() {
            self.compound_parts.insert(entity, rest.to_vec());
        }
        for &id in ids {
            set_slot(&mut self.shape_entity, id.index, Some((id, entity)));
        }
    }

    /// Forgets the core shapes of a collider entity and returns them (to be destroyed); their
    /// end events still name the entity.
    pub(crate) fn unmap_shapes(&mut self, entity: Entity) -> Vec<ShapeId> {
        let Some(first) = self.shape_of.remove(&entity) else {
            return Vec::new();
        };
        let mut ids = vec![first];
        ids.extend(self.compound_parts.remove(&entity).unwrap_or_default());
        for &id in &ids {
            set_slot(&mut self.shape_entity, id.index, None);
            self.retired_shapes.push((id, entity));
        }
        ids
    }

    pub(crate) fn map_joint(&mut self, entity: Entity, id: JointId) {
        self.joint_of.insert(entity, id);
        set_slot(&mut self.joint_entity, id.index, Some((id, entity)));
    }

    pub(crate) fn unmap_joint(&mut self, entity: Entity) -> Option<JointId> {
        self.joint_source.remove(&entity);
        let id = self.joint_of.remove(&entity)?;
        set_slot(&mut self.joint_entity, id.index, None);
        Some(id)
    }

    /// Notes the world scale a body's colliders were built at.
    pub(crate) fn note_built_scale(&mut self, body: Entity, scale: Vec2) {
        if scale == Vec2::ONE {
            self.built_scale.remove(&body);
        } else {
            self.built_scale.insert(body, scale);
        }
    }

    /// Queues the colliders of `body` for a rebuild when `scale` is not the scale they were
    /// built at (cheap for unscaled worlds: nothing to look up).
    pub(crate) fn rebuild_if_rescaled(&mut self, body: Entity, scale: Vec2) {
        if self.built_scale.is_empty() && scale == Vec2::ONE {
            return;
        }
        let built = self.built_scale.get(&body).copied().unwrap_or(Vec2::ONE);
        if built != scale {
            self.queue_material_users(body);
            self.note_built_scale(body, scale);
        }
    }

    /// Queues for rebuilding the collider on `entity` and, when it is a body, its other colliders.
    pub(crate) fn queue_material_users(&mut self, entity: Entity) {
        if self.shape(entity).is_some() {
            self.pending.colliders.push(entity);
        }
        if let Some(body) = self.body(entity) {
            let shapes = self
                .world
                .body_shapes(body)
                .map(<[_]>::to_vec)
                .unwrap_or_default();
            for shape in shapes {
                if let Some(e) = self.collider_entity(shape) {
                    self.pending.colliders.push(e);
                }
            }
        }
    }
    /// Destroys the core body of a despawned (or no longer rigid) `entity`: its colliders are
    /// queued to look for another body at the next step, and the joints it had are unmapped and
    /// returned, for their break events.
    pub(crate) fn remove_body(&mut self, entity: Entity) -> Vec<Entity> {
        let Some(body) = self.body(entity) else {
            return Vec::new();
        };
        let mut broken = Vec::new();
        for joint in self.world.body_joints(body).unwrap_or_default() {
            if let Some(joint_entity) = self.joint_entity(joint) {
                self.unmap_joint(joint_entity);
                broken.push(joint_entity);
            }
        }
        for collider in self.unmap_body_shapes(body) {
            self.pending.colliders.push(collider);
        }
        self.unmap_body(entity);
        let _ = self.world.destroy_body(body);
        broken
    }
    /// Unmaps the collider entities of `body`'s shapes, returning them.
    fn unmap_body_shapes(&mut self, body: BodyId) -> Vec<Entity> {
        let shapes = self
            .world
            .body_shapes(body)
            .map(<[_]>::to_vec)
            .unwrap_or_default();
        let mut entities = Vec::new();
        for shape in shapes {
            // A compound's parts share an entity: unmapped with its first part found.
            if let Some(e) = self.collider_entity(shape)
                && self.shape(e).is_some()
            {
                self.unmap_shapes(e);
                entities.push(e);
            }
        }
        entities
    }
    /// Destroys an entity's core body to rebuild it (a new body type): its colliders and joints
    /// are queued to be rebuilt with it, silently.
    pub(crate) fn destroy_body_keeping_parts(&mut self, entity: Entity) {
        let Some(body) = self.body(entity) else {
            return;
        };
        for joint in self.world.body_joints(body).unwrap_or_default() {
            if let Some(e) = self.joint_entity(joint) {
                self.unmap_joint(e);
                self.pending.joints.push(e);
            }
        }
        for collider in self.unmap_body_shapes(body) {
            self.pending.colliders.push(collider);
        }
        self.unmap_body(entity);
        let _ = self.world.destroy_body(body);
    }

    /// The hidden static body joints to the world attach to, and colliders without a body
    /// belong to.
    pub(crate) fn ground(&mut self) -> BodyId {
        if let Some(g) = self.ground.filter(|g| self.world.body_exists(*g)) {
            return g;
        }
        let def = physics_core::body::BodyDef::default();
        let g = self
            .world
            .create_body(&def)
            .expect("a static body at the origin is always valid");
        self.ground = Some(g);
        g
    }
}

/// The rotation about z of a Bevy rotation, as (cos, sin), without trigonometry: the image of
/// the x axis, normalised.
pub fn rot_from_quat(q: Quat) -> Rot {
    let c = 1.0 - 2.0 * (q.y * q.y + q.z * q.z);
    let s = 2.0 * (q.x * q.y + q.w * q.z);
    Rot { c, s }.normalize()
}

/// The Bevy rotation about z of a core rotation, from half-angle identities (no
/// trigonometry, so the result is the same on every platform).
pub fn quat_from_rot(q: Rot) -> Quat {
    // cos(a/2) = sqrt((1 + c) / 2), sin(a/2) = s / (2 cos(a/2)); the other branch near a = pi.
    if q.c >= 0.0 {
        let w = (0.5 * (1.0 + q.c)).sqrt();
        Quat::from_xyzw(0.0, 0.0, q.s / (2.0 * w), w)
    } else {
        let z = (0.5 * (1.0 - q.c)).sqrt().copysign(q.s);
        Quat::from_xyzw(0.0, 0.0, z, q.s / (2.0 * z))
    }
}

/// The 2D pose of a Bevy transform.
pub fn pose_from_transform(translation: Vec3, rotation: Quat) -> (Vec2, Rot) {
    (translation.truncate(), rot_from_quat(rotation))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_round_trip_within_float_precision() {
        for i in -36..=36 {
            let angle = i as f32 * std::f32::consts::PI / 36.0;
            let q = Quat::from_rotation_z(angle);
            let r = rot_from_quat(q);
            assert!((r.c - angle.cos()).abs() < 1e-6 && (r.s - angle.sin()).abs() < 1e-6);
            let back = quat_from_rot(r);
            assert!(
                back.angle_between(q) < 1e-3,
                "angle {angle}: {back:?} vs {q:?}"
            );
            assert!((back.length() - 1.0).abs() < 1e-6);
        }
    }
}
