//! Headless runs: a scene stepped through the same plugin as the window, without rendering.
//! The workspace tests run every scene through [`run_scene`] too.

use bevy::app::{App, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::{TimePlugin, TimeUpdateStrategy};
use bevy::transform::TransformPlugin;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsDiagnostics, PhysicsSettings};
use physics2d_demos::{Scene, SceneTimeline, advance_scene_timeline, scene_settings, spawn_scene};
use std::time::Duration;

/// Averages and extremes over a headless run.
#[derive(Clone, Debug, Default)]
pub struct HeadlessReport {
    /// Steps taken.
    pub steps: u64,
    /// Bodies in the world at the end.
    pub bodies: usize,
    /// Awake bodies at the end.
    pub awake_bodies: usize,
    /// Joints at the end.
    pub joints: usize,
    /// Contact pairs at the end.
    pub contacts: usize,
    /// Mean ms per step of broadphase, narrowphase, solve, integrate.
    pub stage_ms: [f32; 4],
    /// The slowest step, ms.
    pub max_step_ms: f32,
    /// Dynamic bodies whose pose or velocity is not finite.
    pub non_finite_bodies: usize,
    /// Dynamic bodies that left the scene's bounds (see [`scene_bounds`]).
    pub escaped_bodies: usize,
}

/// How far (m) a dynamic body may go beyond the box around the scene's initial bodies before it
/// counts as fallen out of the world, in scenes that start at rest. A body falling through the
/// ground for the 300 steps of the sanity test drops over 100 m, and nothing in those scenes is
/// thrown further than 25 m in 5 s.
pub const ESCAPE_MARGIN: f32 = 25.0;

/// A headless App for `scene`: one fixed step of `scene.dt` per update.
pub fn scene_app(scene: &Scene, block_solver: bool) -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        TransformPlugin,
        PhysicsPlugins::default(),
    ));
    let dt = Duration::from_secs_f32(scene.dt);
    app.insert_resource(Time::<Fixed>::from_duration(dt));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(dt));
    app.insert_resource(PhysicsSettings {
        block_solver,
        ..scene_settings(scene)
    });
    let spawned = spawn_scene(&mut app.world_mut().commands(), scene);
    app.world_mut().flush();
    if !scene.timeline.is_empty() {
        app.insert_resource(SceneTimeline::new(scene.clone(), spawned));
        app.add_systems(FixedUpdate, advance_scene_timeline);
    }
    // The first update starts the clock without stepping.
    app.update();
    app
}

/// Steps `scene` `steps` times. `each_second` sees the App once per simulated second.
pub fn run_scene(
    scene: &Scene,
    steps: u64,
    block_solver: bool,
    mut each_second: impl FnMut(&mut App, u64),
) -> HeadlessReport {
    let mut app = scene_app(scene, block_solver);
    let per_second = (1.0 / scene.dt).round().max(1.0) as u64;
    let mut report = HeadlessReport::default();
    let mut sums = [0.0f32; 4];
    let mut guard = 0;
    while report.steps < steps && guard < 10 * steps + 10 {
        app.update();
        guard += 1;
        let taken = app.world().resource::<PhysicsWorld>().step_count();
        if taken == report.steps {
            continue;
        }
        report.steps = taken;
        let d = app.world().resource::<PhysicsDiagnostics>();
        let stages = [
            d.broadphase_ms,
            d.narrowphase_ms,
            d.solve_ms,
            d.integrate_ms,
        ];
        for (sum, ms) in sums.iter_mut().zip(stages) {
            *sum += ms;
        }
        report.max_step_ms = report.max_step_ms.max(stages.iter().sum());
        if taken.is_multiple_of(per_second) {
            each_second(&mut app, taken);
        }
    }
    let d = app.world().resource::<PhysicsDiagnostics>().clone();
    report.bodies = d.bodies;
    report.awake_bodies = d.awake_bodies;
    report.joints = d.joints;
    report.contacts = d.contacts;
    report.stage_ms = sums.map(|s| s / report.steps.max(1) as f32);
    let (min, max) = scene_bounds(scene, report.steps as f32 * scene.dt);
    let mut bodies = app
        .world_mut()
        .query::<(&RigidBody, &Transform, &LinearVelocity, &AngularVelocity)>();
    for (body, transform, v, w) in bodies.iter(app.world()) {
        if *body != RigidBody::Dynamic {
            continue;
        }
        let p = transform.translation.truncate();
        if !(p.is_finite() && transform.rotation.is_finite() && v.0.is_finite() && w.0.is_finite())
        {
            report.non_finite_bodies += 1;
        } else if p.cmplt(min).any() || p.cmpgt(max).any() {
            report.escaped_bodies += 1;
        }
    }
    report
}

/// Where the dynamic bodies may be after `seconds`: the box around the scene's initial body
/// positions and static shapes, grown by [`ESCAPE_MARGIN`] plus the distance covered at twice the fastest initial
/// speed (a light body struck by a heavy one leaves at no more than twice the striker's
/// speed), so projectiles scattering debris in zero gravity do not count as escaping.
pub fn scene_bounds(scene: &Scene, seconds: f32) -> (Vec2, Vec2) {
    let (min, max) = scene.world_bounds();
    let fastest = scene
        .bodies
        .iter()
        .map(|b| b.linear_velocity.length())
        .fold(0.0, f32::max);
    let margin = ESCAPE_MARGIN + 2.0 * fastest * seconds;
    (min - margin, max + margin)
}

/// The testbed's `--headless` mode: prints a row a simulated second, then the averages.
pub fn print_run(scene: &Scene, steps: u64, block_solver: bool) -> bool {
    println!(
        "scene {} ({} bodies, {} dynamic, {} joints): {steps} steps of {:.4} s, {} solver",
        scene.name,
        scene.bodies.len(),
        scene.dynamic_count(),
        scene.joints.len(),
        scene.dt,
        if block_solver {
            "block"
        } else {
            "points together"
        }
    );
    println!("     t  awake  contacts  touching  joints  broad ms  narrow ms  solve ms  integr ms");
    let report = run_scene(scene, steps, block_solver, |app, step| {
        let d = app.world().resource::<PhysicsDiagnostics>();
        println!(
            "{:6.1} {:6} {:9} {:9} {:7} {:9.3} {:10.3} {:9.3} {:10.3}",
            step as f32 * scene.dt,
            d.awake_bodies,
            d.contacts,
            d.touching,
            d.joints,
            d.broadphase_ms,
            d.narrowphase_ms,
            d.solve_ms,
            d.integrate_ms
        );
    });
    let [broad, narrow, solve, integrate] = report.stage_ms;
    println!(
        "mean ms per step: broadphase {broad:.3}, narrowphase {narrow:.3}, solve {solve:.3}, \
         integrate {integrate:.3}; slowest step {:.3} ms",
        report.max_step_ms
    );
    let sane = report.non_finite_bodies == 0 && report.escaped_bodies == 0;
    println!(
        "{} steps, {} bodies ({} awake): {}",
        report.steps,
        report.bodies,
        report.awake_bodies,
        if sane {
            "all finite, all inside the scene bounds".to_string()
        } else {
            format!(
                "{} non-finite and {} escaped bodies",
                report.non_finite_bodies, report.escaped_bodies
            )
        }
    );
    sane
}
