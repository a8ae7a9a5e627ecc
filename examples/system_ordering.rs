//! Your systems around the physics: `PhysicsSystems` names the stages in `FixedPostUpdate`
//! (Prepare, Broadphase, Narrowphase, Solve, Integrate, Writeback), so a system can run
//! before the step reads the components or after it has written them back.
//!
//! ```sh
//! cargo run --release --example system_ordering
//! ```
//!
//! Here a wind force is set before `Prepare` (so this very step feels it), and each ball's
//! height is recorded after `Writeback` (so it is the height this step produced).

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

/// The strongest gust's force on a ball, N (a ball weighs about 5 N).
pub const WIND: Vec2 = Vec2::new(3.0, 0.0);

/// A ball in the wind.
#[derive(Component)]
pub struct Ball;

/// Heights recorded after each step, one list per ball.
#[derive(Resource, Default, Debug)]
pub struct Heights(pub Vec<Vec<f32>>);

/// The example's systems.
pub fn example(app: &mut App) {
    app.init_resource::<Heights>()
        .add_systems(Startup, setup)
        .add_systems(
            FixedPostUpdate,
            (
                blow_wind.before(PhysicsSystems::Prepare),
                record_heights.after(PhysicsSystems::Writeback),
            ),
        );
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 40.0,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(4.0, 4.0, 0.0),
    ));
    commands.spawn((
        RigidBody::Static,
        Collider::rectangle(40.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    for i in 0..4 {
        commands.spawn((
            Ball,
            RigidBody::Dynamic,
            Collider::circle(0.4),
            // A one-step force: the physics clears it after each step.
            ExternalForce {
                persistent: false,
                ..default()
            },
            Transform::from_xyz(-4.0 + 2.0 * i as f32, 6.0 + i as f32, 0.0),
        ));
    }
}

/// Gusts between none and [`WIND`], set each step just before the physics reads the forces.
fn blow_wind(time: Res<Time>, mut balls: Query<&mut ExternalForce, With<Ball>>) {
    let gust = 0.5 * (1.0 + (2.0 * time.elapsed_secs()).sin());
    for mut force in &mut balls {
        force.force = gust * WIND;
    }
}

/// Heights as this step left them.
fn record_heights(balls: Query<&Transform, With<Ball>>, mut heights: ResMut<Heights>) {
    let now: Vec<f32> = balls.iter().map(|t| t.translation.y).collect();
    heights.0.resize(now.len(), Vec::new());
    for (list, y) in heights.0.iter_mut().zip(now) {
        list.push(y);
    }
}
