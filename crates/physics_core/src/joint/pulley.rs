//! Pulley joint (Bittle, block and tackle): each body hangs from its own ground anchor and
//! the rope's total stays constant: length_a + ratio * length_b = constant.
//!
//! With uA = (pA - gA) / |pA - gA| and uB likewise:
//!   C = |pA - gA| + ratio |pB - gB| - constant
//!   J = [uA, rA x uA, ratio uB, ratio (rB x uB)]
//!   K = mA + iA (rA x uA)^2 + ratio^2 (mB + iB (rB x uB)^2)
//! The rope can only pull: the impulse is one-sided (C <= 0 holds, slack is free).

use super::{JointFrame, JointImpulses, RowContext, effective_mass, limit_row};
use crate::math::{cross, cross_sv, length_and_normalize};
use crate::position::{FrameOrigin, Position, relative};
use crate::solver::body_state::BodyState;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// Parameters of a pulley joint.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
pub struct PulleyJoint {
    /// World point body A's rope runs over.
    pub ground_a: Position,
    /// World point body B's rope runs over.
    pub ground_b: Position,
    /// length_a + ratio * length_b, kept at most this.
    pub constant: f32,
    /// Mechanical advantage: B's rope length counts `ratio` times.
    pub ratio: f32,
}

impl PulleyJoint {
    /// A pulley whose ropes run from `ground_a` to `anchor_a` and from `ground_b` to
    /// `anchor_b` (world points), the current lengths defining the constant.
    pub fn new(
        ground_a: impl Into<Position>,
        ground_b: impl Into<Position>,
        anchor_a: impl Into<Position>,
        anchor_b: impl Into<Position>,
        ratio: f32,
    ) -> Self {
        let ground_a = ground_a.into();
        let ground_b = ground_b.into();
        let anchor_a = anchor_a.into();
        let anchor_b = anchor_b.into();
        PulleyJoint {
            ground_a,
            ground_b,
            constant: relative(anchor_a, ground_a).length()
                + ratio * relative(anchor_b, ground_b).length(),
            ratio,
        }
    }
}

struct Geometry {
    ra: Vec2,
    rb: Vec2,
    ua: Vec2,
    ub: Vec2,
    c: f32,
}

fn geometry(f: &JointFrame, j: &PulleyJoint, sa: &BodyState, sb: &BodyState) -> Geometry {
    let (ra, rb, _) = f.current(sa, sb);
    // In a float frame at A's centre (the world itself in the float build).
    let frame = FrameOrigin::at(f.center_a);
    let center_a = frame.to_frame(f.center_a);
    let pa = center_a + sa.delta_position + ra;
    let pb = center_a + f.delta_center + sb.delta_position + rb;
    let (la, ua) = length_and_normalize(pa - frame.to_frame(j.ground_a));
    let (lb, ub) = length_and_normalize(pb - frame.to_frame(j.ground_b));
    Geometry {
        ra,
        rb,
        ua,
        ub,
        c: j.constant - (la + j.ratio * lb),
    }
}

/// Applies a rope impulse `lambda` (pulling both bodies towards their anchors).
fn apply(
    f: &JointFrame,
    j: &PulleyJoint,
    g: &Geometry,
    sa: &mut BodyState,
    sb: &mut BodyState,
    lambda: f32,
) {
    let pa = -lambda * g.ua;
    let pb = -lambda * j.ratio * g.ub;
    sa.linear_velocity += f.inv_mass_a * pa;
    sa.angular_velocity += f.inv_inertia_a * cross(g.ra, pa);
    sb.linear_velocity += f.inv_mass_b * pb;
    sb.angular_velocity += f.inv_inertia_b * cross(g.rb, pb);
}

pub(crate) fn warm_start(
    f: &JointFrame,
    j: &PulleyJoint,
    imp: &JointImpulses,
    states: &mut [BodyState],
) {
    let (mut sa, mut sb) = f.load(states);
    let g = geometry(f, j, &sa, &sb);
    apply(f, j, &g, &mut sa, &mut sb, imp.axial);
    f.store(states, sa, sb);
}

pub(crate) fn solve(
    f: &JointFrame,
    j: &PulleyJoint,
    imp: &mut JointImpulses,
    states: &mut [BodyState],
    ctx: &RowContext,
) {
    let (mut sa, mut sb) = f.load(states);
    let g = geometry(f, j, &sa, &sb);
    let (cra, crb) = (cross(g.ra, g.ua), cross(g.rb, g.ub));
    let k = f.inv_mass_a
        + f.inv_inertia_a * cra * cra
        + j.ratio * j.ratio * (f.inv_mass_b + f.inv_inertia_b * crb * crb);
    let mass = effective_mass(k);
    // The rope shortens at -d(la + ratio lb)/dt: the limit row C = constant - total >= 0.
    let va = sa.linear_velocity + cross_sv(sa.angular_velocity, g.ra);
    let vb = sb.linear_velocity + cross_sv(sb.angular_velocity, g.rb);
    let cdot = -(g.ua.dot(va) + j.ratio * g.ub.dot(vb));
    let lambda = limit_row(
        mass,
        cdot,
        g.c,
        &f.softness,
        ctx.use_bias,
        ctx.inv_h,
        &mut imp.axial,
    );
    apply(f, j, &g, &mut sa, &mut sb, lambda);
    f.store(states, sa, sb);
}
