//! Motor joint: drives B's pose relative to A towards a target offset with limited force and
//! torque (a character controller, a moving platform that can be stopped).
//!
//! Linear rows: C = (cB - cA) - qA(offset), J = [-I, 0, I, 0] at the centres, K = (mA + mB) I.
//! Angular row: C = thetaB - thetaA - angular offset, J = [0, -1, 0, 1], K = iA + iB.
//! Both rows are soft springs (hertz, damping ratio) whose accumulated impulses are clamped
//! by the maximum force and torque: a force-limited, critically damped controller. It is a
//! drive, not a rigid constraint, so it takes no part in relax iterations.

use super::{JointFrame, JointImpulses, RowContext};
use crate::solver::body_state::BodyState;
use crate::solver::softness::Softness;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// Parameters of a motor joint.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
pub struct MotorJoint {
    /// Target position of B's centre relative to A's, in A's frame.
    pub linear_offset: Vec2,
    /// Target angle of B relative to A.
    pub angular_offset: f32,
    /// Largest force (N).
    pub max_force: f32,
    /// Largest torque (N m).
    pub max_torque: f32,
    /// Stiffness of the drive (hertz).
    pub hertz: f32,
    /// Damping ratio of the drive (1 is critical).
    pub damping_ratio: f32,
}

impl Default for MotorJoint {
    fn default() -> Self {
        MotorJoint {
            linear_offset: Vec2::ZERO,
            angular_offset: 0.0,
            max_force: 1.0,
            max_torque: 1.0,
            hertz: 5.0,
            damping_ratio: 1.0,
        }
    }
}

pub(crate) fn warm_start(f: &JointFrame, imp: &JointImpulses, states: &mut [BodyState]) {
    let (mut sa, mut sb) = f.load(states);
    sa.linear_velocity -= f.inv_mass_a * imp.linear;
    sa.angular_velocity -= f.inv_inertia_a * imp.angular;
    sb.linear_velocity += f.inv_mass_b * imp.linear;
    sb.angular_velocity += f.inv_inertia_b * imp.angular;
    f.store(states, sa, sb);
}

pub(crate) fn solve(
    f: &JointFrame,
    j: &MotorJoint,
    imp: &mut JointImpulses,
    states: &mut [BodyState],
    ctx: &RowContext,
) {
    if !ctx.use_bias {
        return;
    }
    let (mut sa, mut sb) = f.load(states);
    let soft = Softness::new(j.hertz, j.damping_ratio, ctx.h);

    let k = f.inv_inertia_a + f.inv_inertia_b;
    if k > 0.0 {
        let c = f.angle(&sa, &sb, j.angular_offset);
        let cdot = sb.angular_velocity - sa.angular_velocity;
        let max = j.max_torque * ctx.h;
        let old = imp.angular;
        let total =
            (old - soft.mass_scale * (cdot + soft.bias_rate * c) / k - soft.impulse_scale * old)
                .clamp(-max, max);
        let delta = total - old;
        imp.angular = total;
        sa.angular_velocity -= f.inv_inertia_a * delta;
        sb.angular_velocity += f.inv_inertia_b * delta;
    }

    let k = f.inv_mass_a + f.inv_mass_b;
    if k > 0.0 {
        let qa = sa.delta_rotation * f.rotation_a;
        let c = f.delta_center + sb.delta_position - sa.delta_position - qa.rotate(j.linear_offset);
        let cdot = sb.linear_velocity - sa.linear_velocity;
        let max = j.max_force * ctx.h;
        let old = imp.linear;
        let mut total =
            old - soft.mass_scale * (cdot + soft.bias_rate * c) / k - soft.impulse_scale * old;
        if total.length_squared() > max * max {
            total *= max / total.length();
        }
        let delta = total - old;
        imp.linear = total;
        sa.linear_velocity -= f.inv_mass_a * delta;
        sb.linear_velocity += f.inv_mass_b * delta;
    }
    f.store(states, sa, sb);
}
