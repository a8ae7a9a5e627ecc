//! Soft contact constraints: non-penetration and Coulomb friction per manifold point.
//!
//! Non-penetration of point i (Yu, with the soft model of `softness.rs`):
//!
//!   C = separation >= 0, measured at the anchors rA, rB (relative to the centres of mass)
//!   J = [-n, -(rA x n), n, (rB x n)] acting on (vA, wA, vB, wB)
//!   K = J M^-1 J^T = mA + mB + iA (rA x n)^2 + iB (rB x n)^2
//!
//! Friction uses the same J with the tangent t = right_perp(n) and is clamped to
//! |lambda_t| <= mu lambda_n; it is solved in the relax iterations only. Each substep the
//! separation is recomputed from the bodies' motion since the step began:
//! s = s0 - (rB - rA).n + (dpB - dpA + q(rB) - q(rA)).n, so contacts respond to motion within
//! the step without a new collision pass.
//! A point still apart (s > 0) is speculative: its bias s / h lets the bodies close exactly
//! the gap this substep and no further.

use super::block_solver::{BlockMatrix, solve_block};
use super::body_state::{BodyState, read_state, write_state};
use super::points_together::{self, together_matrix};
use super::softness::Softness;
use crate::collision::{Manifold, ManifoldPoint};
use crate::math::{cross, cross_sv, right_perp};
use bevy_math::Vec2;

/// Solver data of one manifold point.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ConstraintPoint {
    /// Anchors relative to the centres of mass at the start of the step.
    pub anchor_a: Vec2,
    pub anchor_b: Vec2,
    /// Separation with the anchors' offset removed, so that adding the current offset of the
    /// anchors gives the current separation.
    pub base_separation: f32,
    /// Normal velocity when the point first pushed this step (negative when approaching),
    /// for restitution: starts as the velocity before solving and follows the approach
    /// through the substeps, so gravity gained within the step counts in the bounce.
    pub relative_velocity: f32,
    pub normal_impulse: f32,
    pub tangent_impulse: f32,
    /// Largest normal impulse applied this step (restitution only bounces points that pushed).
    pub max_normal_impulse: f32,
    pub normal_mass: f32,
    pub tangent_mass: f32,
}

/// What the solver hands back for one manifold point: the impulses to keep for next step's
/// warm start, and what restitution and hit events read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct SolvedPoint {
    pub normal_impulse: f32,
    pub tangent_impulse: f32,
    /// Largest normal impulse applied this step (zero: the point never pushed).
    pub max_normal_impulse: f32,
    /// Normal velocity when the point first pushed (negative when approaching).
    pub relative_velocity: f32,
}

/// Solver data of one contact manifold.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ContactConstraint {
    pub index_a: u32,
    pub index_b: u32,
    pub inv_mass_a: f32,
    pub inv_inertia_a: f32,
    pub inv_mass_b: f32,
    pub inv_inertia_b: f32,
    pub normal: Vec2,
    pub friction: f32,
    pub restitution: f32,
    pub softness: Softness,
    pub points: [ConstraintPoint; 2],
    pub point_count: usize,
    /// Coupled K of a two-point manifold whose points are solved together: with the block
    /// solver, where it takes the manifold (K well conditioned and a turning body's centre
    /// between the points, `block_solver::BlockMatrix::for_points`); with points solved
    /// together, where the rows couple loosely (`points_together::together_matrix`).
    pub block: Option<BlockMatrix>,
    /// The two points are held in the other order than the manifold lists them: solving
    /// deeper point first, the point deeper when the step began comes first
    /// ([`deeper_listed_second`]). [`ContactConstraint::solved_points`] gives the results
    /// back in the manifold's order.
    pub swapped: bool,
}

/// The rarely used part of a contact's constraint: a moving surface (conveyor belts) and
/// rolling resistance. Kept out of [`ContactConstraint`], which every contact builds and the
/// SIMD lanes pack (16 more bytes there cost the pyramids 5 % of their step), for the few
/// contacts that have them, which the scalar solver takes: one per overflow position.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SurfaceConstraint {
    /// Surface speed along the tangent the friction drives towards.
    pub tangent_speed: f32,
    /// Largest rolling resistance torque impulse per unit of normal impulse.
    pub rolling_resistance: f32,
    /// Effective mass of the relative spin.
    pub rolling_mass: f32,
    /// Accumulated rolling resistance impulse.
    pub rolling_impulse: f32,
}

impl SurfaceConstraint {
    /// Rolling resistance (Box2D v3.1's): C is the relative spin wB - wA, J = [0, -1, 0, 1],
    /// K = iA + iB, its impulse bounded by the resistance times the total normal impulse.
    pub fn new(surface: &ContactSurface, a: &ConstraintBody, b: &ConstraintBody) -> Self {
        // The inertias the contact's rows use, after dominance.
        let (_, ia, _, ib) = dominated_masses(a, b);
        let k = ia + ib;
        SurfaceConstraint {
            tangent_speed: surface.tangent_speed,
            rolling_resistance: surface.rolling_resistance,
            rolling_mass: if k > 0.0 { 1.0 / k } else { 0.0 },
            rolling_impulse: if surface.rolling_resistance > 0.0 {
                surface.rolling_impulse
            } else {
                0.0
            },
        }
    }
}

/// What a constraint needs of each body at preparation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConstraintBody {
    pub solver_index: u32,
    pub inv_mass: f32,
    pub inv_inertia: f32,
    /// Offset of the centre of mass from the body origin, in world orientation.
    pub center_offset: Vec2,
    pub linear_velocity: Vec2,
    pub angular_velocity: f32,
    /// The body's dominance: of two bodies in a contact, the more dominant one is solved
    /// as if it could not be pushed.
    pub dominance: i8,
}

/// Settings of the contact solve for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactSolveSettings {
    pub contact_softness: Softness,
    pub static_softness: Softness,
    pub max_push_speed: f32,
    pub restitution_threshold: f32,
    pub use_block_solver: bool,
    /// Solve a manifold's two points together where they couple loosely: the block's exact
    /// answer when biased, one Jacobi step when relaxing (`WorldDef::solve_points_together`,
    /// the default).
    pub points_together: bool,
    /// Solve the deeper of two points first (`WorldDef::solve_deeper_point_first`).
    pub deeper_point_first: bool,
}

impl ContactSolveSettings {
    /// How the SIMD lanes solve two-point manifolds under these settings.
    pub fn two_points(&self) -> TwoPoints {
        if self.use_block_solver {
            TwoPoints::Block
        } else if self.deeper_point_first {
            TwoPoints::DeeperFirst {
                impact_speed: self.restitution_threshold,
            }
        } else if self.points_together {
            TwoPoints::Together
        } else {
            TwoPoints::Listed
        }
    }
}

/// How a two-point manifold's normal points are solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum TwoPoints {
    /// One point at a time, the first listed first (Box2D v3's order).
    Listed,
    /// One point at a time, the deeper (by current separation) first, in a manifold at rest:
    /// one where neither point has approached faster than `impact_speed` this step. An
    /// impact is solved in listed order (see [`resting`]).
    DeeperFirst { impact_speed: f32 },
    /// Both together as a 2x2 block where the manifold holds a turning body's centre between
    /// its points and the block's answer holds (`block_solver.rs`); point by point, listed
    /// order, elsewhere.
    Block,
    /// Both together where the two rows couple loosely (`points_together.rs`): the 2x2
    /// block's exact answer in the biased pass, both from the same velocities (one Jacobi
    /// step) when relaxing; point by point, listed order, elsewhere and where the block
    /// finds no answer.
    Together,
}

/// True when neither point of `c` has approached faster than `impact_speed` this step (the
/// restitution threshold: the speed that tells a bounce from a rest).
///
/// Why impacts keep the listed order: solving the deeper point first gives it more than its
/// share, which turns a resting body against its tilt, a little every substep. Under a heavy
/// blow the same share is a large impulse: it turns the struck body past level, the other
/// point becomes the deeper, and the order swings back and forth with the body rocking under
/// it (a 400:1 box landing at 17 m/s on two crates slid 22 cm off its line, against 3 cm in
/// the listed order). Read for two-point manifolds only.
#[inline]
pub(crate) fn resting(points: &[ConstraintPoint; 2], impact_speed: f32) -> bool {
    points[0].relative_velocity.min(points[1].relative_velocity) > -impact_speed
}

/// True when a two-point manifold at rest ([`resting`]) is to hold its second listed point
/// first, solving deeper point first: that point was the deeper when the step began.
/// Holding the points in the order the solve most likely takes lets a group of SIMD lanes
/// solve its two points in one order rather than three masked updates (the order is still
/// decided each pass, from the current separations).
#[inline]
pub(crate) fn deeper_listed_second(
    manifold: &Manifold,
    points: &[ConstraintPoint; 2],
    two_points: TwoPoints,
) -> bool {
    match two_points {
        TwoPoints::DeeperFirst { impact_speed } => {
            let separations = manifold.points.each_ref().map(|p| p.separation);
            let deeper = manifold.point_count == 2 && resting(points, impact_speed);
            point_order(separations, manifold.point_count, deeper) == [1, 0]
        }
        TwoPoints::Listed | TwoPoints::Block | TwoPoints::Together => false,
    }
}

/// The order in which to solve a manifold's points: the deeper of two first when `deeper`
/// (ties keep the listed order), else as listed.
#[inline]
pub(crate) fn point_order(separations: [f32; 2], point_count: usize, deeper: bool) -> [usize; 2] {
    if deeper && point_count == 2 && separations[1] < separations[0] {
        [1, 0]
    } else {
        [0, 1]
    }
}

/// The inverse masses and inertias (a, then b) a contact solves with, after dominance.
/// Dominance ranks bodies that can both be pushed; against a body that cannot (static,
/// kinematic or asleep) there is nothing to rank, and zeroing both would leave the contact
/// with no mass at all.
fn dominated_masses(a: &ConstraintBody, b: &ConstraintBody) -> (f32, f32, f32, f32) {
    use std::cmp::Ordering;
    let pushable = |c: &ConstraintBody| c.inv_mass > 0.0 || c.inv_inertia > 0.0;
    let order = if pushable(a) && pushable(b) {
        a.dominance.cmp(&b.dominance)
    } else {
        Ordering::Equal
    };
    match order {
        Ordering::Equal => (a.inv_mass, a.inv_inertia, b.inv_mass, b.inv_inertia),
        Ordering::Greater => (0.0, 0.0, b.inv_mass, b.inv_inertia),
        Ordering::Less => (a.inv_mass, a.inv_inertia, 0.0, 0.0),
    }
}

impl ContactConstraint {
    /// The results of the step for each point (points past `point_count` stay zero).
    pub fn solved_points(&self) -> [SolvedPoint; 2] {
        let mut out = [SolvedPoint::default(); 2];
        for (o, cp) in out.iter_mut().zip(&self.points[..self.point_count]) {
            *o = SolvedPoint {
                normal_impulse: cp.normal_impulse,
                tangent_impulse: cp.tangent_impulse,
                max_normal_impulse: cp.max_normal_impulse,
                relative_velocity: cp.relative_velocity,
            };
        }
        if self.swapped {
            out.swap(0, 1);
        }
        out
    }
}

/// A contact's surface: its mixed coefficients and the rolling impulse to warm start with.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ContactSurface {
    pub friction: f32,
    pub restitution: f32,
    pub tangent_speed: f32,
    pub rolling_resistance: f32,
    pub rolling_impulse: f32,
}

/// What every row of a contact shares, for both the scalar and the lanes' preparing: the
/// normal and tangent, the inverse masses and inertias the rows see (a, then b, after
/// dominance), and the softness (against a body that cannot be pushed, twice as stiff).
pub(crate) struct ContactFrame {
    pub normal: Vec2,
    pub tangent: Vec2,
    pub masses: (f32, f32, f32, f32),
    pub softness: Softness,
}

impl ContactFrame {
    /// The frame of `manifold` between `a` and `b`.
    #[inline(always)]
    pub fn new(
        manifold: &Manifold,
        a: &ConstraintBody,
        b: &ConstraintBody,
        settings: &ContactSolveSettings,
    ) -> Self {
        let masses = dominated_masses(a, b);
        let (ma, _, mb, _) = masses;
        ContactFrame {
            normal: manifold.normal,
            tangent: right_perp(manifold.normal),
            masses,
            softness: if ma == 0.0 || mb == 0.0 {
                settings.static_softness
            } else {
                settings.contact_softness
            },
        }
    }
}

/// The constraint of one manifold point along normal `n` (tangent `t`), the rows seeing the
/// inverse masses and inertias `masses` (a, then b, after dominance): anchors from the
/// centres of mass, the separation without the anchors' offset, the approach speed, last
/// step's impulses, and the effective masses K^-1 of the normal and tangent rows.
#[inline(always)]
pub(crate) fn prepare_point(
    mp: &ManifoldPoint,
    n: Vec2,
    t: Vec2,
    (ma, ia, mb, ib): (f32, f32, f32, f32),
    a: &ConstraintBody,
    b: &ConstraintBody,
) -> ConstraintPoint {
    let ra = mp.anchor_a - a.center_offset;
    let rb = mp.anchor_b - b.center_offset;
    let (rn_a, rn_b) = (cross(ra, n), cross(rb, n));
    let k_normal = ma + mb + ia * rn_a * rn_a + ib * rn_b * rn_b;
    let (rt_a, rt_b) = (cross(ra, t), cross(rb, t));
    let k_tangent = ma + mb + ia * rt_a * rt_a + ib * rt_b * rt_b;
    let dv = b.linear_velocity + cross_sv(b.angular_velocity, rb)
        - a.linear_velocity
        - cross_sv(a.angular_velocity, ra);
    ConstraintPoint {
        anchor_a: ra,
        anchor_b: rb,
        base_separation: mp.separation - (rb - ra).dot(n),
        relative_velocity: dv.dot(n),
        normal_impulse: mp.normal_impulse,
        tangent_impulse: mp.tangent_impulse,
        max_normal_impulse: 0.0,
        normal_mass: if k_normal > 0.0 { 1.0 / k_normal } else { 0.0 },
        tangent_mass: if k_tangent > 0.0 {
            1.0 / k_tangent
        } else {
            0.0
        },
    }
}

/// Builds the constraint of a touching manifold in `out` (in place: the constraint array is
/// large and written once per step). Points past the manifold's count are left as they were.
/// The SIMD lanes build theirs with `wide_contacts/kernel.rs`'s `prepare_lane`, from the same
/// parts.
///
/// Dominance: the contact's rows see the more dominant body's inverse mass and inertia as
/// zero, so every impulse of the pair changes only the other body's velocity (the dominant
/// one meets it as a static or kinematic body would). Equal dominance keeps both.
pub(crate) fn prepare_contact(
    out: &mut ContactConstraint,
    manifold: &Manifold,
    surface: &ContactSurface,
    a: &ConstraintBody,
    b: &ConstraintBody,
    settings: &ContactSolveSettings,
) {
    let frame = ContactFrame::new(manifold, a, b, settings);
    let (n, t, masses) = (frame.normal, frame.tangent, frame.masses);
    let (ma, ia, mb, ib) = masses;
    out.softness = frame.softness;
    out.index_a = a.solver_index;
    out.index_b = b.solver_index;
    out.inv_mass_a = ma;
    out.inv_inertia_a = ia;
    out.inv_mass_b = mb;
    out.inv_inertia_b = ib;
    out.normal = n;
    out.friction = surface.friction;
    out.restitution = surface.restitution;
    out.point_count = manifold.point_count;
    out.block = None;
    for (cp, mp) in out.points.iter_mut().zip(manifold.points()) {
        *cp = prepare_point(mp, n, t, masses, a, b);
    }
    out.swapped = deeper_listed_second(manifold, &out.points, settings.two_points());
    if out.swapped {
        out.points.swap(0, 1);
    }
    if out.point_count == 2 {
        let masses = (ma, ia, mb, ib);
        out.block = match settings.two_points() {
            TwoPoints::Block => BlockMatrix::new(out),
            TwoPoints::Together => together_matrix(&out.points, n, masses),
            TwoPoints::Listed | TwoPoints::DeeperFirst { .. } => None,
        };
    }
}

/// Applies `impulse` along `direction` at the anchors: minus to A, plus to B.
#[inline]
fn apply(
    c: &ContactConstraint,
    sa: &mut BodyState,
    sb: &mut BodyState,
    ra: Vec2,
    rb: Vec2,
    impulse: Vec2,
) {
    sa.linear_velocity -= c.inv_mass_a * impulse;
    sa.angular_velocity -= c.inv_inertia_a * cross(ra, impulse);
    sb.linear_velocity += c.inv_mass_b * impulse;
    sb.angular_velocity += c.inv_inertia_b * cross(rb, impulse);
}

/// Velocity of B's anchor relative to A's.
#[inline]
pub(crate) fn relative_velocity(sa: &BodyState, sb: &BodyState, ra: Vec2, rb: Vec2) -> Vec2 {
    sb.linear_velocity + cross_sv(sb.angular_velocity, rb)
        - sa.linear_velocity
        - cross_sv(sa.angular_velocity, ra)
}

/// Applies last step's impulses so the solver starts near the answer. `surfaces` holds the
/// surface part of the first constraints (any number of them, none included).
pub(crate) fn warm_start(
    constraints: &[ContactConstraint],
    surfaces: &[SurfaceConstraint],
    states: &mut [BodyState],
) {
    for (i, c) in constraints.iter().enumerate() {
        let mut sa = read_state(states, c.index_a);
        let mut sb = read_state(states, c.index_b);
        let t = right_perp(c.normal);
        for cp in &c.points[..c.point_count] {
            let p = cp.normal_impulse * c.normal + cp.tangent_impulse * t;
            apply(c, &mut sa, &mut sb, cp.anchor_a, cp.anchor_b, p);
        }
        if let Some(surface) = surfaces.get(i) {
            sa.angular_velocity -= c.inv_inertia_a * surface.rolling_impulse;
            sb.angular_velocity += c.inv_inertia_b * surface.rolling_impulse;
        }
        write_state(states, c.index_a, sa);
        write_state(states, c.index_b, sb);
    }
}

/// Per-point bias velocity and scales: speculative, soft with bias, or rigid without bias
/// (relax). The update is `-m (mass_scale vn + bias) - impulse_scale accumulated`, so the
/// returned bias already carries the mass scale; a soft point's push is clamped to the
/// maximum push speed after that scaling, as Box2D v3 clamps it (the clamp limits how fast
/// overlap is pushed apart, not the stiffness).
#[inline]
pub(crate) fn point_bias(
    separation: f32,
    inv_h: f32,
    use_bias: bool,
    softness: &Softness,
    max_push_speed: f32,
) -> (f32, f32, f32) {
    if separation > 0.0 {
        (separation * inv_h, 1.0, 0.0)
    } else if use_bias {
        (
            (softness.mass_scale * softness.bias_rate * separation).max(-max_push_speed),
            softness.mass_scale,
            softness.impulse_scale,
        )
    } else {
        (0.0, 1.0, 0.0)
    }
}

/// Current separation of a point from the bodies' motion since the step began.
#[inline]
pub(crate) fn current_separation(
    cp: &ConstraintPoint,
    normal: Vec2,
    sa: &BodyState,
    sb: &BodyState,
) -> f32 {
    let moved_a = sa.delta_rotation.rotate(cp.anchor_a);
    let moved_b = sb.delta_rotation.rotate(cp.anchor_b);
    let d = (sb.delta_position - sa.delta_position) + (moved_b - moved_a);
    cp.base_separation + d.dot(normal)
}

/// One iteration over the constraints: normal points (block or one by one), then friction
/// when relaxing (`use_bias` false). `surfaces` holds the surface part of the first
/// constraints (any number of them, none included).
pub(crate) fn solve_contacts(
    constraints: &mut [ContactConstraint],
    surfaces: &mut [SurfaceConstraint],
    states: &mut [BodyState],
    inv_h: f32,
    use_bias: bool,
    settings: &ContactSolveSettings,
) {
    // Manifolds the block leaves to the point loop keep the listed order, as in the lanes.
    let impact_speed = match settings.two_points() {
        TwoPoints::DeeperFirst { impact_speed } => Some(impact_speed),
        TwoPoints::Listed | TwoPoints::Block | TwoPoints::Together => None,
    };
    let block_solver = settings.use_block_solver;
    for (i, c) in constraints.iter_mut().enumerate() {
        let mut sa = read_state(states, c.index_a);
        let mut sb = read_state(states, c.index_b);
        let n = c.normal;

        // The block solver takes its manifolds in both passes; points solved together take
        // the block's exact answer in the biased pass and one Jacobi step when relaxing
        // (`points_together.rs`). Where the block finds no answer, the listed order.
        let solved_as_block = match c.block {
            Some(block) if block_solver || use_bias => {
                solve_block(c, &block, &mut sa, &mut sb, inv_h, use_bias, settings)
            }
            _ => false,
        };
        // Relaxing, points solved together read their velocities before either is applied,
        // and both updates are damped where the rows push each other
        // (`points_together::relax_scale`); otherwise each reads what the one before it left.
        let mut together = [None; 2];
        let mut relax_scale = None;
        if let Some(k) = c.block.filter(|_| !block_solver && !use_bias) {
            for (vn, cp) in together.iter_mut().zip(&c.points) {
                *vn = Some(relative_velocity(&sa, &sb, cp.anchor_a, cp.anchor_b).dot(n));
            }
            relax_scale = Some(points_together::relax_scale(&k));
        }
        if !solved_as_block {
            // The separations come from positions, which this velocity solve leaves alone:
            // both are known before either point is solved.
            let mut separations = [0.0; 2];
            for (s, cp) in separations.iter_mut().zip(&c.points[..c.point_count]) {
                *s = current_separation(cp, n, &sa, &sb);
            }
            let deeper_first = impact_speed.is_some_and(|speed| resting(&c.points, speed));
            let order = point_order(separations, c.point_count, deeper_first);
            for &i in &order[..c.point_count] {
                let cp = c.points[i];
                let s = separations[i];
                let (bias, mass_scale, impulse_scale) =
                    point_bias(s, inv_h, use_bias, &c.softness, settings.max_push_speed);
                let vn = together[i].unwrap_or_else(|| {
                    relative_velocity(&sa, &sb, cp.anchor_a, cp.anchor_b).dot(n)
                });
                let mut delta =
                    -cp.normal_mass * (mass_scale * vn + bias) - impulse_scale * cp.normal_impulse;
                if let Some(scale) = relax_scale {
                    delta *= scale;
                }
                let total = (cp.normal_impulse + delta).max(0.0);
                let applied = total - cp.normal_impulse;
                c.points[i].normal_impulse = total;
                c.points[i].max_normal_impulse = cp.max_normal_impulse.max(applied);
                if use_bias && applied > 0.0 {
                    c.points[i].relative_velocity = cp.relative_velocity.min(vn);
                }
                apply(c, &mut sa, &mut sb, cp.anchor_a, cp.anchor_b, applied * n);
            }
        }

        // Friction is solved in the relax iterations only, after the normal impulses of the
        // substep are settled (as Box2D v3 does): the biased iteration's normal impulses still
        // carry the position correction, so a friction cone built on them would be discarded
        // a moment later. The warm start applies the accumulated friction impulse at the start
        // of every substep, so a resting contact holds from the first iteration.
        if !use_bias {
            let mut tangent_speed = 0.0;
            if let Some(surface) = surfaces.get_mut(i) {
                if surface.rolling_resistance > 0.0 {
                    solve_rolling_resistance(c, surface, &mut sa, &mut sb);
                }
                tangent_speed = surface.tangent_speed;
            }
            solve_point_friction(c, tangent_speed, &mut sa, &mut sb);
        }

        write_state(states, c.index_a, sa);
        write_state(states, c.index_b, sb);
    }
}

/// Rolling resistance: the relative spin is resisted by an impulse of at most the
/// resistance times the contact's total normal impulse (solved before friction, in the relax
/// iterations, as Box2D v3.1 does).
#[inline]
fn solve_rolling_resistance(
    c: &ContactConstraint,
    surface: &mut SurfaceConstraint,
    sa: &mut BodyState,
    sb: &mut BodyState,
) {
    let normal_total: f32 = c.points[..c.point_count]
        .iter()
        .map(|p| p.normal_impulse)
        .sum();
    let limit = surface.rolling_resistance * normal_total;
    let spin = sa.angular_velocity - sb.angular_velocity;
    // max then min rather than clamp: a bound that is not a number must not panic.
    let total = (surface.rolling_impulse + surface.rolling_mass * spin)
        .max(-limit)
        .min(limit);
    let applied = total - surface.rolling_impulse;
    surface.rolling_impulse = total;
    sa.angular_velocity -= c.inv_inertia_a * applied;
    sb.angular_velocity += c.inv_inertia_b * applied;
}

/// Coulomb friction of each point of `c`, against its accumulated normal impulse, driving
/// the relative tangent velocity towards `tangent_speed` (zero but on conveyor belts).
/// Returns the largest change of a friction impulse.
#[inline]
fn solve_point_friction(
    c: &mut ContactConstraint,
    tangent_speed: f32,
    sa: &mut BodyState,
    sb: &mut BodyState,
) -> f32 {
    let t = right_perp(c.normal);
    let mut largest = 0.0f32;
    for i in 0..c.point_count {
        let cp = c.points[i];
        let vt = relative_velocity(sa, sb, cp.anchor_a, cp.anchor_b).dot(t) - tangent_speed;
        let limit = c.friction * cp.normal_impulse;
        let total = (cp.tangent_impulse - cp.tangent_mass * vt).clamp(-limit, limit);
        let applied = total - cp.tangent_impulse;
        c.points[i].tangent_impulse = total;
        apply(c, sa, sb, cp.anchor_a, cp.anchor_b, applied * t);
        largest = largest.max(applied.abs());
    }
    largest
}

/// One friction iteration over the constraints whose normal impulses were solved elsewhere
/// (exact contact islands, `exact_contacts.rs`). Returns the largest change of a friction
/// impulse.
pub(crate) fn solve_friction(
    constraints: &mut [ContactConstraint],
    states: &mut [BodyState],
) -> f32 {
    let mut largest = 0.0f32;
    for c in constraints.iter_mut() {
        let mut sa = read_state(states, c.index_a);
        let mut sb = read_state(states, c.index_b);
        largest = largest.max(solve_point_friction(c, 0.0, &mut sa, &mut sb));
        write_state(states, c.index_a, sa);
        write_state(states, c.index_b, sb);
    }
    largest
}

/// Bounces points that approached faster than the threshold and pushed this step:
/// target normal velocity = -restitution * approach velocity.
pub(crate) fn apply_restitution(
    constraints: &mut [ContactConstraint],
    states: &mut [BodyState],
    threshold: f32,
) {
    for c in constraints.iter_mut() {
        if c.restitution == 0.0 {
            continue;
        }
        let mut sa = read_state(states, c.index_a);
        let mut sb = read_state(states, c.index_b);
        for i in 0..c.point_count {
            let cp = c.points[i];
            if cp.relative_velocity > -threshold || cp.max_normal_impulse == 0.0 {
                continue;
            }
            let vn = relative_velocity(&sa, &sb, cp.anchor_a, cp.anchor_b).dot(c.normal);
            let delta = -cp.normal_mass * (vn + c.restitution * cp.relative_velocity);
            let total = (cp.normal_impulse + delta).max(0.0);
            let applied = total - cp.normal_impulse;
            c.points[i].normal_impulse = total;
            c.points[i].max_normal_impulse = cp.max_normal_impulse.max(applied);
            apply(
                c,
                &mut sa,
                &mut sb,
                cp.anchor_a,
                cp.anchor_b,
                applied * c.normal,
            );
        }
        write_state(states, c.index_a, sa);
        write_state(states, c.index_b, sb);
    }
}
