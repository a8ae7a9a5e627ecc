//! What reaches the core when the game writes a body's components: only values that differ
//! from the core's own. And the interpolation state lives only in apps that interpolate.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{InterpolationPoses, PhysicsBody, PhysicsInterpolationPlugin};
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use std::time::Duration;
use support::{HZ, app, step};

fn spawn_ground_and_box(app: &mut App) -> Entity {
    let world = app.world_mut();
    world.spawn((
        RigidBody::Static,
        Collider::rectangle(20.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    world
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Transform::from_xyz(0.0, 0.6, 0.0),
        ))
        .id()
}

fn core_position(app: &App, entity: Entity) -> Vec2 {
    let physics = app.world().resource::<PhysicsWorld>();
    let id = app.world().get::<PhysicsBody>(entity).unwrap().id();
    physics.core().body_position(id).unwrap()
}

#[test]
fn a_sleeping_body_stays_asleep_when_the_game_only_moves_it_in_z_or_rewrites_its_velocity() {
    let mut app = app();
    let body = spawn_ground_and_box(&mut app);
    // It settles and falls asleep well within three seconds.
    step(&mut app, 180);
    assert!(
        app.world().get::<Sleeping>(body).is_some(),
        "the box sleeps"
    );
    let rest = core_position(&app, body);

    // Draw order and a velocity rewritten to what it is: nothing for the physics.
    {
        let mut entity = app.world_mut().entity_mut(body);
        entity.get_mut::<Transform>().unwrap().translation.z = 3.0;
        *entity.get_mut::<LinearVelocity>().unwrap() = LinearVelocity(Vec2::ZERO);
        *entity.get_mut::<AngularVelocity>().unwrap() = AngularVelocity(0.0);
    }
    step(&mut app, 2);
    assert!(
        app.world().get::<Sleeping>(body).is_some(),
        "a change the core does not see must not wake the box"
    );
    assert_eq!(core_position(&app, body), rest);
    let transform = app.world().get::<Transform>(body).unwrap();
    assert_eq!(transform.translation.z, 3.0, "the game's z is kept");

    // A real move teleports it and wakes it.
    app.world_mut()
        .get_mut::<Transform>(body)
        .unwrap()
        .translation
        .x = 2.0;
    step(&mut app, 1);
    assert!(
        app.world().get::<Sleeping>(body).is_none(),
        "moved, so awake"
    );
    assert_eq!(core_position(&app, body).x, 2.0);
    let transform = app.world().get::<Transform>(body).unwrap();
    assert_eq!(transform.translation.z, 3.0, "still the game's z");
}

/// An App like the tests' one, but without transform interpolation.
fn app_without_interpolation() -> App {
    let mut app = App::new();
    app.add_plugins((
        bevy_app::TaskPoolPlugin::default(),
        TimePlugin,
        bevy_transform::TransformPlugin,
        PhysicsPlugins::default()
            .build()
            .disable::<PhysicsInterpolationPlugin>(),
    ));
    app.insert_resource(Time::<Fixed>::from_hz(HZ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / HZ,
    )));
    app.update();
    app
}

#[test]
fn interpolation_poses_exist_only_in_apps_that_interpolate() {
    let mut plain = app_without_interpolation();
    let mut smooth = app();
    let plain_box = spawn_ground_and_box(&mut plain);
    let smooth_box = spawn_ground_and_box(&mut smooth);
    // Mid-fall onto the ground: the box is moving.
    step(&mut plain, 3);
    step(&mut smooth, 3);

    assert!(plain.world().get::<InterpolationPoses>(plain_box).is_none());
    let raw = plain
        .world()
        .get::<Transform>(plain_box)
        .unwrap()
        .translation;
    assert_eq!(raw.truncate(), core_position(&plain, plain_box));

    let poses = *smooth
        .world()
        .get::<InterpolationPoses>(smooth_box)
        .expect("an interpolating app keeps the poses");
    let physics = poses.physics_pose().0;
    assert_eq!(physics.truncate(), core_position(&smooth, smooth_box));
    assert!(
        poses.previous_pose().0.y > physics.y,
        "the pose before the last step is above the falling box's"
    );
    // Both apps simulate the same thing: interpolation only changes what is shown.
    assert_eq!(physics.truncate(), raw.truncate());
}
