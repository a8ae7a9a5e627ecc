//! The 2-point block solver of `block_solver.rs` in SIMD lanes: the two normal points of each
//! lane's manifold solved together as one 2x2 linear complementarity problem.
//!
//! Derivation (per lane; cedarcantab and `block_solver.rs`):
//!
//!   C_i = separation_i >= 0 for the two points, J_i = [-n, -(rA_i x n), n, (rB_i x n)]
//!   K_ij = mA + mB + iA (rA_i x n)(rA_j x n) + iB (rB_i x n)(rB_j x n)
//!
//! With the soft model each point adds the compliance gamma_i = K_ii impulse_scale_i /
//! mass_scale_i, and with x the new accumulated impulses and a the old ones
//!
//!   w = (K + Gamma) x + (vn + bias / mass_scale - K a) >= 0,  x >= 0,  x_i w_i = 0.
//!
//! Every lane tries the four cases of the enumeration at once (both points pushing, only the
//! first, only the second, neither) and keeps the first that holds, by lane masks. A lane
//! whose manifold has one point, whose K is ill conditioned (the points nearly coincide as
//! the bodies see them), that holds no turning body's centre between its points (a body
//! bridging two supports; see `block_solver.rs`), or where no case holds is left
//! untouched: the caller solves its points one after the other, as without the block
//! solver. All but the last are known once the group is prepared (`mark_blocks`, once a
//! step), and a group with no block lane never enters the block solve. With points solved
//! together (`points_together.rs`, the default) the biased pass takes the lanes whose rows
//! couple loosely instead (`together.rs`, `mark_together`), bridges included.
//!
//! Each row is solved times its point's mass scale, as in `block_solver.rs`: the diagonal
//! becomes K_ii, whose inverse is the point's normal mass, so the enumeration divides once
//! (by the determinant) instead of three times, which keeps the block solve about as fast
//! as the point-by-point one. The equations are the scalar block solver's; the test
//! `block_lanes_give_what_the_scalar_block_gives` holds the two together. Like the rest of
//! the lanes' solver it uses no fused multiply-add, and the lanes it leaves keep their
//! velocities by selection, so both lane widths give the same bits.

use super::{Lanes, WideBody, WideConstraint, apply, relative_velocity};
use crate::solver::block_solver::{MAX_CONDITION_NUMBER, MIN_CENTRE_SHARE};

/// The lanes' lever arms r x n of both points on A and on B, and their rigid K (as
/// `BlockMatrix::for_points` builds it, in the same operations).
pub(super) struct LaneMatrix {
    pub arms_a: [Lanes; 2],
    pub arms_b: [Lanes; 2],
    pub k11: Lanes,
    pub k12: Lanes,
    pub k22: Lanes,
}

#[inline(always)]
pub(super) fn lane_matrix(c: &WideConstraint) -> LaneMatrix {
    let (nx, ny) = (c.normal_x, c.normal_y);
    let [p1, p2] = &c.points;
    let ra1 = p1.anchor_a_x * ny - p1.anchor_a_y * nx;
    let rb1 = p1.anchor_b_x * ny - p1.anchor_b_y * nx;
    let ra2 = p2.anchor_a_x * ny - p2.anchor_a_y * nx;
    let rb2 = p2.anchor_b_x * ny - p2.anchor_b_y * nx;
    let m = c.inv_mass_a + c.inv_mass_b;
    let (ia, ib) = (c.inv_inertia_a, c.inv_inertia_b);
    LaneMatrix {
        arms_a: [ra1, ra2],
        arms_b: [rb1, rb2],
        k11: m + ia * ra1 * ra1 + ib * rb1 * rb1,
        k22: m + ia * ra2 * ra2 + ib * rb2 * rb2,
        k12: m + ia * ra1 * ra2 + ib * rb1 * rb2,
    }
}

/// Notes in `c.block` the lanes the block solver takes, as `BlockMatrix::for_points` decides
/// for one constraint (the same operations, so the same answers): two points (a one-point
/// manifold's second point has no mass), K well conditioned, and a turning body's centre
/// between the points. Once a step for each group, as its anchors and masses stay.
#[inline(always)]
pub(super) fn mark_blocks(c: &mut WideConstraint) {
    let zero = Lanes::splat(0.0);
    let LaneMatrix {
        arms_a,
        arms_b,
        k11,
        k12,
        k22,
    } = lane_matrix(c);
    let det = k11 * k22 - k12 * k12;
    let conditioned = (k11 * k11).simd_lt(Lanes::splat(MAX_CONDITION_NUMBER) * det);
    let share = Lanes::splat(MIN_CENTRE_SHARE * (1.0 - MIN_CENTRE_SHARE));
    let between = |[arm1, arm2]: [Lanes; 2]| {
        let span = arm1 - arm2;
        (zero - arm1 * arm2).simd_gt(share * span * span)
    };
    let (ia, ib) = (c.inv_inertia_a, c.inv_inertia_b);
    let holds = (ia.simd_gt(zero) & between(arms_a)) | (ib.simd_gt(zero) & between(arms_b));
    flag_lanes(
        c,
        c.points[1].normal_mass.simd_gt(zero) & conditioned & holds,
    );
}

/// Sets `c.block` to the lanes of the mask `takes` (all bits set in a lane taken); the
/// inverse of [`flagged_lanes`].
#[inline(always)]
pub(super) fn flag_lanes(c: &mut WideConstraint, takes: Lanes) {
    for (flag, take) in c.block.iter_mut().zip(takes.as_array()) {
        *flag = take.to_bits() != 0;
    }
}

/// The lanes `c.block` flags, as a mask (all bits set in a flagged lane).
#[inline(always)]
pub(super) fn flagged_lanes(c: &WideConstraint) -> Lanes {
    let zero = Lanes::splat(0.0);
    let mut flags = zero;
    for (flag, &lane) in flags.as_mut_array().iter_mut().zip(&c.block) {
        *flag = if lane { 1.0 } else { 0.0 };
    }
    flags.simd_gt(zero)
}

/// A point's soft terms for this iteration: the bias (already times the mass scale, as the
/// point update uses it), the mass scale and the impulse scale.
#[derive(Clone, Copy)]
pub(super) struct PointTerms {
    pub bias: Lanes,
    pub mass_scale: Lanes,
    pub impulse_scale: Lanes,
    /// The point's current separation (which point is deeper).
    pub separation: Lanes,
}

/// Solves the two normal points of every lane that the block can answer, applies their
/// impulses, and returns the mask of those lanes (all bits set in a lane it solved).
#[inline(always)]
pub(super) fn solve_normal_pair<const USE_BIAS: bool>(
    c: &mut WideConstraint,
    a: &mut WideBody,
    b: &mut WideBody,
    terms: &[PointTerms; 2],
) -> Lanes {
    let zero = Lanes::splat(0.0);
    // Which lanes are blocks was decided when the group was prepared: a two-point manifold
    // whose K is well conditioned and that holds a turning body's centre between its points
    // (`block_solver::BlockMatrix::for_points`), or, with points solved together, one whose
    // rows couple loosely (`together.rs`). The caller sends only groups with one.
    let eligible = flagged_lanes(c);
    let (nx, ny) = (c.normal_x, c.normal_y);
    let [p1, p2] = &c.points;
    let LaneMatrix { k11, k12, k22, .. } = lane_matrix(c);

    // Row i of the condition times the point's mass scale s_i (mass_scale + impulse_scale
    // is 1, so the compliance K_ii impulse_scale_i / s_i scales to K_ii (1 - s_i)):
    //   A' = [[K11, s1 K12], [s2 K12, K22]],  b'_i = s_i vn_i + bias_i - s_i (K a)_i.
    // Scaling rows by positive numbers keeps the complementarity conditions, and 1 / K_ii
    // is the point's normal mass: the enumeration takes one division, not three.
    let mut vn = [zero; 2];
    let mut rhs = [zero; 2];
    let old = [p1.normal_impulse, p2.normal_impulse];
    let k_old = [k11 * old[0] + k12 * old[1], k12 * old[0] + k22 * old[1]];
    for i in 0..2 {
        let p = &c.points[i];
        let t = terms[i];
        let (vx, vy) = relative_velocity(a, b, p);
        vn[i] = vx * nx + vy * ny;
        rhs[i] = t.mass_scale * vn[i] + t.bias - t.mass_scale * k_old[i];
    }
    let [b1, b2] = rhs;
    let a12 = terms[0].mass_scale * k12;
    let a21 = terms[1].mass_scale * k12;

    // Both points pushing: A' x = -b'.
    let det = k11 * k22 - a12 * a21;
    let inv = Lanes::splat(1.0) / det;
    let both_1 = -inv * (k22 * b1 - a12 * b2);
    let both_2 = -inv * (k11 * b2 - a21 * b1);
    let both = det.simd_gt(zero) & both_1.simd_ge(zero) & both_2.simd_ge(zero);
    // Only the first: x2 = 0, w1 = 0, and w2 >= 0.
    let first = -b1 * p1.normal_mass;
    let only_first = first.simd_ge(zero) & (a21 * first + b2).simd_ge(zero);
    // Only the second.
    let second = -b2 * p2.normal_mass;
    let only_second = second.simd_ge(zero) & (a12 * second + b1).simd_ge(zero);
    // Neither: both separate.
    let neither = b1.simd_ge(zero) & b2.simd_ge(zero);

    let solved = eligible & (both | only_first | only_second | neither);
    if !solved.any() {
        return zero;
    }
    // The first case that holds, in the enumeration's order.
    let x1 = both.select(both_1, only_first.select(first, zero));
    let x2 = both.select(
        both_2,
        only_first.select(zero, only_second.select(second, zero)),
    );

    // Lanes the block leaves keep their velocities; when it solved them all there are none.
    let before = (!solved.all()).then(|| (a.velocities(), b.velocities()));
    for (i, x) in [x1, x2].into_iter().enumerate() {
        let p = &c.points[i];
        let total = solved.select(x, p.normal_impulse);
        let applied = total - p.normal_impulse;
        let max_normal_impulse =
            solved.select(p.max_normal_impulse.fast_max(applied), p.max_normal_impulse);
        let relative_velocity = if USE_BIAS {
            (solved & applied.simd_gt(zero))
                .select(p.relative_velocity.fast_min(vn[i]), p.relative_velocity)
        } else {
            p.relative_velocity
        };
        apply(c, a, b, p, applied * nx, applied * ny);
        let q = &mut c.points[i];
        q.normal_impulse = total;
        q.max_normal_impulse = max_normal_impulse;
        q.relative_velocity = relative_velocity;
    }
    if let Some((kept_a, kept_b)) = before {
        a.keep_velocities_outside(solved, kept_a);
        b.keep_velocities_outside(solved, kept_b);
    }
    solved
}
