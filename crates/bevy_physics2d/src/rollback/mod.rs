//! Rollback: what a rollback-networking library must save and restore each frame so that
//! resimulating from a saved frame gives the same future, bit for bit.
//!
//! # The rollback set
//! - The [`PhysicsWorld`] resource, through [`PhysicsWorld::save_snapshot`] and
//!   [`PhysicsWorld::restore_snapshot`]: every body, shape, contact (with its warm-start
//!   impulses), joint, both broadphase trees, sleep timers, and the maps between entities and
//!   core ids.
//! - On every rigid-body entity, the components the plugin writes or reads as user input:
//!   `Transform`, [`LinearVelocity`](crate::LinearVelocity),
//!   [`AngularVelocity`](crate::AngularVelocity), [`ExternalForce`](crate::ExternalForce),
//!   [`ExternalImpulse`](crate::ExternalImpulse), [`PhysicsBody`](crate::PhysicsBody) (the
//!   entity's core body, which a rebuilt body changes), the [`Sleeping`](crate::Sleeping)
//!   marker and, with transform interpolation on,
//!   [`InterpolationPoses`](crate::InterpolationPoses) (which tell a restored blended
//!   `Transform` from a teleport). A restored `Transform` or velocity is not taken for a
//!   teleport: it equals the restored core body's, or the restored blend.
//!
//! Everything else (colliders, joints, materials, settings) is configuration: it only needs
//! rolling back if the game changes it inside the rolled-back frames. Spawning or despawning
//! physics entities inside the rollback window needs those components registered too.
//!
//! A restore marks every restored component changed. The plugin does not take that for the
//! game's input: a restored velocity equal to the snapshot's core body is the rollback's, and
//! a body with a parent is moved only when its `Transform` differs from the local pose the
//! plugin last saw (kept in the snapshot). Save the set where a rollback library does, right
//! after the physics step: a `Collider` removed between the step and the save changes its
//! body's centre of mass (and the core's velocity of it) at once, while `LinearVelocity`
//! still shows the velocity before, and a replay would hand the component's back.
//!
//! # Spawning and despawning inside the rollback window
//! A rollback library that respawns an entity gives it a new id and an old-to-new map
//! (bevy_ggrs's `RollbackEntityMap`). [`PhysicsWorld`] implements [`MapEntities`]: every
//! entity it names (bodies, colliders, joints and the bodies they join, queued work, the log
//! of sent events) follows the map, so the restored core bodies belong to the respawned
//! entities. [`PhysicsRollbackPlugin`](crate::PhysicsRollbackPlugin) applies the map after
//! each load.
//!
//! # Events of resimulated steps
//! A resimulated step has the number it had the first time (the step counter is part of the
//! snapshot). Collision, sensor, hit and joint-break events it already sent are not sent
//! again; events its corrected timeline adds are. The plugin remembers the last 256 steps'
//! events for this, outside the snapshot.
//!
//! With the `ggrs` feature, [`PhysicsRollbackPlugin`](crate::PhysicsRollbackPlugin) registers
//! this set with bevy_ggrs.

#[cfg(feature = "ggrs")]
pub(crate) mod ggrs;
#[cfg(feature = "lightyear")]
pub mod lightyear;
pub(crate) mod snapshot_bytes;
pub(crate) mod snapshot_delta;

use crate::world::physics_world::{Pending, PhysicsWorld};
use bevy_ecs::entity::{EntityHashMap, EntityMapper, MapEntities};
use bevy_ecs::prelude::*;
use physics_core::id::{BodyId, JointId, ShapeId};
use physics_core::world::{WorldError, WorldSnapshot};

/// The state of a [`PhysicsWorld`] at one moment: the core world's snapshot and the maps
/// between entities and core ids. Cloning it copies every array, so keep one per saved frame.
#[derive(Clone)]
pub struct PhysicsWorldSnapshot {
    pub(crate) core: WorldSnapshot,
    pub(crate) ground: Option<BodyId>,
    pub(crate) body_of: EntityHashMap<BodyId>,
    pub(crate) body_entity: Vec<Option<(BodyId, Entity)>>,
    pub(crate) shape_of: EntityHashMap<ShapeId>,
    pub(crate) compound_parts: EntityHashMap<Vec<ShapeId>>,
    pub(crate) shape_entity: Vec<Option<(ShapeId, Entity)>>,
    pub(crate) retired_shapes: Vec<(ShapeId, Entity)>,
    pub(crate) joint_of: EntityHashMap<JointId>,
    pub(crate) joint_entity: Vec<Option<(JointId, Entity)>>,
    pub(crate) joint_source: EntityHashMap<crate::dynamics::joint::components::Joint>,
    pub(crate) pending: Pending,
    pub(crate) steps: u64,
    /// The scales the bodies' colliders were built at (see `PhysicsWorld::built_scale`): a
    /// restore must not take a scale from the future for the one its shapes have.
    pub(crate) built_scale: EntityHashMap<bevy_math::Vec2>,
    /// The local poses bodies with a parent were last seen at (see
    /// `PhysicsWorld::child_poses_seen`).
    pub(crate) child_poses_seen: EntityHashMap<(bevy_math::Vec2, bevy_math::Quat)>,
    /// The bodies refused for a bad value, and what for (see `PhysicsWorld::refused_bodies`).
    pub(crate) refused_bodies: EntityHashMap<[u32; 9]>,
    /// The floating origin the game's coordinates were measured from.
    pub(crate) frame: crate::world::game_frame::GameFrame,
}

impl PhysicsWorldSnapshot {
    /// The core world's part, for example to send it over the network with
    /// [`WorldSnapshot::to_bytes`].
    pub fn core(&self) -> &WorldSnapshot {
        &self.core
    }
}

impl PhysicsWorld {
    /// The whole physics state now, to [`PhysicsWorld::restore_snapshot`] later.
    pub fn save_snapshot(&self) -> PhysicsWorldSnapshot {
        PhysicsWorldSnapshot {
            core: self.world.snapshot(),
            ground: self.ground,
            body_of: self.body_of.clone(),
            body_entity: self.body_entity.clone(),
            shape_of: self.shape_of.clone(),
            compound_parts: self.compound_parts.clone(),
            shape_entity: self.shape_entity.clone(),
            retired_shapes: self.retired_shapes.clone(),
            joint_of: self.joint_of.clone(),
            joint_entity: self.joint_entity.clone(),
            joint_source: self.joint_source.clone(),
            pending: self.pending.clone(),
            steps: self.steps,
            built_scale: self.built_scale.clone(),
            child_poses_seen: self.child_poses_seen.clone(),
            refused_bodies: self.refused_bodies.clone(),
            frame: self.frame,
        }
    }

    /// Puts the physics state back as `snapshot` recorded it. With the rigid-body components
    /// of the same frame restored too (see the [module notes](crate::rollback)), the next
    /// steps give the same bits as they did after the snapshot was taken. The task runner and
    /// the pre-solve hook stay as they are. On error (settings in the snapshot that the core
    /// refuses), nothing changes.
    pub fn restore_snapshot(&mut self, snapshot: &PhysicsWorldSnapshot) -> Result<(), WorldError> {
        self.world.restore(&snapshot.core)?;
        self.ground = snapshot.ground;
        self.body_of.clone_from(&snapshot.body_of);
        self.body_entity.clone_from(&snapshot.body_entity);
        self.shape_of.clone_from(&snapshot.shape_of);
        self.compound_parts.clone_from(&snapshot.compound_parts);
        self.shape_entity.clone_from(&snapshot.shape_entity);
        self.retired_shapes.clone_from(&snapshot.retired_shapes);
        self.joint_of.clone_from(&snapshot.joint_of);
        self.joint_entity.clone_from(&snapshot.joint_entity);
        self.joint_source.clone_from(&snapshot.joint_source);
        self.pending = snapshot.pending.clone();
        self.steps = snapshot.steps;
        self.built_scale.clone_from(&snapshot.built_scale);
        self.child_poses_seen.clone_from(&snapshot.child_poses_seen);
        self.refused_bodies.clone_from(&snapshot.refused_bodies);
        self.frame = snapshot.frame;
        self.restored_velocities.clear();
        self.built_velocities.clear();
        for (&entity, &id) in &self.body_of {
            if let Ok(motion) = self.world.body_motion(id) {
                let velocities = (motion.linear_velocity, motion.angular_velocity);
                self.restored_velocities.insert(entity, velocities);
            }
        }
        Ok(())
    }

    /// A digest of the simulation state ([`World::state_hash`](physics_core::world::World::state_hash)):
    /// equal on two machines exactly when every body's pose and velocity bits are equal. Use
    /// it as a desync checksum.
    pub fn state_hash(&self) -> u64 {
        self.world.state_hash()
    }
}

/// Renames every entity in the maps shared by [`PhysicsWorld`] and [`PhysicsWorldSnapshot`].
macro_rules! map_maps {
    ($maps:expr, $mapper:expr) => {{
        use bevy_ecs::entity::{EntityHashMap, EntityMapper};
        fn rekey<V, M: EntityMapper>(map: &mut EntityHashMap<V>, mapper: &mut M) {
            *map = map
                .drain()
                .map(|(entity, value)| (mapper.get_mapped(entity), value))
                .collect();
        }
        fn rename<I, M: EntityMapper>(slots: &mut [Option<(I, Entity)>], mapper: &mut M) {
            for (_, entity) in slots.iter_mut().flatten() {
                *entity = mapper.get_mapped(*entity);
            }
        }
        let (maps, mapper) = ($maps, $mapper);
        rekey(&mut maps.body_of, mapper);
        rekey(&mut maps.shape_of, mapper);
        rekey(&mut maps.compound_parts, mapper);
        rekey(&mut maps.joint_of, mapper);
        rekey(&mut maps.joint_source, mapper);
        rekey(&mut maps.built_scale, mapper);
        rekey(&mut maps.child_poses_seen, mapper);
        rekey(&mut maps.refused_bodies, mapper);
        for joint in maps.joint_source.values_mut() {
            joint.entity_a = mapper.get_mapped(joint.entity_a);
            joint.entity_b = mapper.get_mapped(joint.entity_b);
        }
        rename(&mut maps.body_entity, mapper);
        rename(&mut maps.shape_entity, mapper);
        rename(&mut maps.joint_entity, mapper);
        for (_, entity) in &mut maps.retired_shapes {
            *entity = mapper.get_mapped(*entity);
        }
        bevy_ecs::entity::MapEntities::map_entities(&mut maps.pending, mapper);
    }};
}
pub(crate) use map_maps;

impl MapEntities for PhysicsWorld {
    /// Renames every entity the world refers to (see the [module notes](crate::rollback)).
    fn map_entities<M: EntityMapper>(&mut self, mapper: &mut M) {
        map_maps!(&mut *self, &mut *mapper);
        self.sent_events.map_entities(mapper);
    }
}
