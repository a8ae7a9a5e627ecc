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
    if headless::print_run(&scene, steps, options.block_solver) {
        AppExit::Success
    } else {
        AppExit::from_code(1)
    }
}

/// The windowed testbed.
fn windowed(options: Options) -> App {
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "physics2d testbed".into(),
                resolution: WindowResolution::new(1280, 720),
                ..default()
            }),
            ..default()
        }),
        PhysicsPlugins::default(),
        PhysicsDebugPlugin::default(),
    ))
    .insert_resource(ClearColor(Color::srgb(0.11, 0.11, 0.13)))
    .insert_resource(scene_switching::Testbed::new(
        &options.scene,
        options.block_solver,
    ))
    .init_resource::<panels::PointerOverPanel>()
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

fn spawn_camera(mut commands: Commands) {
    commands.spawn(Camera2d);
}
