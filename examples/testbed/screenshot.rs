//! `--frames N` and `--screenshot PATH`: run N frames, save the window as a PNG, exit.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use std::path::PathBuf;

/// When to stop, and where the picture goes.
#[derive(Resource, Clone, Debug)]
pub struct FrameBudget {
    /// Frames to run first.
    pub frames: u32,
    /// Where to save the PNG; none exits without one.
    pub screenshot: Option<PathBuf>,
}

/// Counts frames; at the last one asks for the screenshot (or exits when there is none).
pub fn count_frames(
    mut commands: Commands,
    budget: Res<FrameBudget>,
    mut frame: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    *frame += 1;
    if *frame != budget.frames {
        return;
    }
    let Some(path) = budget.screenshot.clone() else {
        exit.write(AppExit::Success);
        return;
    };
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            let saved = captured
                .image
                .clone()
                .try_into_dynamic()
                .map_err(|e| e.to_string())
                .and_then(|image| image.to_rgb8().save(&path).map_err(|e| e.to_string()));
            match saved {
                Ok(()) => {
                    info!("testbed: saved {}", path.display());
                    exit.write(AppExit::Success);
                }
                Err(e) => {
                    error!("testbed: could not save {}: {e}", path.display());
                    exit.write(AppExit::error());
                }
            }
        },
    );
}
