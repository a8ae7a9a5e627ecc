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

    if j.enable_limit && limits_idle(f, j, imp, sa, sb, ctx.inv_h) {
        // Both rows would apply exactly zero (see `limits_idle`): the same calls as below
        // with their zero impulses, without the angle's atan2.
        imp.lower = 0.0;
        imp.upper = 0.0;
        f.apply(sa, sb, zero, zero, zero, 0.0);
        f.apply(sa, sb, zero, zero, zero, -0.0);
    } else if j.enable_limit {
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

/// True when both limit rows are sure to apply exactly zero this solve, found without the
/// joint angle's atan2 (about half of this joint's solve time in a ragdoll crowd).
///
/// A row `C >= 0` whose total is zero applies zero when `C > 0` and `Cdot + C / h > 0`: the
/// speculative impulse `-m (Cdot + C / h)` is negative and the total clamps back to zero
/// (`limit_row` then returns +0 and leaves +0). With the relative rotation's sine `u` and a
/// positive cosine, the angle lies between `u` and `u pi / 2` (sin x <= x <= (pi/2) sin x on
/// [0, pi/2], Jordan's inequality; mirrored for negative angles), which bounds both rows' C
/// from below. The margins cover the rotations' distance from unit length (1e-3 of `u`),
/// the rounding of `C` and of `Cdot + C / h`, and the atan2's own error; a joint near
/// either limit, or turned more than a quarter turn, or with a total, takes the exact rows.
#[inline]
fn limits_idle(
    f: &JointFrame,
    j: &RevoluteJoint,
    imp: &JointImpulses,
    sa: &BodyState,
    sb: &BodyState,
    inv_h: f32,
) -> bool {
    // NaN masses and zero ones (both bodies without rotation) take the exact rows.
    let turns = f.axial_mass > 0.0;
    if imp.lower != 0.0 || imp.upper != 0.0 || !turns {
        return false;
    }
    let qa = sa.delta_rotation * f.rotation_a;
    let qb = sb.delta_rotation * f.rotation_b;
    let r = qa.inv_mul(qb);
    let within_quarter_turn = r.c > 0.0;
    if !within_quarter_turn {
        return false;
    }
    let (near, far) = (
        r.s * (1.0 - 1e-3),
        r.s * (std::f32::consts::FRAC_PI_2 * (1.0 + 1e-3)),
    );
    let (angle_low, angle_high) = (near.min(far), near.max(far));
    let scale = 4.0 + j.reference_angle.abs() + j.lower_angle.abs().max(j.upper_angle.abs());
    let slack = 1e-5 * scale;
    let lower_c = angle_low - j.reference_angle - j.lower_angle - slack;
    let upper_c = j.upper_angle + j.reference_angle - angle_high - slack;
    let cdot = sb.angular_velocity - sa.angular_velocity;
    let rounding = 1e-5 * (cdot.abs() + scale * inv_h);
    lower_c > 0.0
        && upper_c > 0.0
        && cdot + lower_c * inv_h > rounding
        && -cdot + upper_c * inv_h > rounding
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::BodyId;
    use crate::joint::{JointBody, JointDef, JointKind};
    use crate::math::Rot;
    use bevy_math::Vec2;

    /// The rows' result the long way: the angle's atan2 and both limit rows.
    fn exact_limit_rows(
        f: &JointFrame,
        j: &RevoluteJoint,
        imp: &mut JointImpulses,
        sa: &mut BodyState,
        sb: &mut BodyState,
        ctx: &RowContext,
    ) {
        let zero = Vec2::ZERO;
        let angle = f.angle(sa, sb, j.reference_angle);
        let cdot = sb.angular_velocity - sa.angular_velocity;
        let (soft, bias, inv_h) = (&f.softness, ctx.use_bias, ctx.inv_h);
        let c = angle - j.lower_angle;
        let delta = limit_row(f.axial_mass, cdot, c, soft, bias, inv_h, &mut imp.lower);
        f.apply(sa, sb, zero, zero, zero, delta);
        let cdot = sa.angular_velocity - sb.angular_velocity;
        let c = j.upper_angle - angle;
        let delta = limit_row(f.axial_mass, cdot, c, soft, bias, inv_h, &mut imp.upper);
        f.apply(sa, sb, zero, zero, zero, -delta);
    }

    /// Wherever `limits_idle` lets a solve skip the angle, the exact rows give the same bits
    /// (velocities and impulses, signs of zeros included). The joints are drawn around their
    /// limits (angles up to 0.3 rad past them, turns of up to 40 rad/s), so both answers
    /// occur often; a bound that claimed too much (the upper angle bound `u` instead of
    /// `u pi / 2`) fails here.
    #[test]
    fn idle_limits_skip_the_angle_with_the_exact_rows_bits() {
        let mut seed = 7u32;
        let mut uniform = move |low: f32, high: f32| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            low + (high - low) * ((seed >> 8) as f32 / (1u32 << 24) as f32)
        };
        let ctx = RowContext {
            h: 1.0 / 240.0,
            inv_h: 240.0,
            use_bias: true,
        };
        let (mut idle, mut busy) = (0, 0);
        for _ in 0..200_000 {
            let lower = uniform(-1.4, 0.0);
            let upper = uniform(0.0, 1.4);
            let joint = RevoluteJoint {
                reference_angle: uniform(-0.5, 0.5),
                enable_limit: true,
                lower_angle: lower,
                upper_angle: upper,
                ..RevoluteJoint::default()
            };
            let body = |index: u32, angle: f32| JointBody {
                solver_index: index,
                inv_mass: 1.0,
                inv_inertia: 6.0,
                center: crate::position::to_position(Vec2::new(index as f32, 0.0)),
                rotation: Rot::from_angle(angle),
                local_center: Vec2::ZERO,
            };
            let id = |index| BodyId {
                index,
                generation: 0,
            };
            let kind = JointKind::Revolute(joint);
            let def = JointDef::new(id(0), id(1), Vec2::ZERO, Vec2::ZERO, kind);
            let angle_a = uniform(-3.0, 3.0);
            let relative = joint.reference_angle + uniform(lower - 0.3, upper + 0.3);
            let softness = Softness::new(60.0, 5.0, ctx.h);
            let f = JointFrame::new(
                0,
                &def,
                &body(0, angle_a),
                &body(1, angle_a + relative),
                softness,
            );
            let state = |w: f32, turn: f32| BodyState {
                angular_velocity: w,
                delta_rotation: Rot::from_angle(turn),
                ..BodyState::AT_REST
            };
            let sa = state(uniform(-20.0, 20.0), uniform(-0.05, 0.05));
            let sb = state(uniform(-20.0, 20.0), uniform(-0.05, 0.05));
            let imp = JointImpulses::default();
            let (mut exact, mut fast) = ((imp, sa, sb), (imp, sa, sb));
            exact_limit_rows(&f, &joint, &mut exact.0, &mut exact.1, &mut exact.2, &ctx);
            solve_axial(&f, &joint, &mut fast.0, &mut fast.1, &mut fast.2, &ctx);
            if limits_idle(&f, &joint, &imp, &sa, &sb, ctx.inv_h) {
                idle += 1;
            } else {
                busy += 1;
            }
            let bits = |(i, a, b): (JointImpulses, BodyState, BodyState)| {
                [i.lower, i.upper, a.angular_velocity, b.angular_velocity]
                    .map(f32::to_bits)
                    .into_iter()
                    .chain(
                        [a.linear_velocity, b.linear_velocity]
                            .map(|v| [v.x.to_bits(), v.y.to_bits()])
                            .into_iter()
                            .flatten(),
                    )
                    .collect::<Vec<u32>>()
            };
            assert_eq!(bits(fast), bits(exact), "{joint:?}, {sa:?}, {sb:?}");
        }
        assert!(idle > 20_000 && busy > 20_000, "idle {idle}, busy {busy}");
    }
}
