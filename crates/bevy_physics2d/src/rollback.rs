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
//! With the `ggrs` feature, [`PhysicsRollbackPlugin`](crate::PhysicsRollbackPlugin) registers
//! this set with bevy_ggrs.

use crate::physics_world::{Pending, PhysicsWorld};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use physics_core::id::{BodyId, JointId, ShapeId};
use physics_core::world::{WorldError, WorldSnapshot};

/// The state of a [`PhysicsWorld`] at one moment: the core world's snapshot and the maps
/// between entities and core ids. Cloning it copies every array, so keep one per saved frame.
#[derive(Clone)]
pub struct PhysicsWorldSnapshot {
    core: WorldSnapshot,
    ground: Option<BodyId>,
    body_of: EntityHashMap<BodyId>,
    body_entity: Vec<Option<(BodyId, Entity)>>,
    shape_of: EntityHashMap<ShapeId>,
    compound_parts: EntityHashMap<Vec<ShapeId>>,
    shape_entity: Vec<Option<(ShapeId, Entity)>>,
    retired_shapes: Vec<(ShapeId, Entity)>,
    joint_of: EntityHashMap<JointId>,
    joint_entity: Vec<Option<(JointId, Entity)>>,
    joint_source: EntityHashMap<crate::joint::Joint>,
    pending: Pending,
    steps: u64,
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
        Ok(())
    }

    /// A digest of the simulation state ([`World::state_hash`](physics_core::world::World::state_hash)):
    /// equal on two machines exactly when every body's pose and velocity bits are equal. Use
    /// it as a desync checksum.
    pub fn state_hash(&self) -> u64 {
        self.world.state_hash()
    }
}
