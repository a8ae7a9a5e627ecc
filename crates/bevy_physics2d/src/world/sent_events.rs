//! Which events each recent step has already sent, so that a step simulated again after a
//! rollback (bevy_ggrs, lightyear, or a restored [`PhysicsWorldSnapshot`]) does not send its
//! events a second time.
//!
//! A rollback restores the step counter with the rest of the world, so a resimulated step
//! has the number it had the first time. The log is kept outside the snapshot: it remembers,
//! for each of the last [`RESIMULATION_WINDOW`] steps, a key per event it sent (the event's
//! kind and the entities it names). When that step runs again, an event whose key is already
//! there is dropped; an event the first run did not have (the corrected timeline differs)
//! is sent and remembered. An event the corrected timeline moves to another step is sent at
//! that step, since the game has not heard of it there.
//!
//! [`PhysicsWorldSnapshot`]: crate::PhysicsWorldSnapshot

use bevy_ecs::entity::{EntityMapper, MapEntities};
use bevy_ecs::prelude::*;
use std::collections::{HashSet, VecDeque};

/// Steps back a resimulation is recognised for: longer than any rollback window in use
/// (bevy_ggrs predicts a few frames, lightyear at most a few hundred ticks at 60 Hz would be
/// seconds of lag).
pub(crate) const RESIMULATION_WINDOW: u64 = 256;

/// The kind of an event, part of its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SentKind {
    CollisionStart,
    CollisionEnd,
    SensorEntered,
    SensorExited,
    Hit,
    ContactForce,
    JointBroken,
}

/// One sent event: its kind and the (up to two) entities it names.
type EventKey = (SentKind, Entity, Entity);

/// The events sent by each of the recent steps.
#[derive(Default)]
pub(crate) struct SentEventLog {
    /// The newest step whose events were sent; steps up to it are resimulations.
    newest: Option<u64>,
    /// `(step, keys)` for the steps of the window that sent something, oldest first.
    steps: VecDeque<(u64, HashSet<EventKey>)>,
}

impl SentEventLog {
    /// Starts sending the events of `step`; returns the filter for them.
    pub fn begin(&mut self, step: u64) -> StepFilter<'_> {
        let resimulated = self.newest.is_some_and(|newest| step <= newest);
        if !resimulated {
            self.newest = Some(step);
            let oldest_kept = step.saturating_sub(RESIMULATION_WINDOW);
            while self.steps.front().is_some_and(|(s, _)| *s < oldest_kept) {
                self.steps.pop_front();
            }
        }
        let index = match self.steps.binary_search_by_key(&step, |(s, _)| *s) {
            Ok(index) => index,
            Err(index) => {
                self.steps.insert(index, (step, HashSet::new()));
                index
            }
        };
        StepFilter {
            sent: &mut self.steps[index].1,
        }
    }

    /// Drops the steps that sent nothing (kept only while their events were being sent).
    pub fn drop_empty(&mut self) {
        self.steps.retain(|(_, keys)| !keys.is_empty());
    }

    /// The world's steps are numbered `by` more from now on (a world installed from a peer
    /// that counts its steps from elsewhere): the steps logged so far take their new
    /// numbers, so a resimulation under the new numbers still finds what it sent. (Only
    /// lightyear installs worlds from peers.)
    #[cfg(any(feature = "lightyear", test))]
    pub fn renumber(&mut self, by: i64) {
        let renumber = |step: u64| step.saturating_add_signed(by);
        self.newest = self.newest.map(renumber);
        for (step, _) in &mut self.steps {
            *step = renumber(*step);
        }
    }
}

impl MapEntities for SentEventLog {
    fn map_entities<M: EntityMapper>(&mut self, mapper: &mut M) {
        for (_, keys) in &mut self.steps {
            *keys = keys
                .drain()
                .map(|(kind, a, b)| (kind, mapper.get_mapped(a), mapper.get_mapped(b)))
                .collect();
        }
    }
}

/// Decides, event by event, whether one step's event goes out.
pub(crate) struct StepFilter<'a> {
    sent: &'a mut HashSet<EventKey>,
}

impl StepFilter<'_> {
    /// Whether the event is new for this step (and from now on, remembered as sent).
    pub fn first_time(&mut self, kind: SentKind, a: Entity, b: Entity) -> bool {
        self.sent.insert((kind, a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(i: u32) -> Entity {
        Entity::from_raw_u32(i).unwrap()
    }

    #[test]
    fn a_resimulated_step_sends_only_what_its_first_run_did_not() {
        let mut log = SentEventLog::default();
        assert!(
            log.begin(5)
                .first_time(SentKind::CollisionStart, e(1), e(2))
        );
        log.drop_empty();
        assert!(log.begin(6).first_time(SentKind::Hit, e(1), e(2)));
        log.drop_empty();
        // Rolled back to step 4: steps 5 and 6 run again.
        let mut again = log.begin(5);
        assert!(!again.first_time(SentKind::CollisionStart, e(1), e(2)));
        assert!(again.first_time(SentKind::CollisionStart, e(1), e(3)));
        log.drop_empty();
        let mut again = log.begin(6);
        assert!(!again.first_time(SentKind::Hit, e(1), e(2)));
        assert!(again.first_time(SentKind::CollisionEnd, e(1), e(2)));
        log.drop_empty();
        // A new step is new.
        assert!(
            log.begin(7)
                .first_time(SentKind::CollisionStart, e(1), e(2))
        );
    }

    #[test]
    fn a_renumbered_log_finds_its_steps_under_their_new_numbers() {
        let mut log = SentEventLog::default();
        assert!(
            log.begin(40)
                .first_time(SentKind::CollisionStart, e(1), e(2))
        );
        log.drop_empty();
        log.begin(41);
        log.drop_empty();
        // A world whose steps are numbered 7 higher is installed at the step before 40 and
        // the same ticks run again: as steps 47 and 48.
        log.renumber(7);
        assert!(
            !log.begin(47)
                .first_time(SentKind::CollisionStart, e(1), e(2))
        );
        log.drop_empty();
        // 48 was logged (as 41): a resimulation, so the window holds.
        let mut again = log.begin(48);
        assert!(again.first_time(SentKind::Hit, e(1), e(2)));
        log.drop_empty();
        assert!(log.begin(49).first_time(SentKind::Hit, e(1), e(2)));
    }

    #[test]
    fn steps_older_than_the_window_are_forgotten() {
        let mut log = SentEventLog::default();
        assert!(
            log.begin(1)
                .first_time(SentKind::CollisionStart, e(1), e(2))
        );
        log.drop_empty();
        log.begin(2 + RESIMULATION_WINDOW);
        log.drop_empty();
        assert!(
            log.begin(1)
                .first_time(SentKind::CollisionStart, e(1), e(2))
        );
    }

    #[test]
    fn remapped_entities_keep_their_sent_events() {
        let mut log = SentEventLog::default();
        assert!(log.begin(3).first_time(SentKind::SensorEntered, e(7), e(8)));
        log.drop_empty();
        let mut map = bevy_ecs::entity::EntityHashMap::default();
        map.insert(e(8), e(20));
        log.map_entities(&mut map);
        assert!(
            !log.begin(3)
                .first_time(SentKind::SensorEntered, e(7), e(20))
        );
    }
}
