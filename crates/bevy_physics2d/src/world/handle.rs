//! [`PhysicsBody`]: the link from a rigid-body entity to its core body.

use bevy_ecs::prelude::*;
use physics_core::id::BodyId;

/// Added by the plugin to every rigid-body entity once its core body exists. Read-only for
/// users: it says which core body the entity is.
///
/// It holds nothing else: the pose and velocities live in `Transform`, `LinearVelocity` and
/// `AngularVelocity`, which the writeback compares with the core's values before writing.
/// Keeping the handle this small keeps the per-body data every step walks small.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhysicsBody {
    pub(crate) id: BodyId,
}

impl PhysicsBody {
    pub(crate) fn new(id: BodyId) -> Self {
        PhysicsBody { id }
    }

    /// The core body.
    pub fn id(&self) -> BodyId {
        self.id
    }
}
