//! A manifold's two normal points solved together in SIMD lanes (`points_together.rs`): where
//! a lane's rows couple loosely, the biased pass takes the block (`block.rs`) and, relaxing,
//! the second point's normal velocity is read before the first point's impulse is applied,
//! so both updates see the same velocities (one Jacobi step on the lane's 2x2 system,
//! damped by the lane's `relax_scale`; the kernel's `solve_group` does the rest with the
//! point-by-point update itself). Lanes whose
//! rows couple strongly, and one-point lanes, keep the listed order.
//!
//! Which lanes is decided once a step when a group is prepared (`mark_together`), from
//! the same K as the block solver's and in the operations of
//! `points_together::together_matrix`, so the lanes and the scalar path agree bit for bit.

use super::block::{LaneMatrix, flag_lanes, lane_matrix};
use super::{Lanes, WideConstraint};
use crate::solver::block_solver::BlockMatrix;
use crate::solver::points_together::{MAX_COUPLING_SQUARED, relax_scale};

/// Notes in `c.block` the lanes whose two points are solved together: two points (a
/// one-point manifold's second point has no mass) whose rows couple loosely,
/// K12^2 < `MAX_COUPLING_SQUARED` K11 K22, and the damping of their relaxing Jacobi step
/// (`points_together::relax_scale`, lane by lane with the scalar function itself, so both
/// paths scale by the same bits; 1 in the other lanes). Once a step for each group.
#[inline(always)]
pub(super) fn mark_together(c: &mut WideConstraint) {
    let zero = Lanes::splat(0.0);
    let LaneMatrix { k11, k12, k22, .. } = lane_matrix(c);
    let loose = (k12 * k12).simd_lt(Lanes::splat(MAX_COUPLING_SQUARED) * (k11 * k22));
    flag_lanes(c, c.points[1].normal_mass.simd_gt(zero) & loose);
    let mut scale = Lanes::splat(1.0);
    let lanes = scale.as_mut_array().iter_mut().zip(&c.block);
    for (lane, (scale, &together)) in lanes.enumerate() {
        if together {
            let k = BlockMatrix {
                k11: k11.as_array()[lane],
                k12: k12.as_array()[lane],
                k22: k22.as_array()[lane],
            };
            *scale = relax_scale(&k);
        }
    }
    c.relax_scale = scale;
}
