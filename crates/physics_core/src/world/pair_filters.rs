//! What pair finding asks of a shape, in one dense array by shape slot.
//!
//! Every overlap a moved proxy finds is first tested against the two shapes' filters, bodies,
//! sensor flags and body types. Read from the shape records, that test costs up to three
//! cache misses per candidate pair (a record spans several lines and a body type lives in the
//! body record); in a crowd whose shapes never collide with each other (joint_grid's pins),
//! those misses were most of the pair stage's own time. The same facts sit here in 32 bytes
//! per shape. They change only where a shape is created or its filter is set (a body's type
//! is fixed, the sensor flag is set at creation), so the array is written there and rebuilt
//! from the records after a restore, never stored.

use super::World;
use crate::body::BodyType;
use crate::filter::Filter;

/// A shape's facts for pair finding.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PairFilter {
    filter: Filter,
    /// Slot index of the shape's body.
    body: u32,
    sensor: bool,
    /// The body is dynamic (solved pairs need at least one dynamic body).
    dynamic: bool,
    /// The body is not static (kinematic or dynamic).
    moving: bool,
    /// The shape asked for contacts with other non-dynamic bodies.
    kinematic_contacts: bool,
}

impl PairFilter {
    /// True when shapes with these facts may get a contact: different bodies, filters that
    /// agree, not both sensors, and either a dynamic body or, between two bodies that are not
    /// dynamic, at least one moving body and a sensor or a shape that asked for such
    /// contacts (`ShapeDef::enable_kinematic_contacts`). Two static bodies never pair.
    pub(super) fn may_touch(&self, other: &PairFilter) -> bool {
        self.body != other.body
            && self.filter.should_collide(&other.filter)
            && !(self.sensor && other.sensor)
            && (self.dynamic
                || other.dynamic
                || ((self.moving || other.moving)
                    && (self.sensor
                        || other.sensor
                        || self.kinematic_contacts
                        || other.kinematic_contacts)))
    }

    /// The collision categories this shape's moved proxy looks for in the trees: its mask,
    /// since a shape outside it fails [`Filter::should_collide`], except in a positive group,
    /// whose shapes meet each other whatever their masks.
    pub(super) fn query_mask(&self) -> u64 {
        if self.filter.group_index > 0 {
            u64::MAX
        } else {
            self.filter.mask_bits
        }
    }
}

impl World {
    /// Records the pair-finding facts of the live shape in slot `index`.
    pub(super) fn note_pair_filter(&mut self, index: u32) {
        let record = self.shapes.at(index);
        let body_type = self.bodies.at(record.body.index).body_type;
        let entry = PairFilter {
            filter: record.def.filter,
            body: record.body.index,
            sensor: record.def.is_sensor,
            dynamic: body_type == BodyType::Dynamic,
            moving: body_type != BodyType::Static,
            kinematic_contacts: record.def.enable_kinematic_contacts,
        };
        let i = index as usize;
        if self.pair_filters.len() <= i {
            self.pair_filters.resize(i + 1, PairFilter::default());
        }
        self.pair_filters[i] = entry;
    }

    /// Rebuilds the facts of every live shape (after the shapes were replaced wholesale),
    /// and the broadphase proxies' collision categories, which a snapshot does not store.
    pub(super) fn rebuild_pair_filters(&mut self) {
        self.pair_filters.clear();
        let slots: Vec<u32> = self.shapes.iter().map(|(slot, _)| slot).collect();
        for slot in slots {
            self.note_pair_filter(slot);
        }
        let shapes = &self.shapes;
        self.broadphase
            .set_categories(|shape| shapes.at(shape).def.filter.category_bits);
    }
}
