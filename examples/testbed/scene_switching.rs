//! Which scene is shown, and loading it: despawn the old scene, spawn the new one, set gravity
//! and the time step, and frame it with the camera.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_physics2d::PhysicsSettings;
use physics2d_demos::{SCENE_NAMES, SceneEntity, SceneTimeline, scene, spawn_scene};
use std::time::Duration;

/// The testbed's state: the scene, and what the keys and buttons asked for.
#[derive(Resource, Debug)]
pub struct Testbed {
    /// Index of the shown scene in [`SCENE_NAMES`].
    pub scene: usize,
    /// Load [`Testbed::scene`] again at the next frame (reset or scene change).
    pub reload: bool,
    /// Time runs at a fifth of real time.
    pub slow_motion: bool,
    /// Use the 2-point block solver.
    pub block_solver: bool,
}

impl Testbed {
    /// The state at start: `name` loads at the first frame.
    pub fn new(name: &str, block_solver: bool) -> Self {
        Testbed {
            scene: SCENE_NAMES.iter().position(|n| *n == name).unwrap_or(0),
            reload: true,
            slow_motion: false,
            block_solver,
        }
    }

    /// The shown scene's name.
    pub fn scene_name(&self) -> &'static str {
        SCENE_NAMES[self.scene]
    }

    /// Shows the scene `offset` places further down the list (wrapping around).
    pub fn switch_scene(&mut self, offset: isize) {
        let n = SCENE_NAMES.len() as isize;
        self.scene = (self.scene as isize + offset).rem_euclid(n) as usize;
        self.reload = true;
    }
}

/// Loads the scene when [`Testbed::reload`] asks for it.
pub fn load_scene(
    mut commands: Commands,
    mut testbed: ResMut<Testbed>,
    mut settings: ResMut<PhysicsSettings>,
    mut fixed: ResMut<Time<Fixed>>,
    old: Query<Entity, (With<SceneEntity>, Without<ChildOf>)>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    if !testbed.reload {
        return;
    }
    testbed.reload = false;
    let Some(scene) = scene(testbed.scene_name()) else {
        return;
    };
    for entity in &old {
        commands.entity(entity).despawn();
    }
    let spawned = spawn_scene(&mut commands, &scene);
    // A scene whose bodies come and go (rain) runs its timeline from the next step.
    if scene.timeline.is_empty() {
        commands.remove_resource::<SceneTimeline>();
    } else {
        commands.insert_resource(SceneTimeline::new(scene.clone(), spawned));
    }
    settings.gravity = scene.gravity;
    settings.block_solver = testbed.block_solver;
    fixed.set_timestep(Duration::from_secs_f32(scene.dt));

    // Frame the bodies' origins (a long ground is one point at its centre, so it does not
    // zoom the view out), with a margin all round and a little more below for the help line.
    let (min, max) = scene.origin_bounds();
    let (min, max) = (min - Vec2::new(3.0, 4.0), max + 3.0);
    let (mut transform, mut projection) = camera.into_inner();
    transform.translation = (0.5 * (min + max)).extend(transform.translation.z);
    if let Projection::Orthographic(ortho) = projection.as_mut() {
        let size = window.size().max(Vec2::ONE);
        let span = (max - min) / size;
        ortho.scale = span.x.max(span.y).clamp(0.002, 10.0);
    }
}
