//! The floor under any Bevy plugin: physics_core stepped by one exclusive system of a headless
//! App that then copies each body's pose into its entity's `Transform`, the least a plugin
//! showing its bodies as `Transform`s can do. No components are read back, no events sent.
//! Like bevy_physics2d it turns Bevy's static-tree marking off while it moves many
//! `Transform`s and no entity has a parent (`bevy_physics2d::TreeMarking`), as Bevy advises
//! for worlds that mostly move.
//!
//! What this row costs over the physics_core row is Bevy's own: its schedules and executor,
//! and the change detection and transform propagation of the entities that moved. Only run
//! when named (`--engine bevy_floor`); its ratio to physics_core goes in the plugin table.

use super::{BodySample, Settings, Simulation};
use bevy_app::{App, FixedPostUpdate};
use bevy_ecs::entity::Entity;
use bevy_ecs::prelude::*;
use bevy_math::Quat;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use bevy_transform::TransformPlugin;
use bevy_transform::components::Transform;
use bevy_transform::systems::StaticTransformOptimizations;
use physics_core::parallel::WorkerThreads;
use physics_core::world::WorldDef;
use physics2d_demos::{ABSENT_BODY, BuiltScene, Scene};
use std::sync::Arc;
use std::time::Duration;

/// The core world and the entity of each scene body.
#[derive(Resource)]
struct FloorWorld {
    built: BuiltScene,
    scene: Scene,
    /// Steps taken.
    steps: usize,
    /// One entity per scene body, index-aligned with `built.bodies`.
    entities: Vec<Entity>,
    /// The last step's error, for `step` to return.
    error: Option<String>,
}

struct Floor {
    app: App,
}

/// The name `--engine` takes.
pub const NAME: &str = "bevy_floor";

/// The scene in a core world stepped inside a headless App, one entity per body.
pub fn build(scene: &Scene, settings: &Settings) -> Result<Box<dyn Simulation>, String> {
    let def = WorldDef {
        substep_count: settings.substeps,
        enable_sleep: false,
        ..WorldDef::default()
    };
    let mut built = scene.build(def).map_err(|e| e.to_string())?;
    built
        .world
        .set_task_runner(Arc::new(WorkerThreads::new(super::threads())));
    let mut app = App::new();
    app.add_plugins((super::bevy_task_pools(), TimePlugin, TransformPlugin));
    let dt = Duration::from_secs_f32(scene.dt);
    app.insert_resource(Time::<Fixed>::from_duration(dt));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(dt));
    let entities = scene
        .bodies
        .iter()
        .map(|desc| {
            let rotation = Quat::from_rotation_z(desc.angle);
            app.world_mut()
                .spawn(
                    Transform::from_translation(desc.position.extend(0.0)).with_rotation(rotation),
                )
                .id()
        })
        .collect();
    app.insert_resource(FloorWorld {
        built,
        scene: scene.clone(),
        steps: 0,
        entities,
        error: None,
    });
    app.add_systems(FixedPostUpdate, step_and_copy);
    // Starts the clock; the next update takes the first step.
    app.update();
    Ok(Box::new(Floor { app }))
}

/// One core step, then each present body's pose into its entity's `Transform` (written only
/// when it differs, as a plugin would).
fn step_and_copy(world: &mut World, transforms: &mut QueryState<&mut Transform>) {
    world.resource_scope(|world, mut floor: Mut<FloorWorld>| {
        let floor = &mut *floor;
        let step = floor.steps;
        if let Err(e) = floor.built.step_scene(&floor.scene, step) {
            floor.error = Some(e.to_string());
            return;
        }
        floor.steps += 1;
        let mut written = 0;
        let origin = bevy_physics2d::GameFrame::default();
        let mut transforms = transforms.query_mut(world);
        for (id, entity) in floor.built.bodies.iter().zip(&floor.entities) {
            if *id == ABSENT_BODY {
                continue;
            }
            let (Ok(xf), Ok(mut transform)) = (
                floor.built.world.body_transform(*id),
                transforms.get_mut(*entity),
            ) else {
                continue;
            };
            // The plugin's conversions: from its floating origin (here the world's, as the
            // plugin's rows have it), and a square root, no trigonometry.
            let p = origin.to_game(xf.p);
            let rotation = bevy_physics2d::quat_from_rot(xf.q);
            if transform.translation.truncate() != p || transform.rotation != rotation {
                transform.translation = p.extend(transform.translation.z);
                transform.rotation = rotation;
                written += 1;
            }
        }
        // The plugin's rule; no entity of this App has a parent.
        let marking = if bevy_physics2d::tree_marking_wanted(written, 0) {
            StaticTransformOptimizations::Enabled
        } else {
            StaticTransformOptimizations::Disabled
        };
        if *world.resource::<StaticTransformOptimizations>() != marking {
            world.insert_resource(marking);
        }
    });
}

impl Simulation for Floor {
    fn step(&mut self) -> Result<(), String> {
        let before = self.app.world().resource::<FloorWorld>().steps;
        for _ in 0..4 {
            self.app.update();
            let floor = self.app.world_mut().resource_mut::<FloorWorld>();
            if let Some(e) = floor.into_inner().error.take() {
                return Err(e);
            }
            if self.app.world().resource::<FloorWorld>().steps > before {
                return Ok(());
            }
        }
        Err("the App did not take a physics step".into())
    }

    fn samples(&mut self) -> Vec<BodySample> {
        super::core::samples_of(&self.app.world().resource::<FloorWorld>().built)
    }
}
