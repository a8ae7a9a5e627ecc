//! The quick start: a ground, and boxes, balls, capsules and polygons falling onto it.
//!
//! ```sh
//! cargo run --release --example falling_shapes
//! ```
//!
//! Units are metres: the camera shows 40 pixels per metre; gravity is 10 m/s^2 downwards.

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

/// The height of the ground's top face.
pub const GROUND_TOP: f32 = 0.0;

/// The example's systems (headless tests add this to a window-less App).
pub fn example(app: &mut App) {
    app.add_systems(Startup, setup);
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 40.0,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(0.0, 6.0, 0.0),
    ));
    // A static body never moves; its collider is 30 m wide and 1 m thick.
    commands.spawn((
        RigidBody::Static,
        Collider::rectangle(30.0, 1.0),
        Transform::from_xyz(0.0, GROUND_TOP - 0.5, 0.0),
    ));
    let shapes = [
        Collider::rectangle(1.0, 1.0),
        Collider::circle(0.5),
        Collider::capsule(0.3, 0.8),
        Collider::regular_polygon(0.6, 5),
        Collider::round_rectangle(1.2, 0.6, 0.1),
    ];
    for row in 0..6 {
        for column in 0..10 {
            let x = -6.75 + 1.5 * column as f32 + 0.3 * (row % 2) as f32;
            let y = 3.0 + 1.6 * row as f32;
            commands.spawn((
                RigidBody::Dynamic,
                shapes[(row + column) % shapes.len()].clone(),
                Transform::from_xyz(x, y, 0.0).with_rotation(Quat::from_rotation_z(0.3 * x)),
            ));
        }
    }
}
