//! Creating, destroying, reading and driving joints.

use super::joint_results::{finite_impulses, is_watched};
use super::{World, WorldError};
use crate::id::{BodyId, JointId};
use crate::joint::{
    Joint, JointBody, JointConstraint, JointDef, JointFrame, JointImpulses, JointKind,
};
use crate::math::is_finite_vec;
use crate::solver::SolverArrays;
use crate::solver::body_state::STATIC_BODY;
use crate::solver::joint_order::color_order;
use crate::solver::softness::Softness;
use crate::world::recording::RecordedCall;
use bevy_math::Vec2;

/// A joint that broke because its force or torque exceeded its threshold; it is disabled, not
/// destroyed, so it can be re-enabled or destroyed by the caller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointBreakEvent {
    /// The joint.
    pub joint: JointId,
    /// Its force when it broke (N).
    pub force: Vec2,
    /// Its torque when it broke (N m).
    pub torque: f32,
}

fn check(ok: bool, why: &'static str) -> Result<(), WorldError> {
    if ok {
        Ok(())
    } else {
        Err(WorldError::InvalidJoint(why))
    }
}

/// The checks the line joints (prismatic, wheel) share: a finite unit axis, a spring and a
/// motor limit that are finite and not negative, ordered finite translation limits.
fn validate_line(
    axis: Vec2,
    (hertz, damping_ratio): (f32, f32),
    max_motor: f32,
    (lower, upper): (f32, f32),
) -> Result<(), WorldError> {
    let finite = [hertz, damping_ratio, max_motor, lower, upper]
        .iter()
        .all(|x| x.is_finite());
    check(
        is_finite_vec(axis) && finite,
        "line joint parameter is NaN or infinite",
    )?;
    check(
        (axis.length() - 1.0).abs() < 1e-3,
        "joint axis must be unit length",
    )?;
    check(
        hertz >= 0.0 && damping_ratio >= 0.0 && max_motor >= 0.0,
        "spring and motor parameters must not be negative",
    )?;
    check(lower <= upper, "lower translation above upper translation")
}

/// Validates a joint's own parameters.
pub(crate) fn validate_kind(kind: &JointKind) -> Result<(), WorldError> {
    let finite = |xs: &[f32]| xs.iter().all(|x| x.is_finite());
    match kind {
        JointKind::Revolute(j) => {
            check(
                finite(&[
                    j.reference_angle,
                    j.hertz,
                    j.damping_ratio,
                    j.motor_speed,
                    j.max_motor_torque,
                    j.lower_angle,
                    j.upper_angle,
                ]),
                "revolute parameter is NaN or infinite",
            )?;
            check(
                j.hertz >= 0.0 && j.damping_ratio >= 0.0 && j.max_motor_torque >= 0.0,
                "spring and motor parameters must not be negative",
            )?;
            check(
                j.lower_angle <= j.upper_angle,
                "lower angle above upper angle",
            )
        }
        JointKind::Prismatic(j) => {
            check(
                finite(&[j.reference_angle, j.motor_speed]),
                "prismatic parameter is NaN or infinite",
            )?;
            validate_line(
                j.local_axis_a,
                (j.hertz, j.damping_ratio),
                j.max_motor_force,
                (j.lower_translation, j.upper_translation),
            )
        }
        JointKind::Distance(j) => {
            check(
                finite(&[j.length, j.min_length, j.hertz, j.damping_ratio])
                    && !j.max_length.is_nan(),
                "distance parameter is NaN or infinite",
            )?;
            check(
                j.length >= 0.0 && j.min_length >= 0.0 && j.min_length <= j.max_length,
                "distance lengths must satisfy 0 <= min <= max",
            )?;
            check(
                j.hertz >= 0.0 && j.damping_ratio >= 0.0,
                "spring parameters must not be negative",
            )
        }
        JointKind::Weld(j) => {
            check(
                finite(&[
                    j.reference_angle,
                    j.linear_hertz,
                    j.linear_damping_ratio,
                    j.angular_hertz,
                    j.angular_damping_ratio,
                ]),
                "weld parameter is NaN or infinite",
            )?;
            check(
                j.linear_hertz >= 0.0
                    && j.angular_hertz >= 0.0
                    && j.linear_damping_ratio >= 0.0
                    && j.angular_damping_ratio >= 0.0,
                "weld stiffness must not be negative",
            )
        }
        JointKind::Mouse(j) => {
            // An infinite force cap is no cap (the plugin's `Joint::mouse` default).
            check(
                crate::position::is_finite_position(j.target)
                    && finite(&[j.hertz, j.damping_ratio])
                    && !j.max_force.is_nan(),
                "mouse parameter is NaN or infinite",
            )?;
            check(
                j.hertz > 0.0 && j.damping_ratio >= 0.0 && j.max_force >= 0.0,
                "mouse stiffness must be positive",
            )
        }
        JointKind::Wheel(j) => {
            check(
                j.motor_speed.is_finite(),
                "wheel motor speed is NaN or infinite",
            )?;
            validate_line(
                j.local_axis_a,
                (j.hertz, j.damping_ratio),
                j.max_motor_torque,
                (j.lower_translation, j.upper_translation),
            )
        }
        JointKind::Pulley(j) => {
            check(
                crate::position::is_finite_position(j.ground_a)
                    && crate::position::is_finite_position(j.ground_b)
                    && finite(&[j.constant, j.ratio]),
                "pulley parameter is NaN or infinite",
            )?;
            check(
                j.ratio > 0.0 && j.constant > 0.0,
                "pulley ratio and rope length must be positive",
            )
        }
        JointKind::Angle(j) => check(
            j.ratio.is_finite() && j.offset.is_none_or(f32::is_finite),
            "angle joint ratio or offset is NaN or infinite",
        ),
        JointKind::Motor(j) => {
            check(
                is_finite_vec(j.linear_offset)
                    && finite(&[
                        j.angular_offset,
                        j.max_force,
                        j.max_torque,
                        j.hertz,
                        j.damping_ratio,
                    ]),
                "motor joint parameter is NaN or infinite",
            )?;
            check(
                j.max_force >= 0.0
                    && j.max_torque >= 0.0
                    && j.hertz > 0.0
                    && j.damping_ratio >= 0.0,
                "motor limits must not be negative and its stiffness must be positive",
            )
        }
    }
}

impl World {
    /// Creates a joint. Errors: stale body ids, a joint of a body to itself, non-finite
    /// anchors or parameters, inconsistent limits.
    pub fn create_joint(&mut self, def: &JointDef) -> Result<JointId, WorldError> {
        self.note(|| RecordedCall::CreateJoint(Box::new(*def)));
        self.body(def.body_a)?;
        self.body(def.body_b)?;
        check(
            def.body_a != def.body_b,
            "a joint needs two different bodies",
        )?;
        check(
            is_finite_vec(def.local_anchor_a) && is_finite_vec(def.local_anchor_b),
            "anchor is NaN or infinite",
        )?;
        check(
            !def.break_force.is_nan()
                && !def.break_torque.is_nan()
                && def.break_force >= 0.0
                && def.break_torque >= 0.0,
            "break thresholds must be positive or infinite",
        )?;
        validate_kind(&def.kind)?;
        self.flush_joint_results();
        let angle_a = self.bodies.at(def.body_a.index).transform.q.angle();
        let angle_b = self.bodies.at(def.body_b.index).transform.q.angle();
        let mut def = *def;
        if let JointKind::Angle(ref mut a) = def.kind
            && a.offset.is_none()
        {
            a.offset = Some(angle_b - a.ratio * angle_a);
        }
        let def = &def;
        let (slot, generation) = self.joints.insert(Joint {
            def: *def,
            enabled: true,
            unwrapped_angles: (angle_a, angle_b),
            impulses: JointImpulses::default(),
            reaction_force: Vec2::ZERO,
            reaction_torque: 0.0,
        });
        self.bodies.at_mut(def.body_a.index).joints.push(slot);
        self.bodies.at_mut(def.body_b.index).joints.push(slot);
        self.solve_set.note_joint_change();
        // The joint links the two islands: one awake end wakes the other (an awake body's
        // island holds no sleeping body, which `wake_island` relies on). Two sleeping ends
        // stay asleep, one island now.
        let (a, b) = (def.body_a.index, def.body_b.index);
        if self.is_simulated(a) || self.is_simulated(b) {
            self.wake_island(a);
            self.wake_island(b);
        }
        if !def.collide_connected {
            // Existing contacts between the two bodies go; update_pairs creates no new ones.
            let shared: Vec<u32> = self
                .bodies
                .at(def.body_a.index)
                .contacts
                .iter()
                .copied()
                .filter(|c| {
                    let c = self.contacts.at(*c);
                    (c.body_a == def.body_a.index && c.body_b == def.body_b.index)
                        || (c.body_a == def.body_b.index && c.body_b == def.body_a.index)
                })
                .collect();
            for c in shared {
                self.destroy_contact(c);
            }
        }
        Ok(JointId {
            index: slot,
            generation,
        })
    }

    /// Destroys a joint.
    pub fn destroy_joint(&mut self, id: JointId) -> Result<(), WorldError> {
        self.note(|| RecordedCall::DestroyJoint(id));
        self.joint(id)?;
        // Before the slot is freed: held results are written by slot.
        self.flush_joint_results();
        let joint = self
            .joints
            .remove(id.index, id.generation)
            .ok_or(WorldError::StaleJoint(id))?;
        self.solve_set.note_joint_change();
        for body in [joint.def.body_a, joint.def.body_b] {
            if let Some(b) = self.bodies.get_mut(body.index, body.generation) {
                b.joints.retain(|j| *j != id.index);
            }
        }
        // The bodies may collide again: let the broadphase look at them.
        for body in [joint.def.body_a, joint.def.body_b] {
            if self.bodies.get(body.index, body.generation).is_some() {
                self.refresh_shape_bounds(body.index, true);
                self.wake_island(body.index);
            }
        }
        Ok(())
    }

    fn joint(&self, id: JointId) -> Result<&Joint, WorldError> {
        self.joints
            .get(id.index, id.generation)
            .ok_or(WorldError::StaleJoint(id))
    }

    /// The joint's definition as it is now.
    pub fn joint_def(&self, id: JointId) -> Result<&JointDef, WorldError> {
        Ok(&self.joint(id)?.def)
    }

    /// Replaces the joint's type parameters (motor speed, limits, target...), validated.
    pub fn set_joint_kind(&mut self, id: JointId, kind: JointKind) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetJointKind(id, Box::new(kind)));
        self.joint(id)?;
        validate_kind(&kind)?;
        self.flush_joint_results();
        let joint = self.joints.at_mut(id.index);
        if std::mem::discriminant(&joint.def.kind) != std::mem::discriminant(&kind) {
            return Err(WorldError::InvalidJoint(
                "a joint cannot change type; destroy and recreate it",
            ));
        }
        joint.def.kind = kind;
        let (a, b) = (joint.def.body_a.index, joint.def.body_b.index);
        // A weld's stiffness decides whether it joins an exact island.
        self.solve_set.note_joint_change();
        self.wake_island(a);
        self.wake_island(b);
        Ok(())
    }

    /// Enables or disables a joint (a broken joint is disabled).
    pub fn set_joint_enabled(&mut self, id: JointId, enabled: bool) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetJointEnabled(id, enabled));
        self.joint(id)?;
        self.flush_joint_results();
        let joint = self.joints.at_mut(id.index);
        joint.enabled = enabled;
        joint.impulses = JointImpulses::default();
        let (a, b) = (joint.def.body_a.index, joint.def.body_b.index);
        self.solve_set.note_joint_change();
        self.wake_island(a);
        self.wake_island(b);
        Ok(())
    }

    /// True when the joint is enabled.
    pub fn joint_enabled(&self, id: JointId) -> Result<bool, WorldError> {
        Ok(self.joint(id)?.enabled)
    }

    /// Force (N) and torque (N m) the joint applied to body B during the last step.
    pub fn joint_reaction(&self, id: JointId) -> Result<(Vec2, f32), WorldError> {
        let j = self.joint(id)?;
        Ok(self
            .held_joint_reaction(id.index)
            .unwrap_or((j.reaction_force, j.reaction_torque)))
    }

    /// Joints that broke during the last step.
    pub fn joint_break_events(&self) -> &[JointBreakEvent] {
        &self.joint_breaks
    }

    /// Anchors in each body's frame of a world point, for building a [`JointDef`].
    pub fn local_anchors(
        &self,
        body_a: BodyId,
        body_b: BodyId,
        world_point: impl Into<crate::position::Position>,
    ) -> Result<(Vec2, Vec2), WorldError> {
        let world_point = world_point.into();
        let (a, b) = (self.body(body_a)?, self.body(body_b)?);
        Ok((
            a.transform.apply_inverse(world_point),
            b.transform.apply_inverse(world_point),
        ))
    }

    /// True when a joint between the two bodies forbids their shapes to collide.
    pub(crate) fn joint_blocks_collision(&self, body_a: u32, body_b: u32) -> bool {
        self.bodies.at(body_a).joints.iter().any(|j| {
            let def = &self.joints.at(*j).def;
            !def.collide_connected
                && ((def.body_a.index == body_a && def.body_b.index == body_b)
                    || (def.body_a.index == body_b && def.body_b.index == body_a))
        })
    }

    /// Builds the joint constraints of this step into `arrays.joints` (`solver_index` maps
    /// body slots to solver bodies), in colour order (`solver/joint_order.rs`), and finds
    /// the exact islands among them. With `order_holds`, last step's colours, places and
    /// islands are kept (`solve_set.rs`): only the constraints are built again.
    ///
    /// Joints are coloured by their solver bodies first; then each joint, read in slot order,
    /// is built at its place in the colour order. Reading joints and bodies in colour order
    /// instead missed the cache on nearly every record.
    pub(crate) fn prepare_joints(
        &self,
        solver_index: &[u32],
        softness: Softness,
        arrays: &mut SolverArrays,
        order_holds: bool,
    ) {
        let solver = |id: BodyId| solver_index[id.index as usize];
        let count = if order_holds {
            #[cfg(debug_assertions)]
            self.check_joint_coloring(solver_index, arrays);
            arrays.joints.len() as u32
        } else {
            self.color_joints(solver_index, arrays)
        };
        let joint_body = |id: BodyId| {
            let b = self.bodies.at(id.index);
            let solver = solver(id);
            let moving = if solver == STATIC_BODY { 0.0 } else { 1.0 };
            JointBody {
                solver_index: solver,
                inv_mass: moving * b.inv_mass,
                inv_inertia: moving * b.inv_inertia,
                center: b.center,
                rotation: b.transform.q,
                local_center: b.local_center,
            }
        };
        // Written field by field into its place: a whole constraint returned by value was
        // built on the stack and copied (a `memcpy` of every constraint, every step).
        // Held results are last step's impulses of the same joint at the same place (they are
        // only held while the order holds): warm start from them in place.
        let keep_impulses = arrays.held_joint_results.is_some();
        debug_assert!(
            order_holds || !keep_impulses,
            "held results of another order"
        );
        let build = |slot: u32, joint: &Joint, out: &mut JointConstraint| {
            let (a, b) = (joint_body(joint.def.body_a), joint_body(joint.def.body_b));
            out.frame = JointFrame::new(slot, &joint.def, &a, &b, softness);
            if let JointKind::Mouse(m) = joint.def.kind {
                let frame = &mut out.frame;
                frame.index_a = STATIC_BODY;
                frame.inv_mass_a = 0.0;
                frame.inv_inertia_a = 0.0;
                frame.axial_mass = crate::joint::effective_mass(frame.inv_inertia_b);
                frame.anchor_a = Vec2::ZERO;
                frame.delta_center = crate::position::relative(b.center, m.target);
            }
            out.kind = joint.def.kind;
            out.impulses = if keep_impulses {
                finite_impulses(&out.impulses)
            } else {
                joint.impulses
            };
            out.unwrapped_angles = joint.unwrapped_angles;
            out.exact = false;
        };
        let out = &mut arrays.joints;
        if count == 0 {
            out.clear();
            arrays.exact_islands.clear();
            arrays.joint_watch.clear();
            return;
        }
        // Every place is written below; only a growing array needs filling first, with any
        // constraint.
        if out.len() < count as usize {
            let filler = match out.first() {
                Some(c) => *c,
                None => {
                    let first = color_order(&arrays.joint_coloring)
                        .next()
                        .unwrap_or_default();
                    let joint = self.joints.at(first);
                    let (a, b) = (joint_body(joint.def.body_a), joint_body(joint.def.body_b));
                    JointConstraint {
                        frame: JointFrame::new(first, &joint.def, &a, &b, softness),
                        kind: joint.def.kind,
                        impulses: joint.impulses,
                        unwrapped_angles: joint.unwrapped_angles,
                        exact: false,
                    }
                }
            };
            out.resize(count as usize, filler);
        }
        out.truncate(count as usize);
        let positions = &arrays.joint_positions;
        let watch = &mut arrays.joint_watch;
        if !order_holds {
            watch.clear();
        }
        for (slot, joint) in self.joints.iter() {
            let place = positions[slot as usize];
            if place != u32::MAX {
                build(slot, joint, &mut out[place as usize]);
                if !order_holds && is_watched(joint) {
                    watch.push(place);
                }
            }
        }
        #[cfg(debug_assertions)]
        if order_holds {
            let fresh: Vec<u32> = self
                .joints
                .iter()
                .filter(|(slot, joint)| positions[*slot as usize] != u32::MAX && is_watched(joint))
                .map(|(slot, _)| positions[slot as usize])
                .collect();
            assert_eq!(fresh, *watch, "reused joint watch list differs");
        }
        let bodies = arrays.states.len();
        if order_holds {
            #[cfg(debug_assertions)]
            {
                let fresh = crate::joint::build_exact_islands(&mut out.clone(), bodies);
                assert_eq!(fresh, arrays.exact_islands, "reused exact islands differ");
            }
        } else {
            arrays.exact_islands = crate::joint::build_exact_islands(out, bodies);
        }
        // Masses may have changed while the order held: decided afresh each step.
        let ratio = self.def.exact_joint_mass_ratio;
        crate::joint::mark_exact_islands(&arrays.exact_islands, out, ratio);
    }

    /// The solved joints' (solver body a, solver body b) in slot order, each handed to
    /// `each(slot, a, b)`.
    fn for_each_solved_joint(&self, solver_index: &[u32], mut each: impl FnMut(u32, u32, u32)) {
        let solver = |id: BodyId| solver_index[id.index as usize];
        for (slot, joint) in self.joints.iter() {
            // A mouse joint only pulls B; A just gives it a frame.
            let a = match joint.def.kind {
                JointKind::Mouse(_) => STATIC_BODY,
                _ => solver(joint.def.body_a),
            };
            let b = solver(joint.def.body_b);
            if joint.enabled && (a != STATIC_BODY || b != STATIC_BODY) {
                each(slot, a, b);
            }
        }
    }

    /// Colours the solved joints by their solver bodies and gives each its place in the
    /// colour order (`arrays.joint_positions`); returns how many there are.
    fn color_joints(&self, solver_index: &[u32], arrays: &mut SolverArrays) -> u32 {
        let coloring = &mut arrays.joint_coloring;
        coloring.reset(arrays.states.len());
        self.for_each_solved_joint(solver_index, |slot, a, b| coloring.add(slot, a, b));
        let positions = &mut arrays.joint_positions;
        positions.clear();
        positions.resize(self.joints.capacity(), u32::MAX);
        let mut count = 0;
        for slot in color_order(coloring) {
            positions[slot as usize] = count;
            count += 1;
        }
        count
    }

    /// Debug builds: the kept joint colours are those a fresh colouring gives.
    #[cfg(debug_assertions)]
    fn check_joint_coloring(&self, solver_index: &[u32], arrays: &SolverArrays) {
        let mut fresh = crate::solver::graph_coloring::GraphColoring::default();
        fresh.reset(arrays.states.len());
        self.for_each_solved_joint(solver_index, |slot, a, b| fresh.add(slot, a, b));
        assert_eq!(
            fresh.colors, arrays.joint_coloring.colors,
            "reused joint colours differ"
        );
        assert_eq!(fresh.overflow, arrays.joint_coloring.overflow);
    }
}
