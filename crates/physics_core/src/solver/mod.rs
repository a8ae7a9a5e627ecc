//! The soft step: the order of the solver stages.
//!
//! ```text
//! prepare joints                         (once per step)
//! colour contacts                        constraints of one colour share no moving body;
//!                                        each colour is laid out in SIMD groups of four;
//!                                        last step's colours are kept while no contact
//!                                        started or stopped touching and the same bodies
//!                                        move (`world/solve_set.rs`)
//! carried mass                           (once per step, `world/step/carried_mass.rs`)
//!                                        a body under a much heavier one is solved with
//!                                        most of the mass it carries, weight unchanged;
//!                                        put back before finalize
//! prepare contacts                       (once per step, in parallel blocks) coloured
//!                                        ones group by group straight into their SIMD
//!                                        lanes, the overflow in its own order
//! for each of the n substeps (h = dt / n):
//!     integrate velocities               gravity, forces, damping
//!     warm start                         joints, then contacts: the accumulated impulses
//!     solve                              joints (small joint islands exactly), then
//!                                        contacts (overflow one by one, then colour by
//!                                        colour in lanes): soft, with position bias
//!     integrate positions                delta position and delta rotation; small joint
//!                                        islands projected exactly onto their constraints
//!     relax                              joints, then contacts: rigid, without bias;
//!                                        contact friction is solved here only, against
//!                                        the normal impulses the substep settled on
//! restitution                            once, for points that approached fast: overflow,
//!                                        then colour by colour
//! store impulses                         lanes into a dense results array by contact
//!                                        index, then into the contacts in contact order,
//!                                        for next step's warm start; joint impulses stay
//!                                        in their constraints while the joint order holds
//!                                        (`world/joint_results.rs`)
//! ```
//!
//! `step_stages.rs` runs this list as stages on the world's task runner: body stages in
//! ranges of bodies, colour stages in blocks of one colour's groups, and the scalar work
//! (joints, exact islands, overflow contacts, restitution) as single-block stages. The wall
//! time of each named stage above, summed over the substeps, is the step's
//! [`SolverProfile`] (`World::profile().solver`), split as Box2D v3 splits its own.
//!
//! Solving with bias pushes overlapping bodies apart softly; relaxing without bias then
//! removes the velocity that push added, so separation does not turn into bounce.

pub(crate) mod block_solver;
pub(crate) mod body_state;
pub(crate) mod contact_solver;
pub(crate) mod exact_contacts;
pub(crate) mod graph_coloring;
pub(crate) mod island;
pub(crate) mod joint_order;
pub(crate) mod points_together;
mod profile;
pub mod softness;
mod step_stages;
pub(crate) mod wide_contacts;

use crate::joint::{ExactIsland, IslandScratch, JointConstraint};
use bevy_math::Vec2;
use body_state::{BodyParams, BodyState};
use contact_solver::{
    ConstraintBody, ContactConstraint, ContactSolveSettings, SolvedPoint, SurfaceConstraint,
};
use exact_contacts::ExactContacts;
use graph_coloring::GraphColoring;
pub use profile::SolverProfile;
pub(crate) use step_stages::{ContactLink, run_substeps};
use wide_contacts::ContactGroups;
pub use wide_contacts::ContactLanes;

/// The most a body may turn in one substep; faster spin is clamped so the first-order
/// rotation update stays accurate.
const MAX_ROTATION_PER_SUBSTEP: f32 = 0.25 * std::f32::consts::PI;

/// Everything the substep loop works on, in dense arrays indexed by solver index.
#[derive(Default)]
pub(crate) struct SolverArrays {
    pub states: Vec<BodyState>,
    pub params: Vec<BodyParams>,
    /// Body (slot, generation) of each solver index: `finalize` skips a body destroyed (and
    /// perhaps replaced) between `solve` and `finalize`.
    pub bodies: Vec<(u32, u32)>,
    /// What preparing a contact reads of each solver body (mass, velocity, centre offset),
    /// by solver index, so it never reads the body records of moving bodies.
    pub contact_bodies: Vec<ConstraintBody>,
    /// Solver index of every body slot (`STATIC_BODY` for bodies not solved), from `solve`.
    pub solver_index: Vec<u32>,
    /// The overflow's contact constraints (solved one by one), in overflow order: the one at
    /// position `p` is at `p - overflow_start()`. The coloured ones are built straight into
    /// their groups' lanes.
    pub contacts: Vec<ContactConstraint>,
    /// The surface part (moving surface, rolling resistance) of each overflow constraint,
    /// index-aligned with `contacts`.
    pub surfaces: Vec<SurfaceConstraint>,
    /// Position of each constraint index: lane `l` of SIMD group `g` at `lanes * g + l`
    /// (empty lanes leave holes), then the overflow in overflow order.
    pub positions: Vec<u32>,
    /// Results of each constraint in lanes, by constraint index: the lanes are stored here
    /// (small records, written in group order) so the contacts are then written in contact
    /// order from a dense array instead of from the scattered scalar constraints.
    pub lane_results: Vec<[SolvedPoint; 2]>,
    /// Manifold point count of each constraint in lanes, by constraint index, noted while
    /// preparing (the record is in the cache then) so storing never reads the record's first
    /// line, where the count lives, only the line of its impulses.
    pub lane_point_counts: Vec<u8>,
    /// Joint constraints in colour order (`joint_order.rs`).
    pub joints: Vec<JointConstraint>,
    /// Joint slots by colour: the order `joints` is built in.
    pub joint_coloring: GraphColoring,
    /// Place in `joints` of every joint slot (`u32::MAX`: not solved this step).
    pub joint_positions: Vec<u32>,
    /// 1 / substep of the step whose results (impulses) `joints` still holds and the joint
    /// records do not have yet; `None` when the records have them (`world/joint_results.rs`).
    pub held_joint_results: Option<f32>,
    /// Places in `joints`, in joint slot order, of the joints whose results the world reads
    /// every step (angle joints, breakable joints).
    pub joint_watch: Vec<u32>,
    pub exact_islands: Vec<ExactIsland>,
    pub island_scratch: IslandScratch,
    /// Contact constraints by colour; its overflow list is solved by the scalar path.
    pub coloring: GraphColoring,
    /// The coloured contact constraints in SIMD groups of the world's width.
    pub wide_contacts: ContactGroups,
    /// Exact contact islands (`exact_contacts.rs`): their constraints come last in the
    /// overflow, in island order, from `contacts[exact_start]` on (the islands' ranges are
    /// indices into `contacts` too).
    pub exact_contacts: ExactContacts,
    pub exact_start: usize,
}

/// Step-wide solver settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepSettings {
    pub dt: f32,
    pub substeps: u32,
    pub max_linear_speed: f32,
    pub contact: ContactSolveSettings,
    /// Bias rate of the joint softness, used by the exact island solve.
    pub joint_bias_rate: f32,
    /// Position error (m, in world units) below which an exact island's projection stops.
    pub projection_tolerance: f32,
}

impl SolverArrays {
    /// Forgets the last step's contact colouring; then [`SolverArrays::add_contact`] for
    /// every contact constraint in order, then [`SolverArrays::lay_out_contacts`].
    pub fn begin_contacts(&mut self) {
        self.coloring.reset(self.states.len());
    }

    /// Colours constraint `k` between solver bodies `a` and `b`, or sends it to the scalar
    /// overflow when `scalar_only` (it has a surface part the lanes lack, or belongs to an
    /// exact island).
    pub fn add_contact(&mut self, k: u32, a: u32, b: u32, scalar_only: bool) {
        self.coloring.add_or_overflow(k, a, b, scalar_only);
    }

    /// Lays the `count` coloured constraints out in SIMD groups, the overflow after them,
    /// and gives each its position in the scalar array; the preparing stages fill both.
    /// `exact_sizes`: the constraint counts of the exact contact islands, whose constraints
    /// end the overflow (`GraphColoring::gather_exact_islands`).
    ///
    /// Each colour's constraints come by the worker share of the bodies they move,
    /// `share_of(k)` below `shares`, and within a share those `block_first` names first (see
    /// `WideContacts::layout`).
    pub fn lay_out_contacts(
        &mut self,
        count: usize,
        exact_sizes: &[usize],
        shares: usize,
        share_of: &dyn Fn(u32) -> usize,
        block_first: Option<&dyn Fn(u32) -> bool>,
    ) {
        self.positions.clear();
        self.positions.resize(count, u32::MAX);
        self.wide_contacts.layout(
            &self.coloring,
            &mut self.positions,
            shares,
            share_of,
            block_first,
        );
        let first_overflow = self.overflow_start();
        for (j, &k) in self.coloring.overflow.iter().enumerate() {
            self.positions[k as usize] = (first_overflow + j) as u32;
        }
        // Every constraint the stages read is written by the preparing stage first, so the
        // array is only resized, never cleared (that would write it all once more).
        let len = self.coloring.overflow.len();
        let exact: usize = exact_sizes.iter().sum();
        self.exact_start = len - exact;
        self.exact_contacts.islands.clear();
        let mut start = self.exact_start;
        for &size in exact_sizes {
            self.exact_contacts.islands.push(start..start + size);
            start += size;
        }
        self.contacts.resize(len, Default::default());
        self.surfaces.resize(len, Default::default());
        // Likewise: every lane's results are written by the storing stage before being read.
        self.lane_results.resize(count, Default::default());
        self.lane_point_counts.resize(count, 0);
    }

    /// Position of the first overflow constraint in `contacts`.
    pub fn overflow_start(&self) -> usize {
        self.wide_contacts.lane_count()
    }
}

/// The most a body turns in one step unless it allows fast rotation (Box2D v3's limit,
/// applied where it applies it: to the velocity each substep's positions integrate).
pub(crate) const MAX_ROTATION_PER_STEP: f32 = 0.25 * std::f32::consts::PI;

/// v += h a, then damping as 1 / (1 + h c) (stable for any h), then the speed limits.
///
/// A kinematic body keeps the velocity it was given, but not past the world's speed limit:
/// Box2D v3 caps every awake body's speed, kinematic ones too, and a kinematic body given
/// 1e30 m/s would otherwise leave the world's coordinate range in one step.
pub(crate) fn integrate_velocities(
    states: &mut [BodyState],
    params: &[BodyParams],
    h: f32,
    max_speed: f32,
) {
    let max_spin = MAX_ROTATION_PER_SUBSTEP / h;
    for (s, p) in states.iter_mut().zip(params) {
        if p.inv_mass == 0.0 && p.inv_inertia == 0.0 {
            s.linear_velocity = capped_speed(s.linear_velocity, max_speed);
            continue;
        }
        let v = (s.linear_velocity + h * p.linear_acceleration) / (1.0 + h * p.linear_damping);
        let w = (s.angular_velocity + h * p.angular_acceleration) / (1.0 + h * p.angular_damping);
        s.linear_velocity = capped_speed(v, max_speed);
        s.angular_velocity = w.clamp(-max_spin, max_spin);
    }
}

/// `v` scaled down to `max_speed` when it is faster. Components are clamped first, so an
/// infinite velocity (from a huge force) or one whose square overflows still comes out at
/// the limit, instead of scaled to zero by an infinite length.
fn capped_speed(v: Vec2, max_speed: f32) -> Vec2 {
    let v = v.clamp(Vec2::splat(-max_speed), Vec2::splat(max_speed));
    let speed_sq = v.length_squared();
    if speed_sq > max_speed * max_speed {
        v * (max_speed / speed_sq.sqrt())
    } else {
        v
    }
}

/// dp += h v; dq advances by h w without trigonometry, with the spin first clamped to the
/// body's limit (the clamped spin is kept, as Box2D v3 keeps it). Locked axes lose their
/// velocity first: a motion lock acts as the last constraint of the substep (Box2D v3's
/// order), so the constraints solved before it never move a locked centre.
pub(crate) fn integrate_positions(states: &mut [BodyState], params: &[BodyParams], h: f32) {
    for (s, p) in states.iter_mut().zip(params) {
        s.linear_velocity *= p.linear_freedom;
        let limit = p.max_angular_speed;
        // max then min rather than clamp: a limit that is not a number must not panic.
        s.angular_velocity = s.angular_velocity.max(-limit).min(limit);
        s.delta_position += h * s.linear_velocity;
        s.delta_rotation = s.delta_rotation.integrate(h * s.angular_velocity);
    }
}
