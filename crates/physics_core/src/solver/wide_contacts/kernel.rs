//! The contact solver of `contact_solver.rs`, [`LANES`] constraints at a time: the one
//! kernel both lane widths run. This file is compiled once per width, as a child of
//! `four.rs` (`wide::f32x4`) and of `eight.rs` (AVX's eight lanes); the parent gives it
//! `Lanes`, `LANES` and the gathers and scatters of its width.
//!
//! The constraints of one colour (see `graph_coloring.rs`) move disjoint bodies, so solving
//! them in SIMD lanes gives what solving them one after another would, and the lane count
//! changes nothing but the speed: both widths give the same bits. Each group of [`LANES`]
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
//! Only portable arithmetic (add, sub, mul, div, min, max, compare, select) is used, never a
//! fused multiply-add, so every lane computes exactly what the scalar path would compute in
//! the same operation order, on every platform. Where a lane's work depends on the other
//! lanes of its group (the block solver's fallback), the lanes left out keep their
//! velocities by selection, not by adding a zero impulse (which can turn -0.0 into +0.0), so
//! both lane widths still give the same bits.
//!
//! Every function here is `#[inline(always)]`: the eight-lane width's AVX instructions are
//! only emitted inside its entry points, which are compiled for AVX2 (`eight.rs`), so the
//! kernel must be inlined into them whole.

use super::{
    LANES, Lanes, gather, gather_velocities, mark_blocks_entry, restitution_entry, scatter,
    solve_entry, warm_start_entry,
};
use crate::collision::Manifold;
use crate::parallel::shared::StatesView;
#[cfg(test)]
use crate::solver::body_state::BodyState;
use crate::solver::body_state::STATIC_BODY;
#[cfg(test)]
use crate::solver::contact_solver::ContactConstraint;
use crate::solver::contact_solver::TwoPoints;
use crate::solver::contact_solver::{
    ConstraintBody, ConstraintPoint, ContactFrame, ContactSolveSettings, ContactSurface,
    SolvedPoint, deeper_listed_second, prepare_point,
};
#[cfg(test)]
use crate::solver::graph_coloring::GraphColoring;
#[cfg(test)]
use crate::solver::points_together;
#[cfg(test)]
use crate::solver::wide_contacts::EMPTY_LANE;
use crate::solver::wide_contacts::LaneGroup;
use crate::solver::wide_contacts::WideContacts;
use block::{PointTerms, solve_normal_pair};

#[allow(clippy::duplicate_mod)] // once per width, as this file is
#[path = "block.rs"]
mod block;
#[allow(clippy::duplicate_mod)] // once per width, as this file is
#[path = "together.rs"]
mod together;
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
/// anchors and impulses) comes first, so it loads seven of the group's ten lines (four
/// lanes); the settings only the solve and restitution read come last.
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
    /// With points solved together, what the lanes' relaxing Jacobi step is scaled by
    /// (`points_together::relax_scale`; 1 in lanes solved point by point), set with `block`.
    relax_scale: Lanes,
    /// Lanes whose two points are held in the other order than their manifold lists them
    /// (`contact_solver::deeper_listed_second`); [`lane_results`] gives them back in the
    /// manifold's order. In the group's last cache line, which has room for it.
    swapped: [bool; LANES],
    /// Lanes whose two points are solved together: those the block solver takes
    /// (`block.rs`'s `mark_blocks`), or those whose rows couple loosely (`together.rs`'s
    /// `mark_together`: the block when biased, one Jacobi step when relaxing); marked once
    /// the group is prepared, as the anchors and masses they read do not change in a step.
    /// False everywhere with the point-by-point solves. In the last cache line too.
    block: [bool; LANES],
}

/// The bodies of one side of a group, lane by lane.
pub(super) struct WideBody {
    pub vx: Lanes,
    pub vy: Lanes,
    pub w: Lanes,
    pub padding: Lanes,
    pub dpx: Lanes,
    pub dpy: Lanes,
    pub qc: Lanes,
    pub qs: Lanes,
}

impl WideBody {
    /// The body lanes from its eight columns in field order (vx, vy, w, padding, dpx, dpy,
    /// qc, qs).
    #[inline(always)]
    pub(super) fn from_columns([vx, vy, w, padding, dpx, dpy, qc, qs]: [Lanes; 8]) -> Self {
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

    /// The lanes' velocities (vx, vy, w).
    #[inline(always)]
    fn velocities(&self) -> [Lanes; 3] {
        [self.vx, self.vy, self.w]
    }

    /// Puts `before` back in the lanes outside `lanes`: a lane left out of a masked solve
    /// keeps its velocities bit for bit (adding it a zero impulse could turn -0.0 into +0.0,
    /// and whether that happens would depend on the other lanes of its group).
    #[inline(always)]
    fn keep_velocities_outside(&mut self, lanes: Lanes, before: [Lanes; 3]) {
        self.vx = lanes.select(self.vx, before[0]);
        self.vy = lanes.select(self.vy, before[1]);
        self.w = lanes.select(self.w, before[2]);
    }
}

/// This width's contact groups.
pub(crate) type Contacts = WideContacts<LANES, WideConstraint>;

/// The tests' ways to build and solve whole layouts on this thread, through the width's
/// entry points.
#[cfg(test)]
impl Contacts {
    /// Lays out and packs every group on this thread.
    pub fn build(&mut self, constraints: &[ContactConstraint], coloring: &GraphColoring) {
        let mut positions = vec![0; constraints.len()];
        self.layout(coloring, &mut positions, 1, &|_| 0, None);
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
    pub fn constraint_count(&self) -> usize {
        self.lanes
            .iter()
            .flatten()
            .filter(|&&l| l != EMPTY_LANE)
            .count()
    }

    /// Applies last step's impulses, colour by colour, on this thread.
    pub fn warm_start(&self, states: &mut [BodyState]) {
        let mut view = StatesView::new(states);
        for range in &self.colors {
            WideConstraint::warm_start(&self.groups[range.clone()], &mut view);
        }
    }

    /// One iteration over every group on this thread: with bias (`use_bias`) or rigid, two
    /// points as `two_points` says.
    pub fn solve(
        &mut self,
        states: &mut [BodyState],
        inv_h: f32,
        use_bias: bool,
        max_push_speed: f32,
        two_points: TwoPoints,
    ) {
        let mut view = StatesView::new(states);
        for range in &self.colors {
            let groups = &mut self.groups[range.clone()];
            WideConstraint::solve(
                groups,
                &mut view,
                inv_h,
                use_bias,
                max_push_speed,
                two_points,
            );
        }
    }

    /// Restitution over every group on this thread.
    pub fn restitution(&mut self, states: &mut [BodyState], threshold: f32) {
        let mut view = StatesView::new(states);
        for range in &self.colors {
            WideConstraint::restitution(&mut self.groups[range.clone()], &mut view, threshold);
        }
    }

    /// Copies the lanes' impulses and restitution data back to the scalar constraints, on
    /// this thread.
    pub fn store(&self, constraints: &mut [ContactConstraint]) {
        for (c, lanes) in self.groups.iter().zip(&self.lanes) {
            for (lane, &k) in lanes.iter().enumerate() {
                if k != EMPTY_LANE {
                    // The scalar constraint holds its points in the lane's order.
                    let solved = lane_points(c, lane);
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

impl LaneGroup<LANES> for WideConstraint {
    fn clear(&mut self) {
        clear_group(self);
    }

    #[inline(always)]
    fn prepare_lane(
        &mut self,
        lane: usize,
        manifold: &Manifold,
        surface: &ContactSurface,
        a: &ConstraintBody,
        b: &ConstraintBody,
        settings: &ContactSolveSettings,
    ) {
        prepare_lane(self, lane, manifold, surface, a, b, settings);
    }

    fn mark_blocks(groups: &mut [Self], two_points: TwoPoints) {
        mark_blocks_entry(groups, two_points);
    }

    fn lane_results(&self, lane: usize) -> [SolvedPoint; 2] {
        lane_results(self, lane)
    }

    // The solves go through the width's entry points (`four.rs`, `eight.rs`).
    fn warm_start(groups: &[Self], states: &mut StatesView) {
        warm_start_entry(groups, states);
    }

    fn solve(
        groups: &mut [Self],
        states: &mut StatesView,
        inv_h: f32,
        use_bias: bool,
        max_push_speed: f32,
        two_points: TwoPoints,
    ) {
        solve_entry(groups, states, inv_h, use_bias, max_push_speed, two_points);
    }

    fn restitution(groups: &mut [Self], states: &mut StatesView, threshold: f32) {
        restitution_entry(groups, states, threshold);
    }
}

/// Notes in each group the lanes whose two points are solved together: the block solver's
/// (`block.rs`, `mark_blocks`) or those whose rows couple loosely (`together.rs`,
/// `mark_together`). Nothing for the point-by-point solves.
#[inline(always)]
pub(super) fn mark_block_groups(groups: &mut [WideConstraint], two_points: TwoPoints) {
    match two_points {
        TwoPoints::Block => groups.iter_mut().for_each(block::mark_blocks),
        TwoPoints::Together => groups.iter_mut().for_each(together::mark_together),
        TwoPoints::Listed | TwoPoints::DeeperFirst { .. } => {}
    }
}

/// Warm starts groups of one colour.
#[inline(always)]
pub(super) fn warm_start_groups(groups: &[WideConstraint], states: &mut StatesView) {
    for c in groups {
        warm_start_group(c, states);
    }
}

/// Solves groups of one colour once; `block` solves two-point manifolds with the block
/// solver.
#[inline(always)]
pub(super) fn solve_groups(
    groups: &mut [WideConstraint],
    states: &mut StatesView,
    inv_h: f32,
    use_bias: bool,
    max_push_speed: f32,
    two_points: TwoPoints,
) {
    // A copy of the loop per case, so the bias and two-point tests are decided once and not
    // in every group. Plain loops, no closures: a closure would be compiled on its own,
    // without the eight-lane entry points' AVX2.
    use TwoPoints::{Block, DeeperFirst, Listed, Together};
    match (use_bias, two_points) {
        (true, Listed) => {
            for c in groups {
                solve_group::<true, LISTED>(c, states, inv_h, max_push_speed, 0.0);
            }
        }
        (false, Listed) => {
            for c in groups {
                solve_group::<false, LISTED>(c, states, inv_h, max_push_speed, 0.0);
            }
        }
        (true, DeeperFirst { impact_speed }) => {
            for c in groups {
                solve_group::<true, DEEPER_FIRST>(c, states, inv_h, max_push_speed, impact_speed);
            }
        }
        (false, DeeperFirst { impact_speed }) => {
            for c in groups {
                solve_group::<false, DEEPER_FIRST>(c, states, inv_h, max_push_speed, impact_speed);
            }
        }
        (true, Block) => {
            for c in groups {
                solve_group::<true, BLOCK>(c, states, inv_h, max_push_speed, 0.0);
            }
        }
        (false, Block) => {
            for c in groups {
                solve_group::<false, BLOCK>(c, states, inv_h, max_push_speed, 0.0);
            }
        }
        (true, Together) => {
            for c in groups {
                solve_group::<true, TOGETHER>(c, states, inv_h, max_push_speed, 0.0);
            }
        }
        (false, Together) => {
            for c in groups {
                solve_group::<false, TOGETHER>(c, states, inv_h, max_push_speed, 0.0);
            }
        }
    }
}

/// [`TwoPoints`] as the kernel's constant parameter (an enum cannot be one on stable Rust).
const LISTED: u8 = 0;
/// See [`LISTED`].
const DEEPER_FIRST: u8 = 1;
/// See [`LISTED`].
const BLOCK: u8 = 2;
/// See [`LISTED`].
const TOGETHER: u8 = 3;

/// Applies restitution to groups of one colour; groups with no bouncy lane are skipped.
#[inline(always)]
pub(super) fn restitution_groups(
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
pub(super) fn clear_group(group: &mut WideConstraint) {
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
    group.swapped[lane] = c.swapped;
    group.block[lane] = c.block.is_some();
    let relax_scale = c.block.as_ref().map_or(1.0, points_together::relax_scale);
    group.relax_scale.as_mut_array()[lane] = relax_scale;
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
/// solver's matrix is not stored: the lanes rebuild K from the anchors when they solve.
#[inline(always)]
pub(super) fn prepare_lane(
    group: &mut WideConstraint,
    lane: usize,
    manifold: &Manifold,
    surface: &ContactSurface,
    a: &ConstraintBody,
    b: &ConstraintBody,
    settings: &ContactSolveSettings,
) {
    let frame = ContactFrame::new(manifold, a, b, settings);
    let (n, t, masses, softness) = (frame.normal, frame.tangent, frame.masses, frame.softness);
    let (ma, ia, mb, ib) = masses;
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
    // A one-point manifold's second point gets zero masses and impulses.
    let mut points = [ConstraintPoint::default(); 2];
    for (cp, mp) in points.iter_mut().zip(manifold.points()) {
        *cp = prepare_point(mp, n, t, masses, a, b);
    }
    let swapped = deeper_listed_second(manifold, &points, settings.two_points());
    group.swapped[lane] = swapped;
    if swapped {
        points.swap(0, 1);
    }
    // Which lanes are blocks is decided for the whole group once it is full (`mark_blocks`).
    group.block[lane] = false;
    for (p, cp) in group.points.iter_mut().zip(&points) {
        write_point(p, lane, cp);
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
pub(super) fn lane_results(group: &WideConstraint, lane: usize) -> [SolvedPoint; 2] {
    let mut solved = lane_points(group, lane);
    if group.swapped[lane] {
        solved.swap(0, 1);
    }
    solved
}

/// The results of lane `lane` of `group`, in the order the lane holds its points.
fn lane_points(group: &WideConstraint, lane: usize) -> [SolvedPoint; 2] {
    group.points.each_ref().map(|p| SolvedPoint {
        normal_impulse: p.normal_impulse.as_array()[lane],
        tangent_impulse: p.tangent_impulse.as_array()[lane],
        max_normal_impulse: p.max_normal_impulse.as_array()[lane],
        relative_velocity: p.relative_velocity.as_array()[lane],
    })
}

/// Applies the impulse (px, py) at the anchors: minus to A, plus to B.
#[inline(always)]
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
#[inline(always)]
fn relative_velocity(a: &WideBody, b: &WideBody, p: &WidePoint) -> (Lanes, Lanes) {
    let x = (b.vx - b.w * p.anchor_b_y) - (a.vx - a.w * p.anchor_a_y);
    let y = (b.vy + b.w * p.anchor_b_x) - (a.vy + a.w * p.anchor_a_x);
    (x, y)
}

#[inline(always)]
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

/// One group once: with bias (`USE_BIAS`, the solve) or rigid (the relax). `TWO_POINTS`
/// says how a manifold's two points go: with [`BLOCK`], together where the block solver can
/// (`block.rs`) and one after the other elsewhere; with [`TOGETHER`], in the lanes
/// `together.rs` marks, the block when biased and both from the same velocities when
/// relaxing, and one after the other elsewhere; with
/// [`DEEPER_FIRST`], one after the other, the deeper first where neither point approached
/// faster than `impact_speed` this step (read by that case only); with [`LISTED`], one
/// after the other in listed order.
#[inline(always)]
fn solve_group<const USE_BIAS: bool, const TWO_POINTS: u8>(
    c: &mut WideConstraint,
    states: &mut StatesView,
    inv_h: f32,
    max_push_speed: f32,
    impact_speed: f32,
) {
    let mut a = gather(states, &c.index_a);
    let mut b = gather(states, &c.index_b);
    let (nx, ny) = (c.normal_x, c.normal_y);
    let inv_h = Lanes::splat(inv_h);
    let max_push = Lanes::splat(-max_push_speed);
    let dpx = b.dpx - a.dpx;
    let dpy = b.dpy - a.dpy;

    // The points' soft terms come from positions only, which the velocity solve leaves
    // alone: both are known before either point is solved.
    let terms = [
        point_terms::<USE_BIAS>(c, &c.points[0], &a, &b, dpx, dpy, inv_h, max_push),
        point_terms::<USE_BIAS>(c, &c.points[1], &a, &b, dpx, dpy, inv_h, max_push),
    ];

    // The block solver's lanes take the block in both passes; lanes solved together take it
    // in the biased pass (`points_together.rs`).
    let block_pass = TWO_POINTS == BLOCK || (TWO_POINTS == TOGETHER && USE_BIAS);
    if block_pass && c.block.contains(&true) {
        // Lanes the block solved are left out of the point-by-point solve; it does not run
        // when the block solved them all. A group with no block lane takes the plain
        // point-by-point solve below, without lane masks.
        let solved = solve_normal_pair::<USE_BIAS>(c, &mut a, &mut b, &terms);
        if !solved.all() {
            let only = solved.any().then_some(!solved);
            for (i, t) in terms.iter().enumerate() {
                solve_normal_point::<USE_BIAS>(c, i, &mut a, &mut b, t, only);
            }
        }
    } else if TWO_POINTS == TOGETHER && !USE_BIAS && c.block.contains(&true) {
        // Relaxing, the lanes solved together read the second point's velocity before the
        // first point's impulse is applied (`together.rs`), and both updates are scaled by
        // `relax_scale` (below 1 where the rows push each other, 1 in the listed lanes); the
        // other lanes read it after, as listed.
        let together = block::flagged_lanes(c);
        let scale = Some(c.relax_scale);
        let first_vn = normal_velocity(c, &a, &b, &c.points[0]);
        let second_before = normal_velocity(c, &a, &b, &c.points[1]);
        let first = &terms[0];
        solve_normal_point_at::<USE_BIAS>(c, 0, &mut a, &mut b, first, None, first_vn, scale);
        let vn = if together.all() {
            second_before
        } else {
            let second_after = normal_velocity(c, &a, &b, &c.points[1]);
            together.select(second_before, second_after)
        };
        solve_normal_point_at::<USE_BIAS>(c, 1, &mut a, &mut b, &terms[1], None, vn, scale);
    } else if TWO_POINTS == DEEPER_FIRST {
        // Lanes at rest whose second point is the deeper solve it first: the one order for
        // all lanes when they agree, else that point in those lanes, the first point
        // everywhere, and the second point in the other lanes. A one-point lane's second
        // point has no mass and is never the deeper. Lanes struck faster than the impact
        // speed keep their order (`contact_solver::resting`).
        let zero = Lanes::splat(0.0);
        let approach = c.points[0]
            .relative_velocity
            .fast_min(c.points[1].relative_velocity);
        let second_first = terms[1].separation.simd_lt(terms[0].separation)
            & c.points[1].normal_mass.simd_gt(zero)
            & approach.simd_gt(Lanes::splat(-impact_speed));
        if !second_first.any() {
            solve_normal_point::<USE_BIAS>(c, 0, &mut a, &mut b, &terms[0], None);
            solve_normal_point::<USE_BIAS>(c, 1, &mut a, &mut b, &terms[1], None);
        } else if second_first.all() {
            solve_normal_point::<USE_BIAS>(c, 1, &mut a, &mut b, &terms[1], None);
            solve_normal_point::<USE_BIAS>(c, 0, &mut a, &mut b, &terms[0], None);
        } else {
            let first = Some(second_first);
            solve_normal_point::<USE_BIAS>(c, 1, &mut a, &mut b, &terms[1], first);
            solve_normal_point::<USE_BIAS>(c, 0, &mut a, &mut b, &terms[0], None);
            let last = Some(!second_first);
            solve_normal_point::<USE_BIAS>(c, 1, &mut a, &mut b, &terms[1], last);
        }
    } else {
        for (i, t) in terms.iter().enumerate() {
            solve_normal_point::<USE_BIAS>(c, i, &mut a, &mut b, t, None);
        }
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

/// The soft terms of point `p` for this iteration, from the positions the substeps have
/// reached (`dpx`, `dpy`: B's position change minus A's); `max_push` is minus the push-out
/// speed limit.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn point_terms<const USE_BIAS: bool>(
    c: &WideConstraint,
    p: &WidePoint,
    a: &WideBody,
    b: &WideBody,
    dpx: Lanes,
    dpy: Lanes,
    inv_h: Lanes,
    max_push: Lanes,
) -> PointTerms {
    let zero = Lanes::splat(0.0);
    let one = Lanes::splat(1.0);
    let (nx, ny) = (c.normal_x, c.normal_y);
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
    PointTerms {
        bias: apart.select(s * inv_h, bias),
        mass_scale: apart.select(one, mass_scale),
        impulse_scale: apart.select(zero, impulse_scale),
        separation: s,
    }
}

/// The normal velocity of point `p` of every lane: B's anchor's relative to A's, along n.
#[inline(always)]
fn normal_velocity(c: &WideConstraint, a: &WideBody, b: &WideBody, p: &WidePoint) -> Lanes {
    let (vx, vy) = relative_velocity(a, b, p);
    vx * c.normal_x + vy * c.normal_y
}

/// Point `i` of every lane on its own (of the lanes in `only`, when given): the soft update
/// of the point's accumulated normal impulse, clamped to push only.
#[inline(always)]
fn solve_normal_point<const USE_BIAS: bool>(
    c: &mut WideConstraint,
    i: usize,
    a: &mut WideBody,
    b: &mut WideBody,
    t: &PointTerms,
    only: Option<Lanes>,
) {
    let vn = normal_velocity(c, a, b, &c.points[i]);
    solve_normal_point_at::<USE_BIAS>(c, i, a, b, t, only, vn, None);
}

/// [`solve_normal_point`] with the point's normal velocity `vn` given (read before the
/// other point of a manifold solved together was applied, `together.rs`), and its update
/// times `scale` when given (the relaxing Jacobi step's damping).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn solve_normal_point_at<const USE_BIAS: bool>(
    c: &mut WideConstraint,
    i: usize,
    a: &mut WideBody,
    b: &mut WideBody,
    t: &PointTerms,
    only: Option<Lanes>,
    vn: Lanes,
    scale: Option<Lanes>,
) {
    let zero = Lanes::splat(0.0);
    let (nx, ny) = (c.normal_x, c.normal_y);
    let p = &c.points[i];
    let unscaled =
        -(p.normal_mass * (t.mass_scale * vn + t.bias)) - t.impulse_scale * p.normal_impulse;
    let delta = match scale {
        Some(scale) => unscaled * scale,
        None => unscaled,
    };
    let mut total = (p.normal_impulse + delta).fast_max(zero);
    if let Some(lanes) = only {
        total = lanes.select(total, p.normal_impulse);
    }
    let applied = total - p.normal_impulse;
    let max_normal_impulse = p.max_normal_impulse.fast_max(applied);
    let relative_velocity = if USE_BIAS {
        applied
            .simd_gt(zero)
            .select(p.relative_velocity.fast_min(vn), p.relative_velocity)
    } else {
        p.relative_velocity
    };
    match only {
        Some(lanes) => {
            let before = (a.velocities(), b.velocities());
            apply(c, a, b, p, applied * nx, applied * ny);
            a.keep_velocities_outside(lanes, before.0);
            b.keep_velocities_outside(lanes, before.1);
        }
        None => apply(c, a, b, p, applied * nx, applied * ny),
    }
    let q = &mut c.points[i];
    q.normal_impulse = total;
    q.max_normal_impulse = max_normal_impulse;
    q.relative_velocity = relative_velocity;
}

/// Restitution of one group (see `contact_solver::apply_restitution`): a point bounces when
/// its lane has restitution, it pushed this step, and it approached faster than `threshold`;
/// other lanes apply zero.
#[inline(always)]
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

// Once per width, as this file is: each width runs the kernel's tests.
#[cfg(test)]
#[allow(clippy::duplicate_mod)]
#[path = "tests.rs"]
mod tests;
