//! One adapter per engine: each builds a neutral [`Scene`] with the common settings (the
//! scene's time step, 4 substeps, sleeping off, one thread) and steps it.
//!
//! Besides stepping, every adapter reads each body's pose and velocity ([`BodySample`]), which
//! the fidelity table measures; Box2D and physics_core also hand out their contact manifolds
//! ([`ContactSample`]), which the differential mode compares.

mod avian;
pub mod box2d;
mod core;
pub mod floor;
mod plugin;
mod rapier;
mod scene_groups;

use bevy_math::Vec2;
use physics2d_demos::Scene;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Substeps per step, for every engine.
pub const SUBSTEPS: u32 = 4;

/// What an adapter sets besides the scene: the benchmark's common settings by default. The
/// differential mode changes them to compare the engines away from the defaults; rapier2d and
/// avian2d take only the substep count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Substeps per step.
    pub substeps: u32,
    /// Contact stiffness in hertz (Box2D and physics_core; `None`: their default, 30 in
    /// Box2D and 45 in physics_core).
    pub contact_hertz: Option<f32>,
    /// physics_core: the fastest push out of an overlap in m/s (`None`: its default, 2;
    /// Box2D's is 3).
    pub max_push_speed: Option<f32>,
    /// Contact recycling distance in metres (Box2D and physics_core; `None`: their default;
    /// zero turns recycling off).
    pub recycle_distance: Option<f32>,
    /// physics_core and bevy_physics2d: solve contact islands of at most this many bodies
    /// exactly (`WorldDef::exact_contact_island_bodies`; 0, the default, is off).
    pub exact_contact_island_bodies: u32,
    /// physics_core and bevy_physics2d: `WorldDef::exact_joint_mass_ratio` (`None`: their
    /// default, 10).
    pub exact_joint_mass_ratio: Option<f32>,
    /// physics_core and bevy_physics2d: solve two-point manifolds with the 2x2 block solver
    /// (`WorldDef::enable_block_solver`; `None`: their default).
    pub block_solver: Option<bool>,
    /// physics_core and bevy_physics2d: solve a two-point manifold's deeper point first
    /// (`WorldDef::solve_deeper_point_first`; `None`: their default).
    pub deeper_point_first: Option<bool>,
    /// physics_core and bevy_physics2d: solve a two-point manifold's points together
    /// (`WorldDef::solve_points_together`; `None`: their default).
    pub points_together: Option<bool>,
    /// physics_core and bevy_physics2d: `WorldDef::carried_mass_fraction` (`None`: their
    /// default; 0: off, every contact as in Box2D v3).
    pub carried_mass_fraction: Option<f32>,
    /// physics_core and bevy_physics2d: the contact solve's SIMD path (`World::set_contact_lanes`;
    /// detected by default).
    pub contact_lanes: physics_core::world::ContactLanes,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            substeps: SUBSTEPS,
            contact_hertz: None,
            max_push_speed: None,
            recycle_distance: None,
            exact_contact_island_bodies: 0,
            exact_joint_mass_ratio: None,
            block_solver: None,
            deeper_point_first: None,
            points_together: None,
            carried_mass_fraction: None,
            contact_lanes: physics_core::world::ContactLanes::Detect,
        }
    }
}

/// A body's pose and the velocity of its centre of mass.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodySample {
    /// Body origin.
    pub position: Vec2,
    /// Rotation (radians, in (-pi, pi]).
    pub angle: f32,
    /// Velocity of the centre of mass.
    pub linear_velocity: Vec2,
    /// Angular velocity (rad/s).
    pub angular_velocity: f32,
}

impl BodySample {
    /// A sample whose every field is NaN: the body could not be read.
    pub const NAN: BodySample = BodySample {
        position: Vec2::NAN,
        angle: f32::NAN,
        linear_velocity: Vec2::NAN,
        angular_velocity: f32::NAN,
    };
}

/// One point of a contact manifold, as an engine reports it after a step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointSample {
    /// The point relative to body A's centre of mass, world axes.
    pub anchor_a: Vec2,
    /// The point relative to body B's centre of mass, world axes.
    pub anchor_b: Vec2,
    /// Separation when the manifold was computed or recycled (negative: overlap).
    pub separation: f32,
    /// Accumulated normal impulse of the step.
    pub normal_impulse: f32,
    /// Accumulated friction impulse of the step.
    pub tangent_impulse: f32,
    /// The engine's feature id.
    pub id: u16,
}

/// A touching contact between two bodies (scene indices, `body_a < body_b`; the normal points
/// from A to B).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactSample {
    pub body_a: usize,
    pub body_b: usize,
    pub normal: Vec2,
    pub points: Vec<PointSample>,
}

impl ContactSample {
    /// The contact seen with its bodies in scene order: if A comes after B, the two swap
    /// (anchors with them) and the normal turns round.
    pub fn in_body_order(mut self) -> Self {
        if self.body_a > self.body_b {
            std::mem::swap(&mut self.body_a, &mut self.body_b);
            self.normal = -self.normal;
            for p in &mut self.points {
                std::mem::swap(&mut p.anchor_a, &mut p.anchor_b);
            }
        }
        self
    }
}

/// Worker threads for the engines that take them (`--threads`, 1 by default).
static THREADS: AtomicUsize = AtomicUsize::new(1);

/// Sets the worker count of Box2D, physics_core and bevy_physics2d, and sizes Bevy's
/// `ComputeTaskPool` to match. Call once, before building any scene.
pub fn set_threads(threads: usize) {
    let threads = threads.max(1);
    THREADS.store(threads, Ordering::Relaxed);
    bevy_tasks::ComputeTaskPool::get_or_init(|| {
        bevy_tasks::TaskPoolBuilder::new()
            .num_threads(threads)
            .thread_name("bench compute".into())
            .build()
    });
}

/// Sets the worker count of Box2D and physics_core for the scenes built from now on, leaving
/// Bevy's `ComputeTaskPool` as it is (the scaling mode changes it between races of those two).
pub fn set_engine_threads(threads: usize) {
    THREADS.store(threads.max(1), Ordering::Relaxed);
}

/// The worker count set by [`set_threads`] or [`set_engine_threads`].
pub fn threads() -> usize {
    THREADS.load(Ordering::Relaxed)
}

/// The task pools of the Bevy plugins' Apps: `threads()` threads in the compute pool, where
/// Bevy's multi-threaded executor runs systems and bevy_physics2d its step workers (Bevy's
/// defaults give a two-core machine one compute thread, a four-core one two). The pools are
/// global: the first App of the process sizes them for every later one.
pub fn bevy_task_pools() -> bevy_app::TaskPoolPlugin {
    let mut options = bevy_app::TaskPoolOptions::with_num_threads(threads());
    options.compute.min_threads = threads();
    options.compute.max_threads = threads();
    bevy_app::TaskPoolPlugin {
        task_pool_options: options,
    }
}

/// A scene built in one engine.
pub trait Simulation {
    /// Advances one time step.
    fn step(&mut self) -> Result<(), String>;
    /// Every body's pose and velocity, in the scene's description order.
    fn samples(&mut self) -> Vec<BodySample>;
    /// Body origins in the scene's description order.
    fn positions(&mut self) -> Vec<Vec2> {
        self.samples().iter().map(|s| s.position).collect()
    }
    /// The touching contacts, for engines that hand them out (Box2D and physics_core).
    fn contacts(&mut self) -> Option<Vec<ContactSample>> {
        None
    }
    /// Mean time of each stage of a step, for engines that report one.
    fn stages(&self) -> Option<String> {
        None
    }
}

/// Builds a scene in one engine.
pub type Build = fn(&Scene, &Settings) -> Result<Box<dyn Simulation>, String>;

/// The engines, in table order: the name of the column and how to build a scene in it.
pub const ENGINES: &[(&str, Build)] = &[
    ("Box2D v3", box2d::build),
    ("physics_core", core::build),
    ("bevy_physics2d", plugin::build),
    ("rapier2d", rapier::build),
    ("avian2d", avian::build),
    // Only when named; not a column of the main table (see `floor.rs`).
    (floor::NAME, floor::build),
];

/// The solver's stages as both Box2D v3 and physics_core report them (ms/step): set-up,
/// prepare, integrate (velocities and positions), warm start, solve, relax, restitution,
/// store; one line, to print under an engine's stage times.
pub(crate) fn solver_stages(ms: [f32; 8]) -> String {
    let [
        setup,
        prepare,
        integrate,
        warm,
        solve,
        relax,
        restitution,
        store,
    ] = ms;
    format!(
        "    solver: set-up {setup:.3}, prepare {prepare:.3}, integrate {integrate:.3}, warm \
         start {warm:.3}, solve {solve:.3}, relax {relax:.3}, restitution {restitution:.3}, \
         store {store:.3} ms/step"
    )
}
