//! A car on hilly terrain: a chassis on two sprung wheel joints with a motor on the rear wheel.
//!
//! ```sh
//! cargo run --release --example car      # D or Right drives, A or Left reverses, no key brakes
//! ```
//!
//! The terrain is one static body with a polyline collider (a chain of one-sided segments).

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

/// The car's body.
#[derive(Component)]
pub struct Chassis;

/// The driven wheel's joint.
#[derive(Component)]
pub struct RearAxle;

/// Wheel spin when driving, rad/s (10 m/s with 0.4 m wheels).
pub const DRIVE_SPEED: f32 = 25.0;
/// Motor torque, N m: below the ~29 N m by which the car's weight (chassis and front wheel)
/// resists tipping backwards about the rear axle, so full throttle does not flip it.
pub const DRIVE_TORQUE: f32 = 20.0;

/// The example's systems.
pub fn example(app: &mut App) {
    app.add_systems(Startup, setup)
        .add_systems(Update, (drive, follow_car));
}

/// Terrain height at `x`: flat start, rolling hills, a ramp.
pub fn terrain_height(x: f32) -> f32 {
    if x < 5.0 {
        0.0
    } else {
        0.8 * ((x - 5.0) * 0.35).sin() * (1.0 + 0.02 * (x - 5.0)) + 0.01 * (x - 5.0)
    }
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 40.0,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(0.0, 3.0, 0.0),
    ));
    // The ground is one chain, listed left to right so it is driven on from above: the
    // wheels roll over its 120 joints without catching. It starts with a wall.
    let mut points = vec![Vec2::new(-20.0, 5.0)];
    points.extend((0..=120).map(|i| {
        let x = -20.0 + i as f32;
        Vec2::new(x, terrain_height(x))
    }));
    commands.spawn((
        RigidBody::Static,
        Collider::polyline(points),
        Transform::default(),
    ));

    let chassis = commands
        .spawn((
            Chassis,
            RigidBody::Dynamic,
            Collider::convex_hull(vec![
                Vec2::new(-1.5, -0.3),
                Vec2::new(1.5, -0.3),
                Vec2::new(1.5, 0.0),
                Vec2::new(0.0, 0.6),
                Vec2::new(-1.2, 0.6),
                Vec2::new(-1.5, 0.2),
            ]),
            Transform::from_xyz(0.0, 1.0, 0.0),
        ))
        .id();
    for (dx, driven) in [(-1.0, true), (1.1, false)] {
        let wheel = commands
            .spawn((
                RigidBody::Dynamic,
                Collider::circle(0.4),
                Friction(0.9),
                Transform::from_xyz(dx, 0.4, 0.0),
            ))
            .id();
        let mut joint = commands.spawn(
            Joint::wheel(chassis, wheel, Vec2::Y)
                .with_anchor(Vec2::new(dx, 0.4))
                .with_spring(5.0, 0.7)
                .with_motor(0.0, if driven { DRIVE_TORQUE } else { 0.0 }),
        );
        if driven {
            joint.insert(RearAxle);
        }
    }
}

/// Keys set the rear motor: the joint's motor speed is negative for forwards, as wheels roll
/// clockwise (negative angular velocity) when moving right.
fn drive(keys: Res<ButtonInput<KeyCode>>, mut axle: Single<&mut Joint, With<RearAxle>>) {
    let forward = keys.any_pressed([KeyCode::KeyD, KeyCode::ArrowRight]);
    let back = keys.any_pressed([KeyCode::KeyA, KeyCode::ArrowLeft]);
    let speed = match (forward, back) {
        (true, false) => -DRIVE_SPEED,
        (false, true) => DRIVE_SPEED,
        // No key: the motor holds the wheel still, a brake.
        _ => 0.0,
    };
    if let Err(error) = axle.set_motor_speed(speed) {
        warn!("{error}");
    }
}

fn follow_car(
    chassis: Single<&Transform, (With<Chassis>, Without<Camera2d>)>,
    mut camera: Single<&mut Transform, With<Camera2d>>,
) {
    camera.translation.x = chassis.translation.x;
    camera.translation.y = chassis.translation.y + 2.0;
}
