//! Weld joint: keeps B's pose relative to A, optionally soft.
//!
//! Angle row: C = thetaB - thetaA - reference, J = [0, -1, 0, 1], K = iA + iB.
//! Point rows: as the revolute joint (C = pB - pA, K the 2x2 point matrix).
//! Each part is rigid (the joint softness) unless given its own hertz, which turns it into a
//! damped spring: a bendy weld for breakable structures and soft bodies.

use super::RowContext;
use super::revolute::solve_point;
use super::{JointFrame, JointImpulses, soft_row};
use crate::solver::body_state::BodyState;
use crate::solver::softness::Softness;
use serde::{Deserialize, Serialize};

/// Parameters of a weld joint.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
pub struct WeldJoint {
    /// B's angle relative to A to keep.
    pub reference_angle: f32,
    /// Linear stiffness (hertz); 0 for rigid.
    pub linear_hertz: f32,
    /// Linear damping ratio.
    pub linear_damping_ratio: f32,
    /// Angular stiffness (hertz); 0 for rigid.
    pub angular_hertz: f32,
    /// Angular damping ratio.
    pub angular_damping_ratio: f32,
}

pub(crate) fn warm_start(f: &JointFrame, imp: &JointImpulses, states: &mut [BodyState]) {
    let (mut sa, mut sb) = f.load(states);
    let (ra, rb, _) = f.current(&sa, &sb);
    f.apply(&mut sa, &mut sb, ra, rb, imp.linear, imp.angular);
    f.store(states, sa, sb);
}

pub(crate) fn solve(
    f: &JointFrame,
    j: &WeldJoint,
    imp: &mut JointImpulses,
    states: &mut [BodyState],
    ctx: &RowContext,
) {
    let (mut sa, mut sb) = f.load(states);
    let zero = bevy_math::Vec2::ZERO;
    let axial_mass = f.axial_mass;

    let angular_soft = j.angular_hertz > 0.0;
    let softness = if angular_soft {
        Softness::new(j.angular_hertz, j.angular_damping_ratio, ctx.h)
    } else {
        f.softness
    };
    let c = f.angle(&sa, &sb, j.reference_angle);
    let cdot = sb.angular_velocity - sa.angular_velocity;
    let delta = soft_row(
        axial_mass,
        cdot,
        c,
        &softness,
        ctx.use_bias || angular_soft,
        &mut imp.angular,
    );
    f.apply(&mut sa, &mut sb, zero, zero, zero, delta);

    if j.linear_hertz > 0.0 {
        let soft = JointFrame {
            softness: Softness::new(j.linear_hertz, j.linear_damping_ratio, ctx.h),
            ..*f
        };
        solve_point(&soft, &mut sa, &mut sb, &mut imp.linear, true);
    } else {
        solve_point(f, &mut sa, &mut sb, &mut imp.linear, ctx.use_bias);
    }
    f.store(states, sa, sb);
}
