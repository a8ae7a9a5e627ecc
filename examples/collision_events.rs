//! Collision events: balls with `CollisionEventsEnabled` report when they start and stop
//! touching, both as messages (read by a system) and as entity events (an observer on each
//! ball). A ball flashes white for a moment when it lands on something.
//!
//! ```sh
//! cargo run --release --example collision_events
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

/// Balls dropped.
pub const BALLS: usize = 8;

/// What the events said so far.
#[derive(Resource, Default, Debug)]
pub struct Tally {
    /// `CollisionStart` messages read.
    pub starts: usize,
    /// `CollisionEnd` messages read.
    pub ends: usize,
    /// `CollisionStart` events seen by the balls' observers.
    pub observed: usize,
}

/// Seconds a ball stays lit after a hit.
#[derive(Component, Default)]
pub struct Flash(pub f32);

/// The example's systems.
pub fn example(app: &mut App) {
    app.init_resource::<Tally>()
        .add_systems(Startup, setup)
        .add_systems(Update, (count_messages, draw_flashes, show_tally));
}

/// The tally's text.
#[derive(Component)]
struct TallyText;

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
    // A wedge the balls bounce off on their way down.
    commands.spawn((
        RigidBody::Static,
        Collider::convex_hull(vec![
            Vec2::new(-2.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(0.0, 1.5),
        ]),
        Transform::from_xyz(0.0, 3.0, 0.0),
    ));
    for i in 0..BALLS {
        commands
            .spawn((
                RigidBody::Dynamic,
                Collider::circle(0.3),
                Restitution(0.5),
                CollisionEventsEnabled,
                Flash::default(),
                Transform::from_xyz(-3.5 + i as f32, 8.0 + 0.7 * i as f32, 0.0),
            ))
            // Entity events reach observers on the collider involved.
            .observe(
                |hit: On<CollisionStart>,
                 mut flashes: Query<&mut Flash>,
                 mut tally: ResMut<Tally>| {
                    tally.observed += 1;
                    if let Ok(mut flash) = flashes.get_mut(hit.collider1) {
                        flash.0 = 0.2;
                    }
                },
            );
    }
    commands.spawn((
        TallyText,
        Text::new(""),
        Node {
            position_type: PositionType::Absolute,
            left: px(10),
            top: px(10),
            ..default()
        },
    ));
}

/// Messages: every start and end, from any collider with events enabled.
fn count_messages(
    mut starts: MessageReader<CollisionStart>,
    mut ends: MessageReader<CollisionEnd>,
    mut tally: ResMut<Tally>,
) {
    tally.starts += starts.read().count();
    tally.ends += ends.read().count();
}

fn draw_flashes(time: Res<Time>, mut gizmos: Gizmos, mut balls: Query<(&Transform, &mut Flash)>) {
    for (transform, mut flash) in &mut balls {
        if flash.0 > 0.0 {
            gizmos.circle_2d(transform.translation.truncate(), 0.45, Color::WHITE);
            flash.0 -= time.delta_secs();
        }
    }
}

fn show_tally(tally: Res<Tally>, mut text: Single<&mut Text, With<TallyText>>) {
    text.0 = format!(
        "collision starts {}, ends {}, seen by observers {}",
        tally.starts, tally.ends, tally.observed
    );
}
