//! A game's run recorded through the plugin: every change the plugin makes to the core world
//! from components and messages, and every step, replays to the same bits.

mod support;

use bevy_ecs::prelude::*;
use bevy_physics2d::PhysicsWorld;
use bevy_physics2d::prelude::*;

/// A ground, a stack, balls spawned and despawned, velocities set, a joint added and
/// removed, and a body switched to kinematic, over 240 frames with recording from frame 30;
/// the replay of the recording ends in the core world's state, bit for bit.
#[test]
fn a_recorded_plugin_run_replays_to_the_core_worlds_bits() {
    let mut app = support::app();
    support::ground_20m(&mut app);
    let boxes: Vec<Entity> = (0..6)
        .map(|k| support::spawn_box(&mut app, 0.2 * (k % 2) as f32, 0.5 + k as f32))
        .collect();
    support::step(&mut app, 30);
    app.world_mut()
        .resource_mut::<PhysicsWorld>()
        .start_recording();
    let mut balls = Vec::new();
    let mut joint = None;
    for frame in 0..240 {
        let world = app.world_mut();
        if frame % 20 == 0 {
            let x = -4.0 + 0.5 * (frame / 20) as f32;
            let ball = world
                .spawn((
                    RigidBody::Dynamic,
                    Collider::circle(0.3),
                    Transform::from_xyz(x, 8.0, 0.0),
                ))
                .id();
            balls.push(ball);
        }
        if frame % 50 == 25 && balls.len() > 2 {
            let gone = balls.remove(0);
            world.despawn(gone);
        }
        if frame == 60 {
            world.get_mut::<LinearVelocity>(boxes[5]).unwrap().0 = Vec2::new(3.0, 2.0);
        }
        if frame == 90 {
            let pin = Joint::revolute(boxes[4], boxes[5]);
            joint = Some(world.spawn(pin).id());
        }
        if frame == 150 {
            world.despawn(joint.take().unwrap());
            world.entity_mut(boxes[0]).insert(RigidBody::Kinematic);
            world.get_mut::<LinearVelocity>(boxes[0]).unwrap().0 = Vec2::new(0.5, 0.0);
        }
        support::step(&mut app, 1);
    }
    let mut physics = app.world_mut().resource_mut::<PhysicsWorld>();
    let recording = physics.stop_recording().expect("a recording");
    assert_eq!(recording.step_count(), 240);
    let replayed = recording.replay().unwrap();
    assert_eq!(replayed.state_hash(), physics.core().state_hash());
    assert_eq!(replayed.body_count(), physics.core().body_count());
    // Halfway through, the replay is elsewhere: the run moved.
    let halfway = recording.replay_steps(120).unwrap();
    assert_ne!(halfway.state_hash(), physics.core().state_hash());
}
