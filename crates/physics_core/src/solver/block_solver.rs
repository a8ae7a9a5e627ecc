//! The 2-point block solver (cedarcantab): both normal constraints of a two-point manifold solved
//! together as a 2x2 linear complementarity problem by total enumeration.
//!
//! C_i = separation_i >= 0 for the two points, J_i = [-n, -(rA_i x n), n, (rB_i x n)],
//!
//!   K = [[J1 M^-1 J1^T, J1 M^-1 J2^T],
//!        [J2 M^-1 J1^T, J2 M^-1 J2^T]]
//!   K_ij = mA + mB + iA (rA_i x n)(rA_j x n) + iB (rB_i x n)(rB_j x n).
//!
//! With the soft model each point adds a compliance gamma_i = K_ii impulse_scale / mass_scale
//! (zero for speculative points and in relax iterations). Writing x for the new accumulated
//! impulses and a for the old ones (accumulated-impulse substitution), the condition is
//!
//!   w = (K + Gamma) x + (vn + bias / mass_scale - K a) >= 0,  x >= 0,  x_i w_i = 0.
//!
//! Row i is solved times the point's mass scale s_i: as s_i + impulse_scale_i = 1, the
//! diagonal becomes K_ii (whose inverse is the point's normal mass) and the right side
//! s_i vn_i + bias_i - s_i (K a)_i, the point update's own terms. Positive row scales keep
//! the complementarity conditions, and the enumeration needs one division instead of three.
//! A single active point then gets the one-point soft update (once the other point's old
//! impulse is taken off), up to rounding: the diagonal is K_ii, where the point update
//! multiplies by 1 - impulse_scale.
//!
//! Total enumeration tries: both points active (w = 0), only point 1, only point 2, neither;
//! the first that satisfies the inequalities is the answer.
//!
//! Only manifolds that hold a body up on their own are solved as a block: a moving body's
//! centre of mass lies between the two points along the face ([`holds_a_centre`]). That is
//! where point by point leans: the body has no other support, and the first point's larger
//! share turns it a little every substep (Box2D's awake towers lean 1.2 to 2.5 cm in
//! 30 s). A body that bridges two supports, as every box above a pyramid's bottom row
//! does, has its centre at or beyond the end of each manifold, and the other support
//! holds it level. There point by point answers more than the soft model asks for in
//! one pass (K12 > 0: the second point's push also lifts the first), a stiffer first
//! bounce; the block's exact answer let the 20-row pyramid (Box2D's scene) sink 2.3 cm
//! instead of 2.0 cm in its first bounce and settle 0.53 mm lower. Leaving those manifolds
//! point by point keeps Box2D's pyramid (its top box settles 29.80 mm low, 29.7 mm in
//! Box2D) and loses nothing on the towers. Points solved together (`points_together.rs`,
//! the default) take this block in the biased pass for every loosely coupled manifold,
//! bridges included: relaxed by a Jacobi step rather than the block, the pyramid settles
//! as near where it was built as point by point does (nearer over four creation orders).

use super::body_state::BodyState;
use super::contact_solver::{
    ConstraintPoint, ContactConstraint, ContactSolveSettings, current_separation, point_bias,
    relative_velocity,
};
use crate::math::cross;
use bevy_math::Vec2;

/// Above this condition number the two rows are nearly dependent (the points nearly coincide
/// as seen by the bodies) and the points are solved one at a time instead.
pub(crate) const MAX_CONDITION_NUMBER: f32 = 1000.0;

/// How close to either point, as a share of the distance between them, a body's centre may
/// be and still count as held up by the two points ([`holds_a_centre`]). A box in a
/// pyramid, resting on the ends of two boxes below, has its centre within millimetres of
/// each manifold's end as the rows spread: a tenth of the span keeps such a bridging body
/// on one side of the rule however the pile settles, and a body standing on a face (its
/// centre near the middle, or a centimetre off it in an offset tower) on the other.
pub(crate) const MIN_CENTRE_SHARE: f32 = 0.1;

/// Whether a body's centre lies between the two points of a manifold, more than
/// [`MIN_CENTRE_SHARE`] of their span from either. `arm1` and `arm2` are the points'
/// lever arms about the body's centre, r_i x n: each point's position along the face (the
/// solver's tangent, right_perp(n)) from the centre. The centre sits at the share
/// f = arm1 / (arm1 - arm2) of the way from point 1 to point 2, and
/// f (1 - f) = -arm1 arm2 / (arm1 - arm2)^2, which is above s (1 - s) exactly when
/// s < f < 1 - s (for s = MIN_CENTRE_SHARE < 1/2).
#[inline(always)]
pub(crate) fn centre_between(arm1: f32, arm2: f32) -> bool {
    let span = arm1 - arm2;
    -arm1 * arm2 > MIN_CENTRE_SHARE * (1.0 - MIN_CENTRE_SHARE) * span * span
}

/// The masses of a constraint's two bodies: inverse mass and inverse inertia of A, then B.
pub(crate) type BodyMasses = (f32, f32, f32, f32);

/// Whether the manifold alone holds up one of its bodies: a body that turns (inverse
/// inertia above zero) has its centre between the two points (see the module's notes).
#[inline(always)]
pub(crate) fn holds_a_centre(points: &[ConstraintPoint; 2], n: Vec2, masses: BodyMasses) -> bool {
    let (_, ia, _, ib) = masses;
    let [p1, p2] = points;
    let turns = [ia > 0.0, ib > 0.0];
    anchors_hold_a_centre(
        [p1.anchor_a, p2.anchor_a],
        [p1.anchor_b, p2.anchor_b],
        n,
        turns,
    )
}

/// [`holds_a_centre`] from the two points' anchors on A and on B (from each body's centre),
/// normal `n`, and whether each body turns.
#[inline(always)]
pub(crate) fn anchors_hold_a_centre(
    on_a: [Vec2; 2],
    on_b: [Vec2; 2],
    n: Vec2,
    turns: [bool; 2],
) -> bool {
    let holds = |[r1, r2]: [Vec2; 2]| centre_between(cross(r1, n), cross(r2, n));
    (turns[0] && holds(on_a)) || (turns[1] && holds(on_b))
}

/// The rigid coupled K of a two-point manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BlockMatrix {
    pub k11: f32,
    pub k12: f32,
    pub k22: f32,
}

impl BlockMatrix {
    /// K for the constraint's two points, or `None` when the block solver leaves it to the
    /// point-by-point solve (see [`BlockMatrix::for_points`]).
    pub fn new(c: &ContactConstraint) -> Option<BlockMatrix> {
        let masses = (c.inv_mass_a, c.inv_inertia_a, c.inv_mass_b, c.inv_inertia_b);
        BlockMatrix::for_points(&c.points, c.normal, masses)
    }

    /// The rigid K of two points along normal `n` between bodies of `masses`, whatever its
    /// conditioning (the lanes build it in the same operations: `wide_contacts/block.rs`,
    /// `lane_matrix`).
    #[inline(always)]
    pub fn rigid(points: &[ConstraintPoint; 2], n: Vec2, masses: BodyMasses) -> BlockMatrix {
        let (ma, ia, mb, ib) = masses;
        let [p1, p2] = points;
        let (ra1, rb1) = (cross(p1.anchor_a, n), cross(p1.anchor_b, n));
        let (ra2, rb2) = (cross(p2.anchor_a, n), cross(p2.anchor_b, n));
        let m = ma + mb;
        BlockMatrix {
            k11: m + ia * ra1 * ra1 + ib * rb1 * rb1,
            k22: m + ia * ra2 * ra2 + ib * rb2 * rb2,
            k12: m + ia * ra1 * ra2 + ib * rb1 * rb2,
        }
    }

    /// K for two points along normal `n` between bodies of `masses`, or `None` when it is ill
    /// conditioned or holds up neither body on its own ([`holds_a_centre`]). The anchors and
    /// masses do not change during a step, so neither does the answer. The lanes decide the
    /// same with the same operations (`wide_contacts/block.rs`, `mark_blocks`).
    pub fn for_points(
        points: &[ConstraintPoint; 2],
        n: Vec2,
        masses: BodyMasses,
    ) -> Option<BlockMatrix> {
        let BlockMatrix { k11, k12, k22 } = BlockMatrix::rigid(points, n, masses);
        let det = k11 * k22 - k12 * k12;
        let conditioned = k11 * k11 < MAX_CONDITION_NUMBER * det;
        (conditioned && holds_a_centre(points, n, masses)).then_some(BlockMatrix { k11, k12, k22 })
    }
}

/// Solves both normal points of `c` together. Returns false (nothing applied) when no case of
/// the enumeration fits, so the caller falls back to solving point by point.
pub(crate) fn solve_block(
    c: &mut ContactConstraint,
    k: &BlockMatrix,
    sa: &mut BodyState,
    sb: &mut BodyState,
    inv_h: f32,
    use_bias: bool,
    settings: &ContactSolveSettings,
) -> bool {
    let n = c.normal;
    let a = [c.points[0].normal_impulse, c.points[1].normal_impulse];
    let k_old = [k.k11 * a[0] + k.k12 * a[1], k.k12 * a[0] + k.k22 * a[1]];
    let mut vn = [0.0f32; 2];
    let mut b = [0.0f32; 2];
    let mut mass_scales = [0.0f32; 2];
    for i in 0..2 {
        let cp = &c.points[i];
        let s = current_separation(cp, n, sa, sb);
        let (bias, mass_scale, _) =
            point_bias(s, inv_h, use_bias, &c.softness, settings.max_push_speed);
        vn[i] = relative_velocity(sa, sb, cp.anchor_a, cp.anchor_b).dot(n);
        // Row i times the mass scale (see the module's derivation).
        b[i] = mass_scale * vn[i] + bias - mass_scale * k_old[i];
        mass_scales[i] = mass_scale;
    }
    let rows = ScaledRows {
        a11: k.k11,
        a12: mass_scales[0] * k.k12,
        a21: mass_scales[1] * k.k12,
        a22: k.k22,
        inv_a11: c.points[0].normal_mass,
        inv_a22: c.points[1].normal_mass,
    };
    let Some(x) = enumerate(&rows, b) else {
        return false;
    };
    let d = [x[0] - a[0], x[1] - a[1]];
    for i in 0..2 {
        let cp = &mut c.points[i];
        let p = d[i] * n;
        sa.linear_velocity -= c.inv_mass_a * p;
        sa.angular_velocity -= c.inv_inertia_a * cross(cp.anchor_a, p);
        sb.linear_velocity += c.inv_mass_b * p;
        sb.angular_velocity += c.inv_inertia_b * cross(cp.anchor_b, p);
        cp.normal_impulse = x[i];
        cp.max_normal_impulse = cp.max_normal_impulse.max(d[i]);
        if use_bias && d[i] > 0.0 {
            cp.relative_velocity = cp.relative_velocity.min(vn[i]);
        }
    }
    true
}

/// The 2x2 matrix of the conditions with each row scaled by its point's mass scale, and the
/// inverses of its diagonal (the points' normal masses).
struct ScaledRows {
    a11: f32,
    a12: f32,
    a21: f32,
    a22: f32,
    inv_a11: f32,
    inv_a22: f32,
}

/// Total enumeration of the 2x2 LCP `w = A x + b`, `x, w >= 0`, `x.w = 0`.
fn enumerate(m: &ScaledRows, b: [f32; 2]) -> Option<[f32; 2]> {
    // Both active: A x = -b.
    let det = m.a11 * m.a22 - m.a12 * m.a21;
    if det > 0.0 {
        let inv = 1.0 / det;
        let x1 = -inv * (m.a22 * b[0] - m.a12 * b[1]);
        let x2 = -inv * (m.a11 * b[1] - m.a21 * b[0]);
        if x1 >= 0.0 && x2 >= 0.0 {
            return Some([x1, x2]);
        }
    }
    // Only point 1 active: x2 = 0, w1 = 0.
    let x1 = -b[0] * m.inv_a11;
    if x1 >= 0.0 && m.a21 * x1 + b[1] >= 0.0 {
        return Some([x1, 0.0]);
    }
    // Only point 2 active.
    let x2 = -b[1] * m.inv_a22;
    if x2 >= 0.0 && m.a12 * x2 + b[0] >= 0.0 {
        return Some([0.0, x2]);
    }
    // Neither: both separate.
    if b[0] >= 0.0 && b[1] >= 0.0 {
        return Some([0.0, 0.0]);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{ScaledRows, centre_between, enumerate};

    #[test]
    fn a_face_holds_the_centre_and_a_bridge_does_not() {
        // Arms r x n for a normal along y are the points' x: their positions along the
        // face from the centre.
        // A unit box on its face: points at either corner, the centre in the middle.
        assert!(centre_between(-0.5, 0.5));
        // A narrow box 1 cm off the middle of the box below: still held.
        assert!(centre_between(-0.24, 0.26));
        // A pyramid's box bridging two below: one point under its centre, one at its
        // corner. A millimetre either way as the rows spread changes nothing.
        assert!(!centre_between(0.0, 0.5));
        assert!(!centre_between(0.001, 0.5));
        assert!(!centre_between(-0.001, 0.5));
        // Both points on one side: a box hanging over an edge.
        assert!(!centre_between(0.2, 0.5));
        // Just inside the tenth of the span kept clear at either end, and just outside.
        assert!(centre_between(-0.11, 0.89));
        assert!(!centre_between(-0.09, 0.91));
        // Coincident points span nothing.
        assert!(!centre_between(0.0, 0.0));
    }

    #[test]
    fn a_bridging_manifold_is_left_to_the_points_and_a_face_is_a_block() {
        use super::BlockMatrix;
        use crate::solver::contact_solver::ConstraintPoint;
        use bevy_math::Vec2;
        let point = |a: Vec2, b: Vec2| ConstraintPoint {
            anchor_a: a,
            anchor_b: b,
            ..Default::default()
        };
        // Unit boxes (mass 1, inertia 1/6), normal up from A (below) to B (above).
        let masses = (1.0, 6.0, 1.0, 6.0);
        let n = Vec2::Y;
        // B stands on A's face: corners over corners, both centres between the points.
        let face = [
            point(Vec2::new(-0.5, 0.5), Vec2::new(-0.5, -0.5)),
            point(Vec2::new(0.5, 0.5), Vec2::new(0.5, -0.5)),
        ];
        let k = BlockMatrix::for_points(&face, n, masses).expect("a face is a block");
        assert_eq!((k.k11, k.k12, k.k22), (5.0, -1.0, 5.0));
        // B bridges A and a box beside it, as in a pyramid: its centre over A's corner,
        // A's centre under B's corner. K is well conditioned (3.5, 2, 3.5), yet neither
        // centre is between the points.
        let bridge = [
            point(Vec2::new(0.0, 0.5), Vec2::new(-0.5, -0.5)),
            point(Vec2::new(0.5, 0.5), Vec2::new(0.0, -0.5)),
        ];
        assert_eq!(BlockMatrix::for_points(&bridge, n, masses), None);
        // The same face on static ground (A fixed): B's centre alone decides.
        assert!(BlockMatrix::for_points(&face, n, (0.0, 0.0, 1.0, 6.0)).is_some());
    }

    #[test]
    fn enumeration_picks_the_complementary_case() {
        // Both pushing: solve A x = -b exactly.
        let m = ScaledRows {
            a11: 2.0,
            a12: 1.0,
            a21: 1.0,
            a22: 2.0,
            inv_a11: 0.5,
            inv_a22: 0.5,
        };
        let x = enumerate(&m, [-3.0, -3.0]).unwrap();
        assert!((x[0] - 1.0).abs() < 1e-6 && (x[1] - 1.0).abs() < 1e-6);
        // Point 2 separating on its own: only point 1 pushes, and w2 >= 0.
        let x = enumerate(&m, [-2.0, 5.0]).unwrap();
        assert_eq!(x, [1.0, 0.0]);
        let x = enumerate(&m, [5.0, -2.0]).unwrap();
        assert_eq!(x, [0.0, 1.0]);
        // Both separating.
        assert_eq!(enumerate(&m, [1.0, 1.0]).unwrap(), [0.0, 0.0]);
    }
}
