//! Where the last step's joint results (impulses, reaction force and torque) live.
//!
//! The solver leaves each joint's accumulated impulses in its constraint, and the constraints
//! are in colour order. Writing them back into the joint records after every step visited the
//! records in that order, one cache miss per joint, only for the next step to read them back
//! into the same constraints. So while the joint order holds, the results stay in
//! `SolverArrays::joints` (`SolverArrays::held_joint_results` says so) and the next step warm
//! starts from them in place. They are written into the records ([`write_held_results`]) when:
//! - the next step builds the joint order again (a body or joint changed);
//! - a caller changes a joint (create, destroy, enable, kind);
//! - a joint breaks;
//! - a zero-length step clears the constraints.
//!
//! Readers between steps (`World::joint_reaction`, snapshots) see the held results through
//! [`World::held_joint_reaction`] and [`World::joints_with_results`]. Restoring a snapshot
//! replaces the solver arrays, so their held results go with them.
//!
//! Each step the world still looks at the joints that need it, `SolverArrays::joint_watch`:
//! angle joints, which follow their bodies' unwrapped angles, and joints with a finite break
//! threshold.

use super::World;
use super::joints::JointBreakEvent;
use crate::id::{JointId, Slots};
use crate::joint::{Joint, JointConstraint, JointImpulses, JointKind};
use crate::solver::SolverArrays;
use crate::solver::body_state::read_state;
use bevy_math::Vec2;

/// The impulses a joint keeps for the next step: a non-finite one (a blown-up solve) restarts
/// from zero instead of spreading.
pub(super) fn finite_impulses(i: &JointImpulses) -> JointImpulses {
    let finite = |x: f32| if x.is_finite() { x } else { 0.0 };
    JointImpulses {
        linear: Vec2::new(finite(i.linear.x), finite(i.linear.y)),
        angular: finite(i.angular),
        spring: finite(i.spring),
        motor: finite(i.motor),
        lower: finite(i.lower),
        upper: finite(i.upper),
        axial: finite(i.axial),
    }
}

/// Force and torque the solved joint `c` applied to body B, with `inv_h` = 1 / substep.
pub(super) fn reaction(c: &JointConstraint, inv_h: f32) -> (Vec2, f32) {
    let i = &c.impulses;
    let f = &c.frame;
    let (force, torque) = match c.kind {
        JointKind::Revolute(_) => (i.linear, i.spring + i.motor + i.lower - i.upper),
        JointKind::Weld(_) => (i.linear, i.angular),
        JointKind::Mouse(_) => (i.linear, 0.0),
        JointKind::Distance(_) => {
            let n = (f.delta_center + f.anchor_b - f.anchor_a).normalize_or_zero();
            (n * (i.axial + i.spring + i.lower - i.upper), 0.0)
        }
        JointKind::Prismatic(p) => {
            let axis = f.rotation_a.rotate(p.local_axis_a);
            let perp = crate::math::left_perp(axis);
            (
                axis * (i.spring + i.motor + i.lower - i.upper) + perp * i.linear.x,
                i.linear.y,
            )
        }
        JointKind::Wheel(w) => {
            let axis = f.rotation_a.rotate(w.local_axis_a);
            let perp = crate::math::left_perp(axis);
            (
                axis * (i.spring + i.lower - i.upper) + perp * i.linear.x,
                i.motor,
            )
        }
        JointKind::Pulley(p) => {
            // In a float frame at A's centre (the world's own in the float build).
            let frame = crate::position::FrameOrigin::at(f.center_a);
            let anchor_b = frame.to_frame(f.center_a) + f.delta_center + f.anchor_b;
            (
                (frame.to_frame(p.ground_b) - anchor_b).normalize_or_zero() * (i.axial * p.ratio),
                0.0,
            )
        }
        JointKind::Angle(_) => (Vec2::ZERO, i.angular),
        JointKind::Motor(_) => (i.linear, i.angular),
    };
    (force * inv_h, torque * inv_h)
}

/// Whether the world reads joint `joint`'s results every step (see the module docs).
pub(super) fn is_watched(joint: &Joint) -> bool {
    matches!(joint.def.kind, JointKind::Angle(_))
        || joint.def.break_force < f32::INFINITY
        || joint.def.break_torque < f32::INFINITY
}

/// Writes the results `constraints` hold into the joint records, if `held` says they hold
/// any (it holds 1 / substep of their step); afterwards the records are the only copy.
pub(super) fn write_held_results(
    joints: &mut Slots<Joint>,
    constraints: &[JointConstraint],
    held: &mut Option<f32>,
) {
    let Some(inv_h) = held.take() else {
        return;
    };
    for c in constraints {
        let joint = joints.at_mut(c.frame.joint);
        joint.impulses = finite_impulses(&c.impulses);
        (joint.reaction_force, joint.reaction_torque) = reaction(c, inv_h);
    }
}

impl World {
    /// Writes the held joint results into the joint records; every method that changes a
    /// joint calls it first, so it never changes a record the held results would overwrite.
    pub(super) fn flush_joint_results(&mut self) {
        let arrays = &mut self.solver;
        write_held_results(
            &mut self.joints,
            &arrays.joints,
            &mut arrays.held_joint_results,
        );
    }

    /// Force and torque of joint `slot` in the last step, when the solver arrays hold them.
    pub(super) fn held_joint_reaction(&self, slot: u32) -> Option<(Vec2, f32)> {
        let inv_h = self.solver.held_joint_results?;
        let place = *self.solver.joint_positions.get(slot as usize)?;
        let c = self.solver.joints.get(place as usize)?;
        debug_assert_eq!(c.frame.joint, slot, "a held result of another joint");
        Some(reaction(c, inv_h))
    }

    /// The joint records with the held results written in: what a snapshot stores.
    pub(super) fn joints_with_results(&self) -> Slots<Joint> {
        let mut joints = self.joints.clone();
        let mut held = self.solver.held_joint_results;
        write_held_results(&mut joints, &self.solver.joints, &mut held);
        joints
    }

    /// After the substeps: the results stay in `arrays` (held, with `inv_h` = 1 / substep);
    /// the watched joints update their unwrapped angles and test their break thresholds. A
    /// joint over its threshold is disabled with its impulses cleared and reported, in slot
    /// order.
    pub(super) fn hold_joint_results(&mut self, arrays: &mut SolverArrays, inv_h: f32) {
        arrays.held_joint_results = Some(inv_h);
        let mut broken = Vec::new();
        for &place in &arrays.joint_watch {
            let c = &arrays.joints[place as usize];
            let joint = self.joints.at_mut(c.frame.joint);
            if let JointKind::Angle(_) = c.kind {
                let turn = |index: u32| read_state(&arrays.states, index).delta_rotation.angle();
                joint.unwrapped_angles.0 += turn(c.frame.index_a);
                joint.unwrapped_angles.1 += turn(c.frame.index_b);
            }
            let (force, torque) = reaction(c, inv_h);
            if force.length() > joint.def.break_force || torque.abs() > joint.def.break_torque {
                broken.push(JointBreakEvent {
                    joint: JointId {
                        index: c.frame.joint,
                        generation: self.joints.generation(c.frame.joint),
                    },
                    force,
                    torque,
                });
            }
        }
        if broken.is_empty() {
            return;
        }
        write_held_results(
            &mut self.joints,
            &arrays.joints,
            &mut arrays.held_joint_results,
        );
        self.solve_set.note_joint_change();
        for event in &broken {
            let joint = self.joints.at_mut(event.joint.index);
            joint.enabled = false;
            joint.impulses = JointImpulses::default();
        }
        // The watch list is in slot order already; sorted anyway, as the events promise.
        broken.sort_unstable_by_key(|e| e.joint.index);
        self.joint_breaks.extend(broken);
    }
}
