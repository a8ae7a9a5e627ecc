//! Rollback networking with bevy_ggrs: boxes fall on a ground and a ball follows your input
//! (A/D or the arrow keys to roll, W/Space/Up to jump). The game runs in a GGRS
//! `SyncTestSession`, which every frame rolls back a few frames, resimulates them and compares
//! checksums of every body's transform and velocity with the first run. A mismatch is counted
//! and logged; there should be none.
//!
//! ```sh
//! cargo run --release --example rollback_ggrs
//! ```
//!
//! What it takes: `PhysicsPlugins::new(GgrsSchedule)` (interpolation off), the plugin's
//! `PhysicsRollbackPlugin` (feature `ggrs`), and game systems in `GgrsSchedule` ordered
//! before `PhysicsSystems::Prepare`, reading inputs only from `PlayerInputs`.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_ggrs::prelude::*;
use bevy_ggrs::{LocalInputs, LocalPlayers};
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsDebugPlugin, PhysicsInterpolationPlugin, PhysicsRollbackPlugin};

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, PhysicsDebugPlugin::default()))
        .add_plugins(example)
        .insert_resource(sync_test_session(CHECK_DISTANCE))
        .add_systems(Startup, camera)
        .run();
}

/// Frames the sync test rolls back and resimulates, every frame.
pub const CHECK_DISTANCE: usize = 7;

/// One player's input for one frame: bit flags.
pub type PlayerInput = u8;
/// Roll left.
pub const INPUT_LEFT: PlayerInput = 1;
/// Roll right.
pub const INPUT_RIGHT: PlayerInput = 2;
/// Jump (when touching something).
pub const INPUT_JUMP: PlayerInput = 4;

/// The GGRS configuration: one byte of input per player.
pub type RollbackConfig = GgrsConfig<PlayerInput>;

/// The player-controlled ball.
#[derive(Component)]
pub struct Player;

/// Sync-test frames whose resimulation did not match the first run.
#[derive(Resource, Default)]
pub struct Mismatches(pub Vec<i32>);

/// A local sync-test session for one player.
pub fn sync_test_session(check_distance: usize) -> Session<RollbackConfig> {
    let session = SessionBuilder::<RollbackConfig>::new()
        .with_num_players(1)
        .and_then(|b| {
            b.with_check_distance(check_distance)
                .add_player(PlayerType::Local, 0)
        })
        .and_then(|b| b.start_synctest_session())
        .expect("a one-player sync test session is valid");
    Session::SyncTest(session)
}

/// The example's plugins and systems (the rollback test adds this to a window-less App).
pub fn example(app: &mut App) {
    app.add_plugins((
        GgrsPlugin::<RollbackConfig>::default(),
        PhysicsPlugins::new(GgrsSchedule)
            .build()
            .disable::<PhysicsInterpolationPlugin>(),
        PhysicsRollbackPlugin,
    ))
    .insert_resource(RollbackFrameRate(60))
    .init_resource::<Mismatches>()
    .add_observer(
        |mismatch: On<SyncTestMismatch>, mut seen: ResMut<Mismatches>| {
            warn!(
                "rollback mismatch at frame {}",
                mismatch.event().current_frame
            );
            seen.0.extend(&mismatch.event().mismatched_frames);
        },
    )
    .add_systems(ReadInputs, read_keyboard)
    .add_systems(GgrsSchedule, drive_player.before(PhysicsSystems::Prepare))
    .add_systems(Startup, setup);
}

fn camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 40.0,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(0.0, 5.0, 0.0),
    ));
}

/// The ground, walls, boxes and the player's ball.
pub fn setup(mut commands: Commands) {
    commands.spawn((
        RigidBody::Static,
        Collider::rectangle(30.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    for side in [-1.0, 1.0] {
        commands.spawn((
            RigidBody::Static,
            Collider::rectangle(1.0, 12.0),
            Transform::from_xyz(side * 15.5, 6.0, 0.0),
        ));
    }
    for row in 0..5 {
        for column in 0..8 {
            let x = -7.0 + 2.0 * column as f32 + 0.25 * (row % 2) as f32;
            let y = 2.0 + 1.5 * row as f32;
            commands.spawn((
                RigidBody::Dynamic,
                Collider::rectangle(1.0, 1.0),
                Transform::from_xyz(x, y, 0.0).with_rotation(Quat::from_rotation_z(0.2 * x)),
            ));
        }
    }
    commands.spawn((
        Player,
        RigidBody::Dynamic,
        Collider::circle(0.5),
        Transform::from_xyz(-10.0, 1.0, 0.0),
    ));
}

/// Reads the keyboard into this frame's local input (outside the rollback schedule, once per
/// real frame).
fn read_keyboard(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    local_players: Res<LocalPlayers>,
) {
    let held = |codes: &[KeyCode]| codes.iter().any(|&code| keys.pressed(code));
    let mut input = 0;
    if held(&[KeyCode::KeyA, KeyCode::ArrowLeft]) {
        input |= INPUT_LEFT;
    }
    if held(&[KeyCode::KeyD, KeyCode::ArrowRight]) {
        input |= INPUT_RIGHT;
    }
    if held(&[KeyCode::KeyW, KeyCode::ArrowUp, KeyCode::Space]) {
        input |= INPUT_JUMP;
    }
    let inputs: HashMap<_, _> = local_players.0.iter().map(|&h| (h, input)).collect();
    commands.insert_resource(LocalInputs::<RollbackConfig>(inputs));
}

/// Rolling speed the ball is driven towards, m/s.
const ROLL_SPEED: f32 = 6.0;
/// Upward speed of a jump, m/s.
const JUMP_SPEED: f32 = 7.0;

/// Drives the ball from the frame's input: its horizontal speed eases towards the rolling
/// speed, and a jump sets its vertical speed when it is not already moving up or down.
pub fn drive_player(
    inputs: Res<PlayerInputs<RollbackConfig>>,
    mut players: Query<&mut LinearVelocity, With<Player>>,
) {
    let input = inputs[0].0;
    for mut velocity in &mut players {
        let mut target = 0.0;
        if input & INPUT_LEFT != 0 {
            target -= ROLL_SPEED;
        }
        if input & INPUT_RIGHT != 0 {
            target += ROLL_SPEED;
        }
        let v = velocity.0;
        let mut next = Vec2::new(v.x + 0.2 * (target - v.x), v.y);
        if input & INPUT_JUMP != 0 && v.y.abs() < 0.05 {
            next.y = JUMP_SPEED;
        }
        if next != v {
            velocity.0 = next;
        }
    }
}
