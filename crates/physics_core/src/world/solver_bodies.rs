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
//! changes (a sweep moves a body, a non-finite body is stopped). They also hold only for the
//! time step and gravity they were made with. Debug builds gather anyway and check.
#![allow(unsafe_code)]

use super::World;
use crate::body::{Body, BodyType};
use crate::parallel::shared::SharedMut;
use crate::solver::body_state::{BodyParams, BodyState, STATIC_BODY};
use crate::solver::contact_solver::ConstraintBody;
use crate::solver::{MAX_ROTATION_PER_STEP, SolverArrays};
use bevy_math::Vec2;

/// How many body slots ahead the gather asks for a body record (`Slots::iter_prefetching`).
const BODY_PREFETCH_AHEAD: usize = 8;

/// The step the kept arrays were made for: they hold only for the same time step and gravity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct KeptSolverBodies {
    dt: f32,
    gravity: Vec2,
}

/// What the solver takes of a simulated body at solver index `index`, for a step of `dt`
/// under `gravity`: its constraint data, its starting state and its integration parameters.
#[inline(always)]
pub(super) fn next_step_inputs(
    body: &Body,
    index: u32,
    gravity: Vec2,
    dt: f32,
) -> (ConstraintBody, BodyState, BodyParams) {
    let constraint = ConstraintBody {
        solver_index: index,
        inv_mass: body.inv_mass,
        inv_inertia: body.inv_inertia,
        center_offset: body.center - body.transform.p,
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
pub(super) struct NextSolverBodies<'a> {
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
    /// bodies did: the next step gathers its solver bodies again.
    pub(super) fn drop_kept_solver_bodies(&mut self) {
        self.kept_solver_bodies = None;
    }

    /// Notes that the solver arrays hold the next step's bodies for a step of the last time
    /// step under the current gravity (finalize wrote them all).
    pub(super) fn keep_solver_bodies(&mut self) {
        self.kept_solver_bodies = Some(KeptSolverBodies {
            dt: self.last_dt,
            gravity: self.def.gravity,
        });
    }

    /// Fills `arrays`' solver bodies (the simulated bodies in slot order: their slots and
    /// generations, constraint data, states and parameters) and `solver_index` (each body
    /// slot's solver index, or `STATIC_BODY`) for a step of `dt`: kept from the last
    /// finalize when they still hold, gathered otherwise.
    pub(super) fn solver_bodies(
        &mut self,
        arrays: &mut SolverArrays,
        solver_index: &mut Vec<u32>,
        dt: f32,
    ) {
        let wanted = KeptSolverBodies {
            dt,
            gravity: self.def.gravity,
        };
        let kept = self.kept_solver_bodies.take() == Some(wanted)
            && solver_index.len() == self.bodies.capacity();
        self.counters.solver_bodies_kept = kept;
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
                position: Vec2::new(i as f32 * 3.0, 2.0 + i as f32),
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
        let x0 = world.body_position(ids[0]).unwrap().x;
        world.step(dt).unwrap();
        assert!(!world.counters().solver_bodies_kept);
        let moved = world.body_position(ids[0]).unwrap().x - x0;
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
