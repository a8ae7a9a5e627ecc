//! World positions at the build's precision, and the boundary where they meet float frames.
//!
//! A float has 24 bits of mantissa: at 10 km from the origin its step is 1 mm, at 100 km
//! 8 mm, at 10,000 km a metre. Bodies that far out snap to that grid each step, and stacks
//! jitter and creep. The `large-world` feature keeps the one thing that grows with distance
//! in double precision: where each body is ([`Position`], [`WorldTransform`]). Everything
//! that stays small stays float: shapes, velocities, the per-step motion the solver
//! integrates, manifolds (their anchors are vectors from a body's origin), the broadphase's
//! boxes (rounded outward). Every computation between two bodies runs in a float frame whose
//! origin sits at one of them ([`FrameOrigin`]), so its numbers are metres-sized wherever the
//! bodies are.
//!
//! Without the feature every type here is its float counterpart and every helper is the
//! float expression the engine has always computed: the float build steps to the same bits
//! it did before the boundary existed (`tests/golden_hash.rs`).
//!
//! ```
//! use physics_core::position::{Position, FrameOrigin, offset, relative};
//! use physics_core::Vec2;
//!
//! let a = offset(Position::ZERO, Vec2::new(3.0, 4.0));
//! let b = offset(a, Vec2::new(1.0, 0.0));
//! assert_eq!(relative(b, a), Vec2::new(1.0, 0.0));
//! // A frame at `a` sees `b` one metre to its right.
//! assert_eq!(FrameOrigin::at(a).to_frame(b), FrameOrigin::at(a).to_frame(a) + Vec2::X);
//! ```

#[cfg(feature = "large-world")]
use crate::math::Rot;
use crate::math::Transform;
use bevy_math::Vec2;

/// True in the `large-world` build, where positions are double precision.
pub const LARGE_WORLD: bool = cfg!(feature = "large-world");

/// A point in the world: `Vec2` in the float build, `DVec2` in the `large-world` build.
#[cfg(not(feature = "large-world"))]
pub type Position = Vec2;
/// A point in the world: `Vec2` in the float build, `DVec2` in the `large-world` build.
#[cfg(feature = "large-world")]
pub type Position = bevy_math::DVec2;

/// Where a body is and how it is turned: [`Transform`] in the float build; in the
/// `large-world` build a double [`Position`] with a float rotation.
#[cfg(not(feature = "large-world"))]
pub type WorldTransform = Transform;

/// Where a body is and how it is turned: [`Transform`] in the float build; in the
/// `large-world` build a double [`Position`] with a float rotation.
#[cfg(feature = "large-world")]
#[derive(Clone, Copy, Debug, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct WorldTransform {
    /// Translation.
    pub p: Position,
    /// Rotation.
    pub q: Rot,
}

#[cfg(feature = "large-world")]
impl WorldTransform {
    /// No translation, no rotation.
    pub const IDENTITY: WorldTransform = WorldTransform {
        p: Position::ZERO,
        q: Rot::IDENTITY,
    };

    /// A transform from a translation and a rotation.
    pub fn new(p: Position, q: Rot) -> Self {
        WorldTransform { p, q }
    }

    /// A transform from a translation and an angle in radians.
    pub fn from_angle(p: Position, angle: f32) -> Self {
        WorldTransform {
            p,
            q: Rot::from_angle(angle),
        }
    }

    /// Maps a point from the body's frame to the world.
    #[inline]
    pub fn apply(self, v: Vec2) -> Position {
        offset(self.p, self.q.rotate(v))
    }

    /// Maps a world point into the body's frame.
    #[inline]
    pub fn apply_inverse(self, p: Position) -> Vec2 {
        self.q.inv_rotate(relative(p, self.p))
    }

    /// `other` expressed in this transform's frame (a float transform: the two are near).
    #[inline]
    pub fn inv_mul(self, other: WorldTransform) -> Transform {
        Transform {
            p: self.q.inv_rotate(relative(other.p, self.p)),
            q: self.q.inv_mul(other.q),
        }
    }

    /// True when the translation is finite and the rotation valid.
    pub fn is_valid(self) -> bool {
        self.p.is_finite() && self.q.is_valid()
    }
}

#[cfg(feature = "large-world")]
impl From<Transform> for WorldTransform {
    /// A float transform as a world transform (exact).
    fn from(xf: Transform) -> Self {
        to_world_transform(xf)
    }
}

/// `v` as a world position (exact in both builds).
#[inline(always)]
pub fn to_position(v: Vec2) -> Position {
    #[cfg(feature = "large-world")]
    {
        v.as_dvec2()
    }
    #[cfg(not(feature = "large-world"))]
    {
        v
    }
}

/// A world position rounded to float: exact in the float build, lossy far from the origin
/// in the `large-world` build. For drawing and for values near the origin; differences of
/// positions go through [`relative`].
#[inline(always)]
pub fn to_vec2(p: Position) -> Vec2 {
    #[cfg(feature = "large-world")]
    {
        p.as_vec2()
    }
    #[cfg(not(feature = "large-world"))]
    {
        p
    }
}

/// The position `d` away from `p`.
#[inline(always)]
pub fn offset(p: Position, d: Vec2) -> Position {
    #[cfg(feature = "large-world")]
    {
        p + d.as_dvec2()
    }
    #[cfg(not(feature = "large-world"))]
    {
        p + d
    }
}

/// The vector from `b` to `a`, in float: the precision boundary. Exact to float precision
/// of the difference however far out the two are.
#[inline(always)]
pub fn relative(a: Position, b: Position) -> Vec2 {
    #[cfg(feature = "large-world")]
    {
        (a - b).as_vec2()
    }
    #[cfg(not(feature = "large-world"))]
    {
        a - b
    }
}

/// The bits of both coordinates, widened to 64 (hashing and bit-for-bit comparisons).
#[inline]
pub fn position_bits(p: Position) -> [u64; 2] {
    #[cfg(feature = "large-world")]
    {
        [p.x.to_bits(), p.y.to_bits()]
    }
    #[cfg(not(feature = "large-world"))]
    {
        [p.x.to_bits().into(), p.y.to_bits().into()]
    }
}

/// True when both coordinates are finite.
#[inline]
pub fn is_finite_position(p: Position) -> bool {
    p.x.is_finite() && p.y.is_finite()
}

/// A world transform from a float one (exact).
#[inline(always)]
pub fn to_world_transform(xf: Transform) -> WorldTransform {
    WorldTransform {
        p: to_position(xf.p),
        q: xf.q,
    }
}

/// The origin of a float frame that computations between nearby bodies run in.
///
/// In the float build the frame is the world itself and the origin carries nothing: moving
/// into and out of it changes no bit. In the `large-world` build it is a double position
/// (usually one body's origin), so everything in the frame is metres-sized.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameOrigin {
    #[cfg(feature = "large-world")]
    origin: Position,
}

impl FrameOrigin {
    /// The world's own origin.
    pub const WORLD: FrameOrigin = FrameOrigin {
        #[cfg(feature = "large-world")]
        origin: Position::ZERO,
    };

    /// A frame whose origin is at `origin` (the float build ignores it: its frame is the
    /// world's).
    #[inline(always)]
    pub fn at(origin: Position) -> FrameOrigin {
        #[cfg(not(feature = "large-world"))]
        let _ = origin;
        FrameOrigin {
            #[cfg(feature = "large-world")]
            origin,
        }
    }

    /// Where this frame's origin is in the world.
    #[inline(always)]
    pub fn position(self) -> Position {
        #[cfg(feature = "large-world")]
        {
            self.origin
        }
        #[cfg(not(feature = "large-world"))]
        {
            Position::ZERO
        }
    }

    /// A world point in this frame.
    #[inline(always)]
    pub fn to_frame(self, p: Position) -> Vec2 {
        #[cfg(feature = "large-world")]
        {
            relative(p, self.origin)
        }
        #[cfg(not(feature = "large-world"))]
        {
            p
        }
    }

    /// A point of this frame in the world.
    #[inline(always)]
    pub fn to_world(self, v: Vec2) -> Position {
        #[cfg(feature = "large-world")]
        {
            offset(self.origin, v)
        }
        #[cfg(not(feature = "large-world"))]
        {
            v
        }
    }

    /// A body's world transform in this frame.
    #[inline(always)]
    pub fn transform_to_frame(self, xf: WorldTransform) -> Transform {
        Transform {
            p: self.to_frame(xf.p),
            q: xf.q,
        }
    }

    /// A transform of this frame in the world.
    #[inline(always)]
    pub fn transform_to_world(self, xf: Transform) -> WorldTransform {
        WorldTransform {
            p: self.to_world(xf.p),
            q: xf.q,
        }
    }
}

/// The corners of the float box holding every point of `[min, max]` given in double
/// (rounded outward); in the float build, the corners themselves.
#[inline]
pub fn outward_corners(min: Position, max: Position) -> (Vec2, Vec2) {
    #[cfg(feature = "large-world")]
    {
        let down = |x: f64| {
            let f = x as f32;
            if f as f64 > x { f.next_down() } else { f }
        };
        let up = |x: f64| {
            let f = x as f32;
            if (f as f64) < x { f.next_up() } else { f }
        };
        (
            Vec2::new(down(min.x), down(min.y)),
            Vec2::new(up(max.x), up(max.y)),
        )
    }
    #[cfg(not(feature = "large-world"))]
    {
        (min, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_at_a_far_body_sees_its_neighbour_to_float_precision() {
        // 10,000 km out, a float's step is a metre; a millimetre apart must still read as one.
        let far = offset(to_position(Vec2::new(1.0e7, -1.0e7)), Vec2::ZERO);
        let near = offset(far, Vec2::new(1.0e-3, 0.5));
        let frame = FrameOrigin::at(far);
        let seen = frame.to_frame(near) - frame.to_frame(far);
        if LARGE_WORLD {
            assert!((seen - Vec2::new(1.0e-3, 0.5)).length() < 1e-7, "{seen}");
        } else {
            // The float build has no more than a float: the millimetre is lost.
            assert_eq!(seen.x, 0.0);
        }
    }

    #[test]
    fn an_outward_box_holds_its_double_corners() {
        let min = offset(to_position(Vec2::splat(1.0e7)), Vec2::new(0.3, -0.3));
        let max = offset(min, Vec2::new(0.4, 0.9));
        let (lo, hi) = outward_corners(min, max);
        assert!((lo.x as f64) <= min.x as f64 && (lo.y as f64) <= min.y as f64);
        assert!((hi.x as f64) >= max.x as f64 && (hi.y as f64) >= max.y as f64);
    }

    #[test]
    fn the_world_frame_changes_nothing() {
        let v = Vec2::new(-0.0, 12.5);
        let back = FrameOrigin::WORLD.to_frame(FrameOrigin::WORLD.to_world(v));
        assert_eq!(back, v);
        if !LARGE_WORLD {
            // The float build's frame is the world: not even a zero's sign changes.
            assert_eq!(back.x.to_bits(), v.x.to_bits());
        }
    }
}
