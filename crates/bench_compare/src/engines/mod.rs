//! One adapter per engine: each builds a neutral [`Scene`] with the common settings (the
//! scene's time step, 4 substeps, sleeping off, one thread) and steps it.

mod avian;
mod box2d;
mod core;
mod plugin;
mod rapier;

use bevy_math::Vec2;
use physics2d_demos::Scene;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Substeps per step, for every engine.
pub const SUBSTEPS: u32 = 4;

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

/// The worker count set by [`set_threads`].
pub fn threads() -> usize {
    THREADS.load(Ordering::Relaxed)
}

/// A scene built in one engine.
pub trait Simulation {
    /// Advances one time step.
    fn step(&mut self) -> Result<(), String>;
    /// Body origins in the scene's description order.
    fn positions(&mut self) -> Vec<Vec2>;
    /// Mean time of each stage of a step, for engines that report one.
    fn stages(&self) -> Option<String> {
        None
    }
}

/// Builds a scene in one engine.
pub type Build = fn(&Scene) -> Result<Box<dyn Simulation>, String>;

/// The engines, in table order: the name of the column and how to build a scene in it.
pub const ENGINES: &[(&str, Build)] = &[
    ("Box2D v3", box2d::build),
    ("physics_core", core::build),
    ("bevy_physics2d", plugin::build),
    ("rapier2d", rapier::build),
    ("avian2d", avian::build),
];
