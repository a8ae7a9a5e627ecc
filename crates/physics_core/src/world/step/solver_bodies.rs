//! The solver's bodies: each step's dense arrays of the moving, awake bodies in slot order
//! (their solver indices), gathered from the body records or kept from the last finalize.
//!
//! Gathering reads the first two of each body record's four cache lines, for every
//! simulated body, on one worker: in large_pyramid it was 0.11 ms of the solver's 0.13 ms
//! set-up, in smash 0.33 of 0.60 (and serial, so it held two workers back). Box2D v3 keeps
//! its awake bodies' solver data in dense arrays from step to step and gathers nothing.
//!
//! Here finalize writes each solved body's record from the solver's results, in parallel,
//! with the record in its worker's cache; it writes that body's entries of the next step's
//! arrays at the same time, at the same index ([`next_step_inputs`], the one function
//! gathering uses too, so the values are the same bits). Those arrays are what a gather
//! would give while nothing else changes a body record and the set of simulated bodies
//! stays: so every change of a body record outside the step's own writes drops them
//! ([`World::drop_kept_solver_bodies`]: the body setters, creating and destroying bodies,
//! mass updates, sleeping and waking, settings, a restore), and so do the finalize's serial
//! changes where they happen (a sweep that moves a body, a non-finite body stopped). They also hold only for the
//! time step and gravity they were made with. The stages are public, so [`SolverBodies`]
//! also follows the order they run in: a change between a solve and its finalize keeps that
//! finalize from keeping, and a finalize with no solve before it writes nothing back. Debug
//! builds gather anyway and check.
#![allow(unsafe_code)]

use crate::body::{Body, BodyType};
use crate::parallel::shared::SharedMut;
use crate::solver::body_state::{BodyParams, BodyState, STATIC_BODY};
use crate::solver::contact_solver::ConstraintBody;
use crate::solver::{MAX_ROTATION_PER_STEP, SolverArrays};
use crate::world::World;
use bevy_math::Vec2;

/// How many body slots ahead the gather asks for a body record (`Slots::iter_prefetching`).
const BODY_PREFETCH_AHEAD: usize = 8;

/// The step the kept arrays were made for: they hold only for the same time step and gravity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::world) struct KeptSolverBodies {
    dt: f32,
    gravity: Vec2,
}

/// What the solver's body arrays hold between the stages.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(in crate::world) enum SolverBodies {
    /// Nothing to keep or to finalize: the next solve gathers.
    #[default]
    Stale,
    /// A solve's results, waiting for finalize; `clean` while no body record and no
    /// setting changed since that solve (only then may finalize keep what it writes).
    Solved { clean: bool },
    /// The next step's inputs, written by finalize for this time step and gravity, with no
    /// body record changed since.
    Kept(KeptSolverBodies),
}

impl SolverBodies {
    /// A body record, the set of simulated bodies or the settings changed outside the step:
    /// kept inputs are stale, and results waiting for finalize may no longer be kept.
    pub(in crate::world) fn note_change(&mut self) {
        *self = match *self {
            SolverBodies::Solved { .. } => SolverBodies::Solved { clean: false },
            _ => SolverBodies::Stale,
        };
    }
}

/// What the solver takes of a simulated body at solver index `index`, for a step of `dt`
/// under `gravity`: its constraint data, its starting state and its integration parameters.
#[inline(always)]
pub(in crate::world) fn next_step_inputs(
    body: &Body,
    index: u32,
    gravity: Vec2,
    dt: f32,
) -> (ConstraintBody, BodyState, BodyParams) {
    let constraint = ConstraintBody {
        solver_index: index,
        inv_mass: body.inv_mass,
        inv_inertia: body.inv_inertia,
        center_offset: crate::position::relative(body.center, body.transform.p),
        linear_velocity: body.linear_velocity,
        angular_velocity: body.angular_velocity,
        dominance: body.dominance,
    };
    let state = BodyState {
        linear_velocity: body.linear_velocity,
        angular_velocity: body.angular_velocity,
        ..BodyState::AT_REST
    };
    let dynamic = body.body_type == BodyType::Dynamic;
    let params = BodyParams {
        inv_mass: body.inv_mass,
        inv_inertia: body.inv_inertia,
        linear_acceleration: if dynamic {
            body.gravity_scale * gravity + body.inv_mass * body.force
        } else {
            Vec2::ZERO
        },
        angular_acceleration: body.inv_inertia * body.torque,
        linear_damping: body.linear_damping,
        angular_damping: body.angular_damping,
        max_angular_speed: if body.allow_fast_rotation {
            f32::INFINITY
        } else {
            MAX_ROTATION_PER_STEP / dt
        },
        linear_freedom: body.linear_freedom(),
    };
    (constraint, state, params)
}

/// The solver arrays while finalize's workers read each solved body's state and write its
/// next step's entries.
pub(in crate::world) struct NextSolverBodies<'a> {
    states: SharedMut<'a, BodyState>,
    params: SharedMut<'a, BodyParams>,
    constraints: SharedMut<'a, ConstraintBody>,
}

impl<'a> NextSolverBodies<'a> {
    /// Shares the arrays' states, parameters and constraint bodies.
    pub fn new(arrays: &'a mut SolverArrays) -> Self {
        NextSolverBodies {
            states: SharedMut::new(&mut arrays.states),
            params: SharedMut::new(&mut arrays.params),
            constraints: SharedMut::new(&mut arrays.contact_bodies),
        }
    }

    /// The solver's result for solver index `index`.
    ///
    /// # Safety
    /// No other worker touches index `index` meanwhile (it is the index of the one body this
    /// worker is finalizing).
    pub unsafe fn state(&self, index: u32) -> BodyState {
        unsafe { *self.states.get(index as usize) }
    }

    /// Writes solver index `index`'s entries for the next step. The parameters change only
    /// when the body's force or torque, now cleared, was not zero (`pushed`): the rest of
    /// what they depend on is the same or the kept arrays are dropped, so otherwise they are
    /// left as they are (a write would only dirty their cache lines).
    ///
    /// # Safety
    /// As for [`NextSolverBodies::state`].
    pub unsafe fn write(
        &self,
        index: u32,
        inputs: (ConstraintBody, BodyState, BodyParams),
        pushed: bool,
    ) {
        let i = index as usize;
        unsafe {
            *self.constraints.get(i) = inputs.0;
            *self.states.get(i) = inputs.1;
            if pushed {
                *self.params.get(i) = inputs.2;
            }
        }
    }
}

impl World {
    /// Some body record changed outside the step's own writes, or the set of simulated
    /// bodies did, or the settings: the next step gathers its solver bodies again
    /// ([`SolverBodies::note_change`]).
    pub(in crate::world) fn drop_kept_solver_bodies(&mut self) {
        self.solver_bodies.note_change();
    }

    /// Whether finalize, having written every solved body's next inputs, may keep them: no
    /// body record or setting changed since the solve, and the solve's bodies are still the
    /// simulated ones. Sets what the arrays hold from now on.
    pub(in crate::world) fn keep_solver_bodies(&mut self, solved: usize) -> bool {
        let clean = self.solver_bodies == SolverBodies::Solved { clean: true };
        let keep = clean && solved == self.simulated_bodies;
        self.solver_bodies = if keep {
            SolverBodies::Kept(KeptSolverBodies {
                dt: self.last_dt,
                gravity: self.def.gravity,
            })
        } else {
            SolverBodies::Stale
        };
        keep
    }

    /// Fills `arrays`' solver bodies (the simulated bodies in slot order: their slots and
    /// generations, constraint data, states and parameters) and `solver_index` (each body
    /// slot's solver index, or `STATIC_BODY`) for a step of `dt`: kept from the last
    /// finalize when they still hold, gathered otherwise.
    pub(in crate::world) fn solver_bodies(
        &mut self,
        arrays: &mut SolverArrays,
        solver_index: &mut Vec<u32>,
        dt: f32,
    ) {
        let wanted = KeptSolverBodies {
            dt,
            gravity: self.def.gravity,
        };
        let kept = self.solver_bodies == SolverBodies::Kept(wanted)
            && solver_index.len() == self.bodies.capacity();
        self.counters.solver_bodies_kept = kept;
        self.solver_bodies = SolverBodies::Solved { clean: true };
        if kept {
            #[cfg(debug_assertions)]
            self.check_kept_solver_bodies(arrays, solver_index, dt);
            return;
        }
        self.gather_solver_bodies(arrays, solver_index, dt);
    }

    /// Gathers the solver bodies from the body records (see [`World::solver_bodies`]).
    fn gather_solver_bodies(
        &self,
        arrays: &mut SolverArrays,
        solver_index: &mut Vec<u32>,
        dt: f32,
    ) {
        arrays.states.clear();
        arrays.params.clear();
        arrays.bodies.clear();
        arrays.contact_bodies.clear();
        solver_index.clear();
        solver_index.resize(self.bodies.capacity(), STATIC_BODY);
        let gravity = self.def.gravity;
        // Every body record is read for a few fields near its head: asked for ahead, so the
        // misses of a large crowd overlap.
        let head = std::mem::offset_of!(Body, only_shape);
        for (slot, body) in self.bodies.iter_prefetching(BODY_PREFETCH_AHEAD, head) {
            if !body.is_simulated() {
                continue;
            }
            let index = arrays.states.len() as u32;
            solver_index[slot as usize] = index;
            arrays.bodies.push((slot, self.bodies.generation(slot)));
            let (constraint, state, params) = next_step_inputs(body, index, gravity, dt);
            arrays.contact_bodies.push(constraint);
            arrays.states.push(state);
            arrays.params.push(params);
        }
    }

    /// Debug builds: the kept solver bodies are what a gather gives, bit for bit.
    #[cfg(debug_assertions)]
    fn check_kept_solver_bodies(&self, arrays: &SolverArrays, solver_index: &[u32], dt: f32) {
        let mut fresh = SolverArrays::default();
        let mut fresh_index = Vec::new();
        self.gather_solver_bodies(&mut fresh, &mut fresh_index, dt);
        // Debug text: equal exactly when the bits are (short round-trip digits, signed zeros).
        let text = |a: &SolverArrays| {
            format!(
                "{:?}{:?}{:?}{:?}",
                a.bodies, a.contact_bodies, a.states, a.params
            )
        };
        assert!(
            fresh_index == solver_index && text(&fresh) == text(arrays),
            "kept solver bodies differ from a gather: some change of a body record did not \
             drop them"
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::shape_def::ShapeDef;
    use crate::world::{World, WorldDef};

    /// A world of a few falling boxes and a resting one, stepped once so the next step keeps
    /// its solver bodies.
    fn stepped_world() -> (World, Vec<BodyId>) {
        let mut world = World::new(WorldDef::default()).unwrap();
        let ground = world.create_body(&BodyDef::default()).unwrap();
        let floor = Shape::Polygon(Polygon::new_box(20.0, 1.0).unwrap());
        world
            .create_shape(ground, &ShapeDef::default(), floor)
            .unwrap();
        let mut ids = Vec::new();
        for i in 0..4 {
            let def = BodyDef {
                body_type: BodyType::Dynamic,
                position: crate::position::to_position(Vec2::new(i as f32 * 3.0, 2.0 + i as f32)),
                ..Default::default()
            };
            let id = world.create_body(&def).unwrap();
            let shape = Shape::Polygon(Polygon::new_box(0.5, 0.5).unwrap());
            world.create_shape(id, &ShapeDef::default(), shape).unwrap();
            ids.push(id);
        }
        world.step(1.0 / 60.0).unwrap();
        (world, ids)
    }

    /// A step after a plain step keeps the solver bodies finalize wrote; every kind of change
    /// to a body between steps makes the next step gather them again, and that step moves the
    /// body as told (a kept array would have lost the change). Debug builds also check each
    /// kept array against a gather (`check_kept_solver_bodies`).
    #[test]
    fn changes_between_steps_are_never_lost_to_kept_solver_bodies() {
        let dt = 1.0 / 60.0;
        let (mut world, ids) = stepped_world();
        world.step(dt).unwrap();
        assert!(
            world.counters().solver_bodies_kept,
            "a plain step keeps them"
        );

        // A velocity set between steps is used.
        world
            .set_linear_velocity(ids[0], Vec2::new(5.0, 0.0))
            .unwrap();
        let p0 = world.body_position(ids[0]).unwrap();
        world.step(dt).unwrap();
        assert!(!world.counters().solver_bodies_kept);
        let moved = crate::position::relative(world.body_position(ids[0]).unwrap(), p0).x;
        assert!((moved - 5.0 * dt).abs() < 1e-3, "moved {moved}");
        world.step(dt).unwrap();
        assert!(world.counters().solver_bodies_kept);

        // A force, a gravity change, another time step: each is used.
        world.apply_force(ids[1], Vec2::new(0.0, 1000.0)).unwrap();
        let v0 = world.linear_velocity(ids[1]).unwrap().y;
        world.step(dt).unwrap();
        assert!(!world.counters().solver_bodies_kept);
        assert!(
            world.linear_velocity(ids[1]).unwrap().y > v0,
            "the force lifts it"
        );
        // The step after keeps them again, without the force (checked against a gather).
        world.step(dt).unwrap();
        assert!(world.counters().solver_bodies_kept);
        let mut def = *world.def();
        def.gravity = Vec2::new(0.0, 10.0);
        world.set_def(def).unwrap();
        let v0 = world.linear_velocity(ids[2]).unwrap().y;
        world.step(dt).unwrap();
        assert!(!world.counters().solver_bodies_kept);
        assert!(
            world.linear_velocity(ids[2]).unwrap().y > v0,
            "gravity now lifts it"
        );
        world.step(dt).unwrap();
        assert!(world.counters().solver_bodies_kept);
        world.step(0.5 * dt).unwrap();
        assert!(
            !world.counters().solver_bodies_kept,
            "another time step gathers"
        );

        // A new body and a destroyed one change the solver's bodies.
        world.step(0.5 * dt).unwrap();
        assert!(world.counters().solver_bodies_kept);
        world.destroy_body(ids[3]).unwrap();
        world.step(0.5 * dt).unwrap();
        assert!(!world.counters().solver_bodies_kept);
        assert_eq!(world.awake_body_count(), 3);
    }

    /// Every body put to sleep after a step, then a zero time step, then a step: the zero
    /// step keeps nothing (its arrays are empty), so the next step gathers (kept empty arrays
    /// beside the solver indices the bodies had while awake would hand the sleeping bodies'
    /// contacts indices past the arrays).
    #[test]
    fn a_zero_time_step_keeps_no_solver_bodies() {
        let dt = 1.0 / 60.0;
        let (mut world, ids) = stepped_world();
        world.step(dt).unwrap();
        assert!(world.counters().solver_bodies_kept);
        for &id in &ids {
            world.set_awake(id, false).unwrap();
        }
        world.step(0.0).unwrap();
        world.step(dt).unwrap();
        assert!(!world.counters().solver_bodies_kept);
        assert_eq!(world.counters().bodies_solved, 0);
        for &id in &ids {
            world.set_awake(id, true).unwrap();
        }
        world.step(dt).unwrap();
        assert_eq!(world.counters().bodies_solved, ids.len());
        world.step(dt).unwrap();
        assert!(world.counters().solver_bodies_kept);
    }

    /// A change between the solve and finalize (the stages are public; a plugin system could
    /// sit there) is not lost: finalize does not keep what it wrote, and the next step uses
    /// the change.
    #[test]
    fn a_change_between_solve_and_finalize_is_not_lost() {
        let dt = 1.0 / 60.0;
        let (mut world, ids) = stepped_world();
        world.step(dt).unwrap();
        world.update_pairs();
        world.collide();
        world.solve(dt).unwrap();
        world.set_gravity_scale(ids[0], 0.0).unwrap();
        world.finalize();
        let v0 = world.linear_velocity(ids[0]).unwrap();
        world.step(dt).unwrap();
        assert!(!world.counters().solver_bodies_kept);
        assert_eq!(
            world.linear_velocity(ids[0]).unwrap(),
            v0,
            "no gravity any more"
        );
    }

    /// A finalize after a change and no solve writes nothing back either: a velocity set
    /// after the last step stays.
    #[test]
    fn a_finalize_after_a_change_writes_nothing_back() {
        let (mut world, ids) = stepped_world();
        world.step(1.0 / 60.0).unwrap();
        world
            .set_linear_velocity(ids[0], Vec2::new(3.0, 0.0))
            .unwrap();
        world.finalize();
        assert_eq!(world.linear_velocity(ids[0]).unwrap(), Vec2::new(3.0, 0.0));
    }

    /// A finalize with no solve since the last one writes nothing back: the kept arrays are
    /// the next step's inputs, not a result to apply again.
    #[test]
    fn a_second_finalize_leaves_the_bodies_as_they_are() {
        let (mut world, ids) = stepped_world();
        let before: Vec<_> = ids
            .iter()
            .map(|&id| world.body_transform(id).unwrap())
            .collect();
        let velocities: Vec<_> = ids
            .iter()
            .map(|&id| world.linear_velocity(id).unwrap())
            .collect();
        world.finalize();
        for (k, &id) in ids.iter().enumerate() {
            assert_eq!(world.body_transform(id).unwrap(), before[k]);
            assert_eq!(world.linear_velocity(id).unwrap(), velocities[k]);
        }
        // And the next step still keeps and checks them.
        world.step(1.0 / 60.0).unwrap();
        assert!(world.counters().solver_bodies_kept);
    }
}
