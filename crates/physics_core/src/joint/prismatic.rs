//! Prismatic (slider) joint: B slides along an axis fixed in A and does not rotate relative to
//! A; optional translation limits, motor and spring (Bittle, "Prismatic Constraint").
//!
//! With d = pB - pA, axis a and perpendicular p = perp(a) turning with A:
//! Perpendicular and angle rows (solved together):
//!   C = [p.d, thetaB - thetaA - reference]
//!   J = [[-p, -(d + rA) x p, p, rB x p], [0, -1, 0, 1]]
//!   K = [[mA + mB + iA s1^2 + iB s2^2, iA s1 + iB s2], [iA s1 + iB s2, iA + iB]]
//!   with s1 = (d + rA) x p, s2 = rB x p.
//! Axis rows (spring, motor, limits): C = a.d - target,
//!   J = [-a, -(d + rA) x a, a, rB x a],  K = mA + mB + iA a1^2 + iB a2^2,
//!   a1 = (d + rA) x a, a2 = rB x a.

use super::RowContext;
use super::line::LineAxes;
use super::{JointFrame, JointImpulses, motor_row, solve22};
use crate::solver::body_state::BodyState;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// Parameters of a prismatic joint.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
pub struct PrismaticJoint {
    /// Slide axis in body A's frame (unit length).
    pub local_axis_a: Vec2,
    /// B's angle relative to A to keep.
    pub reference_angle: f32,
    /// Enables the spring towards translation zero.
    pub enable_spring: bool,
    /// Spring stiffness (hertz).
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
    /// Enables the motor.
    pub enable_motor: bool,
    /// Motor target speed along the axis (m/s).
    pub motor_speed: f32,
    /// Largest motor force (N).
    pub max_motor_force: f32,
    /// Enables the translation limits.
    pub enable_limit: bool,
    /// Lowest translation along the axis.
    pub lower_translation: f32,
    /// Highest translation along the axis.
    pub upper_translation: f32,
}

impl Default for PrismaticJoint {
    fn default() -> Self {
        PrismaticJoint {
            local_axis_a: Vec2::X,
            reference_angle: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
        }
    }
}

pub(crate) fn warm_start(
    f: &JointFrame,
    j: &PrismaticJoint,
    imp: &JointImpulses,
    states: &mut [BodyState],
) {
    let (mut sa, mut sb) = f.load(states);
    let x = LineAxes::new(f, j.local_axis_a, &sa, &sb);
    let axial = imp.spring + imp.motor + imp.lower - imp.upper;
    x.apply(f, &mut sa, &mut sb, axial, imp.linear.x, imp.linear.y);
    f.store(states, sa, sb);
}

pub(crate) fn solve(
    f: &JointFrame,
    j: &PrismaticJoint,
    imp: &mut JointImpulses,
    states: &mut [BodyState],
    ctx: &RowContext,
    exact: bool,
) {
    let (mut sa, mut sb) = f.load(states);
    let x = LineAxes::new(f, j.local_axis_a, &sa, &sb);
    let (ma, mb, ia, ib) = (f.inv_mass_a, f.inv_mass_b, f.inv_inertia_a, f.inv_inertia_b);
    let axial_mass = x.axial_mass(f);

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
    if j.enable_motor {
        let max = j.max_motor_force * ctx.h;
        let cdot = x.axial_velocity(&sa, &sb) - j.motor_speed;
        let delta = motor_row(axial_mass, cdot, max, &mut imp.motor);
        x.apply(f, &mut sa, &mut sb, delta, 0.0, 0.0);
    }
    if j.enable_limit {
        let range = (j.lower_translation, j.upper_translation);
        x.solve_limits(f, &mut sa, &mut sb, range, imp, ctx);
    }

    if exact {
        f.store(states, sa, sb);
        return;
    }
    // Perpendicular and angle rows together.
    let cdot = Vec2::new(
        x.lateral_velocity(&sa, &sb),
        sb.angular_velocity - sa.angular_velocity,
    );
    let c = Vec2::new(x.lateral, f.angle(&sa, &sb, j.reference_angle));
    let (bias, mass_scale, impulse_scale) = if ctx.use_bias {
        (
            f.softness.bias_rate * c,
            f.softness.mass_scale,
            f.softness.impulse_scale,
        )
    } else {
        (Vec2::ZERO, 1.0, 0.0)
    };
    let k11 = ma + mb + ia * x.s1 * x.s1 + ib * x.s2 * x.s2;
    let k12 = ia * x.s1 + ib * x.s2;
    let mut k22 = ia + ib;
    if k22 == 0.0 {
        // Neither body can rotate: the angle row is redundant; keep K invertible.
        k22 = 1.0;
    }
    let b = solve22(k11, k12, k22, cdot + bias);
    let impulse = -mass_scale * b - impulse_scale * imp.linear;
    imp.linear += impulse;
    x.apply(f, &mut sa, &mut sb, 0.0, impulse.x, impulse.y);
    f.store(states, sa, sb);
}
