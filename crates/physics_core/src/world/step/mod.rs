//! The four stages of a step, each public so a scheduler (the Bevy plugin) can run them as
//! separate systems: `update_pairs`, `collide`, `solve`, `finalize`.

use super::{CONTACT_HERTZ_PER_SUBSTEP_RATE, HitEvent, World, WorldError};
use crate::world::recording::{ModifiedContact, RecordedCall};

pub(in crate::world) mod carried_mass;
pub(in crate::world) mod continuous;
mod finalize;
mod impact_rewind;
mod sleep;
pub(in crate::world) mod solve_set;
pub(in crate::world) mod solver_bodies;
use crate::body::{Body, BodyType};
use crate::contact::{CollideOutcome, Contact, Recycling, pair_key};
use crate::contact_recycle::BodyFrame;
use crate::id::ShapeId;
use crate::position::{FrameOrigin, relative};
use crate::solver::body_state::STATIC_BODY;
use crate::solver::contact_solver::{ConstraintBody, ContactSolveSettings};
use crate::solver::softness::Softness;
use crate::solver::{ContactLink, SolverProfile, StepSettings, run_substeps};
use std::sync::Mutex;
use std::time::Instant;

/// Work counts of the last step: what the stages actually touched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepCounters {
    /// Proxies that queried the broadphase trees (only those whose box had to grow).
    pub proxies_queried: usize,
    /// Contacts created by the broadphase.
    pub contacts_created: usize,
    /// Contacts whose manifold was updated (computed or recycled).
    pub manifolds_updated: usize,
    /// Of those, contacts that reused their last manifold moved with the bodies, because the
    /// shapes barely moved relative to each other (contact recycling).
    pub manifolds_recycled: usize,
    /// Manifold points that matched a point of the previous step (warm started).
    pub points_persisted: usize,
    /// Manifold points with no match in the previous step (started cold).
    pub points_new: usize,
    /// Bodies in the solver arrays.
    pub bodies_solved: usize,
    /// Contact constraints solved.
    pub constraints_solved: usize,
    /// Fast bodies swept for continuous collision: those with something along their path to
    /// stop at (any body for a bullet, static shapes for the others).
    pub bodies_swept: usize,
    /// The solver reused last step's contact list and colours: no contact started or stopped
    /// touching and the same bodies moved.
    pub solve_set_reused: bool,
    /// The solver mended last step's contact list instead of scanning every contact: only
    /// contacts the narrowphase visited or destroyed changed, and the same bodies moved.
    pub solve_set_mended: bool,
    /// The solver reused last step's joint colours and exact islands: no joint was created,
    /// destroyed, enabled, disabled, broken or changed, and the same bodies moved.
    pub joint_order_reused: bool,
    /// The solver kept the bodies' solver data the last finalize wrote instead of gathering
    /// it from the body records: no body record changed between the steps, the same bodies
    /// moved, and the time step and gravity were the same.
    pub solver_bodies_kept: bool,
    /// Bodies solved heavier this step because they carry a much heavier one
    /// (`WorldDef::carried_mass_fraction`).
    pub bodies_carrying: usize,
}

/// Wall-clock time of each stage of the last step, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepProfile {
    /// Broadphase: new pairs from moved proxies.
    pub update_pairs_ms: f32,
    /// Narrowphase: manifolds of every contact.
    pub collide_ms: f32,
    /// The soft step solver.
    pub solve_ms: f32,
    /// Transforms, bounds.
    pub finalize_ms: f32,
    /// The solver's time split by stage (within `solve_ms`).
    pub solver: SolverProfile,
}

/// Profiles add up stage by stage, to total or average over steps.
impl std::ops::AddAssign for StepProfile {
    fn add_assign(&mut self, other: Self) {
        self.update_pairs_ms += other.update_pairs_ms;
        self.collide_ms += other.collide_ms;
        self.solve_ms += other.solve_ms;
        self.finalize_ms += other.finalize_ms;
        self.solver += other.solver;
    }
}

impl StepProfile {
    /// Sum of the stages.
    pub fn total_ms(&self) -> f32 {
        self.update_pairs_ms + self.collide_ms + self.solve_ms + self.finalize_ms
    }
}

/// Exact joint islands project their positions until no pin is open by more than this
/// fraction of the linear slop (0.01 mm at the default slop).
const PROJECTION_TOLERANCE: f32 = 0.002;

/// Fewest contact slots in a block of the parallel narrowphase.
const MIN_CONTACT_BLOCK: usize = 64;

fn elapsed_ms(start: Instant) -> f32 {
    start.elapsed().as_secs_f32() * 1000.0
}

impl World {
    /// Advances the world by `dt` seconds: the four stages in order.
    pub fn step(&mut self, dt: f32) -> Result<(), WorldError> {
        if !dt.is_finite() || dt < 0.0 {
            return Err(WorldError::InvalidTimeStep(dt));
        }
        // The stages inside are noted as this one call (with what the hook decided).
        self.note(|| RecordedCall::Step(dt, None));
        self.set_in_step(true);
        let t = Instant::now();
        self.update_pairs();
        self.profile.update_pairs_ms = elapsed_ms(t);
        let t = Instant::now();
        self.collide();
        self.profile.collide_ms = elapsed_ms(t);
        let t = Instant::now();
        // `dt` was checked above: the solve cannot refuse it.
        let solved = self.solve(dt);
        self.profile.solve_ms = elapsed_ms(t);
        let t = Instant::now();
        self.finalize();
        self.profile.finalize_ms = elapsed_ms(t);
        self.step_count += 1;
        self.set_in_step(false);
        solved
    }

    /// Broadphase stage: shapes whose boxes grew since the last step find the shapes their
    /// boxes now overlap; pairs that may collide become contacts.
    pub fn update_pairs(&mut self) {
        self.update_pairs_filtered(&mut |_, _| true);
    }

    /// [`World::update_pairs`], asking `filter` about every new pair with a shape that has
    /// [`ShapeDef::enable_contact_hooks`](crate::shape_def::ShapeDef::enable_contact_hooks)
    /// (after the shapes' own filters agreed): a pair it refuses gets no contact. The
    /// question is asked again when the pair is found again (a box left its margin and
    /// still overlaps the other). Called serially, in a fixed order.
    pub fn update_pairs_filtered(&mut self, filter: &mut dyn FnMut(ShapeId, ShapeId) -> bool) {
        if self.is_recording() {
            // The filter's refusals go with the call, for replay to answer alike.
            self.note(|| RecordedCall::UpdatePairs(None));
            let mut refused = Vec::new();
            self.find_pairs(&mut |a, b| {
                let keep = filter(a, b);
                if !keep {
                    refused.push((a, b));
                }
                keep
            });
            self.note_decisions(refused, None, Vec::new());
        } else {
            self.find_pairs(filter);
        }
    }

    /// [`World::update_pairs_filtered`] itself.
    fn find_pairs(&mut self, filter: &mut dyn FnMut(ShapeId, ShapeId) -> bool) {
        // A new step's events begin here, with the end events of contacts destroyed since
        // the last step (bodies or shapes destroyed by the user).
        self.begin_events.clear();
        self.end_events.clear();
        self.end_events.append(&mut self.pending_end_events);
        self.sensor_begin_events.clear();
        self.sensor_end_events.clear();
        self.sensor_end_events
            .append(&mut self.pending_sensor_end_events);
        self.hit_events.clear();
        let (filters, contact_map) = (&self.pair_filters, &self.contact_map);
        let runner = &*self.runner;
        let (pairs, queried) = self.broadphase.find_new_pairs(
            runner,
            &|a, b| {
                // The facts first: a hash lookup costs more than two dense reads.
                filters[a as usize].may_touch(&filters[b as usize])
                    && !contact_map.contains_key(&pair_key(a, b))
            },
            // What the question above reads, asked for a few pairs early: in a churning
            // crowd the table's place was a miss for most pairs (tumbler: three quarters of
            // the question's time, perf), and the other shape's facts often another.
            &|a, b| {
                contact_map.prefetch(pair_key(a, b));
                for shape in [a, b] {
                    if let Some(facts) = filters.get(shape as usize) {
                        crate::prefetch::prefetch_bytes(facts, std::mem::size_of_val(facts));
                    }
                }
            },
            &|shape| filters[shape as usize].query_mask(),
        );
        self.counters.proxies_queried = queried;
        self.counters.contacts_created = 0;
        for (a, b) in pairs {
            let (ra, rb) = (self.shapes.at(a), self.shapes.at(b));
            if self.joint_blocks_collision(ra.body.index, rb.body.index) {
                continue;
            }
            let hooked = ra.def.enable_contact_hooks || rb.def.enable_contact_hooks;
            if hooked && !filter(self.shape_id(a), self.shape_id(b)) {
                continue;
            }
            let (body_a, body_b) = (ra.body.index, rb.body.index);
            let (friction, restitution, tangent_speed, rolling_resistance) =
                self.mix_materials(a, b);
            let dynamic = |slot: u32| self.bodies.at(slot).body_type == BodyType::Dynamic;
            let passive = !dynamic(body_a) && !dynamic(body_b);
            let key = pair_key(a, b);
            let contact = Contact {
                shape_a: a,
                shape_b: b,
                body_a,
                body_b,
                manifold: Default::default(),
                friction,
                restitution,
                tangent_speed,
                rolling_resistance,
                rolling_impulse: 0.0,
                moving_surface: tangent_speed != 0.0 || rolling_resistance != 0.0,
                touching: false,
                sensor: ra.def.is_sensor || rb.def.is_sensor,
                hit_events: ra.def.enable_hit_events || rb.def.enable_hit_events,
                passive,
                enabled: true,
                recycle: None,
                recycled: false,
            };
            let (slot, _) = self.contacts.insert(contact);
            self.contact_map.insert(key, slot);
            self.bodies.at_mut(body_a).contacts.push(slot);
            self.bodies.at_mut(body_b).contacts.push(slot);
            self.counters.contacts_created += 1;
        }
    }

    /// Narrowphase stage: recomputes every contact's manifold; contacts whose boxes no longer
    /// overlap are destroyed; begin and end touch events are recorded.
    ///
    /// Uses the world's current transforms; run [`World::update_pairs`] first so new pairs
    /// have contacts.
    pub fn collide(&mut self) {
        self.collide_modified(&mut |_| true);
    }

    /// [`World::collide`], then `modify` on every touching, non-sensor contact with a shape
    /// that has [`ShapeDef::enable_contact_hooks`](crate::shape_def::ShapeDef::enable_contact_hooks),
    /// in contact slot order (so the same world gives the same calls). It may change the
    /// contact's friction, restitution and surface speed for this step, and returns false
    /// to switch the contact off for this step. Each step starts again from the shapes'
    /// materials, so a change lasts only while the hook keeps making it.
    pub fn collide_modified(&mut self, modify: &mut dyn FnMut(&mut ContactModification) -> bool) {
        if self.is_recording() {
            // What the hook and the modifier decided goes with the call, for replay to
            // answer alike.
            self.note(|| RecordedCall::Collide(None));
            let mut modified = Vec::new();
            let hook_ran = self.pre_solve.is_some();
            let mut off = Vec::new();
            self.collide_noting(
                &mut |edit| {
                    let before = *edit;
                    let enabled = modify(edit);
                    modified.extend(ModifiedContact::of(&before, edit, enabled));
                    enabled
                },
                Some(&mut off),
            );
            self.note_decisions(Vec::new(), hook_ran.then_some(off), modified);
        } else {
            self.collide_noting(modify, None);
        }
    }

    /// [`World::collide_modified`] itself; the pre-solve hook's refusals go to `hook_off`
    /// when given.
    fn collide_noting(
        &mut self,
        modify: &mut dyn FnMut(&mut ContactModification) -> bool,
        mut hook_off: Option<&mut Vec<(ShapeId, ShapeId)>>,
    ) {
        // Parallel pass: every contact's manifold from the current transforms, on the task
        // runner. It reads shapes and bodies and writes only its own contact. It also counts,
        // and notes the contacts the serial pass must visit: those to destroy, those whose
        // touching changed, those that may wake a body, and every touching one when there is
        // a pre-solve hook. The rest (most of a settled world) are done here.
        let settings = self.collide_settings();
        let (shapes, bodies) = (&self.shapes, &self.bodies);
        let recycle_distance = self.tolerances.contact_recycle_distance;
        let recycle_apart = recycle_distance.min(settings.speculative_distance);
        let has_hook = self.pre_solve.is_some();
        let simulated = |slot: u32| bodies.at(slot).is_simulated();
        let mut notes = std::mem::take(&mut self.collide_notes);
        let counts = self.contacts.par_for_each_mut_noting(
            &*self.runner,
            MIN_CONTACT_BLOCK,
            &mut notes,
            &|_, _, contact| {
                // The bodies by the contact's own copy of their slots, not through the shape
                // records: the four records' loads then start together instead of the body
                // loads waiting on the shape loads.
                let (slot_a, slot_b) = (contact.body_a, contact.body_b);
                let (ra, rb) = (shapes.at(contact.shape_a), shapes.at(contact.shape_b));
                debug_assert_eq!((slot_a, slot_b), (ra.body.index, rb.body.index));
                let (sim_a, sim_b) = (simulated(slot_a), simulated(slot_b));
                if !sim_a && !sim_b {
                    // Asleep (or asleep on static ground): nothing moved, nothing to update.
                    return ([0; 4], None);
                }
                if !ra.fat_aabb.overlaps(&rb.fat_aabb) {
                    return ([0; 4], Some(CollideOutcome::Separated));
                }
                let (body_a, body_b) = (bodies.at(slot_a), bodies.at(slot_b));
                // Both poses in a float frame at A's origin (the world's, in the float build).
                let origin = FrameOrigin::at(body_a.transform.p);
                let frame = |body: &Body| BodyFrame::new(body.transform, body.local_center, origin);
                // A static body never turns: only moving bodies' shapes' reach counts (as in
                // Box2D, whose bound also leaves static bodies out). The reach is the shape's,
                // kept beside its box, so no other part of the body record is read.
                let reach = |body: &Body, shape_reach: f32| {
                    if body.is_moving() { shape_reach } else { 0.0 }
                };
                let recycling = Recycling {
                    distance: recycle_distance,
                    distance_apart: recycle_apart,
                    reach: reach(body_a, ra.reach).max(reach(body_b, rb.reach)),
                };
                let (a, b) = (frame(body_a), frame(body_b));
                let (was, now) = contact.update(&ra.shape, a, &rb.shape, b, &settings, recycling);
                // The hook may clear this again in the serial pass. A contact it cleared last
                // step is noted: the solve set changes.
                let enabled_again = !contact.enabled;
                contact.enabled = true;
                let points = contact.manifold.points();
                let persisted = points.iter().filter(|p| p.persisted).count();
                let counts = [
                    1,
                    contact.recycled as usize,
                    persisted,
                    points.len() - persisted,
                ];
                let solid = now && !contact.sensor;
                let hooked = ra.def.enable_contact_hooks || rb.def.enable_contact_hooks;
                // The body that is not simulated: asleep (it may wake) or static.
                let sleeping = match (sim_a, sim_b) {
                    (true, false) => Some(slot_b),
                    (false, true) => Some(slot_a),
                    _ => None,
                };
                let may_wake = sleeping.is_some_and(|b| bodies.at(b).is_moving());
                let note =
                    was != now || enabled_again || (solid && (has_hook || hooked || may_wake));
                let outcome = CollideOutcome::Updated {
                    was_touching: was,
                    now_touching: now,
                };
                (counts, note.then_some(outcome))
            },
        );
        let [updated, recycled, persisted, new] = counts;
        self.counters.manifolds_updated = updated;
        self.counters.manifolds_recycled = recycled;
        self.counters.points_persisted = persisted;
        self.counters.points_new = new;

        // Serial pass over the noted contacts in slot order: destruction, waking, events and
        // the hook.
        // The hook leaves the world while it runs, so it can be handed world data.
        let mut hook = self.pre_solve.take();
        for &(slot, outcome) in &notes.noted {
            // Touching, enabled or the contact itself changes here, for these contacts only
            // (a sleeping body that wakes changes the solver's bodies, which the solve notes).
            self.solve_set.note_contact_slot(slot);
            let contact = self.contacts.at(slot);
            let (a, b, sensor) = (contact.shape_a, contact.shape_b, contact.sensor);
            let (was, now) = match outcome {
                CollideOutcome::Separated => {
                    self.destroy_contact(slot);
                    continue;
                }
                CollideOutcome::Updated {
                    was_touching,
                    now_touching,
                } => (was_touching, now_touching),
            };
            let (body_a, body_b) = (contact.body_a, contact.body_b);
            let (sim_a, sim_b) = (self.is_simulated(body_a), self.is_simulated(body_b));
            if now && sim_a != sim_b && !sensor && !contact.passive {
                // An awake body touches a sleeping one: its island wakes.
                let sleeping = if sim_a { body_b } else { body_a };
                if self.bodies.at(sleeping).is_moving() {
                    self.wake_island(sleeping);
                }
            }
            if was != now {
                self.record_touch_change(a, b, sensor, now, false);
            }
            if let (Some(hook), true) = (&mut hook, now && !sensor) {
                let (ida, idb) = (self.shape_id(a), self.shape_id(b));
                let enabled = hook(ida, idb, &self.contacts.at(slot).manifold);
                self.contacts.at_mut(slot).enabled = enabled;
                if let (false, Some(off)) = (enabled, hook_off.as_deref_mut()) {
                    off.push((ida, idb));
                }
            }
            let hooked = {
                let (ra, rb) = (self.shapes.at(a), self.shapes.at(b));
                ra.def.enable_contact_hooks || rb.def.enable_contact_hooks
            };
            if hooked && now && !sensor && self.contacts.at(slot).enabled {
                self.modify_contact(slot, modify);
            }
        }
        self.collide_notes = notes;
        self.pre_solve = hook;
        self.end_events.append(&mut self.pending_end_events);
        self.sensor_end_events
            .append(&mut self.pending_sensor_end_events);
    }

    /// Solver stage: gathers moving bodies and touching contacts into dense arrays and runs
    /// the soft step. Results stay in the solver arrays until [`World::finalize`].
    pub fn solve(&mut self, dt: f32) -> Result<(), WorldError> {
        self.note(|| RecordedCall::Solve(dt));
        if !dt.is_finite() || dt < 0.0 {
            return Err(WorldError::InvalidTimeStep(dt));
        }
        let setup_start = Instant::now();
        self.profile.solver = SolverProfile::default();
        // The arrays leave `self` while they are filled so the world can be read meanwhile.
        let mut arrays = std::mem::take(&mut self.solver);
        // `arrays.contacts` and `arrays.joints` are kept: they are resized and every position
        // that is read is written first, so last step's values are never seen.
        if dt == 0.0 {
            // Nothing to finalize, and nothing kept: the next solve gathers.
            self.solver_bodies = solver_bodies::SolverBodies::Stale;
            arrays.states.clear();
            arrays.params.clear();
            arrays.bodies.clear();
            arrays.contact_bodies.clear();
            let held = &mut arrays.held_joint_results;
            super::joint_results::write_held_results(&mut self.joints, &arrays.joints, held);
            arrays.joints.clear();
            self.solve_set.note_joint_change();
            self.solver = arrays;
            return Ok(());
        }
        let mut solver_index = std::mem::take(&mut arrays.solver_index);
        self.last_dt = dt;
        self.solver_bodies(&mut arrays, &mut solver_index, dt);

        let substeps = self.def.substep_count;
        let h = dt / substeps as f32;
        // Stiffness is capped at a fraction of the substep rate: contacts at
        // `CONTACT_HERTZ_PER_SUBSTEP_RATE` (doubled against static bodies) and joints at a
        // quarter, as stiffer than the substep can resolve would only add energy. At the
        // defaults (60 Hz, 4 substeps) the contact cap is the 45 Hz default itself.
        let contact_hertz = self
            .def
            .contact_hertz
            .min(CONTACT_HERTZ_PER_SUBSTEP_RATE * substeps as f32 / dt);
        let contact_settings = ContactSolveSettings {
            contact_softness: Softness::new(contact_hertz, self.def.contact_damping_ratio, h),
            static_softness: Softness::new(2.0 * contact_hertz, self.def.contact_damping_ratio, h),
            max_push_speed: self.tolerances.max_contact_push_speed,
            restitution_threshold: self.tolerances.restitution_threshold,
            use_block_solver: self.def.enable_block_solver,
            points_together: self.def.solve_points_together,
            deeper_point_first: self.def.solve_deeper_point_first,
        };
        let joint_hertz = self.def.joint_hertz.min(0.25 * substeps as f32 / dt);
        let joint_softness = Softness::new(joint_hertz, self.def.joint_damping_ratio, h);
        self.solve_set.note_bodies(&arrays.bodies);
        let joint_order_holds = self.solve_set.take_joint_order_holds();
        self.counters.joint_order_reused = joint_order_holds;
        if !joint_order_holds {
            // The constraints are rebuilt from the records: give them last step's results.
            let held = &mut arrays.held_joint_results;
            super::joint_results::write_held_results(&mut self.joints, &arrays.joints, held);
        }
        self.prepare_joints(
            &solver_index,
            joint_softness,
            &mut arrays,
            joint_order_holds,
        );
        // The touching contacts in slot order, coloured and laid out in SIMD groups (last
        // step's, when nothing they depend on changed); the solver's first stages build their
        // constraints.
        let mut prepared = std::mem::take(&mut self.prepare_slots);
        let any_restitution = self.find_solve_set(&solver_index, &mut prepared, &mut arrays);
        // Bodies carrying much heavier ones are solved heavier (`carried_mass.rs`).
        let mut carried = std::mem::take(&mut self.carried_mass);
        carried.scale_carrying_bodies(
            carried_mass::CarriedMassInput {
                bodies: &self.bodies,
                contacts: &self.contacts,
                solver_index: &solver_index,
                pairs: self.solve_set.solved_pairs(),
                gravity: self.def.gravity,
                fraction: self.def.carried_mass_fraction,
            },
            &mut arrays,
        );
        self.counters.bodies_carrying = carried.scaled_count();
        // A solver body's constraint data was gathered above, densely; a body outside the
        // solver (static or asleep) acts as a fixed one, read from its record.
        let contact_bodies = std::mem::take(&mut arrays.contact_bodies);
        let bodies = &self.bodies;
        let constraint_body = |index: u32| {
            let solver = solver_index[index as usize];
            if let Some(moving) = contact_bodies.get(solver as usize) {
                return *moving;
            }
            // Zero times the record's values, as the solver bodies are one times theirs.
            let b = bodies.at(index);
            ConstraintBody {
                solver_index: STATIC_BODY,
                inv_mass: 0.0 * b.inv_mass,
                inv_inertia: 0.0 * b.inv_inertia,
                center_offset: relative(b.center, b.transform.p),
                linear_velocity: 0.0 * b.linear_velocity,
                angular_velocity: 0.0 * b.angular_velocity,
                dominance: b.dominance,
            }
        };
        self.counters.bodies_solved = arrays.states.len();
        self.counters.constraints_solved = prepared.len();
        let link = ContactLink {
            slots: &prepared,
            contacts: self.contacts.shared(),
            body: &constraint_body,
            any_restitution,
            hit_threshold: self.tolerances.hit_event_threshold,
            hits: Mutex::new(Vec::new()),
        };
        let setup_ms = elapsed_ms(setup_start);
        let stages = run_substeps(
            &mut arrays,
            &StepSettings {
                dt,
                substeps,
                max_linear_speed: self.tolerances.max_linear_speed,
                contact: contact_settings,
                joint_bias_rate: joint_softness.bias_rate,
                projection_tolerance: PROJECTION_TOLERANCE * self.tolerances.linear_slop,
            },
            &link,
            &*self.runner,
        );
        self.profile.solver = SolverProfile { setup_ms, ..stages };
        let mut hits = link.hits.into_inner().unwrap_or_else(|e| e.into_inner());
        arrays.solver_index = solver_index;
        arrays.contact_bodies = contact_bodies;
        carried.restore(&mut arrays);
        self.carried_mass = carried;

        self.joint_breaks.clear();
        self.hold_joint_results(&mut arrays, 1.0 / h);
        // Hit events in constraint order (slot order), whichever worker found them.
        hits.sort_unstable_by_key(|hit| hit.0);
        for (k, approach_speed, point) in hits {
            let contact = self.contacts.at(prepared[k as usize]);
            let (a, b, normal) = (contact.shape_a, contact.shape_b, contact.manifold.normal);
            self.hit_events.push(HitEvent {
                shape_a: self.shape_id(a),
                shape_b: self.shape_id(b),
                point,
                normal,
                approach_speed,
            });
        }
        self.prepare_slots = prepared;
        self.solver = arrays;
        Ok(())
    }
}

impl World {
    /// Runs a contact modifier on the contact in `slot`, from the shapes' mixed materials.
    fn modify_contact(
        &mut self,
        slot: u32,
        modify: &mut dyn FnMut(&mut ContactModification) -> bool,
    ) {
        let contact = self.contacts.at(slot);
        let (a, b) = (contact.shape_a, contact.shape_b);
        let (friction, restitution, tangent_speed, rolling_resistance) = self.mix_materials(a, b);
        let mut edit = ContactModification {
            shape_a: self.shape_id(a),
            shape_b: self.shape_id(b),
            manifold: contact.manifold,
            friction,
            restitution,
            tangent_speed,
        };
        let enabled = modify(&mut edit);
        // Numbers the solver can use: a modifier's NaN or negative friction is not taken.
        let usable = |x: f32| x.is_finite() && x >= 0.0;
        let contact = self.contacts.at_mut(slot);
        contact.enabled = enabled;
        contact.friction = if usable(edit.friction) {
            edit.friction
        } else {
            friction
        };
        contact.restitution = if usable(edit.restitution) {
            edit.restitution
        } else {
            restitution
        };
        let speed = if edit.tangent_speed.is_finite() {
            edit.tangent_speed
        } else {
            tangent_speed
        };
        contact.set_surface_motion(speed, rolling_resistance);
    }
}

/// A touching contact offered to a contact modifier
/// ([`World::collide_modified`]): what it may read and what it may change for this step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactModification {
    /// First shape.
    pub shape_a: ShapeId,
    /// Second shape.
    pub shape_b: ShapeId,
    /// The contact's points and normal (from A to B) this step; changes to it are not read.
    pub manifold: crate::collision::Manifold,
    /// Friction coefficient for this step (starts at the shapes' mixed value).
    pub friction: f32,
    /// Restitution for this step (starts at the shapes' mixed value).
    pub restitution: f32,
    /// Surface speed along the contact's tangent for this step (conveyor belts; starts at
    /// the shapes' summed value).
    pub tangent_speed: f32,
}
