//! The rollback set without a networking library: saving the `PhysicsWorld` snapshot and the
//! rigid-body components, stepping on, then putting both back reproduces the same future bit
//! for bit. And the simulation does not depend on entity ids: the same spawns after unrelated
//! entities came and went give the same bits.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{InterpolationPoses, PhysicsBody, PhysicsWorldSnapshot};
use support::{app, step};

/// A ground, a stack of boxes, and a ball on a pendulum swinging into it.
fn spawn_scene(app: &mut App) -> Vec<Entity> {
    let w = app.world_mut();
    let mut bodies = vec![
        w.spawn((
            RigidBody::Static,
            Collider::rectangle(20.0, 1.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ))
        .id(),
    ];
    for i in 0..4 {
        bodies.push(
            w.spawn((
                RigidBody::Dynamic,
                Collider::rectangle(1.0, 1.0),
                Transform::from_xyz(0.0, 0.5 + i as f32, 0.0),
            ))
            .id(),
        );
    }
    let ball = w
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.4),
            Transform::from_xyz(-4.0, 4.0, 0.0),
        ))
        .id();
    w.spawn(Joint::revolute(Entity::PLACEHOLDER, ball).with_anchor(Vec2::new(0.0, 4.0)));
    bodies.push(ball);
    bodies
}

/// The rigid-body components of the rollback set, for one entity.
#[derive(Clone)]
struct Saved {
    transform: Transform,
    linear: LinearVelocity,
    angular: AngularVelocity,
    handle: PhysicsBody,
    /// The test's App interpolates: `Transform` may hold a blend, told apart by these.
    poses: InterpolationPoses,
    sleeping: bool,
}

fn save(app: &mut App, bodies: &[Entity]) -> (PhysicsWorldSnapshot, Vec<Saved>) {
    let world = app.world();
    let snapshot = world.resource::<PhysicsWorld>().save_snapshot();
    let saved = bodies
        .iter()
        .map(|&e| Saved {
            transform: *world.get::<Transform>(e).unwrap(),
            linear: *world.get::<LinearVelocity>(e).unwrap(),
            angular: *world.get::<AngularVelocity>(e).unwrap(),
            handle: *world.get::<PhysicsBody>(e).unwrap(),
            poses: *world.get::<InterpolationPoses>(e).unwrap(),
            sleeping: world.get::<Sleeping>(e).is_some(),
        })
        .collect();
    (snapshot, saved)
}

fn restore(
    app: &mut App,
    bodies: &[Entity],
    (snapshot, saved): &(PhysicsWorldSnapshot, Vec<Saved>),
) {
    let world = app.world_mut();
    world
        .resource_mut::<PhysicsWorld>()
        .restore_snapshot(snapshot)
        .unwrap();
    for (&e, s) in bodies.iter().zip(saved) {
        let mut entity = world.entity_mut(e);
        entity.insert((s.transform, s.linear, s.angular, s.handle, s.poses));
        if s.sleeping {
            entity.insert(Sleeping);
        } else {
            entity.remove::<Sleeping>();
        }
    }
}

/// The bits of every body's transform and velocities, as the components show them.
fn bits(app: &App, bodies: &[Entity]) -> Vec<u32> {
    let world = app.world();
    bodies
        .iter()
        .flat_map(|&e| {
            let t = world.get::<Transform>(e).unwrap();
            let v = world.get::<LinearVelocity>(e).unwrap().0;
            let w = world.get::<AngularVelocity>(e).unwrap().0;
            [
                t.translation.x,
                t.translation.y,
                t.rotation.z,
                t.rotation.w,
                v.x,
                v.y,
                w,
            ]
            .map(f32::to_bits)
        })
        .collect()
}

#[test]
fn restoring_the_rollback_set_reproduces_the_future_bit_for_bit() {
    let mut app = app();
    let bodies = spawn_scene(&mut app);
    step(&mut app, 40);
    let saved = save(&mut app, &bodies);
    let mut first = Vec::new();
    for _ in 0..90 {
        step(&mut app, 1);
        first.push(bits(&app, &bodies));
    }
    // Rolled back twice, to show nothing leaks from one replay into the next.
    for replay in 0..2 {
        restore(&mut app, &bodies, &saved);
        for (frame, expected) in first.iter().enumerate() {
            step(&mut app, 1);
            assert_eq!(
                &bits(&app, &bodies),
                expected,
                "replay {replay}, frame {frame}"
            );
        }
    }
    // The pendulum hit the stack: the replay covered contacts and a joint in motion.
    let physics = app.world().resource::<PhysicsWorld>();
    assert!(physics.core().touching_contact_count() >= 4);
    assert_ne!(first[0], first[89]);
}

#[test]
fn entity_ids_do_not_change_the_simulation() {
    let run = |churn: bool| {
        let mut app = app();
        if churn {
            // Unrelated entities come and go first, so the scene's entities get other ids
            // (recycled indices, higher generations) and another archetype layout.
            let w = app.world_mut();
            let spawned: Vec<Entity> = (0..1000)
                .map(|i| w.spawn(Name::new(format!("{i}"))).id())
                .collect();
            for e in spawned.iter().step_by(2) {
                w.despawn(*e);
            }
            let unrelated = w
                .spawn((
                    RigidBody::Dynamic,
                    Collider::circle(0.5),
                    Transform::from_xyz(50.0, 50.0, 0.0),
                ))
                .id();
            step(&mut app, 1);
            app.world_mut().despawn(unrelated);
        }
        let bodies = spawn_scene(&mut app);
        step(&mut app, 150);
        let state = bits(&app, &bodies);
        (bodies, state)
    };
    let (plain_ids, plain) = run(false);
    let (churned_ids, churned) = run(true);
    assert_ne!(
        plain_ids, churned_ids,
        "the churn should change the entity ids"
    );
    assert_eq!(plain, churned);
}

/// A snapshot sent as bytes (entities written as their bits, read back the same way) restores
/// the same future as the snapshot itself; with an entity the reader does not know, reading
/// fails and names it.
#[test]
fn a_snapshot_through_bytes_reproduces_the_future_bit_for_bit() {
    let mut app = app();
    let bodies = spawn_scene(&mut app);
    step(&mut app, 40);
    let (snapshot, saved) = save(&mut app, &bodies);
    let bytes = snapshot.to_bytes(|e| e.to_bits());
    let read = PhysicsWorldSnapshot::from_bytes(&bytes, Entity::try_from_bits).unwrap();
    let mut first = Vec::new();
    for _ in 0..60 {
        step(&mut app, 1);
        first.push(bits(&app, &bodies));
    }
    restore(&mut app, &bodies, &(read, saved));
    for (frame, expected) in first.iter().enumerate() {
        step(&mut app, 1);
        assert_eq!(&bits(&app, &bodies), expected, "frame {frame}");
    }
    let missing = bodies[2].to_bits();
    let unknown = PhysicsWorldSnapshot::from_bytes(&bytes, |n| {
        (n != missing).then(|| Entity::try_from_bits(n)).flatten()
    });
    assert!(
        matches!(unknown, Err(bevy_physics2d::SnapshotDecodeError::UnknownEntity(n)) if n == missing),
        "{:?}",
        unknown.err()
    );
    assert!(
        PhysicsWorldSnapshot::from_bytes(&bytes[..bytes.len() / 2], Entity::try_from_bits).is_err()
    );
}

/// A keyframe, then a body spawned and a second of steps: the second snapshot's bytes as a
/// delta against the keyframe rebuild its bytes exactly, and read back they restore the same
/// future. A delta against other bytes, or cut short, is refused.
#[test]
fn a_snapshot_as_a_delta_against_a_keyframe_rebuilds_its_bytes() {
    let mut app = app();
    let mut bodies = spawn_scene(&mut app);
    step(&mut app, 20);
    let (keyframe, _) = save(&mut app, &bodies);
    let keyframe = keyframe.to_bytes(|e| e.to_bits());
    // An entity spawned after the keyframe: new records in the core and in the maps.
    bodies.push(
        app.world_mut()
            .spawn((
                RigidBody::Dynamic,
                Collider::circle(0.3),
                Transform::from_xyz(3.0, 2.0, 0.0),
            ))
            .id(),
    );
    step(&mut app, 60);
    let (snapshot, saved) = save(&mut app, &bodies);
    let whole = snapshot.to_bytes(|e| e.to_bits());
    let delta = snapshot.to_bytes_since(&keyframe, |e| e.to_bits()).unwrap();
    assert!(
        delta.len() < whole.len(),
        "{} >= {}",
        delta.len(),
        whole.len()
    );
    let rebuilt = PhysicsWorldSnapshot::bytes_since(&keyframe, &delta).unwrap();
    assert_eq!(rebuilt, whole);
    let read = PhysicsWorldSnapshot::from_bytes(&rebuilt, Entity::try_from_bits).unwrap();
    let first: Vec<_> = (0..30)
        .map(|_| {
            step(&mut app, 1);
            bits(&app, &bodies)
        })
        .collect();
    restore(&mut app, &bodies, &(read, saved));
    for (frame, expected) in first.iter().enumerate() {
        step(&mut app, 1);
        assert_eq!(&bits(&app, &bodies), expected, "frame {frame}");
    }
    assert!(PhysicsWorldSnapshot::bytes_since(&whole, &delta).is_err());
    assert!(PhysicsWorldSnapshot::bytes_since(&keyframe, &delta[..delta.len() - 3]).is_err());
    assert!(PhysicsWorldSnapshot::bytes_since(&delta, &delta).is_err());
}

/// Saves, runs `frames` steps recording the bodies' bits, restores, runs them again and
/// asserts the same bits.
fn replays_the_same(app: &mut App, bodies: &[Entity], frames: usize) {
    let saved = save(app, bodies);
    let first: Vec<_> = (0..frames)
        .map(|_| {
            step(app, 1);
            bits(app, bodies)
        })
        .collect();
    restore(app, bodies, &saved);
    for (frame, expected) in first.iter().enumerate() {
        step(app, 1);
        assert_eq!(&bits(app, bodies), expected, "frame {frame}");
    }
}

/// Regression (found by the plugin operations fuzz check in `crates/fuzz_checks`): saved
/// while a collider change waited for the next step (here a part switched off; in the fuzz
/// check a rescale), a spinning body replayed another velocity. The change moves its centre of mass, and with it the core's velocity of that
/// centre; the restored `LinearVelocity`, marked changed by the restore, was then taken for
/// the game's and overwrote it. Now a restored velocity equal to the snapshot's is not.
#[test]
fn regression_a_restore_before_a_collider_change_replayed_another_velocity() {
    let mut app = app();
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Transform::from_xyz(0.0, 8.0, 0.0),
            AngularVelocity(3.0),
        ))
        .id();
    let mut parts = Vec::new();
    for x in [-0.5f32, 1.0] {
        let part = (
            Collider::circle(0.3),
            Transform::from_xyz(x, 0.0, 0.0),
            ChildOf(body),
        );
        parts.push(app.world_mut().spawn(part).id());
    }
    step(&mut app, 5);
    // One part is switched off: the centre of mass moves to the other at the next step.
    app.world_mut()
        .entity_mut(parts[1])
        .insert(ColliderDisabled);
    replays_the_same(&mut app, &[body], 10);
}
