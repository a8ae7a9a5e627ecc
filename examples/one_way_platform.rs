//! One-way platforms: the player jumps up through them from below and lands on top.
//!
//! ```sh
//! cargo run --release --example one_way_platform      # A/D or arrows move, Space jumps
//! ```
//!
//! A collision hook decides, for every contact of a platform in every step, whether it
//! holds: for the player only while the player's feet are above the platform's top face
//! (boxes always land on platforms). The hook is a `SystemParam` reading the ECS, installed
//! with `PhysicsPlugins::with_collision_hooks`; the platforms opt in with
//! `ActiveCollisionHooks::MODIFY_CONTACTS`, so nothing else pays for it.

use bevy::app::PluginGroupBuilder;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_physics2d::PhysicsDebugPlugin;
use bevy_physics2d::prelude::*;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins,
            physics_plugins(),
            PhysicsDebugPlugin::default(),
        ))
        .add_plugins(example)
        .run();
}

/// The physics plugins with this example's collision hooks.
pub fn physics_plugins() -> PluginGroupBuilder {
    PhysicsPlugins::default().with_collision_hooks::<OneWayHooks>()
}

/// The hook: what it reads of the world.
#[derive(SystemParam)]
pub struct OneWayHooks<'w, 's> {
    platforms: Query<'w, 's, &'static OneWay>,
    player: Query<'w, 's, &'static Transform, With<Player>>,
}

impl CollisionHooks for OneWayHooks<'_, '_> {
    /// A platform's contact with the player holds only while the player's feet are above
    /// its top face (5 cm below it still counts, for the resting contact); the player
    /// passes up through it, and lands on it from above.
    fn modify_contacts(&self, contact: &mut ContactPair, _: &mut Commands) -> bool {
        let (a, b) = (contact.collider1, contact.collider2);
        let (platform, other) = match (self.platforms.get(a), self.platforms.get(b)) {
            (Ok(platform), _) => (platform, b),
            (_, Ok(platform)) => (platform, a),
            _ => return true,
        };
        match self.player.get(other) {
            Ok(player) => feet(player) >= platform.top - 0.05,
            Err(_) => true,
        }
    }
}

/// The player's collision layer.
pub const PLAYER_LAYER: u64 = 1 << 1;
/// The platforms' layer.
pub const PLATFORM_LAYER: u64 = 1 << 2;
/// Everything else.
pub const WORLD_LAYER: u64 = 1;
/// The player capsule: radius and segment length.
pub const PLAYER_RADIUS: f32 = 0.4;
/// See [`PLAYER_RADIUS`].
pub const PLAYER_LENGTH: f32 = 0.8;
/// Take-off speed, m/s: v^2 / 2g = 4.7 m of height under the default gravity of 10 m/s^2.
pub const JUMP_SPEED: f32 = 9.7;
/// Top faces of the platforms, metres.
pub const PLATFORM_TOPS: [f32; 2] = [3.0, 6.0];

/// The player.
#[derive(Component)]
pub struct Player;

/// A one-way platform, with the height of its top face.
#[derive(Component)]
pub struct OneWay {
    /// Top face, metres.
    pub top: f32,
}

/// The example's systems.
pub fn example(app: &mut App) {
    app.add_systems(Startup, setup)
        .add_systems(Update, move_player);
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 45.0,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(0.0, 4.0, 0.0),
    ));
    commands.spawn((
        RigidBody::Static,
        Collider::rectangle(24.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    for (i, top) in PLATFORM_TOPS.into_iter().enumerate() {
        commands.spawn((
            OneWay { top },
            RigidBody::Static,
            Collider::rectangle(5.0, 0.3),
            CollisionLayers::new(PLATFORM_LAYER, WORLD_LAYER | PLAYER_LAYER),
            ActiveCollisionHooks::MODIFY_CONTACTS,
            Transform::from_xyz(-1.0 + 2.5 * i as f32, top - 0.15, 0.0),
        ));
    }
    commands.spawn((
        Player,
        RigidBody::Dynamic,
        LockedRotation,
        Collider::capsule(PLAYER_RADIUS, PLAYER_LENGTH),
        Friction(0.0),
        CollisionLayers::new(PLAYER_LAYER, WORLD_LAYER | PLATFORM_LAYER),
        Transform::from_xyz(-1.0, PLAYER_LENGTH / 2.0 + PLAYER_RADIUS, 0.0),
    ));
    // Boxes on the lower platform (clear of the player's jump) and on the ground.
    for at in [
        Vec2::new(-3.0, 3.5),
        Vec2::new(-2.2, 3.5),
        Vec2::new(4.0, 0.5),
    ] {
        commands.spawn((
            RigidBody::Dynamic,
            Collider::rectangle(0.6, 0.6),
            CollisionLayers::new(WORLD_LAYER, WORLD_LAYER | PLATFORM_LAYER | PLAYER_LAYER),
            Transform::from_translation(at.extend(0.0)),
        ));
    }
}

/// Height of the player's feet above its centre's.
fn feet(transform: &Transform) -> f32 {
    transform.translation.y - PLAYER_LENGTH / 2.0 - PLAYER_RADIUS
}

/// Arrows or A/D walk; Space, W or Up jumps when standing on something.
fn move_player(
    keys: Res<ButtonInput<KeyCode>>,
    query: SpatialQuery,
    mut player: Single<(Entity, &Transform, &mut LinearVelocity), With<Player>>,
) {
    let (entity, transform, ref mut velocity) = *player;
    let mut walk = 0.0;
    if keys.any_pressed([KeyCode::KeyA, KeyCode::ArrowLeft]) {
        walk -= 1.0;
    }
    if keys.any_pressed([KeyCode::KeyD, KeyCode::ArrowRight]) {
        walk += 1.0;
    }
    velocity.0.x = 5.0 * walk;
    let jump = keys.any_pressed([KeyCode::Space, KeyCode::KeyW, KeyCode::ArrowUp]);
    if !jump || velocity.0.y > 0.5 {
        return;
    }
    // Standing: something solid within a few centimetres below the feet.
    let filter = SpatialQueryFilter::default()
        .with_mask(WORLD_LAYER | PLATFORM_LAYER)
        .with_excluded([entity]);
    let below = Vec2::new(transform.translation.x, feet(transform) + 0.02);
    if query.cast_ray(below, Vec2::NEG_Y, 0.08, &filter).is_some() {
        velocity.0.y = JUMP_SPEED;
    }
}
