//! A piston and crank: a motor turns the crank, a connecting rod pushes the piston up and down
//! its cylinder (a prismatic joint), and the piston bumps boxes stacked on it.
//!
//! ```sh
//! cargo run --release --example piston_crank
//! ```

use bevy::prelude::*;
use bevy_physics2d::PhysicsDebugPlugin;
use bevy_physics2d::prelude::*;

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

/// Crank radius, m: the piston's stroke is twice this.
pub const CRANK_RADIUS: f32 = 1.0;
/// Connecting rod length, m.
pub const ROD_LENGTH: f32 = 3.0;
/// The crank's axle.
pub const AXLE: Vec2 = Vec2::new(0.0, 2.0);
/// Crank speed, rad/s.
pub const CRANK_SPEED: f32 = std::f32::consts::PI;

/// The piston.
#[derive(Component)]
pub struct Piston;

/// The example's systems.
pub fn example(app: &mut App) {
    app.add_systems(Startup, setup);
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 50.0,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(0.0, 5.0, 0.0),
    ));
    let world = Entity::PLACEHOLDER;
    // The crank starts pointing up, so the rod and piston stand straight above it.
    let crank_pin = AXLE + Vec2::Y * CRANK_RADIUS;
    let crank = commands
        .spawn((
            RigidBody::Dynamic,
            Collider::capsule(0.2, CRANK_RADIUS),
            Transform::from_translation((AXLE + Vec2::Y * 0.5 * CRANK_RADIUS).extend(0.0)),
        ))
        .id();
    commands.spawn(
        Joint::revolute(world, crank)
            .with_anchor(AXLE)
            .with_motor(CRANK_SPEED, 10_000.0),
    );
    let wrist_pin = crank_pin + Vec2::Y * ROD_LENGTH;
    let rod = commands
        .spawn((
            RigidBody::Dynamic,
            Collider::capsule(0.15, ROD_LENGTH),
            Transform::from_translation((crank_pin + Vec2::Y * 0.5 * ROD_LENGTH).extend(0.0)),
        ))
        .id();
    commands.spawn(Joint::revolute(crank, rod).with_anchor(crank_pin));
    let piston = commands
        .spawn((
            Piston,
            RigidBody::Dynamic,
            Collider::rectangle(1.5, 0.8),
            Transform::from_translation(wrist_pin.extend(0.0)),
        ))
        .id();
    commands.spawn(Joint::revolute(rod, piston).with_anchor(wrist_pin));
    commands.spawn(Joint::prismatic(world, piston, Vec2::Y).with_anchor(wrist_pin));
    // Cylinder walls, and boxes riding on the piston.
    // They start 1.5 m below the top of the stroke: low enough that the boxes cannot slip out
    // under them, high enough to clear the rod when the crank is sideways.
    for x in [-0.95, 0.95] {
        commands.spawn((
            RigidBody::Static,
            Collider::rectangle(0.2, 5.5),
            Transform::from_xyz(x, wrist_pin.y + 1.25, 0.0),
        ));
    }
    for i in 0..3 {
        commands.spawn((
            RigidBody::Dynamic,
            Collider::rectangle(0.5, 0.5),
            Transform::from_xyz(
                -0.3 + 0.3 * (i % 2) as f32,
                wrist_pin.y + 0.8 + 0.6 * i as f32,
                0.0,
            ),
        ));
    }
}
