//! Ray and shape casts: a ray sweeps round once in 2 pi seconds from the centre and stops at the first collider it
//! meets; a ball-shaped cast drops from the mouse (or from above the middle) to where a ball
//! would land.
//!
//! ```sh
//! cargo run --release --example casts
//! ```

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsDebugPlugin, QueryHit};

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

/// Where the ray starts.
pub const RAY_ORIGIN: Vec2 = Vec2::new(0.0, 4.0);
/// Radius of the cast ball.
pub const CAST_RADIUS: f32 = 0.5;
/// Height the ball cast starts from when the mouse is not over the window.
pub const CAST_HEIGHT: f32 = 9.0;

/// The latest results.
#[derive(Resource, Default, Debug)]
pub struct Casts {
    /// The ray's direction.
    pub ray_direction: Vec2,
    /// What the ray hit.
    pub ray: Option<QueryHit>,
    /// Where the ball cast started.
    pub ball_origin: Vec2,
    /// What the ball cast hit.
    pub ball: Option<QueryHit>,
}

/// The example's systems.
pub fn example(app: &mut App) {
    app.init_resource::<Casts>()
        .add_systems(Startup, setup)
        .add_systems(Update, (cast, draw).chain());
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
        Collider::rectangle(20.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let scenery = [
        (Collider::rectangle(1.0, 3.0), Vec2::new(-6.0, 1.5)),
        (Collider::circle(1.0), Vec2::new(5.0, 6.0)),
        (Collider::capsule(0.4, 2.0), Vec2::new(-3.0, 8.0)),
        (Collider::regular_polygon(1.0, 6), Vec2::new(6.0, 1.0)),
    ];
    for (collider, at) in scenery {
        commands.spawn((
            RigidBody::Static,
            collider,
            Transform::from_translation(at.extend(0.0)),
        ));
    }
}

fn cast(
    time: Res<Time>,
    query: SpatialQuery,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    camera: Option<Single<(&Camera, &GlobalTransform)>>,
    mut casts: ResMut<Casts>,
) {
    let filter = SpatialQueryFilter::default();
    let angle = time.elapsed_secs();
    casts.ray_direction = Vec2::from_angle(angle);
    casts.ray = query.cast_ray(RAY_ORIGIN, casts.ray_direction, 30.0, &filter);

    let cursor = window
        .and_then(|w| w.cursor_position())
        .zip(camera)
        .and_then(|(cursor, camera)| camera.0.viewport_to_world_2d(camera.1, cursor).ok());
    casts.ball_origin = cursor.unwrap_or(Vec2::new(0.0, CAST_HEIGHT));
    let ball = Collider::circle(CAST_RADIUS);
    casts.ball = query
        .cast_shape(
            &ball,
            casts.ball_origin,
            Quat::IDENTITY,
            Vec2::NEG_Y,
            30.0,
            &filter,
        )
        .ok()
        .flatten();
}

fn draw(casts: Res<Casts>, mut gizmos: Gizmos) {
    let ray_end = casts
        .ray
        .as_ref()
        .map_or(RAY_ORIGIN + 30.0 * casts.ray_direction, |hit| hit.point);
    gizmos.line_2d(RAY_ORIGIN, ray_end, Color::srgb(1.0, 0.8, 0.2));
    if let Some(hit) = &casts.ray {
        gizmos.circle_2d(hit.point, 0.1, Color::srgb(1.0, 0.3, 0.3));
        gizmos.line_2d(hit.point, hit.point + hit.normal, Color::WHITE);
    }
    let start = casts.ball_origin;
    gizmos.circle_2d(start, CAST_RADIUS, Color::srgb(0.5, 0.7, 1.0));
    if let Some(hit) = &casts.ball {
        let rest = start - Vec2::Y * hit.distance;
        gizmos.line_2d(start, rest, Color::srgb(0.5, 0.7, 1.0));
        gizmos.circle_2d(rest, CAST_RADIUS, Color::srgb(0.3, 1.0, 0.5));
    }
}
