//! A small platformer on the character controller: slopes, steps, a moving platform, a
//! one-way platform, a ramp and crates to push.
//!
//! ```sh
//! cargo run --release --example character      # A/D or arrows walk, Space jumps
//! ```
//!
//! The player is a `CharacterController` with a capsule collider: a kinematic body the
//! physics moves each step by its `CharacterVelocity`, as far as the level lets it. The game
//! only sets the walking speed and starts jumps; gravity, slopes (walkable to 50 degrees),
//! steps (to 0.4 m), snapping down slopes, riding the platform and pushing the light crate
//! are the controller's. The level is bare colliders: no `RigidBody`, so static.

use bevy::prelude::*;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsDebugPlugin, PhysicsSystems};

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins,
            PhysicsPlugins::default(),
            PhysicsDebugPlugin::default(),
        ))
        .add_plugins(example)
        .run();
}

/// Walking speed, m/s.
pub const WALK_SPEED: f32 = 6.0;
/// Take-off speed, m/s: v^2 / 2g = 2.5 m of height under the default gravity.
pub const JUMP_SPEED: f32 = 7.0;
/// The player capsule: radius and length between the end centres.
pub const PLAYER_RADIUS: f32 = 0.3;
/// See [`PLAYER_RADIUS`].
pub const PLAYER_LENGTH: f32 = 1.0;
/// Where the player starts (its feet).
pub const START: Vec2 = Vec2::new(0.0, 0.0);
/// Top of the step, and of the plateau the ramp climbs to.
pub const STEP_TOP: f32 = 0.3;
/// See [`STEP_TOP`].
pub const PLATEAU_TOP: f32 = 2.5;
/// The one-way platform's top face.
pub const ONE_WAY_TOP: f32 = 2.2;
/// The lift's centre at the bottom and the top of its travel (its top face 0.3 m above the
/// ground, then level with the plateau).
pub const LIFT_LOW: f32 = 0.15;
/// See [`LIFT_LOW`].
pub const LIFT_HIGH: f32 = PLATEAU_TOP - 0.15;

/// The player.
#[derive(Component)]
pub struct Player;

/// The crate light enough to push.
#[derive(Component)]
pub struct LightCrate;

/// The crate too heavy to push.
#[derive(Component)]
pub struct HeavyCrate;

/// The lift going up and down beside the cliff.
#[derive(Component)]
pub struct MovingPlatform;

/// The example's systems.
pub fn example(app: &mut App) {
    app.add_systems(Startup, setup)
        .add_systems(Update, steer_player)
        .add_systems(
            FixedPostUpdate,
            move_platform.before(PhysicsSystems::Prepare),
        );
}

/// A static box from `min` to `max` (a collider without a body).
fn block(commands: &mut Commands, min: Vec2, max: Vec2) {
    let size = max - min;
    let centre = 0.5 * (min + max);
    commands.spawn((
        Collider::rectangle(size.x, size.y),
        Transform::from_xyz(centre.x, centre.y, 0.0),
    ));
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 28.0,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(5.0, 4.0, 0.0),
    ));
    // Ground from x = -14 to 30.
    block(&mut commands, Vec2::new(-14.0, -1.0), Vec2::new(30.0, 0.0));
    // Left: a 60 degree slope, too steep to walk up, behind the heavy crate.
    commands.spawn((
        Collider::convex_hull(vec![
            Vec2::new(-14.0, 0.0),
            Vec2::new(-11.0, 0.0),
            Vec2::new(-14.0, 3.0 * 60f32.to_radians().tan()),
        ]),
        Transform::default(),
    ));
    // Right: a 0.3 m step, then a 35 degree ramp up to a plateau ending in a cliff.
    block(
        &mut commands,
        Vec2::new(3.0, 0.0),
        Vec2::new(11.0, STEP_TOP),
    );
    let rise = PLATEAU_TOP - STEP_TOP;
    let run = rise / 35f32.to_radians().tan();
    commands.spawn((
        Collider::convex_hull(vec![
            Vec2::new(5.0, STEP_TOP),
            Vec2::new(5.0 + run, STEP_TOP),
            Vec2::new(5.0 + run, PLATEAU_TOP),
        ]),
        Transform::default(),
    ));
    block(
        &mut commands,
        Vec2::new(5.0 + run, STEP_TOP),
        Vec2::new(11.0, PLATEAU_TOP),
    );
    // A lift beside the cliff, between the ground (its top a step up) and the plateau.
    commands.spawn((
        MovingPlatform,
        RigidBody::Kinematic,
        Collider::rectangle(3.0, 0.3),
        Transform::from_xyz(12.5, LIFT_LOW, 0.0),
    ));
    // A one-way platform above the start: jump up through it.
    commands.spawn((
        OneWayPlatform,
        Collider::rectangle(3.0, 0.2),
        Transform::from_xyz(START.x, ONE_WAY_TOP - 0.1, 0.0),
    ));
    // Crates on the left: a light one to push, a heavy one that stops the player.
    commands.spawn((
        LightCrate,
        RigidBody::Dynamic,
        Collider::rectangle(0.8, 0.8),
        Transform::from_xyz(-3.0, 0.4, 0.0),
    ));
    commands.spawn((
        HeavyCrate,
        RigidBody::Dynamic,
        Collider::rectangle(1.0, 1.0),
        ColliderDensity(400.0),
        Transform::from_xyz(-9.0, 0.5, 0.0),
    ));
    commands.spawn((
        Player,
        CharacterController::default(),
        Collider::capsule(PLAYER_RADIUS, PLAYER_LENGTH),
        Transform::from_xyz(START.x, START.y + PLAYER_RADIUS + PLAYER_LENGTH / 2.0, 0.0),
    ));
}

/// Arrows or A/D walk; Space, W or Up jumps from the ground.
fn steer_player(
    keys: Res<ButtonInput<KeyCode>>,
    mut player: Single<(&mut CharacterVelocity, &CharacterState), With<Player>>,
) {
    let (ref mut velocity, state) = *player;
    let mut walk = 0.0;
    if keys.any_pressed([KeyCode::KeyA, KeyCode::ArrowLeft]) {
        walk -= 1.0;
    }
    if keys.any_pressed([KeyCode::KeyD, KeyCode::ArrowRight]) {
        walk += 1.0;
    }
    velocity.0.x = WALK_SPEED * walk;
    if state.grounded && keys.any_pressed([KeyCode::Space, KeyCode::KeyW, KeyCode::ArrowUp]) {
        velocity.0.y = JUMP_SPEED;
    }
}

/// The lift goes up and down at 1.5 m/s, turning at the ends of its travel.
fn move_platform(mut platform: Single<(&Transform, &mut LinearVelocity), With<MovingPlatform>>) {
    let (transform, ref mut velocity) = *platform;
    let y = transform.translation.y;
    if y <= LIFT_LOW || velocity.0 == Vec2::ZERO {
        velocity.0 = Vec2::new(0.0, 1.5);
    } else if y >= LIFT_HIGH {
        velocity.0 = Vec2::new(0.0, -1.5);
    }
}
