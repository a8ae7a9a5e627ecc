//! Jointed bodies stopped together: when a sweep (`continuous.rs`) stops a fast body at its
//! time of impact (with static geometry, or for a bullet also with a dynamic body), the
//! dynamic bodies jointed to it, directly or through other dynamic bodies, go back to that
//! moment of the step as well.
//!
//! A sweep moves only the body it stops. A ragdoll falling onto its shin at 6 m/s had the
//! shin taken back about 4 cm along its path while the thigh pinned to it kept its pose at the
//! end of the step, so the knee opened by those 4 cm in one step and the soft pin then closed
//! it over the next steps: the widest gap of the fidelity table's ragdoll was 0.066 m (Box2D
//! v3, whose sweeps do the same, 0.060 m; avian, which has no sweeps by default, 0.049 m).
//! Taking the whole group back to the moment of impact leaves its pins as the solver left
//! them (0.036 m, the soft pins' stretch under the blow). The group loses the same part of a
//! step's motion as the stopped body, and every body keeps its velocity, as the stopped one
//! does.
//!
//! Each body goes back along the path the sweeps use, its centre on the straight line from
//! its pose at the start of the step (`Body::collide_pose`) to its pose now and its rotation
//! interpolated alike, to the group's earliest impact: a body its own sweep stopped later in
//! the step goes back from there. The solve left each pin closed at both ends of that path,
//! so it stays closed along it to first order in the step's motion, and a body never goes
//! where it did not pass (a foot that bounced this step is not pushed back into the floor,
//! as going back along its new, upward velocity would). Static and kinematic bodies end a
//! group: they do not move back. A pin to a static body stays closed (both its ends were at
//! rest); a pin to a moving kinematic body opens by the kinematic body's travel over the time
//! taken back, as it would if the stopped body went back alone. So does a body the solver did
//! not step (one woken, or jointed, between the public `solve` and `finalize` calls): its
//! pose at the start of the step is not known, so it ends the group too.
//!
//! Runs in finalize's serial pass, in the order the sweeps ran (slot order), so any worker
//! count gives the same bits.

use super::continuous::move_along_step;
use crate::body::BodyType;
use crate::world::World;
use std::collections::{HashMap, HashSet};

impl World {
    /// Takes the joint group of each body in `stopped` (a jointed body's slot and the
    /// fraction of the step at which its sweep stopped it) back to the group's earliest
    /// impact; `stepped` says, from a body's slot and generation, whether the solver stepped
    /// it this step (the others end a group). Returns the bodies moved, in the order they
    /// were moved, for their broadphase boxes; the stopped bodies are among them only when
    /// the group's impact came earlier than their own.
    pub(crate) fn rewind_joint_groups(
        &mut self,
        stopped: &[(u32, f32)],
        stepped: &dyn Fn(u32, u32) -> bool,
    ) -> Vec<u32> {
        let mut moved = Vec::new();
        if stopped.is_empty() {
            return moved;
        }
        let fractions: HashMap<u32, f32> = stopped.iter().copied().collect();
        let reached = |slot: u32| fractions.get(&slot).copied().unwrap_or(1.0);
        let mut grouped = HashSet::new();
        for &(first, _) in stopped {
            if grouped.contains(&first) {
                continue;
            }
            let group = self.joint_group(first, stepped, &mut grouped);
            let impact = group.iter().map(|&b| reached(b)).fold(1.0f32, f32::min);
            for &slot in &group {
                let now = reached(slot);
                if impact < now {
                    self.move_back_along_sweep(slot, impact / now);
                    moved.push(slot);
                }
            }
        }
        if !moved.is_empty() {
            // Kept solver arrays hold the poses the finalize wrote.
            self.drop_kept_solver_bodies();
        }
        moved
    }

    /// The dynamic bodies the solver `stepped` joined to `first` by enabled joints, directly
    /// or through other such bodies, `first` included, in the order found; each is added to
    /// `grouped`.
    fn joint_group(
        &self,
        first: u32,
        stepped: &dyn Fn(u32, u32) -> bool,
        grouped: &mut HashSet<u32>,
    ) -> Vec<u32> {
        let mut group = vec![first];
        grouped.insert(first);
        let mut next = 0;
        while next < group.len() {
            let slot = group[next];
            next += 1;
            for &joint in &self.bodies.at(slot).joints {
                let joint = self.joints.at(joint);
                if !joint.enabled {
                    continue;
                }
                let (a, b) = (joint.def.body_a.index, joint.def.body_b.index);
                let other = if a == slot { b } else { a };
                let dynamic = self.bodies.at(other).body_type == BodyType::Dynamic;
                let generation = self.bodies.generation(other);
                if dynamic && stepped(other, generation) && grouped.insert(other) {
                    group.push(other);
                }
            }
        }
        group
    }

    /// Moves a body back along its path this step, from its pose at the start of the step
    /// (0) to its pose now (1), to the fraction `back_to` of it, as a sweep would.
    fn move_back_along_sweep(&mut self, slot: u32, back_to: f32) {
        let body = self.bodies.at_mut(slot);
        let start = body.collide_pose;
        let c1 = start.apply(body.local_center);
        move_along_step(body, c1, start.q, back_to);
    }
}
