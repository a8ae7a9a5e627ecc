//! The plugin on Bevy's multi-threaded executor, as games on Bevy's default features run it,
//! reaches the bits the single-threaded executor reaches: the golden-hash scenes spawned as
//! entities, stepped 240 times in an App whose schedules run on two pool threads and in one
//! whose every schedule runs single-threaded, give the same world hash. (This package's tests
//! build Bevy with `multi_threaded`, so a schedule's default executor is the multi-threaded
//! one; its own test binary, so this file alone sizes the global pools.)

use bevy::app::{App, PluginGroup, TaskPoolOptions, TaskPoolPlugin};
use bevy::ecs::schedule::{Schedules, SingleThreadedExecutor};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsInterpolationPlugin, PhysicsSettings};
use physics2d_demos::{apply_scene_changes, scene, spawn_scene};
use std::time::Duration;

/// Four seconds at 60 Hz, as the core's golden hashes.
const STEPS: usize = 240;

/// Two compute threads whatever the machine has.
fn task_pools() -> TaskPoolPlugin {
    let mut options = TaskPoolOptions::with_num_threads(4);
    options.compute.min_threads = 2;
    options.compute.max_threads = 2;
    TaskPoolPlugin {
        task_pool_options: options,
    }
}

/// The world hash of scene `name` after `STEPS` plugin steps, every schedule of the App on
/// the single-threaded executor when `single_threaded`.
fn plugin_hash(name: &str, single_threaded: bool) -> u64 {
    let scene = scene(name).unwrap();
    let mut app = App::new();
    app.add_plugins((
        task_pools(),
        bevy::time::TimePlugin,
        bevy::transform::TransformPlugin,
        PhysicsPlugins::default()
            .build()
            .disable::<PhysicsInterpolationPlugin>(),
    ));
    let dt = Duration::from_secs_f32(scene.dt);
    app.insert_resource(Time::<Fixed>::from_duration(dt))
        .insert_resource(TimeUpdateStrategy::ManualDuration(dt))
        .insert_resource(PhysicsSettings {
            worker_threads: 0,
            ..physics2d_demos::scene_settings(&scene)
        });
    app.finish();
    app.cleanup();
    if single_threaded {
        for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
            schedule.set_executor(SingleThreadedExecutor::new());
        }
    }
    let mut spawned = spawn_scene(&mut app.world_mut().commands(), &scene);
    apply_scene_changes(&mut app.world_mut().commands(), &scene, &mut spawned, 0);
    app.world_mut().flush();
    // Starts the clock; each later update takes one step.
    app.update();
    for step in 0..STEPS {
        app.update();
        apply_scene_changes(
            &mut app.world_mut().commands(),
            &scene,
            &mut spawned,
            step + 1,
        );
        app.world_mut().flush();
    }
    let physics = app.world().resource::<PhysicsWorld>();
    assert_eq!(
        physics.step_count(),
        STEPS as u64,
        "{name}: one step per update"
    );
    physics.core().state_hash()
}

#[test]
fn the_multi_threaded_executor_reaches_the_single_threaded_bits() {
    task_pools().task_pool_options.create_default_pools();
    assert_eq!(bevy::tasks::ComputeTaskPool::get().thread_num(), 2);
    for name in ["bridge", "ragdoll", "rope", "car", "pyramid", "shape_rain"] {
        let multi = plugin_hash(name, false);
        let single = plugin_hash(name, true);
        assert_eq!(
            multi, single,
            "{name}: {multi:#018x} against {single:#018x}"
        );
    }
}
