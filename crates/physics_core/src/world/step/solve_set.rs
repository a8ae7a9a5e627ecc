//! Which contacts the solver solves, and in what colours: found once and kept while nothing
//! that decides it changes.
//!
//! Each step the solver needs the touching, solid, enabled contacts with a moving body, in
//! contact slot order, coloured greedily in that order (`solver/graph_coloring.rs`). Finding
//! them reads every contact record and colouring them is serial; in a settled pile both give
//! the same answer step after step. The answer depends only on:
//!
//! - the solver's bodies, as (slot, generation) in solver order (they give the solver
//!   indices, and which contacts have a moving body);
//! - each contact's touching, sensor and enabled flags, and the set of live contacts;
//! - the contacts' restitution (whether the restitution stages run at all).
//!
//! Joints get the same treatment: their colour order and exact islands depend only on the
//! solver's bodies and on each joint's bodies, kind and enabled flag.
//!
//! The bodies are compared each step (a dense array, cheap next to the contacts). The world
//! notes every change of the others where it happens: a contact whose touching changed or
//! that the narrowphase's serial pass visited for any reason, a contact destroyed, a
//! material changed, a restore. A step with no such change reuses the last answer, which is
//! the answer recomputing would give: same order, same colours, so the same bits. Debug
//! builds recompute it anyway and check that.
//!
//! Most changes name their contacts (the narrowphase's serial pass, a destroyed contact).
//! When only such changes happened, the set is mended instead of found again: last step's
//! solved contacts, kept with what the scan read of them ([`SolveKey`]), are merged in slot
//! order with the named contacts read afresh, and the merged list is coloured. A scan reads
//! every contact record, touching or not, which in a crowd of a few tens of thousands of
//! contacts is most of the set-up's time; the merge reads only the named records. It gives
//! the list the scan would (a contact not named is as it was), so the same colours and
//! bits; debug builds check that too. A change that names no contacts (a material, a
//! restore, other solver bodies) and the exact contact islands scan as before.

use crate::contact::Contact;
use crate::solver::SolverArrays;
use crate::solver::block_solver::anchors_hold_a_centre;
use crate::solver::body_state::STATIC_BODY;
use crate::world::World;

/// How many contact slots ahead the solve set's scan asks for a record: the scan spends a
/// few cycles on a contact that is apart, so it must ask further ahead than the solver's
/// stages do to cover a miss to memory.
const SCAN_PREFETCH_AHEAD: usize = 16;

/// A solved contact as the scan read it: all the colouring and the restitution stages need
/// of its record.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SolveKey {
    /// The contact's slot.
    slot: u32,
    /// Solver indices of its bodies (`STATIC_BODY` for one outside the solver).
    a: u32,
    b: u32,
    /// The scalar solver takes it (`Contact::needs_scalar_solver`).
    scalar: bool,
    /// Its restitution is not zero.
    restitution: bool,
}

/// How many named contacts ahead the solve set's merge asks for a record: each is a miss
/// with only a few kept keys copied between two of them.
const NAMED_PREFETCH_AHEAD: usize = 8;

/// Changes to the contacts since the solve set was built, by slot, beyond which it is
/// found again from scratch (a mended set then reads about as many records as a scan).
const MAX_NAMED_CHANGES: usize = 1 << 16;

/// What the last step's solve set was built for, and whether it still holds.
#[derive(Default)]
pub(in crate::world) struct SolveSetCache {
    /// Solver bodies (slot, generation), in solver order, when the set was built.
    bodies: Vec<(u32, u32)>,
    /// A contact's touching, sensor or enabled flag, or the set of contacts, or a
    /// contact's restitution changed since the set was built, in a way that names no
    /// contacts (or there is no set yet): the next solve scans every contact.
    contacts_changed: bool,
    /// The contacts whose flags, restitution or existence changed since the set was built,
    /// in the order noted (with repeats); only read while `contacts_changed` is false.
    changed_slots: Vec<u32>,
    /// The solved contacts in slot order, as the last scan or merge read them; empty when
    /// the last set was built with exact contact islands (a set is only mended with the
    /// settings it was built with, so never from these).
    keys: Vec<SolveKey>,
    /// Last step's keys while the merge reads them (kept for its allocation).
    spare_keys: Vec<SolveKey>,
    /// A joint was created, destroyed, enabled, disabled, broken or given a new kind since
    /// the joint order was built (or there is none yet).
    joints_changed: bool,
    /// The exact contact island limit the set was built with.
    exact_island_bodies: u32,
    /// Constraint counts of the exact contact islands, in island order.
    exact_sizes: Vec<usize>,
    /// With the block solver, whether each solved contact is likely a block (the layout's
    /// guess; kept for its allocation).
    likely_blocks: Vec<bool>,
    /// Some solved contact has restitution.
    any_restitution: bool,
}

impl SolveSetCache {
    /// A cache that holds nothing: the next solve builds the set.
    pub(in crate::world) fn empty() -> Self {
        SolveSetCache {
            contacts_changed: true,
            joints_changed: true,
            ..Default::default()
        }
    }

    /// Something the contact set depends on changed: the next solve builds it again.
    pub(in crate::world) fn note_contact_change(&mut self) {
        self.contacts_changed = true;
        self.changed_slots.clear();
    }

    /// The flags, restitution or existence of the contact in `slot` changed (it was
    /// created, destroyed, started or stopped touching, was switched on or off, ...): the
    /// next solve reads it again.
    pub(in crate::world) fn note_contact_slot(&mut self, slot: u32) {
        if self.contacts_changed {
            return;
        }
        if self.changed_slots.len() >= MAX_NAMED_CHANGES {
            self.note_contact_change();
        } else {
            self.changed_slots.push(slot);
        }
    }

    /// Something the joint order depends on changed: the next solve builds it again.
    pub(in crate::world) fn note_joint_change(&mut self) {
        self.joints_changed = true;
    }

    /// Compares this step's solver bodies with those the sets were built for: other bodies
    /// (or the same in another order) make both stale.
    pub(in crate::world) fn note_bodies(&mut self, bodies: &[(u32, u32)]) {
        if self.bodies != bodies {
            self.bodies.clear();
            self.bodies.extend_from_slice(bodies);
            self.note_contact_change();
            self.joints_changed = true;
        }
    }

    /// The solved contacts as (slot, solver index of body A, of body B), in constraint order;
    /// empty when the set was built with exact contact islands.
    pub(in crate::world) fn solved_pairs(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        self.keys.iter().map(|k| (k.slot, k.a, k.b))
    }

    /// Whether last step's joint order (colours, places, exact islands) still holds; from
    /// here on it is taken as rebuilt, so call it once per solve, after
    /// [`SolveSetCache::note_bodies`].
    pub(in crate::world) fn take_joint_order_holds(&mut self) -> bool {
        let holds = !self.joints_changed;
        self.joints_changed = false;
        holds
    }
}

impl World {
    /// Fills `prepared` with the slots of the contacts to solve, in slot order, and colours
    /// them in `arrays` (laid out in SIMD groups), reusing last step's when nothing it depends
    /// on changed and mending it when only named contacts changed. Returns whether any of
    /// them has restitution.
    pub(in crate::world) fn find_solve_set(
        &mut self,
        solver_index: &[u32],
        prepared: &mut Vec<u32>,
        arrays: &mut SolverArrays,
    ) -> bool {
        let exact_bodies = self.def.exact_contact_island_bodies;
        let cache = &mut self.solve_set;
        let same_settings = cache.exact_island_bodies == exact_bodies;
        let known = same_settings && !cache.contacts_changed;
        let reuse = known && cache.changed_slots.is_empty();
        self.counters.solve_set_reused = reuse;
        self.counters.solve_set_mended = false;
        if reuse {
            #[cfg(debug_assertions)]
            self.check_reused_solve_set(solver_index, prepared, arrays);
            return self.solve_set.any_restitution;
        }
        let mend = known && exact_bodies == 0;
        self.counters.solve_set_mended = mend;
        prepared.clear();
        arrays.begin_contacts();
        let mut sizes = std::mem::take(&mut self.solve_set.exact_sizes);
        let mut keys = std::mem::take(&mut self.solve_set.keys);
        let any_restitution = if exact_bodies == 0 {
            sizes.clear();
            if mend {
                self.mend_solve_keys(solver_index, &mut keys);
            } else {
                keys.clear();
                self.scan_solve_set(solver_index, |key| keys.push(key));
            }
            let mut any_restitution = false;
            for (k, key) in keys.iter().enumerate() {
                arrays.add_contact(k as u32, key.a, key.b, key.scalar);
                prepared.push(key.slot);
                any_restitution |= key.restitution;
            }
            any_restitution
        } else {
            keys.clear();
            let params = &arrays.params;
            let (restitution, island) =
                self.exact_islands_of_solve_set(solver_index, &mut keys, params, exact_bodies);
            for (k, key) in keys.iter().enumerate() {
                let scalar = island[k].is_some() || key.scalar;
                arrays.add_contact(k as u32, key.a, key.b, scalar);
                prepared.push(key.slot);
            }
            arrays.coloring.gather_exact_islands(&island, &mut sizes);
            keys.clear();
            restitution
        };
        // The workers' shares of the solver bodies are equal runs of solver indices (the
        // body stages' blocks); a constraint goes with its first moving body. The exact
        // islands' keys are gone by now: one share.
        let bodies = arrays.states.len().max(1);
        let shares = if keys.len() == prepared.len() {
            self.runner.worker_count()
        } else {
            1
        };
        let share_of = |k: u32| {
            let key = &keys[k as usize];
            let body = key.a.min(key.b) as usize;
            (body * shares / bodies).min(shares - 1)
        };
        // With the block solver, the manifolds it will likely take as blocks fill groups of
        // their own. From the manifold's anchors on the body origins (the centre offsets
        // are the prepare's business): a guess that only groups, the prepare decides. It
        // reads every solved contact's record, a cost only the block solver pays, and only
        // when the solve set is built or mended (not when it is reused). Points solved
        // together (the default) take the block in the biased pass too, but laying their
        // two-point manifolds out first was measured no faster (BENCHMARKS.md).
        let mut likely_blocks = std::mem::take(&mut self.solve_set.likely_blocks);
        likely_blocks.clear();
        if self.def.enable_block_solver && keys.len() == prepared.len() {
            let turns = |i: u32| i != STATIC_BODY && arrays.params[i as usize].inv_inertia > 0.0;
            likely_blocks.extend(keys.iter().map(|key| {
                let m = &self.contacts.at(key.slot).manifold;
                let [p1, p2] = &m.points;
                m.point_count == 2
                    && anchors_hold_a_centre(
                        [p1.anchor_a, p2.anchor_a],
                        [p1.anchor_b, p2.anchor_b],
                        m.normal,
                        [turns(key.a), turns(key.b)],
                    )
            }));
        }
        let block_first = |k: u32| likely_blocks[k as usize];
        let block_first: Option<&dyn Fn(u32) -> bool> =
            (!likely_blocks.is_empty()).then_some(&block_first);
        arrays.lay_out_contacts(prepared.len(), &sizes, shares, &share_of, block_first);
        self.solve_set.likely_blocks = likely_blocks;
        let cache = &mut self.solve_set;
        cache.contacts_changed = false;
        cache.changed_slots.clear();
        cache.keys = keys;
        cache.exact_island_bodies = exact_bodies;
        cache.any_restitution = any_restitution;
        cache.exact_sizes = sizes;
        #[cfg(debug_assertions)]
        if mend {
            self.check_reused_solve_set(solver_index, prepared, arrays);
        }
        any_restitution
    }

    /// Last step's keys with the named contacts read again, in slot order: a named contact
    /// that is solved now takes its place (or keeps it, read afresh), one that is not (or
    /// whose slot is empty now) leaves. The other keys stand as they were: nothing they were
    /// read from changed, or it would have been named.
    fn mend_solve_keys(&mut self, solver_index: &[u32], keys: &mut Vec<SolveKey>) {
        let mut named = std::mem::take(&mut self.solve_set.changed_slots);
        named.sort_unstable();
        named.dedup();
        let mut old = std::mem::take(&mut self.solve_set.spare_keys);
        std::mem::swap(&mut old, keys);
        keys.clear();
        let read_again = |slot: u32, keys: &mut Vec<SolveKey>| {
            if self.contacts.is_live(slot) {
                let contact = self.contacts.at(slot);
                keys.extend(solve_key(slot, contact, solver_index));
            }
        };
        // The named records are scattered: each is asked for a few named slots before it is
        // read, so their misses overlap (smash names several hundred contacts a step, whose
        // reads one after another were most of the merge's time).
        let head = std::mem::offset_of!(Contact, shape_a);
        let read_next = |next: &mut usize, keys: &mut Vec<SolveKey>| {
            if let Some(&ahead) = named.get(*next + NAMED_PREFETCH_AHEAD) {
                self.contacts.prefetch(ahead, head);
            }
            read_again(named[*next], keys);
            *next += 1;
        };
        let mut next = 0;
        for key in &old {
            while named.get(next).is_some_and(|&slot| slot < key.slot) {
                read_next(&mut next, keys);
            }
            if named.get(next) == Some(&key.slot) {
                read_next(&mut next, keys);
            } else {
                keys.push(*key);
            }
        }
        while next < named.len() {
            read_next(&mut next, keys);
        }
        old.clear();
        self.solve_set.spare_keys = old;
        named.clear();
        self.solve_set.changed_slots = named;
    }

    /// Scans the solve set into `keys` and finds its exact contact islands of at most
    /// `max_bodies` bodies: (any restitution, each constraint's island or `None`).
    fn exact_islands_of_solve_set(
        &self,
        solver_index: &[u32],
        keys: &mut Vec<SolveKey>,
        params: &[crate::solver::body_state::BodyParams],
        max_bodies: u32,
    ) -> (bool, Vec<Option<u32>>) {
        self.scan_solve_set(solver_index, |key| keys.push(key));
        let restitution = keys.iter().any(|key| key.restitution);
        let pairs: Vec<(u32, u32)> = keys.iter().map(|key| (key.a, key.b)).collect();
        let movable = |b: u32| {
            let p = &params[b as usize];
            p.inv_mass > 0.0 || p.inv_inertia > 0.0
        };
        let island = crate::solver::exact_contacts::find_exact_contact_islands(
            &pairs,
            params.len(),
            movable,
            max_bodies as usize,
        );
        (restitution, island)
    }

    /// Hands every contact to solve, in slot order, to `found`.
    fn scan_solve_set(&self, solver_index: &[u32], mut found: impl FnMut(SolveKey)) {
        // A pass over every contact record reading a few flags at its head: the records'
        // lines are asked for a stretch ahead, so their misses overlap.
        let head = std::mem::offset_of!(Contact, shape_a);
        for (slot, c) in self.contacts.iter_prefetching(SCAN_PREFETCH_AHEAD, head) {
            if let Some(key) = solve_key(slot, c, solver_index) {
                found(key);
            }
        }
    }

    /// Debug builds: the reused or mended set is the one a fresh scan and colouring give.
    #[cfg(debug_assertions)]
    fn check_reused_solve_set(
        &self,
        solver_index: &[u32],
        prepared: &[u32],
        arrays: &SolverArrays,
    ) {
        let mut keys = Vec::new();
        let mut coloring = crate::solver::graph_coloring::GraphColoring::default();
        coloring.reset(arrays.states.len());
        let exact_bodies = self.def.exact_contact_island_bodies;
        let any_restitution = if exact_bodies == 0 {
            self.scan_solve_set(solver_index, |key| keys.push(key));
            for (k, key) in keys.iter().enumerate() {
                coloring.add_or_overflow(k as u32, key.a, key.b, key.scalar);
            }
            assert_eq!(keys, self.solve_set.keys, "kept solve keys differ");
            keys.iter().any(|key| key.restitution)
        } else {
            let (restitution, island) = self.exact_islands_of_solve_set(
                solver_index,
                &mut keys,
                &arrays.params,
                exact_bodies,
            );
            for (k, key) in keys.iter().enumerate() {
                let scalar = island[k].is_some() || key.scalar;
                coloring.add_or_overflow(k as u32, key.a, key.b, scalar);
            }
            let mut sizes = Vec::new();
            coloring.gather_exact_islands(&island, &mut sizes);
            assert_eq!(
                sizes, self.solve_set.exact_sizes,
                "reused exact islands differ"
            );
            restitution
        };
        let fresh: Vec<u32> = keys.iter().map(|key| key.slot).collect();
        assert_eq!(fresh, prepared, "reused solve set: contacts differ");
        assert_eq!(any_restitution, self.solve_set.any_restitution);
        assert_eq!(
            coloring.colors, arrays.coloring.colors,
            "reused colours differ"
        );
        assert_eq!(coloring.overflow, arrays.coloring.overflow);
    }
}

/// The key of the contact in `slot` if the solver solves it: touching, solid, switched on,
/// and with a body in the solver.
#[inline(always)]
fn solve_key(slot: u32, c: &Contact, solver_index: &[u32]) -> Option<SolveKey> {
    let (a, b) = (
        solver_index[c.body_a as usize],
        solver_index[c.body_b as usize],
    );
    let moves = a != STATIC_BODY || b != STATIC_BODY;
    (c.touching && !c.sensor && !c.passive && c.enabled && moves).then(|| SolveKey {
        slot,
        a,
        b,
        scalar: c.needs_scalar_solver(),
        restitution: c.restitution != 0.0,
    })
}
