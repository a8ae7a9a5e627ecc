//! Recordings in the testbed. `--record FILE` saves a run to a file: headless, the whole run;
//! in a window, K starts recording and K again stops and saves it. `--replay FILE` opens one:
//! headless, it replays it and prints where it ends; in a window, it shows the recorded world
//! with the physics clock stopped, Period and Comma stepping forward and back (Shift: ten
//! steps), Home and End jumping to the ends.

use crate::headless::scene_app;
use bevy::prelude::*;
use bevy_physics2d::physics_core::world::{Recording, Replay};
use bevy_physics2d::prelude::*;
use bevy_physics2d::{Physics, PhysicsWorld};
use physics2d_demos::Scene;
use std::path::{Path, PathBuf};

/// Writes `recording` to `path`; the number of bytes written.
pub fn save(recording: &Recording, path: &Path) -> Result<usize, String> {
    let bytes = recording.to_bytes();
    std::fs::write(path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(bytes.len())
}

/// Reads a recording from `path`.
pub fn load(path: &Path) -> Result<Recording, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Recording::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs `scene` headless for `steps` steps, recording from its first step, and saves the
/// recording to `path`; the core world's state hash at the end.
pub fn record_headless(
    scene: &Scene,
    steps: u64,
    block_solver: bool,
    path: &Path,
) -> Result<u64, String> {
    let mut app = scene_app(scene, block_solver);
    app.world_mut()
        .resource_mut::<PhysicsWorld>()
        .start_recording();
    let mut guard = 0;
    while app.world().resource::<PhysicsWorld>().step_count() < steps && guard < 10 * steps + 10 {
        app.update();
        guard += 1;
    }
    let mut physics = app.world_mut().resource_mut::<PhysicsWorld>();
    let recording = physics.stop_recording().ok_or("no recording under way")?;
    let bytes = save(&recording, path)?;
    let hash = physics.core().state_hash();
    println!(
        "recorded {} steps of {} ({} calls) to {} ({bytes} bytes); state hash {hash:#018x}",
        recording.step_count(),
        scene.name,
        recording.call_count(),
        path.display()
    );
    Ok(hash)
}

/// Replays the recording at `path` headless; its step count and the state hash it ends at.
pub fn replay_headless(path: &Path) -> Result<(u64, u64), String> {
    let recording = load(path)?;
    let world = recording.replay().map_err(|e| e.to_string())?;
    let (steps, hash) = (recording.step_count(), world.state_hash());
    println!(
        "replayed {steps} steps ({} calls) from {}: {} bodies; state hash {hash:#018x}",
        recording.call_count(),
        path.display(),
        world.body_count()
    );
    Ok((steps, hash))
}

/// Where K saves the window's recording.
#[derive(Resource)]
pub struct RecordTo(pub PathBuf);

/// K: starts recording the plugin's world, or stops and saves it.
pub fn record_key(
    keys: Res<ButtonInput<KeyCode>>,
    to: Res<RecordTo>,
    mut physics: ResMut<PhysicsWorld>,
    mut recording: Local<bool>,
) {
    if !keys.just_pressed(KeyCode::KeyK) {
        return;
    }
    if !*recording {
        physics.start_recording();
        *recording = true;
        info!("recording; K again saves it to {}", to.0.display());
        return;
    }
    *recording = false;
    if let Some(done) = physics.stop_recording() {
        match save(&done, &to.0) {
            Ok(bytes) => info!(
                "saved {} steps to {} ({bytes} bytes)",
                done.step_count(),
                to.0.display()
            ),
            Err(message) => warn!("{message}"),
        }
    }
}

/// A recording opened in the window: the replay, the step asked for and the step shown.
#[derive(Resource)]
pub struct ReplayView {
    pub replay: Replay,
    pub wanted: u64,
    pub shown: Option<u64>,
}

impl ReplayView {
    /// A view of `recording` at its start.
    pub fn new(recording: Recording) -> Result<Self, String> {
        let replay = Replay::new(recording).map_err(|e| e.to_string())?;
        Ok(ReplayView {
            replay,
            wanted: 0,
            shown: None,
        })
    }
}

/// The step counter's text.
#[derive(Component)]
pub struct ReplayLabel;

/// Stops the physics clock (the replay moves the world, not the plugin) and adds the label.
pub fn start_replay_view(mut time: ResMut<Time<Physics>>, mut commands: Commands) {
    time.pause();
    commands.spawn((
        ReplayLabel,
        Text::new(""),
        Node {
            position_type: PositionType::Absolute,
            left: Val::Px(12.0),
            top: Val::Px(12.0),
            ..default()
        },
    ));
}

/// Period and Comma step forward and back (Shift: ten steps), Home and End jump.
pub fn replay_keys(keys: Res<ButtonInput<KeyCode>>, mut view: ResMut<ReplayView>) {
    let last = view.replay.recording().step_count();
    let stride = if keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]) {
        10
    } else {
        1
    };
    if keys.just_pressed(KeyCode::Period) {
        view.wanted = (view.wanted + stride).min(last);
    }
    if keys.just_pressed(KeyCode::Comma) {
        view.wanted = view.wanted.saturating_sub(stride);
    }
    if keys.just_pressed(KeyCode::Home) {
        view.wanted = 0;
    }
    if keys.just_pressed(KeyCode::End) {
        view.wanted = last;
    }
}

/// Puts the recorded world at the wanted step into the plugin's world, which the debug
/// overlay draws, and updates the label; the first time, frames the bodies' origins.
pub fn show_replay(
    mut view: ResMut<ReplayView>,
    mut physics: ResMut<PhysicsWorld>,
    mut label: Query<&mut Text, With<ReplayLabel>>,
    window: Single<&Window>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    if view.shown == Some(view.wanted) {
        return;
    }
    let wanted = view.wanted;
    if let Err(e) = view.replay.seek(wanted) {
        warn!("replay: {e}");
        return;
    }
    let snapshot = view.replay.world().snapshot();
    if let Err(e) = physics.core_mut().restore(&snapshot) {
        warn!("replay: {e}");
        return;
    }
    if view.shown.is_none() {
        frame_bodies(physics.core(), &window, camera.into_inner());
    }
    view.shown = Some(view.replay.step());
    let text = format!(
        "replay: step {} of {}   . and , step (Shift: 10)   Home / End",
        view.replay.step(),
        view.replay.recording().step_count()
    );
    for mut t in &mut label {
        t.0 = text.clone();
    }
}

/// Points the camera at the box around `world`'s body origins, with a margin (as the testbed
/// frames a scene).
fn frame_bodies(
    world: &bevy_physics2d::physics_core::world::World,
    window: &Window,
    (mut transform, mut projection): (Mut<Transform>, Mut<Projection>),
) {
    let origins: Vec<Vec2> = world
        .body_ids()
        .into_iter()
        .filter_map(|id| world.body_position(id).ok())
        .collect();
    let Some(first) = origins.first() else {
        return;
    };
    let (min, max) = origins
        .iter()
        .fold((*first, *first), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let (min, max) = (min - Vec2::new(3.0, 4.0), max + 3.0);
    transform.translation = (0.5 * (min + max)).extend(transform.translation.z);
    if let Projection::Orthographic(ortho) = projection.as_mut() {
        let span = (max - min) / window.size().max(Vec2::ONE);
        ortho.scale = span.x.max(span.y).clamp(0.002, 10.0);
    }
}
