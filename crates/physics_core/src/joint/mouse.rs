//! Mouse (target) joint: pulls a point of body B towards a world target with a spring and a
//! force limit; body A only gives the joint a frame (usually the ground).
//!
//!   C = pB - target (2 rows),  J = [I, [rB]x] on body B only,
//!   K = mB I + iB [rB]x^T [rB]x.

use super::RowContext;
use super::{JointFrame, JointImpulses, solve22};
use crate::math::cross_sv;
use crate::solver::body_state::BodyState;
use crate::solver::softness::Softness;
use serde::{Deserialize, Serialize};

/// Parameters of a mouse joint.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
pub struct MouseJoint {
    /// World point the anchor is pulled to.
    pub target: crate::position::Position,
    /// Stiffness (hertz).
    pub hertz: f32,
    /// Damping ratio.
    pub damping_ratio: f32,
    /// Largest pulling force (N).
    pub max_force: f32,
}

pub(crate) fn warm_start(f: &JointFrame, imp: &JointImpulses, states: &mut [BodyState]) {
    let (sa, mut sb) = f.load(states);
    let rb = sb.delta_rotation.rotate(f.anchor_b);
    sb.linear_velocity += f.inv_mass_b * imp.linear;
    sb.angular_velocity += f.inv_inertia_b * crate::math::cross(rb, imp.linear);
    f.store(states, sa, sb);
}

/// `f.delta_center` holds cB - target at the start of the step.
pub(crate) fn solve(
    f: &JointFrame,
    j: &MouseJoint,
    imp: &mut JointImpulses,
    states: &mut [BodyState],
    ctx: &RowContext,
) {
    let (sa, mut sb) = f.load(states);
    let rb = sb.delta_rotation.rotate(f.anchor_b);
    let c = f.delta_center + sb.delta_position + rb;
    let soft = Softness::new(j.hertz, j.damping_ratio, ctx.h);
    let cdot = sb.linear_velocity + cross_sv(sb.angular_velocity, rb);
    let (mb, ib) = (f.inv_mass_b, f.inv_inertia_b);
    let k11 = mb + rb.y * rb.y * ib;
    let k12 = -rb.y * rb.x * ib;
    let k22 = mb + rb.x * rb.x * ib;
    let b = solve22(k11, k12, k22, cdot + soft.bias_rate * c);
    let old = imp.linear;
    let mut total = old - soft.mass_scale * b - soft.impulse_scale * old;
    let max = j.max_force * ctx.h;
    if total.length_squared() > max * max {
        total *= max / total.length();
    }
    let impulse = total - old;
    imp.linear = total;
    sb.linear_velocity += mb * impulse;
    sb.angular_velocity += ib * crate::math::cross(rb, impulse);
    f.store(states, sa, sb);
}
