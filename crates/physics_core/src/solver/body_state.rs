//! Hot per-body data the solver loops touch, in dense arrays indexed by solver index.

use crate::math::Rot;
use bevy_math::Vec2;

/// Solver index of "a static body": reads give a body at rest, writes are dropped.
pub(crate) const STATIC_BODY: u32 = u32::MAX;

/// Velocity and motion since the start of the step of one moving body.
///
/// Eight floats in a fixed order: the wide contact solver loads the velocity half and the
/// motion half of four bodies as four-lane rows and transposes them.
///
/// Aligned to its own 32 bytes, so a state never straddles two cache lines. At 16 the array's
/// start decided it: the allocator gives 16-byte aligned blocks, and when a block began 16
/// bytes past a 32-byte boundary every other state spanned two lines, every gather of such a
/// body two misses instead of one. Which case a world got depended on the allocator's
/// history, so the same scene in two processes (or two engines in one) stepped up to a tenth
/// apart in the solver's stages (many_pyramids: the plugin's core step against the core's).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
pub(crate) struct BodyState {
    pub linear_velocity: Vec2,
    pub angular_velocity: f32,
    /// Unused; completes the velocity half to four floats.
    pub padding: f32,
    /// Displacement of the centre of mass since the step began.
    pub delta_position: Vec2,
    /// Rotation since the step began.
    pub delta_rotation: Rot,
}

impl BodyState {
    /// A body that does not move.
    pub const AT_REST: BodyState = BodyState {
        linear_velocity: Vec2::ZERO,
        angular_velocity: 0.0,
        padding: 0.0,
        delta_position: Vec2::ZERO,
        delta_rotation: Rot::IDENTITY,
    };
}

/// Per-body constants for one step (mass, forces, damping).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BodyParams {
    pub inv_mass: f32,
    pub inv_inertia: f32,
    /// Gravity scale times world gravity plus force times inverse mass: the constant
    /// acceleration of the step (zero for kinematic bodies).
    pub linear_acceleration: Vec2,
    pub angular_acceleration: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    /// Fastest spin the positions may integrate (rad/s): a quarter turn per step, unless
    /// the body allows fast rotation.
    pub max_angular_speed: f32,
    /// One along each axis the centre of mass may move, zero along a locked one.
    pub linear_freedom: Vec2,
}

/// Reads a body's state, or a body at rest for the static index.
#[inline]
pub(crate) fn read_state(states: &[BodyState], index: u32) -> BodyState {
    if index == STATIC_BODY {
        BodyState::AT_REST
    } else {
        states[index as usize]
    }
}

/// Writes a body's state unless it is the static index.
#[inline]
pub(crate) fn write_state(states: &mut [BodyState], index: u32, state: BodyState) {
    if index != STATIC_BODY {
        states[index as usize] = state;
    }
}
