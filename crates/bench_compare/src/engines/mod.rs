//! One adapter per engine: each builds a neutral [`Scene`] with the common settings (the
//! scene's time step, 4 substeps, sleeping off, one thread) and steps it.

mod avian;
mod box2d;
mod core;
mod plugin;
mod rapier;

use bevy_math::Vec2;
use physics2d_demos::Scene;

/// Substeps per step, for every engine.
pub const SUBSTEPS: u32 = 4;

/// A scene built in one engine.
pub trait Simulation {
    /// Advances one time step.
    fn step(&mut self) -> Result<(), String>;
    /// Body origins in the scene's description order.
    fn positions(&mut self) -> Vec<Vec2>;
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
