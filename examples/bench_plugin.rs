//! What the Bevy plugin costs on top of the bare core: one scene stepped by a bare
//! `physics_core::World` and by headless Apps (with and without transform interpolation) in
//! the same process, interleaved in short blocks so machine drift hits all alike.
//!
//! ```sh
//! cargo run --release --example bench_plugin                         # large_pyramid
//! cargo run --release --example bench_plugin -- --scene many_pyramids --steps 200
//! ```
//! Scenes with joints are not supported here (the plugin's joints are built from entities).

use bevy_app::prelude::*;
use bevy_physics2d::prelude::*;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use physics2d_demos::physics_core::body::BodyType;
use physics2d_demos::physics_core::world::WorldDef;
use physics2d_demos::{Scene, scene};
use std::time::{Duration, Instant};

const BLOCK: usize = 25;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut name = "large_pyramid".to_string();
    let mut steps = None;
    for pair in args.chunks(2) {
        match (pair[0].as_str(), pair.get(1)) {
            ("--scene", Some(v)) => name = v.clone(),
            ("--steps", Some(v)) => steps = v.parse().ok(),
            _ => {
                eprintln!("usage: bench_plugin [--scene NAME] [--steps N]");
                std::process::exit(2);
            }
        }
    }
    let Some(scene) = scene(&name) else {
        eprintln!("unknown scene {name}");
        std::process::exit(2);
    };
    if !scene.joints.is_empty() {
        eprintln!("{name} has joints; this benchmark builds bodies and colliders only");
        std::process::exit(2);
    }
    let steps = steps.unwrap_or(scene.steps);
    let def = WorldDef {
        enable_sleep: false,
        ..WorldDef::default()
    };
    let mut core = scene.build(def).expect("scene builds").world;
    let mut apps = [app_for(&scene, &def, true), app_for(&scene, &def, false)];
    let mut times = [0.0f64; 3];
    // Prepare and writeback time of the first App, summed over its steps.
    let mut glue_ms = [0.0f64; 2];
    let mut done = 0;
    while done < steps {
        let n = BLOCK.min(steps - done);
        let t = Instant::now();
        for _ in 0..n {
            core.step(scene.dt).expect("valid step");
        }
        times[0] += t.elapsed().as_secs_f64();
        for (i, app) in apps.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..n {
                app.update();
                if i == 0 {
                    let d = app.world().resource::<PhysicsDiagnostics>();
                    glue_ms[0] += d.prepare_ms as f64;
                    glue_ms[1] += d.writeback_ms as f64;
                }
            }
            times[i + 1] += t.elapsed().as_secs_f64();
        }
        done += n;
    }
    // The worlds must agree, or the comparison is of different work.
    for app in &apps {
        let physics = app.world().resource::<PhysicsWorld>();
        assert_eq!(
            physics.step_count() as usize,
            steps,
            "one fixed step per update"
        );
        assert_eq!(physics.core().body_count(), core.body_count());
    }
    let ms = times.map(|t| 1000.0 * t / steps as f64);
    println!(
        "| scene | bodies | steps | core ms/step | app ms/step | app/core | app, no interpolation | ratio |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    println!(
        "| {name} | {} | {steps} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
        core.body_count(),
        ms[0],
        ms[1],
        ms[1] / ms[0],
        ms[2],
        ms[2] / ms[0]
    );
    println!(
        "\nplugin stages per step: prepare {:.3} ms, writeback {:.3} ms; the rest of the gap is \
         the App's own frame (schedules, transform propagation, interpolation)",
        glue_ms[0] / steps as f64,
        glue_ms[1] / steps as f64
    );
}

/// A headless App with the scene spawned as entities, one fixed step per update.
fn app_for(scene: &Scene, def: &WorldDef, interpolation: bool) -> App {
    let mut app = App::new();
    let mut plugins = PhysicsPlugins::default().build();
    if !interpolation {
        plugins = plugins.disable::<bevy_physics2d::PhysicsInterpolationPlugin>();
    }
    let mut settings = PhysicsSettings::from_world_def(def);
    settings.gravity = scene.gravity;
    app.insert_resource(settings);
    app.add_plugins((
        bevy_app::TaskPoolPlugin::default(),
        TimePlugin,
        bevy_transform::TransformPlugin,
        plugins,
    ));
    let dt = Duration::from_secs_f32(scene.dt);
    app.insert_resource(Time::<Fixed>::from_duration(dt));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(dt));
    for body in &scene.bodies {
        let kind = match body.body_type {
            BodyType::Static => RigidBody::Static,
            BodyType::Kinematic => RigidBody::Kinematic,
            BodyType::Dynamic => RigidBody::Dynamic,
        };
        let transform = Transform::from_xyz(body.position.x, body.position.y, 0.0)
            .with_rotation(bevy_math::Quat::from_rotation_z(body.angle));
        let mut entity = app.world_mut().spawn((
            kind,
            transform,
            LinearVelocity(body.linear_velocity),
            AngularVelocity(body.angular_velocity),
        ));
        for shape in &body.shapes {
            let (collider, at) = Collider::from_core_shape(&shape.shape);
            let materials = (
                collider,
                ColliderDensity(shape.density),
                Friction(shape.friction),
                Restitution(shape.restitution),
                CollisionLayers::new(shape.filter.category_bits, shape.filter.mask_bits)
                    .with_group(shape.filter.group_index),
            );
            if at == physics2d_demos::physics_core::math::Transform::IDENTITY
                && body.shapes.len() == 1
            {
                entity.insert(materials);
            } else {
                let place = Transform::from_xyz(at.p.x, at.p.y, 0.0)
                    .with_rotation(bevy_physics2d::quat_from_rot(at.q));
                entity.with_child((materials, place));
            }
        }
    }
    // The first update starts the clock and builds the world without stepping it.
    app.update();
    app
}
