//! Angle joint (Bittle's angle constraint), with a ratio that makes it a gear:
//!   C = thetaB - ratio * thetaA - offset,  J = [0, -ratio, 0, 1],  K = ratio^2 iA + iB.
//! Ratio 1 keeps the relative rotation; ratio -2 turns B twice as fast the other way.
//! Angles are unwrapped (accumulated every step), so gears may turn any number of times.

use super::{JointFrame, JointImpulses, RowContext, effective_mass, soft_row};
use crate::solver::body_state::BodyState;
use serde::{Deserialize, Serialize};

/// Parameters of an angle (gear) joint.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
pub struct AngleJoint {
    /// How many turns of A make one turn of B (sign: direction).
    pub ratio: f32,
    /// thetaB - ratio * thetaA to keep; `None` takes the bodies' angles at creation.
    pub offset: Option<f32>,
}

impl Default for AngleJoint {
    fn default() -> Self {
        AngleJoint {
            ratio: 1.0,
            offset: None,
        }
    }
}

/// Unwrapped angle of a body: its angle at the step start plus the turn so far.
fn angle_now(start: f32, s: &BodyState) -> f32 {
    start + s.delta_rotation.angle()
}

pub(crate) fn warm_start(
    f: &JointFrame,
    j: &AngleJoint,
    imp: &JointImpulses,
    states: &mut [BodyState],
) {
    let (mut sa, mut sb) = f.load(states);
    sa.angular_velocity -= f.inv_inertia_a * j.ratio * imp.angular;
    sb.angular_velocity += f.inv_inertia_b * imp.angular;
    f.store(states, sa, sb);
}

/// `angles` holds the unwrapped angles of A and B at the start of the step.
pub(crate) fn solve(
    f: &JointFrame,
    j: &AngleJoint,
    angles: (f32, f32),
    offset: f32,
    imp: &mut JointImpulses,
    states: &mut [BodyState],
    ctx: &RowContext,
) {
    let (mut sa, mut sb) = f.load(states);
    let k = j.ratio * j.ratio * f.inv_inertia_a + f.inv_inertia_b;
    let mass = effective_mass(k);
    let c = angle_now(angles.1, &sb) - j.ratio * angle_now(angles.0, &sa) - offset;
    let cdot = sb.angular_velocity - j.ratio * sa.angular_velocity;
    let delta = soft_row(mass, cdot, c, &f.softness, ctx.use_bias, &mut imp.angular);
    sa.angular_velocity -= f.inv_inertia_a * j.ratio * delta;
    sb.angular_velocity += f.inv_inertia_b * delta;
    f.store(states, sa, sb);
}
