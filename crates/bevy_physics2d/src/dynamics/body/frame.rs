//! [`Frame`]: where an entity's local coordinates land in its parent's (or the world's)
//! space, for 2D: an origin, a rotation about z and a scale along the local axes.

use crate::world::physics_world::rot_from_quat;
use bevy_math::Vec2;
use bevy_transform::components::Transform;
use physics_core::math::{Rot, Transform as CoreTransform};

/// A 2D frame with scale: where an entity's local coordinates land in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Frame {
    /// Origin.
    pub p: Vec2,
    /// Rotation about z.
    pub q: Rot,
    /// Scale along the local x and y axes.
    pub scale: Vec2,
}

impl Frame {
    /// The world frame itself.
    pub const IDENTITY: Frame = Frame {
        p: Vec2::ZERO,
        q: Rot::IDENTITY,
        scale: Vec2::ONE,
    };

    /// The frame a `Transform` makes in its parent's space (its x, y, rotation about z and
    /// x, y scale).
    pub fn of(transform: &Transform) -> Frame {
        Frame {
            p: transform.translation.truncate(),
            q: rot_from_quat(transform.rotation),
            scale: transform.scale.truncate(),
        }
    }

    /// The frame of a child whose local frame is `local`, in this frame's parent space:
    /// p = P + Q (S * p_local), q = Q q_local, scale = S * scale_local. (Under a parent of
    /// unequal x and y scale a rotated child is sheared in Bevy; physics keeps it rigid.)
    pub fn then(self, local: Frame) -> Frame {
        Frame {
            p: self.p + self.q.rotate(self.scale * local.p),
            q: (self.q * local.q).normalize(),
            scale: self.scale * local.scale,
        }
    }

    /// The rigid pose of this frame (without its scale).
    pub fn pose(self) -> CoreTransform {
        CoreTransform::new(self.p, self.q)
    }

    /// The local translation and rotation, in this frame, of the world pose `world`: the
    /// inverse of [`Frame::then`].
    pub fn local_pose(self, world: CoreTransform) -> (Vec2, Rot) {
        let p = self.q.inv_rotate(world.p - self.p) / self.scale;
        (p, self.q.inv_mul(world.q).normalize())
    }

    /// Where the local point `x` lands.
    pub fn apply(self, x: Vec2) -> Vec2 {
        self.q.rotate(self.scale * x) + self.p
    }

    /// True when the frame mirrors (one axis scaled negatively).
    pub fn mirrors(self) -> bool {
        self.scale.x * self.scale.y < 0.0
    }

    /// The factor a radius is scaled by, and whether it is exact: the scale's size when
    /// both axes scale alike, else the larger (a round shape stays round).
    pub fn radius_scale(self) -> (f32, bool) {
        let (x, y) = (self.scale.x.abs(), self.scale.y.abs());
        (x.max(y), x == y)
    }
}
