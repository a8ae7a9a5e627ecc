//! Sleeping: islands of bodies at rest leave the solver and cost nothing per step until
//! something touches, pushes, moves or re-joins them.

use crate::solver::island::UnionFind;
use crate::world::World;

impl World {
    /// True when the body takes part in the step (moving and awake).
    pub(crate) fn is_simulated(&self, slot: u32) -> bool {
        self.bodies.at(slot).is_simulated()
    }

    /// Advances sleep timers after a step and puts islands whose bodies have all rested for
    /// `time_to_sleep` to sleep. An island is the set of awake bodies linked by touching
    /// (non-sensor) contacts and enabled joints; static bodies do not link islands.
    ///
    /// `pushed_out_of_overlap` names the bodies the step moved only by a contact's push out of
    /// overlap (`finalize.rs`, `moved_only_by_a_push`): not at rest, whatever their velocity.
    pub(crate) fn update_sleep(&mut self, dt: f32, pushed_out_of_overlap: &[u32]) {
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
            let resting = b.can_sleep && b.velocity_at_rest(b.linear_sleep_speed(linear), angular);
            b.sleep_time = if resting { b.sleep_time + dt } else { 0.0 };
        }
        for &slot in pushed_out_of_overlap {
            self.bodies.at_mut(slot).sleep_time = 0.0;
        }
        let mut islands = UnionFind::new(self.bodies.capacity());
        for (_, c) in self.contacts.iter() {
            if c.touching
                && !c.sensor
                && !c.passive
                && self.is_simulated(c.body_a)
                && self.is_simulated(c.body_b)
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
                // The solver's bodies change (`solver_bodies.rs`).
                self.solver_bodies.note_change();
                b.awake = false;
                self.simulated_bodies -= 1;
                b.linear_velocity = bevy_math::Vec2::ZERO;
                b.angular_velocity = 0.0;
            }
        }
    }

    /// Sets `awake` on the moving bodies connected to `slot` through touching (non-sensor)
    /// contacts and enabled joints whose flag differs: the part of its island that is not in
    /// that state yet. The flag marks the visited bodies, so the walk needs no memory beyond
    /// its stack and costs the size of what it changes. Static bodies end the search. Returns
    /// the bodies changed.
    fn flood_island(&mut self, slot: u32, awake: bool) -> Vec<u32> {
        let mut changed = Vec::new();
        let mut stack = vec![slot];
        while let Some(i) = stack.pop() {
            self.island_flood_visits += 1;
            let body = self.bodies.at_mut(i);
            if !body.is_moving() || body.awake == awake {
                continue;
            }
            body.awake = awake;
            changed.push(i);
            // The solver's bodies change (`solver_bodies.rs`).
            self.solver_bodies.note_change();
            let body = self.bodies.at(i);
            let contacts = body.contacts.iter().filter_map(|c| {
                let c = self.contacts.at(*c);
                (c.touching && !c.sensor && !c.passive).then_some(c.other_body(i))
            });
            let joints = body.joints.iter().filter_map(|j| {
                let joint = self.joints.at(*j);
                let (a, b) = (joint.def.body_a.index, joint.def.body_b.index);
                joint.enabled.then_some(if a == i { b } else { a })
            });
            stack.extend(contacts.chain(joints));
        }
        changed
    }

    /// Wakes a body and its island, and restarts the body's sleep timer (so the island stays
    /// awake at least `time_to_sleep` more: the least rested body decides for its island).
    ///
    /// An awake body's island is awake already: islands only fall asleep whole, and a touch
    /// or a joint between an awake body and a sleeping one wakes the sleeping island. So
    /// poking an awake body (a force, a velocity, a teleport) costs nothing however large
    /// the pile it lies in.
    pub(crate) fn wake_island(&mut self, slot: u32) {
        let body = self.bodies.at_mut(slot);
        body.sleep_time = 0.0;
        if body.awake || !body.is_moving() {
            return;
        }
        for i in self.flood_island(slot, true) {
            self.bodies.at_mut(i).sleep_time = 0.0;
            self.simulated_bodies += 1;
        }
    }

    /// Puts a body's island to sleep at once.
    pub(crate) fn sleep_island(&mut self, slot: u32) {
        for i in self.flood_island(slot, false) {
            let body = self.bodies.at_mut(i);
            body.linear_velocity = bevy_math::Vec2::ZERO;
            body.angular_velocity = 0.0;
            self.simulated_bodies -= 1;
        }
    }

    /// Bodies visited by island floods (waking an island, or putting one to sleep) since the
    /// world was made: what waking costs, counted instead of timed.
    pub fn island_flood_visits(&self) -> u64 {
        self.island_flood_visits
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
