//! The physics world: the core `physics_core` world held as the [`PhysicsWorld`] resource
//! with the maps between entities and core ids, the [`PhysicsSettings`] applied to it, the
//! solve and integrate stages and the
//! [`PhysicsWarning`]s bad input gets. [`PhysicsWorldPlugin`] registers them.

pub(crate) mod diagnostics_store;
pub(crate) mod game_frame;
pub(crate) mod handle;
pub(crate) mod physics_world;
pub(crate) mod sent_events;
pub(crate) mod settings;
pub(crate) mod step;
pub(crate) mod threads;
pub(crate) mod warnings;

use crate::schedule::{PhysicsDiagnostics, PhysicsStageSchedule, PrepareSystems, WritebackSystems};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use physics_core::world::WorldDef;
pub use physics_world::PhysicsWorld;
pub use settings::PhysicsSettings;
pub use warnings::PhysicsWarning;

/// The [`PhysicsWorld`] resource built from [`PhysicsSettings`] (inserted with the defaults
/// when the app has none), the settings applied when they change, the solve and integrate
/// stages, and the [`PhysicsWarning`] message (part of [`PhysicsPlugins`](crate::PhysicsPlugins)).
#[derive(Default)]
pub struct PhysicsWorldPlugin;

impl Plugin for PhysicsWorldPlugin {
    fn build(&self, app: &mut App) {
        let settings = app
            .world_mut()
            .get_resource_or_insert_with(PhysicsSettings::default)
            .clone();
        let world = PhysicsWorld::new(settings.to_world_def()).unwrap_or_else(|error| {
            bevy_log::warn!("physics: settings rejected ({error}); using the defaults");
            PhysicsWorld::new(WorldDef::default()).expect("the default settings are valid")
        });
        app.insert_resource(world)
            .init_resource::<PhysicsDiagnostics>()
            .add_message::<PhysicsWarning>()
            .register_type::<PhysicsSettings>();
        app.add_systems(
            PhysicsStageSchedule::Prepare,
            settings::apply_settings.in_set(PrepareSystems::Settings),
        )
        .add_systems(PhysicsStageSchedule::Solve, step::solve)
        .add_systems(PhysicsStageSchedule::Integrate, step::integrate)
        .add_systems(
            PhysicsStageSchedule::Writeback,
            forget_retired_shapes
                .run_if(not(resource_exists::<RetiredShapesRead>))
                .in_set(WritebackSystems::Finish),
        );
    }
}

/// Present while a plugin reads the world's retired shapes (the collision events plugin,
/// which names the colliders of end events with them and then forgets them).
#[derive(Resource, Default)]
pub(crate) struct RetiredShapesRead;

/// Without a reader of the retired shapes nobody forgets them: they are forgotten here.
fn forget_retired_shapes(mut physics: ResMut<PhysicsWorld>) {
    if !physics.retired_shapes.is_empty() {
        physics.retired_shapes.clear();
    }
}
