//! The soft step: the order of the solver stages.
//!
//! ```text
//! prepare joints and contacts            (once per step; contacts in parallel blocks)
//! colour contacts                        constraints of one colour share no moving body;
//!                                        each colour is packed into SIMD groups of four
//!                                        (packing in parallel blocks)
//! for each of the n substeps (h = dt / n):
//!     integrate velocities               gravity, forces, damping
//!     warm start                         joints, then contacts: the accumulated impulses
//!     solve                              joints (small joint islands exactly), then
//!                                        contacts (overflow one by one, then colour by
//!                                        colour in lanes): soft, with position bias
//!     integrate positions                delta position and delta rotation; small joint
//!                                        islands projected exactly onto their constraints
//!     relax                              joints, then contacts: rigid, without bias
//! restitution                            once, for points that approached fast
//! store impulses                         for next step's warm start
//! ```
//!
//! `step_stages.rs` runs this list as stages on the world's task runner: body stages in
//! ranges of bodies, colour stages in blocks of one colour's groups, and the scalar work
//! (joints, exact islands, overflow contacts, restitution) as single-block stages.
//!
//! Solving with bias pushes overlapping bodies apart softly; relaxing without bias then
//! removes the velocity that push added, so separation does not turn into bounce.

pub(crate) mod block_solver;
pub(crate) mod body_state;
pub(crate) mod contact_solver;
pub(crate) mod graph_coloring;
pub(crate) mod island;
pub mod softness;
mod step_stages;
pub(crate) mod wide_contact_solver;

use crate::joint::{ExactIsland, IslandScratch, JointConstraint};
use bevy_math::Vec2;
use body_state::{BodyParams, BodyState};
use contact_solver::{ContactConstraint, ContactSolveSettings};
use graph_coloring::GraphColoring;
pub(crate) use step_stages::run_substeps;
use wide_contact_solver::WideContacts;

/// The most a body may turn in one substep; faster spin is clamped so the first-order
/// rotation update stays accurate.
const MAX_ROTATION_PER_SUBSTEP: f32 = 0.25 * std::f32::consts::PI;

/// Everything the substep loop works on, in dense arrays indexed by solver index.
#[derive(Default)]
pub(crate) struct SolverArrays {
    pub states: Vec<BodyState>,
    pub params: Vec<BodyParams>,
    /// Body (slot, generation) of each solver index: `finalize` skips a body destroyed (and
    /// perhaps replaced) between `solve` and `finalize`.
    pub bodies: Vec<(u32, u32)>,
    /// Solver index of every body slot (`STATIC_BODY` for bodies not solved), from `solve`.
    pub solver_index: Vec<u32>,
    pub contacts: Vec<ContactConstraint>,
    pub joints: Vec<JointConstraint>,
    pub exact_islands: Vec<ExactIsland>,
    pub island_scratch: IslandScratch,
    /// Contact constraints by colour; its overflow list is solved by the scalar path.
    pub coloring: GraphColoring,
    /// The coloured contact constraints in SIMD groups.
    pub wide_contacts: WideContacts,
}

/// Step-wide solver settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepSettings {
    pub dt: f32,
    pub substeps: u32,
    pub max_linear_speed: f32,
    pub contact: ContactSolveSettings,
    /// Bias rate of the joint softness, used by the exact island solve.
    pub joint_bias_rate: f32,
}

/// Colours the contact constraints and lays the coloured ones out in SIMD groups (packed by
/// a stage). With the block solver on, every constraint goes to the scalar path (the block
/// solver is scalar).
pub(crate) fn color_contacts(arrays: &mut SolverArrays, use_block_solver: bool) {
    let coloring = &mut arrays.coloring;
    coloring.reset(arrays.states.len());
    for (k, c) in arrays.contacts.iter().enumerate() {
        if use_block_solver {
            coloring.overflow.push(k as u32);
        } else {
            coloring.add(k as u32, c.index_a, c.index_b);
        }
    }
    arrays.wide_contacts.layout(coloring);
}

/// v += h a, then damping as 1 / (1 + h c) (stable for any h), then the speed limits.
pub(crate) fn integrate_velocities(
    states: &mut [BodyState],
    params: &[BodyParams],
    h: f32,
    max_speed: f32,
) {
    let max_spin = MAX_ROTATION_PER_SUBSTEP / h;
    for (s, p) in states.iter_mut().zip(params) {
        if p.inv_mass == 0.0 && p.inv_inertia == 0.0 {
            // Kinematic: keeps the velocity it was given.
            continue;
        }
        let v = (s.linear_velocity + h * p.linear_acceleration) / (1.0 + h * p.linear_damping);
        let w = (s.angular_velocity + h * p.angular_acceleration) / (1.0 + h * p.angular_damping);
        // Components first, so an infinite velocity (from a huge force) still clamps to a
        // finite one instead of overflowing |v|^2.
        let v = v.clamp(Vec2::splat(-max_speed), Vec2::splat(max_speed));
        let speed_sq = v.length_squared();
        s.linear_velocity = if speed_sq > max_speed * max_speed {
            v * (max_speed / speed_sq.sqrt())
        } else {
            v
        };
        s.angular_velocity = w.clamp(-max_spin, max_spin);
    }
}

/// dp += h v; dq advances by h w without trigonometry.
pub(crate) fn integrate_positions(states: &mut [BodyState], h: f32) {
    for s in states.iter_mut() {
        s.delta_position += h * s.linear_velocity;
        s.delta_rotation = s.delta_rotation.integrate(h * s.angular_velocity);
    }
}
