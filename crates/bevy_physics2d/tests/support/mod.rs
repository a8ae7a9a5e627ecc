//! A headless App stepping physics one fixed step per update, for the plugin tests.

#![allow(dead_code)]

use bevy_app::PluginGroup;
use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_physics2d::prelude::*;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use std::time::Duration;

/// The fixed step of the tests: 60 Hz.
pub const HZ: f64 = 60.0;

/// An App with time, transforms and physics, where each `update` advances time by exactly one
/// fixed step (the first update only starts the clock).
pub fn app() -> App {
    app_with(true, Duration::from_secs_f64(1.0 / HZ))
}

/// An App like [`app`], with or without transform interpolation, whose updates each advance
/// time by `frame` (the first update only starts the clock).
pub fn app_with(interpolate: bool, frame: Duration) -> App {
    app_from(PhysicsPlugins::default().build(), interpolate, frame)
}

/// An App like [`app_with`] with the physics plugins given (for collision hooks).
pub fn app_from(
    mut physics: bevy_app::PluginGroupBuilder,
    interpolate: bool,
    frame: Duration,
) -> App {
    let mut app = App::new();
    if !interpolate {
        physics = physics.disable::<bevy_physics2d::PhysicsInterpolationPlugin>();
    }
    app.add_plugins((
        bevy_app::TaskPoolPlugin::default(),
        TimePlugin,
        bevy_transform::TransformPlugin,
        physics,
    ));
    app.insert_resource(Time::<Fixed>::from_hz(HZ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
    app.update();
    app
}

/// The time step the core sees.
pub fn dt(app: &App) -> f32 {
    app.world()
        .resource::<Time<Fixed>>()
        .timestep()
        .as_secs_f32()
}

/// Runs updates until `steps` more physics steps have been taken.
pub fn step(app: &mut App, steps: u64) {
    let target = steps_taken(app) + steps;
    let mut guard = 0;
    while steps_taken(app) < target {
        app.update();
        guard += 1;
        assert!(guard < 10 * steps + 10, "physics is not stepping");
    }
}

/// Physics steps taken so far.
pub fn steps_taken(app: &App) -> u64 {
    app.world().resource::<PhysicsWorld>().step_count()
}

/// Messages of type `M` sent since the last call by this reader.
pub fn read<M: Message + Clone>(
    app: &mut App,
    cursor: &mut bevy_ecs::message::MessageCursor<M>,
) -> Vec<M> {
    let messages = app.world().resource::<bevy_ecs::message::Messages<M>>();
    cursor.read(messages).cloned().collect()
}

/// A dynamic body with `collider` at (`x`, `y`).
pub fn spawn_dynamic(app: &mut App, collider: Collider, x: f32, y: f32) -> Entity {
    app.world_mut()
        .spawn((RigidBody::Dynamic, collider, Transform::from_xyz(x, y, 0.0)))
        .id()
}

/// A static ground 40 m wide whose top is at y = 0.
pub fn ground(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(40.0, 1.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ))
        .id()
}

/// A narrower ground than [`ground`]: a static box 20 m by 1 m whose top is at y = 0
/// ([`GROUND`]), the one the core-parity test rebuilds in a bare core world.
pub fn ground_20m(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(GROUND.0, GROUND.1),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ))
        .id()
}

/// The width and height of [`ground_20m`]'s box.
pub const GROUND: (f32, f32) = (20.0, 1.0);

/// A dynamic unit box at (`x`, `y`).
pub fn spawn_box(app: &mut App, x: f32, y: f32) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Transform::from_xyz(x, y, 0.0),
        ))
        .id()
}

/// The core body's transform of `entity`.
pub fn core_pose(app: &App, entity: Entity) -> bevy_physics2d::physics_core::math::Transform {
    let physics = app.world().resource::<PhysicsWorld>();
    let pose = physics
        .core()
        .body_transform(physics.body(entity).expect("body exists"))
        .unwrap();
    // In the game's coordinates, as the components hold it.
    physics.game_frame().pose_to_game(pose)
}

/// The core body of `e`: its position, linear velocity and mass.
pub fn core_of(app: &App, e: Entity) -> (bevy_math::Vec2, bevy_math::Vec2, f32) {
    let id = app
        .world()
        .get::<bevy_physics2d::PhysicsBody>(e)
        .unwrap()
        .id();
    let physics = app.world().resource::<PhysicsWorld>();
    let core = physics.core();
    (
        physics.to_game(core.body_position(id).unwrap()),
        core.linear_velocity(id).unwrap(),
        mass_data(app, e).mass,
    )
}

/// The core's mass data of `body`.
pub fn mass_data(app: &App, body: Entity) -> bevy_physics2d::physics_core::shape::MassData {
    let id = app
        .world()
        .get::<bevy_physics2d::PhysicsBody>(body)
        .unwrap()
        .id();
    app.world()
        .resource::<PhysicsWorld>()
        .core()
        .body_mass_data(id)
        .unwrap()
}
