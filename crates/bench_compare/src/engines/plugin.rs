//! bevy_physics2d in a headless App: one fixed step per update, no render interpolation, the
//! compute pool at `--threads` threads (one by default).

use super::{BodySample, Settings, Simulation};
use bevy_app::{App, PluginGroup};
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsInterpolationPlugin, PhysicsSettings};
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use bevy_transform::TransformPlugin;
use physics_core::world::StepProfile;
use physics2d_demos::{Scene, SpawnedScene, apply_scene_changes, spawn_scene};
use std::time::{Duration, Instant};

struct Plugin {
    app: App,
    /// The scene, for the groups its timeline creates and destroys.
    scene: Scene,
    /// The scene's entities, index-aligned with its descriptions.
    spawned: SpawnedScene,
    /// Stage times summed over the steps taken, from [`PhysicsDiagnostics`].
    stages: PluginStages,
    steps: u32,
}

/// Where a plugin step's time goes, summed over steps (milliseconds).
#[derive(Default)]
struct PluginStages {
    /// Components to core.
    prepare: f64,
    /// Broadphase, narrowphase, solver and integration: the core's own step.
    core: f64,
    /// Core to components and events.
    writeback: f64,
    /// The whole `App::update`, for the rest: Bevy's schedules, its transform propagation.
    update: f64,
    /// The core world's own profile (the plugin times the step's stages itself; the solver's
    /// stages come from here), to compare with the physics_core row's.
    core_stages: StepProfile,
}

/// The scene spawned as entities in a headless App.
pub fn build(scene: &Scene, settings: &Settings) -> Result<Box<dyn Simulation>, String> {
    let mut app = App::new();
    app.add_plugins((
        super::bevy_task_pools(),
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
        substeps: settings.substeps,
        exact_contact_island_bodies: settings.exact_contact_island_bodies,
        exact_joint_mass_ratio: settings
            .exact_joint_mass_ratio
            .unwrap_or(PhysicsSettings::default().exact_joint_mass_ratio),
        block_solver: settings
            .block_solver
            .unwrap_or(PhysicsSettings::default().block_solver),
        deeper_point_first: settings
            .deeper_point_first
            .unwrap_or(PhysicsSettings::default().deeper_point_first),
        points_together: settings
            .points_together
            .unwrap_or(PhysicsSettings::default().points_together),
        carried_mass_fraction: settings
            .carried_mass_fraction
            .unwrap_or(PhysicsSettings::default().carried_mass_fraction),
        enable_sleep: false,
        worker_threads: super::threads(),
        contact_lanes: settings.contact_lanes,
        ..PhysicsSettings::default()
    });
    let mut spawned = spawn_scene(&mut app.world_mut().commands(), scene);
    // The groups created before the first step.
    apply_scene_changes(&mut app.world_mut().commands(), scene, &mut spawned, 0);
    app.world_mut().flush();
    // Starts the clock; the next update takes the first step, which also creates the bodies.
    app.update();
    Ok(Box::new(Plugin {
        app,
        scene: scene.clone(),
        spawned,
        stages: PluginStages::default(),
        steps: 0,
    }))
}

impl Simulation for Plugin {
    fn step(&mut self) -> Result<(), String> {
        let before = self.app.world().resource::<PhysicsWorld>().step_count();
        let start = Instant::now();
        for _ in 0..4 {
            self.app.update();
            if self.app.world().resource::<PhysicsWorld>().step_count() > before {
                // The first step creates the bodies (the race leaves it untimed): not a
                // step's cost.
                // The groups the timeline changes before the next step, spawned now so that
                // step creates them (the core and Box2D create them inside their next step).
                let next = before as usize + 1;
                apply_scene_changes(
                    &mut self.app.world_mut().commands(),
                    &self.scene,
                    &mut self.spawned,
                    next,
                );
                self.app.world_mut().flush();
                if before == 0 {
                    return Ok(());
                }
                self.stages.update += start.elapsed().as_secs_f64() * 1000.0;
                let d = self.app.world().resource::<PhysicsDiagnostics>();
                self.stages.prepare += f64::from(d.prepare_ms);
                self.stages.core +=
                    f64::from(d.broadphase_ms + d.narrowphase_ms + d.solve_ms + d.integrate_ms);
                self.stages.writeback += f64::from(d.writeback_ms);
                self.stages.core_stages +=
                    *self.app.world().resource::<PhysicsWorld>().core().profile();
                self.steps += 1;
                return Ok(());
            }
        }
        Err("the App did not take a physics step".into())
    }

    fn stages(&self) -> Option<String> {
        let n = f64::from(self.steps.max(1));
        let s = &self.stages;
        let physics = s.prepare + s.core + s.writeback;
        Some(format!(
            "prepare {:.3}, core step {:.3}, writeback {:.3}, rest of the App update {:.3} ms/step\n{}",
            s.prepare / n,
            s.core / n,
            s.writeback / n,
            (s.update - physics) / n,
            super::core::solver_line(&s.core_stages, self.steps.max(1))
        ))
    }

    fn samples(&mut self) -> Vec<BodySample> {
        let world = self.app.world();
        self.spawned
            .bodies
            .iter()
            .map(|e| {
                let (Some(t), Some(v), Some(w)) = (
                    world.get::<Transform>(*e),
                    world.get::<LinearVelocity>(*e),
                    world.get::<AngularVelocity>(*e),
                ) else {
                    return BodySample::NAN;
                };
                BodySample {
                    position: t.translation.truncate(),
                    angle: t.rotation.to_euler(bevy_math::EulerRot::ZYX).0,
                    linear_velocity: v.0,
                    angular_velocity: w.0,
                }
            })
            .collect()
    }
}
