//! The contact solver of `contact_solver.rs`, four constraints at a time (eight in a build for
//! x86-64 with AVX2, `-C target-cpu=x86-64-v3`).
//!
//! The constraints of one colour (see `graph_coloring.rs`) move disjoint bodies, so solving
//! them in SIMD lanes gives what solving them one after another would, and the lane count
//! changes nothing but the speed: both builds give the same bits. Each group of [`LANES`]
//! constraints is stored lane by lane ("structure of arrays"); a substep gathers the
//! states of the group's bodies into lanes (the rows of `BodyState` transposed into
//! columns), runs the same equations as the scalar solver on
//! all lanes at once, and scatters the velocities back. Empty lanes hold a constraint with zero
//! masses between two fixed bodies: every impulse they compute is zero.
//!
//! Derivation (per lane, point i; the same as the scalar solver):
//!
//!   C = separation_i >= 0
//!   J = [-n, -(rA x n), n, (rB x n)]
//!   K = mA + mB + iA (rA x n)^2 + iB (rB x n)^2
//!
//! and friction with t = right_perp(n) in place of n, clamped to |lambda_t| <= mu lambda_n.
//!
//! Only portable arithmetic (add, sub, mul, min, max, compare) is used, never a fused
//! multiply-add, so every lane computes exactly what the scalar path would compute in the
//! same operation order, on every platform.

#[cfg(test)]
use super::body_state::BodyState;
use super::body_state::STATIC_BODY;
#[cfg(test)]
use super::contact_solver::ContactConstraint;
use super::contact_solver::{
    ConstraintBody, ConstraintPoint, ContactSolveSettings, ContactSurface, SolvedPoint,
    contact_softness, dominated_masses, prepare_point,
};
use super::graph_coloring::GraphColoring;
use crate::collision::Manifold;
use crate::math::right_perp;
use crate::parallel::shared::StatesView;
use std::ops::Range;
/// Constraints per SIMD group: one SSE2 / NEON register of f32.
#[cfg(not(target_feature = "avx2"))]
pub(crate) const LANES: usize = 4;
/// Constraints per SIMD group: one AVX register of f32.
#[cfg(target_feature = "avx2")]
pub(crate) const LANES: usize = 8;

/// One SIMD register of lanes.
#[cfg(not(target_feature = "avx2"))]
type Lanes = wide::f32x4;
/// One SIMD register of lanes.
#[cfg(target_feature = "avx2")]
type Lanes = wide::f32x8;

/// Marks an empty lane in [`WideContacts::lanes`].
pub(crate) const EMPTY_LANE: u32 = u32::MAX;

/// One manifold point of every lane. The fields the warm start reads come first (see
/// [`WideConstraint`]).
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct WidePoint {
    anchor_a_x: Lanes,
    anchor_a_y: Lanes,
    anchor_b_x: Lanes,
    anchor_b_y: Lanes,
    normal_impulse: Lanes,
    tangent_impulse: Lanes,
    base_separation: Lanes,
    relative_velocity: Lanes,
    max_normal_impulse: Lanes,
    normal_mass: Lanes,
    tangent_mass: Lanes,
}

/// [`LANES`] contact constraints of one colour, lane by lane.
///
/// Laid out for the passes over the groups, which stream them from memory in big worlds:
/// a group starts on a cache line, and what the warm start reads (bodies, masses, normal,
/// anchors and impulses) comes first, so it loads seven of the group's nine lines; the
/// settings only the solve and restitution read come last.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub(crate) struct WideConstraint {
    index_a: [u32; LANES],
    index_b: [u32; LANES],
    inv_mass_a: Lanes,
    inv_inertia_a: Lanes,
    inv_mass_b: Lanes,
    inv_inertia_b: Lanes,
    normal_x: Lanes,
    normal_y: Lanes,
    points: [WidePoint; 2],
    friction: Lanes,
    /// The softness's bias rate times its mass scale: the push per metre of overlap.
    bias_rate: Lanes,
    mass_scale: Lanes,
    impulse_scale: Lanes,
    restitution: Lanes,
}

/// The bodies of one side of a group, lane by lane.
struct WideBody {
    vx: Lanes,
    vy: Lanes,
    w: Lanes,
    padding: Lanes,
    dpx: Lanes,
    dpy: Lanes,
    qc: Lanes,
    qs: Lanes,
}

impl WideBody {
    /// The body lanes from its eight columns in field order (vx, vy, w, padding, dpx, dpy,
    /// qc, qs).
    #[inline(always)]
    fn from_columns([vx, vy, w, padding, dpx, dpy, qc, qs]: [Lanes; 8]) -> Self {
        WideBody {
            vx,
            vy,
            w,
            padding,
            dpx,
            dpy,
            qc,
            qs,
        }
    }
}

/// The coloured contact constraints of a step in SIMD groups.
#[derive(Default)]
pub(crate) struct WideContacts {
    pub groups: Vec<WideConstraint>,
    /// Constraint index of every lane of every group (`EMPTY_LANE` for padding, always at
    /// the end of a group).
    pub lanes: Vec<[u32; LANES]>,
    /// Groups of each colour, in colour order.
    pub colors: Vec<Range<usize>>,
}

impl WideContacts {
    /// Lays the coloured constraints out in groups of [`LANES`], colour by colour, and sets
    /// `positions[k]` of each laid-out constraint `k` to `LANES * group + lane`; the groups
    /// are filled lane by lane by [`prepare_lane`].
    pub fn layout(&mut self, coloring: &GraphColoring, positions: &mut [u32]) {
        self.lanes.clear();
        self.colors.clear();
        for color in &coloring.colors {
            let start = self.lanes.len();
            for chunk in color.chunks(LANES) {
                let first = (LANES * self.lanes.len()) as u32;
                let mut lanes = [EMPTY_LANE; LANES];
                for (lane, &k) in chunk.iter().enumerate() {
                    lanes[lane] = k;
                    positions[k as usize] = first + lane as u32;
                }
                self.lanes.push(lanes);
            }
            if self.lanes.len() > start {
                self.colors.push(start..self.lanes.len());
            }
        }
        self.groups
            .resize(self.lanes.len(), WideConstraint::default());
    }

    /// Lays out and packs every group on this thread.
    #[cfg(test)]
    pub fn build(&mut self, constraints: &[ContactConstraint], coloring: &GraphColoring) {
        let mut positions = vec![0; constraints.len()];
        self.layout(coloring, &mut positions);
        for (group, lanes) in self.groups.iter_mut().zip(&self.lanes) {
            let filled: Vec<ContactConstraint> = lanes
                .iter()
                .take_while(|&&k| k != EMPTY_LANE)
                .map(|&k| constraints[k as usize])
                .collect();
            pack_into(group, &filled);
        }
    }

    /// Number of constraints in lanes.
    #[cfg(test)]
    pub fn constraint_count(&self) -> usize {
        self.lanes
            .iter()
            .flatten()
            .filter(|&&l| l != EMPTY_LANE)
            .count()
    }

    /// Applies last step's impulses, colour by colour, on this thread.
    #[cfg(test)]
    pub fn warm_start(&self, states: &mut [BodyState]) {
        let mut view = StatesView::new(states);
        for range in &self.colors {
            warm_start_groups(&self.groups[range.clone()], &mut view);
        }
    }

    /// One iteration over every group on this thread: with bias (`use_bias`) or rigid.
    #[cfg(test)]
    pub fn solve(
        &mut self,
        states: &mut [BodyState],
        inv_h: f32,
        use_bias: bool,
        max_push_speed: f32,
    ) {
        let mut view = StatesView::new(states);
        for range in &self.colors {
            let groups = &mut self.groups[range.clone()];
            solve_groups(groups, &mut view, inv_h, use_bias, max_push_speed);
        }
    }

    /// Restitution over every group on this thread.
    #[cfg(test)]
    pub fn restitution(&mut self, states: &mut [BodyState], threshold: f32) {
        let mut view = StatesView::new(states);
        for range in &self.colors {
            restitution_groups(&mut self.groups[range.clone()], &mut view, threshold);
        }
    }

    /// Copies the lanes' impulses and restitution data back to the scalar constraints, on
    /// this thread.
    #[cfg(test)]
    pub fn store(&self, constraints: &mut [ContactConstraint]) {
        for (c, lanes) in self.groups.iter().zip(&self.lanes) {
            for (lane, &k) in lanes.iter().enumerate() {
                if k != EMPTY_LANE {
                    let solved = lane_results(c, lane);
                    let points = &mut constraints[k as usize].points;
                    for (cp, sp) in points.iter_mut().zip(solved) {
                        cp.normal_impulse = sp.normal_impulse;
                        cp.tangent_impulse = sp.tangent_impulse;
                        cp.max_normal_impulse = sp.max_normal_impulse;
                        cp.relative_velocity = sp.relative_velocity;
                    }
                }
            }
        }
    }
}

/// Warm starts groups of one colour.
pub(crate) fn warm_start_groups(groups: &[WideConstraint], states: &mut StatesView) {
    for c in groups {
        warm_start_group(c, states);
    }
}

/// Solves groups of one colour once.
pub(crate) fn solve_groups(
    groups: &mut [WideConstraint],
    states: &mut StatesView,
    inv_h: f32,
    use_bias: bool,
    max_push_speed: f32,
) {
    // Two copies of the loop, so the bias test is decided once and not in every group.
    if use_bias {
        for c in groups {
            solve_group::<true>(c, states, inv_h, max_push_speed);
        }
    } else {
        for c in groups {
            solve_group::<false>(c, states, inv_h, max_push_speed);
        }
    }
}

/// Applies restitution to groups of one colour; groups with no bouncy lane are skipped.
pub(crate) fn restitution_groups(
    groups: &mut [WideConstraint],
    states: &mut StatesView,
    threshold: f32,
) {
    for c in groups {
        if c.restitution.simd_gt(Lanes::splat(0.0)).any() {
            restitution_group(c, states, threshold);
        }
    }
}

/// Fills `group` lane by lane from up to [`LANES`] scalar constraints (missing lanes: zero
/// masses between fixed bodies, [`clear_group`]). Writes in place: a group is too big to
/// build and copy.
#[cfg(test)]
pub(crate) fn pack_into(group: &mut WideConstraint, constraints: &[ContactConstraint]) {
    debug_assert!(constraints.len() <= LANES);
    if constraints.len() < LANES {
        clear_group(group);
    }
    for (lane, c) in constraints.iter().enumerate() {
        pack_lane(group, lane, c);
    }
}

/// Makes every lane of `group` an empty one: zero masses and impulses between fixed bodies,
/// which applies nothing. A group with missing lanes is cleared before its constraints are
/// packed ([`pack_lane`] overwrites every field of its own lane).
pub(crate) fn clear_group(group: &mut WideConstraint) {
    *group = WideConstraint::default();
    group.index_a = [STATIC_BODY; LANES];
    group.index_b = [STATIC_BODY; LANES];
}

/// Writes the scalar constraint `c` into lane `lane` of `group`, every field the lane has
/// (the tests' way to fill lanes from given constraints; the step uses [`prepare_lane`]).
#[cfg(test)]
pub(crate) fn pack_lane(group: &mut WideConstraint, lane: usize, c: &ContactConstraint) {
    group.index_a[lane] = c.index_a;
    group.index_b[lane] = c.index_b;
    let fields = [
        (&mut group.inv_mass_a, c.inv_mass_a),
        (&mut group.inv_inertia_a, c.inv_inertia_a),
        (&mut group.inv_mass_b, c.inv_mass_b),
        (&mut group.inv_inertia_b, c.inv_inertia_b),
        (&mut group.normal_x, c.normal.x),
        (&mut group.normal_y, c.normal.y),
        (&mut group.friction, c.friction),
        (
            &mut group.bias_rate,
            c.softness.mass_scale * c.softness.bias_rate,
        ),
        (&mut group.mass_scale, c.softness.mass_scale),
        (&mut group.impulse_scale, c.softness.impulse_scale),
        (&mut group.restitution, c.restitution),
    ];
    for (field, value) in fields {
        field.as_mut_array()[lane] = value;
    }
    // A one-point manifold's second point gets zero masses and impulses: it applies
    // nothing.
    for (i, p) in group.points.iter_mut().enumerate() {
        let cp = if i < c.point_count {
            c.points[i]
        } else {
            ConstraintPoint::default()
        };
        write_point(p, lane, &cp);
    }
}

/// Builds the constraint of a touching manifold straight into lane `lane` of `group`: the
/// lane [`pack_lane`] would write from [`prepare_contact`](super::contact_solver::prepare_contact)'s
/// constraint, bit for bit, without building that constraint first (preparing is one of the
/// step's longer stages, and the copy through it was a good part of its work). The block
/// solver's matrix is not built: the lanes have none.
#[inline(always)]
pub(crate) fn prepare_lane(
    group: &mut WideConstraint,
    lane: usize,
    manifold: &Manifold,
    surface: &ContactSurface,
    a: &ConstraintBody,
    b: &ConstraintBody,
    settings: &ContactSolveSettings,
) {
    let n = manifold.normal;
    let t = right_perp(n);
    let masses = dominated_masses(a, b);
    let (ma, ia, mb, ib) = masses;
    let softness = contact_softness(ma, mb, settings);
    group.index_a[lane] = a.solver_index;
    group.index_b[lane] = b.solver_index;
    let fields = [
        (&mut group.inv_mass_a, ma),
        (&mut group.inv_inertia_a, ia),
        (&mut group.inv_mass_b, mb),
        (&mut group.inv_inertia_b, ib),
        (&mut group.normal_x, n.x),
        (&mut group.normal_y, n.y),
        (&mut group.friction, surface.friction),
        (
            &mut group.bias_rate,
            softness.mass_scale * softness.bias_rate,
        ),
        (&mut group.mass_scale, softness.mass_scale),
        (&mut group.impulse_scale, softness.impulse_scale),
        (&mut group.restitution, surface.restitution),
    ];
    for (field, value) in fields {
        field.as_mut_array()[lane] = value;
    }
    for (i, p) in group.points.iter_mut().enumerate() {
        // A one-point manifold's second point gets zero masses and impulses.
        let cp = match manifold.points().get(i) {
            Some(mp) => prepare_point(mp, n, t, masses, a, b),
            None => ConstraintPoint::default(),
        };
        write_point(p, lane, &cp);
    }
}

/// Writes the point constraint `cp` into lane `lane` of `p`.
#[inline(always)]
fn write_point(p: &mut WidePoint, lane: usize, cp: &ConstraintPoint) {
    let fields = [
        (&mut p.anchor_a_x, cp.anchor_a.x),
        (&mut p.anchor_a_y, cp.anchor_a.y),
        (&mut p.anchor_b_x, cp.anchor_b.x),
        (&mut p.anchor_b_y, cp.anchor_b.y),
        (&mut p.base_separation, cp.base_separation),
        (&mut p.relative_velocity, cp.relative_velocity),
        (&mut p.normal_impulse, cp.normal_impulse),
        (&mut p.tangent_impulse, cp.tangent_impulse),
        (&mut p.max_normal_impulse, cp.max_normal_impulse),
        (&mut p.normal_mass, cp.normal_mass),
        (&mut p.tangent_mass, cp.tangent_mass),
    ];
    for (field, value) in fields {
        field.as_mut_array()[lane] = value;
    }
}

/// The results of lane `lane` of `group` (impulses and restitution data), as the scalar
/// constraint's [`ContactConstraint::solved_points`] would give them.
pub(crate) fn lane_results(group: &WideConstraint, lane: usize) -> [SolvedPoint; 2] {
    group.points.each_ref().map(|p| SolvedPoint {
        normal_impulse: p.normal_impulse.as_array()[lane],
        tangent_impulse: p.tangent_impulse.as_array()[lane],
        max_normal_impulse: p.max_normal_impulse.as_array()[lane],
        relative_velocity: p.relative_velocity.as_array()[lane],
    })
}

/// The states of the bodies `indices` in lanes: one eight-float row per body, transposed to
/// columns in one 8 x 8 transpose.
#[cfg(target_feature = "avx2")]
#[inline(always)]
fn gather(states: &StatesView, indices: &[u32; LANES]) -> WideBody {
    let rows: [Lanes; LANES] = std::array::from_fn(|k| states.read_row8(indices[k]));
    WideBody::from_columns(Lanes::transpose(rows))
}

/// The warm start's gather: with eight lanes a body's whole row is one load anyway.
#[cfg(target_feature = "avx2")]
#[inline(always)]
fn gather_velocities(states: &StatesView, indices: &[u32; LANES]) -> WideBody {
    gather(states, indices)
}

/// Writes the lanes' velocities back (the solver changes nothing else); the static index is
/// skipped.
#[cfg(target_feature = "avx2")]
#[inline(always)]
fn scatter(states: &mut StatesView, indices: &[u32; LANES], body: &WideBody) {
    // The padding lane goes back as it was gathered; the upper half of each row is unused.
    let zero = Lanes::splat(0.0);
    let columns = [
        body.vx,
        body.vy,
        body.w,
        body.padding,
        zero,
        zero,
        zero,
        zero,
    ];
    for (&i, row) in indices.iter().zip(Lanes::transpose(columns)) {
        states.write_velocity_half(i, row);
    }
}

/// The states of the bodies `indices` in lanes: rows of four bodies transposed to columns.
#[cfg(not(target_feature = "avx2"))]
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
#[cfg(not(target_feature = "avx2"))]
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
#[cfg(not(target_feature = "avx2"))]
#[inline(always)]
fn scatter(states: &mut StatesView, indices: &[u32; LANES], body: &WideBody) {
    // The padding lane goes back as it was gathered.
    let velocity_rows = Lanes::transpose([body.vx, body.vy, body.w, body.padding]);
    for (&i, row) in indices.iter().zip(velocity_rows) {
        states.write_velocity_row(i, row);
    }
}

/// Applies the impulse (px, py) at the anchors: minus to A, plus to B.
#[inline]
#[allow(clippy::too_many_arguments)]
fn apply(
    c: &WideConstraint,
    a: &mut WideBody,
    b: &mut WideBody,
    p: &WidePoint,
    px: Lanes,
    py: Lanes,
) {
    a.vx -= c.inv_mass_a * px;
    a.vy -= c.inv_mass_a * py;
    a.w -= c.inv_inertia_a * (p.anchor_a_x * py - p.anchor_a_y * px);
    b.vx += c.inv_mass_b * px;
    b.vy += c.inv_mass_b * py;
    b.w += c.inv_inertia_b * (p.anchor_b_x * py - p.anchor_b_y * px);
}

/// Velocity of B's anchor relative to A's: vB + wB x rB - vA - wA x rA.
#[inline]
fn relative_velocity(a: &WideBody, b: &WideBody, p: &WidePoint) -> (Lanes, Lanes) {
    let x = (b.vx - b.w * p.anchor_b_y) - (a.vx - a.w * p.anchor_a_y);
    let y = (b.vy + b.w * p.anchor_b_x) - (a.vy + a.w * p.anchor_a_x);
    (x, y)
}

fn warm_start_group(c: &WideConstraint, states: &mut StatesView) {
    let mut a = gather_velocities(states, &c.index_a);
    let mut b = gather_velocities(states, &c.index_b);
    let (nx, ny) = (c.normal_x, c.normal_y);
    // t = right_perp(n) = (ny, -nx)
    let (tx, ty) = (ny, -nx);
    for p in &c.points {
        let px = p.normal_impulse * nx + p.tangent_impulse * tx;
        let py = p.normal_impulse * ny + p.tangent_impulse * ty;
        apply(c, &mut a, &mut b, p, px, py);
    }
    scatter(states, &c.index_a, &a);
    scatter(states, &c.index_b, &b);
}

/// One group once: with bias (`USE_BIAS`, the solve) or rigid (the relax).
#[inline(always)]
fn solve_group<const USE_BIAS: bool>(
    c: &mut WideConstraint,
    states: &mut StatesView,
    inv_h: f32,
    max_push_speed: f32,
) {
    let mut a = gather(states, &c.index_a);
    let mut b = gather(states, &c.index_b);
    let (nx, ny) = (c.normal_x, c.normal_y);
    let zero = Lanes::splat(0.0);
    let one = Lanes::splat(1.0);
    let inv_h = Lanes::splat(inv_h);
    let max_push = Lanes::splat(-max_push_speed);
    let dpx = b.dpx - a.dpx;
    let dpy = b.dpy - a.dpy;

    for i in 0..2 {
        let p = &c.points[i];
        // Current separation: s0 + ((dpB - dpA) + qB rB - qA rA) . n
        let moved_ax = a.qc * p.anchor_a_x - a.qs * p.anchor_a_y;
        let moved_ay = a.qs * p.anchor_a_x + a.qc * p.anchor_a_y;
        let moved_bx = b.qc * p.anchor_b_x - b.qs * p.anchor_b_y;
        let moved_by = b.qs * p.anchor_b_x + b.qc * p.anchor_b_y;
        let dx = dpx + (moved_bx - moved_ax);
        let dy = dpy + (moved_by - moved_ay);
        let s = p.base_separation + (dx * nx + dy * ny);
        // Speculative points close the gap exactly; touching ones are soft with bias, or
        // rigid without it when relaxing.
        let (bias, mass_scale, impulse_scale) = if USE_BIAS {
            (
                (c.bias_rate * s).fast_max(max_push),
                c.mass_scale,
                c.impulse_scale,
            )
        } else {
            (zero, one, zero)
        };
        let apart = s.simd_gt(zero);
        let bias = apart.select(s * inv_h, bias);
        let mass_scale = apart.select(one, mass_scale);
        let impulse_scale = apart.select(zero, impulse_scale);

        let (vx, vy) = relative_velocity(&a, &b, p);
        let vn = vx * nx + vy * ny;
        let delta = -(p.normal_mass * (mass_scale * vn + bias)) - impulse_scale * p.normal_impulse;
        let total = (p.normal_impulse + delta).fast_max(zero);
        let applied = total - p.normal_impulse;
        let max_normal_impulse = p.max_normal_impulse.fast_max(applied);
        let relative_velocity = if USE_BIAS {
            applied
                .simd_gt(zero)
                .select(p.relative_velocity.fast_min(vn), p.relative_velocity)
        } else {
            p.relative_velocity
        };
        apply(c, &mut a, &mut b, p, applied * nx, applied * ny);
        let q = &mut c.points[i];
        q.normal_impulse = total;
        q.max_normal_impulse = max_normal_impulse;
        q.relative_velocity = relative_velocity;
    }

    // Friction only in the relax, against the normal impulses it has just settled (see
    // `contact_solver::solve_contacts`).
    if !USE_BIAS {
        let (tx, ty) = (ny, -nx);
        for i in 0..2 {
            let p = &c.points[i];
            let (vx, vy) = relative_velocity(&a, &b, p);
            let vt = vx * tx + vy * ty;
            let limit = c.friction * p.normal_impulse;
            let total = (p.tangent_impulse - p.tangent_mass * vt)
                .fast_max(-limit)
                .fast_min(limit);
            let applied = total - p.tangent_impulse;
            apply(c, &mut a, &mut b, p, applied * tx, applied * ty);
            c.points[i].tangent_impulse = total;
        }
    }

    scatter(states, &c.index_a, &a);
    scatter(states, &c.index_b, &b);
}

/// Restitution of one group (see `contact_solver::apply_restitution`): a point bounces when
/// its lane has restitution, it pushed this step, and it approached faster than `threshold`;
/// other lanes apply zero.
fn restitution_group(c: &mut WideConstraint, states: &mut StatesView, threshold: f32) {
    let mut a = gather_velocities(states, &c.index_a);
    let mut b = gather_velocities(states, &c.index_b);
    let (nx, ny) = (c.normal_x, c.normal_y);
    let zero = Lanes::splat(0.0);
    let bouncy = c.restitution.simd_gt(zero);
    let fast = Lanes::splat(-threshold);
    for i in 0..2 {
        let p = &c.points[i];
        let bounces =
            bouncy & p.relative_velocity.simd_le(fast) & p.max_normal_impulse.simd_gt(zero);
        if !bounces.any() {
            continue;
        }
        let (vx, vy) = relative_velocity(&a, &b, p);
        let vn = vx * nx + vy * ny;
        let delta = -(p.normal_mass * (vn + c.restitution * p.relative_velocity));
        let total = (p.normal_impulse + delta).fast_max(zero);
        let applied = bounces.select(total - p.normal_impulse, zero);
        let total = bounces.select(total, p.normal_impulse);
        let max_normal_impulse = p.max_normal_impulse.fast_max(applied);
        apply(c, &mut a, &mut b, p, applied * nx, applied * ny);
        let q = &mut c.points[i];
        q.normal_impulse = total;
        q.max_normal_impulse = max_normal_impulse;
    }
    scatter(states, &c.index_a, &a);
    scatter(states, &c.index_b, &b);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::contact_solver::{
        ConstraintPoint, ContactSolveSettings, apply_restitution, solve_contacts, warm_start,
    };
    use crate::solver::softness::Softness;
    use bevy_math::Vec2;

    /// A small deterministic generator of test values in [lo, hi).
    struct Values(u32);
    impl Values {
        fn next(&mut self, lo: f32, hi: f32) -> f32 {
            self.0 = self.0.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            lo + (hi - lo) * (self.0 >> 8) as f32 / (1u32 << 24) as f32
        }
        fn vec(&mut self, r: f32) -> Vec2 {
            Vec2::new(self.next(-r, r), self.next(-r, r))
        }
    }

    fn constraint(v: &mut Values, a: u32, b: u32, points: usize) -> ContactConstraint {
        let normal = v.vec(1.0).normalize();
        let mut point = || ConstraintPoint {
            anchor_a: v.vec(0.5),
            anchor_b: v.vec(0.5),
            base_separation: v.next(-0.02, 0.01),
            relative_velocity: v.next(-2.0, 0.0),
            normal_impulse: v.next(0.0, 0.5),
            tangent_impulse: v.next(-0.1, 0.1),
            max_normal_impulse: 0.0,
            normal_mass: v.next(0.2, 1.0),
            tangent_mass: v.next(0.2, 1.0),
        };
        let points_made = [point(), point()];
        let mass = |v: &mut Values, i: u32| {
            if i == STATIC_BODY {
                (0.0, 0.0)
            } else {
                (v.next(0.5, 2.0), v.next(0.5, 3.0))
            }
        };
        let (inv_mass_a, inv_inertia_a) = mass(v, a);
        let (inv_mass_b, inv_inertia_b) = mass(v, b);
        ContactConstraint {
            index_a: a,
            index_b: b,
            inv_mass_a,
            inv_inertia_a,
            inv_mass_b,
            inv_inertia_b,
            normal,
            friction: v.next(0.2, 1.0),
            restitution: 0.0,
            softness: Softness::new(30.0, 10.0, 1.0 / 240.0),
            points: points_made,
            point_count: points,
            block: None,
        }
    }

    /// Contact settings at 60 Hz with four substeps.
    fn test_settings() -> ContactSolveSettings {
        ContactSolveSettings {
            contact_softness: Softness::new(30.0, 10.0, 1.0 / 240.0),
            static_softness: Softness::new(60.0, 10.0, 1.0 / 240.0),
            max_push_speed: 3.0,
            restitution_threshold: 1.0,
            use_block_solver: false,
        }
    }

    /// The constraints coloured in order, over `body_count` solver bodies.
    fn colour(constraints: &[ContactConstraint], body_count: usize) -> GraphColoring {
        let mut coloring = GraphColoring::default();
        coloring.reset(body_count);
        for (k, c) in constraints.iter().enumerate() {
            coloring.add(k as u32, c.index_a, c.index_b);
        }
        coloring
    }

    /// Every field of lane `lane` of `g`, as bits.
    fn lane_bits(g: &WideConstraint, lane: usize) -> Vec<u32> {
        let mut lanes = vec![
            g.inv_mass_a,
            g.inv_inertia_a,
            g.inv_mass_b,
            g.inv_inertia_b,
            g.normal_x,
            g.normal_y,
            g.friction,
            g.bias_rate,
            g.mass_scale,
            g.impulse_scale,
            g.restitution,
        ];
        for p in &g.points {
            lanes.extend([
                p.anchor_a_x,
                p.anchor_a_y,
                p.anchor_b_x,
                p.anchor_b_y,
                p.normal_impulse,
                p.tangent_impulse,
                p.base_separation,
                p.relative_velocity,
                p.max_normal_impulse,
                p.normal_mass,
                p.tangent_mass,
            ]);
        }
        let mut bits = vec![g.index_a[lane], g.index_b[lane]];
        bits.extend(lanes.iter().map(|l| l.as_array()[lane].to_bits()));
        bits
    }

    /// Preparing straight into a lane writes exactly what preparing the scalar constraint
    /// and packing it wrote (the step's results depend on it bit for bit): one- and
    /// two-point manifolds, static and moving bodies, dominance either way, every lane.
    #[test]
    fn a_lane_prepared_in_place_matches_the_packed_scalar_constraint() {
        use crate::collision::{Manifold, ManifoldPoint};
        use crate::solver::contact_solver::{ConstraintBody, ContactSurface, prepare_contact};
        let settings = test_settings();
        let mut v = Values(11);
        for case in 0..64 {
            let body = |v: &mut Values, index: u32, dominance: i8| {
                let moving = index != STATIC_BODY;
                ConstraintBody {
                    solver_index: index,
                    inv_mass: if moving { v.next(0.1, 2.0) } else { 0.0 },
                    inv_inertia: if moving { v.next(0.1, 3.0) } else { 0.0 },
                    center_offset: v.vec(0.3),
                    linear_velocity: v.vec(3.0),
                    angular_velocity: v.next(-2.0, 2.0),
                    dominance,
                }
            };
            let a = body(&mut v, if case % 5 == 0 { STATIC_BODY } else { 3 }, 0);
            let b = body(&mut v, 7, if case % 7 == 0 { 1 } else { 0 });
            let mut manifold = Manifold {
                normal: v.vec(1.0).normalize(),
                point_count: 1 + case % 2,
                ..Default::default()
            };
            for mp in manifold.points.iter_mut() {
                *mp = ManifoldPoint {
                    point: v.vec(2.0),
                    anchor_a: v.vec(0.6),
                    anchor_b: v.vec(0.6),
                    separation: v.next(-0.03, 0.02),
                    normal_impulse: v.next(0.0, 1.0),
                    tangent_impulse: v.next(-0.3, 0.3),
                    ..Default::default()
                };
            }
            let surface = ContactSurface {
                friction: v.next(0.0, 1.0),
                restitution: v.next(0.0, 0.5),
                ..Default::default()
            };
            let lane = case % LANES;
            let mut scalar = ContactConstraint::default();
            prepare_contact(&mut scalar, &manifold, &surface, &a, &b, &settings);
            let (mut packed, mut in_place) = (WideConstraint::default(), WideConstraint::default());
            pack_lane(&mut packed, lane, &scalar);
            prepare_lane(&mut in_place, lane, &manifold, &surface, &a, &b, &settings);
            assert_eq!(
                lane_bits(&in_place, lane),
                lane_bits(&packed, lane),
                "case {case}"
            );
        }
    }

    /// Regression: a soft point's push-out bias was clamped to the maximum push speed before
    /// the soft mass scale multiplied it, so deep overlap separated at 3 m/s times the mass
    /// scale (2.8 m/s at 30 Hz) instead of the promised 3 m/s. Box2D v3 clamps the scaled
    /// bias. One point 0.5 m deep under a body at rest: the first biased iteration leaves the
    /// point separating at exactly the push speed, one by one and in lanes.
    #[test]
    fn regression_the_push_out_speed_was_scaled_after_its_clamp() {
        let point = ConstraintPoint {
            anchor_a: Vec2::ZERO,
            anchor_b: Vec2::new(0.0, -0.5),
            base_separation: -0.5,
            // K = mB: the anchor lies on the line of the normal through the centre.
            normal_mass: 1.0,
            ..Default::default()
        };
        let c = ContactConstraint {
            index_a: STATIC_BODY,
            index_b: 0,
            inv_mass_b: 1.0,
            inv_inertia_b: 6.0,
            normal: Vec2::Y,
            softness: Softness::new(30.0, 10.0, 1.0 / 240.0),
            points: [point, ConstraintPoint::default()],
            point_count: 1,
            ..Default::default()
        };
        let settings = test_settings();
        let mut scalar = vec![c];
        let mut states = vec![BodyState::AT_REST];
        solve_contacts(&mut scalar, &mut [], &mut states, 240.0, true, &settings);
        assert!(
            (states[0].linear_velocity.y - 3.0).abs() < 1e-5,
            "{states:?}"
        );

        let coloring = colour(&[c], 1);
        let mut wide = WideContacts::default();
        wide.build(&[c], &coloring);
        let mut lane_states = vec![BodyState::AT_REST];
        wide.solve(&mut lane_states, 240.0, true, settings.max_push_speed);
        assert!(
            (lane_states[0].linear_velocity.y - 3.0).abs() < 1e-5,
            "{lane_states:?}"
        );
    }

    /// Constraints of one colour touch disjoint bodies, so solving them in lanes must give
    /// what solving them one by one gives: same velocities, same impulses, up to rounding.
    #[test]
    fn lanes_give_what_one_by_one_gives() {
        let mut v = Values(7);
        let body_count = 14u32;
        let states: Vec<BodyState> = (0..body_count)
            .map(|_| {
                let mut s = BodyState::AT_REST;
                s.linear_velocity = v.vec(3.0);
                s.angular_velocity = v.next(-2.0, 2.0);
                s.delta_position = v.vec(0.01);
                s.delta_rotation = crate::math::Rot::from_angle(v.next(-0.05, 0.05));
                s
            })
            .collect();
        // Six constraints over disjoint bodies (two against fixed bodies), one with one point.
        let pairs = [
            (0, 1),
            (2, 3),
            (4, STATIC_BODY),
            (STATIC_BODY, 5),
            (6, 7),
            (8, 9),
        ];
        let constraints: Vec<ContactConstraint> = pairs
            .iter()
            .enumerate()
            .map(|(k, &(a, b))| {
                let mut c = constraint(&mut v, a, b, if k == 3 { 1 } else { 2 });
                // Every other constraint bounces.
                c.restitution = if k % 2 == 0 { 0.6 } else { 0.0 };
                c
            })
            .collect();
        let settings = test_settings();
        let threshold = 0.1;

        let (mut scalar, mut scalar_states) = (constraints.clone(), states.clone());
        warm_start(&scalar, &[], &mut scalar_states);
        for use_bias in [true, false] {
            solve_contacts(
                &mut scalar,
                &mut [],
                &mut scalar_states,
                240.0,
                use_bias,
                &settings,
            );
        }
        let before_restitution = scalar_states.clone();
        apply_restitution(&mut scalar, &mut scalar_states, threshold);
        // Some point bounced, so the lanes' restitution is compared on real work.
        assert!(scalar_states != before_restitution);

        let coloring = colour(&constraints, body_count as usize);
        assert!(coloring.overflow.is_empty());
        let mut wide = WideContacts::default();
        wide.build(&constraints, &coloring);
        assert_eq!(wide.constraint_count(), constraints.len());
        let mut lane_states = states.clone();
        wide.warm_start(&mut lane_states);
        for use_bias in [true, false] {
            wide.solve(&mut lane_states, 240.0, use_bias, settings.max_push_speed);
        }
        wide.restitution(&mut lane_states, threshold);
        let mut lanes = constraints.clone();
        wide.store(&mut lanes);

        let close = |x: f32, y: f32| (x - y).abs() <= 1e-5 * (1.0 + x.abs().max(y.abs()));
        for (i, (s, w)) in scalar_states.iter().zip(&lane_states).enumerate() {
            assert!(
                close(s.linear_velocity.x, w.linear_velocity.x)
                    && close(s.linear_velocity.y, w.linear_velocity.y)
                    && close(s.angular_velocity, w.angular_velocity),
                "body {i}: {s:?} one by one, {w:?} in lanes"
            );
        }
        for (k, (s, w)) in scalar.iter().zip(&lanes).enumerate() {
            for (p, q) in s.solved_points().iter().zip(w.solved_points()) {
                assert!(close(p.normal_impulse, q.normal_impulse), "constraint {k}");
                assert!(
                    close(p.tangent_impulse, q.tangent_impulse),
                    "constraint {k}"
                );
                assert!(close(p.max_normal_impulse, q.max_normal_impulse));
                assert!(close(p.relative_velocity, q.relative_velocity));
            }
        }
        // Something happened: the solve changed the velocities.
        assert!(scalar_states != states);
    }

    /// Friction waits for the relax: the biased iteration moves only normal impulses (in
    /// lanes and one by one), the relax then moves the tangent ones.
    #[test]
    fn friction_is_solved_in_the_relax_only() {
        let mut v = Values(11);
        let mut states = vec![BodyState::AT_REST; 4];
        for s in &mut states {
            // Sliding fast enough that every point's friction has work to do.
            s.linear_velocity = v.vec(3.0);
            s.angular_velocity = v.next(-2.0, 2.0);
        }
        let constraints: Vec<ContactConstraint> = [(0, 1), (2, STATIC_BODY), (STATIC_BODY, 3)]
            .iter()
            .map(|&(a, b)| constraint(&mut v, a, b, 2))
            .collect();
        let settings = test_settings();
        let tangents = |cs: &[ContactConstraint]| -> Vec<f32> {
            cs.iter()
                .flat_map(|c| c.solved_points().map(|p| p.tangent_impulse))
                .collect()
        };
        let normals = |cs: &[ContactConstraint]| -> Vec<f32> {
            cs.iter()
                .flat_map(|c| c.solved_points().map(|p| p.normal_impulse))
                .collect()
        };

        // One by one.
        let (mut scalar, mut scalar_states) = (constraints.clone(), states.clone());
        solve_contacts(
            &mut scalar,
            &mut [],
            &mut scalar_states,
            240.0,
            true,
            &settings,
        );
        assert_eq!(tangents(&scalar), tangents(&constraints));
        assert_ne!(normals(&scalar), normals(&constraints));
        let biased = tangents(&scalar);
        solve_contacts(
            &mut scalar,
            &mut [],
            &mut scalar_states,
            240.0,
            false,
            &settings,
        );
        let relaxed = tangents(&scalar);
        assert!(biased.iter().zip(&relaxed).all(|(b, r)| b != r));

        // In lanes.
        let coloring = colour(&constraints, states.len());
        let mut wide = WideContacts::default();
        wide.build(&constraints, &coloring);
        let mut lane_states = states.clone();
        let mut lanes = constraints.clone();
        wide.solve(&mut lane_states, 240.0, true, settings.max_push_speed);
        wide.store(&mut lanes);
        assert_eq!(tangents(&lanes), tangents(&constraints));
        wide.solve(&mut lane_states, 240.0, false, settings.max_push_speed);
        wide.store(&mut lanes);
        assert!(biased.iter().zip(&tangents(&lanes)).all(|(b, r)| b != r));
    }
}
