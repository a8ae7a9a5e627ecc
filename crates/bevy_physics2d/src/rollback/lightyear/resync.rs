//! Desync detection: a client that left the server's bits asks for the server's world.
//!
//! A client computes the server's state bit for bit only while it simulates every tick with
//! the inputs the server applied and the bodies the server had. An input that reached the
//! server after the server stepped its tick (the server then applies another, but forwards
//! the late one to the other clients), or a body that came or went, puts a client off the
//! server's bits, and lightyear's state checks only hold it near them.
//!
//! So the server sends the state hash of its world every [`HASH_INTERVAL_TICKS`]
//! ([`PhysicsStateHash`]). A client compares it with the hash of its own world of that tick.
//! The tick may still be resimulated for a moment (another player's input can arrive just
//! after the hash), so a client calls a differing hash a desync only when it still differs
//! [`SETTLE_TICKS`] later. It then asks for the server's world ([`PhysicsResyncRequest`]), and
//! the server sends it to that client alone, at most once per [`RESEND_INTERVAL_TICKS`] per
//! client: a client that asks too often (or lies) gets no more than that.

use super::history::WorldHistory;
use super::world_state::{RESEND_INTERVAL_TICKS, WorldStateDue, WorldStateStats};
use crate::world::physics_world::PhysicsWorld;
use bevy_app::App;
use bevy_ecs::prelude::*;
use lightyear::prelude::client::Client;
use lightyear::prelude::server::ClientOf;
use lightyear::prelude::*;
use serde::{Deserialize, Serialize};

/// The server sends its state hash this often (ticks; 10 a second at 60 Hz, 12 bytes each).
pub const HASH_INTERVAL_TICKS: u32 = 6;

/// How long (ticks) a client's hash may differ from the server's before the client asks for
/// the server's world: long enough for another player's input sent with the hash to arrive.
pub const SETTLE_TICKS: u32 = 8;

/// A client asks again after this many ticks if no world came (the request or the world was
/// lost, or the world did not put it back on the server's bits).
pub const REQUEST_RETRY_TICKS: u32 = 60;

/// The server's state hash after `tick` ([`PhysicsWorld::state_hash`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhysicsStateHash {
    /// The server tick the hash was taken after.
    pub tick: Tick,
    /// The hash.
    pub hash: u64,
}

/// A client found its world off the server's at `tick` and asks for the server's world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhysicsResyncRequest {
    /// The tick whose hash differed.
    pub tick: Tick,
}

/// The channel hashes travel on: unreliable (the next one comes soon).
pub struct PhysicsHashChannel;

/// The channel requests travel on: reliable (a lost request would cost a retry).
pub struct PhysicsResyncChannel;

/// Client: server hashes waiting for their tick to settle, and the last request.
#[derive(Resource, Default)]
pub(crate) struct ResyncState {
    /// Server hashes not yet judged.
    waiting: Vec<WaitingHash>,
    /// Client tick of the last request.
    requested_at: Option<Tick>,
}

/// A server hash waiting for its tick to settle on the client.
#[derive(Clone, Copy, Debug)]
struct WaitingHash {
    /// The server tick.
    tick: Tick,
    /// The server's hash.
    hash: u64,
    /// The client tick it arrived at.
    arrived: Tick,
    /// The client's own hash of that tick when last seen in its history (a tick that left
    /// the history can no longer be resimulated: its last hash is final).
    own: Option<u64>,
}

/// Counts for reports and tests.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResyncStats {
    /// Client: server hashes compared with its own. Server: hashes sent (one per client).
    pub hashes: u32,
    /// Client: hashes that differed once the tick settled.
    pub desyncs: u32,
    /// Client: worlds asked for. Server: worlds sent because a client asked.
    pub requests: u32,
}

/// Server: the tick a link last got a world because it asked.
#[derive(Component, Clone, Copy, Debug)]
pub(crate) struct LastResync(Tick);

pub(crate) fn register(app: &mut App) {
    app.register_message::<PhysicsStateHash>()
        .add_direction(NetworkDirection::ServerToClient);
    app.register_message::<PhysicsResyncRequest>()
        .add_direction(NetworkDirection::ClientToServer);
    app.add_channel::<PhysicsHashChannel>(ChannelSettings {
        mode: ChannelMode::UnorderedUnreliable,
        ..Default::default()
    })
    .add_direction(NetworkDirection::ServerToClient);
    app.add_channel::<PhysicsResyncChannel>(ChannelSettings {
        mode: ChannelMode::UnorderedReliable(ReliableSettings::default()),
        ..Default::default()
    })
    .add_direction(NetworkDirection::ClientToServer);
    app.init_resource::<ResyncState>()
        .init_resource::<ResyncStats>();
}

/// Server: the link asked for the world and has not been sent it yet.
#[derive(Component, Clone, Copy, Debug)]
pub(crate) struct ResyncAsked;

/// Server, `PreUpdate` after lightyear received messages: marks the links that asked for the
/// world. (lightyear clears received messages every frame, and a frame may run no fixed tick,
/// so they are read here rather than where the world is sent.)
pub(crate) fn receive_resync_requests(
    mut commands: Commands,
    mut links: Query<(Entity, &mut MessageReceiver<PhysicsResyncRequest>), With<ClientOf>>,
) {
    for (link, mut requests) in &mut links {
        if requests.receive().count() > 0 {
            // The world goes whole to a client that asked: it may be one that could not
            // rebuild a delta against its base.
            commands
                .entity(link)
                .insert(ResyncAsked)
                .remove::<super::keyframes::AckedKeyframe>();
        }
    }
}

/// Server, `FixedPostUpdate` after the writeback and before the world is sent: queues the
/// world for links that asked, once their last one is [`RESEND_INTERVAL_TICKS`] old (a
/// request waits until then; one that comes while a send to every client is due is answered
/// by it), and sends the state hash every [`HASH_INTERVAL_TICKS`].
pub(crate) fn serve_resyncs(
    mut commands: Commands,
    timeline: Res<LocalTimeline>,
    physics: Res<PhysicsWorld>,
    mut due: ResMut<WorldStateDue>,
    mut stats: ResMut<ResyncStats>,
    mut links: Query<
        (
            Entity,
            Has<ResyncAsked>,
            &mut MessageSender<PhysicsStateHash>,
            Option<&LastResync>,
        ),
        (With<ClientOf>, With<Connected>),
    >,
) {
    let tick = timeline.tick();
    let hash = tick
        .0
        .is_multiple_of(HASH_INTERVAL_TICKS)
        .then(|| PhysicsStateHash {
            tick,
            hash: physics.state_hash(),
        });
    for (link, asked, mut sender, last) in &mut links {
        if asked && due.is_broadcast_due() {
            commands.entity(link).remove::<ResyncAsked>();
        } else if asked
            && last.is_none_or(|last| tick.0.wrapping_sub(last.0.0) >= RESEND_INTERVAL_TICKS)
        {
            due.send_to(link);
            stats.requests += 1;
            commands
                .entity(link)
                .insert(LastResync(tick))
                .remove::<ResyncAsked>();
        }
        if let Some(hash) = hash {
            sender.send::<PhysicsHashChannel>(hash);
            stats.hashes += 1;
        }
    }
}

/// Client, `PostUpdate` (after the frame's rollback): compares the server's hashes with its
/// own worlds' and asks for the server's world after a desync.
pub(crate) fn check_hashes(
    timeline: Res<LocalTimeline>,
    history: Res<WorldHistory>,
    installed: Res<WorldStateStats>,
    mut state: ResMut<ResyncState>,
    mut stats: ResMut<ResyncStats>,
    mut clients: Query<
        (
            // lightyear adds a receiver with the first message it receives.
            Option<&mut MessageReceiver<PhysicsStateHash>>,
            &mut MessageSender<PhysicsResyncRequest>,
        ),
        With<Client>,
    >,
) {
    let Ok((hashes, mut sender)) = clients.single_mut() else {
        return;
    };
    let now = timeline.tick();
    let state = &mut *state;
    if let Some(mut hashes) = hashes {
        for server in hashes.receive() {
            state.waiting.push(WaitingHash {
                tick: server.tick,
                hash: server.hash,
                arrived: now,
                own: None,
            });
        }
    }
    let mut desync = None;
    state.waiting.retain_mut(|waiting| {
        // Before the last world installed: the server's world is the client's there.
        if installed.last_tick.is_none_or(|last| waiting.tick <= last) {
            return false;
        }
        if let Some(own) = history.hash(waiting.tick) {
            waiting.own = Some(own);
        }
        let Some(own) = waiting.own else {
            return false; // never held (older than the history): nothing to compare
        };
        if own == waiting.hash {
            stats.hashes += 1;
            return false;
        }
        if now.0.saturating_sub(waiting.arrived.0) < SETTLE_TICKS {
            return true;
        }
        stats.hashes += 1;
        stats.desyncs += 1;
        desync = Some(waiting.tick);
        false
    });
    let Some(tick) = desync else {
        return;
    };
    let waited = state
        .requested_at
        .is_none_or(|at| now.0.saturating_sub(at.0) >= REQUEST_RETRY_TICKS);
    // A world installed since the request answers it.
    let answered = state
        .requested_at
        .zip(installed.installed_at)
        .is_some_and(|(asked, got)| got >= asked);
    if waited || answered {
        bevy_log::debug!(
            "physics: off the server's state at tick {}; asking for its world",
            tick.0
        );
        sender.send::<PhysicsResyncChannel>(PhysicsResyncRequest { tick });
        state.requested_at = Some(now);
        stats.requests += 1;
    }
}

/// lightyear moved the client's clock by whole ticks: the ticks the client noted move with it
/// (as its history's do).
pub(crate) fn shift_resync(
    on: On<LocalTimelineShift>,
    mut state: ResMut<ResyncState>,
    mut installed: ResMut<WorldStateStats>,
) {
    let delta = on.event().delta;
    let shift = |tick: &mut Tick| *tick = Tick(tick.0.wrapping_add_signed(delta));
    for waiting in &mut state.waiting {
        shift(&mut waiting.arrived);
    }
    for tick in [&mut state.requested_at, &mut installed.installed_at]
        .into_iter()
        .flatten()
    {
        shift(tick);
    }
}
