//! Sensors: a zone that detects bodies passing through without touching them. Balls fall
//! through it onto the ground; `SensorEntered` and `SensorExited` keep a list of what is
//! inside.
//!
//! ```sh
//! cargo run --release --example sensors
//! ```

use bevy::platform::collections::HashSet;
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

/// Balls dropped through the zone.
pub const BALLS: usize = 6;

/// What the sensor has seen.
#[derive(Resource, Default, Debug)]
pub struct Zone {
    /// Colliders inside now.
    pub inside: HashSet<Entity>,
    /// Entries so far.
    pub entered: usize,
    /// Exits so far.
    pub exited: usize,
}

/// The example's systems.
pub fn example(app: &mut App) {
    app.init_resource::<Zone>()
        .add_systems(Startup, setup)
        .add_systems(Update, (track_zone, show_zone).chain());
}

#[derive(Component)]
struct ZoneText;

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 40.0,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(0.0, 5.0, 0.0),
    ));
    commands.spawn((
        RigidBody::Static,
        Collider::rectangle(20.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    // A sensor reports overlaps and never pushes anything. Static sensors see moving bodies.
    commands.spawn((
        RigidBody::Static,
        Collider::rectangle(8.0, 2.0),
        Sensor,
        Transform::from_xyz(0.0, 4.0, 0.0),
    ));
    for i in 0..BALLS {
        commands.spawn((
            RigidBody::Dynamic,
            Collider::circle(0.3),
            Transform::from_xyz(-2.5 + i as f32, 8.0 + 0.8 * i as f32, 0.0),
        ));
    }
    commands.spawn((
        ZoneText,
        Text::new(""),
        Node {
            position_type: PositionType::Absolute,
            left: px(10),
            top: px(10),
            ..default()
        },
    ));
}

fn track_zone(
    mut entered: MessageReader<SensorEntered>,
    mut exited: MessageReader<SensorExited>,
    mut zone: ResMut<Zone>,
) {
    for event in entered.read() {
        zone.inside.insert(event.visitor);
        zone.entered += 1;
    }
    for event in exited.read() {
        zone.inside.remove(&event.visitor);
        zone.exited += 1;
    }
}

fn show_zone(zone: Res<Zone>, mut text: Single<&mut Text, With<ZoneText>>) {
    text.0 = format!(
        "inside the zone: {}   entered {}   left {}",
        zone.inside.len(),
        zone.entered,
        zone.exited
    );
}
