//! A per-scene stability figure, so a fast engine that gets the physics wrong cannot win.

use bevy_math::Vec2;
use physics_core::body::BodyType;
use physics2d_demos::Scene;
use physics2d_demos::scenes::{SPINNER_BOWL_CENTER, SPINNER_BOWL_RADIUS};

/// What the figure measures, for the table's legend.
pub fn describe(scene: &Scene) -> &'static str {
    match scene.name {
        "large_pyramid" | "many_pyramids" => "largest drift of a box from where it started (m)",
        "joint_grid" => "largest stretch of a pin: centre distance of joined balls minus 1 m",
        "spinner" => "dynamic bodies non-finite or outside the bowl",
        _ => "dynamic bodies non-finite or more than 100 m outside the start box",
    }
}

/// The figure for positions `end` (description order) after `steps` steps; smaller is better.
/// Bodies of the scene's groups that do not exist at the end (no position) are left out.
pub fn measure(scene: &Scene, end: &[Vec2], steps: usize) -> f32 {
    let present = scene.bodies_present_after(steps);
    let dynamic = || {
        scene
            .bodies
            .iter()
            .zip(end)
            .zip(&present)
            .filter(|((b, _), present)| b.body_type == BodyType::Dynamic && **present)
            .map(|(pair, _)| pair)
    };
    match scene.name {
        "large_pyramid" | "many_pyramids" => {
            dynamic()
                .map(|(b, p)| b.position.distance(*p))
                .fold(0.0, |worst: f32, d| {
                    if d.is_nan() {
                        f32::INFINITY
                    } else {
                        worst.max(d)
                    }
                })
        }
        "joint_grid" => scene
            .joints
            .iter()
            .map(|j| end[j.body_a].distance(end[j.body_b]) - 1.0)
            .fold(0.0, |worst: f32, s| {
                if s.is_nan() {
                    f32::INFINITY
                } else {
                    worst.max(s)
                }
            }),
        "spinner" => dynamic()
            .filter(|(_, p)| {
                let d = p.distance(SPINNER_BOWL_CENTER);
                // The bowl's segments have no thickness; a body's centre sits at most its
                // 0.35 m radius inside them.
                d.is_nan() || d > SPINNER_BOWL_RADIUS
            })
            .count() as f32,
        _ => {
            let (min, max) = scene.origin_bounds();
            let (min, max) = (min - 100.0, max + 100.0);
            dynamic()
                .filter(|(_, p)| !p.is_finite() || p.cmplt(min).any() || p.cmpgt(max).any())
                .count() as f32
        }
    }
}
