//! Wheel joint (Bittle's line constraint): B's anchor moves along an axis fixed in A, with a
//! suspension spring along the axis, free rotation driven by an optional motor, and optional
//! translation limits. A car's wheel on its chassis.
//!
//! Perpendicular row: C = p.d, J = [-p, -(d + rA) x p, p, rB x p],
//!   K = mA + mB + iA s1^2 + iB s2^2 with s1 = (d + rA) x p, s2 = rB x p.
//! Axis rows (spring, limits): C = a.d - target, J = [-a, -(d + rA) x a, a, rB x a].
//! Motor row: Cdot = wB - wA - speed, J = [0, -1, 0, 1], K = iA + iB.

use super::line::LineAxes;
use super::{JointFrame, JointImpulses, RowContext, effective_mass, motor_row};
use crate::solver::body_state::BodyState;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// Parameters of a wheel joint.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
pub struct WheelJoint {
    /// Suspension axis in body A's frame (unit length).
    pub local_axis_a: Vec2,
    /// Enables the suspension spring.
    pub enable_spring: bool,
    /// Suspension stiffness (hertz).
    pub hertz: f32,
    /// Suspension damping ratio.
    pub damping_ratio: f32,
    /// Enables the motor on the wheel's rotation.
    pub enable_motor: bool,
    /// Motor target speed (rad/s, B relative to A).
    pub motor_speed: f32,
    /// Largest motor torque (N m).
    pub max_motor_torque: f32,
    /// Enables the suspension travel limits.
    pub enable_limit: bool,
    /// Lowest translation along the axis.
    pub lower_translation: f32,
    /// Highest translation along the axis.
    pub upper_translation: f32,
}

impl Default for WheelJoint {
    fn default() -> Self {
        WheelJoint {
            local_axis_a: Vec2::Y,
            enable_spring: true,
            hertz: 4.0,
            damping_ratio: 0.7,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
        }
    }
}

pub(crate) fn warm_start(
    f: &JointFrame,
    j: &WheelJoint,
    imp: &JointImpulses,
    states: &mut [BodyState],
) {
    let (mut sa, mut sb) = f.load(states);
    let x = LineAxes::new(f, j.local_axis_a, &sa, &sb);
    let axial = imp.spring + imp.lower - imp.upper;
    x.apply(f, &mut sa, &mut sb, axial, imp.linear.x, imp.motor);
    f.store(states, sa, sb);
}

pub(crate) fn solve(
    f: &JointFrame,
    j: &WheelJoint,
    imp: &mut JointImpulses,
    states: &mut [BodyState],
    ctx: &RowContext,
) {
    let (mut sa, mut sb) = f.load(states);
    let x = LineAxes::new(f, j.local_axis_a, &sa, &sb);
    let (ma, mb, ia, ib) = (f.inv_mass_a, f.inv_mass_b, f.inv_inertia_a, f.inv_inertia_b);

    if j.enable_motor {
        let mass = effective_mass(ia + ib);
        let cdot = sb.angular_velocity - sa.angular_velocity - j.motor_speed;
        let max = j.max_motor_torque * ctx.h;
        let delta = motor_row(mass, cdot, max, &mut imp.motor);
        x.apply(f, &mut sa, &mut sb, 0.0, 0.0, delta);
    }
    if j.enable_spring && j.hertz > 0.0 {
        x.solve_spring(
            f,
            &mut sa,
            &mut sb,
            (j.hertz, j.damping_ratio),
            &mut imp.spring,
            ctx,
        );
    }
    if j.enable_limit {
        let range = (j.lower_translation, j.upper_translation);
        x.solve_limits(f, &mut sa, &mut sb, range, imp, ctx);
    }
    // Perpendicular row.
    let mass = effective_mass(ma + mb + ia * x.s1 * x.s1 + ib * x.s2 * x.s2);
    let cdot = x.lateral_velocity(&sa, &sb);
    let delta = super::soft_row(
        mass,
        cdot,
        x.lateral,
        &f.softness,
        ctx.use_bias,
        &mut imp.linear.x,
    );
    x.apply(f, &mut sa, &mut sb, 0.0, delta, 0.0);
    f.store(states, sa, sb);
}
