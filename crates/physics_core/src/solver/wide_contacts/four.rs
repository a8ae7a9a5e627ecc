//! Four lanes: the contact kernel over `wide::f32x4` (SSE2 on x86-64, NEON on aarch64),
//! which every processor runs. A body's state is read as its two rows of four floats and
//! transposed four bodies at a time.

use crate::parallel::shared::StatesView;
use crate::solver::contact_solver::TwoPoints;
use kernel::WideBody;
pub(super) use kernel::{Contacts, WideConstraint};

/// Constraints per group: one SSE2 / NEON register of f32.
pub(super) const LANES: usize = 4;

/// One register of lanes.
type Lanes = wide::f32x4;

// The same kernel file as the other width's, compiled over this width's `Lanes`.
#[allow(clippy::duplicate_mod)]
#[path = "kernel.rs"]
mod kernel;

/// The states of the bodies `indices` in lanes: rows of four bodies transposed to columns.
#[inline(always)]
fn gather(states: &StatesView, indices: &[u32; LANES]) -> WideBody {
    // Written out: `indices.map` is not always inlined, and this runs per group per stage.
    let [r0, r1, r2, r3] = [
        states.read_rows(indices[0]),
        states.read_rows(indices[1]),
        states.read_rows(indices[2]),
        states.read_rows(indices[3]),
    ];
    let [vx, vy, w, padding] = Lanes::transpose([r0[0], r1[0], r2[0], r3[0]]);
    let [dpx, dpy, qc, qs] = Lanes::transpose([r0[1], r1[1], r2[1], r3[1]]);
    WideBody::from_columns([vx, vy, w, padding, dpx, dpy, qc, qs])
}

/// Only the velocities of the bodies `indices` in lanes (the motion half is left at zero):
/// enough for the warm start, which moves nothing.
#[inline(always)]
fn gather_velocities(states: &StatesView, indices: &[u32; LANES]) -> WideBody {
    let [r0, r1, r2, r3] = [
        states.read_rows(indices[0])[0],
        states.read_rows(indices[1])[0],
        states.read_rows(indices[2])[0],
        states.read_rows(indices[3])[0],
    ];
    let [vx, vy, w, padding] = Lanes::transpose([r0, r1, r2, r3]);
    let zero = Lanes::splat(0.0);
    WideBody::from_columns([vx, vy, w, padding, zero, zero, zero, zero])
}

/// Writes the lanes' velocities back (the solver changes nothing else); the static index is
/// skipped.
#[inline(always)]
fn scatter(states: &mut StatesView, indices: &[u32; LANES], body: &WideBody) {
    // The padding lane goes back as it was gathered.
    let velocity_rows = Lanes::transpose([body.vx, body.vy, body.w, body.padding]);
    for (&i, row) in indices.iter().zip(velocity_rows) {
        states.write_velocity_row(i, row);
    }
}

/// The solve's entry points for [`LaneGroup`](super::LaneGroup) (`kernel.rs`): plain calls, as every
/// processor runs four lanes.
#[inline(always)]
fn warm_start_entry(groups: &[WideConstraint], states: &mut StatesView) {
    kernel::warm_start_groups(groups, states);
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
    kernel::solve_groups(groups, states, inv_h, use_bias, max_push_speed, two_points);
}

/// See [`warm_start_entry`].
#[inline(always)]
fn restitution_entry(groups: &mut [WideConstraint], states: &mut StatesView, threshold: f32) {
    kernel::restitution_groups(groups, states, threshold);
}

/// See [`warm_start_entry`].
#[inline(always)]
fn mark_blocks_entry(groups: &mut [WideConstraint], two_points: TwoPoints) {
    kernel::mark_block_groups(groups, two_points);
}
