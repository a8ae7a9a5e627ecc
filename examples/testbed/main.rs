//! The testbed: every scene of the scene library in a window, with the debug overlay, mouse
//! dragging, stats and controls; or headless, printing the stats.
//!
//! ```sh
//! cargo run --release --example testbed                             # the pyramid, in a window
//! cargo run --release --example testbed -- --scene car
//! cargo run --release --example testbed -- --headless --scene rain --steps 600
//! cargo run --release --example testbed -- --scene bridge --frames 120 --screenshot bridge.png
//! cargo run --release --example testbed -- --list
//! ```
//!
//! Keys: Space pause, N single step, R reset, T slow motion, arrows (or Page Up/Down) switch
//! scene, B block solver, F1 the debug overlay, F2..F8 its parts (shapes, AABBs, contacts,
//! impulses, joints, centres of mass, sleep colours). Mouse: left drag pulls a body, right click
//! spawns a box or a ball, the wheel zooms about the cursor, middle drag pans. The scene list on
//! the left can be clicked.
//!
//! `--show aabbs,contacts,impulses,com` switches overlay parts on at start. Without a display
//! (no `DISPLAY`), the testbed says so and runs headless.

mod headless;
mod mouse_tools;
mod options;
mod panels;
mod recordings;
mod scene_switching;
mod screenshot;
mod sim_controls;

use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_physics2d::PhysicsDebugPlugin;
use bevy_physics2d::prelude::*;
use options::{Options, display_available};
use physics2d_demos::{SCENE_NAMES, advance_scene_timeline, scene};

fn main() -> AppExit {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("testbed: {message}");
            return AppExit::from_code(2);
        }
    };
    if options.list {
        println!("{}", SCENE_NAMES.join("\n"));
        return AppExit::Success;
    }
    let headless = options.headless || !display_available();
    if let (Some(path), true) = (&options.replay, headless) {
        return match recordings::replay_headless(path) {
            Ok(_) => AppExit::Success,
            Err(message) => {
                eprintln!("testbed: {message}");
                AppExit::from_code(1)
            }
        };
    }
    if let Some(path) = options.replay.clone() {
        return match recordings::load(&path).and_then(recordings::ReplayView::new) {
            Ok(mut view) => {
                // `--steps N` opens the recording at step N.
                view.wanted = options.steps.unwrap_or(0) as u64;
                replay_window(view, &options).run()
            }
            Err(message) => {
                eprintln!("testbed: {message}");
                AppExit::from_code(1)
            }
        };
    }
    if !options.headless && !display_available() {
        if options.screenshot.is_some() {
            eprintln!("testbed: no display for --screenshot; try xvfb-run");
            return AppExit::from_code(1);
        }
        eprintln!("testbed: no display (DISPLAY is unset or unreachable); running headless");
    } else if !options.headless {
        return windowed(options).run();
    }
    let Some(scene) = scene(&options.scene) else {
        return AppExit::from_code(2);
    };
    let steps = options.steps.unwrap_or(scene.steps) as u64;
    if let Some(path) = &options.record {
        return match recordings::record_headless(&scene, steps, options.block_solver, path) {
            Ok(_) => AppExit::Success,
            Err(message) => {
                eprintln!("testbed: {message}");
                AppExit::from_code(1)
            }
        };
    }
    if headless::print_run(&scene, steps, options.block_solver) {
        AppExit::Success
    } else {
        AppExit::from_code(1)
    }
}

/// An App with Bevy's default plugins and a 1280 x 720 window called `title`, the physics
/// and its overlay, on the testbed's background.
fn window_app(title: &str) -> App {
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: title.into(),
                resolution: WindowResolution::new(1280, 720),
                ..default()
            }),
            ..default()
        }),
        PhysicsPlugins::default(),
        PhysicsDebugPlugin::default(),
    ))
    .insert_resource(ClearColor(Color::srgb(0.11, 0.11, 0.13)));
    app
}

/// The windowed testbed.
fn windowed(options: Options) -> App {
    let mut app = window_app("physics2d testbed");
    app.insert_resource(scene_switching::Testbed::new(
        &options.scene,
        options.block_solver,
    ))
    .init_resource::<panels::PointerOverPanel>()
    .insert_resource(recordings::RecordTo(
        options
            .record
            .clone()
            .unwrap_or_else(|| "recording.p2dr".into()),
    ))
    .add_systems(Startup, (spawn_camera, panels::spawn_panels))
    .add_systems(FixedUpdate, advance_scene_timeline);
    let show = options.show.clone();
    app.add_systems(Startup, move |store: ResMut<GizmoConfigStore>| {
        sim_controls::show_parts(store, &show)
    })
    .add_systems(
        Update,
        (
            panels::track_pointer,
            panels::scene_buttons,
            sim_controls::keyboard_controls,
            mouse_tools::zoom_and_pan,
            mouse_tools::drag_bodies,
            mouse_tools::spawn_at_cursor,
            scene_switching::load_scene,
            panels::update_stats,
            recordings::record_key,
        )
            .chain(),
    );
    if options.frames.is_some() || options.screenshot.is_some() {
        app.insert_resource(screenshot::FrameBudget {
            frames: options.frames.unwrap_or(60).max(1),
            screenshot: options.screenshot,
        })
        .add_systems(Update, screenshot::count_frames);
    }
    app
}

/// A window showing a recording: the plugin draws the recorded world, which the keys move
/// through (`recordings.rs`); no scene is loaded and the physics clock stands still.
fn replay_window(view: recordings::ReplayView, options: &Options) -> App {
    let mut app = window_app("physics2d testbed: replay");
    app.insert_resource(view)
        .init_resource::<panels::PointerOverPanel>()
        .add_systems(Startup, (spawn_camera, recordings::start_replay_view))
        .add_systems(
            Update,
            (
                recordings::replay_keys,
                recordings::show_replay,
                mouse_tools::zoom_and_pan,
            )
                .chain(),
        );
    if options.frames.is_some() || options.screenshot.is_some() {
        app.insert_resource(screenshot::FrameBudget {
            frames: options.frames.unwrap_or(60).max(1),
            screenshot: options.screenshot.clone(),
        })
        .add_systems(Update, screenshot::count_frames);
    }
    app
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn(Camera2d);
}
