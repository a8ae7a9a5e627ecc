//! The lightyear example's peers in tests: a server and clients in one process over crossbeam
//! channels with lightyear's link conditioner (`Sim`), per-tick logs of the state hash, the
//! bodies and the inputs (`TickLog`), rollback counts by cause and the corrections they made
//! (`Rollbacks`), and the input generator.
//!
//! Diagnostics: `NET_LOG=1` logs the first client's warnings and the plugin's debug lines;
//! `NO_STATE=1` turns the clients' state checks off, leaving the installed world and the
//! input rollbacks alone.

#![allow(dead_code)]

#[path = "../../examples/multiplayer_lightyear.rs"]
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
    bodies: Query<(&PhysicsNetId, &Transform, &LinearVelocity)>,
    mut log: ResMut<TickLog>,
) {
    let tick = timeline.tick().0;
    log.hash.insert(tick, physics.state_hash());
    for (id, t, v) in &bodies {
        log.bodies.insert(
            (tick, id.0),
            [t.translation.x, t.translation.y, v.0.x, v.0.y],
        );
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
    for (player, action) in &players {
        log.inputs.insert((timeline.tick().0, player.0), action.0.0);
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
}

/// One rollback: the client tick it ran at, the tick it resimulated from, and why; for a
/// state check, the inputs the client had simulated the ticks up to `from` with (each
/// player's, from `INPUTS_KEPT` ticks before), read before the resimulation rewrote them.
#[derive(Clone, Debug)]
pub struct RollbackRecord {
    pub at: u32,
    pub from: u32,
    pub cause: RollbackCause,
    pub inputs: Vec<((u32, u64), u8)>,
}

/// Ticks of inputs a state check's record keeps, up to its rollback tick: half a second,
/// more than the lateness of any input that arrives (200 ms) and than the time between the
/// server's state updates.
pub const INPUTS_KEPT: u32 = 30;

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
        let inputs = if cause == RollbackCause::StateCheck {
            ticks
                .inputs
                .range((start.0.saturating_sub(INPUTS_KEPT), 0)..(start.0 + 1, 0))
                .map(|(k, v)| (*k, *v))
                .collect()
        } else {
            Vec::new()
        };
        log.0.push(RollbackRecord {
            at: now,
            from: start.0,
            cause,
            inputs,
        });
    }
}

/// Counts a client's rollbacks by cause (`Rollbacks`) and logs each (`RollbackLog`).
pub fn add_rollback_counting(app: &mut App) {
    app.init_resource::<Rollbacks>()
        .init_resource::<RollbackLog>()
        .init_resource::<ForcedThisFrame>()
        .init_resource::<TickLog>()
        .add_systems(
            PreUpdate,
            (
                note_forced
                    .after(bevy_physics2d::lightyear_net::PhysicsNetSystems::InstallWorld)
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
    pub clients: Vec<App>,
    pub now: Instant,
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
        for i in 0..clients {
            let mut app = base_app();
            if i == 0 && std::env::var("NET_LOG").is_ok() {
                app.add_plugins(bevy::log::LogPlugin {
                    filter: "warn,bevy_physics2d=debug".into(),
                    ..default()
                });
            }
            game::client_app(&mut app);
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
            let (client_io, server_io) = CrossbeamIo::new_pair();
            let server_addr = SocketAddr::new(Ipv4Addr::LOCALHOST.into(), 5000);
            app.world_mut().spawn((
                Client,
                Link::default().with_conditioner(conditioner()),
                client_io,
                ReplicationReceiver,
                game::netcode_client(i as u64 + 1, server_addr),
            ));
            server.world_mut().spawn((
                LinkOf {
                    server: server_entity,
                },
                Link::default().with_conditioner(conditioner()),
                PeerAddr(SocketAddr::new(
                    Ipv4Addr::LOCALHOST.into(),
                    10_000 + i as u16,
                )),
                Linked,
                server_io,
            ));
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
        Sim {
            server,
            clients: apps,
            now,
        }
    }

    /// One tick of time for every App, paced to the wall clock (the link conditioner's
    /// latency is measured on it).
    pub fn step(&mut self) {
        self.now += game::TICK;
        if let Some(wait) = self.now.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
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
            .resource::<bevy_physics2d::lightyear_net::world_state::WorldStateStats>();
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
                bevy_physics2d::lightyear_net::world_state::PhysicsWorldState,
            >>();
            let receivers = receivers.iter(app.world()).count();
            let mut named = app.world_mut().query::<&PhysicsNetId>();
            let named: Vec<u64> = named.iter(app.world()).map(|n| n.0).collect();
            out += &format!("receivers {receivers}, named {named:?}, ");
            let installed = app
                .world()
                .resource::<bevy_physics2d::lightyear_net::world_state::WorldStateStats>()
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
