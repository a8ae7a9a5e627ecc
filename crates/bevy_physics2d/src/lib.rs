//! # bevy_physics2d
//!
//! The Bevy plugin over `physics_core`. This first version sets up the schedule the physics
//! stages will run in: [`PhysicsSystems`], chained in `FixedPostUpdate`, so user systems can
//! already be ordered against the stages. Components, the world resource and debug drawing
//! arrive with the plugin work.

mod schedule;

pub use physics_core;
pub use schedule::{PhysicsPlugins, PhysicsSchedulePlugin, PhysicsSystems};

/// The types most programs need.
pub mod prelude {
    pub use crate::{PhysicsPlugins, PhysicsSchedulePlugin, PhysicsSystems};
}
