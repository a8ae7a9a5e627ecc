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
//! - whether the block solver is on (it sends every constraint to the scalar overflow);
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

use super::World;
use crate::solver::SolverArrays;
use crate::solver::body_state::STATIC_BODY;

/// What the last step's solve set was built for, and whether it still holds.
#[derive(Default)]
pub(super) struct SolveSetCache {
    /// Solver bodies (slot, generation), in solver order, when the set was built.
    bodies: Vec<(u32, u32)>,
    /// A contact's touching, sensor or enabled flag, or the set of contacts, or a
    /// contact's restitution changed since the set was built (or there is no set yet).
    contacts_changed: bool,
    /// A joint was created, destroyed, enabled, disabled, broken or given a new kind since
    /// the joint order was built (or there is none yet).
    joints_changed: bool,
    /// The block solver setting the set was built with.
    use_block_solver: bool,
    /// The exact contact island limit the set was built with.
    exact_island_bodies: u32,
    /// Constraint counts of the exact contact islands, in island order.
    exact_sizes: Vec<usize>,
    /// Some solved contact has restitution.
    any_restitution: bool,
}

impl SolveSetCache {
    /// A cache that holds nothing: the next solve builds the set.
    pub(super) fn empty() -> Self {
        SolveSetCache {
            contacts_changed: true,
            joints_changed: true,
            ..Default::default()
        }
    }

    /// Something the contact set depends on changed: the next solve builds it again.
    pub(super) fn note_contact_change(&mut self) {
        self.contacts_changed = true;
    }

    /// Something the joint order depends on changed: the next solve builds it again.
    pub(super) fn note_joint_change(&mut self) {
        self.joints_changed = true;
    }

    /// Compares this step's solver bodies with those the sets were built for: other bodies
    /// (or the same in another order) make both stale.
    pub(super) fn note_bodies(&mut self, bodies: &[(u32, u32)]) {
        if self.bodies != bodies {
            self.bodies.clear();
            self.bodies.extend_from_slice(bodies);
            self.contacts_changed = true;
            self.joints_changed = true;
        }
    }

    /// Whether last step's joint order (colours, places, exact islands) still holds; from
    /// here on it is taken as rebuilt, so call it once per solve, after
    /// [`SolveSetCache::note_bodies`].
    pub(super) fn take_joint_order_holds(&mut self) -> bool {
        let holds = !self.joints_changed;
        self.joints_changed = false;
        holds
    }
}

impl World {
    /// Fills `prepared` with the slots of the contacts to solve, in slot order, and colours
    /// them in `arrays` (laid out in SIMD groups), reusing last step's when nothing it depends
    /// on changed. Returns whether any of them has restitution.
    pub(super) fn find_solve_set(
        &mut self,
        solver_index: &[u32],
        use_block_solver: bool,
        prepared: &mut Vec<u32>,
        arrays: &mut SolverArrays,
    ) -> bool {
        let exact_bodies = self.def.exact_contact_island_bodies;
        let cache = &mut self.solve_set;
        let reuse = !cache.contacts_changed
            && cache.use_block_solver == use_block_solver
            && cache.exact_island_bodies == exact_bodies;
        self.counters.solve_set_reused = reuse;
        if reuse {
            #[cfg(debug_assertions)]
            self.check_reused_solve_set(solver_index, use_block_solver, prepared, arrays);
            return self.solve_set.any_restitution;
        }
        prepared.clear();
        arrays.begin_contacts();
        let mut sizes = std::mem::take(&mut self.solve_set.exact_sizes);
        let any_restitution = if exact_bodies == 0 {
            sizes.clear();
            self.scan_solve_set(solver_index, prepared, |k, a, b, scalar| {
                arrays.add_contact(k, a, b, use_block_solver || scalar)
            })
        } else {
            let params = &arrays.params;
            let (restitution, island) =
                self.exact_islands_of_solve_set(solver_index, prepared, params, exact_bodies);
            for (k, &slot) in prepared.iter().enumerate() {
                let c = self.contacts.at(slot);
                let (a, b) = (
                    solver_index[c.body_a as usize],
                    solver_index[c.body_b as usize],
                );
                let scalar = use_block_solver || island[k].is_some() || c.needs_scalar_solver();
                arrays.add_contact(k as u32, a, b, scalar);
            }
            arrays.coloring.gather_exact_islands(&island, &mut sizes);
            restitution
        };
        arrays.lay_out_contacts(prepared.len(), &sizes);
        let cache = &mut self.solve_set;
        cache.contacts_changed = false;
        cache.use_block_solver = use_block_solver;
        cache.exact_island_bodies = exact_bodies;
        cache.any_restitution = any_restitution;
        cache.exact_sizes = sizes;
        any_restitution
    }

    /// Scans the solve set into `prepared` and finds its exact contact islands of at most
    /// `max_bodies` bodies: (any restitution, each constraint's island or `None`).
    fn exact_islands_of_solve_set(
        &self,
        solver_index: &[u32],
        prepared: &mut Vec<u32>,
        params: &[crate::solver::body_state::BodyParams],
        max_bodies: u32,
    ) -> (bool, Vec<Option<u32>>) {
        let mut pairs = Vec::new();
        let restitution =
            self.scan_solve_set(solver_index, prepared, |_, a, b, _| pairs.push((a, b)));
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

    /// The contacts to solve in slot order, each handed to `color(constraint index, solver
    /// body a, solver body b, needs the scalar solver)` as it is found; returns whether any
    /// has restitution.
    fn scan_solve_set(
        &self,
        solver_index: &[u32],
        prepared: &mut Vec<u32>,
        mut color: impl FnMut(u32, u32, u32, bool),
    ) -> bool {
        let mut any_restitution = false;
        for (slot, c) in self.contacts.iter() {
            let (a, b) = (
                solver_index[c.body_a as usize],
                solver_index[c.body_b as usize],
            );
            let moves = a != STATIC_BODY || b != STATIC_BODY;
            if c.touching && !c.sensor && !c.passive && c.enabled && moves {
                color(prepared.len() as u32, a, b, c.needs_scalar_solver());
                prepared.push(slot);
                any_restitution |= c.restitution != 0.0;
            }
        }
        any_restitution
    }

    /// Debug builds: the reused set is the one a fresh scan and colouring give.
    #[cfg(debug_assertions)]
    fn check_reused_solve_set(
        &self,
        solver_index: &[u32],
        use_block_solver: bool,
        prepared: &[u32],
        arrays: &SolverArrays,
    ) {
        let mut fresh = Vec::new();
        let mut coloring = crate::solver::graph_coloring::GraphColoring::default();
        coloring.reset(arrays.states.len());
        let exact_bodies = self.def.exact_contact_island_bodies;
        let any_restitution = if exact_bodies == 0 {
            self.scan_solve_set(solver_index, &mut fresh, |k, a, b, scalar| {
                coloring.add_or_overflow(k, a, b, use_block_solver || scalar)
            })
        } else {
            let (restitution, island) = self.exact_islands_of_solve_set(
                solver_index,
                &mut fresh,
                &arrays.params,
                exact_bodies,
            );
            for (k, &slot) in fresh.iter().enumerate() {
                let c = self.contacts.at(slot);
                let (a, b) = (
                    solver_index[c.body_a as usize],
                    solver_index[c.body_b as usize],
                );
                let scalar = use_block_solver || island[k].is_some() || c.needs_scalar_solver();
                coloring.add_or_overflow(k as u32, a, b, scalar);
            }
            let mut sizes = Vec::new();
            coloring.gather_exact_islands(&island, &mut sizes);
            assert_eq!(
                sizes, self.solve_set.exact_sizes,
                "reused exact islands differ"
            );
            restitution
        };
        assert_eq!(fresh, prepared, "reused solve set: contacts differ");
        assert_eq!(any_restitution, self.solve_set.any_restitution);
        assert_eq!(
            coloring.colors, arrays.coloring.colors,
            "reused colours differ"
        );
        assert_eq!(coloring.overflow, arrays.coloring.overflow);
    }
}
