//! A two-point manifold's normal points solved together (`WorldDef::solve_points_together`,
//! the default): the 2x2 block's exact answer in the biased pass, one Jacobi step when
//! relaxing.
//!
//! C_i = separation_i >= 0 for the two points, J_i = [-n, -(rA_i x n), n, (rB_i x n)],
//!
//!   K_ij = mA + mB + iA (rA_i x n)(rA_j x n) + iB (rB_i x n)(rB_j x n)
//!
//! (the rigid K of `block_solver.rs`).
//! - Biased pass: both normal impulses from the soft 2x2 complementarity problem, solved
//!   exactly by `block_solver.rs`'s enumeration (both pushing, one, or neither).
//! - Relax pass: each point takes the one-point rigid update with its own normal mass
//!   1 / K_ii, d_i = -omega vn_i / K_ii, x_i = max(0, a_i + d_i), but both vn_i are read
//!   before either impulse is applied: one Jacobi step on the 2x2 system, where Box2D solves
//!   point 1 and then point 2 from the velocity point 1 left (one Gauss-Seidel step). The
//!   step is damped (omega < 1, [`relax_scale`]) where the rows push each other.
//!
//! Why: in a sequential pass the point solved first takes more than its share, a small turn
//! every substep that the same point always gets; Box2D's awake towers lean 1.2 to 2.5 cm
//! over 30 s that way (19 cm with alternating 1 cm offsets). Solved together neither point
//! goes first, and nothing turns the body that its load does not: the towers stand still,
//! the offset one drifts 1.0 cm.
//!
//! Why the block only where biased: the relax pass removes the velocity the biased pass
//! added to push overlap out. Relaxed by the exact block, a box's two points on a face (which
//! push each other down, K12 < 0) keep the push of both at once, and overlap is pushed out
//! faster than point by point (3.51 against 3.48 m/s in `bench_compare --fidelity`'s
//! overlap_recovery); relaxed by a Jacobi step, which like Box2D's point-by-point step
//! removes a little less of the push, it is pushed out gentler (3.04 m/s). Relaxed by the
//! Jacobi step as well, the biased pass lets a pyramid settle further (0.0311 against
//! 0.0306 m, undamped).
//!
//! Damping: where the two rows push each other (K12 > 0: a box bridging two supports, whose
//! points sit on one side of its centre), a Jacobi step overshoots the mode in which both
//! points approach alike by rho: both updates stop their own point and each also lifts the
//! other. Undamped, that overshoot fed the lean that the order of the colours gives a tall
//! pyramid: the 100-row pyramid of `bench_compare`'s large_pyramid leaned its top 0.50 m
//! sideways in 500 steps (0.27 m in Box2D's listed order; in its mirror image 0.79 m
//! against 0.26 m). Scaling both updates by [`relax_scale`] cuts the overshoot from rho to
//! rho - (1 + rho)(1 - omega) (0.57 to 0.375 for a pyramid's box) and brings the lean below
//! the listed order's (0.23 m and 0.09 m). Where the rows pull each other apart (K12 < 0,
//! every box on its face) the step is undamped and the towers are as before. The quarter
//! was chosen by measurement (scratch builds, large_pyramid's lean and the fidelity rows):
//! at 0.15 and 0.25 the rows stay at or below the listed order's (at 0.35 the pyramid ends 0.1
//! mm further); full damping
//! (omega = 1 / (1 + rho), the overshoot removed) also holds the pyramid but pushes overlap
//! out faster than the listed order (`bench_compare --fidelity`'s overlap_recovery 3.78
//! against 3.48 m/s; 3.04 at a quarter) and leaves the pyramid 0.0308 m from where it was
//! built (0.0306).
//!
//! Where: a Jacobi step on two rows converges when they couple by less than their
//! diagonals, |K12| < sqrt(K11 K22), and each step leaves rho = |K12| / sqrt(K11 K22) of the
//! error, with the sign flipped in one mode (a step overshoots the mode along which the rows
//! push each other by 1 + rho). Only manifolds with rho below 0.6 are solved together
//! ([`loosely_coupled`]): a box standing on a face (a unit box on the ground: rho = 0.2;
//! rows of boxes side by side: 0.2; a box half as wide as tall: 0.25) and a box bridging two
//! supports with its centre at a manifold's end (4/7 for a pyramid's unit boxes). Two points
//! that nearly coincide as the bodies see them (rho near 1: a small contact patch, a box a
//! fifth as wide as tall at 0.79) would swing from overshoot to overshoot when relaxing; they
//! keep Box2D's point-by-point order.
//!
//! Piles: in a pile of boxes and balls a hundred times each other's mass, a manifold solved
//! together neither feeds a rocking nor lets a pile at rest move again
//! (physics_core's `tests/mixed_piles.rs`); such piles come to rest or keep moving by chance
//! in every solve, Box2D's listed order included (about one in five still moves at 20 s).

use super::block_solver::{BlockMatrix, BodyMasses};
use super::contact_solver::ConstraintPoint;
use bevy_math::Vec2;

/// The largest rho^2 = K12^2 / (K11 K22) of a manifold whose points are solved together
/// (rho < 0.6): a relaxing Jacobi step then removes at least 40 % of the error in every
/// mode, and a box bridging two supports (rho 4/7) is taken.
pub(crate) const MAX_COUPLING_SQUARED: f32 = 0.36;

/// How much of a relaxing Jacobi step's overshoot is taken back where the two rows push each
/// other (K12 > 0): each update is scaled by 1 / (1 + this rho+), see [`relax_scale`].
pub(crate) const SHARED_PUSH_DAMPING: f32 = 0.25;

/// The factor both updates of a relaxing Jacobi step are scaled by,
///
///   omega = 1 / (1 + SHARED_PUSH_DAMPING rho+),  rho+ = max(K12, 0) / sqrt(K11 K22)
///
/// (see the module's notes, "Damping"): 1 where the rows pull each other apart (a box on
/// its face, K12 < 0), 0.875 for a pyramid's box on one support (rho 4/7). A NaN K12 counts
/// as no coupling. The lanes take the same factor from this function (`together.rs`).
#[inline(always)]
pub(crate) fn relax_scale(k: &BlockMatrix) -> f32 {
    let pushing = k.k12.max(0.0) / (k.k11 * k.k22).sqrt();
    1.0 / (1.0 + SHARED_PUSH_DAMPING * pushing)
}

/// Whether two rows of K couple loosely enough to be solved together (see the module's
/// notes): K12^2 < [`MAX_COUPLING_SQUARED`] K11 K22. False for a NaN.
#[inline(always)]
pub(crate) fn loosely_coupled(k: &BlockMatrix) -> bool {
    k.k12 * k.k12 < MAX_COUPLING_SQUARED * (k.k11 * k.k22)
}

/// K of a two-point manifold whose points are solved together, or `None` when they couple
/// too strongly ([`loosely_coupled`]). The lanes decide the same in the same operations
/// (`wide_contacts/together.rs`, `mark_together`).
pub(crate) fn together_matrix(
    points: &[ConstraintPoint; 2],
    n: Vec2,
    masses: BodyMasses,
) -> Option<BlockMatrix> {
    let k = BlockMatrix::rigid(points, n, masses);
    loosely_coupled(&k).then_some(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points on the bottom face of a box of half extents `hx`, `hy` (unit density, so mass
    /// 4 hx hy) at offsets `x1`, `x2` from its centre, against a fixed body below.
    fn on_fixed(hx: f32, hy: f32, x1: f32, x2: f32) -> Option<BlockMatrix> {
        let (points, masses) = face_on_fixed(hx, hy, x1, x2);
        together_matrix(&points, Vec2::Y, masses)
    }

    /// The points and masses [`on_fixed`] builds its K from.
    fn face_on_fixed(hx: f32, hy: f32, x1: f32, x2: f32) -> ([ConstraintPoint; 2], BodyMasses) {
        let mass = 4.0 * hx * hy;
        let inertia = mass * (4.0 * hx * hx + 4.0 * hy * hy) / 12.0;
        let point = |x: f32| ConstraintPoint {
            anchor_b: Vec2::new(x, -hy),
            ..Default::default()
        };
        (
            [point(x1), point(x2)],
            (0.0, 0.0, 1.0 / mass, 1.0 / inertia),
        )
    }

    fn rho(k: &BlockMatrix) -> f32 {
        k.k12.abs() / (k.k11 * k.k22).sqrt()
    }

    /// A box standing on its face is solved together (rho 0.2 for a unit box, 0.25 for one
    /// half as wide as tall), and so is a pyramid's unit box on one of its two supports
    /// (4/7); a box a fifth as wide as tall (0.79) and the points of a small patch near the
    /// middle (near 1) are not; a NaN mass is not.
    #[test]
    fn a_face_is_solved_together_and_a_small_patch_is_not() {
        let unit = on_fixed(0.5, 0.5, -0.5, 0.5).expect("a unit box's face");
        assert!((rho(&unit) - 0.2).abs() < 1e-5, "rho {}", rho(&unit));
        assert!(
            on_fixed(0.25, 0.5, -0.25, 0.25).is_some(),
            "a box half as wide as tall"
        );
        // The upper box's points at its centre and its left corner, the lower box's at its
        // right corner and its centre; both boxes of unit mass (inertia 1/6).
        let point = |a: f32, b: f32| ConstraintPoint {
            anchor_a: Vec2::new(a, 0.5),
            anchor_b: Vec2::new(b, -0.5),
            ..Default::default()
        };
        let bridge = together_matrix(
            &[point(0.5, 0.0), point(0.0, -0.5)],
            Vec2::Y,
            (1.0, 6.0, 1.0, 6.0),
        )
        .expect("a pyramid's box on one support");
        assert!((rho(&bridge) - 4.0 / 7.0).abs() < 1e-5);
        let (points, masses) = face_on_fixed(0.1, 0.5, -0.1, 0.1);
        let narrow = rho(&BlockMatrix::rigid(&points, Vec2::Y, masses));
        assert!((narrow - 0.79).abs() < 0.01, "rho {narrow}");
        assert!(
            on_fixed(0.1, 0.5, -0.1, 0.1).is_none(),
            "a narrow box's face"
        );
        assert!(on_fixed(0.5, 0.5, -0.05, 0.05).is_none(), "a 10 cm patch");
        let point = ConstraintPoint::default();
        let nan = (0.0, 0.0, f32::NAN, 1.0);
        assert!(together_matrix(&[point, point], Vec2::Y, nan).is_none());
    }

    /// The relaxing step is damped only where the rows push each other: a box on its face
    /// (K12 < 0) keeps the undamped step, a pyramid's box on one support (rho 4/7) takes
    /// 1 / (1 + 1/7) = 0.875, and a NaN coupling counts as none.
    #[test]
    fn the_relaxing_step_is_damped_only_where_the_rows_push_each_other() {
        let face = on_fixed(0.5, 0.5, -0.5, 0.5).expect("a unit box's face");
        assert!(face.k12 < 0.0);
        assert_eq!(relax_scale(&face), 1.0);
        let bridge = BlockMatrix {
            k11: 3.5,
            k12: 2.0,
            k22: 3.5,
        };
        assert!((relax_scale(&bridge) - 0.875).abs() < 1e-6);
        let nan = BlockMatrix {
            k12: f32::NAN,
            ..bridge
        };
        assert_eq!(relax_scale(&nan), 1.0);
    }
}
