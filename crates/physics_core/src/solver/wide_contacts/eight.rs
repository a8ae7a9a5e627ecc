//! Eight lanes: the contact kernel over [`F32x8`], AVX registers, on x86-64 processors
//! with AVX2. A body's state is one row of eight floats, read in one load, and eight rows
//! are transposed at once.
//!
//! The entry points (the `*_avx2` functions behind `LaneGroup`'s solve methods) are
//! compiled with AVX2 enabled and take the whole kernel inlined, so a default build,
//! compiled for plain x86-64, still runs this path at full width; they check once per call
//! (not per group) that the processor has AVX2, which `ContactGroups::new` made sure of
//! before building groups of this width.
#![allow(unsafe_code)]

use super::avx8::F32x8;
use crate::parallel::shared::StatesView;
use crate::solver::contact_solver::TwoPoints;
use kernel::WideBody;
pub(super) use kernel::{Contacts, WideConstraint};

/// Constraints per group: one AVX register of f32.
pub(super) const LANES: usize = 8;

/// One register of lanes.
type Lanes = F32x8;

// The same kernel file as the other width's, compiled over this width's `Lanes`.
#[allow(clippy::duplicate_mod)]
#[path = "kernel.rs"]
mod kernel;

/// The states of the bodies `indices` in lanes: one eight-float row per body, transposed to
/// columns in one 8 x 8 transpose.
#[inline(always)]
fn gather(states: &StatesView, indices: &[u32; LANES]) -> WideBody {
    // Written out: every step must inline into the AVX2 entry points.
    let rows = [
        states.read_row8(indices[0]),
        states.read_row8(indices[1]),
        states.read_row8(indices[2]),
        states.read_row8(indices[3]),
        states.read_row8(indices[4]),
        states.read_row8(indices[5]),
        states.read_row8(indices[6]),
        states.read_row8(indices[7]),
    ];
    WideBody::from_columns(Lanes::transpose(rows))
}

/// The warm start's gather: with eight lanes a body's whole row is one load anyway.
#[inline(always)]
fn gather_velocities(states: &StatesView, indices: &[u32; LANES]) -> WideBody {
    gather(states, indices)
}

/// Writes the lanes' velocities back (the solver changes nothing else); the static index is
/// skipped. The padding lane goes back as it was gathered.
#[inline(always)]
fn scatter(states: &mut StatesView, indices: &[u32; LANES], body: &WideBody) {
    let rows = Lanes::columns_to_rows_of_four([body.vx, body.vy, body.w, body.padding]);
    for (&i, row) in indices.iter().zip(rows) {
        states.write_velocity_row(i, row);
    }
}

/// Panics unless the processor has AVX2: the entry points' guard, one cached test per call.
#[inline(always)]
fn require_avx2() {
    assert!(
        std::arch::is_x86_feature_detected!("avx2"),
        "eight contact lanes built on a processor without AVX2"
    );
}

/// [`kernel::warm_start_groups`] compiled for AVX2.
#[target_feature(enable = "avx2")]
fn warm_start_avx2(groups: &[WideConstraint], states: &mut StatesView) {
    kernel::warm_start_groups(groups, states);
}

/// [`kernel::solve_groups`] compiled for AVX2.
#[target_feature(enable = "avx2")]
fn solve_avx2(
    groups: &mut [WideConstraint],
    states: &mut StatesView,
    inv_h: f32,
    use_bias: bool,
    max_push_speed: f32,
    two_points: TwoPoints,
) {
    kernel::solve_groups(groups, states, inv_h, use_bias, max_push_speed, two_points);
}

/// [`kernel::restitution_groups`] compiled for AVX2.
#[target_feature(enable = "avx2")]
fn restitution_avx2(groups: &mut [WideConstraint], states: &mut StatesView, threshold: f32) {
    kernel::restitution_groups(groups, states, threshold);
}

/// [`kernel::mark_block_groups`] compiled for AVX2.
#[target_feature(enable = "avx2")]
fn mark_blocks_avx2(groups: &mut [WideConstraint], two_points: TwoPoints) {
    kernel::mark_block_groups(groups, two_points);
}

/// The solve's entry points for [`LaneGroup`](super::LaneGroup) (`kernel.rs`): the AVX2 builds of the
/// kernel, behind the processor check.
#[inline(always)]
fn warm_start_entry(groups: &[WideConstraint], states: &mut StatesView) {
    require_avx2();
    // SAFETY: the processor has AVX2 (checked just above).
    unsafe { warm_start_avx2(groups, states) }
}

/// See [`warm_start_entry`].
#[inline(always)]
fn solve_entry(
    groups: &mut [WideConstraint],
    states: &mut StatesView,
    inv_h: f32,
    use_bias: bool,
    max_push_speed: f32,
    two_points: TwoPoints,
) {
    require_avx2();
    // SAFETY: as in `warm_start_entry`.
    unsafe { solve_avx2(groups, states, inv_h, use_bias, max_push_speed, two_points) }
}

/// See [`warm_start_entry`].
#[inline(always)]
fn restitution_entry(groups: &mut [WideConstraint], states: &mut StatesView, threshold: f32) {
    require_avx2();
    // SAFETY: as in `warm_start_entry`.
    unsafe { restitution_avx2(groups, states, threshold) }
}

/// See [`warm_start_entry`].
#[inline(always)]
fn mark_blocks_entry(groups: &mut [WideConstraint], two_points: TwoPoints) {
    require_avx2();
    // SAFETY: as in `warm_start_entry`.
    unsafe { mark_blocks_avx2(groups, two_points) }
}
