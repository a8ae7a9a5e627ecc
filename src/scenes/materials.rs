//! Material scenes: friction on a ramp and restitution of dropped balls.

use crate::scene::{BodyDesc, Scene, ball, boxed};
use physics_core::prelude::*;

/// Ramp angle of the friction scene.
pub const RAMP_ANGLE: f32 = std::f32::consts::PI / 6.0;

/// Friction coefficients of the boxes on the ramps, one ramp each, bottom ramp first.
pub const RAMP_FRICTIONS: [f32; 4] = [0.1, 0.3, 0.7, 1.0];

/// Restitution of the dropped balls, left to right.
pub const BALL_RESTITUTIONS: [f32; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Height of the balls' lowest point above the ground when dropped.
pub const DROP_HEIGHT: f32 = 5.0;

/// Four 30 degree ramps stacked 12 m apart, each with one box; ramp and box share the same
/// friction so the mixed coefficient is that value. Bodies: ramp, box, ramp, box, ..., then
/// a floor.
pub fn friction_ramp() -> Scene {
    let tangent = Rot::from_angle(RAMP_ANGLE).x_axis();
    let normal = Vec2::new(-tangent.y, tangent.x);
    let mut bodies = Vec::new();
    for (k, mu) in RAMP_FRICTIONS.into_iter().enumerate() {
        let centre = Vec2::new(0.0, 12.0 * k as f32);
        bodies.push(BodyDesc::fixed(centre, boxed(10.0, 0.25).friction(mu)).angle(RAMP_ANGLE));
        // Resting on the ramp's upper surface, 5 m up the slope from its centre.
        let position = centre + (0.25 + 0.5) * normal + 5.0 * tangent;
        bodies.push(BodyDesc::dynamic(position, boxed(0.5, 0.5).friction(mu)).angle(RAMP_ANGLE));
    }
    // A floor below the ramps catches the boxes that slide off (last, so the ramp and box
    // indices above stay as documented).
    bodies.push(BodyDesc::fixed(Vec2::new(0.0, -7.0), boxed(40.0, 1.0)));
    Scene {
        name: "friction_ramp",
        gravity: Vec2::new(0.0, -10.0),
        dt: 1.0 / 60.0,
        steps: 180,
        bodies,
        joints: Vec::new(),
        groups: Vec::new(),
        timeline: Vec::new(),
    }
}

/// Balls of radius 0.5 dropped from 5 m onto a ground of restitution 0 (mixing takes the
/// larger value, so each ball bounces with its own). Bodies: ground, then one ball per
/// restitution.
pub fn restitution() -> Scene {
    let mut bodies = vec![BodyDesc::fixed(Vec2::new(0.0, -1.0), boxed(20.0, 1.0))];
    for (i, e) in BALL_RESTITUTIONS.into_iter().enumerate() {
        let x = -4.0 + 2.0 * i as f32;
        bodies.push(BodyDesc::dynamic(
            Vec2::new(x, DROP_HEIGHT + 0.5),
            ball(0.5).restitution(e),
        ));
    }
    Scene {
        name: "restitution",
        gravity: Vec2::new(0.0, -10.0),
        dt: 1.0 / 60.0,
        steps: 300,
        bodies,
        joints: Vec::new(),
        groups: Vec::new(),
        timeline: Vec::new(),
    }
}
