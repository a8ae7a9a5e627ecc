//! The lightyear example's server and two clients, in one process over crossbeam channels
//! with lightyear's link conditioner (100 ms each way, 5 % of packets lost): the clients
//! drive their balls with random inputs for 600 ticks, then stop for 360. Each client, from
//! the server's world it installed on joining, must compute the server's state bit for bit
//! at every tick both simulated; at the server's last tick every body must be within 1 mm of
//! the server's (it is the same bits); and its state checks must never have found a
//! misprediction during play: its only rollbacks are for the other client's inputs, which
//! always arrive late (200 ms after they were pressed, while the client runs ahead).
//!
//! Diagnostics: `NET_LOG=1` logs the first client's warnings and the plugin's debug lines;
//! `NO_STATE=1` turns the clients' state checks off, leaving the installed world and the
//! input rollbacks alone.

#![allow(dead_code)]

#[path = "../examples/multiplayer_lightyear.rs"]
mod multiplayer_lightyear;

use bevy::app::TaskPoolPlugin;
use bevy::prelude::*;
use bevy::time::{TimePlugin, TimeUpdateStrategy};
use bevy::transform::TransformPlugin;
use bevy_physics2d::PhysicsNetId;
use bevy_physics2d::prelude::*;
use lightyear::crossbeam::CrossbeamIo;
use lightyear::netcode::{NetcodeClient, NetcodeServer};
use lightyear::prelude::client::Client;
use lightyear::prelude::server::Start;
use lightyear::prelude::*;
use multiplayer_lightyear::{self as game, JUMP, LEFT, LocalInput, Player, PlayerInput, RIGHT};
use std::net::{Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

/// Rollbacks a client did, by cause, and the largest jump they made in what it shows.
#[derive(Resource, Default, Debug, Clone, Copy)]
struct Rollbacks {
    from_state: u32,
    from_inputs: u32,
    ticks: u32,
    /// Largest distance a body moved in one rollback (the correction a player would see
    /// without smoothing), metres; from the start of play.
    largest_correction: f32,
    /// Largest distance a body moved on screen from one frame to the next (what the player
    /// sees, with corrections eased), metres; from the start of play.
    largest_visual_step: f32,
}

/// Records how far each body moved on screen since the last frame.
fn visual_steps(
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
struct TickLog {
    hash: std::collections::BTreeMap<u32, u64>,
    bodies: std::collections::BTreeMap<(u32, u64), [f32; 4]>,
    inputs: std::collections::BTreeMap<(u32, u64), u8>,
}

fn log_hash(
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

fn log_inputs(
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
struct StartsSeen(Vec<(u32, u64, u64)>);

fn add_tick_log(app: &mut App) {
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
struct PosesBefore(Vec<(Entity, Vec2)>);

fn base_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        bevy_state::app::StatesPlugin,
        TransformPlugin,
    ));
    app
}

fn conditioner() -> RecvLinkConditioner {
    RecvLinkConditioner::new(
        LinkConditionerConfig {
            incoming_latency: Duration::from_millis(100),
            ..default()
        }
        .with_fixed_loss(0.05),
    )
}

fn count_rollbacks(
    rollback: Res<lightyear::core::timeline::Rollback>,
    manager: Res<PredictionManager>,
    timeline: Res<LocalTimeline>,
    mut counts: ResMut<Rollbacks>,
) {
    match *rollback {
        lightyear::core::timeline::Rollback::FromState => counts.from_state += 1,
        lightyear::core::timeline::Rollback::FromInputs => counts.from_inputs += 1,
    }
    if let Some(start) = manager.get_rollback_start_tick() {
        counts.ticks += timeline.tick().0.saturating_sub(start.0);
    }
}

fn poses_before(
    mut before: ResMut<PosesBefore>,
    bodies: Query<(Entity, &Transform), With<RigidBody>>,
) {
    before.0 = bodies
        .iter()
        .map(|(e, t)| (e, t.translation.truncate()))
        .collect();
}

fn correction_after(
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

struct Sim {
    server: App,
    clients: Vec<App>,
    now: Instant,
}

impl Sim {
    fn new(clients: usize) -> Sim {
        let mut server = base_app();
        game::server_app(&mut server);
        add_tick_log(&mut server);
        server.finish();
        server.cleanup();
        let server_entity = server
            .world_mut()
            .spawn(NetcodeServer::new(
                lightyear::netcode::server_plugin::NetcodeConfig {
                    protocol_id: game::PROTOCOL_ID,
                    private_key: game::KEY,
                    // Crossbeam links have no socket address to check.
                    server_addr_check: false,
                    ..default()
                },
            ))
            .id();
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
            app.init_resource::<Rollbacks>()
                .init_resource::<PosesBefore>()
                .add_systems(
                    PreUpdate,
                    (
                        poses_before.before(RollbackSystems::Check),
                        count_rollbacks
                            .after(RollbackSystems::Check)
                            .before(RollbackSystems::Rollback)
                            .run_if(is_in_rollback),
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
            let auth = Authentication::Manual {
                server_addr: SocketAddr::new(Ipv4Addr::LOCALHOST.into(), 5000),
                client_id: i as u64 + 1,
                private_key: game::KEY,
                protocol_id: game::PROTOCOL_ID,
            };
            app.world_mut().spawn((
                Client,
                Link::default().with_conditioner(conditioner()),
                client_io,
                ReplicationReceiver,
                NetcodeClient::new(
                    auth,
                    lightyear::netcode::client_plugin::NetcodeConfig {
                        token_expire_secs: -1,
                        ..default()
                    },
                )
                .expect("a manual token is valid"),
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
    fn step(&mut self) {
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
    fn status(&mut self) -> String {
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

    fn set_input(&mut self, client: usize, bits: u8) {
        self.clients[client]
            .world_mut()
            .resource_mut::<LocalInput>()
            .0 = PlayerInput(bits);
    }
}

/// Every dynamic body: its server name and position.
fn dynamic_bodies(app: &mut App) -> Vec<(u64, Vec2)> {
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

fn players(app: &mut App) -> usize {
    let mut query = app.world_mut().query::<&Player>();
    query.iter(app.world()).count()
}

/// A tiny deterministic generator for the inputs.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

#[test]
fn two_clients_converge_to_the_server_and_mispredict_only_on_late_inputs() {
    let mut sim = Sim::new(2);
    // Connect, synchronise, and let both players' balls reach both clients.
    let mut ready = false;
    for _ in 0..900 {
        sim.step();
        ready = sim.clients.iter_mut().all(|app| {
            players(app) == 2
                && app
                    .world()
                    .resource::<bevy_physics2d::lightyear_net::world_state::WorldStateStats>()
                    .count
                    > 0
                && app.world().resource::<LocalTimelineSync>().is_synced()
        });
        if ready {
            break;
        }
    }
    assert!(
        ready,
        "the clients did not connect and synchronise in 15 s: {}",
        sim.status()
    );
    // Settle the last installs.
    for _ in 0..120 {
        sim.step();
    }
    for app in &mut sim.clients {
        // The corrections of the world installs at connection are not play.
        app.world_mut()
            .resource_mut::<Rollbacks>()
            .largest_correction = 0.0;
    }
    let installs = |sim: &Sim| -> Vec<u32> {
        sim.clients
            .iter()
            .map(|app| {
                app.world()
                    .resource::<bevy_physics2d::lightyear_net::world_state::WorldStateStats>()
                    .count
            })
            .collect()
    };
    let installs_before = installs(&sim);
    let before: Vec<Rollbacks> = sim
        .clients
        .iter()
        .map(|app| *app.world().resource::<Rollbacks>())
        .collect();
    let mut random = [Lcg(1), Lcg(2)];
    let mut inputs = [0u8; 2];
    for tick in 0..600 {
        for (client, random) in random.iter_mut().enumerate() {
            if tick % 12 == 0 {
                inputs[client] =
                    [0, LEFT, RIGHT, JUMP, LEFT | JUMP, RIGHT | JUMP][(random.next() % 6) as usize];
            }
            sim.set_input(client, inputs[client]);
        }
        sim.step();
    }
    let during: Vec<Rollbacks> = sim
        .clients
        .iter()
        .map(|app| *app.world().resource::<Rollbacks>())
        .collect();
    let installs_during: Vec<u32> = installs(&sim)
        .iter()
        .zip(&installs_before)
        .map(|(after, before)| after - before)
        .collect();
    for client in 0..2 {
        sim.set_input(client, 0);
    }
    for _ in 0..360 {
        sim.step();
    }
    // Resimulated ticks did not send their collision starts again: each (tick, pair) once,
    // though every client resimulated hundreds of ticks with the piles in contact.
    for (client, app) in sim.clients.iter().enumerate() {
        let seen = &app.world().resource::<StartsSeen>().0;
        let mut unique = seen.clone();
        unique.sort_unstable();
        unique.dedup();
        assert!(
            seen.len() > 50,
            "client {client}: only {} collision starts",
            seen.len()
        );
        assert_eq!(
            unique.len(),
            seen.len(),
            "client {client}: {} of {} collision starts were sent again by a resimulation",
            seen.len() - unique.len(),
            seen.len()
        );
    }
    // Bit for bit: every tick both logged after the client installed the server's world.
    let mut diverged = [0usize; 2];
    {
        let server_log = sim.server.world().resource::<TickLog>();
        for (client, app) in sim.clients.iter().enumerate() {
            let log = app.world().resource::<TickLog>();
            let installed = app
                .world()
                .resource::<bevy_physics2d::lightyear_net::world_state::WorldStateStats>()
                .first_tick
                .expect("a world was installed")
                .0;
            let common: Vec<u32> = log
                .hash
                .keys()
                .copied()
                .filter(|t| *t > installed && server_log.hash.contains_key(t))
                .collect();
            assert!(common.len() > 900, "only {} ticks to compare", common.len());
            // A tick may differ only from a tick whose inputs the client never had right: an
            // input lost on the way (the link drops 5 % of packets, and a burst can take
            // every copy), which a state rollback then corrects.
            let inputs = |l: &TickLog, t: u32| -> Vec<((u32, u64), u8)> {
                l.inputs
                    .range((t, 0)..(t + 1, 0))
                    .map(|(k, v)| (*k, *v))
                    .collect()
            };
            let mut differing = 0;
            for (i, t) in common.iter().enumerate() {
                let differs = log.hash[t] != server_log.hash[t];
                differing += differs as usize;
                let starts = differs
                    && (i == 0 || log.hash[&common[i - 1]] == server_log.hash[&common[i - 1]]);
                if starts {
                    let lost = (t.saturating_sub(2)..=*t)
                        .any(|tick| inputs(log, tick) != inputs(server_log, tick));
                    assert!(
                        lost,
                        "client {client} left the server's state at tick {t} (world installed \
                         at {installed}) with the server's inputs: server {:?}, client {:?}",
                        inputs(server_log, *t),
                        inputs(log, *t)
                    );
                }
            }
            diverged[client] = differing;
            println!(
                "client {client}: {} of {} ticks after the install equal to the server's",
                common.len() - differing,
                common.len()
            );
        }
    }
    // Compare at the same tick: the server's newest, which every client (ahead of it) has
    // simulated too. The client's entry is the one its last resimulation wrote.
    let server_log = sim.server.world().resource::<TickLog>();
    let last = *server_log
        .hash
        .keys()
        .next_back()
        .expect("the server stepped");
    let server_bodies: Vec<(u64, [f32; 4])> = server_log
        .bodies
        .range((last, 0)..(last + 1, 0))
        .map(|((_, id), v)| (*id, *v))
        .collect();
    assert!(
        server_bodies.len() >= 24 + 6 + 2 + 3,
        "{} bodies",
        server_bodies.len()
    );
    for (client, app) in sim.clients.iter_mut().enumerate() {
        let log = app.world().resource::<TickLog>();
        let bodies: Vec<(u64, [f32; 4])> = log
            .bodies
            .range((last, 0)..(last + 1, 0))
            .map(|((_, id), v)| (*id, *v))
            .collect();
        let ids: Vec<u64> = bodies.iter().map(|(id, _)| *id).collect();
        let server_ids: Vec<u64> = server_bodies.iter().map(|(id, _)| *id).collect();
        assert_eq!(
            ids, server_ids,
            "client {client} has other bodies at tick {last}"
        );
        let worst = bodies
            .iter()
            .zip(&server_bodies)
            .map(|((_, a), (_, b))| Vec2::new(a[0], a[1]).distance(Vec2::new(b[0], b[1])))
            .fold(0.0f32, f32::max);
        println!(
            "client {client}: at tick {last}, worst distance to the server {worst:e} m; rollbacks during play: {:?}",
            Rollbacks {
                from_state: during[client].from_state - before[client].from_state,
                from_inputs: during[client].from_inputs - before[client].from_inputs,
                ticks: during[client].ticks - before[client].ticks,
                largest_correction: during[client].largest_correction,
                largest_visual_step: during[client].largest_visual_step,
            }
        );
        assert!(
            worst < 1.0e-3,
            "client {client} is {worst} m from the server"
        );
    }
    for client in 0..2 {
        // The server's world keyframes (every 2 s) are installed by a forced rollback, which
        // lightyear counts as a state rollback: they are not mispredictions.
        let state = during[client].from_state - before[client].from_state - installs_during[client];
        let late_inputs = during[client].from_inputs - before[client].from_inputs;
        // The other client's inputs arrive 200 ms after it pressed: they are late every
        // time they change, and the client must have resimulated for them.
        assert!(
            late_inputs >= 20,
            "client {client}: {late_inputs} input rollbacks"
        );
        if diverged[client] == 0 {
            assert_eq!(
                state, 0,
                "client {client} mispredicted the server's state {state} times"
            );
        }
        // A late input moves the other ball by up to its speed (6 m/s) times the lateness
        // (about 15 ticks): 1 to 2 m at once without easing (4 m seen in one frame with the
        // easing off). On screen the correction halves every 0.2 s, under 6 % of it (0.12 m)
        // a frame, on top of the body's own motion (0.1 m a frame at 6 m/s, up to 0.25 m
        // falling or knocked at 15 m/s), and a second correction may land on an eased one:
        // 0.5 m bounds all of that, two thirds of the smallest correction that counts here
        // (0.75 m; 1.2 to 1.9 m measured).
        let (jump, step) = (
            during[client].largest_correction,
            during[client].largest_visual_step,
        );
        assert!(
            jump > 0.75,
            "client {client}: no correction worth easing ({jump} m)"
        );
        assert!(
            step < 0.5,
            "client {client}: a body jumped {step} m on screen in one frame (correction {jump} m)"
        );
    }
}

/// Seconds each UDP peer runs: the server first and longest; the clients drive their balls
/// from `UDP_INPUTS_FROM` to `UDP_INPUTS_UNTIL` seconds after they start.
const UDP_SERVER_SECONDS: u64 = 16;
const UDP_CLIENT_SECONDS: u64 = 14;
const UDP_INPUTS_FROM: f64 = 4.0;
const UDP_INPUTS_UNTIL: f64 = 10.0;

/// The same game as separate processes over real UDP sockets on 127.0.0.1, with the
/// conditioner on every receiving side: a server and two clients, each this test binary run
/// again as one peer (`udp_peer`). Each peer writes its per-tick state hashes when it stops;
/// every client must agree with the server bit for bit after its install (but for stretches
/// after an input lost in every copy, each ended by the next world keyframe) and at the end,
/// and must have resimulated for the other client's late inputs.
#[test]
fn server_and_clients_as_processes_over_udp_agree_bit_for_bit() {
    let dir = std::env::temp_dir().join(format!("physics2d-udp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A port of this run's own, so parallel runs do not meet.
    let port = 20_000 + (std::process::id() % 20_000) as u16;
    let exe = std::env::current_exe().unwrap();
    let spawn = |role: &str| {
        std::process::Command::new(&exe)
            .args(["--exact", "udp_peer", "--ignored", "--nocapture"])
            .env("UDP_PEER", role)
            .env("UDP_PORT", port.to_string())
            .env("UDP_DIR", &dir)
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("the test binary runs again as a peer")
    };
    let mut server = spawn("server");
    std::thread::sleep(Duration::from_millis(500));
    let mut clients = [spawn("1"), spawn("2")];
    let deadline = Instant::now() + Duration::from_secs(UDP_SERVER_SECONDS + 40);
    let wait = |child: &mut std::process::Child, name: &str| loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{name} failed: {status}");
            return;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{name} did not stop in time");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    for (i, client) in clients.iter_mut().enumerate() {
        wait(client, &format!("client {}", i + 1));
    }
    wait(&mut server, "server");
    let read = |name: &str| -> (Option<u32>, u32, std::collections::BTreeMap<u32, u64>) {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let mut lines = text.lines();
        let header: Vec<u64> = lines
            .next()
            .unwrap()
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        let installed = (header[0] != u64::MAX).then_some(header[0] as u32);
        let hashes = lines
            .map(|l| {
                let (t, h) = l.split_once(' ').unwrap();
                (t.parse().unwrap(), h.parse().unwrap())
            })
            .collect();
        (installed, header[1] as u32, hashes)
    };
    let (_, _, server_hashes) = read("server");
    for client in ["1", "2"] {
        let (installed, input_rollbacks, hashes) = read(client);
        let installed = installed.unwrap_or_else(|| panic!("client {client} installed no world"));
        let common: Vec<u32> = hashes
            .keys()
            .copied()
            .filter(|t| *t > installed && server_hashes.contains_key(t))
            .collect();
        assert!(
            common.len() > 400,
            "client {client}: {} common ticks",
            common.len()
        );
        let differing = common
            .iter()
            .filter(|t| hashes[t] != server_hashes[t])
            .count();
        println!(
            "udp client {client}: {} ticks compared, {differing} differ; {input_rollbacks} input rollbacks",
            common.len()
        );
        assert_eq!(differing, 0, "client {client} left the server's state");
        assert!(
            input_rollbacks >= 10,
            "client {client}: {input_rollbacks} input rollbacks"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// One peer of the UDP test (run by it; does nothing when run on its own).
#[test]
#[ignore = "a peer process of server_and_clients_as_processes_over_udp_agree_bit_for_bit"]
fn udp_peer() {
    let (Ok(role), Ok(port), Ok(dir)) = (
        std::env::var("UDP_PEER"),
        std::env::var("UDP_PORT"),
        std::env::var("UDP_DIR"),
    ) else {
        return;
    };
    let addr = SocketAddr::new(Ipv4Addr::LOCALHOST.into(), port.parse().unwrap());
    let path = std::path::Path::new(&dir).join(&role);
    let mut app;
    if role == "server" {
        app = game::headless_base(Some(UDP_SERVER_SECONDS));
        game::server_app(&mut app);
        game::start_udp_server(&mut app, addr);
        app.add_observer(|on: On<Add, LinkOf>, mut links: Query<&mut Link>| {
            if let Ok(mut link) = links.get_mut(on.entity) {
                link.recv.conditioner = Some(conditioner());
            }
        });
    } else {
        let id: u64 = role.parse().unwrap();
        app = game::headless_base(Some(UDP_CLIENT_SECONDS));
        game::client_app(&mut app);
        game::connect_udp_client(&mut app, id, addr);
        app.init_resource::<Rollbacks>()
            .add_systems(
                PreUpdate,
                count_rollbacks
                    .after(RollbackSystems::Check)
                    .before(RollbackSystems::Rollback)
                    .run_if(is_in_rollback),
            )
            .add_observer(|on: On<Add, Client>, mut links: Query<&mut Link>| {
                if let Ok(mut link) = links.get_mut(on.entity) {
                    link.recv.conditioner = Some(conditioner());
                }
            })
            .add_systems(
                Update,
                move |time: Res<Time<Real>>,
                      mut input: ResMut<LocalInput>,
                      mut random: Local<Option<Lcg>>,
                      mut ticks: Local<u32>| {
                    let random = random.get_or_insert(Lcg(id));
                    let t = time.elapsed_secs_f64();
                    *ticks += 1;
                    input.0 = if (UDP_INPUTS_FROM..UDP_INPUTS_UNTIL).contains(&t) {
                        if ticks.is_multiple_of(12) {
                            PlayerInput(
                                [0, LEFT, RIGHT, JUMP, LEFT | JUMP, RIGHT | JUMP]
                                    [(random.next() % 6) as usize],
                            )
                        } else {
                            input.0
                        }
                    } else {
                        PlayerInput(0)
                    };
                },
            );
    }
    add_tick_log(&mut app);
    app.add_systems(
        Last,
        move |mut exits: MessageReader<AppExit>,
              log: Res<TickLog>,
              stats: Res<bevy_physics2d::lightyear_net::world_state::WorldStateStats>,
              rollbacks: Option<Res<Rollbacks>>| {
            if exits.read().next().is_none() {
                return;
            }
            let installed = stats.first_tick.map_or(u64::MAX, |t| t.0 as u64);
            let inputs = rollbacks.map_or(0, |r| r.from_inputs);
            let mut text = format!("{installed} {inputs}\n");
            for (tick, hash) in &log.hash {
                text += &format!("{tick} {hash}\n");
            }
            std::fs::write(&path, text).expect("the peer writes its log");
        },
    );
    app.run();
}

/// Bytes the server put on each client's link (after netcode, before the IO).
#[derive(Resource, Default)]
struct SentBytes(u64);

fn count_sent(mut links: Query<&mut Link, With<LinkOf>>, mut sent: ResMut<SentBytes>) {
    for mut link in &mut links {
        let packets: Vec<_> = link.send.drain().collect();
        for packet in packets {
            sent.0 += packet.len() as u64;
            link.send.push(packet);
        }
    }
}

/// Time the client spent resimulating, and the ticks it resimulated.
#[derive(Resource, Default)]
struct Resimulation {
    started: Option<Instant>,
    seconds: f64,
    rollbacks: u32,
    ticks: u32,
}

/// Measures what the issue asks to report: bytes per tick for 100 moving bodies, and the
/// cost of a resimulation on a 500-body scene. By hand:
/// `cargo test --release --test multiplayer_lightyear network_costs -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, run by hand"]
fn network_costs() {
    for (boxes, label) in [(70, "100 moving bodies"), (470, "500 bodies")] {
        let mut sim = Sim::new(2);
        sim.server
            .add_systems(Startup, move |mut commands: Commands| {
                // Columns of boxes raining onto the pile for the whole run.
                for i in 0..boxes {
                    let x = -13.0 + 0.9 * (i % 29) as f32;
                    let y = 6.0 + 1.1 * (i / 29) as f32;
                    commands.spawn((
                        RigidBody::Dynamic,
                        Collider::rectangle(0.6, 0.6),
                        Transform::from_xyz(x, y, 0.0),
                        Replicate::to_clients(NetworkTarget::All),
                        PredictionTarget::to_clients(NetworkTarget::All),
                    ));
                }
            });
        sim.server.init_resource::<SentBytes>().add_systems(
            PostUpdate,
            count_sent
                .after(lightyear::connection::ConnectionSystems::Send)
                .before(lightyear::link::LinkSystems::Send),
        );
        for app in &mut sim.clients {
            app.init_resource::<Resimulation>().add_systems(
                PreUpdate,
                (
                    (|mut r: ResMut<Resimulation>| r.started = Some(Instant::now()))
                        .after(RollbackSystems::Prepare)
                        .before(RollbackSystems::Rollback)
                        .run_if(is_in_rollback),
                    (|mut r: ResMut<Resimulation>,
                      manager: Res<PredictionManager>,
                      timeline: Res<LocalTimeline>| {
                        if let (Some(start), Some(tick)) =
                            (r.started.take(), manager.get_rollback_start_tick())
                        {
                            r.seconds += start.elapsed().as_secs_f64();
                            r.rollbacks += 1;
                            r.ticks += timeline.tick().0.saturating_sub(tick.0);
                        }
                    })
                    .after(RollbackSystems::Rollback)
                    .before(RollbackSystems::EndRollback),
                ),
            );
        }
        for _ in 0..240 {
            sim.step();
        }
        let (bytes0, tick0) = (
            sim.server.world().resource::<SentBytes>().0,
            sim.server.world().resource::<LocalTimeline>().tick().0,
        );
        let mut random = Lcg(9);
        for tick in 0..300 {
            if tick % 12 == 0 {
                let bits = [0, LEFT, RIGHT, JUMP][(random.next() % 4) as usize];
                sim.set_input(0, bits);
                sim.set_input(1, bits);
            }
            sim.step();
        }
        let bytes = sim.server.world().resource::<SentBytes>().0 - bytes0;
        let ticks = sim.server.world().resource::<LocalTimeline>().tick().0 - tick0;
        let moving = {
            let mut q = sim
                .server
                .world_mut()
                .query::<(&RigidBody, &LinearVelocity)>();
            q.iter(sim.server.world())
                .filter(|(b, v)| **b == RigidBody::Dynamic && v.0.length() > 0.01)
                .count()
        };
        let r = sim.clients[0].world().resource::<Resimulation>();
        println!(
            "  client 0: {:?}, {:?}",
            sim.clients[0].world().resource::<Rollbacks>(),
            sim.clients[0]
                .world()
                .resource::<bevy_physics2d::lightyear_net::world_state::WorldStateStats>()
        );
        println!(
            "{label}: {:.0} bytes per tick per client ({moving} bodies moving at the end); \
             {} rollbacks, {:.2} ms each, {:.3} ms per resimulated tick ({} ticks)",
            bytes as f64 / ticks as f64 / 2.0,
            r.rollbacks,
            1e3 * r.seconds / r.rollbacks.max(1) as f64,
            1e3 * r.seconds / r.ticks.max(1) as f64,
            r.ticks
        );
    }
}
