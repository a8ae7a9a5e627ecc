//! Server-authoritative multiplayer with lightyear: a server simulates boxes and balls, each
//! client drives its own ball (A/D or the arrow keys to roll, W/Space to jump), predicts the
//! whole world locally and is corrected from the server.
//!
//! ```sh
//! cargo run --release --example multiplayer_lightyear -- --server
//! cargo run --release --example multiplayer_lightyear -- --client 1
//! cargo run --release --example multiplayer_lightyear -- --client 2
//! ```
//!
//! Server and clients talk netcode over UDP on 127.0.0.1:5888. A client opens a window where
//! one is available; `--headless` (on either side) runs without one, and `--seconds N` stops
//! after N seconds.
//!
//! What it takes: lightyear's `ServerPlugins`/`ClientPlugins`, the physics plugins with
//! interpolation off, `PhysicsLightyearPlugin` (feature `lightyear`) registered on both sides
//! in the same order, and a game system in `FixedUpdate` that drives each player's ball from
//! its `ActionState`, the same on server and clients.

use bevy::prelude::*;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsInterpolationPlugin, PhysicsLightyearPlugin};
use lightyear::input::client::InputSystems;
use lightyear::input::config::InputConfig;
use lightyear::input::native::prelude::{ActionState, InputMarker, InputPlugin};
use lightyear::netcode::{NetcodeClient, NetcodeServer};
use lightyear::prelude::client::ClientPlugins;
use lightyear::prelude::server::{ClientOf, ServerPlugins, ServerUdpIo, Start};
use lightyear::prelude::*;
use serde::{Deserialize, Serialize};
use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

#[allow(dead_code)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let headless = flag("--headless");
    let seconds = value("--seconds");
    let mut app = if flag("--server") {
        let mut app = headless_base(seconds);
        server_app(&mut app);
        start_udp_server(&mut app, SERVER_ADDR);
        app
    } else if let Some(id) = value("--client") {
        let mut app = if headless {
            headless_base(seconds)
        } else {
            windowed_base(seconds)
        };
        client_app(&mut app);
        connect_udp_client(&mut app, id, SERVER_ADDR);
        if !headless {
            app.add_systems(Update, read_keyboard);
        }
        app
    } else {
        eprintln!("usage: multiplayer_lightyear --server | --client N [--headless] [--seconds N]");
        return;
    };
    app.run();
}

/// Where the server listens.
pub const SERVER_ADDR: SocketAddr =
    SocketAddr::new(std::net::IpAddr::V4(Ipv4Addr::LOCALHOST), 5888);
/// One simulation tick.
pub const TICK: Duration = Duration::from_nanos(16_666_667);
/// netcode's protocol id and key for this example (a real game keeps its key secret).
pub const PROTOCOL_ID: u64 = 0x5048_5953_3244;
/// The example's netcode key.
pub const KEY: [u8; 32] = [7; 32];
/// Deepest rollback a client resimulates, in ticks (lightyear's default is 20). Late inputs
/// take 200 ms of round trip and the client's lead, about 15 ticks at 60 Hz; the server's
/// world on joining comes later still (it waits for replication and the clock's sync: 54
/// ticks seen with 100 ms each way), and a world too old to resimulate is not installed.
pub const MAX_ROLLBACK_TICKS: u16 = 128;

/// One player's input for one tick: bit flags.
#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug, Default, Reflect)]
pub struct PlayerInput(pub u8);

/// Roll left.
pub const LEFT: u8 = 1;
/// Roll right.
pub const RIGHT: u8 = 2;
/// Jump.
pub const JUMP: u8 = 4;

impl bevy::ecs::entity::MapEntities for PlayerInput {
    fn map_entities<M: bevy::ecs::entity::EntityMapper>(&mut self, _mapper: &mut M) {}
}

/// A player's ball, and the netcode id of the client driving it.
#[derive(Component, Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
pub struct Player(pub u64);

/// The input this client sends for its next tick (set by the keyboard, or by a test).
#[derive(Resource, Default, Clone, Copy)]
pub struct LocalInput(pub PlayerInput);

/// What both sides register, in the same order.
pub fn protocol(app: &mut App) {
    app.add_plugins(InputPlugin::<PlayerInput> {
        config: InputConfig {
            // Every client predicts every ball, so each needs the others' inputs.
            rebroadcast_inputs: true,
            // Each message repeats the last 10 ticks' inputs: a burst of lost packets would
            // otherwise lose an input for good (the server then corrects the state).
            packet_redundancy: 10,
            ..default()
        },
    });
    app.add_plugins(PhysicsLightyearPlugin);
    app.component::<Player>().replicate();
    app.add_systems(FixedUpdate, drive_players);
}

/// Physics for networking: the default schedule, interpolation off (lightyear resimulates by
/// running `FixedMain` again, and `Transform` must hold the last step's pose).
fn physics(app: &mut App) {
    app.add_plugins(
        PhysicsPlugins::default()
            .build()
            .disable::<PhysicsInterpolationPlugin>(),
    );
}

/// Headless: the tick loop without a window.
pub fn headless_base(seconds: Option<u64>) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(bevy::app::ScheduleRunnerPlugin::run_loop(TICK)),
        bevy::log::LogPlugin::default(),
        bevy_state::app::StatesPlugin,
        bevy::transform::TransformPlugin,
    ));
    stop_after(&mut app, seconds);
    app.add_systems(Update, report_bodies);
    app
}

/// Every two seconds (headless), what this peer simulates.
fn report_bodies(
    time: Res<Time<Real>>,
    mut next: Local<f64>,
    bodies: Query<(&RigidBody, &Transform)>,
    players: Query<(&Player, &Transform)>,
) {
    if time.elapsed_secs_f64() < *next {
        return;
    }
    *next = time.elapsed_secs_f64() + 2.0;
    let dynamic = bodies
        .iter()
        .filter(|(body, _)| **body == RigidBody::Dynamic)
        .count();
    let balls: Vec<String> = players
        .iter()
        .map(|(p, t)| format!("player {} at {:.2}", p.0, t.translation.truncate()))
        .collect();
    info!("{dynamic} dynamic bodies; {}", balls.join(", "));
}

fn windowed_base(seconds: Option<u64>) -> App {
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins,
        bevy_physics2d::PhysicsDebugPlugin::default(),
    ))
    .add_systems(Startup, |mut commands: Commands| {
        commands.spawn((
            Camera2d,
            Projection::Orthographic(OrthographicProjection {
                scale: 1.0 / 40.0,
                ..OrthographicProjection::default_2d()
            }),
            Transform::from_xyz(0.0, 5.0, 0.0),
        ));
    });
    stop_after(&mut app, seconds);
    app
}

fn stop_after(app: &mut App, seconds: Option<u64>) {
    if let Some(seconds) = seconds {
        app.add_systems(
            Update,
            move |time: Res<Time<Real>>, mut exit: MessageWriter<AppExit>| {
                if time.elapsed_secs_f64() >= seconds as f64 {
                    exit.write(AppExit::Success);
                }
            },
        );
    }
}

/// The server's plugins, protocol and world; players are spawned as clients connect.
pub fn server_app(app: &mut App) {
    app.add_plugins(ServerPlugins {
        tick_duration: TICK,
    });
    protocol(app);
    physics(app);
    app.add_observer(|on: On<Add, LinkOf>, mut commands: Commands| {
        commands.entity(on.entity).insert(ReplicationSender);
    })
    .add_observer(spawn_player)
    .add_systems(Startup, spawn_world);
}

/// Everything the server simulates and every client predicts.
fn replicated() -> impl Bundle {
    (
        Replicate::to_clients(NetworkTarget::All),
        PredictionTarget::to_clients(NetworkTarget::All),
    )
}

fn spawn_world(mut commands: Commands) {
    commands.spawn((
        RigidBody::Static,
        Collider::rectangle(30.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
        replicated(),
    ));
    for side in [-1.0, 1.0] {
        commands.spawn((
            RigidBody::Static,
            Collider::rectangle(1.0, 12.0),
            Transform::from_xyz(side * 15.5, 6.0, 0.0),
            replicated(),
        ));
    }
    for row in 0..4 {
        for column in 0..6 {
            let x = -6.0 + 2.4 * column as f32 + 0.3 * (row % 2) as f32;
            let y = 0.5 + 1.1 * row as f32;
            commands.spawn((
                RigidBody::Dynamic,
                Collider::rectangle(1.0, 1.0),
                Transform::from_xyz(x, y, 0.0),
                replicated(),
            ));
        }
    }
    for i in 0..6 {
        commands.spawn((
            RigidBody::Dynamic,
            Collider::circle(0.35),
            Transform::from_xyz(-9.0 + 3.6 * i as f32, 7.0, 0.0),
            LinearDamping(0.3),
            AngularDamping(0.3),
            replicated(),
        ));
    }
}

/// A ball for each client that connects, driven by that client.
fn spawn_player(
    on: On<Add, Connected>,
    links: Query<&RemoteId, With<ClientOf>>,
    mut commands: Commands,
) {
    let Ok(remote) = links.get(on.entity) else {
        return;
    };
    let id = match remote.0 {
        PeerId::Netcode(id) => id,
        _ => 0,
    };
    info!("client {id} connected");
    commands.spawn((
        Player(id),
        RigidBody::Dynamic,
        Collider::circle(0.5),
        Transform::from_xyz(-10.0 + 4.0 * (id % 6) as f32, 2.0, 0.0),
        LinearDamping(0.5),
        AngularDamping(0.5),
        replicated(),
        ControlledBy {
            owner: on.entity,
            lifetime: Lifetime::SessionBased,
        },
    ));
}

/// The example's netcode server; `check_addresses` off for links without a socket address
/// (crossbeam channels).
pub fn netcode_server(check_addresses: bool) -> NetcodeServer {
    NetcodeServer::new(lightyear::netcode::server_plugin::NetcodeConfig {
        protocol_id: PROTOCOL_ID,
        private_key: KEY,
        server_addr_check: check_addresses,
        ..default()
    })
}

/// The example's netcode client `id`, for a server at `server`.
pub fn netcode_client(id: u64, server: SocketAddr) -> NetcodeClient {
    let auth = Authentication::Manual {
        server_addr: server,
        client_id: id,
        private_key: KEY,
        protocol_id: PROTOCOL_ID,
    };
    let config = lightyear::netcode::client_plugin::NetcodeConfig {
        // Connect whenever the client starts, however long after the token was made.
        token_expire_secs: -1,
        ..default()
    };
    NetcodeClient::new(auth, config).expect("a manual netcode token is valid")
}

/// Starts a UDP server at `addr`.
pub fn start_udp_server(app: &mut App, addr: SocketAddr) {
    let server = app
        .world_mut()
        .spawn((
            netcode_server(true),
            LocalAddr(addr),
            ServerUdpIo::default(),
        ))
        .id();
    app.add_systems(Startup, move |mut commands: Commands| {
        commands.trigger(Start { entity: server });
    });
}

/// The client's plugins, protocol and prediction.
pub fn client_app(app: &mut App) {
    app.add_plugins(ClientPlugins {
        tick_duration: TICK,
    });
    protocol(app);
    physics(app);
    let mut prediction = PredictionManager::default();
    prediction.rollback_policy.max_rollback_ticks = MAX_ROLLBACK_TICKS;
    app.insert_resource(prediction)
        .init_resource::<LocalInput>()
        .add_observer(|on: On<Add, Controlled>, mut commands: Commands| {
            commands
                .entity(on.entity)
                .insert(InputMarker::<PlayerInput>::default());
        })
        .add_systems(
            FixedPreUpdate,
            // Only for new ticks: a resimulated tick replays the input lightyear buffered.
            write_input
                .in_set(InputSystems::WriteClientInputs)
                .run_if(not(is_in_rollback)),
        );
}

/// Connects client `id` to a UDP server at `server`.
pub fn connect_udp_client(app: &mut App, id: u64, server: SocketAddr) {
    let client = app
        .world_mut()
        .spawn((
            Client,
            LocalAddr(SocketAddr::new(Ipv4Addr::LOCALHOST.into(), 0)),
            UdpIo::default(),
            ReplicationReceiver,
            netcode_client(id, server),
        ))
        .id();
    app.add_systems(Startup, move |mut commands: Commands| {
        commands.trigger(Connect { entity: client });
    });
}

/// This tick's input for the local ball.
fn write_input(
    input: Res<LocalInput>,
    mut actions: Query<&mut ActionState<PlayerInput>, With<InputMarker<PlayerInput>>>,
) {
    for mut action in &mut actions {
        action.0 = input.0;
    }
}

fn read_keyboard(keys: Res<ButtonInput<KeyCode>>, mut input: ResMut<LocalInput>) {
    let held = |codes: &[KeyCode]| codes.iter().any(|&code| keys.pressed(code));
    let mut bits = 0;
    if held(&[KeyCode::KeyA, KeyCode::ArrowLeft]) {
        bits |= LEFT;
    }
    if held(&[KeyCode::KeyD, KeyCode::ArrowRight]) {
        bits |= RIGHT;
    }
    if held(&[KeyCode::KeyW, KeyCode::ArrowUp, KeyCode::Space]) {
        bits |= JUMP;
    }
    input.0 = PlayerInput(bits);
}

/// Rolls each ball by its player's input (server and clients alike, in resimulation too).
fn drive_players(
    mut players: Query<(
        &ActionState<PlayerInput>,
        &mut LinearVelocity,
        &mut AngularVelocity,
    )>,
) {
    for (action, mut velocity, mut spin) in &mut players {
        let bits = action.0.0;
        let direction = (bits & RIGHT != 0) as i32 - (bits & LEFT != 0) as i32;
        if direction != 0 {
            let target = 6.0 * direction as f32;
            velocity.0.x += (target - velocity.0.x) * 0.1;
            spin.0 = -velocity.0.x / 0.5;
        }
        if bits & JUMP != 0 && velocity.0.y.abs() < 0.05 {
            velocity.0.y = 6.0;
        }
    }
}
