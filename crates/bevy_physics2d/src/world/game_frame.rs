//! How the game's coordinates meet the core world's positions: [`GameFrame`], measured
//! from the floating origin (the `origin` folder moves it).

use bevy_math::Vec2;
use physics_core::math::Transform as CoreTransform;
use physics_core::position::{
    Position, WorldTransform, offset, outward_corners, relative, to_position,
};
use physics_core::shape::Aabb;

/// Where the game's coordinates are measured from, and how the plugin converts between
/// them and the core world's positions. Copied out of
/// [`PhysicsWorld::game_frame`](super::PhysicsWorld::game_frame) by the plugin's systems.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GameFrame {
    origin: Position,
}

impl GameFrame {
    /// The frame whose (0, 0) is the world point `origin`.
    pub fn at(origin: Position) -> Self {
        GameFrame { origin }
    }

    /// The world point at the game's (0, 0).
    pub fn origin(self) -> Position {
        self.origin
    }

    /// A game point in the world. At the world's own origin the point itself, to the bit
    /// (even the sign of a zero), so a game whose origin never moves steps as it always has.
    #[inline]
    pub fn to_world(self, v: Vec2) -> Position {
        if self.origin == Position::ZERO {
            to_position(v)
        } else {
            offset(self.origin, v)
        }
    }

    /// A world point in the game's coordinates.
    #[inline]
    pub fn to_game(self, p: Position) -> Vec2 {
        relative(p, self.origin)
    }

    /// A game pose in the world.
    #[inline]
    pub fn pose_to_world(self, xf: CoreTransform) -> WorldTransform {
        WorldTransform::new(self.to_world(xf.p), xf.q)
    }

    /// A world pose in the game's coordinates.
    #[inline]
    pub fn pose_to_game(self, xf: WorldTransform) -> CoreTransform {
        CoreTransform::new(self.to_game(xf.p), xf.q)
    }

    /// A game box in the world: the float box holding it there (rounded outward).
    pub fn aabb_to_world(self, aabb: Aabb) -> Aabb {
        if self.origin == Position::ZERO {
            return aabb;
        }
        let (min, max) = outward_corners(self.to_world(aabb.min), self.to_world(aabb.max));
        Aabb::new(min, max)
    }
}
