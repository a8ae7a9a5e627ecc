//! Rollback in the middle of the run: the rollback set saved, input replayed, same bits.

use super::choices::Choices;
use super::operations::{Tracked, input};
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{InterpolationPoses, PhysicsBody};
use bevy_time::{Fixed, Real, Time, Virtual};

/// The bits of every body's transform and velocities, as the components show them.
fn bits(world: &mut World) -> Vec<(Entity, [u32; 7])> {
    let mut bodies = world
        .query_filtered::<(Entity, &Transform, &LinearVelocity, &AngularVelocity), With<RigidBody>>(
        );
    let mut all: Vec<_> = bodies
        .iter(world)
        .map(|(e, t, v, w)| {
            let q = t.rotation;
            let values = [
                t.translation.x,
                t.translation.y,
                q.z,
                q.w,
                v.0.x,
                v.0.y,
                w.0,
            ];
            (e, values.map(f32::to_bits))
        })
        .collect();
    all.sort_unstable_by_key(|(e, _)| *e);
    all
}

/// The rollback set of every rigid body (see the plugin's `rollback` module).
#[derive(Clone)]
struct SavedBody {
    entity: Entity,
    transform: Transform,
    linear: LinearVelocity,
    angular: AngularVelocity,
    handle: Option<PhysicsBody>,
    poses: Option<InterpolationPoses>,
    sleeping: bool,
    character: Option<CharacterVelocity>,
}

fn save_bodies(world: &mut World) -> Vec<SavedBody> {
    let mut bodies = world.query_filtered::<Entity, With<RigidBody>>();
    let list: Vec<Entity> = bodies.iter(world).collect();
    list.into_iter()
        .map(|entity| SavedBody {
            entity,
            transform: *world.get::<Transform>(entity).unwrap(),
            linear: *world.get::<LinearVelocity>(entity).unwrap(),
            angular: *world.get::<AngularVelocity>(entity).unwrap(),
            handle: world.get::<PhysicsBody>(entity).copied(),
            poses: world.get::<InterpolationPoses>(entity).copied(),
            sleeping: world.get::<Sleeping>(entity).is_some(),
            character: world.get::<CharacterVelocity>(entity).copied(),
        })
        .collect()
}

fn restore_bodies(world: &mut World, saved: &[SavedBody]) {
    for s in saved {
        let mut e = world.entity_mut(s.entity);
        e.insert((s.transform, s.linear, s.angular));
        match s.handle {
            Some(handle) => e.insert(handle),
            None => e.remove::<PhysicsBody>(),
        };
        match s.poses {
            Some(poses) => e.insert(poses),
            None => e.remove::<InterpolationPoses>(),
        };
        if s.sleeping {
            e.insert(Sleeping);
        } else {
            e.remove::<Sleeping>();
        }
        if let Some(v) = s.character {
            e.insert(v);
        }
    }
}

/// Saves the rollback set, runs eight frames of random input, restores the set and runs the
/// same input again: the bodies must take the same states, bit for bit.
pub(crate) fn rollback_check(app: &mut App, rng: &mut impl Choices, t: &mut Tracked, frame: usize) {
    let world = app.world_mut();
    let snapshot = world.resource::<PhysicsWorld>().save_snapshot();
    // The clocks too: how far the fixed loop is into its next step decides the steps a
    // frame takes and their length at a relative speed other than one.
    let clock = *world.resource::<Time<Physics>>();
    let fixed = *world.resource::<Time<Fixed>>();
    let virtual_clock = *world.resource::<Time<Virtual>>();
    let real = *world.resource::<Time<Real>>();
    let generic = *world.resource::<Time>();
    let saved = save_bodies(world);
    let (rng_at, tracked_at) = (rng.clone(), t.clone());
    let mut first = Vec::new();
    for replay in 0..2 {
        if replay == 1 {
            let world = app.world_mut();
            world
                .resource_mut::<PhysicsWorld>()
                .restore_snapshot(&snapshot)
                .unwrap();
            *world.resource_mut::<Time<Physics>>() = clock;
            *world.resource_mut::<Time<Fixed>>() = fixed;
            *world.resource_mut::<Time<Virtual>>() = virtual_clock;
            *world.resource_mut::<Time<Real>>() = real;
            *world.resource_mut::<Time>() = generic;
            restore_bodies(world, &saved);
            (*rng, *t) = (rng_at.clone(), tracked_at.clone());
        }
        for k in 0..8 {
            for _ in 0..rng.below(3) {
                input(app.world_mut(), rng, t);
            }
            super::trace::trace(
                app,
                frame,
                &format!("rollback {k} replay {replay} before"),
                t,
            );
            app.update();
            super::trace::trace(
                app,
                frame,
                &format!("rollback {k} replay {replay} after"),
                t,
            );
            let now = bits(app.world_mut());
            if replay == 0 {
                first.push(now);
            } else if now != first[k] {
                let differing: Vec<_> = now
                    .iter()
                    .zip(&first[k])
                    .filter(|(a, b)| a != b)
                    .map(|(a, b)| (a.0, a.1.map(f32::from_bits), b.1.map(f32::from_bits)))
                    .collect();
                panic!(
                    "frame {frame}: rollback frame {k} differs from the first run \
                     (entity, now, first): {differing:?}"
                );
            }
        }
    }
}
