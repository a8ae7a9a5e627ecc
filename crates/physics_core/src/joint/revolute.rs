//! Revolute (pin) joint: the two anchors coincide; rotation is free, optionally limited,
//! motorised or sprung.
//!
//! Point constraint (2 rows):
//!   C = (cB + rB) - (cA + rA) = 0
//!   J = [-I, -[rA]x, I, [rB]x]            ([r]x w = w x r = (-w r.y, w r.x))
//!   K = (mA + mB) I + iA [rA]x^T[rA]x + iB [rB]x^T[rB]x
//!     = [[mA + mB + iA rA.y^2 + iB rB.y^2, -iA rA.x rA.y - iB rB.x rB.y],
//!        [-iA rA.x rA.y - iB rB.x rB.y,    mA + mB + iA rA.x^2 + iB rB.x^2]]
//! Angle rows (spring, motor, limits), with theta = angle of B relative to A minus the
//! reference angle:
//!   C = theta - target,  J = [0, -1, 0, 1],  K = iA + iB.

use super::{
    JointFrame, JointImpulses, RowContext, limit_row, motor_row, point_mass_matrix, solve22,
};
use crate::math::cross_sv;
use crate::solver::body_state::BodyState;
use crate::solver::softness::Softness;
use serde::{Deserialize, Serialize};

/// Parameters of a revolute joint.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
pub struct RevoluteJoint {
    /// B's angle relative to A at which the joint angle is zero.
    pub reference_angle: f32,
    /// Enables the rotational spring towards angle zero.
    pub enable_spring: bool,
    /// Spring stiffness (hertz).
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
    /// Enables the motor.
    pub enable_motor: bool,
    /// Motor target speed (rad/s, B relative to A).
    pub motor_speed: f32,
    /// Largest torque the motor applies (N m).
    pub max_motor_torque: f32,
    /// Enables the angle limits.
    pub enable_limit: bool,
    /// Lowest joint angle (rad).
    pub lower_angle: f32,
    /// Highest joint angle (rad).
    pub upper_angle: f32,
}

pub(crate) fn warm_start(f: &JointFrame, imp: &JointImpulses, states: &mut [BodyState]) {
    let (mut sa, mut sb) = f.load(states);
    let (ra, rb, _) = f.current(&sa, &sb);
    let axial = imp.spring + imp.motor + imp.lower - imp.upper;
    f.apply(&mut sa, &mut sb, ra, rb, imp.linear, axial);
    f.store(states, sa, sb);
}

pub(crate) fn solve(
    f: &JointFrame,
    j: &RevoluteJoint,
    imp: &mut JointImpulses,
    states: &mut [BodyState],
    ctx: &RowContext,
    exact: bool,
) {
    let (mut sa, mut sb) = f.load(states);
    if j.enable_spring || j.enable_motor || j.enable_limit {
        solve_axial(f, j, imp, &mut sa, &mut sb, ctx);
    }
    if !exact {
        solve_point(f, &mut sa, &mut sb, &mut imp.linear, ctx.use_bias);
    }
    f.store(states, sa, sb);
}

/// The angle rows: spring, motor and limits (a pin with none of them skips this).
fn solve_axial(
    f: &JointFrame,
    j: &RevoluteJoint,
    imp: &mut JointImpulses,
    sa: &mut BodyState,
    sb: &mut BodyState,
    ctx: &RowContext,
) {
    let axial_mass = f.axial_mass;
    let zero = bevy_math::Vec2::ZERO;

    if j.enable_spring && j.hertz > 0.0 {
        let spring = Softness::new(j.hertz, j.damping_ratio, ctx.h);
        let c = f.angle(sa, sb, j.reference_angle);
        let cdot = sb.angular_velocity - sa.angular_velocity;
        let delta = -axial_mass * spring.mass_scale * (cdot + spring.bias_rate * c)
            - spring.impulse_scale * imp.spring;
        imp.spring += delta;
        f.apply(sa, sb, zero, zero, zero, delta);
    }

    if j.enable_motor {
        let cdot = sb.angular_velocity - sa.angular_velocity - j.motor_speed;
        let max = j.max_motor_torque * ctx.h;
        let delta = motor_row(axial_mass, cdot, max, &mut imp.motor);
        f.apply(sa, sb, zero, zero, zero, delta);
    }

    if j.enable_limit {
        let angle = f.angle(sa, sb, j.reference_angle);
        let cdot = sb.angular_velocity - sa.angular_velocity;
        let delta = limit_row(
            axial_mass,
            cdot,
            angle - j.lower_angle,
            &f.softness,
            ctx.use_bias,
            ctx.inv_h,
            &mut imp.lower,
        );
        f.apply(sa, sb, zero, zero, zero, delta);
        let cdot = sa.angular_velocity - sb.angular_velocity;
        let delta = limit_row(
            axial_mass,
            cdot,
            j.upper_angle - angle,
            &f.softness,
            ctx.use_bias,
            ctx.inv_h,
            &mut imp.upper,
        );
        f.apply(sa, sb, zero, zero, zero, -delta);
    }
}

/// The soft point-to-point rows shared by the revolute and weld joints.
#[inline(always)]
pub(crate) fn solve_point(
    f: &JointFrame,
    sa: &mut BodyState,
    sb: &mut BodyState,
    total: &mut bevy_math::Vec2,
    use_bias: bool,
) {
    let (ra, rb, d) = f.current(sa, sb);
    let cdot = sb.linear_velocity + cross_sv(sb.angular_velocity, rb)
        - sa.linear_velocity
        - cross_sv(sa.angular_velocity, ra);
    let (bias, mass_scale, impulse_scale) = if use_bias {
        (
            f.softness.bias_rate * d,
            f.softness.mass_scale,
            f.softness.impulse_scale,
        )
    } else {
        (bevy_math::Vec2::ZERO, 1.0, 0.0)
    };
    let (k11, k12, k22) = point_mass_matrix(f, ra, rb);
    let b = solve22(k11, k12, k22, cdot + bias);
    let impulse = -mass_scale * b - impulse_scale * *total;
    *total += impulse;
    f.apply(sa, sb, ra, rb, impulse, 0.0);
}
