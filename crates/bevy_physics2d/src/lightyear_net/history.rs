//! Client: the physics world of every recent tick, and its restoration when lightyear rolls
//! back.
//!
//! lightyear rolls the predicted components back to the server's values (or its own history)
//! at the rollback tick `T` and runs `FixedMain` again from `T + 1`. The components alone do
//! not decide the next step: contacts, warm-start impulses, sleep timers and the broadphase
//! do too. [`record_world`] keeps a [`PhysicsWorldSnapshot`] per tick, after the writeback;
//! [`restore_world`] puts back the one of `T`. Where lightyear set a component to the
//! server's value and it differs from the snapshot's, the plugin's usual edit detection moves
//! the core body to it at the first resimulated step.

use crate::body::RigidBody;
use crate::collider::Collider;
use crate::handle::PhysicsBody;
use crate::joint::Joint;
use crate::physics_world::PhysicsWorld;
use crate::rollback::PhysicsWorldSnapshot;
use bevy_ecs::entity::Entities;
use bevy_ecs::prelude::*;
use lightyear::prelude::*;
use std::collections::VecDeque;

/// Ticks kept beyond lightyear's own rollback limit (a server world installed a little
/// earlier than the deepest rollback).
const EXTRA_TICKS: usize = 8;

/// The physics world after each recent tick, oldest first.
#[derive(Resource, Default)]
pub struct WorldHistory {
    ticks: VecDeque<(Tick, PhysicsWorldSnapshot)>,
}

impl WorldHistory {
    /// The world recorded after `tick`.
    pub fn get(&self, tick: Tick) -> Option<&PhysicsWorldSnapshot> {
        self.ticks
            .iter()
            .rev()
            .find(|(t, _)| *t == tick)
            .map(|(_, s)| s)
    }

    /// Records the world after `tick`, replacing what was recorded for it and for later
    /// ticks (a resimulation rewrites them), and forgetting ticks more than `keep` ago.
    pub fn record(&mut self, tick: Tick, world: PhysicsWorldSnapshot, keep: usize) {
        while self.ticks.back().is_some_and(|(t, _)| *t >= tick) {
            self.ticks.pop_back();
        }
        self.ticks.push_back((tick, world));
        while self.ticks.len() > keep {
            self.ticks.pop_front();
        }
    }

    /// The newest recorded tick.
    pub fn newest(&self) -> Option<Tick> {
        self.ticks.back().map(|(t, _)| *t)
    }

    /// Number of ticks held.
    pub fn len(&self) -> usize {
        self.ticks.len()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.ticks.is_empty()
    }
}

/// Ticks to keep: lightyear's rollback limit and a margin.
fn ticks_to_keep(manager: &PredictionManager) -> usize {
    manager.rollback_policy.max_rollback_ticks as usize + EXTRA_TICKS
}

/// `FixedPostUpdate`, after the writeback: records this tick's world.
pub(crate) fn record_world(
    timeline: Res<LocalTimeline>,
    physics: Res<PhysicsWorld>,
    manager: Res<PredictionManager>,
    mut history: ResMut<WorldHistory>,
) {
    let keep = ticks_to_keep(&manager);
    history.record(timeline.tick(), physics.save_snapshot(), keep);
}

/// lightyear moved the local clock by whole ticks: the recorded ticks move with it.
pub(crate) fn shift_history(on: On<LocalTimelineShift>, mut history: ResMut<WorldHistory>) {
    let delta = on.event().delta;
    for (tick, _) in &mut history.ticks {
        *tick = Tick(tick.0.wrapping_add_signed(delta));
    }
}

/// `PreUpdate`, after lightyear prepared a rollback to `T`: restores the world of `T`.
pub(crate) fn restore_world(
    mut commands: Commands,
    manager: Res<PredictionManager>,
    mut history: ResMut<WorldHistory>,
    mut physics: ResMut<PhysicsWorld>,
    entities: &Entities,
    bodies: Query<(Entity, Option<&PhysicsBody>), With<RigidBody>>,
    colliders: Query<Entity, With<Collider>>,
    joints: Query<Entity, With<Joint>>,
) {
    let Some(tick) = manager.get_rollback_start_tick() else {
        return;
    };
    let Some(world) = history.get(tick) else {
        bevy_log::warn!(
            "physics: no world recorded for rollback tick {} (newest {:?}); resimulating from the current one",
            tick.0,
            history.newest()
        );
        return;
    };
    if let Err(error) = physics.restore_snapshot(world) {
        bevy_log::warn!(
            "physics: the world of tick {} was refused ({error})",
            tick.0
        );
        return;
    }
    // Later ticks are simulated again and recorded again.
    while history.ticks.back().is_some_and(|(t, _)| *t > tick) {
        history.ticks.pop_back();
    }
    reconcile(
        &mut commands,
        &mut physics,
        entities,
        &bodies,
        &colliders,
        &joints,
    );
}

/// After a world was put back: entities it names that are gone lose their core objects;
/// physics entities it does not know are queued to be built; every body's handle names its
/// restored core body.
pub(crate) fn reconcile(
    commands: &mut Commands,
    physics: &mut PhysicsWorld,
    entities: &Entities,
    bodies: &Query<(Entity, Option<&PhysicsBody>), With<RigidBody>>,
    colliders: &Query<Entity, With<Collider>>,
    joints: &Query<Entity, With<Joint>>,
) {
    let gone_joints: Vec<Entity> = physics
        .joint_of
        .keys()
        .copied()
        .filter(|e| !entities.contains(*e))
        .collect();
    for entity in gone_joints {
        if let Some(joint) = physics.unmap_joint(entity) {
            let _ = physics.world.destroy_joint(joint);
        }
    }
    let gone_colliders: Vec<Entity> = physics
        .shape_of
        .keys()
        .copied()
        .filter(|e| !entities.contains(*e))
        .collect();
    for entity in gone_colliders {
        for shape in physics.unmap_shapes(entity) {
            let _ = physics.world.destroy_shape(shape);
        }
    }
    let gone_bodies: Vec<Entity> = physics
        .body_of
        .keys()
        .copied()
        .filter(|e| !entities.contains(*e))
        .collect();
    for entity in gone_bodies {
        crate::lifecycle::destroy_body_keeping_parts(physics, entity);
    }
    // Queued in a stable order (entity index), so every client queues alike.
    let mut unbuilt: Vec<Entity> = Vec::new();
    for (entity, handle) in bodies {
        match (physics.body(entity), handle) {
            (Some(id), Some(handle)) if handle.id == id => {}
            (Some(id), _) => {
                commands.entity(entity).insert(PhysicsBody::new(id));
            }
            (None, handle) => {
                if handle.is_some() {
                    commands.entity(entity).remove::<PhysicsBody>();
                }
                unbuilt.push(entity);
            }
        }
    }
    unbuilt.sort_unstable();
    for entity in unbuilt {
        physics.pending.bodies.push(entity);
    }
    let mut unbuilt: Vec<Entity> = colliders
        .iter()
        .filter(|e| physics.shape(*e).is_none())
        .collect();
    unbuilt.sort_unstable();
    for entity in unbuilt {
        physics.pending.colliders.push(entity);
    }
    let mut unbuilt: Vec<Entity> = joints
        .iter()
        .filter(|e| physics.joint(*e).is_none())
        .collect();
    unbuilt.sort_unstable();
    for entity in unbuilt {
        physics.pending.joints.push(entity);
    }
}
