//! Every joint type side by side: a pendulum chain (revolute), a motor-driven paddle, a slider
//! with limits and a motor (prismatic), a spring (distance with a spring), a welded L, a wheel
//! on a sprung suspension, a rope, and a pulley.
//!
//! ```sh
//! cargo run --release --example joints
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

/// Bodies the headless test checks.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Showcase {
    /// The last link of the pendulum chain.
    ChainEnd,
    /// The slider's carriage.
    Carriage,
    /// The box on the spring.
    SpringBox,
    /// The ball on the rope.
    RopeBall,
    /// The two halves of the welded L.
    WeldedA,
    /// See [`Showcase::WeldedA`].
    WeldedB,
}

/// The slider rail: the carriage runs along y = `RAIL_Y`, between the limits.
pub const RAIL_Y: f32 = 8.0;
/// Slider limits, metres from where the carriage starts.
pub const SLIDER_LIMITS: (f32, f32) = (-1.5, 1.5);
/// The rope's length.
pub const ROPE_LENGTH: f32 = 4.0;
/// Where the rope hangs from.
pub const ROPE_ANCHOR: Vec2 = Vec2::new(14.0, 10.0);
/// Length of a chain link, anchor to anchor.
pub const LINK: f32 = 1.0;
/// Links in the chain.
pub const LINKS: usize = 6;
/// Where the chain hangs from.
pub const CHAIN_ANCHOR: Vec2 = Vec2::new(-14.0, 10.0);

/// The example's systems.
pub fn example(app: &mut App) {
    app.add_systems(Startup, setup)
        .add_systems(FixedUpdate, reverse_slider_motor);
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 32.0,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(2.0, 5.0, 0.0),
    ));
    commands.spawn((
        RigidBody::Static,
        Collider::rectangle(44.0, 1.0),
        Transform::from_xyz(2.0, -0.5, 0.0),
    ));
    // Joints may attach to the world itself: Entity::PLACEHOLDER is a fixed point.
    let world = Entity::PLACEHOLDER;

    // Revolute: a chain of capsules, started horizontally so it swings.
    let mut previous = world;
    for i in 0..LINKS {
        let x = CHAIN_ANCHOR.x + LINK * (i as f32 + 0.5);
        let mut link = commands.spawn((
            RigidBody::Dynamic,
            Collider::capsule(0.12, LINK - 0.24),
            Transform::from_xyz(x, CHAIN_ANCHOR.y, 0.0)
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
        ));
        if i == LINKS - 1 {
            link.insert(Showcase::ChainEnd);
        }
        let link = link.id();
        let pivot = Vec2::new(x - 0.5 * LINK, CHAIN_ANCHOR.y);
        commands.spawn(Joint::revolute(previous, link).with_anchor(pivot));
        previous = link;
    }

    // Revolute with a motor: a paddle turning at 2 rad/s, strong enough to sweep balls.
    let paddle = commands
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(3.0, 0.3),
            Transform::from_xyz(-5.0, 3.0, 0.0),
        ))
        .id();
    commands.spawn(
        Joint::revolute(world, paddle)
            .with_anchor(Vec2::new(-5.0, 3.0))
            .with_motor(2.0, 500.0),
    );
    for i in 0..4 {
        commands.spawn((
            RigidBody::Dynamic,
            Collider::circle(0.25),
            Transform::from_xyz(-5.8 + 0.5 * i as f32, 5.0, 0.0),
        ));
    }

    // Prismatic: a carriage on a horizontal rail, with limits and a motor that reverses at
    // them.
    let carriage = commands
        .spawn((
            Showcase::Carriage,
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 0.5),
            Transform::from_xyz(-5.0, RAIL_Y, 0.0),
        ))
        .id();
    commands.spawn(
        Joint::prismatic(world, carriage, Vec2::X)
            .with_anchor(Vec2::new(-5.0, RAIL_Y))
            .with_limits(SLIDER_LIMITS.0, SLIDER_LIMITS.1)
            .with_motor(2.0, 200.0),
    );

    // Distance with a spring: a box bobbing under a ceiling point.
    let spring_box = commands
        .spawn((
            Showcase::SpringBox,
            RigidBody::Dynamic,
            Collider::rectangle(0.8, 0.8),
            Transform::from_xyz(0.0, 7.0, 0.0),
        ))
        .id();
    commands.spawn(
        Joint::spring(world, spring_box, 2.0, 0.1)
            .with_local_anchors(Vec2::new(0.0, 10.0), Vec2::new(0.0, 0.4))
            .with_length(2.0),
    );

    // Weld: an L of two boxes glued together, hanging from a pin.
    let upright = commands
        .spawn((
            Showcase::WeldedA,
            RigidBody::Dynamic,
            Collider::rectangle(0.4, 2.0),
            Transform::from_xyz(4.0, 8.0, 0.0),
        ))
        .id();
    let foot = commands
        .spawn((
            Showcase::WeldedB,
            RigidBody::Dynamic,
            Collider::rectangle(1.6, 0.4),
            Transform::from_xyz(4.6, 7.2, 0.0),
        ))
        .id();
    commands.spawn(Joint::weld(upright, foot).with_anchor(Vec2::new(4.0, 7.2)));
    commands.spawn(Joint::revolute(world, upright).with_anchor(Vec2::new(4.0, 9.0)));

    // Wheel: a wheel on a sprung suspension under a box resting on the ground.
    let chassis = commands
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(2.0, 0.5),
            Transform::from_xyz(8.5, 1.6, 0.0),
        ))
        .id();
    for dx in [-0.7, 0.7] {
        let wheel = commands
            .spawn((
                RigidBody::Dynamic,
                Collider::circle(0.4),
                Transform::from_xyz(8.5 + dx, 0.6, 0.0),
            ))
            .id();
        commands.spawn(
            Joint::wheel(chassis, wheel, Vec2::Y)
                .with_anchor(Vec2::new(8.5 + dx, 0.6))
                .with_spring(4.0, 0.7),
        );
    }

    // Rope: slack until the ball is ROPE_LENGTH away, then taut.
    let ball = commands
        .spawn((
            Showcase::RopeBall,
            RigidBody::Dynamic,
            Collider::circle(0.4),
            Transform::from_xyz(ROPE_ANCHOR.x + 2.0, ROPE_ANCHOR.y - 1.0, 0.0),
        ))
        .id();
    commands
        .spawn(Joint::rope(world, ball, ROPE_LENGTH).with_local_anchors(ROPE_ANCHOR, Vec2::ZERO));

    // Pulley: two boxes hanging over two fixed wheels; the heavier one wins, landing with the
    // light one still 2 m below its wheel (11.2 m of rope in all).
    let left = commands
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(0.8, 0.8),
            ColliderDensity(2.0),
            Transform::from_xyz(19.0, 2.0, 0.0),
        ))
        .id();
    let right = commands
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(0.8, 0.8),
            Transform::from_xyz(21.0, 6.0, 0.0),
        ))
        .id();
    commands.spawn(Joint::pulley(
        left,
        right,
        (Vec2::new(19.0, 10.0), Vec2::new(21.0, 10.0)),
        (Vec2::new(19.0, 2.4), Vec2::new(21.0, 6.4)),
        1.0,
    ));
}

/// Drives the carriage back and forth: the motor turns round when the carriage reaches a limit.
fn reverse_slider_motor(carriages: Query<(&Showcase, &Transform)>, mut joints: Query<&mut Joint>) {
    let Some(x) = carriages
        .iter()
        .find(|(s, _)| **s == Showcase::Carriage)
        .map(|(_, t)| t.translation.x + 5.0)
    else {
        return;
    };
    for mut joint in &mut joints {
        let bevy_physics2d::physics_core::joint::JointKind::Prismatic(p) = joint.kind else {
            continue;
        };
        if x >= SLIDER_LIMITS.1 - 0.05 && p.motor_speed > 0.0 {
            joint
                .set_motor_speed(-2.0)
                .expect("the slider is a prismatic joint");
        } else if x <= SLIDER_LIMITS.0 + 0.05 && p.motor_speed < 0.0 {
            joint
                .set_motor_speed(2.0)
                .expect("the slider is a prismatic joint");
        }
    }
}
