//! The rollback example under a GGRS `SyncTestSession`: every frame the session loads the
//! state of `CHECK_DISTANCE` frames ago, resimulates, and compares checksums of every body's
//! transform and velocity (and the core's state hash) with the first run.

#![allow(dead_code)]

#[path = "../examples/rollback_ggrs.rs"]
mod rollback_ggrs;

use bevy::app::TaskPoolPlugin;
use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::time::{TimePlugin, TimeUpdateStrategy};
use bevy::transform::TransformPlugin;
use bevy_ggrs::prelude::*;
use bevy_ggrs::{LoadWorld, LoadWorldSystems, RollbackEntityMap, RollbackFrameCount};
use bevy_physics2d::physics_core::id::BodyId;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{CollisionEventsEnabled, CollisionStart, PhysicsBody, PhysicsWorld};
use rollback_ggrs::{CHECK_DISTANCE, Mismatches, Player};
use std::time::Duration;

/// Times the session loaded a saved frame (not rolled back itself).
#[derive(Resource, Default)]
struct Loads(u32);

/// The example in a window-less App, one GGRS frame per update.
fn headless() -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        TransformPlugin,
        InputPlugin,
    ))
    .add_plugins(rollback_ggrs::example)
    .insert_resource(rollback_ggrs::sync_test_session(CHECK_DISTANCE))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_nanos(
        16_666_667,
    )))
    .init_resource::<Loads>()
    .add_systems(LoadWorld, |mut loads: ResMut<Loads>| loads.0 += 1);
    app
}

/// Runs `frames` updates with the player's keys scripted: right for a second, a jump, left
/// for a second and a half, a jump, then nothing.
fn play(app: &mut App, frames: u32) -> Vec<Vec2> {
    let mut player_path = Vec::new();
    for frame in 0..frames {
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        keys.release_all();
        match frame % 300 {
            0..60 => keys.press(KeyCode::KeyD),
            60..64 | 160..164 => keys.press(KeyCode::Space),
            70..160 => keys.press(KeyCode::KeyA),
            _ => {}
        }
        app.update();
        let mut player = app.world_mut().query_filtered::<&Transform, With<Player>>();
        player_path.push(player.single(app.world()).unwrap().translation.truncate());
    }
    player_path
}

fn box_heights(app: &mut App) -> Vec<f32> {
    let mut query = app
        .world_mut()
        .query_filtered::<(&RigidBody, &Transform), Without<Player>>();
    query
        .iter(app.world())
        .filter(|(body, _)| **body == RigidBody::Dynamic)
        .map(|(_, t)| t.translation.y)
        .collect()
}

#[test]
fn sync_test_resimulates_every_frame_without_a_mismatch() {
    let mut app = headless();
    app.update();
    let start_heights = box_heights(&mut app);
    let path = play(&mut app, 420);

    let mismatches = &app.world().resource::<Mismatches>().0;
    assert!(mismatches.is_empty(), "mismatched frames: {mismatches:?}");
    let checksum = app.world().get_resource::<Checksum>().map(|c| c.0);
    assert!(
        checksum.is_some_and(|c| c != 0),
        "no checksum: {checksum:?}"
    );
    // The test means something only if rollbacks happened and the world moved.
    let frames = app.world().resource::<RollbackFrameCount>().0;
    let loads = app.world().resource::<Loads>().0;
    assert!(frames >= 400, "only {frames} GGRS frames ran");
    assert!(
        loads as i32 >= frames - CHECK_DISTANCE as i32 - 2,
        "{loads} rollbacks in {frames} frames"
    );
    let heights = box_heights(&mut app);
    assert_eq!(heights.len(), 40);
    let fall: f32 = start_heights.iter().zip(&heights).map(|(a, b)| a - b).sum();
    assert!(
        fall / 40.0 > 1.0,
        "the boxes fell {} m on average",
        fall / 40.0
    );
    // Input drove the ball: right first (from x = -10 at up to 6 m/s), then back left.
    let rightmost = path.iter().map(|p| p.x).fold(f32::MIN, f32::max);
    assert!(rightmost > -7.0, "the ball only got to x = {rightmost}");
    // A jump leaves at 7 m/s, or, when a box has landed on the ball and rides on it (as it
    // may: the boxes fall around the ball's path), the pair leaves at 7 x 0.785 / 1.785 =
    // 3.1 m/s and rises about a third of a metre in the ten frames after the key. Without
    // the key the ball rises a fraction of a millimetre in those frames (measured).
    let jumped = [60, 160]
        .map(|k| path[k + 10].y - path[k].y)
        .into_iter()
        .fold(f32::MIN, f32::max);
    assert!(jumped > 0.25, "the ball never jumped (rose {jumped} m)");
    assert!(
        path[159].x < path[69].x - 1.0,
        "left did not move the ball left"
    );
}

/// A kick counted by a `Local` (which rollback does not restore) lands on different frames in
/// the first run and the resimulation; the checksums must see it.
#[test]
fn sync_test_notices_state_outside_the_rollback_set() {
    let mut app = headless();
    app.add_systems(
        GgrsSchedule,
        (|mut runs: Local<u32>, mut players: Query<&mut LinearVelocity, With<Player>>| {
            *runs += 1;
            if runs.is_multiple_of(45) {
                for mut velocity in &mut players {
                    velocity.0.y += 3.0;
                }
            }
        })
        .after(rollback_ggrs::drive_player)
        .before(PhysicsSystems::Prepare),
    );
    app.update();
    play(&mut app, 200);
    let mismatches = &app.world().resource::<Mismatches>().0;
    assert!(!mismatches.is_empty(), "a leaking kick went unnoticed");
}

/// Collision starts seen by an observer: (GGRS frame, collider, other collider).
#[derive(Resource, Default)]
struct StartsSeen(Vec<(i32, Entity, Entity)>);

/// Regression: every frame the sync test resimulates sent its collision events again, so a
/// game heard each start eight times. A resimulated step now sends only what its first run
/// did not.
#[test]
fn resimulated_frames_do_not_send_their_collision_events_again() {
    let mut app = headless();
    app.init_resource::<StartsSeen>()
        .add_systems(
            Startup,
            (|mut commands: Commands, colliders: Query<Entity, With<Collider>>| {
                for entity in &colliders {
                    commands.entity(entity).insert(CollisionEventsEnabled);
                }
            })
            .after(rollback_ggrs::setup),
        )
        .add_observer(
            |on: On<CollisionStart>,
             frame: Res<RollbackFrameCount>,
             mut seen: ResMut<StartsSeen>| {
                seen.0.push((frame.0, on.collider1, on.collider2));
            },
        );
    app.update();
    play(&mut app, 240);
    let seen = &app.world().resource::<StartsSeen>().0;
    assert!(seen.len() > 40, "only {} collision starts", seen.len());
    let mut unique = seen.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        seen.len(),
        "{} of {} collision starts were sent again by a resimulation",
        seen.len() - unique.len(),
        seen.len()
    );
    let mismatches = &app.world().resource::<Mismatches>().0;
    assert!(mismatches.is_empty(), "mismatched frames: {mismatches:?}");
}

/// Regression: a body despawned inside the rollback window comes back from bevy_ggrs with a
/// new entity id; the restored physics world named the old one, so the respawned entity got
/// a second core body (or none) and the resimulation differed. The world's entities now
/// follow bevy_ggrs's `RollbackEntityMap`.
#[test]
fn bodies_spawned_and_despawned_inside_the_rollback_window_keep_their_core_bodies() {
    /// A dropped ball and the frame it was dropped (entity ids change on respawn; the
    /// frame does not).
    #[derive(Component, Clone, Copy)]
    struct Dropped(i32);
    let mut app = headless();
    app.init_resource::<Remapped>().add_systems(
        LoadWorld,
        (|map: Res<RollbackEntityMap>, mut remapped: ResMut<Remapped>| {
            if !map.is_empty() {
                remapped.0 += 1;
            }
        })
        .after(LoadWorldSystems::Mapping),
    );
    app.rollback_component_with_clone::<RigidBody>()
        .rollback_component_with_clone::<Collider>()
        .rollback_component_with_copy::<Dropped>()
        .add_systems(
            GgrsSchedule,
            (|mut commands: Commands,
              frame: Res<RollbackFrameCount>,
              dropped: Query<(Entity, &Dropped)>| {
                // A ball dropped every 20 frames and removed 30 frames later: spawns and
                // despawns keep falling inside the 7 frames the sync test rolls back.
                if frame.0 % 20 == 5 {
                    let x = -12.0 + 0.3 * (frame.0 % 80) as f32;
                    commands.spawn((
                        Dropped(frame.0),
                        RigidBody::Dynamic,
                        Collider::circle(0.3),
                        Transform::from_xyz(x, 10.0, 0.0),
                    ));
                }
                if frame.0 % 20 == 15 && dropped.iter().count() > 1 {
                    let (oldest, _) = dropped
                        .iter()
                        .min_by_key(|(_, d)| d.0)
                        .expect("more than one");
                    commands.entity(oldest).despawn();
                }
            })
            .before(PhysicsSystems::Prepare),
        );
    app.update();
    play(&mut app, 300);
    let mismatches = &app.world().resource::<Mismatches>().0;
    assert!(mismatches.is_empty(), "mismatched frames: {mismatches:?}");
    // Every rigid-body entity has exactly one core body, and no core body is left over.
    let mut bodies = app.world_mut().query::<(Entity, &PhysicsBody)>();
    let handles: Vec<(Entity, BodyId)> = bodies
        .iter(app.world())
        .map(|(e, handle)| (e, handle.id()))
        .collect();
    let physics = app.world().resource::<PhysicsWorld>();
    for (entity, id) in &handles {
        assert_eq!(
            physics.body(*entity),
            Some(*id),
            "{entity} lost its core body"
        );
    }
    assert_eq!(
        physics.core().body_count(),
        handles.len(),
        "core bodies without an entity"
    );
    let mut dropped = app.world_mut().query_filtered::<(), With<Dropped>>();
    let balls = dropped.iter(app.world()).count();
    assert!(balls >= 1, "{balls} dropped balls");
    // The test means something only if rollbacks respawned entities under new ids.
    let remapped = app.world().resource::<Remapped>().0;
    assert!(remapped >= 10, "only {remapped} loads respawned an entity");
}

/// Loads whose `RollbackEntityMap` renamed at least one entity.
#[derive(Resource, Default)]
struct Remapped(u32);
