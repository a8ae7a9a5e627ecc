//! Kinematic bodies: moved by the velocity you give them, pushing dynamic bodies and carrying
//! what rests on them, never pushed back. A platform slides back and forth with boxes on it; a
//! paddle turns at a steady rate.
//!
//! ```sh
//! cargo run --release --example kinematic_platforms
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

/// The sliding platform's speed, m/s, and how far it goes each way from its start.
pub const PLATFORM_SPEED: f32 = 2.0;
/// See [`PLATFORM_SPEED`].
pub const PLATFORM_RANGE: f32 = 4.0;
/// The platform's top face.
pub const PLATFORM_TOP: f32 = 2.0;

/// The sliding platform.
#[derive(Component)]
pub struct Slider;

/// A box that starts on the slider.
#[derive(Component)]
pub struct Passenger;

/// The example's systems.
pub fn example(app: &mut App) {
    app.add_systems(Startup, setup)
        .add_systems(FixedUpdate, turn_slider_round);
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 40.0,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(0.0, 4.0, 0.0),
    ));
    commands.spawn((
        RigidBody::Static,
        Collider::rectangle(30.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    // Kinematic bodies move by their velocity alone.
    commands.spawn((
        Slider,
        RigidBody::Kinematic,
        Collider::rectangle(4.0, 0.4),
        LinearVelocity(Vec2::new(PLATFORM_SPEED, 0.0)),
        Transform::from_xyz(-4.0, PLATFORM_TOP - 0.2, 0.0),
    ));
    for i in 0..3 {
        commands.spawn((
            Passenger,
            RigidBody::Dynamic,
            Collider::rectangle(0.6, 0.6),
            Friction(0.8),
            Transform::from_xyz(-5.0 + 0.9 * i as f32, PLATFORM_TOP + 0.3, 0.0),
        ));
    }
    commands.spawn((
        RigidBody::Kinematic,
        Collider::rectangle(5.0, 0.3),
        AngularVelocity(1.0),
        Transform::from_xyz(7.0, 3.0, 0.0),
    ));
    for i in 0..6 {
        commands.spawn((
            RigidBody::Dynamic,
            Collider::circle(0.3),
            Transform::from_xyz(5.5 + 0.6 * i as f32, 6.0 + 0.5 * i as f32, 0.0),
        ));
    }
}

/// Reverses the slider at the ends of its range.
fn turn_slider_round(mut slider: Single<(&Transform, &mut LinearVelocity), With<Slider>>) {
    let (transform, ref mut velocity) = *slider;
    let x = transform.translation.x;
    if x > -4.0 + PLATFORM_RANGE && velocity.0.x > 0.0 {
        velocity.0.x = -PLATFORM_SPEED;
    } else if x < -4.0 - PLATFORM_RANGE && velocity.0.x < 0.0 {
        velocity.0.x = PLATFORM_SPEED;
    }
}
