//! The [`PhysicsSettings`] resource: gravity, length unit, substeps, solver and sleep settings,
//! pause.

use crate::world::physics_world::PhysicsWorld;
use crate::world::threads::ComputeTaskPoolRunner;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;
use physics_core::world::{ContactLanes, WorldDef};
use std::sync::Arc;

/// World-wide physics settings. Changing the resource takes effect at the next step.
///
/// Lengths are in the game's own units: set [`PhysicsSettings::length_unit`] to the number of
/// units per metre (100 for a game measuring in pixels with 100 pixels to the metre) and every
/// tolerance of the engine scales with it, so the game behaves like one in metres.
#[derive(Resource, Clone, Debug, PartialEq, Reflect)]
#[reflect(Resource, Debug, PartialEq, Default)]
pub struct PhysicsSettings {
    /// Gravity acceleration in units per second squared.
    pub gravity: Vec2,
    /// World units per metre.
    pub length_unit: f32,
    /// Solver substeps per step (4 by default).
    pub substeps: u32,
    /// Contact stiffness in hertz (45 by default; capped at three sixteenths of the substep
    /// rate, `physics_core::world::CONTACT_HERTZ_PER_SUBSTEP_RATE`).
    pub contact_hertz: f32,
    /// Contact damping ratio.
    pub contact_damping_ratio: f32,
    /// Joint stiffness in hertz.
    pub joint_hertz: f32,
    /// Joint damping ratio.
    pub joint_damping_ratio: f32,
    /// Solve two-point contacts that hold a body up on their own (a box on a face) as a 2x2
    /// block in both passes: awake towers stand still, at about the same speed (off by
    /// default; on, it takes the place of `points_together`, which already holds awake
    /// towers; see `WorldDef::enable_block_solver` for what it costs elsewhere).
    pub block_solver: bool,
    /// Solve the deeper of a two-point contact's points first, so awake towers barely lean;
    /// contacts struck faster than the restitution threshold keep Box2D v3's order (off by
    /// default; on, it takes the place of `points_together`). See
    /// `WorldDef::solve_deeper_point_first`.
    pub deeper_point_first: bool,
    /// Solve a two-point contact's points together where they couple loosely (exactly in
    /// the biased pass, from the same velocities when relaxing), so awake towers stand
    /// still, pyramids settle nearer where they were built and overlaps are pushed out
    /// gently (on by default; off, every contact goes one point at a time in listed order,
    /// as in Box2D v3). See `WorldDef::solve_points_together`.
    pub points_together: bool,
    /// Islands of touching bodies with at most this many bodies have their contacts solved
    /// together, rigidly, so a heavy body resting on light ones does not sink into them (0,
    /// the default, keeps Box2D v3's soft contacts everywhere). See
    /// `WorldDef::exact_contact_island_bodies`.
    pub exact_contact_island_bodies: u32,
    /// Joint trees that hang from something outside them (a static or kinematic body, or a
    /// mouse, distance or spring joint to another body) or whose heaviest body is at least
    /// this many times their lightest have their joints solved together and exactly, so they
    /// neither stretch nor open; free trees of similar masses, such as ragdolls, keep Box2D
    /// v3's soft joints and its cost. 10, the default; 1 for every tree; infinity for none.
    /// See `WorldDef::exact_joint_mass_ratio`.
    pub exact_joint_mass_ratio: f32,
    /// A body carrying a heavier one is solved with at least this fraction of the mass on
    /// it, passed down the stack, so a heavy body rests on light ones instead of sinking into
    /// them; weights and contact forces stay as they are (0 switches it off; below 1). See
    /// `WorldDef::carried_mass_fraction`.
    pub carried_mass_fraction: f32,
    /// Lets bodies at rest fall asleep (they then cost nothing per step).
    pub enable_sleep: bool,
    /// Seconds a body must rest before it may sleep.
    pub time_to_sleep: f32,
    /// Approach speed (m/s) below which contacts do not bounce.
    pub restitution_threshold: f32,
    /// Approach speed (m/s) above which colliders with hit events report a hit.
    pub hit_event_threshold: f32,
    /// Speed limit of any body (m/s).
    pub max_linear_speed: f32,
    /// Touching colliders that moved less than this (in metres) relative to each other since
    /// their contact points were computed keep those points and only update how deep they are
    /// (contact recycling, as in Box2D v3, 5 cm by default). Zero recomputes every contact
    /// every step.
    pub contact_recycle_distance: f32,
    /// Most threads the step runs on: 0 (the default) uses every thread of Bevy's
    /// `ComputeTaskPool`, 1 only the thread running the physics systems. The results are
    /// bit-identical for any value.
    pub worker_threads: usize,
    /// Which SIMD path solves the contacts: by default the widest this processor runs (eight
    /// lanes with AVX2 on x86-64, four elsewhere), chosen at run time with no build flag.
    /// Every path gives the same bits; force `Four` to compare. Asking for `Eight` on a
    /// processor without AVX2 logs a warning and keeps the current path.
    #[reflect(ignore)]
    pub contact_lanes: ContactLanes,
    /// Most rigid bodies the world holds; entities beyond it are skipped with a warning
    /// (about 0.7 KB of memory per body, so the default of 1,048,576 bounds the world near
    /// 700 MB).
    pub max_bodies: u32,
}

impl Default for PhysicsSettings {
    fn default() -> Self {
        PhysicsSettings::from_world_def(&WorldDef::default())
    }
}

impl PhysicsSettings {
    /// Settings for a game measuring `units_per_meter` units per metre, with Earth gravity
    /// expressed in those units.
    pub fn with_length_unit(units_per_meter: f32) -> Self {
        let base = PhysicsSettings::default();
        PhysicsSettings {
            gravity: base.gravity * units_per_meter,
            length_unit: units_per_meter,
            ..base
        }
    }

    /// The settings a core world def stands for.
    pub fn from_world_def(def: &WorldDef) -> Self {
        PhysicsSettings {
            gravity: def.gravity,
            length_unit: def.length_units_per_meter,
            substeps: def.substep_count,
            contact_hertz: def.contact_hertz,
            contact_damping_ratio: def.contact_damping_ratio,
            joint_hertz: def.joint_hertz,
            joint_damping_ratio: def.joint_damping_ratio,
            block_solver: def.enable_block_solver,
            deeper_point_first: def.solve_deeper_point_first,
            points_together: def.solve_points_together,
            exact_contact_island_bodies: def.exact_contact_island_bodies,
            exact_joint_mass_ratio: def.exact_joint_mass_ratio,
            carried_mass_fraction: def.carried_mass_fraction,
            enable_sleep: def.enable_sleep,
            time_to_sleep: def.time_to_sleep,
            restitution_threshold: def.restitution_threshold,
            hit_event_threshold: def.hit_event_threshold,
            max_linear_speed: def.max_linear_speed,
            contact_recycle_distance: def.contact_recycle_distance,
            worker_threads: 0,
            contact_lanes: ContactLanes::Detect,
            max_bodies: def.max_bodies,
        }
    }

    /// The core world def with these settings.
    pub fn to_world_def(&self) -> WorldDef {
        WorldDef {
            gravity: self.gravity,
            length_units_per_meter: self.length_unit,
            substep_count: self.substeps,
            contact_hertz: self.contact_hertz,
            contact_damping_ratio: self.contact_damping_ratio,
            joint_hertz: self.joint_hertz,
            joint_damping_ratio: self.joint_damping_ratio,
            enable_block_solver: self.block_solver,
            solve_deeper_point_first: self.deeper_point_first,
            solve_points_together: self.points_together,
            exact_contact_island_bodies: self.exact_contact_island_bodies,
            exact_joint_mass_ratio: self.exact_joint_mass_ratio,
            carried_mass_fraction: self.carried_mass_fraction,
            enable_sleep: self.enable_sleep,
            time_to_sleep: self.time_to_sleep,
            restitution_threshold: self.restitution_threshold,
            hit_event_threshold: self.hit_event_threshold,
            max_linear_speed: self.max_linear_speed,
            contact_recycle_distance: self.contact_recycle_distance,
            max_bodies: self.max_bodies,
            ..WorldDef::default()
        }
    }
}

/// Applies changed settings to the core world.
pub(crate) fn apply_settings(
    settings: Res<PhysicsSettings>,
    mut physics: ResMut<PhysicsWorld>,
    mut last_error: Local<Option<String>>,
    mut applied: Local<Option<(WorldDef, usize, ContactLanes)>>,
) {
    if !settings.is_changed() {
        return;
    }
    // Only the world's settings, the thread count and the lanes concern the core.
    let wanted = (
        settings.to_world_def(),
        settings.worker_threads,
        settings.contact_lanes,
    );
    if applied.as_ref() == Some(&wanted) {
        return;
    }
    *applied = Some(wanted);
    let runner = ComputeTaskPoolRunner::new(settings.worker_threads);
    physics.world.set_task_runner(Arc::new(runner));
    if let Err(error) = physics.world.set_contact_lanes(settings.contact_lanes) {
        let kept = physics.world.contact_lanes();
        bevy_log::warn!("physics: contact lanes {kept:?} kept: {error}");
    }
    match physics.world.set_def(settings.to_world_def()) {
        Ok(()) => *last_error = None,
        Err(error) => {
            let message = error.to_string();
            if last_error.as_deref() != Some(&message) {
                bevy_log::warn!("physics: settings rejected, the previous ones stay: {message}");
            }
            *last_error = Some(message);
        }
    }
}
