//! What reaches the core when the game writes a body's components: only values that differ
//! from the core's own. And the interpolation state lives only in apps that interpolate.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Quat;
use bevy_math::Vec2;
use bevy_physics2d::InterpolationPoses;
use bevy_physics2d::PhysicsBody;
use bevy_physics2d::prelude::*;
use bevy_physics2d::quat_from_rot;
use bevy_physics2d::rot_from_quat;
use std::time::Duration;
use support::HZ;
use support::app;
use support::core_pose;
use support::dt;
use support::spawn_box;
use support::step;

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
    physics.to_game(physics.core().body_position(id).unwrap())
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

/// An App like the tests' one, with or without transform interpolation, whose updates each
/// advance time by a `1 / updates_per_step` of a fixed step (the first update only starts
/// the clock).
fn custom_app(interpolate: bool, updates_per_step: u32) -> App {
    let frame = Duration::from_secs_f64(1.0 / HZ / f64::from(updates_per_step));
    support::app_with(interpolate, frame)
}

fn app_without_interpolation() -> App {
    custom_app(false, 1)
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

#[test]
fn inserting_sleeping_puts_a_sliding_interpolated_body_to_sleep() {
    // The default App interpolates, so every frame puts the physics pose back into the
    // `Transform` of a moving body: the transform counts as changed, but the velocities the
    // game did not touch must not be handed back to the core over the zero it slept with.
    let mut app = app();
    let body = spawn_ground_and_box(&mut app);
    app.world_mut()
        .entity_mut(body)
        .insert(LinearVelocity(Vec2::new(3.0, 0.0)));
    step(&mut app, 10);
    assert!(app.world().get::<LinearVelocity>(body).unwrap().0.x > 1.0);
    app.world_mut().entity_mut(body).insert(Sleeping);
    step(&mut app, 3);
    let physics = app.world().resource::<PhysicsWorld>();
    let id = app.world().get::<PhysicsBody>(body).unwrap().id();
    assert!(
        !physics.core().is_awake(id).unwrap(),
        "the core body sleeps"
    );
    assert!(app.world().get::<Sleeping>(body).is_some());
    assert_eq!(
        app.world().get::<LinearVelocity>(body).unwrap().0,
        Vec2::ZERO
    );
}

#[test]
fn a_z_edit_while_a_blend_is_shown_moves_nothing() {
    // Two interpolating apps drop the same box; one game sets z between frames, while the
    // `Transform` shows a blend. The physics must not notice.
    let mut edited = app();
    let mut control = app();
    let a = spawn_ground_and_box(&mut edited);
    let b = spawn_ground_and_box(&mut control);
    step(&mut edited, 2);
    step(&mut control, 2);
    for _ in 0..5 {
        edited
            .world_mut()
            .get_mut::<Transform>(a)
            .unwrap()
            .translation
            .z += 1.0;
        step(&mut edited, 1);
        step(&mut control, 1);
        assert_eq!(core_position(&edited, a), core_position(&control, b));
    }
    let z = edited.world().get::<Transform>(a).unwrap().translation.z;
    assert_eq!(z, 5.0, "the game's z is kept through the blends");
}

#[test]
fn bodies_spawned_asleep_at_any_rotation_stay_asleep() {
    // A Bevy rotation turned into the core's and back is not always the same bits: the
    // spawn frame's transform must not read as a teleport, which would wake the body. The
    // angles are the ones among a thousand whose round trip changes the quaternion.
    let angles: Vec<f32> = (0..1000)
        .map(|i| -3.1 + 6.2 * i as f32 / 1000.0)
        .filter(|&a| {
            let q = Quat::from_rotation_z(a);
            quat_from_rot(rot_from_quat(q)) != q
        })
        .take(8)
        .collect();
    assert!(!angles.is_empty(), "some rotations do not round-trip");
    // Without interpolation, whose kept poses would match the spawn pose anyway.
    let mut app = app_without_interpolation();
    let bodies: Vec<Entity> = angles
        .iter()
        .enumerate()
        .map(|(i, &angle)| {
            let transform = Transform::from_xyz(3.0 * i as f32, 5.0, 0.0)
                .with_rotation(Quat::from_rotation_z(angle));
            app.world_mut()
                .spawn((RigidBody::Dynamic, transform, Sleeping))
                .id()
        })
        .collect();
    step(&mut app, 5);
    for (&body, &angle) in bodies.iter().zip(&angles) {
        assert!(
            app.world().get::<Sleeping>(body).is_some(),
            "the body turned {angle} rad woke up"
        );
        assert_eq!(core_position(&app, body).y, 5.0, "asleep in the air");
    }
}

#[test]
fn a_stack_spawned_asleep_with_colliders_sleeps_until_a_falling_ball_hits_it() {
    // A level built asleep: its colliders arrive after its bodies and must not wake them.
    let mut app = app();
    let world = app.world_mut();
    world.spawn((
        RigidBody::Static,
        Collider::rectangle(20.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let stack: Vec<Entity> = (0..3)
        .map(|i| {
            let transform = Transform::from_xyz(0.0, 0.5 + i as f32, 0.0);
            let shape = Collider::rectangle(1.0, 1.0);
            world
                .spawn((RigidBody::Dynamic, shape, transform, Sleeping))
                .id()
        })
        .collect();
    // Checked every step: woken, the resting stack would fall asleep again after 0.5 s.
    for _ in 0..30 {
        step(&mut app, 1);
        for &b in &stack {
            assert!(app.world().get::<Sleeping>(b).is_some(), "built asleep");
        }
    }
    app.world_mut().spawn((
        RigidBody::Dynamic,
        Collider::circle(0.3),
        Transform::from_xyz(0.0, 5.0, 0.0),
    ));
    // 2.2 m of fall takes about 0.67 s: 40 steps; give it a second.
    step(&mut app, 60);
    for &b in &stack {
        assert!(
            app.world().get::<Sleeping>(b).is_none(),
            "the ball's touch woke the stack"
        );
    }
}

#[test]
fn a_teleport_in_a_frame_without_a_step_is_not_lost_to_the_blend() {
    // Two frames per fixed step: in the frame after the game's teleport no step runs, and
    // interpolation must not paint its blend over the teleport before a step can take it.
    let mut app = custom_app(true, 2);
    let body = spawn_ground_and_box(&mut app);
    app.world_mut()
        .get_mut::<Transform>(body)
        .unwrap()
        .translation
        .y = 8.0;
    step(&mut app, 3);
    let falling = core_position(&app, body);
    assert!(
        falling.y > 6.0 && falling.y < 8.0,
        "falling from 8 m: {falling}"
    );
    // Teleport right after a step, so the next update takes none.
    app.world_mut()
        .get_mut::<Transform>(body)
        .unwrap()
        .translation
        .x = 5.0;
    let before = support::steps_taken(&app);
    app.update();
    assert_eq!(support::steps_taken(&app), before, "a frame without a step");
    let shown = app.world().get::<Transform>(body).unwrap().translation;
    assert_eq!(shown.x, 5.0, "the game's pose is shown, not a blend");
    step(&mut app, 1);
    assert_eq!(
        core_position(&app, body).x,
        5.0,
        "the teleport reached the core"
    );
}

#[test]
fn a_sleeping_kinematic_platform_made_dynamic_falls() {
    let mut app = app();
    let platform = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            Collider::rectangle(2.0, 0.2),
            Transform::from_xyz(0.0, 5.0, 0.0),
            Sleeping,
        ))
        .id();
    step(&mut app, 2);
    assert!(app.world().get::<Sleeping>(platform).is_some());
    *app.world_mut().get_mut::<RigidBody>(platform).unwrap() = RigidBody::Dynamic;
    step(&mut app, 10);
    assert!(app.world().get::<Sleeping>(platform).is_none(), "awake");
    // Ten steps of free fall: about g (10 / 60 s)^2 / 2 = 0.14 m.
    let y = core_position(&app, platform).y;
    assert!(y < 4.9, "it fell: y = {y}");
}

#[test]
fn setting_transform_teleports_and_setting_velocity_moves() {
    let mut app = app();
    let body = spawn_box(&mut app, 0.0, 5.0);
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = bevy_math::Vec2::ZERO;
    step(&mut app, 3);
    app.world_mut()
        .get_mut::<Transform>(body)
        .unwrap()
        .translation = bevy_math::Vec3::new(7.0, -2.0, 0.0);
    step(&mut app, 1);
    let p = core_pose(&app, body).p;
    assert_eq!(
        p,
        bevy_math::Vec2::new(7.0, -2.0),
        "teleported exactly (no gravity, at rest)"
    );
    app.world_mut().get_mut::<LinearVelocity>(body).unwrap().0 = bevy_math::Vec2::new(3.0, 0.0);
    step(&mut app, 60);
    let p = core_pose(&app, body).p;
    // One second at 3 units/s, no gravity, no damping.
    assert!((p.x - 10.0).abs() < 1e-3 && (p.y + 2.0).abs() < 1e-6, "{p}");
    assert_eq!(app.world().get::<LinearVelocity>(body).unwrap().0.x, 3.0);
}

/// A change the game makes after a step, in `Update`, to a body in flight.
#[derive(Resource, Default)]
struct GameEdit {
    velocity: Option<bevy_math::Vec2>,
    x: Option<f32>,
}

fn apply_game_edit(
    mut edit: ResMut<GameEdit>,
    mut bodies: Query<(&mut Transform, &mut LinearVelocity)>,
) {
    for (mut transform, mut velocity) in &mut bodies {
        if let Some(v) = edit.velocity {
            velocity.0 = v;
        }
        if let Some(x) = edit.x {
            transform.translation.x = x;
        }
    }
    *edit = GameEdit::default();
}

/// The writeback marks the transform and velocities of every moving body changed, and the
/// next prepare skips those of its own by their change tick. A game's edit after the step
/// (here in `Update`, on a falling body whose components the writeback has just written) has
/// a later tick and must still reach the core, with and without interpolation.
#[test]
fn game_edits_after_a_step_reach_the_core_of_a_moving_body() {
    for interpolated in [false, true] {
        let mut app = app();
        app.init_resource::<GameEdit>()
            .add_systems(Update, apply_game_edit);
        let body = spawn_box(&mut app, 0.0, 50.0);
        if !interpolated {
            app.world_mut().entity_mut(body).insert(NoInterpolation);
        }
        step(&mut app, 5);
        let falling = |app: &App| {
            let physics = app.world().resource::<PhysicsWorld>();
            let id = physics.body(body).unwrap();
            physics.core().body_motion(id).unwrap()
        };
        assert!(falling(&app).linear_velocity.y < -0.5, "in free fall");

        app.world_mut().resource_mut::<GameEdit>().velocity = Some(bevy_math::Vec2::new(4.0, -1.0));
        // The step of this update runs before `Update`; the next one takes the edit.
        step(&mut app, 2);
        let v = falling(&app).linear_velocity;
        // In the air nothing but gravity acts: x keeps the 4 m/s set, y gained g dt once.
        assert_eq!(v.x, 4.0, "interpolated {interpolated}");
        let g_dt = -app.world().resource::<PhysicsSettings>().gravity.y * dt(&app);
        assert!(
            (v.y - (-1.0 - g_dt)).abs() < 1e-4,
            "{v} interpolated {interpolated}"
        );

        app.world_mut().resource_mut::<GameEdit>().x = Some(-30.0);
        step(&mut app, 2);
        let x = {
            let physics = app.world().resource::<PhysicsWorld>();
            physics.to_game(falling(&app).transform.p).x
        };
        // Teleported to -30 and then one step at 4 m/s.
        assert!(
            (x - (-30.0 + 4.0 * dt(&app))).abs() < 1e-4,
            "{x} interpolated {interpolated}"
        );
    }
}
