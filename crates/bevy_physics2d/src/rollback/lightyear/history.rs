//! Client: the physics world of every recent tick, and its restoration when lightyear rolls
//! back.
//!
//! lightyear rolls the predicted components back to the server's values (or its own history)
//! at the rollback tick `T` and runs `FixedMain` again from `T + 1`. The components alone do
//! not decide the next step: contacts, warm-start impulses, sleep timers and the broadphase
//! do too. `record_world` keeps a [`PhysicsWorldSnapshot`] per tick, after the writeback;
//! `restore_world` puts back the one of `T`. Where lightyear set a component to the
//! server's value and it differs from the snapshot's, the plugin's usual edit detection moves
//! the core body to it at the first resimulated step.

use crate::collision::collider::Collider;
use crate::dynamics::body::components::{AngularVelocity, LinearVelocity, RigidBody};
use crate::dynamics::joint::components::Joint;
use crate::rollback::PhysicsWorldSnapshot;
use crate::world::handle::PhysicsBody;
use crate::world::physics_world::{EntityQueue, PhysicsWorld};
use bevy_ecs::entity::Entities;
use bevy_ecs::prelude::*;
use bevy_transform::components::Transform;
use lightyear::prelude::*;
use std::collections::VecDeque;

/// Every entity's pose and velocity components, for [`components_follow_world`].
pub(crate) type MotionQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static mut Transform,
        &'static mut LinearVelocity,
        &'static mut AngularVelocity,
    ),
>;

/// Ticks kept beyond lightyear's own rollback limit (a server world installed a little
/// earlier than the deepest rollback).
const EXTRA_TICKS: usize = 8;

/// The physics world after each recent tick, oldest first.
#[derive(Resource, Default)]
pub struct WorldHistory {
    /// Each tick's world and its state hash (none for a world the server sent).
    ticks: VecDeque<(Tick, PhysicsWorldSnapshot, Option<u64>)>,
    /// The tick of the last world the server sent, while it is held. The worlds before it
    /// were the client's own guesses and are dropped; a rollback to a tick before it starts
    /// from it instead (see [`restore_world`]).
    installed: Option<Tick>,
    /// During a resimulation that started from the installed world at this tick, the ticks
    /// up to it do not step the physics: the world is already there.
    skip_through: Option<Tick>,
}

impl WorldHistory {
    /// The world recorded after `tick`.
    pub fn get(&self, tick: Tick) -> Option<&PhysicsWorldSnapshot> {
        self.ticks
            .iter()
            .rev()
            .find(|(t, ..)| *t == tick)
            .map(|(_, s, _)| s)
    }

    /// The state hash of the world recorded after `tick` (none for the server's world, and
    /// none for a tick not held).
    pub fn hash(&self, tick: Tick) -> Option<u64> {
        self.ticks
            .iter()
            .rev()
            .find(|(t, ..)| *t == tick)
            .and_then(|(.., hash)| *hash)
    }

    /// Records the world after `tick`, replacing what was recorded for it and for later
    /// ticks (a resimulation rewrites them), and forgetting ticks more than `keep` ago.
    pub fn record(&mut self, tick: Tick, world: PhysicsWorldSnapshot, hash: u64, keep: usize) {
        while self.ticks.back().is_some_and(|(t, ..)| *t >= tick) {
            self.ticks.pop_back();
        }
        self.ticks.push_back((tick, world, Some(hash)));
        while self.ticks.len() > keep {
            self.ticks.pop_front();
        }
    }

    /// Holds a world the server sent for its tick, instead of everything recorded.
    pub(crate) fn install(&mut self, tick: Tick, world: PhysicsWorldSnapshot) {
        self.ticks.clear();
        self.ticks.push_back((tick, world, None));
        self.installed = Some(tick);
    }

    /// Whether the physics steps this tick (not while a resimulation passes ticks before the
    /// installed world).
    pub fn steps_at(&self, tick: Tick) -> bool {
        self.skip_through.is_none_or(|through| tick > through)
    }

    /// The newest recorded tick.
    pub fn newest(&self) -> Option<Tick> {
        self.ticks.back().map(|(t, ..)| *t)
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
    let tick = timeline.tick();
    if !history.steps_at(tick) {
        return;
    }
    history.skip_through = None;
    let keep = ticks_to_keep(&manager);
    history.record(tick, physics.save_snapshot(), physics.state_hash(), keep);
    if history.installed.is_some_and(|t| history.get(t).is_none()) {
        history.installed = None;
    }
}

/// `FixedPostUpdate`, while a resimulation passes ticks before the installed world: the
/// components keep the world's values (lightyear may have snapped them to older confirmed
/// ones), so nothing reads as a teleport when stepping resumes.
pub(crate) fn hold_components(
    timeline: Res<LocalTimeline>,
    history: Res<WorldHistory>,
    physics: Res<PhysicsWorld>,
    mut motion: MotionQuery,
) {
    if !history.steps_at(timeline.tick()) {
        components_follow_world(&physics, &mut motion);
    }
}

/// Run condition of the physics stages on a client.
pub(crate) fn physics_steps(timeline: Res<LocalTimeline>, history: Res<WorldHistory>) -> bool {
    history.steps_at(timeline.tick())
}

/// lightyear moved the local clock by whole ticks: the recorded ticks move with it.
pub(crate) fn shift_history(on: On<LocalTimelineShift>, mut history: ResMut<WorldHistory>) {
    let history = &mut *history;
    let delta = on.event().delta;
    let shift = |tick: &mut Tick| *tick = Tick(tick.0.wrapping_add_signed(delta));
    for (tick, ..) in &mut history.ticks {
        shift(tick);
    }
    for tick in [&mut history.installed, &mut history.skip_through]
        .into_iter()
        .flatten()
    {
        shift(tick);
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
    mut motion: MotionQuery,
) {
    let Some(start) = manager.get_rollback_start_tick() else {
        return;
    };
    // Before the server's world, the client's own worlds are gone: start from the server's
    // and let the resimulation pass the ticks up to it without stepping.
    let installed = history.installed.filter(|t| start <= *t);
    let tick = installed.unwrap_or(start);
    history.skip_through = installed;
    bevy_log::trace!(
        "physics: rollback to tick {} restores the world of tick {} (installed {:?})",
        start.0,
        tick.0,
        history.installed.map(|t| t.0)
    );
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
    while history.ticks.back().is_some_and(|(t, ..)| *t > tick) {
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
    if installed.is_some() {
        // lightyear's confirmed values for that tick may be older ones (lost or late
        // packets): the server's world decides.
        components_follow_world(&physics, &mut motion);
    }
}

/// Every body's components take the world's pose and velocities (a pose the core did not
/// write would be taken for a teleport at the next step).
pub(crate) fn components_follow_world(physics: &PhysicsWorld, motion: &mut MotionQuery) {
    for (entity, mut transform, mut linear, mut angular) in motion {
        if let Some(Ok(core)) = physics.body(entity).map(|id| physics.world.body_motion(id)) {
            crate::dynamics::body::writeback::copy_motion(
                &core,
                physics.game_frame(),
                &mut transform,
                &mut linear,
                &mut angular,
            );
        }
    }
}

/// `FixedPreUpdate` of each resimulated tick, after lightyear snapped predicted components
/// to the server's values it holds for that tick: puts back the world's own values. The
/// world restored at the rollback tick already carries the server's state there, and the
/// values lightyear snaps are those after the server stepped that tick, which would be
/// applied before the client steps it (a tick early).
pub(crate) fn undo_snap_to_confirmed(physics: Res<PhysicsWorld>, mut motion: MotionQuery) {
    components_follow_world(&physics, &mut motion);
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
    let gone = |keys: &mut dyn Iterator<Item = &Entity>| -> Vec<Entity> {
        keys.copied().filter(|e| !entities.contains(*e)).collect()
    };
    for entity in gone(&mut physics.joint_of.keys()) {
        if let Some(joint) = physics.unmap_joint(entity) {
            let _ = physics.world.destroy_joint(joint);
        }
    }
    for entity in gone(&mut physics.shape_of.keys()) {
        for shape in physics.unmap_shapes(entity) {
            let _ = physics.world.destroy_shape(shape);
        }
    }
    for entity in gone(&mut physics.body_of.keys()) {
        physics.destroy_body_keeping_parts(entity);
    }
    let mut unbuilt_bodies = Vec::new();
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
                unbuilt_bodies.push(entity);
            }
        }
    }
    let unbuilt_colliders = colliders
        .iter()
        .filter(|e| physics.shape(*e).is_none())
        .collect();
    let unbuilt_joints = joints
        .iter()
        .filter(|e| physics.joint(*e).is_none())
        .collect();
    let pending = &mut physics.pending;
    for (queue, unbuilt, what) in [
        (&mut pending.bodies, unbuilt_bodies, "bodies"),
        (&mut pending.colliders, unbuilt_colliders, "colliders"),
        (&mut pending.joints, unbuilt_joints, "joints"),
    ] {
        queue_in_order(queue, unbuilt, what);
    }
}

/// Queues entities to be built in a stable order (entity index), so every client queues
/// alike.
fn queue_in_order(queue: &mut EntityQueue, mut unbuilt: Vec<Entity>, what: &str) {
    if unbuilt.is_empty() {
        return;
    }
    unbuilt.sort_unstable();
    bevy_log::debug!("physics: {what} to build after a restore: {unbuilt:?}");
    for entity in unbuilt {
        queue.push(entity);
    }
}
