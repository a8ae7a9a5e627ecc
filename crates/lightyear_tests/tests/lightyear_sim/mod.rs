//! The lightyear example's peers in tests: a server and clients in one process over crossbeam
//! channels through links that delay and drop packets by tick (`Sim`, `TickLink`), per-tick logs of the state hash, the
//! bodies and the inputs (`TickLog`), rollback counts by cause and the corrections they made
//! (`Rollbacks`), and the input generator.
//!
//! Diagnostics: `NET_LOG=1` logs the first client's warnings and the plugin's debug lines;
//! `NO_STATE=1` turns the clients' state checks off, leaving the installed world and the
//! input rollbacks alone; `CONDITIONER_LINK=1` links the peers through lightyear's own link
//! conditioner (the same latency, and the same share of packets lost at random) instead of
//! `TickLink`; `JITTER_MARGIN=<ticks>` sets the clients' lightyear `SyncConfig::jitter_margin`
//! (how far beyond the jitter they run ahead of the server; lightyear's default is 1).
//!
//! Time: this package builds lightyear with its mock clock (`lightyear_core/test_utils`).
//! `Sim::step` moves it, and Bevy's clocks, by one tick per step, so pings, time sync and
//! receive times see the same game on a loaded machine as on an idle one; the UDP peers wind
//! it to the wall clock (`wind_lightyear_clock_to_the_wall_clock`). The clock is global to
//! the process: one `Sim` at a time.

// Each test uses a part of the harness.
#![allow(dead_code, unused_imports)]

#[path = "../../../../examples/multiplayer_lightyear.rs"]
pub mod multiplayer_lightyear;

use bevy::app::TaskPoolPlugin;
use bevy::prelude::*;
use bevy::time::{TimePlugin, TimeUpdateStrategy};
use bevy::transform::TransformPlugin;
use bevy_physics2d::PhysicsNetId;
use bevy_physics2d::prelude::*;
use lightyear::crossbeam::CrossbeamIo;
use lightyear::prelude::client::Client;
use lightyear::prelude::server::Start;
use lightyear::prelude::*;
use mock_instant::global::MockClock;
pub use multiplayer_lightyear::{self as game, JUMP, LEFT, LocalInput, Player, PlayerInput, RIGHT};
use std::net::{Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

/// Rollbacks a client did, by cause, and the largest jump they made in what it shows.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct Rollbacks {
    pub from_state: u32,
    pub from_inputs: u32,
    pub ticks: u32,
    /// Largest distance a body moved in one rollback (the correction a player would see
    /// without smoothing), metres; from the start of play.
    pub largest_correction: f32,
    /// Largest distance a body moved on screen from one frame to the next (what the player
    /// sees, with corrections eased), metres; from the start of play.
    pub largest_visual_step: f32,
}

/// Records how far each body moved on screen since the last frame.
pub fn visual_steps(
    bodies: Query<(Entity, &Transform), With<RigidBody>>,
    mut last: Local<bevy::ecs::entity::EntityHashMap<Vec2>>,
    mut counts: ResMut<Rollbacks>,
) {
    for (entity, transform) in &bodies {
        let now = transform.translation.truncate();
        if let Some(before) = last.insert(entity, now) {
            counts.largest_visual_step = counts.largest_visual_step.max(now.distance(before));
        }
    }
}

/// Per tick: the world's state hash after the step, and each player's input that tick (a
/// client's entries are those of its last resimulation).
#[derive(Resource, Default)]
pub struct TickLog {
    pub hash: std::collections::BTreeMap<u32, u64>,
    pub bodies: std::collections::BTreeMap<(u32, u64), [f32; 4]>,
    pub inputs: std::collections::BTreeMap<(u32, u64), u8>,
}

pub fn log_hash(
    timeline: Res<LocalTimeline>,
    physics: Res<bevy_physics2d::PhysicsWorld>,
    bodies: Query<(Entity, &PhysicsNetId, &Transform, &LinearVelocity)>,
    mut log: ResMut<TickLog>,
) {
    let tick = timeline.tick().0;
    log.hash.insert(tick, physics.state_hash());
    // A resimulation rewrites the tick: what an earlier run of it logged goes.
    forget_tick(&mut log.bodies, tick);
    // The bodies the world steps (an entity lightyear keeps after the server despawned it
    // has no core body).
    for (_, id, t, v) in bodies.iter().filter(|(e, ..)| physics.body(*e).is_some()) {
        log.bodies.insert(
            (tick, id.0),
            [t.translation.x, t.translation.y, v.0.x, v.0.y],
        );
    }
}

/// Drops a tick's entries (a resimulation logs the tick again, maybe with fewer entities).
fn forget_tick<V>(log: &mut std::collections::BTreeMap<(u32, u64), V>, tick: u32) {
    let stale: Vec<(u32, u64)> = log
        .range((tick, 0)..=(tick, u64::MAX))
        .map(|(k, _)| *k)
        .collect();
    for key in stale {
        log.remove(&key);
    }
}

pub fn log_inputs(
    timeline: Res<LocalTimeline>,
    players: Query<(
        &Player,
        &lightyear::input::native::prelude::ActionState<PlayerInput>,
    )>,
    mut log: ResMut<TickLog>,
) {
    let tick = timeline.tick().0;
    forget_tick(&mut log.inputs, tick);
    for (player, action) in &players {
        log.inputs.insert((tick, player.0), action.0.0);
    }
}

/// Collision starts seen by an observer: (tick, collider, other collider).
#[derive(Resource, Default)]
pub struct StartsSeen(pub Vec<(u32, u64, u64)>);

pub fn add_tick_log(app: &mut App) {
    app.init_resource::<StartsSeen>()
        .add_observer(|on: On<Add, Collider>, mut commands: Commands| {
            commands
                .entity(on.entity)
                .insert(bevy_physics2d::CollisionEventsEnabled);
        })
        .add_observer(
            |on: On<bevy_physics2d::CollisionStart>,
             timeline: Res<LocalTimeline>,
             names: Query<&PhysicsNetId>,
             mut seen: ResMut<StartsSeen>| {
                if let (Ok(a), Ok(b)) = (names.get(on.collider1), names.get(on.collider2)) {
                    seen.0.push((timeline.tick().0, a.0, b.0));
                }
            },
        );
    app.init_resource::<TickLog>()
        .add_systems(FixedPostUpdate, log_hash.after(PhysicsSystems::Writeback))
        .add_systems(FixedUpdate, log_inputs);
}

/// Poses before this frame's rollback, to measure its correction.
#[derive(Resource, Default)]
pub struct PosesBefore(pub Vec<(Entity, Vec2)>);

pub fn base_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        bevy_state::app::StatesPlugin,
        TransformPlugin,
    ));
    app
}

pub fn conditioner() -> RecvLinkConditioner {
    RecvLinkConditioner::new(
        LinkConditionerConfig {
            incoming_latency: Duration::from_millis(100),
            ..default()
        }
        .with_fixed_loss(0.05),
    )
}

/// Why a client rolled back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollbackCause {
    /// The plugin installed a world the server sent (a forced rollback).
    Install,
    /// Lightyear's state check found the prediction differed from the server's state.
    StateCheck,
    /// An input arrived that differs from the one predicted.
    Inputs,
    /// Not a rollback: lightyear moved the client's clock by whole ticks, which its time sync
    /// does when the client is too far from where it should run ahead of the server (on the
    /// tick-paced clock of `Sim`, only while connecting). The client's states move to other
    /// tick numbers, so from there on its predictions rest on it like on a state check's
    /// correction.
    ClockShift,
}

/// One rollback: the client tick it ran at, the tick it resimulated from, and why; for a
/// state check, the inputs the client had simulated the ticks `inputs_from..=from` with
/// (each player's), read before the resimulation rewrote them.
#[derive(Clone, Debug)]
pub struct RollbackRecord {
    pub at: u32,
    pub from: u32,
    /// The last tick the rollback touched: `at` for a resimulation; for a clock shift, the
    /// higher of the clock's readings before and after (the ticks `from..=to` name other
    /// steps now, and a shift back steps them again as new ones).
    pub to: u32,
    pub cause: RollbackCause,
    /// First tick of `inputs`: the one after the state the client's prediction of `from`
    /// rests on, the newest rollback from a state (an installed server world or a state
    /// check's correction) at or before `from`. The prediction follows from that state and
    /// these inputs alone. An input can arrive far later than the usual 200 ms (a lost
    /// packet and a lost resend), so a window of a fixed length would miss one.
    pub inputs_from: u32,
    /// The state the prediction rests on is a state check's correction (lightyear's
    /// confirmed poses and velocities over the client's own contacts) or a clock shift's,
    /// not the server's world bit for bit, so a misprediction from it needs no wrong input.
    pub after_check: bool,
    pub inputs: Vec<((u32, u64), u8)>,
}

impl RollbackRecord {
    /// A rollback that set the client's state, or a clock shift (input rollbacks resimulate
    /// from the client's own state).
    pub fn sets_state(&self) -> bool {
        self.cause != RollbackCause::Inputs
    }

    /// The client's state from here on is not the server's world bit for bit: a state
    /// check's correction or a clock shift.
    pub fn leaves_server_bits(&self) -> bool {
        matches!(
            self.cause,
            RollbackCause::StateCheck | RollbackCause::ClockShift
        )
    }
}

/// Every rollback a client did, in order.
#[derive(Resource, Default)]
pub struct RollbackLog(pub Vec<RollbackRecord>);

/// Whether this frame's rollback check was handed a forced rollback (a world install).
#[derive(Resource, Default)]
pub struct ForcedThisFrame(pub bool);

pub fn note_forced(
    metadata: Option<Res<lightyear::prediction::manager::StateRollbackMetadata>>,
    mut forced: ResMut<ForcedThisFrame>,
) {
    forced.0 = metadata.is_some_and(|m| m.forced_rollback_tick().is_some());
}

pub fn count_rollbacks(
    rollback: Res<lightyear::core::timeline::Rollback>,
    manager: Res<PredictionManager>,
    timeline: Res<LocalTimeline>,
    forced: Res<ForcedThisFrame>,
    ticks: Res<TickLog>,
    mut counts: ResMut<Rollbacks>,
    mut log: ResMut<RollbackLog>,
) {
    let cause = match *rollback {
        lightyear::core::timeline::Rollback::FromState => {
            counts.from_state += 1;
            if forced.0 {
                RollbackCause::Install
            } else {
                RollbackCause::StateCheck
            }
        }
        lightyear::core::timeline::Rollback::FromInputs => {
            counts.from_inputs += 1;
            RollbackCause::Inputs
        }
    };
    let now = timeline.tick().0;
    if let Some(start) = manager.get_rollback_start_tick() {
        counts.ticks += now.saturating_sub(start.0);
        let base = prediction_base(&log.0, start.0);
        let inputs_from = base.map_or(0, |r| r.from + 1);
        let after_check = base.is_some_and(RollbackRecord::leaves_server_bits);
        let inputs = if cause == RollbackCause::StateCheck {
            ticks
                .inputs
                .range((inputs_from, 0)..(start.0 + 1, 0))
                .map(|(k, v)| (*k, *v))
                .collect()
        } else {
            Vec::new()
        };
        log.0.push(RollbackRecord {
            at: now,
            from: start.0,
            to: now,
            cause,
            inputs_from,
            after_check,
            inputs,
        });
    }
}

/// The rollback from a state that the client's present prediction of `tick` rests on: the
/// newest rollback whose resimulation covered `tick` set it, from a state or from the
/// client's own state of an earlier tick (an input rollback), which rests on the rollbacks
/// before it in turn. `None`: the prediction goes back to the start.
pub fn prediction_base(log: &[RollbackRecord], mut tick: u32) -> Option<&RollbackRecord> {
    for record in log.iter().rev() {
        if record.from <= tick {
            if record.sets_state() {
                return Some(record);
            }
            tick = record.from;
        }
    }
    None
}

/// Counts a client's rollbacks by cause (`Rollbacks`) and logs each (`RollbackLog`).
pub fn add_rollback_counting(app: &mut App) {
    app.init_resource::<Rollbacks>()
        .add_observer(
            |on: On<LocalTimelineShift>,
             timeline: Res<LocalTimeline>,
             mut log: ResMut<RollbackLog>| {
                // The ticks from the lower of the clock's readings before and after on name
                // other states now.
                let tick = timeline.tick().0;
                let other = tick.saturating_add_signed(-on.event().delta);
                log.0.push(RollbackRecord {
                    at: tick,
                    from: tick.min(other),
                    to: tick.max(other),
                    cause: RollbackCause::ClockShift,
                    inputs_from: 0,
                    after_check: false,
                    inputs: Vec::new(),
                });
            },
        )
        .init_resource::<RollbackLog>()
        .init_resource::<ForcedThisFrame>()
        .init_resource::<TickLog>()
        .add_systems(
            PreUpdate,
            (
                note_forced
                    .after(bevy_physics2d::rollback::lightyear::PhysicsNetSystems::InstallWorld)
                    .before(RollbackSystems::Check),
                count_rollbacks
                    .after(RollbackSystems::Check)
                    .before(RollbackSystems::Rollback)
                    .run_if(is_in_rollback),
            ),
        );
}

pub fn poses_before(
    mut before: ResMut<PosesBefore>,
    bodies: Query<(Entity, &Transform), With<RigidBody>>,
) {
    before.0 = bodies
        .iter()
        .map(|(e, t)| (e, t.translation.truncate()))
        .collect();
}

pub fn correction_after(
    before: Res<PosesBefore>,
    bodies: Query<&Transform, With<RigidBody>>,
    mut counts: ResMut<Rollbacks>,
) {
    for (entity, was) in &before.0 {
        if let Ok(now) = bodies.get(*entity) {
            let jump = now.translation.truncate().distance(*was);
            counts.largest_correction = counts.largest_correction.max(jump);
        }
    }
}

pub struct Sim {
    pub server: App,
    /// The server's netcode entity, which each client's link on the server belongs to.
    pub server_entity: Entity,
    pub clients: Vec<App>,
    /// Each client's link to the server.
    pub links: Vec<TickLink>,
    pub now: Instant,
    /// Ticks stepped.
    pub ticks: u64,
}

/// Ticks a packet takes to cross a [`TickLink`]: 100 ms at 60 Hz.
pub const LINK_LATENCY_TICKS: u64 = 6;

/// Share of packets a [`TickLink`] drops, in each direction.
pub const LINK_LOSS: f64 = 0.05;

/// How a [`TickLink`] carries packets, in each direction: every packet takes `latency_ticks`
/// plus up to `jitter_ticks` more (so packets can overtake each other), and `loss` of them
/// are lost.
#[derive(Clone, Copy, Debug)]
pub struct LinkQuality {
    pub latency_ticks: u64,
    pub jitter_ticks: u64,
    pub loss: f64,
}

/// The link of the two-client tests: 100 ms, no jitter, 5 % lost.
pub const STEADY_LINK: LinkQuality = LinkQuality {
    latency_ticks: LINK_LATENCY_TICKS,
    jitter_ticks: 0,
    loss: LINK_LOSS,
};

/// One direction of a [`TickLink`]: what one side sent, held until its tick of delivery.
pub struct LinkDirection {
    sent: crossbeam_channel::Receiver<bytes::Bytes>,
    deliver: crossbeam_channel::Sender<bytes::Bytes>,
    /// Packets on the way, with the tick they arrive, in the order they arrive.
    on_the_way: std::collections::VecDeque<(u64, bytes::Bytes)>,
    /// Decides which packets are lost and how late; seeded, so a run meets the same.
    loss: Lcg,
    quality: LinkQuality,
    /// A hostile sender's link: every tick it adds a packet of random bytes, and every third
    /// tick it sends again a packet it delivered before (a replay).
    hostile: Option<Hostile>,
}

/// What a hostile link sends besides its peer's packets.
struct Hostile {
    random: Lcg,
    delivered: std::collections::VecDeque<bytes::Bytes>,
    /// Packets of garbage and replays sent so far.
    sent: u64,
}

impl LinkDirection {
    fn new(
        sent: crossbeam_channel::Receiver<bytes::Bytes>,
        deliver: crossbeam_channel::Sender<bytes::Bytes>,
        seed: u64,
        quality: LinkQuality,
    ) -> Self {
        LinkDirection {
            sent,
            deliver,
            on_the_way: Default::default(),
            loss: Lcg(seed),
            quality,
            hostile: None,
        }
    }

    fn carry(&mut self, tick: u64) {
        let q = self.quality;
        while let Ok(packet) = self.sent.try_recv() {
            let lost = (self.loss.next() as f64) < q.loss * (1u64 << 31) as f64;
            if lost {
                continue;
            }
            let due = tick + q.latency_ticks + self.loss.next() % (q.jitter_ticks + 1);
            // In order of arrival; a packet sent later but faster goes first.
            let at = self.on_the_way.partition_point(|(d, _)| *d <= due);
            self.on_the_way.insert(at, (due, packet));
        }
        while self.on_the_way.front().is_some_and(|(due, _)| *due <= tick) {
            let (_, packet) = self.on_the_way.pop_front().expect("a packet is due");
            if let Some(hostile) = &mut self.hostile {
                hostile.delivered.push_back(packet.clone());
                if hostile.delivered.len() > 32 {
                    hostile.delivered.pop_front();
                }
            }
            // The peer may have gone: nothing then reads the packet.
            let _ = self.deliver.send(packet);
        }
        if let Some(hostile) = &mut self.hostile {
            let len = 1 + (hostile.random.next() % 300) as usize;
            let mut garbage: Vec<u8> = (0..len).map(|_| hostile.random.next() as u8).collect();
            // The first byte names the packet's kind (low four bits) and the length of its
            // sequence number (high four). lightyear_netcode 0.30.1 panics on a kind of 8 or
            // more where overflow checks are on, and on a length above 8 in every build
            // (`a_garbage_packet_with_a_long_sequence_crashes_lightyear_netcode`): the
            // garbage keeps both in range, so it tests the rest of the reading.
            garbage[0] = (garbage[0] & 0x07) | ((garbage[0] >> 4) % 9) << 4;
            let _ = self.deliver.send(bytes::Bytes::from(garbage));
            hostile.sent += 1;
            if tick.is_multiple_of(3) && !hostile.delivered.is_empty() {
                let old = (hostile.random.next() as usize) % hostile.delivered.len();
                let _ = self.deliver.send(hostile.delivered[old].clone());
                hostile.sent += 1;
            }
        }
    }
}

/// The link between a client and the server, timed in the peers' ticks: each packet arrives
/// `LINK_LATENCY_TICKS` ticks after it was sent or is lost (`LINK_LOSS`), the same packets in
/// every run (seeded). Lightyear's own link conditioner draws its losses at random, so a run
/// would meet other losses than the one the test was written against.
pub struct TickLink {
    to_server: LinkDirection,
    to_client: LinkDirection,
}

impl TickLink {
    /// The client's and the server's ends, and the link that carries between them; `seed`
    /// picks the packets lost.
    pub fn between(seed: u64) -> (CrossbeamIo, CrossbeamIo, TickLink) {
        Self::with_quality(seed, STEADY_LINK)
    }

    /// [`TickLink::between`] with another latency, jitter and loss.
    pub fn with_quality(seed: u64, quality: LinkQuality) -> (CrossbeamIo, CrossbeamIo, TickLink) {
        let (client_sends, to_server_sent) = crossbeam_channel::unbounded();
        let (to_server_delivers, server_receives) = crossbeam_channel::unbounded();
        let (server_sends, to_client_sent) = crossbeam_channel::unbounded();
        let (to_client_delivers, client_receives) = crossbeam_channel::unbounded();
        let link = TickLink {
            to_server: LinkDirection::new(to_server_sent, to_server_delivers, seed, quality),
            to_client: LinkDirection::new(to_client_sent, to_client_delivers, seed + 1, quality),
        };
        (
            CrossbeamIo::new(client_sends, client_receives),
            CrossbeamIo::new(server_sends, server_receives),
            link,
        )
    }

    /// Makes the client's side hostile: besides its packets, the server gets a packet of
    /// random bytes every tick and, every third tick, a replay of one it got before.
    pub fn hostile(mut self, seed: u64) -> Self {
        self.to_server.hostile = Some(Hostile {
            random: Lcg(seed),
            delivered: Default::default(),
            sent: 0,
        });
        self
    }

    /// Hands the server `packet` at once, as if the client had sent it.
    pub fn inject_to_server(&self, packet: Vec<u8>) {
        let _ = self.to_server.deliver.send(bytes::Bytes::from(packet));
    }

    /// Packets of garbage and replays the hostile side has sent.
    pub fn hostile_packets(&self) -> u64 {
        self.to_server.hostile.as_ref().map_or(0, |h| h.sent)
    }

    /// Moves what both sides sent up to now onto the link and hands over what arrives at
    /// `tick`.
    pub fn carry(&mut self, tick: u64) {
        self.to_server.carry(tick);
        self.to_client.carry(tick);
    }
}

/// Makes lightyear's mock clock follow the wall clock in an App that runs in real time (the
/// UDP peers): at the start of each frame it is set to the wall time since this call. This
/// package builds lightyear with its mock clock, which otherwise stands still.
pub fn wind_lightyear_clock_to_the_wall_clock(app: &mut App) {
    let start = Instant::now();
    MockClock::set_time(Duration::ZERO);
    app.add_systems(First, move || MockClock::set_time(start.elapsed()));
}

impl Sim {
    pub fn new(clients: usize) -> Sim {
        let mut server = base_app();
        game::server_app(&mut server);
        add_tick_log(&mut server);
        server.finish();
        server.cleanup();
        // Crossbeam links have no socket address to check.
        let server_entity = server.world_mut().spawn(game::netcode_server(false)).id();
        let mut apps = Vec::new();
        let mut links = Vec::new();
        for i in 0..clients {
            let mut app = client_app(i == 0);
            let conditioner_link = std::env::var("CONDITIONER_LINK").is_ok();
            let (client_io, server_io) = if conditioner_link {
                CrossbeamIo::new_pair()
            } else {
                let (client_io, server_io, link) = TickLink::between(2 * i as u64 + 1);
                links.push(link);
                (client_io, server_io)
            };
            let link = || {
                if conditioner_link {
                    Link::default().with_conditioner(conditioner())
                } else {
                    Link::default()
                }
            };
            connect_pair(
                &mut app,
                &mut server,
                server_entity,
                i as u64 + 1,
                (client_io, server_io),
                link,
            );
            apps.push(app);
        }
        let now = Instant::now();
        server
            .world_mut()
            .resource_mut::<Time<Real>>()
            .update_with_instant(now);
        server.world_mut().trigger(Start {
            entity: server_entity,
        });
        server.world_mut().flush();
        for app in &mut apps {
            start_client(app, now);
        }
        Sim {
            server,
            server_entity,
            clients: apps,
            links,
            now,
            ticks: 0,
        }
    }

    /// A client joining now, with netcode id `id`, over a [`TickLink`] of `quality` (hostile:
    /// see [`TickLink::hostile`]). Returns its index in `clients` and `links`.
    pub fn add_client(&mut self, id: u64, quality: LinkQuality, hostile: bool) -> usize {
        let mut app = client_app(false);
        let (client_io, server_io, mut link) = TickLink::with_quality(2 * id + 1, quality);
        if hostile {
            link = link.hostile(id);
        }
        connect_pair(
            &mut app,
            &mut self.server,
            self.server_entity,
            id,
            (client_io, server_io),
            Link::default,
        );
        start_client(&mut app, self.now);
        self.clients.push(app);
        self.links.push(link);
        self.clients.len() - 1
    }

    /// Steps until every client has installed a world from the server and synchronised its
    /// clock, at most `limit` ticks; whether they all did.
    pub fn settle(&mut self, limit: usize) -> bool {
        for _ in 0..limit {
            self.step();
            let ready = self.clients.iter().all(|app| {
                app.world()
                    .resource::<bevy_physics2d::rollback::lightyear::world_state::WorldStateStats>()
                    .count
                    > 0
                    && app.world().resource::<LocalTimelineSync>().is_synced()
            });
            if ready {
                return true;
            }
        }
        false
    }

    /// The client at `index` leaves: its App and its link are dropped, as a player whose
    /// game closes (the server finds out when netcode times the connection out).
    pub fn remove_client(&mut self, index: usize) {
        drop(self.clients.remove(index));
        drop(self.links.remove(index));
    }
}

/// A client App of the lightyear example with the test's logs (`NET_LOG`: the first one's).
fn client_app(first: bool) -> App {
    let mut app = base_app();
    if first && std::env::var("NET_LOG").is_ok() {
        app.add_plugins(bevy::log::LogPlugin {
            filter: "warn,bevy_physics2d=debug".into(),
            ..default()
        });
    }
    game::client_app(&mut app);
    if let Ok(margin) = std::env::var("JITTER_MARGIN") {
        let sync = lightyear::prelude::SyncConfig {
            jitter_margin: margin.parse().unwrap(),
            ..default()
        };
        app.insert_resource(
            lightyear::prelude::InputTimelineConfig::default().with_sync_config(sync),
        );
    }
    add_tick_log(&mut app);
    add_rollback_counting(&mut app);
    app.init_resource::<PosesBefore>()
        .add_systems(
            PreUpdate,
            (
                poses_before.before(RollbackSystems::Check),
                correction_after.after(RollbackSystems::Rollback),
            ),
        )
        .add_systems(Last, visual_steps);
    if std::env::var("NO_STATE").is_ok() {
        app.world_mut()
            .resource_mut::<PredictionManager>()
            .rollback_policy
            .state = RollbackMode::Disabled;
    }
    app.finish();
    app.cleanup();
    app
}

/// The client's end (netcode id `id`) in `app` and its link entity on the server, over the
/// pair of ends `io`.
fn connect_pair(
    app: &mut App,
    server: &mut App,
    server_entity: Entity,
    id: u64,
    (client_io, server_io): (CrossbeamIo, CrossbeamIo),
    link: impl Fn() -> Link,
) {
    let server_addr = SocketAddr::new(Ipv4Addr::LOCALHOST.into(), 5000);
    app.world_mut().spawn((
        Client,
        link(),
        client_io,
        ReplicationReceiver,
        game::netcode_client(id, server_addr),
    ));
    server.world_mut().spawn((
        LinkOf {
            server: server_entity,
        },
        link(),
        PeerAddr(SocketAddr::new(
            Ipv4Addr::LOCALHOST.into(),
            10_000 + id as u16,
        )),
        Linked,
        server_io,
    ));
}

/// Sets a client's clock to `now` and asks it to connect.
fn start_client(app: &mut App, now: Instant) {
    app.world_mut()
        .resource_mut::<Time<Real>>()
        .update_with_instant(now);
    let client = app
        .world_mut()
        .query_filtered::<Entity, With<Client>>()
        .single(app.world())
        .expect("one client");
    app.world_mut().trigger(Connect { entity: client });
}

impl Sim {
    /// One tick of time for every App, after the links carried their packets for this tick.
    /// Bevy's clocks and lightyear's mock clock (its pings, its time sync, its receive times)
    /// all move by exactly one tick, however long the step took on the wall clock: a loaded
    /// machine runs the same game as an idle one, only slower.
    pub fn step(&mut self) {
        self.now += game::TICK;
        MockClock::advance(game::TICK);
        self.ticks += 1;
        for link in &mut self.links {
            link.carry(self.ticks);
        }
        for app in &mut self.clients {
            app.insert_resource(TimeUpdateStrategy::ManualInstant(self.now));
            app.update();
        }
        self.server
            .insert_resource(TimeUpdateStrategy::ManualInstant(self.now));
        self.server.update();
    }

    /// What each peer has, for failure messages.
    pub fn status(&mut self) -> String {
        let mut out = String::new();
        let mut links = self
            .server
            .world_mut()
            .query_filtered::<(), (With<LinkOf>, With<Connected>)>();
        let connected = links.iter(self.server.world()).count();
        let bodies = dynamic_bodies(&mut self.server).len();
        let sent = *self
            .server
            .world()
            .resource::<bevy_physics2d::rollback::lightyear::world_state::WorldStateStats>(
        );
        let mut named = self.server.world_mut().query::<&PhysicsNetId>();
        let named = named.iter(self.server.world()).count();
        out += &format!(
            "server: {connected} connected, {bodies} dynamic bodies, {named} named, sent {sent:?}; "
        );
        for (i, app) in self.clients.iter_mut().enumerate() {
            let mut connected = app
                .world_mut()
                .query_filtered::<(), (With<Client>, With<Connected>)>();
            let connected = connected.iter(app.world()).count();
            let players = players(app);
            let bodies = dynamic_bodies(app).len();
            let mut receivers = app.world_mut().query::<&MessageReceiver<
                bevy_physics2d::rollback::lightyear::world_state::PhysicsWorldState,
            >>();
            let receivers = receivers.iter(app.world()).count();
            let mut named = app.world_mut().query::<&PhysicsNetId>();
            let named: Vec<u64> = named.iter(app.world()).map(|n| n.0).collect();
            out += &format!("receivers {receivers}, named {named:?}, ");
            let installed = app
                .world()
                .resource::<bevy_physics2d::rollback::lightyear::world_state::WorldStateStats>()
                .count;
            let synced = app.world().resource::<LocalTimelineSync>().is_synced();
            out += &format!(
                "client {i}: connected {connected}, {players} players, {bodies} bodies, {installed} worlds installed, synced {synced}; "
            );
        }
        out
    }

    pub fn set_input(&mut self, client: usize, bits: u8) {
        self.clients[client]
            .world_mut()
            .resource_mut::<LocalInput>()
            .0 = PlayerInput(bits);
    }
}

/// Every dynamic body: its server name and position.
pub fn dynamic_bodies(app: &mut App) -> Vec<(u64, Vec2)> {
    let mut query = app
        .world_mut()
        .query::<(&PhysicsNetId, &RigidBody, &Transform)>();
    let mut bodies: Vec<(u64, Vec2)> = query
        .iter(app.world())
        .filter(|(_, body, _)| **body == RigidBody::Dynamic)
        .map(|(id, _, t)| (id.0, t.translation.truncate()))
        .collect();
    bodies.sort_by_key(|(id, _)| *id);
    bodies
}

pub fn players(app: &mut App) -> usize {
    let mut query = app.world_mut().query::<&Player>();
    query.iter(app.world()).count()
}

/// A tiny deterministic generator for the inputs.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}
