//! A two-point manifold's normal points solved together: each point's soft update computed
//! from the same velocities, then both applied (`WorldDef::solve_points_together`).
//!
//! C_i = separation_i >= 0 for the two points, J_i = [-n, -(rA_i x n), n, (rB_i x n)],
//!
//!   K_ij = mA + mB + iA (rA_i x n)(rA_j x n) + iB (rB_i x n)(rB_j x n)
//!
//! (the rigid K of `block_solver.rs`). Each point takes the one-point soft update with its own
//! normal mass 1 / K_ii,
//!
//!   d_i = -(s_i vn_i + bias_i) / K_ii - impulse_scale_i a_i,   x_i = max(0, a_i + d_i),
//!
//! but both vn_i are read before either impulse is applied: one Jacobi step on the 2x2
//! system, where Box2D solves point 1 and then point 2 from the velocity point 1 left (one
//! Gauss-Seidel step).
//!
//! Why: in a sequential pass the point solved first takes more than its share, a small turn
//! every substep that the same point always gets; Box2D's awake towers lean 1.2 to 2.5 cm
//! over 30 s that way (19 cm with alternating 1 cm offsets). From the same velocities neither
//! point goes first, and nothing turns the body that its load does not.
//!
//! Where: a Jacobi step on two rows converges when they couple by less than their
//! diagonals, |K12| < sqrt(K11 K22), and each step leaves rho = |K12| / sqrt(K11 K22) of the
//! error, with the sign flipped in one mode (a step overshoots the mode along which the rows
//! push each other by 1 + rho). Only manifolds with rho below one half are solved together
//! ([`loosely_coupled`]): a box standing on a face (a unit box on the ground: rho = 0.2;
//! rows of boxes side by side: 0.2), where the lean comes from. Two points that nearly
//! coincide as the bodies see them (rho near 1: a small contact patch, a box bridging two
//! supports with its centre at a manifold's end, 0.57 for a pyramid's unit boxes) would
//! swing from overshoot to overshoot; they keep Box2D's point-by-point order, where the turn
//! their order gives is small or held by the other support.
//!
//! Against the 2x2 block of `block_solver.rs` (the exact answer each pass): a box's two
//! points on a face push each other down (K12 < 0), so the exact answer pushes an overlap out
//! at the full soft speed at once, and a Jacobi step, like Box2D's point-by-point one, a
//! little less (`tests/stacking.rs` holds it).
//!
//! What it does not do: in a pile of boxes and balls a hundred times each other's mass (the
//! pile of physics_core's `tests/carried_mass.rs`), solving face manifolds without an order
//! can keep a heavy box rocking on light ones, as the block solver can: 0.65 J after 20 s
//! in the `large-world` build without carried mass, 2.8 J with it (the block solver: 0.15 J
//! and 0.17 J in one build or the other; the listed order comes to rest in both). The
//! point-by-point order damps that rocking and an order-free step does not; why is open.

use super::block_solver::{BlockMatrix, BodyMasses};
use super::contact_solver::ConstraintPoint;
use bevy_math::Vec2;

/// The largest rho^2 = K12^2 / (K11 K22) of a manifold whose points are solved together: a
/// Jacobi step then at least halves the error in every mode.
pub(crate) const MAX_COUPLING_SQUARED: f32 = 0.25;

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
        let mass = 4.0 * hx * hy;
        let inertia = mass * (4.0 * hx * hx + 4.0 * hy * hy) / 12.0;
        let point = |x: f32| ConstraintPoint {
            anchor_b: Vec2::new(x, -hy),
            ..Default::default()
        };
        let masses = (0.0, 0.0, 1.0 / mass, 1.0 / inertia);
        together_matrix(&[point(x1), point(x2)], Vec2::Y, masses)
    }

    /// A box standing on its face is solved together (rho 0.2 for a unit box, 0.25 for one
    /// half as wide as tall); the points of a small patch near the middle (rho near 1) are
    /// not; a NaN mass is not.
    #[test]
    fn a_face_is_solved_together_and_a_small_patch_is_not() {
        let unit = on_fixed(0.5, 0.5, -0.5, 0.5).expect("a unit box's face");
        let rho = unit.k12.abs() / (unit.k11 * unit.k22).sqrt();
        assert!((rho - 0.2).abs() < 1e-5, "rho {rho}");
        assert!(
            on_fixed(0.25, 0.5, -0.25, 0.25).is_some(),
            "a narrow box's face"
        );
        assert!(on_fixed(0.5, 0.5, -0.05, 0.05).is_none(), "a 10 cm patch");
        let point = ConstraintPoint::default();
        let nan = (0.0, 0.0, f32::NAN, 1.0);
        assert!(together_matrix(&[point, point], Vec2::Y, nan).is_none());
    }
}
