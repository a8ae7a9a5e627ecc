//! Joints: constraints between two bodies (either may be static), solved with the same soft
//! model as contacts. One file per joint type, each opening with its C, J and K.
//!
//! Every joint works on anchors: a point fixed in each body. At the start of a step the anchors
//! are taken relative to the centres of mass (`anchor_a`, `anchor_b`, world orientation) with the
//! centres' offset `delta_center = cB - cA`; within the step the current separation of the
//! anchors is rebuilt from the bodies' delta positions and rotations, exactly as contacts do:
//!
//!   d = (dpB - dpA) + dqB(anchor_b) - dqA(anchor_a) + delta_center.

mod angle;
mod distance;
mod exact_islands;
mod line;
mod motor;
mod mouse;
mod prismatic;
mod pulley;
mod revolute;
mod tree_solve;
mod weld;
mod wheel;

pub use angle::AngleJoint;
pub use distance::DistanceJoint;
pub use motor::MotorJoint;
pub use mouse::MouseJoint;
pub use prismatic::PrismaticJoint;
pub use pulley::PulleyJoint;
pub use revolute::RevoluteJoint;
pub use weld::WeldJoint;
pub use wheel::WheelJoint;

pub(crate) use exact_islands::{
    ExactIsland, IslandScratch, build_exact_islands, mark_exact_islands, project_exact_islands,
    solve_exact_islands,
};

use crate::id::BodyId;
use crate::math::Rot;
use crate::solver::body_state::{BodyState, read_state, write_state};
use crate::solver::softness::Softness;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// The type of a joint with its own parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
pub enum JointKind {
    /// A pin: the anchors coincide, rotation is free (optionally limited, motorised, sprung).
    Revolute(RevoluteJoint),
    /// A slider along an axis fixed in A, no relative rotation.
    Prismatic(PrismaticJoint),
    /// Keeps the anchors at a distance (rigid, a spring, or a rope between limits).
    Distance(DistanceJoint),
    /// Keeps the relative pose, optionally soft.
    Weld(WeldJoint),
    /// Pulls body B's anchor towards a world target (dragging with the mouse).
    Mouse(MouseJoint),
    /// A wheel on a suspension axis fixed in A, with spring, motor and travel limits.
    Wheel(WheelJoint),
    /// Two bodies on ropes over two ground points: length_a + ratio * length_b constant.
    Pulley(PulleyJoint),
    /// Keeps thetaB - ratio * thetaA constant: relative rotation, or a gear.
    Angle(AngleJoint),
    /// Drives B's pose relative to A with limited force and torque.
    Motor(MotorJoint),
}

/// Everything needed to create a joint.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointDef {
    /// First body.
    pub body_a: BodyId,
    /// Second body.
    pub body_b: BodyId,
    /// Anchor in body A's frame (relative to its origin).
    pub local_anchor_a: Vec2,
    /// Anchor in body B's frame.
    pub local_anchor_b: Vec2,
    /// Whether the two bodies' shapes still collide with each other.
    pub collide_connected: bool,
    /// The joint breaks (is disabled, with an event) when its force exceeds this (newtons).
    pub break_force: f32,
    /// The joint breaks when its torque exceeds this (newton metres).
    pub break_torque: f32,
    /// Type and parameters.
    pub kind: JointKind,
}

impl JointDef {
    /// A joint of `kind` between two bodies with anchors in each body's frame; unbreakable,
    /// connected bodies do not collide.
    pub fn new(
        body_a: BodyId,
        body_b: BodyId,
        local_anchor_a: Vec2,
        local_anchor_b: Vec2,
        kind: JointKind,
    ) -> Self {
        JointDef {
            body_a,
            body_b,
            local_anchor_a,
            local_anchor_b,
            collide_connected: false,
            break_force: f32::INFINITY,
            break_torque: f32::INFINITY,
            kind,
        }
    }

    /// The same def, breaking above `force` newtons or `torque` newton metres.
    pub fn with_break_thresholds(mut self, force: f32, torque: f32) -> Self {
        self.break_force = force;
        self.break_torque = torque;
        self
    }
}

/// Accumulated impulses of a joint (per substep), kept across steps for warm starting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JointImpulses {
    /// Point or perpendicular impulse.
    pub linear: Vec2,
    /// Angular impulse of an angle constraint (weld, prismatic).
    pub angular: f32,
    /// Spring impulse.
    pub spring: f32,
    /// Motor impulse.
    pub motor: f32,
    /// Lower limit impulse.
    pub lower: f32,
    /// Upper limit impulse.
    pub upper: f32,
    /// Axial impulse of a rigid distance or prismatic axis.
    pub axial: f32,
}

/// The world's record of a joint.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Joint {
    pub def: JointDef,
    pub enabled: bool,
    /// Unwrapped angles of A and B at the start of the step. Kept up to date for angle
    /// joints only; other joints keep their creation angles.
    pub unwrapped_angles: (f32, f32),
    pub impulses: JointImpulses,
    /// Force and torque of the last step.
    pub reaction_force: Vec2,
    pub reaction_torque: f32,
}

/// Step-wide values a joint row needs.
pub(crate) struct RowContext {
    /// Substep length.
    pub h: f32,
    /// 1 / h.
    pub inv_h: f32,
    /// Solve with position bias (false in relax iterations).
    pub use_bias: bool,
}

/// A joint prepared for one step: the shared frame, its parameters and its impulses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointConstraint {
    pub frame: JointFrame,
    pub kind: JointKind,
    pub impulses: JointImpulses,
    /// Unwrapped angles of A and B at the start of the step (angle joints).
    pub unwrapped_angles: (f32, f32),
    /// Its equality rows are solved with its island by `solve_exact_islands`.
    pub exact: bool,
}

/// Applies every joint's accumulated impulses.
pub(crate) fn warm_start_joints(joints: &[JointConstraint], states: &mut [BodyState]) {
    for c in joints {
        let f = &c.frame;
        // Exact rows are solved from scratch each iteration: only the other rows warm start.
        let mut impulses = c.impulses;
        if c.exact {
            impulses.linear = Vec2::ZERO;
            impulses.angular = 0.0;
        }
        let c = &JointConstraint { impulses, ..*c };
        match &c.kind {
            JointKind::Revolute(_) => revolute::warm_start(f, &c.impulses, states),
            JointKind::Prismatic(j) => prismatic::warm_start(f, j, &c.impulses, states),
            JointKind::Distance(_) => distance::warm_start(f, &c.impulses, states),
            JointKind::Weld(_) => weld::warm_start(f, &c.impulses, states),
            JointKind::Mouse(_) => mouse::warm_start(f, &c.impulses, states),
            JointKind::Wheel(j) => wheel::warm_start(f, j, &c.impulses, states),
            JointKind::Pulley(j) => pulley::warm_start(f, j, &c.impulses, states),
            JointKind::Angle(j) => angle::warm_start(f, j, &c.impulses, states),
            JointKind::Motor(_) => motor::warm_start(f, &c.impulses, states),
        }
    }
}

/// One iteration over every joint.
pub(crate) fn solve_joints(
    joints: &mut [JointConstraint],
    states: &mut [BodyState],
    ctx: &RowContext,
) {
    for c in joints.iter_mut() {
        let f = &c.frame;
        let imp = &mut c.impulses;
        match &c.kind {
            JointKind::Revolute(j) => revolute::solve(f, j, imp, states, ctx, c.exact),
            JointKind::Prismatic(j) => prismatic::solve(f, j, imp, states, ctx, c.exact),
            JointKind::Distance(j) => distance::solve(f, j, imp, states, ctx),
            JointKind::Weld(_) if c.exact => {}
            JointKind::Weld(j) => weld::solve(f, j, imp, states, ctx),
            JointKind::Mouse(j) => mouse::solve(f, j, imp, states, ctx),
            JointKind::Wheel(j) => wheel::solve(f, j, imp, states, ctx),
            JointKind::Pulley(j) => pulley::solve(f, j, imp, states, ctx),
            JointKind::Angle(j) => {
                let offset = j.offset.unwrap_or(0.0);
                angle::solve(f, j, c.unwrapped_angles, offset, imp, states, ctx)
            }
            JointKind::Motor(j) => motor::solve(f, j, imp, states, ctx),
        }
    }
}

/// Body data a joint constraint reads at preparation.
pub(crate) struct JointBody {
    pub solver_index: u32,
    pub inv_mass: f32,
    pub inv_inertia: f32,
    pub center: crate::position::Position,
    pub rotation: Rot,
    pub local_center: Vec2,
}

/// The per-step solver data every joint shares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointFrame {
    pub joint: u32,
    pub index_a: u32,
    pub index_b: u32,
    pub inv_mass_a: f32,
    pub inv_inertia_a: f32,
    pub inv_mass_b: f32,
    pub inv_inertia_b: f32,
    /// Anchors relative to the centres of mass at the start of the step, world orientation.
    pub anchor_a: Vec2,
    pub anchor_b: Vec2,
    /// cB - cA at the start of the step.
    pub delta_center: Vec2,
    /// cA at the start of the step (joints with world-fixed points: pulleys).
    pub center_a: crate::position::Position,
    /// Rotations at the start of the step.
    pub rotation_a: Rot,
    pub rotation_b: Rot,
    pub softness: Softness,
    /// 1 / (1/IA + 1/IB): the effective mass of a relative rotation (angle rows: limits,
    /// motors, springs, weld angles). Formed once here, so the division is not on the path
    /// of every substep's row.
    pub axial_mass: f32,
}

impl JointFrame {
    pub fn new(
        joint: u32,
        def: &JointDef,
        a: &JointBody,
        b: &JointBody,
        softness: Softness,
    ) -> Self {
        JointFrame {
            joint,
            index_a: a.solver_index,
            index_b: b.solver_index,
            inv_mass_a: a.inv_mass,
            inv_inertia_a: a.inv_inertia,
            inv_mass_b: b.inv_mass,
            inv_inertia_b: b.inv_inertia,
            anchor_a: a.rotation.rotate(def.local_anchor_a - a.local_center),
            anchor_b: b.rotation.rotate(def.local_anchor_b - b.local_center),
            delta_center: crate::position::relative(b.center, a.center),
            center_a: a.center,
            rotation_a: a.rotation,
            rotation_b: b.rotation,
            softness,
            axial_mass: effective_mass(a.inv_inertia + b.inv_inertia),
        }
    }

    /// Current anchors (rotated by the motion so far) and anchor separation d = pB - pA.
    #[inline]
    pub fn current(&self, sa: &BodyState, sb: &BodyState) -> (Vec2, Vec2, Vec2) {
        let ra = sa.delta_rotation.rotate(self.anchor_a);
        let rb = sb.delta_rotation.rotate(self.anchor_b);
        let d = (sb.delta_position - sa.delta_position) + (rb - ra) + self.delta_center;
        (ra, rb, d)
    }

    /// Relative angle of B to A now, minus `reference`.
    #[inline]
    pub fn angle(&self, sa: &BodyState, sb: &BodyState, reference: f32) -> f32 {
        let qa = sa.delta_rotation * self.rotation_a;
        let qb = sb.delta_rotation * self.rotation_b;
        qa.relative_angle(qb) - reference
    }

    /// Applies a linear impulse `p` at the anchors and an angular impulse `l` (minus to A,
    /// plus to B).
    #[inline]
    pub fn apply(
        &self,
        sa: &mut BodyState,
        sb: &mut BodyState,
        ra: Vec2,
        rb: Vec2,
        p: Vec2,
        l: f32,
    ) {
        sa.linear_velocity -= self.inv_mass_a * p;
        sa.angular_velocity -= self.inv_inertia_a * (crate::math::cross(ra, p) + l);
        sb.linear_velocity += self.inv_mass_b * p;
        sb.angular_velocity += self.inv_inertia_b * (crate::math::cross(rb, p) + l);
    }

    #[inline(always)]
    pub fn load(&self, states: &[BodyState]) -> (BodyState, BodyState) {
        (
            read_state(states, self.index_a),
            read_state(states, self.index_b),
        )
    }

    #[inline(always)]
    pub fn store(&self, states: &mut [BodyState], sa: BodyState, sb: BodyState) {
        write_state(states, self.index_a, sa);
        write_state(states, self.index_b, sb);
    }
}

/// The effective mass 1 / K of a constraint row; 0 when the row cannot move (both bodies
/// fixed in that direction).
#[inline]
pub(crate) fn effective_mass(k: f32) -> f32 {
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

/// A force-limited motor row: drives the row's velocity `cdot` (already minus the target
/// speed) to zero with an accumulated impulse kept within `[-max, max]` (maximum force or
/// torque times the substep). Returns the impulse to apply (already added to `total`).
#[inline]
pub(crate) fn motor_row(effective_mass: f32, cdot: f32, max: f32, total: &mut f32) -> f32 {
    let new_total = (*total - effective_mass * cdot).clamp(-max, max);
    let applied = new_total - *total;
    *total = new_total;
    applied
}

/// Solves the 2x2 system K x = b (symmetric K); zero when singular.
#[inline]
pub(crate) fn solve22(k11: f32, k12: f32, k22: f32, b: Vec2) -> Vec2 {
    let det = k11 * k22 - k12 * k12;
    if det == 0.0 {
        return Vec2::ZERO;
    }
    let inv = 1.0 / det;
    Vec2::new(inv * (k22 * b.x - k12 * b.y), inv * (k11 * b.y - k12 * b.x))
}

/// Point-to-point K for anchors ra, rb (the revolute and weld linear part):
/// K = (mA + mB) I + iA [ra]x^T [ra]x + iB [rb]x^T [rb]x.
#[inline]
pub(crate) fn point_mass_matrix(f: &JointFrame, ra: Vec2, rb: Vec2) -> (f32, f32, f32) {
    let (ma, mb, ia, ib) = (f.inv_mass_a, f.inv_mass_b, f.inv_inertia_a, f.inv_inertia_b);
    let k11 = ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib;
    let k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
    let k22 = ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib;
    (k11, k12, k22)
}

/// The soft update of an unbounded one-dimensional constraint row with accumulated impulse
/// `total`: returns the impulse to apply (already added to `total`).
#[inline]
pub(crate) fn soft_row(
    effective_mass: f32,
    cdot: f32,
    position_error: f32,
    softness: &Softness,
    use_bias: bool,
    total: &mut f32,
) -> f32 {
    let (bias, mass_scale, impulse_scale) = if use_bias {
        (
            softness.bias_rate * position_error,
            softness.mass_scale,
            softness.impulse_scale,
        )
    } else {
        (0.0, 1.0, 0.0)
    };
    let delta = -effective_mass * mass_scale * (cdot + bias) - impulse_scale * *total;
    *total += delta;
    delta
}

/// A one-sided limit row `C >= 0` (speculative when apart, soft when violated): returns the
/// impulse applied (already added to `total`, which stays >= 0).
#[inline]
pub(crate) fn limit_row(
    effective_mass: f32,
    cdot: f32,
    c: f32,
    softness: &Softness,
    use_bias: bool,
    inv_h: f32,
    total: &mut f32,
) -> f32 {
    let (bias, mass_scale, impulse_scale) = if c > 0.0 {
        (c * inv_h, 1.0, 0.0)
    } else if use_bias {
        (
            softness.bias_rate * c,
            softness.mass_scale,
            softness.impulse_scale,
        )
    } else {
        (0.0, 1.0, 0.0)
    };
    let delta = -effective_mass * mass_scale * (cdot + bias) - impulse_scale * *total;
    let new_total = (*total + delta).max(0.0);
    let applied = new_total - *total;
    *total = new_total;
    applied
}
