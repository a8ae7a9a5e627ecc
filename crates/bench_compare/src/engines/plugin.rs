//! bevy_physics2d in a headless App: one fixed step per update, no render interpolation, the
//! task pools at one thread.

use super::{SUBSTEPS, Simulation};
use bevy_app::{App, PluginGroup, TaskPoolOptions, TaskPoolPlugin};
use bevy_ecs::entity::Entity;
use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsInterpolationPlugin, PhysicsSettings};
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use bevy_transform::TransformPlugin;
use physics2d_demos::{Scene, spawn_scene};
use std::time::Duration;

struct Plugin {
    app: App,
    bodies: Vec<Entity>,
}

/// The scene spawned as entities in a headless App.
pub fn build(scene: &Scene) -> Result<Box<dyn Simulation>, String> {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(1),
        },
        TimePlugin,
        TransformPlugin,
        PhysicsPlugins::default()
            .build()
            .disable::<PhysicsInterpolationPlugin>(),
    ));
    let dt = Duration::from_secs_f32(scene.dt);
    app.insert_resource(Time::<Fixed>::from_duration(dt));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(dt));
    app.insert_resource(PhysicsSettings {
        gravity: scene.gravity,
        substeps: SUBSTEPS,
        enable_sleep: false,
        worker_threads: super::threads(),
        ..PhysicsSettings::default()
    });
    let spawned = spawn_scene(&mut app.world_mut().commands(), scene);
    app.world_mut().flush();
    // Starts the clock; the next update takes the first step, which also creates the bodies.
    app.update();
    Ok(Box::new(Plugin {
        app,
        bodies: spawned.bodies,
    }))
}

impl Simulation for Plugin {
    fn step(&mut self) -> Result<(), String> {
        let before = self.app.world().resource::<PhysicsWorld>().step_count();
        for _ in 0..4 {
            self.app.update();
            if self.app.world().resource::<PhysicsWorld>().step_count() > before {
                return Ok(());
            }
        }
        Err("the App did not take a physics step".into())
    }

    fn positions(&mut self) -> Vec<Vec2> {
        let world = self.app.world();
        self.bodies
            .iter()
            .map(|e| {
                world
                    .get::<Transform>(*e)
                    .map_or(Vec2::NAN, |t| t.translation.truncate())
            })
            .collect()
    }
}
