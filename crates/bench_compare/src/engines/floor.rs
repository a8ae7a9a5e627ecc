//! The floor under any Bevy plugin: physics_core stepped by one exclusive system of a headless
//! App that then copies each body's pose into its entity's `Transform`, the least a plugin
//! showing its bodies as `Transform`s can do. No components are read back, no events sent.
//! A body with several shapes, or one off its origin, has one child entity per shape, as the
//! plugin's scene spawner gives it (they never move). Like bevy_physics2d it turns Bevy's
//! static-tree marking off while it moves many more `Transform`s than there are children
//! (`bevy_physics2d::TreeMarking`), as Bevy advises for worlds that mostly move.
//!
//! What this row costs over the physics_core row is Bevy's own: its schedules and executor,
//! and the change detection and transform propagation of the same entities. Its stage line
//! splits a step into the core step, the pose copy and the rest of the App update. Only run
//! when named (`--engine bevy_floor`); its ratio to physics_core goes in the plugin table.

use super::{BodySample, Settings, Simulation};
use bevy_app::{App, FixedPostUpdate};
use bevy_ecs::entity::Entity;
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_math::Quat;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use bevy_transform::TransformPlugin;
use bevy_transform::components::Transform;
use bevy_transform::systems::StaticTransformOptimizations;
use physics_core::parallel::WorkerThreads;
use physics_core::world::WorldDef;
use physics2d_demos::{ABSENT_BODY, BuiltScene, Scene, placed_shapes};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The core world and the entity of each scene body.
#[derive(Resource)]
struct FloorWorld {
    built: BuiltScene,
    scene: Scene,
    /// Steps taken.
    steps: usize,
    /// One entity per scene body, index-aligned with `built.bodies`.
    entities: Vec<Entity>,
    /// Entities with a parent: the bodies' shape children.
    parented: usize,
    /// The last step's error, for `step` to return.
    error: Option<String>,
    /// Milliseconds of the last core step.
    core_ms: f64,
    /// Milliseconds of the last pose copy (with the tree-marking choice).
    copy_ms: f64,
}

struct Floor {
    app: App,
    /// Milliseconds summed over the timed steps: the core steps, the pose copies, and whole
    /// App updates (the rest of an update is Bevy's own: its schedules, executor and
    /// transform propagation).
    core_ms: f64,
    copy_ms: f64,
    update_ms: f64,
    /// Timed steps.
    steps: u32,
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
    // One entity per body, and below it the same hierarchy as the plugin's scene spawner
    // gives it: one child entity per shape when the body has several, or one off its origin.
    // They never move, but Bevy's transform propagation walks them as it does the plugin's.
    let mut parented = 0;
    let mut entities = Vec::with_capacity(scene.bodies.len());
    for desc in &scene.bodies {
        let rotation = Quat::from_rotation_z(desc.angle);
        let body = app
            .world_mut()
            .spawn(Transform::from_translation(desc.position.extend(0.0)).with_rotation(rotation))
            .id();
        let (placed, on_body) = placed_shapes(desc);
        if !on_body {
            for (_, local, _) in placed {
                app.world_mut().spawn((local, ChildOf(body)));
                parented += 1;
            }
        }
        entities.push(body);
    }
    app.insert_resource(FloorWorld {
        built,
        scene: scene.clone(),
        steps: 0,
        entities,
        parented,
        error: None,
        core_ms: 0.0,
        copy_ms: 0.0,
    });
    app.add_systems(FixedPostUpdate, step_and_copy);
    // Starts the clock; the next update takes the first step.
    app.update();
    Ok(Box::new(Floor {
        app,
        core_ms: 0.0,
        copy_ms: 0.0,
        update_ms: 0.0,
        steps: 0,
    }))
}

/// One core step, then each present body's pose into its entity's `Transform` (written only
/// when it differs, as a plugin would).
fn step_and_copy(world: &mut World, transforms: &mut QueryState<&mut Transform>) {
    world.resource_scope(|world, mut floor: Mut<FloorWorld>| {
        let floor = &mut *floor;
        let step = floor.steps;
        let start = Instant::now();
        if let Err(e) = floor.built.step_scene(&floor.scene, step) {
            floor.error = Some(e.to_string());
            return;
        }
        let copy_start = Instant::now();
        floor.core_ms = (copy_start - start).as_secs_f64() * 1000.0;
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
        // The plugin's rule.
        let marking = if bevy_physics2d::tree_marking_wanted(written, floor.parented) {
            StaticTransformOptimizations::Enabled
        } else {
            StaticTransformOptimizations::Disabled
        };
        if *world.resource::<StaticTransformOptimizations>() != marking {
            world.insert_resource(marking);
        }
        floor.copy_ms = copy_start.elapsed().as_secs_f64() * 1000.0;
    });
}

impl Simulation for Floor {
    fn step(&mut self) -> Result<(), String> {
        let before = self.app.world().resource::<FloorWorld>().steps;
        let start = Instant::now();
        for _ in 0..4 {
            self.app.update();
            let floor = self.app.world_mut().resource_mut::<FloorWorld>();
            let floor = floor.into_inner();
            if let Some(e) = floor.error.take() {
                return Err(e);
            }
            if floor.steps > before {
                // The race leaves the first step untimed; so do these sums.
                if before == 0 {
                    return Ok(());
                }
                self.update_ms += start.elapsed().as_secs_f64() * 1000.0;
                self.core_ms += floor.core_ms;
                self.copy_ms += floor.copy_ms;
                self.steps += 1;
                return Ok(());
            }
        }
        Err("the App did not take a physics step".into())
    }

    fn stages(&self) -> Option<String> {
        let n = f64::from(self.steps.max(1));
        Some(format!(
            "core step {:.3}, pose copy {:.3}, rest of the App update {:.3} ms/step",
            self.core_ms / n,
            self.copy_ms / n,
            (self.update_ms - self.core_ms - self.copy_ms) / n
        ))
    }

    fn samples(&mut self) -> Vec<BodySample> {
        super::core::samples_of(&self.app.world().resource::<FloorWorld>().built)
    }
}
