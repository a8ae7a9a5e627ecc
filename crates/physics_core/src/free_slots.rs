//! The empty slots of a [`Slots`](crate::id::Slots) storage, handed out lowest index first.
//!
//! A set of slot indices with three operations: add one, take the lowest, count them. It was
//! a `BTreeSet<u32>`, whose nodes are scattered over the heap: in a crowd that destroys
//! hundreds of contacts a step (smash), adding each freed slot walked two or three tree nodes
//! no longer in the cache, four tenths of the time of destroying a contact (`perf annotate`).
//! Here the set is one bit per slot, in words of 64, with a second level of one bit per word
//! that says which words have a bit set: adding is two bit writes in dense memory, taking the
//! lowest is a scan of the summary (one word per 4,096 slots) and two trailing-zero counts.
//! The order slots are handed out in is the same (lowest first), so the same storage layout.

/// Bits per word.
const WORD_BITS: usize = 64;

/// A set of slot indices that hands out its lowest first.
#[derive(Clone, Debug, Default)]
pub(crate) struct FreeSlots {
    /// Bit `i % 64` of word `i / 64`: slot `i` is in the set.
    words: Vec<u64>,
    /// Bit `w % 64` of word `w / 64`: `words[w]` is not zero.
    summary: Vec<u64>,
    /// Number of slots in the set.
    count: usize,
}

impl FreeSlots {
    /// Adds slot `index` (not in the set already).
    pub fn insert(&mut self, index: u32) {
        let (word, bit) = (index as usize / WORD_BITS, index as usize % WORD_BITS);
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
            self.summary.resize(word / WORD_BITS + 1, 0);
        }
        debug_assert_eq!(self.words[word] & (1 << bit), 0, "slot {index} freed twice");
        self.words[word] |= 1 << bit;
        self.summary[word / WORD_BITS] |= 1 << (word % WORD_BITS);
        self.count += 1;
    }

    /// Takes the lowest slot out of the set, if any.
    pub fn pop_first(&mut self) -> Option<u32> {
        if self.count == 0 {
            return None;
        }
        let (s, summary) = self
            .summary
            .iter()
            .enumerate()
            .find(|(_, bits)| **bits != 0)?;
        let word = s * WORD_BITS + summary.trailing_zeros() as usize;
        let bits = &mut self.words[word];
        let bit = bits.trailing_zeros() as usize;
        *bits &= *bits - 1;
        if *bits == 0 {
            self.summary[s] &= !(1 << (word % WORD_BITS));
        }
        self.count -= 1;
        Some((word * WORD_BITS + bit) as u32)
    }

    /// Number of slots in the set.
    pub fn len(&self) -> usize {
        self.count
    }

    /// The slots in the set, lowest first.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    (w * WORD_BITS + bit) as u32
                })
            })
        })
    }
}

impl FromIterator<u32> for FreeSlots {
    fn from_iter<I: IntoIterator<Item = u32>>(indices: I) -> Self {
        let mut set = FreeSlots::default();
        for index in indices {
            set.insert(index);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Through thousands of random adds and takes, over word and summary boundaries, the set
    /// hands out what an ordered set of the same indices hands out, and counts and lists the
    /// same slots.
    #[test]
    fn hands_out_the_lowest_slot_as_an_ordered_set_does() {
        let mut bits = FreeSlots::default();
        let mut ordered = BTreeSet::new();
        let mut next_new = 0u32;
        let mut seed = 17u32;
        let mut random = move |n: u32| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 8) % n
        };
        for round in 0..20_000 {
            // Bursts of frees and of takes, so the set grows past a summary word (4,096
            // slots) and empties again.
            let freeing = (round / 2_500) % 2 == 0;
            if freeing && random(4) != 0 || ordered.is_empty() {
                // A slot not in the set: a new one past the end, or one taken before.
                let index = if random(3) == 0 || ordered.len() as u32 >= next_new {
                    next_new += 1 + random(3);
                    next_new
                } else {
                    let mut i = random(next_new);
                    while ordered.contains(&i) {
                        i = (i + 1) % next_new;
                    }
                    i
                };
                if ordered.insert(index) {
                    bits.insert(index);
                }
            } else {
                assert_eq!(bits.pop_first(), ordered.pop_first(), "round {round}");
            }
            assert_eq!(bits.len(), ordered.len(), "round {round}");
        }
        assert!(next_new > 4_096, "the slots reached a second summary word");
        assert!(bits.iter().eq(ordered.iter().copied()));
        while let Some(index) = ordered.pop_first() {
            assert_eq!(bits.pop_first(), Some(index));
        }
        assert_eq!(bits.pop_first(), None);
    }
}
