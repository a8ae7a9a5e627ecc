//! Handles to world objects: an index into dense storage plus a generation, so a handle to a
//! destroyed object is detected (and reported as an error) instead of reaching its successor.

use serde::{Deserialize, Serialize};

macro_rules! define_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub struct $name {
            /// Slot in the world's storage.
            pub index: u32,
            /// Incremented each time the slot is reused.
            pub generation: u32,
        }
    };
}

define_id!(
    /// A rigid body in a [`crate::world::World`].
    BodyId
);
define_id!(
    /// A shape attached to a body.
    ShapeId
);
define_id!(
    /// A persistent contact between two shapes.
    ContactId
);
define_id!(
    /// A joint between two bodies.
    JointId
);

/// Dense storage with generation-checked handles and slot reuse.
///
/// Slots are reused lowest-index first, so the storage layout (and iteration order) depends only
/// on the sequence of creations and destructions: deterministic across runs. Serialised as its
/// slots alone: the free set and the count follow from which slots are empty.
#[derive(Clone, Debug)]
pub struct Slots<T> {
    entries: Vec<Slot<T>>,
    free: crate::free_slots::FreeSlots,
    len: usize,
}

/// One slot of [`Slots`]: its generation and its value, if live.
///
/// The generation comes first (`repr(C)`): passes over every slot read it beside the start of
/// the value, in the same cache line, where Rust's own order put it after the value (a second
/// line per slot for records of a few hundred bytes).
///
/// `live` says whether `value` is `Some`, beside the generation (in what was its padding).
/// Rust keeps an `Option`'s tag in its value's largest niche, and for a record with a `Vec`
/// that is the last `Vec`'s capacity: at the end of a body record, the fourth cache line of
/// its slot. Every look at a body asked that line whether the slot was live, one miss more
/// per body in every pass (half the time of the plugin's per-body read, perf). Reading the
/// flag instead keeps a look at a record's head within the head's lines. (`Slots::at`, for
/// the step's internal links, still reads the tag: measured faster there.)
#[derive(Clone, Debug, Serialize, Deserialize)]
#[repr(C)]
pub(crate) struct Slot<T> {
    generation: u32,
    /// `value.is_some()`, kept by every write of `value` (all in this file); not serialised,
    /// set again from `value` when slots are read back (`Slots::from_entries`).
    #[serde(skip)]
    live: bool,
    value: Option<T>,
}

impl<T> Slot<T> {
    /// A slot of generation `generation` holding `value`.
    fn new(generation: u32, value: Option<T>) -> Self {
        Slot {
            generation,
            live: value.is_some(),
            value,
        }
    }

    /// The value, if the slot is live.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub(crate) fn value(&self) -> Option<&T> {
        // SAFETY: `live` is true exactly when `value` is `Some` (see the field).
        self.live
            .then(|| unsafe { self.value.as_ref().unwrap_unchecked() })
    }

    /// The value, if the slot is live.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub(crate) fn value_mut(&mut self) -> Option<&mut T> {
        // SAFETY: as in `value`.
        self.live
            .then(|| unsafe { self.value.as_mut().unwrap_unchecked() })
    }

    /// Where the value begins in the slot: the bytes of the generation and the live flag,
    /// with their padding. A field of the value lies this far plus its own offset from the
    /// slot's start (what a prefetch of part of a slot needs).
    pub(crate) const VALUE_OFFSET: usize = std::mem::offset_of!(Slot<T>, value);

    /// The value of a slot known to be live, without reading the flag.
    ///
    /// # Safety
    /// The slot is live.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub(crate) unsafe fn value_mut_unchecked(&mut self) -> &mut T {
        debug_assert!(self.live);
        // SAFETY: live by the caller's promise, so `value` is `Some`.
        unsafe { self.value.as_mut().unwrap_unchecked() }
    }

    /// Empties the slot, giving back its value.
    fn take(&mut self) -> Option<T> {
        self.live = false;
        self.value.take()
    }

    /// Fills the slot.
    fn fill(&mut self, value: T) {
        self.value = Some(value);
        self.live = true;
    }
}

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots {
            entries: Vec::new(),
            free: Default::default(),
            len: 0,
        }
    }
}

impl<T: Serialize> Serialize for Slots<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.entries.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Slots<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let entries: Vec<Slot<T>> = Vec::deserialize(deserializer)?;
        Ok(Slots::from_entries(entries))
    }
}

/// What a noting pass ([`Slots::par_for_each_mut_noting`]) noted, in slot order, and the
/// buffers each block of the pass gathers its notes in. The caller keeps one from step to
/// step, so a pass that notes thousands of values allocates nothing once warm: growing
/// fresh vectors every step cost a fifth of the finalize stage (perf) once another engine's
/// allocations in the same process had fragmented the heap.
pub(crate) struct Notes<Note> {
    /// The last pass's notes, (slot, note) in slot order.
    pub noted: Vec<(u32, Note)>,
    /// Emptied vectors with their capacity, for the next pass's blocks.
    spare: Vec<Vec<(u32, Note)>>,
}

impl<Note> Default for Notes<Note> {
    fn default() -> Self {
        Notes {
            noted: Vec::new(),
            spare: Vec::new(),
        }
    }
}

impl<T> Slots<T> {
    /// Slots holding `entries`, with the free set and count they imply.
    fn from_entries(mut entries: Vec<Slot<T>>) -> Self {
        for slot in &mut entries {
            slot.live = slot.value.is_some();
        }
        let free = (0..entries.len() as u32)
            .filter(|&i| !entries[i as usize].live)
            .collect();
        let len = entries.iter().filter(|s| s.live).count();
        Slots { entries, free, len }
    }

    /// The same slots (generations, empty slots) holding `f(index, value)`, or the first error.
    pub(crate) fn try_map<U, E>(
        &self,
        mut f: impl FnMut(u32, &T) -> Result<U, E>,
    ) -> Result<Slots<U>, E> {
        let mut entries = Vec::with_capacity(self.entries.len());
        for (i, slot) in self.entries.iter().enumerate() {
            let value = match slot.value() {
                Some(v) => Some(f(i as u32, v)?),
                None => None,
            };
            entries.push(Slot::new(slot.generation, value));
        }
        Ok(Slots::from_entries(entries))
    }

    /// The same slots holding `f(index, value)`.
    pub(crate) fn map<U>(&self, mut f: impl FnMut(u32, &T) -> U) -> Slots<U> {
        match self.try_map(|i, v| Ok::<_, std::convert::Infallible>(f(i, v))) {
            Ok(mapped) => mapped,
            Err(never) => match never {},
        }
    }

    /// Stores a value; returns its (index, generation).
    pub fn insert(&mut self, value: T) -> (u32, u32) {
        self.len += 1;
        if let Some(index) = self.free.pop_first() {
            let slot = &mut self.entries[index as usize];
            slot.fill(value);
            return (index, slot.generation);
        }
        self.entries.push(Slot::new(0, Some(value)));
        ((self.entries.len() - 1) as u32, 0)
    }

    /// Removes the value if the handle is current.
    pub fn remove(&mut self, index: u32, generation: u32) -> Option<T> {
        let slot = self.entries.get_mut(index as usize)?;
        if slot.generation != generation || !slot.live {
            return None;
        }
        slot.generation = slot.generation.wrapping_add(1);
        self.free.insert(index);
        self.len -= 1;
        slot.take()
    }

    /// Whether the bookkeeping agrees with the entries, as decoded bytes may not: the free set
    /// names exactly the empty slots and the count is the number of full ones.
    pub(crate) fn is_consistent(&self) -> bool {
        let full = self.entries.iter().filter(|s| s.live).count();
        full == self.len
            && self.free.len() == self.entries.len() - full
            && self
                .free
                .iter()
                .all(|i| self.entries.get(i as usize).is_some_and(|s| !s.live))
    }

    /// Whether slot `index` holds a value (of any generation).
    pub(crate) fn is_live(&self, index: u32) -> bool {
        self.entries.get(index as usize).is_some_and(|s| s.live)
    }

    /// The value if the handle is current.
    pub fn get(&self, index: u32, generation: u32) -> Option<&T> {
        let slot = self.entries.get(index as usize)?;
        (slot.generation == generation).then_some(())?;
        slot.value()
    }

    /// The value if the handle is current, mutable.
    pub fn get_mut(&mut self, index: u32, generation: u32) -> Option<&mut T> {
        let slot = self.entries.get_mut(index as usize)?;
        (slot.generation == generation).then_some(())?;
        slot.value_mut()
    }

    /// The value in a slot regardless of generation (for internal links known to be live).
    ///
    /// Checked by the `Option`'s own tag, not the live flag: the step's inner loops (the
    /// narrowphase's reads of bodies and shapes, the finalize's of shapes) read the record
    /// beside that tag anyway, and reading the flag instead made large_pyramid's core step
    /// 2 to 4 % slower against Box2D (alternating runs; likely as a 264-byte shape slot's
    /// flag sits in the cache line before its record one time in eight).
    #[inline]
    pub fn at(&self, index: u32) -> &T {
        self.entries[index as usize]
            .value
            .as_ref()
            .expect("internal link to an empty slot")
    }

    /// Mutable access by slot index (internal links); checked as [`Slots::at`] is.
    #[inline]
    pub fn at_mut(&mut self, index: u32) -> &mut T {
        self.entries[index as usize]
            .value
            .as_mut()
            .expect("internal link to an empty slot")
    }

    /// Every slot, shared among workers that each touch their own slots (see
    /// `parallel::shared`), indexed by slot.
    pub(crate) fn shared(&mut self) -> crate::parallel::shared::SharedMut<'_, Slot<T>> {
        crate::parallel::shared::SharedMut::new(&mut self.entries)
    }

    /// Calls `f(index, generation, value)` for every live value, in blocks of at least
    /// `min_block` slots on `runner`'s workers. `f` returns counts, which are added up, and
    /// a note for the slot, if any (what a serial pass after this one needs of it). Returns
    /// the sums; the noted slots with their notes are left in `notes.noted`, in slot order
    /// whatever the worker count (the last pass's notes are dropped).
    ///
    /// `f` is a type parameter, not a trait object, so the per-slot work is compiled into
    /// the block loop (one indirect call per block, not per slot).
    pub(crate) fn par_for_each_mut_noting<const N: usize, Note: Send, F>(
        &mut self,
        runner: &dyn crate::parallel::TaskRunner,
        min_block: usize,
        notes: &mut Notes<Note>,
        f: &F,
    ) -> [usize; N]
    where
        T: Send,
        F: Fn(u32, u32, &mut T) -> ([usize; N], Option<Note>) + Sync,
    {
        let blocks = std::sync::Mutex::new(Vec::new());
        let spare = std::sync::Mutex::new(std::mem::take(&mut notes.spare));
        crate::parallel::stages::for_each_block(
            runner,
            &mut self.entries,
            min_block,
            &|start, block| {
                let mut sums = [0; N];
                let taken = spare.lock().unwrap_or_else(|e| e.into_inner()).pop();
                let mut noted = taken.unwrap_or_default();
                noted.clear();
                for (i, slot) in block.iter_mut().enumerate() {
                    let generation = slot.generation;
                    if let Some(value) = slot.value_mut() {
                        let index = (start + i) as u32;
                        let (counts, note) = f(index, generation, value);
                        for (sum, count) in sums.iter_mut().zip(counts) {
                            *sum += count;
                        }
                        if let Some(note) = note {
                            noted.push((index, note));
                        }
                    }
                }
                let mut blocks = blocks.lock().unwrap_or_else(|e| e.into_inner());
                blocks.push((start, sums, noted));
            },
        );
        let mut blocks = blocks.into_inner().unwrap_or_else(|e| e.into_inner());
        blocks.sort_unstable_by_key(|b| b.0);
        let mut spare = spare.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut sums = [0; N];
        notes.noted.clear();
        for (k, (_, block_sums, mut block_noted)) in blocks.into_iter().enumerate() {
            for (sum, count) in sums.iter_mut().zip(block_sums) {
                *sum += count;
            }
            if k == 0 {
                // The first block's notes become the result as they are (with one worker,
                // the only block): no copy.
                std::mem::swap(&mut notes.noted, &mut block_noted);
            } else {
                notes.noted.append(&mut block_noted);
            }
            spare.push(block_noted);
        }
        notes.spare = spare;
        sums
    }

    /// Asks the cache for slot `index`'s generation, live flag and the value's first
    /// `value_bytes` bytes (`crate::prefetch`); nothing for an index past the last slot.
    pub(crate) fn prefetch(&self, index: u32, value_bytes: usize) {
        if let Some(slot) = self.entries.get(index as usize) {
            // The generation and the live flag come before the value.
            let bytes = Slot::<T>::VALUE_OFFSET + value_bytes;
            crate::prefetch::prefetch_bytes(slot, bytes);
        }
    }

    /// Generation of a slot (for building handles from internal indices).
    pub fn generation(&self, index: u32) -> u32 {
        self.entries[index as usize].generation
    }

    /// Number of live values.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// One past the highest slot index ever used.
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// Live values with their slot index, in index order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &T)> {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.value().map(|v| (i as u32, v)))
    }

    /// Live values with their slot index, in index order, asking the cache for the slot
    /// `ahead` places on, up to the value's first `value_bytes` bytes, as each slot is visited
    /// (`crate::prefetch`): for a pass over every slot of large records that reads a few
    /// fields at their head, whose misses would otherwise come one at a time.
    pub(crate) fn iter_prefetching(
        &self,
        ahead: usize,
        value_bytes: usize,
    ) -> impl Iterator<Item = (u32, &T)> {
        self.entries.iter().enumerate().filter_map(move |(i, s)| {
            self.prefetch((i + ahead) as u32, value_bytes);
            s.value().map(|v| (i as u32, v))
        })
    }

    /// Live values with their slot index, mutable, in index order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (u32, &mut T)> {
        self.entries
            .iter_mut()
            .enumerate()
            .filter_map(|(i, s)| s.value_mut().map(|v| (i as u32, v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums and noted slots come out the same, in slot order, for any worker count, empty
    /// slots are skipped, and each value comes with its slot's generation.
    #[test]
    fn noting_pass_sums_and_notes_in_slot_order_on_any_runner() {
        let mut slots = Slots::default();
        for i in 0..1000u32 {
            slots.insert(i);
        }
        for i in (0..1000).step_by(7) {
            slots.remove(i, 0);
        }
        // Three emptied slots are reused (lowest first), in their second generation.
        for i in [0, 7, 14] {
            assert_eq!(slots.insert(i), (i, 1));
        }
        let runners: [&dyn crate::parallel::TaskRunner; 4] = [
            &crate::parallel::SingleThreaded,
            &crate::parallel::ScopedThreads::new(3),
            &crate::parallel::SingleThreaded,
            &crate::parallel::ScopedThreads::new(3),
        ];
        // One buffer for every pass, as the world keeps it: no note of an earlier pass stays.
        let mut notes = Notes::default();
        for (runs_before, runner) in runners.into_iter().enumerate() {
            let sums = slots.par_for_each_mut_noting(
                runner,
                16,
                &mut notes,
                &|index, generation, value| {
                    *value += 1;
                    // The note carries the value as this pass left it.
                    let note = (index % 10 == 3).then_some(*value);
                    ([1, index as usize, generation as usize], note)
                },
            );
            let live: Vec<u32> = (0..1000).filter(|i| i % 7 != 0 || *i <= 14).collect();
            assert_eq!(sums[0], live.len());
            assert_eq!(sums[1], live.iter().map(|&i| i as usize).sum::<usize>());
            assert_eq!(sums[2], 3, "the reused slots are in generation 1");
            let expected: Vec<(u32, u32)> = live
                .iter()
                .filter(|&&i| i % 10 == 3)
                .map(|&i| (i, i + runs_before as u32 + 1))
                .collect();
            assert_eq!(notes.noted, expected);
        }
        // A pass that finds nothing to visit leaves no note either.
        let mut empty: Slots<u32> = Slots::default();
        empty.par_for_each_mut_noting(runners[0], 16, &mut notes, &|_, _, _| ([0; 3], Some(0)));
        assert!(notes.noted.is_empty(), "an earlier pass's notes stayed");
        // Each runner added one to every live value.
        assert!(slots.iter().all(|(i, &v)| v == i + runners.len() as u32));
    }

    #[test]
    fn stale_handles_are_rejected_and_slots_reused_lowest_first() {
        let mut slots = Slots::default();
        let a = slots.insert("a");
        let b = slots.insert("b");
        let c = slots.insert("c");
        assert_eq!(slots.remove(b.0, b.1), Some("b"));
        assert_eq!(slots.remove(b.0, b.1), None, "double remove");
        assert_eq!(slots.get(b.0, b.1), None, "stale handle");
        assert_eq!(slots.remove(a.0, a.1), Some("a"));
        let d = slots.insert("d");
        assert_eq!(d.0, a.0, "lowest free slot first");
        assert_ne!(d.1, a.1, "new generation");
        assert_eq!(slots.get(a.0, a.1), None);
        assert_eq!(slots.get(d.0, d.1), Some(&"d"));
        assert_eq!(slots.len(), 2);
        let order: Vec<_> = slots.iter().map(|(_, v)| *v).collect();
        assert_eq!(order, vec!["d", "c"]);
        let _ = c;
    }
}
