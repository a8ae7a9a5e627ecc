//! The testbed's controls, run on its own systems in a window-less App: keys for pause,
//! single step, overlay parts, solver and scene; scene loading and reset; the zoom and picking
//! the mouse tools use.

#![allow(dead_code)]

#[path = "../examples/testbed/headless.rs"]
mod headless;
#[path = "../examples/testbed/mouse_tools.rs"]
mod mouse_tools;
#[path = "../examples/testbed/options.rs"]
mod options;
#[path = "../examples/testbed/panels.rs"]
mod panels;
#[path = "../examples/testbed/recordings.rs"]
mod recordings;
#[path = "../examples/testbed/scene_switching.rs"]
mod scene_switching;
#[path = "../examples/testbed/sim_controls.rs"]
mod sim_controls;

use bevy::app::TaskPoolPlugin;
use bevy::asset::AssetPlugin;
use bevy::gizmos::GizmoPlugin;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::{TimePlugin, TimeUpdateStrategy};
use bevy::transform::TransformPlugin;
use bevy::window::PrimaryWindow;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsDebugPlugin, PhysicsGizmos, PhysicsSettings};
use physics2d_demos::{SCENE_NAMES, SceneEntity, scene};
use scene_switching::Testbed;
use std::time::Duration;

/// The testbed's systems at 60 Hz, one physics step per update, with input resources driven
/// by hand instead of by a window.
fn testbed_app(first_scene: &str) -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        TransformPlugin,
        AssetPlugin::default(),
        MeshPlugin,
        GizmoPlugin,
        PhysicsPlugins::default(),
        PhysicsDebugPlugin::default(),
    ))
    .init_resource::<ButtonInput<KeyCode>>()
    .init_resource::<ButtonInput<MouseButton>>()
    .init_resource::<panels::PointerOverPanel>()
    .insert_resource(Testbed::new(first_scene, false))
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )))
    .add_systems(
        Update,
        (sim_controls::keyboard_controls, scene_switching::load_scene).chain(),
    );
    app.world_mut().spawn((Window::default(), PrimaryWindow));
    app.world_mut().spawn(Camera2d);
    app.update();
    app
}

fn steps(app: &App) -> u64 {
    app.world().resource::<PhysicsWorld>().step_count()
}

/// One frame with `key` just pressed, then released.
fn tap(app: &mut App, key: KeyCode) {
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(key);
    app.update();
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.release(key);
    keys.clear();
}

fn scene_roots(app: &mut App) -> usize {
    let mut query = app
        .world_mut()
        .query_filtered::<(), (With<SceneEntity>, Without<ChildOf>)>();
    query.iter(app.world()).count()
}

#[test]
fn pause_and_single_step_take_exactly_one_step() {
    let mut app = testbed_app("single_box");
    for _ in 0..3 {
        app.update();
    }
    tap(&mut app, KeyCode::Space);
    assert!(app.world().resource::<Time<Physics>>().is_paused());
    let paused_at = steps(&app);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(steps(&app), paused_at, "no steps while paused");
    tap(&mut app, KeyCode::KeyN);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(steps(&app), paused_at + 1, "N takes one step");
    assert!(app.world().resource::<Time<Physics>>().is_paused());
    tap(&mut app, KeyCode::Space);
    for _ in 0..5 {
        app.update();
    }
    assert!(steps(&app) >= paused_at + 5, "running again");
}

#[test]
fn keys_switch_overlay_parts_solver_and_slow_motion() {
    let mut app = testbed_app("single_box");
    for key in [
        KeyCode::F1,
        KeyCode::F3,
        KeyCode::F4,
        KeyCode::F8,
        KeyCode::KeyB,
        KeyCode::KeyT,
    ] {
        tap(&mut app, key);
    }
    let store = app.world().resource::<GizmoConfigStore>();
    let (config, parts) = store.config::<PhysicsGizmos>();
    assert!(!config.enabled, "F1 hides the overlay");
    assert!(
        parts.aabbs && parts.contacts,
        "F3, F4 show AABBs and contacts"
    );
    assert!(!parts.sleep_colors, "F8 drops the sleep colour");
    assert!(parts.shapes && parts.joints, "untouched parts stay on");
    assert!(app.world().resource::<PhysicsSettings>().block_solver);
    let speed = app.world().resource::<Time<Physics>>().relative_speed();
    assert!(
        (speed - 0.2).abs() < 1e-6,
        "slow motion runs the physics at a fifth: {speed}"
    );
    // The game's own clock is not slowed: only the physics is.
    let game_speed = app.world().resource::<Time<Virtual>>().relative_speed();
    assert_eq!(game_speed, 1.0, "the game's clock keeps its speed");
}

#[test]
fn switching_and_resetting_replace_the_whole_scene() {
    let mut app = testbed_app("pendulum");
    let pendulum = scene("pendulum").unwrap();
    assert_eq!(
        scene_roots(&mut app),
        pendulum.bodies.len() + pendulum.joints.len()
    );
    // Things the user added belong to the scene too, and go with it.
    app.world_mut().spawn((
        SceneEntity,
        RigidBody::Dynamic,
        Collider::circle(0.5),
        Transform::from_xyz(0.0, 5.0, 0.0),
    ));
    tap(&mut app, KeyCode::ArrowRight);
    let next = SCENE_NAMES[SCENE_NAMES.iter().position(|n| *n == "pendulum").unwrap() + 1];
    assert_eq!(app.world().resource::<Testbed>().scene_name(), next);
    let next_scene = scene(next).unwrap();
    app.update();
    assert_eq!(
        scene_roots(&mut app),
        next_scene.bodies.len() + next_scene.joints.len()
    );
    assert_eq!(
        app.world().resource::<PhysicsSettings>().gravity,
        next_scene.gravity
    );
    let timestep = app
        .world()
        .resource::<Time<Fixed>>()
        .timestep()
        .as_secs_f32();
    assert!((timestep - next_scene.dt).abs() < 1e-6);
    // After a few steps the world holds exactly the new scene's bodies.
    for _ in 0..3 {
        app.update();
    }
    let mut bodies = app.world_mut().query_filtered::<Entity, With<RigidBody>>();
    let bodies: Vec<Entity> = bodies.iter(app.world()).collect();
    let physics = app.world().resource::<PhysicsWorld>();
    assert_eq!(bodies.len(), next_scene.bodies.len());
    assert!(bodies.iter().all(|e| physics.body(*e).is_some()));
    // The core world holds those, plus at most the plugin's hidden body for world anchors.
    let in_core = physics.core().body_count();
    assert!(
        in_core == bodies.len() || in_core == bodies.len() + 1,
        "{in_core}"
    );
    // R rebuilds the same scene from its description.
    tap(&mut app, KeyCode::KeyR);
    app.update();
    assert_eq!(
        scene_roots(&mut app),
        next_scene.bodies.len() + next_scene.joints.len()
    );
}

#[test]
fn scene_list_wraps_around_both_ends() {
    let mut testbed = Testbed::new(SCENE_NAMES[0], false);
    testbed.switch_scene(-1);
    assert_eq!(testbed.scene_name(), *SCENE_NAMES.last().unwrap());
    testbed.switch_scene(1);
    assert_eq!(testbed.scene_name(), SCENE_NAMES[0]);
    // An unknown first scene falls back to the first of the list.
    assert_eq!(Testbed::new("nowhere", false).scene, 0);
}

#[test]
fn zooming_keeps_the_point_under_the_cursor() {
    let (centre, scale) = (Vec2::new(3.0, -2.0), 0.05);
    // The cursor 200 px right of and 120 px above the window centre.
    let offset = Vec2::new(200.0, 120.0);
    let under_cursor = centre + offset * scale;
    for factor in [0.5, 1.15, 3.0] {
        let new_centre = mouse_tools::zoom_about(centre, under_cursor, factor);
        let still_under = new_centre + offset * scale * factor;
        assert!(still_under.distance(under_cursor) < 1e-5, "factor {factor}");
    }
}

#[test]
fn the_mouse_picks_only_dynamic_bodies() {
    let mut app = testbed_app("single_box");
    let ground = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(4.0, 1.0),
            Transform::from_xyz(20.0, 0.0, 0.0),
        ))
        .id();
    let crate_ = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 2.0),
            ColliderDensity(3.0),
            Transform::from_xyz(20.0, 5.0, 0.0),
        ))
        .id();
    app.update();
    app.update();
    let physics = app.world().resource::<PhysicsWorld>();
    let at = |x, y| mouse_tools::dynamic_body_at(physics, Vec2::new(x, y));
    let (picked, mass) = at(20.2, 5.0).expect("the crate is under the point");
    assert!(picked == crate_ && picked != ground);
    // 1 m x 2 m at density 3.
    assert!((mass - 6.0).abs() < 1e-4, "mass {mass}");
    assert!(at(20.0, 0.0).is_none(), "static bodies are not picked");
    assert!(at(25.0, 5.0).is_none(), "nothing there");
}

/// A recording opened in the window: Period and Comma (Shift: ten) step the shown world
/// forward and back, End and Home jump; what the plugin's world holds (and the overlay draws)
/// is the recorded state of that step, and the physics clock stands still.
#[test]
fn a_replay_steps_forward_and_back_with_the_keys() {
    use bevy_physics2d::physics_core::prelude::*;
    let mut recorded = World::new(WorldDef::default()).unwrap();
    recorded.start_recording();
    let ball = recorded
        .create_body(&BodyDef::dynamic(Vec2::new(0.0, 5.0)))
        .unwrap();
    let circle = Circle::new(Vec2::ZERO, 0.5).unwrap().into();
    recorded
        .create_shape(ball, &ShapeDef::default(), circle)
        .unwrap();
    for _ in 0..60 {
        recorded.step(1.0 / 60.0).unwrap();
    }
    let recording = recorded.stop_recording().unwrap();
    let hash_at = |steps| recording.replay_steps(steps).unwrap().state_hash();
    let expected: Vec<u64> = (0..=60).map(hash_at).collect();

    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        TransformPlugin,
        PhysicsPlugins::default(),
    ))
    .init_resource::<ButtonInput<KeyCode>>()
    .insert_resource(recordings::ReplayView::new(recording).unwrap())
    .add_systems(Startup, recordings::start_replay_view)
    .add_systems(
        Update,
        (recordings::replay_keys, recordings::show_replay).chain(),
    );
    app.world_mut().spawn((Window::default(), PrimaryWindow));
    app.world_mut().spawn(Camera2d);
    app.update();
    let shown = |app: &App| app.world().resource::<PhysicsWorld>().core().state_hash();
    assert_eq!(shown(&app), expected[0]);
    tap(&mut app, KeyCode::Period);
    assert_eq!(shown(&app), expected[1]);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::ShiftLeft);
    tap(&mut app, KeyCode::Period);
    assert_eq!(shown(&app), expected[11]);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .release(KeyCode::ShiftLeft);
    tap(&mut app, KeyCode::Comma);
    assert_eq!(shown(&app), expected[10]);
    tap(&mut app, KeyCode::End);
    assert_eq!(shown(&app), expected[60]);
    tap(&mut app, KeyCode::Home);
    assert_eq!(shown(&app), expected[0]);
    assert_eq!(steps(&app), 0, "the physics clock stood still");
}
