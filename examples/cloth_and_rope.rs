//! Cloth and rope: a rope of capsules on pin joints with a weight at its end, and a cloth of
//! small balls held together by stiff springs (distance joints), pinned at its top corners.
//!
//! ```sh
//! cargo run --release --example cloth_and_rope
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

/// Rope links.
pub const ROPE_LINKS: usize = 16;
/// Length of a rope link, anchor to anchor.
pub const ROPE_LINK: f32 = 0.5;
/// Where the rope hangs from.
pub const ROPE_TOP: Vec2 = Vec2::new(-9.0, 10.0);
/// Cloth particles per row and per column.
pub const CLOTH_SIZE: usize = 12;
/// Rest distance between neighbouring cloth particles.
pub const CLOTH_SPACING: f32 = 0.5;
/// The cloth's top left particle.
pub const CLOTH_TOP_LEFT: Vec2 = Vec2::new(1.0, 10.0);

/// A rope link, by its place from the top.
#[derive(Component)]
pub struct RopeLink(pub usize);

/// A cloth particle, by row (from the top) and column.
#[derive(Component)]
pub struct ClothParticle(pub usize, pub usize);

/// The example's systems.
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
        Transform::from_xyz(0.0, 5.0, 0.0),
    ));
    commands.spawn((
        RigidBody::Static,
        Collider::rectangle(30.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let world = Entity::PLACEHOLDER;

    // The rope starts horizontal and falls into a swing. Links of a rope in one negative
    // group never collide with each other.
    let mut previous = world;
    for i in 0..ROPE_LINKS {
        let x = ROPE_TOP.x + ROPE_LINK * (i as f32 + 0.5);
        let last = i == ROPE_LINKS - 1;
        let link = commands
            .spawn((
                RopeLink(i),
                RigidBody::Dynamic,
                if last {
                    Collider::circle(0.4)
                } else {
                    Collider::capsule(0.08, ROPE_LINK - 0.16)
                },
                ColliderDensity(if last { 5.0 } else { 1.0 }),
                CollisionLayers::default().with_group(-1),
                Transform::from_xyz(x, ROPE_TOP.y, 0.0)
                    .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
            ))
            .id();
        let pivot = Vec2::new(x - 0.5 * ROPE_LINK, ROPE_TOP.y);
        commands.spawn(Joint::revolute(previous, link).with_anchor(pivot));
        previous = link;
    }

    // The cloth: springs to the right and downward neighbours, pinned at the top corners.
    let mut grid = vec![vec![Entity::PLACEHOLDER; CLOTH_SIZE]; CLOTH_SIZE];
    for (row, line) in grid.iter_mut().enumerate() {
        for (column, cell) in line.iter_mut().enumerate() {
            let at = CLOTH_TOP_LEFT + Vec2::new(column as f32, -(row as f32)) * CLOTH_SPACING;
            *cell = commands
                .spawn((
                    ClothParticle(row, column),
                    RigidBody::Dynamic,
                    Collider::circle(0.1),
                    CollisionLayers::default().with_group(-2),
                    Transform::from_translation(at.extend(0.0)),
                ))
                .id();
        }
    }
    for row in 0..CLOTH_SIZE {
        for column in 0..CLOTH_SIZE {
            let here = grid[row][column];
            if column + 1 < CLOTH_SIZE {
                commands.spawn(Joint::spring(here, grid[row][column + 1], 30.0, 0.5));
            }
            if row + 1 < CLOTH_SIZE {
                commands.spawn(Joint::spring(here, grid[row + 1][column], 30.0, 0.5));
            }
        }
    }
    for column in [0, CLOTH_SIZE - 1] {
        let at = CLOTH_TOP_LEFT + Vec2::X * column as f32 * CLOTH_SPACING;
        commands.spawn(Joint::revolute(world, grid[0][column]).with_anchor(at));
    }
}
