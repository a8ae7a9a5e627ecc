//! The finalize stage: the solver's results written to the bodies, forces cleared, fast bodies
//! swept, and the broadphase boxes of shapes that left theirs made again.
//!
//! A parallel pass over the bodies does what each body can do alone: it takes its velocity
//! and pose, writes its next step's solver inputs, finds whether it moved fast enough to be
//! swept and whether its shapes left their enlarged boxes, and, for the common body of one
//! shape that left its box and needs no sweep, writes that shape's new box into the shape's
//! record (Box2D v3 writes its shapes' boxes in its finalize task too). The records are shared
//! among the workers slot by slot ([`FinalizeShapes`]): a shape belongs to one body and a
//! body is finalized by one worker, so no record is touched by two.
//!
//! A serial pass over the bodies the parallel pass noted, in slot order (the solver's order,
//! so any worker count gives the same bits), does what reaches beyond one body: the NaN
//! clean-up of a body's contacts, the sweeps against static shapes, the boxes of bodies of
//! several shapes, and the batch of broadphase moves; then the bullets, swept last against
//! the other bodies' final poses. In a crowd that churns (smash) most bodies leave their
//! boxes every step, and writing their shapes' records here, after another worker's pass
//! had them in its cache, was most of this pass's time with two workers.
#![allow(unsafe_code)]

use super::continuous::{moved_fast, sweep_meets_static};
use super::solver_bodies::{NextSolverBodies, SolverBodies, next_step_inputs};
use crate::body::{Body, BodyType, Finalized, SingleShapeBox};
use crate::id::{Slot, Slots};
use crate::math::is_finite_vec;
use crate::parallel::shared::SharedMut;
use crate::parallel::stages::MIN_BODY_BLOCK;
use crate::position::offset;
use crate::shape::Aabb;
use crate::shape_def::ShapeRecord;
use crate::solver::body_state::{BodyState, STATIC_BODY};
use crate::world::World;
use crate::world::recording::RecordedCall;
use crate::world::shapes::broadphase_box;
use bevy_math::Vec2;

/// The shape records while finalize's workers read and write them, each only the shapes of
/// the bodies it finalizes. Each access forms a reference to one record, never to the
/// whole array, so a worker reading its shapes claims nothing of another worker's.
struct FinalizeShapes<'a> {
    records: SharedMut<'a, Slot<ShapeRecord>>,
}

impl<'a> FinalizeShapes<'a> {
    fn new(shapes: &'a mut Slots<ShapeRecord>) -> Self {
        FinalizeShapes {
            records: shapes.shared(),
        }
    }

    /// The record of the shape in slot `index`.
    ///
    /// # Safety
    /// The shape belongs to a body the calling worker finalizes (no other worker writes it).
    unsafe fn record(&self, index: u32) -> &ShapeRecord {
        // SAFETY: forwarded to the caller.
        let slot = unsafe { self.records.get_shared(index as usize) };
        slot.value().expect("internal link to an empty slot")
    }

    /// Gives the shape in slot `index` its new enlarged box.
    ///
    /// # Safety
    /// The shape belongs to a body the calling worker finalizes, and no reference to its
    /// record is alive.
    unsafe fn set_fat_aabb(&self, index: u32, fat: Aabb) {
        // SAFETY: forwarded to the caller.
        let slot = unsafe { self.records.get(index as usize) };
        slot.value_mut()
            .expect("internal link to an empty slot")
            .fat_aabb = fat;
    }
}

impl World {
    /// Finalize stage: writes the solver's results to the bodies, clears forces, and refreshes
    /// the broadphase boxes of shapes that moved out of theirs.
    pub fn finalize(&mut self) {
        self.note(|| RecordedCall::Finalize);
        self.counters.bodies_swept = 0;
        if !matches!(self.solver_bodies, SolverBodies::Solved { .. }) {
            // No solve (of a time step above zero) since the last finalize: the solver
            // arrays hold no results to write back (perhaps the next step's inputs).
            self.update_sleep(self.last_dt, &[]);
            return;
        }
        let mut arrays = std::mem::take(&mut self.solver);

        // Parallel pass over the bodies (see the module documentation); the bodies the serial
        // pass must visit are noted, with what it needs of them, so it never reads the others.
        let shapes = FinalizeShapes::new(&mut self.shapes);
        let tolerances = &self.tolerances;
        let static_tree = &self.broadphase.static_tree;
        let (gravity, dt) = (self.def.gravity, self.last_dt);
        let rest = RestSpeeds {
            enabled: self.def.enable_sleep,
            linear: tolerances.sleep_linear_speed,
            angular: self.def.sleep_angular_speed,
            dt,
        };
        let solver_index = std::mem::take(&mut arrays.solver_index);
        let solved = std::mem::take(&mut arrays.bodies);
        let mut notes = std::mem::take(&mut self.finalize_notes);
        // Each solved body's entries of the solver arrays: its result, read, then its next
        // step's inputs, written (`solver_bodies.rs`).
        let next = NextSolverBodies::new(&mut arrays);
        self.bodies.par_for_each_mut_noting::<0, Finalized, _>(
            &*self.runner,
            MIN_BODY_BLOCK,
            &mut notes,
            &|slot, generation, body| {
                let i = solver_index
                    .get(slot as usize)
                    .copied()
                    .unwrap_or(STATIC_BODY);
                // Not solved, or destroyed (and its slot perhaps reused) since `solve`.
                if solved.get(i as usize) != Some(&(slot, generation)) {
                    return ([], None);
                }
                // SAFETY: `solved` names each solver index's body once, and each body is
                // finalized by one worker: no other worker touches index `i`.
                let state = unsafe { next.state(i) };
                let pushed = body.force != bevy_math::Vec2::ZERO || body.torque != 0.0;
                // SAFETY: this worker finalizes `body`, and so it alone touches its shapes.
                let f =
                    unsafe { finalize_body(body, &state, &shapes, static_tree, tolerances, &rest) };
                if !f.non_finite {
                    let inputs = next_step_inputs(body, i, gravity, dt);
                    // SAFETY: as above.
                    unsafe { next.write(i, inputs, pushed) };
                }
                (
                    [],
                    (f.non_finite || f.needs_sweep || f.left_its_box || f.pushed_out_of_overlap)
                        .then_some(f),
                )
            },
        );

        // Serial pass over the noted bodies in slot order (the solver's order): NaN clean-up,
        // sweeps, and the broadphase moves, applied in one batch after the sweeps (these only
        // meet static shapes, whose tree does not move here).
        let mut bullets = Vec::new();
        let mut moves = std::mem::take(&mut self.finalize_moves);
        moves.clear();
        let mut pushed_out_of_overlap = Vec::new();
        // Jointed bodies their sweeps stopped, with the fraction of the step they reached.
        let mut stopped_jointed = Vec::new();
        for &(slot, f) in &notes.noted {
            if f.pushed_out_of_overlap {
                pushed_out_of_overlap.push(slot);
                if !(f.non_finite || f.needs_sweep || f.left_its_box) {
                    continue;
                }
            }
            if f.non_finite {
                // Never let a NaN spread: the body stopped where it was; its contacts forget
                // their impulses. Its next inputs were not written (`solver_bodies.rs`).
                self.drop_kept_solver_bodies();
                for contact in self.bodies.at(slot).contacts.clone() {
                    for p in self.contacts.at_mut(contact).manifold.points_mut() {
                        p.normal_impulse = 0.0;
                        p.tangent_impulse = 0.0;
                    }
                }
                continue;
            }
            if f.needs_sweep && f.bullet {
                bullets.push((slot, f.start_center, f.start_rotation));
                continue;
            }
            if f.needs_sweep {
                let reached = self.solve_continuous(slot, f.start_center, f.start_rotation);
                if reached < 1.0 && !self.bodies.at(slot).joints.is_empty() {
                    stopped_jointed.push((slot, reached));
                }
            }
            match f.single_shape_box {
                // Already in the shape's record (`finalize_body`).
                Some(single) if !f.needs_sweep => moves.push((single.proxy, single.fat)),
                _ => self.collect_shape_moves(slot, false, &mut moves),
            }
        }
        // Their joint groups go back to the moment of impact too (`impact_rewind.rs`). A body
        // whose box was already queued above is queued again: the later box wins.
        let stepped = |slot: u32, generation: u32| {
            let i = solver_index.get(slot as usize).copied();
            i.and_then(|i| solved.get(i as usize)) == Some(&(slot, generation))
        };
        for slot in self.rewind_joint_groups(&stopped_jointed, &stepped) {
            self.collect_shape_moves(slot, false, &mut moves);
        }
        self.broadphase.move_proxies(&moves, &*self.runner);
        self.finalize_moves = moves;
        self.finalize_notes = notes;
        // Bullets last: they are swept against the other bodies' final poses.
        for (slot, c1, q1) in bullets {
            let reached = self.solve_continuous(slot, c1, q1);
            self.refresh_shape_bounds(slot, false);
            if reached < 1.0 && !self.bodies.at(slot).joints.is_empty() {
                for moved in self.rewind_joint_groups(&[(slot, reached)], &stepped) {
                    self.refresh_shape_bounds(moved, false);
                }
            }
        }
        let kept = self.keep_solver_bodies(solved.len());
        arrays.solver_index = solver_index;
        arrays.bodies = solved;
        if !kept {
            arrays.states.clear();
            arrays.bodies.clear();
        }
        self.solver = arrays;
        self.update_sleep(self.last_dt, &pushed_out_of_overlap);
    }
}

/// What the parallel part of `finalize` needs to tell a push out of overlap from rest.
struct RestSpeeds {
    /// `WorldDef::enable_sleep`.
    enabled: bool,
    /// The sleep speeds: linear in world units per second (a body's own threshold replaces
    /// it), angular in radians per second.
    linear: f32,
    angular: f32,
    /// The step.
    dt: f32,
}

/// True when `body`, whose velocity is below its sleep speeds, still moved faster than them
/// over the step: a contact pushed it out of overlap. The soft step moves a body by the push
/// (the biased velocity) in its substeps and then relaxes the push out of the velocity, so
/// the velocity alone says a half-pushed-out body rests, and with a push slower than the
/// overlap's depth over `time_to_sleep` it would fall asleep still overlapping.
fn moved_only_by_a_push(body: &Body, state: &BodyState, freedom: Vec2, rest: &RestSpeeds) -> bool {
    if !rest.enabled || !body.can_sleep {
        return false;
    }
    let linear = body.linear_sleep_speed(rest.linear);
    if !body.velocity_at_rest(linear, rest.angular) {
        return false;
    }
    let (travel, turn) = (linear * rest.dt, rest.angular * rest.dt);
    // |sin| of the turn for the turn itself: a push turns a body by far less than a right
    // angle in a step.
    (state.delta_position * freedom).length_squared() > travel * travel
        || state.delta_rotation.s.abs() > turn
}

/// The parallel part of `finalize` for one solved body; returns what the serial part needs.
/// A body of one shape that left its box and needs no sweep has the shape's new box written
/// here (a sweep would move the body, so a swept body's boxes are made after it).
///
/// # Safety
/// The calling worker alone finalizes `body` (so it alone touches `body`'s shapes).
unsafe fn finalize_body(
    body: &mut Body,
    state: &BodyState,
    shapes: &FinalizeShapes,
    static_tree: &crate::broadphase::DynamicTree,
    tolerances: &crate::world::def::Tolerances,
    rest: &RestSpeeds,
) -> Finalized {
    body.collide_pose = body.transform;
    body.force = bevy_math::Vec2::ZERO;
    body.torque = 0.0;
    let finite = is_finite_vec(state.linear_velocity)
        && state.angular_velocity.is_finite()
        && is_finite_vec(state.delta_position)
        && state.delta_rotation.is_valid();
    let (c1, q1) = (body.center, body.transform.q);
    let mut f = Finalized {
        start_center: c1,
        start_rotation: q1,
        non_finite: !finite,
        ..Finalized::default()
    };
    if !finite {
        body.linear_velocity = bevy_math::Vec2::ZERO;
        body.angular_velocity = 0.0;
        return f;
    }
    // The relax and restitution stages come after the last substep's motion locks: a locked
    // axis is held here once more, so it never drifts and never reports a speed.
    let freedom = body.linear_freedom();
    body.linear_velocity = state.linear_velocity * freedom;
    body.angular_velocity = state.angular_velocity;
    body.center = offset(body.center, state.delta_position * freedom);
    let q = (state.delta_rotation * body.transform.q).normalize();
    body.transform.q = q;
    body.transform.p = offset(body.center, -q.rotate(body.local_center));
    f.pushed_out_of_overlap = moved_only_by_a_push(body, state, freedom, rest);
    let speculative = tolerances.speculative_distance;
    debug_assert_eq!(
        body.only_shape,
        (body.shapes.len() == 1).then(|| body.shapes[0].index),
        "only_shape out of step with the shapes"
    );
    // SAFETY: the shapes named below are `body`'s (the caller's promise).
    let own_shape = |index: u32| unsafe { shapes.record(index) };
    let mut only_box = None;
    if let Some(only) = body.only_shape {
        // The common body of one shape: its new broadphase box is made here, in parallel, as
        // `World::collect_shape_moves` would make it.
        let record = own_shape(only);
        let tight = record.shape.world_aabb(body.transform);
        only_box = Some(tight);
        if !record.fat_aabb.contains(&tight.expanded(speculative)) {
            f.left_its_box = true;
            f.single_shape_box = Some(SingleShapeBox {
                proxy: record.proxy,
                fat: broadphase_box(&record.shape, tight, record.proxy.tree, tolerances),
            });
        }
    } else {
        f.left_its_box = body.shapes.iter().any(|id| {
            let record = own_shape(id.index);
            let needed = record
                .shape
                .world_aabb(body.transform)
                .expanded(speculative);
            !record.fat_aabb.contains(&needed)
        });
    }
    // A fast body is swept in the serial pass only if that can change something: a bullet
    // meets every body, any other only static shapes, whose tree does not move here. (Asked
    // after the box, whose shape record is then in the cache.)
    f.bullet = body.bullet;
    f.needs_sweep = body.body_type == BodyType::Dynamic
        && moved_fast(body, c1, q1)
        && (body.bullet || sweep_meets_static(body, c1, q1, own_shape, static_tree, only_box));
    if let (Some(only), Some(single), false) = (body.only_shape, f.single_shape_box, f.needs_sweep)
    {
        // SAFETY: the shape is `body`'s, and no reference to its record outlives the reads
        // above.
        unsafe { shapes.set_fat_aabb(only, single.fat) };
    }
    f
}
