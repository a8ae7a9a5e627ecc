//! The server's whole physics world, sent to clients so their predictions start from the
//! server's state bit for bit.
//!
//! Replicated components carry poses and velocities; they do not carry contacts, warm-start
//! impulses, sleep timers or the order of the core's arrays, and a client that built its
//! bodies itself would predict a slightly different future. So the server sends its
//! [`PhysicsWorldSnapshot`] as bytes (entities named by [`PhysicsNetId`]) to a client that
//! connects, to every client after bodies, colliders or joints came or went (at most every
//! [`RESEND_INTERVAL_TICKS`]), to every client every [`KEYFRAME_INTERVAL_TICKS`], and to a
//! client that found its state off the server's ([`resync`](super::resync)). The client keeps
//! the newest one until it has every entity it names, then records it as its world of that
//! tick and asks lightyear for a rollback to it: the resimulation carries it to the present.

use super::PhysicsNetId;
use super::history::WorldHistory;
use super::keyframes::{self, AckedKeyframe, HeldKeyframes, PhysicsKeyframeAck};
use super::resync::PhysicsResyncRequest;
use crate::collision::collider::Collider;
use crate::dynamics::body::components::RigidBody;
use crate::dynamics::joint::components::Joint;
use crate::rollback::PhysicsWorldSnapshot;
use crate::world::physics_world::PhysicsWorld;
use bevy_app::App;
use bevy_ecs::prelude::*;
use lightyear::prelude::client::Client;
use lightyear::prelude::server::ClientOf;
use lightyear::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// Shortest time between two sends of the world to every client (a burst of spawns is sent
/// once), in ticks.
pub const RESEND_INTERVAL_TICKS: u32 = 30;

/// The world is also sent to every client this often (ticks, 2 s at 60 Hz), so a client
/// that lost an input for good (every copy of it dropped) is back on the server's bits
/// within that time instead of being held near them by state corrections only.
pub const KEYFRAME_INTERVAL_TICKS: u32 = 120;

/// The server's physics world after `tick`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhysicsWorldState {
    /// The server tick the world was recorded after.
    pub tick: Tick,
    /// `None`: `bytes` are the whole world. `Some(base)`: they are the changes since the world
    /// of tick `base`, which the client acknowledged ([`super::keyframes`]).
    pub since: Option<Tick>,
    /// [`PhysicsWorldSnapshot::to_bytes`], entities written as their [`PhysicsNetId`]; or
    /// [`PhysicsWorldSnapshot::to_bytes_since`] the world of tick `since`.
    pub bytes: Vec<u8>,
}

/// The reliable, ordered channel world states travel on.
pub struct PhysicsWorldChannel;

/// Server: which clients need the world, and when it was last sent to all.
#[derive(Resource, Default)]
pub(crate) struct WorldStateDue {
    /// Links to send the world to at the next send: connected since the last one, or asked.
    new_clients: Vec<Entity>,
    /// Physics entities came or went since the last send to all.
    changed: bool,
    /// Tick of the last send to all.
    last_broadcast: Option<Tick>,
}

impl WorldStateDue {
    /// Sends the world to `link` at the next send (a client that asked for it).
    pub(crate) fn send_to(&mut self, link: Entity) {
        if !self.new_clients.contains(&link) {
            self.new_clients.push(link);
        }
    }

    /// Whether the world goes to every client soon (bodies came or went).
    pub(crate) fn is_broadcast_due(&self) -> bool {
        self.changed
    }
}

/// Client: the newest world received and not yet installed.
#[derive(Resource, Default)]
pub(crate) struct ReceivedWorld(Option<PhysicsWorldState>);

/// Counts for reports and tests.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct WorldStateStats {
    /// Server: world states sent (one per client reached). Client: world states installed.
    pub count: u32,
    /// Server: bytes of the last world state sent (a delta's, when it went as one). Client:
    /// bytes of the last world installed, whole.
    pub last_bytes: usize,
    /// Server: world states sent as deltas. Client: world states rebuilt from deltas.
    pub deltas: u32,
    /// The tick of the last world state sent or installed.
    pub last_tick: Option<Tick>,
    /// The tick of the first world state installed (client).
    pub first_tick: Option<Tick>,
    /// The client's own tick when it last installed a world (client).
    pub installed_at: Option<Tick>,
}

pub(crate) fn register(app: &mut App) {
    app.register_message::<PhysicsWorldState>()
        .add_direction(NetworkDirection::ServerToClient);
    app.add_channel::<PhysicsWorldChannel>(ChannelSettings {
        mode: ChannelMode::OrderedReliable(ReliableSettings::default()),
        ..Default::default()
    })
    .add_direction(NetworkDirection::ServerToClient);
    app.init_resource::<WorldStateDue>()
        .init_resource::<ReceivedWorld>()
        .init_resource::<WorldStateStats>()
        .add_observer(
            |on: On<Add, Connected>,
             links: Query<(), With<ClientOf>>,
             mut due: ResMut<WorldStateDue>| {
                if links.contains(on.entity) {
                    due.new_clients.push(on.entity);
                }
            },
        )
        .add_observer(mark_changed::<Add, RigidBody>)
        .add_observer(mark_changed::<Remove, RigidBody>)
        .add_observer(mark_changed::<Add, Collider>)
        .add_observer(mark_changed::<Remove, Collider>)
        .add_observer(mark_changed::<Add, Joint>)
        .add_observer(mark_changed::<Remove, Joint>);
}

fn mark_changed<E: EntityEvent, C: Component>(_on: On<E, C>, mut due: ResMut<WorldStateDue>) {
    due.changed = true;
}

/// Server, `FixedPostUpdate` after the writeback: sends the world to the clients that need
/// it.
pub(crate) fn send_world(
    timeline: Res<LocalTimeline>,
    physics: Res<PhysicsWorld>,
    mut due: ResMut<WorldStateDue>,
    mut stats: ResMut<WorldStateStats>,
    mut sent: ResMut<HeldKeyframes>,
    mut links: Query<
        (
            Entity,
            &mut MessageSender<PhysicsWorldState>,
            Option<&AckedKeyframe>,
        ),
        With<Connected>,
    >,
) {
    let tick = timeline.tick();
    let since = due
        .last_broadcast
        .map_or(u32::MAX, |last| tick.0.wrapping_sub(last.0));
    let broadcast = (due.changed && since >= RESEND_INTERVAL_TICKS)
        || (!links.is_empty() && since >= KEYFRAME_INTERVAL_TICKS);
    // Entities waiting to be built are not in the world yet: send once they are.
    let wanted = broadcast || !due.new_clients.is_empty();
    if !wanted || !physics.pending_is_empty() {
        return;
    }
    let snapshot = physics.save_snapshot();
    let whole = Arc::new(snapshot.to_bytes(|e| e.to_bits()));
    let new_clients = std::mem::take(&mut due.new_clients);
    // Deltas made in this send, by base: clients that acknowledged the same world share one.
    let mut deltas = Vec::new();
    for (link, mut sender, acked) in &mut links {
        let joined = new_clients.contains(&link);
        if !(broadcast || joined) {
            continue;
        }
        // A new client, or one that asked, gets the world whole.
        let base = acked.map(|a| a.0).filter(|_| !joined);
        let message = keyframes::message_for(tick, &snapshot, &whole, base, &sent, &mut deltas);
        stats.count += 1;
        stats.deltas += u32::from(message.since.is_some());
        stats.last_bytes = message.bytes.len();
        stats.last_tick = Some(tick);
        sender.send::<PhysicsWorldChannel>(message);
    }
    sent.hold(tick, whole);
    if broadcast {
        due.changed = false;
        due.last_broadcast = Some(tick);
    }
}

/// Client, `PreUpdate` before lightyear's rollback check: installs the newest world
/// received once every entity it names has arrived.
pub(crate) fn install_world(
    mut receivers: Query<
        (
            &mut MessageReceiver<PhysicsWorldState>,
            Option<&mut MessageSender<PhysicsKeyframeAck>>,
            Option<&mut MessageSender<PhysicsResyncRequest>>,
        ),
        With<Client>,
    >,
    mut held: ResMut<HeldKeyframes>,
    mut received: ResMut<ReceivedWorld>,
    mut history: ResMut<WorldHistory>,
    rollback: Option<ResMut<StateRollbackMetadata>>,
    mut stats: ResMut<WorldStateStats>,
    timeline: Res<LocalTimeline>,
    manager: Res<PredictionManager>,
    named: Query<(Entity, &PhysicsNetId)>,
    sync: Option<Res<lightyear::prelude::client::LocalTimelineSync>>,
    mut physics: ResMut<PhysicsWorld>,
) {
    for (mut receiver, ack, ask) in &mut receivers {
        let states = keyframes::whole_states(receiver.receive(), &mut held, &mut stats, ack, ask);
        for state in states {
            if received.0.as_ref().is_none_or(|old| old.tick <= state.tick) {
                received.0 = Some(state);
            }
        }
    }
    let Some(state) = received.0.as_ref() else {
        return;
    };
    let local: HashMap<u64, Entity> = named.iter().map(|(e, id)| (id.0, e)).collect();
    let world = match PhysicsWorldSnapshot::from_bytes(&state.bytes, |n| local.get(&n).copied()) {
        Ok(world) => world,
        // Replication has not brought that entity yet: try again next frame.
        Err(crate::SnapshotDecodeError::UnknownEntity(id)) => {
            bevy_log::debug!(
                "physics: the server's world names entity {id}, not replicated here yet"
            );
            return;
        }
        Err(error) => {
            bevy_log::warn!("physics: a world state from the server was dropped ({error})");
            received.0 = None;
            return;
        }
    };
    let now = timeline.tick();
    // Not synchronised yet: the client's clock still jumps to line up with the server's, and
    // the world would land on the wrong tick. Keep it until the clock is in step and past it.
    if !sync.is_some_and(|sync| sync.is_synced()) || now.0 <= state.tick.0 {
        return;
    }
    let state = received.0.take().expect("checked above");
    let depth = now.0 - state.tick.0;
    let Some(mut rollback) = rollback else {
        return;
    };
    if depth > manager.rollback_policy.max_rollback_ticks as u32 {
        bevy_log::warn!(
            "physics: the server's world of tick {} came {depth} ticks late, more than the \
             rollback limit; predicting from the client's own world",
            state.tick.0
        );
        return;
    }
    stats.count += 1;
    stats.last_bytes = state.bytes.len();
    stats.last_tick = Some(state.tick);
    stats.first_tick.get_or_insert(state.tick);
    stats.installed_at = Some(now);
    // Resimulate from the server's world to the present.
    bevy_log::debug!(
        "physics: installing the server's world of tick {} at tick {}",
        state.tick.0,
        now.0
    );
    // The server's world numbers its steps as the server counted them. The client's own
    // world of that tick counted the same, unless lightyear has moved the client's clock
    // since they last agreed (it does when the client falls far behind): then the events
    // the client sent for the ticks to be resimulated are logged under other step numbers,
    // and would be sent again (or a new one taken for a repeat). They take the server's.
    let own_steps = history.get(state.tick).map_or_else(
        // Older than the history: one step a tick since.
        || physics.steps.saturating_sub(u64::from(depth)),
        |own| own.steps,
    );
    let renumber = world.steps as i64 - own_steps as i64;
    if renumber != 0 {
        bevy_log::debug!(
            "physics: the server's world of tick {} numbers its steps {renumber} from this \
             client's",
            state.tick.0
        );
        physics.sent_events.renumber(renumber);
    }
    history.install(state.tick, world);
    rollback.request_forced_rollback(state.tick);
}
