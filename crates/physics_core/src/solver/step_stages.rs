//! The substep loop of `solver/mod.rs` as a list of stages run on the world's task runner.
//!
//! Body stages (integrate velocities, integrate positions) cut the bodies into ranges;
//! colour stages (warm start, solve, relax, restitution) cut one colour's SIMD groups into
//! ranges, whose constraints move disjoint bodies; preparing cuts the overflow or the
//! groups into ranges, storing the contacts (in contact order) or the groups. The scalar
//! work (joints, exact islands, overflow contacts) runs as stages of a single block, in the
//! order the serial solver used.
//! No block depends on which worker runs it, so any worker count gives the same bits.
//!
//! Memory order: the coloured constraints are built group by group, each from its contact
//! straight into its lane, and the overflow ones in overflow order into the scalar array.
//! After the substeps, each lane's results go to a small dense array by contact order, and
//! storing walks the contacts in contact order reading them from there, writing only the
//! impulses of each (the point counts were noted while preparing).
#![allow(unsafe_code)]

use super::body_state::BodyState;
use super::contact_solver::{
    ConstraintBody, ContactConstraint, ContactSolveSettings, ContactSurface, SurfaceConstraint,
    TwoPoints, apply_restitution, prepare_contact, solve_contacts, warm_start,
};
use super::profile::{SolverProfile, SolverStage};
use super::wide_contacts::{ContactGroups, EMPTY_LANE, LaneGroup, WideContacts};
use super::{SolverArrays, StepSettings, integrate_positions, integrate_velocities};
use crate::contact::Contact;
use crate::id::Slot;
use crate::joint::{
    RowContext, project_exact_islands, solve_exact_islands, solve_joints, warm_start_joints,
};
use crate::parallel::TaskRunner;
use crate::parallel::shared::{SharedMut, StatesView};
use crate::parallel::stages::{Claim, MIN_BODY_BLOCK, StageClock, block_range, blocks, run_stages};
use crate::prefetch::PREFETCH_DISTANCE;
use std::ops::Range;
use std::sync::Mutex;

/// Fewest SIMD groups in a block of a colour stage.
const MIN_GROUP_BLOCK: usize = 8;

/// Fewest contacts in a block of a preparing or storing stage.
const MIN_CONTACT_BLOCK: usize = 64;

/// The bytes of a contact's slot that preparing touches: the slot's generation and live
/// flag (`Slot::VALUE_OFFSET`), the record's head and its manifold up to the last
/// point's world position (the manifold's memory order, `collision/manifold.rs`); that
/// position, the recycling cache and the rare tail come after (`contact.rs`). Prefetching
/// only these made preparing about 15 % faster in large_pyramid (three lines of the record's
/// five, then); ending them within two lines instead of just past them saved storing and
/// preparing a line per contact.
const HOT_CONTACT_BYTES: usize = Slot::<Contact>::VALUE_OFFSET
    + std::mem::offset_of!(Contact, manifold)
    + std::mem::offset_of!(crate::collision::Manifold, points)
    + std::mem::size_of::<crate::collision::ManifoldPoint>()
    + std::mem::offset_of!(crate::collision::ManifoldPoint, point);

/// Where, in a contact's slot, the bytes that storing a constraint in lanes writes begin: the
/// first manifold point's impulses. They end with the second point's, a point's size
/// further ([`IMPULSE_BYTES`]). Storing reads and writes nothing else of the record (the
/// point count comes from preparing, and a lane never holds a moving surface), so it waits
/// for one line or two where it waited for the record's first three (large_pyramid's
/// storing 15-20 % shorter).
const IMPULSES_IN_SLOT: usize = Slot::<Contact>::VALUE_OFFSET
    + std::mem::offset_of!(Contact, manifold)
    + std::mem::offset_of!(crate::collision::Manifold, points)
    + std::mem::offset_of!(crate::collision::ManifoldPoint, normal_impulse);

/// Bytes from the first point's normal impulse to the end of the second point's tangent
/// impulse.
const IMPULSE_BYTES: usize = std::mem::size_of::<crate::collision::ManifoldPoint>()
    + std::mem::offset_of!(crate::collision::ManifoldPoint, tangent_impulse)
    + std::mem::size_of::<f32>()
    - std::mem::offset_of!(crate::collision::ManifoldPoint, normal_impulse);

// The impulses lie within the slot.
const _: () = assert!(IMPULSES_IN_SLOT + IMPULSE_BYTES <= std::mem::size_of::<Slot<Contact>>());

// The record's solver part fits its first two cache lines (when the slot starts a line). The
// `large-world` build's double world points make each manifold point 16 bytes longer and its
// solver part spills 8 bytes into a third line: a cost of that build, measured in
// BENCHMARKS.md ("Large worlds").
#[cfg(not(feature = "large-world"))]
const _: () = assert!(HOT_CONTACT_BYTES <= 128);

/// The world's side of the contact constraints: where constraint `k` comes from and where its
/// results go.
pub(crate) struct ContactLink<'a, B> {
    /// Contact slot of each constraint index (each slot at most once).
    pub slots: &'a [u32],
    /// The world's contacts, by slot: read while preparing, written while storing.
    pub contacts: SharedMut<'a, Slot<Contact>>,
    /// What a constraint needs of the body in a body slot. A type parameter, not a trait
    /// object: preparing calls it twice per contact and inlines it.
    pub body: &'a B,
    /// Some constraint has restitution: the restitution stages run.
    pub any_restitution: bool,
    /// Approach speed above which a contact with hit events reports a hit.
    pub hit_threshold: f32,
    /// Hits found while storing: (constraint index, approach speed, point), in no order.
    pub hits: Mutex<Vec<(u32, f32, crate::position::Position)>>,
}

impl<B> ContactLink<'_, B>
where
    B: Fn(u32) -> ConstraintBody + Sync,
{
    /// The surface of a contact: its mixed coefficients, and its motion and rolling
    /// resistance (the record's tail, read only for the few contacts that move their surface).
    #[inline(always)]
    fn surface(c: &Contact) -> ContactSurface {
        let mut surface = ContactSurface {
            friction: c.friction,
            restitution: c.restitution,
            ..Default::default()
        };
        if c.moving_surface {
            surface.tangent_speed = c.tangent_speed;
            surface.rolling_resistance = c.rolling_resistance;
            surface.rolling_impulse = c.rolling_impulse;
        }
        surface
    }

    /// Builds the scalar constraint of contact `c` and its surface part in place.
    fn prepare(
        &self,
        c: &Contact,
        settings: &ContactSolveSettings,
        out: &mut ContactConstraint,
        surface_out: &mut SurfaceConstraint,
    ) {
        let (a, b) = ((self.body)(c.body_a), (self.body)(c.body_b));
        let surface = Self::surface(c);
        prepare_contact(out, &c.manifold, &surface, &a, &b, settings);
        *surface_out = SurfaceConstraint::new(&surface, &a, &b);
    }

    /// Builds the constraint of contact `c` straight into lane `lane` of `group`.
    #[inline(always)]
    fn prepare_lane<const N: usize, G: LaneGroup<N>>(
        &self,
        c: &Contact,
        settings: &ContactSolveSettings,
        group: &mut G,
        lane: usize,
    ) {
        let (a, b) = ((self.body)(c.body_a), (self.body)(c.body_b));
        let surface = Self::surface(c);
        group.prepare_lane(lane, &c.manifold, &surface, &a, &b, settings);
    }

    /// Contact of constraint `k`, read-only.
    ///
    /// # Safety
    /// No worker writes any contact during the stage.
    unsafe fn read(&self, k: u32) -> &Contact {
        let slot = self.slots[k as usize] as usize;
        let all = unsafe { self.contacts.all_shared() };
        all[slot].value().expect("a solved contact is live")
    }

    /// Asks the cache for the part of constraint `k`'s contact record that preparing
    /// touches, if there is such a constraint (`crate::prefetch`).
    fn prefetch_record(&self, k: usize) {
        if let Some(&slot) = self.slots.get(k) {
            self.contacts
                .prefetch_bytes(slot as usize, HOT_CONTACT_BYTES);
        }
    }

    /// Asks the cache for the impulses of constraint `k`'s contact, the only bytes
    /// [`ContactLink::store_lane`] touches, if there is such a constraint. Another worker
    /// may be storing into that contact meanwhile (it may lie in the next block): the bytes
    /// are only named, never read.
    fn prefetch_impulses(&self, k: usize) {
        if let Some(&slot) = self.slots.get(k) {
            self.contacts
                .prefetch_range(slot as usize, IMPULSES_IN_SLOT, IMPULSE_BYTES);
        }
    }

    /// Stores the results of constraint `k`, solved in a lane, in its contact of
    /// `point_count` points, and notes a hit. Reads the record only for a contact that may
    /// hit (`Contact::may_hit`): otherwise it writes the impulses and nothing else.
    ///
    /// # Safety
    /// No other worker touches this contact during the stage.
    #[inline(always)]
    unsafe fn store_lane(
        &self,
        k: u32,
        point_count: usize,
        solved: &[super::contact_solver::SolvedPoint; 2],
    ) {
        let slot = self.slots[k as usize] as usize;
        // SAFETY: a solved contact is live (nothing is destroyed between preparing and
        // storing); exclusive by the caller's promise.
        let contact = unsafe { self.contacts.get(slot).value_mut_unchecked() };
        debug_assert!(
            !contact.needs_scalar_solver(),
            "a lane holds no moving surface"
        );
        contact.store_impulses(point_count, solved);
        if Contact::may_hit(point_count, solved, self.hit_threshold)
            && contact.hit_events
            && let Some((speed, point)) = contact.fastest_hit(solved, self.hit_threshold)
        {
            self.note_hit(k, speed, point);
        }
    }

    /// Notes a hit of constraint `k`'s contact, whichever worker found it.
    fn note_hit(&self, k: u32, speed: f32, point: crate::position::Position) {
        let mut hits = self.hits.lock().unwrap_or_else(|e| e.into_inner());
        hits.push((k, speed, point));
    }

    /// Stores constraint `k`'s results in its contact and notes a hit.
    ///
    /// # Safety
    /// No other worker touches this contact during the stage.
    unsafe fn store(
        &self,
        k: u32,
        solved: &[super::contact_solver::SolvedPoint; 2],
        rolling_impulse: f32,
    ) {
        let slot = self.slots[k as usize] as usize;
        let contact = unsafe { self.contacts.get(slot) }
            .value_mut()
            .expect("a solved contact is live");
        contact.store_solved(solved);
        // Contacts with rolling resistance are solved by the scalar solver only (lanes have
        // none to store); the others never touch the record's tail.
        if contact.moving_surface {
            contact.rolling_impulse = if rolling_impulse.is_finite() {
                rolling_impulse
            } else {
                0.0
            };
        }
        let hit = contact.hit_events;
        if let Some((speed, point)) = hit
            .then(|| contact.fastest_hit(solved, self.hit_threshold))
            .flatten()
        {
            self.note_hit(k, speed, point);
        }
    }
}

/// What a stage does.
#[derive(Clone, Copy, Debug)]
enum Stage {
    /// Build the overflow constraints, in overflow order, into the scalar array.
    PrepareOverflow,
    /// Build the coloured constraints straight into their groups' lanes, group by group.
    PrepareGroups,
    IntegrateVelocities,
    /// Joints, then overflow contacts (one block).
    WarmStartScalar,
    /// One colour's groups.
    WarmStartColor(usize),
    /// Exact islands, joints, overflow contacts, with bias (one block).
    SolveScalar,
    SolveColor(usize),
    IntegratePositions,
    /// Island projection, then islands, joints, overflow contacts without bias (one block).
    RelaxScalar,
    RelaxColor(usize),
    /// Restitution on the overflow constraints (one block).
    RestitutionScalar,
    RestitutionColor(usize),
    /// Lanes' results into the dense results array, by constraint index.
    StoreGroups,
    /// Every constraint's results (from the dense array, or the overflow constraint) back to
    /// its contact, in contact order.
    StoreContacts,
}

impl Stage {
    /// The stage of the profile this stage's time counts in.
    fn profiled_as(self) -> SolverStage {
        match self {
            Stage::PrepareOverflow | Stage::PrepareGroups => SolverStage::Prepare,
            Stage::IntegrateVelocities => SolverStage::IntegrateVelocities,
            Stage::WarmStartScalar | Stage::WarmStartColor(_) => SolverStage::WarmStart,
            Stage::SolveScalar | Stage::SolveColor(_) => SolverStage::Solve,
            Stage::IntegratePositions => SolverStage::IntegratePositions,
            Stage::RelaxScalar | Stage::RelaxColor(_) => SolverStage::Relax,
            Stage::RestitutionScalar | Stage::RestitutionColor(_) => SolverStage::Restitution,
            Stage::StoreGroups | Stage::StoreContacts => SolverStage::Store,
        }
    }
}

/// A stage, its block count and the items per block.
struct PlannedStage {
    stage: Stage,
    blocks: u32,
    block_size: usize,
}

/// The stages of one step, in order.
fn plan<const N: usize, G>(
    arrays: &SolverArrays,
    wide: &WideContacts<N, G>,
    substeps: u32,
    any_restitution: bool,
    workers: usize,
) -> Vec<PlannedStage> {
    let bodies = arrays.states.len();
    let contacts = arrays.positions.len();
    let colors = &wide.colors;
    let group_count = wide.groups.len();
    let mut list = Vec::new();
    let over = |list: &mut Vec<PlannedStage>, stage: Stage, items: usize, min: usize| {
        let (blocks, block_size) = blocks(items, min, workers);
        list.push(PlannedStage {
            stage,
            blocks,
            block_size,
        });
    };
    let single = |list: &mut Vec<PlannedStage>, stage: Stage| {
        list.push(PlannedStage {
            stage,
            blocks: 1,
            block_size: 1,
        })
    };
    // One stage per colour, over that colour's groups.
    let per_color = |list: &mut Vec<PlannedStage>, stage: fn(usize) -> Stage| {
        for (c, range) in colors.iter().enumerate() {
            over(list, stage(c), range.len(), MIN_GROUP_BLOCK);
        }
    };
    let overflow = arrays.coloring.overflow.len();
    over(
        &mut list,
        Stage::PrepareOverflow,
        overflow,
        MIN_CONTACT_BLOCK,
    );
    over(
        &mut list,
        Stage::PrepareGroups,
        group_count,
        MIN_GROUP_BLOCK,
    );
    for _ in 0..substeps {
        over(
            &mut list,
            Stage::IntegrateVelocities,
            bodies,
            MIN_BODY_BLOCK,
        );
        single(&mut list, Stage::WarmStartScalar);
        per_color(&mut list, Stage::WarmStartColor);
        single(&mut list, Stage::SolveScalar);
        per_color(&mut list, Stage::SolveColor);
        over(&mut list, Stage::IntegratePositions, bodies, MIN_BODY_BLOCK);
        single(&mut list, Stage::RelaxScalar);
        per_color(&mut list, Stage::RelaxColor);
    }
    if any_restitution {
        single(&mut list, Stage::RestitutionScalar);
        per_color(&mut list, Stage::RestitutionColor);
    }
    over(&mut list, Stage::StoreGroups, group_count, MIN_GROUP_BLOCK);
    over(&mut list, Stage::StoreContacts, contacts, MIN_CONTACT_BLOCK);
    list
}

/// Builds the contact constraints laid out by `SolverArrays::lay_out_contacts`, runs the
/// substep loop and restitution, and stores the contacts' results, on `runner`'s workers.
/// Returns the stages' times (the set-up, before this, is the caller's to time).
pub(crate) fn run_substeps<B>(
    arrays: &mut SolverArrays,
    settings: &StepSettings,
    link: &ContactLink<B>,
    runner: &dyn TaskRunner,
) -> SolverProfile
where
    B: Fn(u32) -> ConstraintBody + Sync,
{
    // The lane width was chosen when the world was created (or told to change): one
    // dispatch a step, and every stage below runs the width's own code.
    let placeholder = ContactGroups::Four(WideContacts::default());
    let mut groups = std::mem::replace(&mut arrays.wide_contacts, placeholder);
    let profile = match &mut groups {
        ContactGroups::Four(wide) => run_substeps_in(arrays, wide, settings, link, runner),
        #[cfg(target_arch = "x86_64")]
        ContactGroups::Eight(wide) => run_substeps_in(arrays, wide, settings, link, runner),
    };
    arrays.wide_contacts = groups;
    profile
}

/// [`run_substeps`] with the coloured contacts in `wide`, groups of `N` lanes.
fn run_substeps_in<const N: usize, G: LaneGroup<N>, B>(
    arrays: &mut SolverArrays,
    wide: &mut WideContacts<N, G>,
    settings: &StepSettings,
    link: &ContactLink<B>,
    runner: &dyn TaskRunner,
) -> SolverProfile
where
    B: Fn(u32) -> ConstraintBody + Sync,
{
    let workers = runner.worker_count();
    let stages = plan(
        arrays,
        wide,
        settings.substeps,
        link.any_restitution,
        workers,
    );
    let counts: Vec<u32> = stages.iter().map(|s| s.blocks).collect();
    // The clock is read where a run of stages of one profile stage ends (the colours of a
    // warm start, say), about ten times a substep.
    let kinds: Vec<SolverStage> = stages.iter().map(|s| s.stage.profiled_as()).collect();
    let timed: Vec<bool> = (0..kinds.len())
        .map(|i| kinds.get(i + 1) != Some(&kinds[i]))
        .collect();
    let clock = StageClock::start(&timed);

    let h = settings.dt / settings.substeps as f32;
    let inv_h = 1.0 / h;
    let biased = RowContext {
        h,
        inv_h,
        use_bias: true,
    };
    let relaxed = RowContext {
        use_bias: false,
        ..biased
    };
    let contact = &settings.contact;
    let max_push = contact.max_push_speed;
    let two_points = contact.two_points();

    // `arrays.overflow_start()` would read the placeholder: the lanes are in `wide`.
    let overflow_start = N * wide.lanes.len();
    let exact_start = arrays.exact_start;
    arrays.exact_contacts.begin_step();
    arrays.island_scratch.begin_step(arrays.exact_islands.len());
    let SolverArrays {
        states,
        params,
        contacts: constraints,
        surfaces,
        positions,
        lane_results: results,
        lane_point_counts: point_counts,
        joints,
        exact_islands,
        island_scratch,
        exact_contacts,
        coloring,
        ..
    } = arrays;
    // Constraint index of each overflow constraint, in overflow (position) order.
    let overflow_order = &coloring.overflow;
    let (params, exact_islands, positions) = (&*params, &*exact_islands, &*positions);
    let (lanes, colors) = (&wide.lanes, &wide.colors);
    let states = SharedMut::new(states);
    let constraints = SharedMut::new(constraints);
    let surfaces = SharedMut::new(surfaces);
    let joints = SharedMut::new(joints);
    let groups = SharedMut::new(&mut wide.groups);
    let results = SharedMut::new(results);
    let point_counts = SharedMut::new(point_counts);
    let scratch = SharedMut::new(std::slice::from_mut(island_scratch));
    let exact_contacts = SharedMut::new(std::slice::from_mut(exact_contacts));

    let block = |stage: usize, b: u32| {
        let PlannedStage {
            stage, block_size, ..
        } = stages[stage];
        let range = |items: usize| block_range(b, block_size, items);
        let color_range = |c: usize| {
            let groups: &Range<usize> = &colors[c];
            let r = block_range(b, block_size, groups.len());
            groups.start + r.start..groups.start + r.end
        };
        // SAFETY (every `unsafe` below): stages run one after another (`run_stages`). Within
        // a stage, body and group blocks take disjoint ranges; colour blocks take disjoint
        // groups of one colour, whose constraints move disjoint bodies (`graph_coloring.rs`),
        // and the states view only touches those bodies; single-block stages are alone.
        // Preparing writes each overflow constraint at its own place or fills the block's
        // own groups and notes their constraints' point counts, and only reads the
        // contacts; storing writes each constraint's own contact (contacts are distinct);
        // storing lanes writes each constraint's own results (lanes are distinct).
        let overflow = || unsafe { constraints.all() };
        // The overflow solved softly (two-point manifolds as `two_points()` says: together
        // by default, as a block, deeper point first, or in listed order), before the exact
        // contact islands.
        let soft_overflow = || unsafe { constraints.range(0..exact_start) };
        // Their surface parts.
        let soft_surfaces = || unsafe { surfaces.range(0..exact_start) };
        // Each exact contact island once, with bias or relaxing (then its friction).
        let solve_exact = |s: &mut [BodyState], use_bias: bool| {
            let exact = unsafe { exact_contacts.get(0) };
            for i in 0..exact.islands.len() {
                let island = unsafe { constraints.range(exact.islands[i].clone()) };
                exact.solve(i, island, s, inv_h, use_bias, max_push);
            }
        };
        match stage {
            Stage::PrepareOverflow => {
                for j in range(overflow_order.len()) {
                    if let Some(&ahead) = overflow_order.get(j + PREFETCH_DISTANCE) {
                        link.prefetch_record(ahead as usize);
                    }
                    let out = unsafe { constraints.get(j) };
                    let surface = unsafe { surfaces.get(j) };
                    link.prepare(
                        unsafe { link.read(overflow_order[j]) },
                        contact,
                        out,
                        surface,
                    );
                }
            }
            Stage::PrepareGroups => {
                // Built straight into the lanes: the group is what the colour stages read,
                // so a scalar copy in between would only be written once and read once.
                let r = range(lanes.len());
                let g = unsafe { groups.range(r.clone()) };
                for (group, i) in g.iter_mut().zip(r) {
                    let filled = lanes[i].iter().take_while(|&&k| k != EMPTY_LANE).count();
                    if filled < N {
                        group.clear();
                    }
                    for (lane, &k) in lanes[i][..filled].iter().enumerate() {
                        // The lanes' constraints skip those of other colours: no run of
                        // records for the hardware to follow.
                        let ahead = N * i + lane + PREFETCH_DISTANCE;
                        if let Some(&next) = lanes.get(ahead / N).map(|l| &l[ahead % N]) {
                            link.prefetch_record(next as usize);
                        }
                        let record = unsafe { link.read(k) };
                        link.prepare_lane(record, contact, group, lane);
                        *unsafe { point_counts.get(k as usize) } =
                            record.manifold.point_count as u8;
                    }
                    // While the group is in cache.
                    let two_points = contact.two_points();
                    if matches!(two_points, TwoPoints::Block | TwoPoints::Together) {
                        G::mark_blocks(std::slice::from_mut(group), two_points);
                    }
                }
            }
            Stage::IntegrateVelocities => {
                let r = range(states.len());
                let s = unsafe { states.range(r.clone()) };
                integrate_velocities(s, &params[r], h, settings.max_linear_speed);
            }
            Stage::WarmStartScalar => {
                let s = unsafe { states.all() };
                warm_start_joints(unsafe { joints.all() }, s);
                warm_start(overflow(), unsafe { surfaces.all_shared() }, s);
            }
            Stage::WarmStartColor(c) => {
                let mut view = unsafe { StatesView::shared(&states) };
                G::warm_start(unsafe { groups.range(color_range(c)) }, &mut view);
            }
            Stage::SolveScalar => {
                let (s, j) = unsafe { (states.all(), joints.all()) };
                let scratch = unsafe { scratch.get(0) };
                let rate = settings.joint_bias_rate;
                solve_exact_islands(exact_islands, j, s, rate, &biased, scratch);
                solve_joints(j, s, &biased);
                solve_contacts(soft_overflow(), soft_surfaces(), s, inv_h, true, contact);
                solve_exact(s, true);
            }
            Stage::SolveColor(c) | Stage::RelaxColor(c) => {
                let use_bias = matches!(stage, Stage::SolveColor(_));
                let mut view = unsafe { StatesView::shared(&states) };
                let g = unsafe { groups.range(color_range(c)) };
                G::solve(g, &mut view, inv_h, use_bias, max_push, two_points);
            }
            Stage::IntegratePositions => {
                let r = range(states.len());
                let s = unsafe { states.range(r.clone()) };
                integrate_positions(s, &params[r], h);
            }
            Stage::RelaxScalar => {
                let (s, j) = unsafe { (states.all(), joints.all()) };
                let scratch = unsafe { scratch.get(0) };
                let rate = settings.joint_bias_rate;
                project_exact_islands(
                    exact_islands,
                    j,
                    s,
                    settings.projection_tolerance,
                    h,
                    scratch,
                );
                solve_exact_islands(exact_islands, j, s, rate, &relaxed, scratch);
                solve_joints(j, s, &relaxed);
                solve_contacts(soft_overflow(), soft_surfaces(), s, inv_h, false, contact);
                solve_exact(s, false);
            }
            Stage::RestitutionScalar => {
                let threshold = contact.restitution_threshold;
                apply_restitution(overflow(), unsafe { states.all() }, threshold);
            }
            Stage::RestitutionColor(c) => {
                let mut view = unsafe { StatesView::shared(&states) };
                let g = unsafe { groups.range(color_range(c)) };
                G::restitution(g, &mut view, contact.restitution_threshold);
            }
            Stage::StoreGroups => {
                let r = range(lanes.len());
                let g = unsafe { groups.all_shared() };
                for i in r {
                    for (lane, &k) in lanes[i].iter().enumerate() {
                        if k != EMPTY_LANE {
                            *unsafe { results.get(k as usize) } = g[i].lane_results(lane);
                        }
                    }
                }
            }
            Stage::StoreContacts => {
                let built = unsafe { constraints.all_shared() };
                let built_surfaces = unsafe { surfaces.all_shared() };
                let in_lanes = unsafe { results.all_shared() };
                let point_counts = unsafe { point_counts.all_shared() };
                for k in range(positions.len()) {
                    // The overflow's few contacts are read whole: their first line is a miss.
                    link.prefetch_impulses(k + PREFETCH_DISTANCE);
                    let position = positions[k] as usize;
                    if position < overflow_start {
                        let count = point_counts[k] as usize;
                        unsafe { link.store_lane(k as u32, count, &in_lanes[k]) };
                    } else {
                        let rolling = built_surfaces[position - overflow_start].rolling_impulse;
                        let solved = built[position - overflow_start].solved_points();
                        unsafe { link.store(k as u32, &solved, rolling) };
                    }
                }
            }
        }
    };
    run_stages(runner, &counts, Claim::OwnShareFirst, &block, Some(&clock));
    let mut profile = SolverProfile::default();
    let mut last_end = 0;
    for (i, &kind) in kinds.iter().enumerate() {
        if timed[i] {
            let end = clock.ended_ns(i);
            *profile.stage_mut(kind) += end.saturating_sub(last_end) as f32 * 1e-6;
            last_end = end;
        }
    }
    profile
}
