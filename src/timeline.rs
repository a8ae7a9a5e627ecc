//! Scenes whose bodies come and go: groups of bodies (with the joints among them) created and
//! destroyed at given steps, as Box2D's rain benchmark drops ragdolls and takes the oldest away.
//!
//! The timeline is part of the neutral [`Scene`], so every engine of the comparison creates and
//! destroys the same bodies before the same steps. A body in a group is not built with the
//! scene; it exists from the step its group is created until the step the group is destroyed,
//! and a group may be created again (the same descriptions, new bodies).

use crate::scene::{BuiltScene, Scene};
use physics_core::prelude::*;
use std::ops::Range;

/// A set of a scene's bodies and the joints among them that come and go together: a range of
/// [`Scene::bodies`] and a range of [`Scene::joints`]. A group's joints join bodies of the
/// group, or a group body to a body that is always there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BodyGroup {
    /// The group's bodies, as indices into [`Scene::bodies`].
    pub bodies: Range<usize>,
    /// The group's joints, as indices into [`Scene::joints`].
    pub joints: Range<usize>,
}

/// What happens to a group (by index into [`Scene::groups`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupChange {
    /// The group's bodies and joints are created as described.
    Create(usize),
    /// The group's bodies are destroyed, with their joints.
    Destroy(usize),
}

/// A group change made before the step with index `step` (0: before the first step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedChange {
    /// The index of the step the change comes before.
    pub step: usize,
    /// The change.
    pub change: GroupChange,
}

/// A body id no world ever hands out: the place of a group body that does not exist now.
pub const ABSENT_BODY: BodyId = BodyId {
    index: u32::MAX,
    generation: u32::MAX,
};

/// A joint id no world ever hands out: the place of a group joint that does not exist now.
pub const ABSENT_JOINT: JointId = JointId {
    index: u32::MAX,
    generation: u32::MAX,
};

impl Scene {
    /// The group changes made before step `step`, in order (the timeline is sorted by step).
    pub fn changes_before(&self, step: usize) -> impl Iterator<Item = GroupChange> + '_ {
        let start = self.timeline.partition_point(|c| c.step < step);
        self.timeline[start..]
            .iter()
            .take_while(move |c| c.step == step)
            .map(|c| c.change)
    }

    /// For every body of [`Scene::bodies`], whether it exists after the first `steps` steps
    /// (the changes before steps `0..steps` made); after 0 steps, the bodies built with the
    /// scene (those of no group).
    pub fn bodies_present_after(&self, steps: usize) -> Vec<bool> {
        self.present_after(steps, self.bodies.len(), |g| g.bodies.clone())
    }

    /// For every joint of [`Scene::joints`], whether it exists after the first `steps` steps
    /// (after 0, the joints built with the scene).
    pub fn joints_present_after(&self, steps: usize) -> Vec<bool> {
        self.present_after(steps, self.joints.len(), |g| g.joints.clone())
    }

    /// Whether each of `count` items (indexed like the ones `members` picks out of each
    /// group) exists after the changes before steps `0..steps`: at the start every item but
    /// the groups' members.
    fn present_after(
        &self,
        steps: usize,
        count: usize,
        members: impl Fn(&BodyGroup) -> Range<usize>,
    ) -> Vec<bool> {
        let mut present = vec![true; count];
        for group in &self.groups {
            present[members(group)].fill(false);
        }
        for timed in self.timeline.iter().take_while(|c| c.step < steps) {
            let (group, alive) = match timed.change {
                GroupChange::Create(g) => (g, true),
                GroupChange::Destroy(g) => (g, false),
            };
            present[members(&self.groups[group])].fill(alive);
        }
        present
    }
}

impl BuiltScene {
    /// Makes the changes the scene's timeline holds before step `step` and then takes that
    /// step: how a test or a program runs a scene with a timeline. `step` counts from 0.
    pub fn step_scene(&mut self, scene: &Scene, step: usize) -> Result<(), WorldError> {
        self.apply_changes(scene, step)?;
        self.world.step(scene.dt)
    }

    /// Makes the changes the scene's timeline holds before step `step`.
    pub fn apply_changes(&mut self, scene: &Scene, step: usize) -> Result<(), WorldError> {
        for change in scene.changes_before(step) {
            match change {
                GroupChange::Create(g) => self.create_group(scene, g)?,
                GroupChange::Destroy(g) => self.destroy_group(scene, g)?,
            }
        }
        Ok(())
    }

    /// Creates a group's bodies and joints as the scene describes them.
    fn create_group(&mut self, scene: &Scene, group: usize) -> Result<(), WorldError> {
        let group = &scene.groups[group];
        for i in group.bodies.clone() {
            self.bodies[i] = scene.create_body(&mut self.world, i)?;
        }
        for j in group.joints.clone() {
            self.joints[j] = scene.create_joint(&mut self.world, &self.bodies, j)?;
        }
        Ok(())
    }

    /// Destroys a group's bodies (their joints go with them); destroying a group that is not
    /// there does nothing.
    fn destroy_group(&mut self, scene: &Scene, group: usize) -> Result<(), WorldError> {
        let group = &scene.groups[group];
        for i in group.bodies.clone() {
            let id = std::mem::replace(&mut self.bodies[i], ABSENT_BODY);
            if id != ABSENT_BODY {
                self.world.destroy_body(id)?;
            }
        }
        for j in group.joints.clone() {
            self.joints[j] = ABSENT_JOINT;
        }
        Ok(())
    }
}
