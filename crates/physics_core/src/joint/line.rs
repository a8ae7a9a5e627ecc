//! The geometry of a line constraint, shared by the prismatic and wheel joints: B's anchor
//! moves along an axis fixed in A.
//!
//! With d = pB - pA, axis a (turning with A) and perpendicular p = perp(a):
//!   axial rows:         J = [-a, -(d + rA) x a, a, rB x a]   (lever arms a1, a2)
//!   perpendicular row:  J = [-p, -(d + rA) x p, p, rB x p]   (lever arms s1, s2)
//! The (d + rA) arm on A is what makes the axis follow A's rotation.

use super::{JointFrame, JointImpulses, RowContext, effective_mass, limit_row};
use crate::math::{cross, left_perp};
use crate::solver::body_state::BodyState;
use crate::solver::softness::Softness;
use bevy_math::Vec2;

/// Axis, perpendicular and lever arms of a line constraint at the current motion.
pub(crate) struct LineAxes {
    pub axis: Vec2,
    pub perp: Vec2,
    /// a . d: position along the axis.
    pub translation: f32,
    /// p . d: distance off the axis.
    pub lateral: f32,
    pub a1: f32,
    pub a2: f32,
    pub s1: f32,
    pub s2: f32,
}

impl LineAxes {
    /// The line geometry of a joint whose axis is `local_axis_a` in A's frame.
    pub fn new(f: &JointFrame, local_axis_a: Vec2, sa: &BodyState, sb: &BodyState) -> Self {
        let (ra, rb, d) = f.current(sa, sb);
        let axis = (sa.delta_rotation * f.rotation_a).rotate(local_axis_a);
        let perp = left_perp(axis);
        LineAxes {
            axis,
            perp,
            translation: axis.dot(d),
            lateral: perp.dot(d),
            a1: cross(d + ra, axis),
            a2: cross(rb, axis),
            s1: cross(d + ra, perp),
            s2: cross(rb, perp),
        }
    }

    /// Effective mass of the axial rows.
    pub fn axial_mass(&self, f: &JointFrame) -> f32 {
        let k = f.inv_mass_a
            + f.inv_mass_b
            + f.inv_inertia_a * self.a1 * self.a1
            + f.inv_inertia_b * self.a2 * self.a2;
        effective_mass(k)
    }

    /// Relative velocity along the axis.
    pub fn axial_velocity(&self, sa: &BodyState, sb: &BodyState) -> f32 {
        self.axis.dot(sb.linear_velocity - sa.linear_velocity) + self.a2 * sb.angular_velocity
            - self.a1 * sa.angular_velocity
    }

    /// Relative velocity across the axis.
    pub fn lateral_velocity(&self, sa: &BodyState, sb: &BodyState) -> f32 {
        self.perp.dot(sb.linear_velocity - sa.linear_velocity) + self.s2 * sb.angular_velocity
            - self.s1 * sa.angular_velocity
    }

    /// Applies impulses along the axis (`axial`), across it (`lateral`) and about the relative
    /// rotation (`angular`): minus to A, plus to B.
    pub fn apply(
        &self,
        f: &JointFrame,
        sa: &mut BodyState,
        sb: &mut BodyState,
        axial: f32,
        lateral: f32,
        angular: f32,
    ) {
        let p = axial * self.axis + lateral * self.perp;
        let la = axial * self.a1 + lateral * self.s1 + angular;
        let lb = axial * self.a2 + lateral * self.s2 + angular;
        sa.linear_velocity -= f.inv_mass_a * p;
        sa.angular_velocity -= f.inv_inertia_a * la;
        sb.linear_velocity += f.inv_mass_b * p;
        sb.angular_velocity += f.inv_inertia_b * lb;
    }

    /// The spring along the axis towards translation zero (Hooke's law with damping).
    pub fn solve_spring(
        &self,
        f: &JointFrame,
        sa: &mut BodyState,
        sb: &mut BodyState,
        (hertz, damping_ratio): (f32, f32),
        total: &mut f32,
        ctx: &RowContext,
    ) {
        let spring = Softness::new(hertz, damping_ratio, ctx.h);
        let delta = -self.axial_mass(f)
            * spring.mass_scale
            * (self.axial_velocity(sa, sb) + spring.bias_rate * self.translation)
            - spring.impulse_scale * *total;
        *total += delta;
        self.apply(f, sa, sb, delta, 0.0, 0.0);
    }

    /// The translation limits: lower <= a . d <= upper, as two one-sided rows.
    pub fn solve_limits(
        &self,
        f: &JointFrame,
        sa: &mut BodyState,
        sb: &mut BodyState,
        (lower, upper): (f32, f32),
        imp: &mut JointImpulses,
        ctx: &RowContext,
    ) {
        let mass = self.axial_mass(f);
        let delta = limit_row(
            mass,
            self.axial_velocity(sa, sb),
            self.translation - lower,
            &f.softness,
            ctx.use_bias,
            ctx.inv_h,
            &mut imp.lower,
        );
        self.apply(f, sa, sb, delta, 0.0, 0.0);
        let delta = limit_row(
            mass,
            -self.axial_velocity(sa, sb),
            upper - self.translation,
            &f.softness,
            ctx.use_bias,
            ctx.inv_h,
            &mut imp.upper,
        );
        self.apply(f, sa, sb, -delta, 0.0, 0.0);
    }
}
