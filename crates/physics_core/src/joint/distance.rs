//! Distance joint: keeps the anchors at a distance: rigid, a damped spring (Hooke's law with
//! damping, Szauer), or a rope that only limits the maximum.
//!
//! With d = pB - pA, L = |d| and n = d / L:
//!   C = L - length,  J = [-n, -(rA x n), n, (rB x n)],
//!   K = mA + mB + iA (rA x n)^2 + iB (rB x n)^2.
//! The limits are one-sided rows of the same J: L - min >= 0 and max - L >= 0.

use super::RowContext;
use super::{JointFrame, JointImpulses, effective_mass, limit_row, soft_row};
use crate::math::{cross, cross_sv, length_and_normalize};
use crate::solver::body_state::BodyState;
use crate::solver::softness::Softness;

use serde::{Deserialize, Serialize};

/// Parameters of a distance joint.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
pub struct DistanceJoint {
    /// Rest length.
    pub length: f32,
    /// Shortest allowed length (with the spring or rope enabled).
    pub min_length: f32,
    /// Longest allowed length (with the spring or rope enabled).
    pub max_length: f32,
    /// Makes the length a damped spring instead of rigid.
    pub enable_spring: bool,
    /// Spring stiffness (hertz); 0 with the spring enabled is a slack rope.
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
}

impl DistanceJoint {
    /// A rigid rod of `length`.
    pub fn rigid(length: f32) -> Self {
        DistanceJoint {
            length,
            min_length: length,
            max_length: length,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
        }
    }

    /// A spring of rest `length`, stiffness `hertz` and `damping_ratio`, free to stretch.
    pub fn spring(length: f32, hertz: f32, damping_ratio: f32) -> Self {
        DistanceJoint {
            length,
            min_length: 0.0,
            max_length: f32::INFINITY,
            enable_spring: true,
            hertz,
            damping_ratio,
        }
    }

    /// A rope: slack below `max_length`, taut at it.
    pub fn rope(max_length: f32) -> Self {
        DistanceJoint {
            length: max_length,
            min_length: 0.0,
            max_length,
            enable_spring: true,
            hertz: 0.0,
            damping_ratio: 0.0,
        }
    }

    fn is_rigid(&self) -> bool {
        !self.enable_spring || self.min_length >= self.max_length
    }
}

pub(crate) fn warm_start(f: &JointFrame, imp: &JointImpulses, states: &mut [BodyState]) {
    let (mut sa, mut sb) = f.load(states);
    let (ra, rb, d) = f.current(&sa, &sb);
    let (_, n) = length_and_normalize(d);
    let axial = imp.axial + imp.spring + imp.lower - imp.upper;
    f.apply(&mut sa, &mut sb, ra, rb, axial * n, 0.0);
    f.store(states, sa, sb);
}

pub(crate) fn solve(
    f: &JointFrame,
    j: &DistanceJoint,
    imp: &mut JointImpulses,
    states: &mut [BodyState],
    ctx: &RowContext,
) {
    let (mut sa, mut sb) = f.load(states);
    let (ra, rb, d) = f.current(&sa, &sb);
    let (length, n) = length_and_normalize(d);
    if length == 0.0 {
        return;
    }
    let (cra, crb) = (cross(ra, n), cross(rb, n));
    let k = f.inv_mass_a + f.inv_mass_b + f.inv_inertia_a * cra * cra + f.inv_inertia_b * crb * crb;
    let mass = effective_mass(k);
    let cdot = |sa: &BodyState, sb: &BodyState| {
        (sb.linear_velocity + cross_sv(sb.angular_velocity, rb)
            - sa.linear_velocity
            - cross_sv(sa.angular_velocity, ra))
        .dot(n)
    };

    if j.is_rigid() {
        let delta = soft_row(
            mass,
            cdot(&sa, &sb),
            length - j.length,
            &f.softness,
            ctx.use_bias,
            &mut imp.axial,
        );
        f.apply(&mut sa, &mut sb, ra, rb, delta * n, 0.0);
    } else {
        if j.hertz > 0.0 {
            let spring = Softness::new(j.hertz, j.damping_ratio, ctx.h);
            let delta = soft_row(
                mass,
                cdot(&sa, &sb),
                length - j.length,
                &spring,
                true,
                &mut imp.spring,
            );
            f.apply(&mut sa, &mut sb, ra, rb, delta * n, 0.0);
        }
        if j.min_length > 0.0 {
            let delta = limit_row(
                mass,
                cdot(&sa, &sb),
                length - j.min_length,
                &f.softness,
                ctx.use_bias,
                ctx.inv_h,
                &mut imp.lower,
            );
            f.apply(&mut sa, &mut sb, ra, rb, delta * n, 0.0);
        }
        if j.max_length.is_finite() {
            let delta = limit_row(
                mass,
                -cdot(&sa, &sb),
                j.max_length - length,
                &f.softness,
                ctx.use_bias,
                ctx.inv_h,
                &mut imp.upper,
            );
            f.apply(&mut sa, &mut sb, ra, rb, -delta * n, 0.0);
        }
    }
    f.store(states, sa, sb);
}
