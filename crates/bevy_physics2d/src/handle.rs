//! [`PhysicsBody`]: the link from a rigid-body entity to its core body, with the values the
//! plugin last wrote so user changes can be told apart from the engine's own.

use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec2, Vec3};
use physics_core::id::BodyId;

/// Added by the plugin to every rigid-body entity once its core body exists. Read-only for
/// users: it says which core body the entity is and what the last step wrote.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct PhysicsBody {
    pub(crate) id: BodyId,
    /// Translation and rotation last written to `Transform` by a step.
    pub(crate) written: (Vec3, Quat),
    /// The pose before the last step, for transform interpolation.
    pub(crate) previous: (Vec3, Quat),
    /// The interpolated pose last shown in `Transform`, if interpolation wrote one.
    pub(crate) shown: Option<(Vec3, Quat)>,
    pub(crate) written_linear: Vec2,
    pub(crate) written_angular: f32,
}

impl PhysicsBody {
    pub(crate) fn new(id: BodyId, translation: Vec3, rotation: Quat, v: Vec2, w: f32) -> Self {
        PhysicsBody {
            id,
            written: (translation, rotation),
            previous: (translation, rotation),
            shown: None,
            written_linear: v,
            written_angular: w,
        }
    }

    /// The core body.
    pub fn id(&self) -> BodyId {
        self.id
    }

    /// The pose the last step ended with (what `Transform` holds between steps when
    /// interpolation is off).
    pub fn physics_pose(&self) -> (Vec3, Quat) {
        self.written
    }
}
