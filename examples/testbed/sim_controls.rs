//! Keys: pause, single step, reset, slow motion, scene and solver switches, and the debug
//! overlay's parts.

use crate::options::OverlayPart;
use crate::scene_switching::Testbed;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;
use bevy_physics2d::{Physics, PhysicsGizmos, PhysicsSettings, PhysicsTime};

/// The key help shown at the bottom of the window.
pub const HELP: &str = "Space pause   N step   R reset   T slow motion   Left/Right scene   \
B block solver   K record   F1 overlay   F2-F8 overlay parts   left drag: pull   right click: spawn   \
wheel: zoom   middle drag: pan";

/// Reads the simulation and overlay keys.
pub fn keyboard_controls(
    keys: Res<ButtonInput<KeyCode>>,
    mut testbed: ResMut<Testbed>,
    mut settings: ResMut<PhysicsSettings>,
    mut time: ResMut<Time<Physics>>,
    mut gizmos: ResMut<GizmoConfigStore>,
) {
    // The physics clock alone pauses, steps and slows: the panels, the camera and the mouse
    // tools keep the game's time.
    if keys.just_pressed(KeyCode::Space) {
        time.toggle_pause();
    }
    if keys.just_pressed(KeyCode::KeyN) {
        time.step_once();
    }
    if keys.just_pressed(KeyCode::KeyR) {
        testbed.reload = true;
    }
    if keys.just_pressed(KeyCode::KeyT) {
        testbed.slow_motion = !testbed.slow_motion;
        time.set_relative_speed(if testbed.slow_motion { 0.2 } else { 1.0 });
    }
    if keys.just_pressed(KeyCode::KeyB) {
        testbed.block_solver = !testbed.block_solver;
        settings.block_solver = testbed.block_solver;
    }
    if keys.any_just_pressed([KeyCode::ArrowRight, KeyCode::PageDown]) {
        testbed.switch_scene(1);
    }
    if keys.any_just_pressed([KeyCode::ArrowLeft, KeyCode::PageUp]) {
        testbed.switch_scene(-1);
    }
    let (config, parts) = gizmos.config_mut::<PhysicsGizmos>();
    if keys.just_pressed(KeyCode::F1) {
        config.enabled = !config.enabled;
    }
    let toggles: [(KeyCode, &mut bool); 7] = [
        (KeyCode::F2, &mut parts.shapes),
        (KeyCode::F3, &mut parts.aabbs),
        (KeyCode::F4, &mut parts.contacts),
        (KeyCode::F5, &mut parts.contact_impulses),
        (KeyCode::F6, &mut parts.joints),
        (KeyCode::F7, &mut parts.centers_of_mass),
        (KeyCode::F8, &mut parts.sleep_colors),
    ];
    for (key, part) in toggles {
        if keys.just_pressed(key) {
            *part = !*part;
        }
    }
}

/// Switches on the overlay parts named by `--show`.
pub fn show_parts(mut store: ResMut<GizmoConfigStore>, parts: &[OverlayPart]) {
    let (_, gizmos) = store.config_mut::<PhysicsGizmos>();
    for part in parts {
        match part {
            OverlayPart::Aabbs => gizmos.aabbs = true,
            OverlayPart::Contacts => gizmos.contacts = true,
            OverlayPart::Impulses => gizmos.contact_impulses = true,
            OverlayPart::CentersOfMass => gizmos.centers_of_mass = true,
        }
    }
}
