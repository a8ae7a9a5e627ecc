//! The plugin steps on Bevy's `ComputeTaskPool`: the same bits with one worker as with three,
//! and on four contact lanes as on eight. (Its own test binary, so this file alone sizes the
//! global pool.)

mod support;

use bevy_physics2d::prelude::*;
use bevy_physics2d::{ComputeTaskPoolRunner, PhysicsSettings, PhysicsWorld};
use bevy_tasks::{ComputeTaskPool, TaskPoolBuilder};
use physics_core::parallel::TaskRunner;

/// A 14-row pyramid of boxes on a ground and a column of balls dropped on it, stepped
/// `steps` times with `worker_threads` on `contact_lanes`; every body's transform and
/// velocity as bits.
fn run(worker_threads: usize, contact_lanes: ContactLanes, steps: u64) -> Vec<u32> {
    let mut app = support::app();
    app.insert_resource(PhysicsSettings {
        worker_threads,
        contact_lanes,
        ..PhysicsSettings::default()
    });
    let world = app.world_mut();
    world.spawn((
        RigidBody::Static,
        Collider::rectangle(60.0, 2.0),
        Transform::from_xyz(0.0, -1.0, 0.0),
    ));
    let mut bodies = Vec::new();
    for row in 0..14 {
        for i in 0..14 - row {
            let x = (i as f32 - (13 - row) as f32 * 0.5) * 1.05;
            let y = 0.5 + row as f32;
            bodies.push(
                world
                    .spawn((
                        RigidBody::Dynamic,
                        Collider::rectangle(1.0, 1.0),
                        Transform::from_xyz(x, y, 0.0),
                    ))
                    .id(),
            );
        }
    }
    for k in 0..30 {
        let p = Transform::from_xyz(-4.0 + 0.3 * k as f32, 18.0 + k as f32, 0.0);
        bodies.push(
            world
                .spawn((RigidBody::Dynamic, Collider::circle(0.3), p))
                .id(),
        );
    }
    support::step(&mut app, steps);
    let core_lanes = app
        .world()
        .resource::<PhysicsWorld>()
        .core()
        .contact_lanes();
    assert_eq!(
        core_lanes,
        contact_lanes.resolve(),
        "the setting reached the core world"
    );
    let world = app.world();
    let mut bits = Vec::new();
    for e in bodies {
        let t = world.get::<Transform>(e).unwrap();
        let v = world.get::<LinearVelocity>(e).unwrap();
        let w = world.get::<AngularVelocity>(e).unwrap();
        let floats = [
            t.translation.x,
            t.translation.y,
            t.rotation.z,
            t.rotation.w,
            v.0.x,
            v.0.y,
            w.0,
        ];
        bits.extend(floats.iter().map(|f| f.to_bits()));
    }
    bits
}

/// The pool of three threads every test of this binary runs on.
fn three_thread_pool() {
    ComputeTaskPool::get_or_init(|| TaskPoolBuilder::new().num_threads(3).build());
}

#[test]
fn one_worker_and_three_give_the_same_bits() {
    three_thread_pool();
    // The runner the plugin installs really has three workers here.
    assert_eq!(ComputeTaskPoolRunner::new(0).worker_count(), 3);
    assert_eq!(ComputeTaskPoolRunner::new(1).worker_count(), 1);
    let one = run(1, ContactLanes::Detect, 120);
    let three = run(0, ContactLanes::Detect, 120);
    let first_difference = one.iter().zip(&three).position(|(a, b)| a != b);
    assert_eq!(first_difference, None, "float {first_difference:?} differs");
    // And the pyramid stood: the state is not trivially equal because nothing moved.
    assert!(one.iter().any(|&b| b != 0));
}

/// `PhysicsSettings::contact_lanes` reaches the core world, and four lanes step to the bits
/// eight give (where the processor has AVX2; elsewhere the detected path is four already).
#[test]
fn four_contact_lanes_and_the_detected_path_give_the_same_bits() {
    three_thread_pool();
    let four = run(0, ContactLanes::Four, 120);
    let detected = run(0, ContactLanes::Detect, 120);
    let first_difference = four.iter().zip(&detected).position(|(a, b)| a != b);
    assert_eq!(first_difference, None, "float {first_difference:?} differs");
}
