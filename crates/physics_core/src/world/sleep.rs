//! Sleeping: islands of bodies at rest leave the solver and cost nothing per step until
//! something touches, pushes, moves or re-joins them.

use super::World;
use crate::body::BodyType;
use crate::solver::island::UnionFind;

impl World {
    /// True when the body takes part in the step (moving and awake).
    pub(crate) fn is_simulated(&self, slot: u32) -> bool {
        self.bodies.at(slot).is_simulated()
    }

    /// Advances sleep timers after a step and puts islands whose bodies have all rested for
    /// `time_to_sleep` to sleep. An island is the set of awake bodies linked by touching
    /// (non-sensor) contacts and enabled joints; static bodies do not link islands.
    pub(crate) fn update_sleep(&mut self, dt: f32) {
        if !self.def.enable_sleep || dt == 0.0 {
            return;
        }
        let (linear, angular) = (
            self.tolerances.sleep_linear_speed,
            self.def.sleep_angular_speed,
        );
        for (_, b) in self.bodies.iter_mut() {
            if !b.is_moving() || !b.awake {
                continue;
            }
            let resting = b.can_sleep
                && b.linear_velocity.length_squared() <= linear * linear
                && b.angular_velocity.abs() <= angular;
            b.sleep_time = if resting { b.sleep_time + dt } else { 0.0 };
        }
        let mut islands = UnionFind::new(self.bodies.capacity());
        for (_, c) in self.contacts.iter() {
            if c.touching && !c.sensor && self.is_simulated(c.body_a) && self.is_simulated(c.body_b)
            {
                islands.union(c.body_a, c.body_b);
            }
        }
        for (_, j) in self.joints.iter() {
            let (a, b) = (j.def.body_a.index, j.def.body_b.index);
            if j.enabled && self.is_simulated(a) && self.is_simulated(b) {
                islands.union(a, b);
            }
        }
        // The least rested body decides for its island.
        let mut least = vec![f32::INFINITY; self.bodies.capacity()];
        for (slot, b) in self.bodies.iter() {
            if b.is_moving() && b.awake {
                let root = islands.find(slot) as usize;
                least[root] = least[root].min(b.sleep_time);
            }
        }
        let time_to_sleep = self.def.time_to_sleep;
        for (slot, b) in self.bodies.iter_mut() {
            if b.is_moving() && b.awake && least[islands.find(slot) as usize] >= time_to_sleep {
                b.awake = false;
                self.simulated_bodies -= 1;
                b.linear_velocity = bevy_math::Vec2::ZERO;
                b.angular_velocity = 0.0;
            }
        }
    }

    /// The moving bodies connected to `slot` through touching contacts and joints (its
    /// island), `slot` first; static bodies end the search.
    fn island_members(&self, slot: u32) -> Vec<u32> {
        let mut members = Vec::new();
        let mut stack = vec![slot];
        let mut seen = vec![false; self.bodies.capacity()];
        seen[slot as usize] = true;
        while let Some(i) = stack.pop() {
            let body = self.bodies.at(i);
            if body.body_type == BodyType::Static {
                continue;
            }
            members.push(i);
            let contacts = body.contacts.iter().filter_map(|c| {
                let c = self.contacts.at(*c);
                (c.touching && !c.sensor).then_some(if c.body_a == i { c.body_b } else { c.body_a })
            });
            let joints = body.joints.iter().map(|j| {
                let def = &self.joints.at(*j).def;
                if def.body_a.index == i {
                    def.body_b.index
                } else {
                    def.body_a.index
                }
            });
            for n in contacts.chain(joints) {
                if !seen[n as usize] {
                    seen[n as usize] = true;
                    stack.push(n);
                }
            }
        }
        members
    }

    /// Wakes a body and its island.
    pub(crate) fn wake_island(&mut self, slot: u32) {
        for i in self.island_members(slot) {
            let body = self.bodies.at_mut(i);
            // Members are moving bodies (the search stops at static ones).
            self.simulated_bodies += usize::from(!body.awake);
            body.awake = true;
            body.sleep_time = 0.0;
        }
    }

    /// Puts a body's island to sleep at once.
    pub(crate) fn sleep_island(&mut self, slot: u32) {
        for i in self.island_members(slot) {
            let body = self.bodies.at_mut(i);
            self.simulated_bodies -= usize::from(body.awake);
            body.awake = false;
            body.linear_velocity = bevy_math::Vec2::ZERO;
            body.angular_velocity = 0.0;
        }
    }

    /// Number of bodies awake and moving (the ones the solver steps).
    pub fn awake_body_count(&self) -> usize {
        debug_assert_eq!(
            self.simulated_bodies,
            self.count_simulated_bodies(),
            "awake body count out of step with the bodies"
        );
        self.simulated_bodies
    }

    /// Counts the bodies awake and moving by visiting every body (the kept count's check,
    /// and its start after a restore).
    pub(crate) fn count_simulated_bodies(&self) -> usize {
        self.bodies.iter().filter(|(_, b)| b.is_simulated()).count()
    }
}
