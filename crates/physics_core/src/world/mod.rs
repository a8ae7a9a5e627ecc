//! The simulation world: bodies, shapes, contacts, the broadphase and the step.
//!
//! The world's API is here, one file per kind of object or call (`bodies.rs`, `shapes.rs`,
//! `joints.rs`, `queries.rs`, ...); the stages a step runs are in `step/` (pairs and
//! manifolds in `step/mod.rs`, then the solver's set-up, the body state it steps, and
//! `finalize`, continuous collision and sleep), saving and restoring in `snapshot/`, and the
//! character controller with the mover it drives in `character/`. The world reaches down to
//! the solver, the broadphase, collision and shapes; none of those reach back up.
//!
//! Calls that take ids check them first and return [`WorldError`] without changing anything
//! when an id is stale or a value is NaN, infinite or out of range.

mod bodies;
pub mod bytes_delta;
mod character;
mod debug_draw;
mod def;
mod events;
mod explosion;
mod framed;
mod joint_results;
mod joints;
mod pair_filters;
mod point_projection;
mod queries;
mod recording;
mod shape_edits;
mod shapes;
mod snapshot;
mod step;

pub use crate::error::WorldError;
pub use crate::mix_rule::MixRule;
pub use crate::solver::ContactLanes;
pub use bodies::BodyMotion;
pub use character::mover::{MoverFilter, MoverHit, MoverPlane, clip_velocity, solve_planes};
pub use character::{CharacterExceptions, CharacterGround, CharacterMove, CharacterSettings};
pub use def::{CONTACT_HERTZ_PER_SUBSTEP_RATE, WorldDef};
pub use events::{
    ContactData, ContactEvent, HitEvent, PreSolveHook, SensorEvent, one_way_platforms,
};
pub use joints::JointBreakEvent;
pub use point_projection::PointProjection;
pub use queries::{QueryFilter, ShapeCastHit};
pub use recording::{Recording, Replay};
pub use snapshot::WorldSnapshot;
pub use step::{ContactModification, StepCounters, StepProfile};

use crate::body::{Body, Finalized};
use crate::broadphase::{BroadPhase, ProxyKey};
use crate::collision::CollideSettings;
use crate::contact::{CollideOutcome, Contact};
use crate::id::{BodyId, Notes, ShapeId, Slots};
use crate::pair_hash::PairMap;
use crate::parallel::{SingleThreaded, TaskRunner};
use crate::shape::Aabb;
use crate::shape_def::ShapeRecord;
use crate::solver::SolverArrays;
use crate::solver::wide_contacts::ContactGroups;
use crate::world::recording::RecordedCall;
use def::Tolerances;
use std::sync::Arc;

/// The simulation world.
pub struct World {
    def: WorldDef,
    tolerances: Tolerances,
    bodies: Slots<Body>,
    shapes: Slots<ShapeRecord>,
    contacts: Slots<Contact>,
    joints: Slots<crate::joint::Joint>,
    joint_breaks: Vec<JointBreakEvent>,
    /// Contacts whose manifold has points, counted where that changes
    /// (`World::record_touch_change`) so the count costs nothing to read.
    touching_contacts: usize,
    /// Bodies moving and awake, counted where a body's awake flag changes (`sleep.rs`,
    /// `set_def`) or a body comes or goes (`create_body`, `destroy_body`, `restore`), so the
    /// count costs nothing to read.
    simulated_bodies: usize,
    /// Bodies visited by island floods (waking or putting islands to sleep) since the world
    /// was made: a work counter for tests and profiling.
    island_flood_visits: u64,
    /// Shape pair -> contact slot.
    contact_map: PairMap,
    /// Per shape slot, what pair finding tests (derived from the shapes, not stored).
    pair_filters: Vec<pair_filters::PairFilter>,
    broadphase: BroadPhase,
    solver: SolverArrays,
    begin_events: Vec<ContactEvent>,
    end_events: Vec<ContactEvent>,
    /// End events of touching contacts destroyed outside `collide` (by destroying a body or
    /// shape, or inside `collide` when boxes separate), delivered with the step's events.
    pending_end_events: Vec<ContactEvent>,
    sensor_begin_events: Vec<SensorEvent>,
    sensor_end_events: Vec<SensorEvent>,
    pending_sensor_end_events: Vec<SensorEvent>,
    hit_events: Vec<HitEvent>,
    pre_solve: Option<PreSolveHook>,
    profile: StepProfile,
    counters: StepCounters,
    step_count: u64,
    /// Counts mass-data changes (see [`World::mass_revision`]); not part of a snapshot.
    mass_revision: u64,
    /// Time step of the last `solve`, for the sleep timers in `finalize`.
    last_dt: f32,
    /// Contact slots solved by the last `solve`, in slot order: the solve set
    /// (`solve_set.rs`), kept for the next step.
    prepare_slots: Vec<u32>,
    /// What the solve set was built for, and whether it still holds.
    solve_set: step::solve_set::SolveSetCache,
    /// The scratch of the carried-mass scaling, and the bodies it scaled this step.
    carried_mass: step::carried_mass::CarriedMass,
    /// The narrowphase's notes for its serial pass, kept for their capacity.
    collide_notes: Notes<CollideOutcome>,
    /// The finalize's notes for its serial pass and its batch of broadphase moves, kept for
    /// their capacity.
    finalize_notes: Notes<Finalized>,
    finalize_moves: Vec<(ProxyKey, Aabb)>,
    /// What the solver's body arrays hold between the stages: a solve's results, or the next
    /// step's inputs the last finalize wrote, or nothing to keep (`solver_bodies.rs`).
    solver_bodies: step::solver_bodies::SolverBodies,
    /// Worker threads lent by the host; one thread by default.
    runner: Arc<dyn TaskRunner>,
    /// The recording under way (`recording/`), if any.
    recorder: Option<Box<recording::Recorder>>,
}

impl World {
    /// A world with the given settings.
    pub fn new(def: WorldDef) -> Result<World, WorldError> {
        def.validate()?;
        Ok(World {
            tolerances: def.tolerances(),
            def,
            bodies: Slots::default(),
            shapes: Slots::default(),
            contacts: Slots::default(),
            joints: Slots::default(),
            joint_breaks: Vec::new(),
            touching_contacts: 0,
            simulated_bodies: 0,
            island_flood_visits: 0,
            contact_map: PairMap::default(),
            pair_filters: Vec::new(),
            broadphase: BroadPhase::default(),
            solver: SolverArrays::default(),
            begin_events: Vec::new(),
            end_events: Vec::new(),
            pending_end_events: Vec::new(),
            sensor_begin_events: Vec::new(),
            sensor_end_events: Vec::new(),
            pending_sensor_end_events: Vec::new(),
            hit_events: Vec::new(),
            pre_solve: None,
            profile: StepProfile::default(),
            counters: StepCounters::default(),
            step_count: 0,
            mass_revision: 0,
            last_dt: 0.0,
            prepare_slots: Vec::new(),
            solve_set: step::solve_set::SolveSetCache::empty(),
            carried_mass: Default::default(),
            collide_notes: Notes::default(),
            finalize_notes: Notes::default(),
            finalize_moves: Vec::new(),
            solver_bodies: step::solver_bodies::SolverBodies::Stale,
            runner: Arc::new(SingleThreaded),
            recorder: None,
        })
    }

    /// Runs the step's parallel stages on `runner`'s workers from now on. The results are
    /// bit-identical for any runner and worker count; only the speed changes.
    pub fn set_task_runner(&mut self, runner: Arc<dyn TaskRunner>) {
        self.runner = runner;
    }

    /// The task runner the step uses ([`SingleThreaded`] unless set).
    pub fn task_runner(&self) -> &Arc<dyn TaskRunner> {
        &self.runner
    }

    /// Chooses the SIMD path of the contact solve. A new world takes
    /// [`ContactLanes::Detect`]: eight lanes on an x86-64 processor with AVX2, four
    /// elsewhere, with no build flag. Every path gives the same bits, so this changes the
    /// speed only; force [`ContactLanes::Four`] to measure or test the narrow path on a
    /// processor that has the wide one. Takes effect next step.
    ///
    /// # Errors
    /// [`WorldError::Unsupported`] for [`ContactLanes::Eight`] on a processor without AVX2;
    /// the world keeps its path.
    pub fn set_contact_lanes(&mut self, lanes: ContactLanes) -> Result<(), WorldError> {
        let groups = ContactGroups::new(lanes).ok_or(WorldError::Unsupported(
            "eight contact lanes need an x86-64 processor with AVX2",
        ))?;
        if groups.lanes() != self.solver.wide_contacts.lanes() {
            self.solver.wide_contacts = groups;
            // The kept layout of last step's contacts was for the other width: lay them out
            // again (the groups' contents are rebuilt every step anyway).
            self.solve_set = step::solve_set::SolveSetCache::empty();
        }
        Ok(())
    }

    /// The SIMD path the contact solve takes: [`ContactLanes::Four`] or
    /// [`ContactLanes::Eight`] ([`World::set_contact_lanes`]).
    pub fn contact_lanes(&self) -> ContactLanes {
        self.solver.wide_contacts.lanes()
    }

    /// The settings the world runs with.
    pub fn def(&self) -> &WorldDef {
        &self.def
    }

    /// The speed every body is held to, kinematic ones too, in world units per second:
    /// [`WorldDef::max_linear_speed`] at the def's length unit.
    pub fn max_linear_speed(&self) -> f32 {
        self.tolerances.max_linear_speed
    }

    /// Changes the settings (validated first; takes effect next step).
    pub fn set_def(&mut self, def: WorldDef) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetDef(Box::new(def)));
        def.validate()?;
        self.drop_kept_solver_bodies();
        self.tolerances = def.tolerances();
        self.def = def;
        if !def.enable_sleep {
            for (_, b) in self.bodies.iter_mut() {
                b.awake = true;
                b.sleep_time = 0.0;
            }
            self.simulated_bodies = self.count_simulated_bodies();
        }
        Ok(())
    }

    /// Number of bodies.
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    /// Number of shapes.
    pub fn shape_count(&self) -> usize {
        self.shapes.len()
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    /// Number of contacts (pairs whose enlarged boxes overlap).
    pub fn contact_count(&self) -> usize {
        self.contacts.len()
    }

    /// Number of contacts whose manifold has points.
    pub fn touching_contact_count(&self) -> usize {
        debug_assert_eq!(
            self.touching_contacts,
            self.contacts.iter().filter(|(_, c)| c.touching).count(),
            "touching count out of step with the contacts"
        );
        self.touching_contacts
    }

    /// Steps taken so far.
    pub fn step_count(&self) -> u64 {
        self.step_count
    }

    /// Time spent in each stage during the last step.
    pub fn profile(&self) -> &StepProfile {
        &self.profile
    }

    /// What the stages of the last step touched.
    pub fn counters(&self) -> &StepCounters {
        &self.counters
    }

    /// Shapes that started touching during the last step.
    pub fn begin_contact_events(&self) -> &[ContactEvent] {
        &self.begin_events
    }

    /// Shapes that stopped touching during the last step, and touching shapes destroyed
    /// since the step before (reported with the next step).
    pub fn end_contact_events(&self) -> &[ContactEvent] {
        &self.end_events
    }

    /// The broadphase (its trees can be queried directly).
    pub fn broadphase(&self) -> &BroadPhase {
        &self.broadphase
    }

    fn collide_settings(&self) -> CollideSettings {
        CollideSettings {
            speculative_distance: self.tolerances.speculative_distance,
            linear_slop: self.tolerances.linear_slop,
        }
    }

    #[inline]
    fn body(&self, id: BodyId) -> Result<&Body, WorldError> {
        self.bodies
            .get(id.index, id.generation)
            .ok_or(WorldError::StaleBody(id))
    }

    fn body_mut(&mut self, id: BodyId) -> Result<&mut Body, WorldError> {
        // Whatever the caller changes, the solver's copy of it is gathered again.
        self.drop_kept_solver_bodies();
        self.bodies
            .get_mut(id.index, id.generation)
            .ok_or(WorldError::StaleBody(id))
    }

    fn shape_id(&self, index: u32) -> ShapeId {
        ShapeId {
            index,
            generation: self.shapes.generation(index),
        }
    }

    fn body_id(&self, index: u32) -> BodyId {
        BodyId {
            index,
            generation: self.bodies.generation(index),
        }
    }

    /// Destroys a contact, removing it from both bodies' lists; records an end event if it
    /// was touching.
    fn destroy_contact(&mut self, slot: u32) {
        let generation = self.contacts.generation(slot);
        let Some(contact) = self.contacts.remove(slot, generation) else {
            return;
        };
        self.solve_set.note_contact_slot(slot);
        self.contact_map
            .remove(&crate::contact::pair_key(contact.shape_a, contact.shape_b));
        for body in [contact.body_a, contact.body_b] {
            let list = &mut self.bodies.at_mut(body).contacts;
            if let Some(pos) = list.iter().position(|c| *c == slot) {
                list.swap_remove(pos);
            }
        }
        if contact.touching {
            self.record_touch_change(
                contact.shape_a,
                contact.shape_b,
                contact.sensor,
                false,
                true,
            );
        }
    }
}
