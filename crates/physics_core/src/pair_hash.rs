//! The contact map: which contact slot holds the pair of shapes packed into a `u64` key
//! ([`pair_key`](crate::contact::pair_key)).
//!
//! Pair finding asks it about every overlap a moved proxy finds, most of them pairs that
//! already have a contact, so the question "is this key here?" is among the hottest loads of
//! a crowded step. The standard library's table keeps its control bytes and its entries in
//! two places, so a lookup usually waits on two cache misses (profiled in the spinner: the
//! entry's key compare was three quarters of the pair filter's time). This table is open
//! addressing with linear probing over an array of keys alone: a lookup loads one line of
//! keys, and the values are read only when asked for. Keys are never zero (a pair of two
//! different shapes has a nonzero high index), so zero marks an empty place.
//!
//! The hash is one multiplication by 2^64 divided by the golden ratio, keeping the top bits
//! (Fibonacci hashing): neighbouring shape pairs, the common case, land far apart. The table
//! stays at most half full, and removal shifts the probe run back instead of leaving
//! markers, so lookups never walk over dead places. Nothing iterates the table, so its
//! layout never shows in the simulation.

/// 2^64 divided by the golden ratio, rounded to odd.
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// Fewest places the table has once anything was inserted.
const MIN_CAPACITY: usize = 16;

/// A map from nonzero packed shape pairs to contact slots.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairMap {
    /// The key in each place, 0 when empty; the length is a power of two (or zero).
    keys: Vec<u64>,
    /// The value of the key in the same place.
    values: Vec<u32>,
    len: usize,
}

impl PairMap {
    /// Where the probe for `key` starts.
    fn home(&self, key: u64) -> usize {
        let bits = self.keys.len().trailing_zeros();
        (key.wrapping_mul(SPREAD) >> (64 - bits)) as usize
    }

    /// The place holding `key`, if any.
    fn find(&self, key: u64) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.keys[i] {
                k if k == key => return Some(i),
                0 => return None,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Asks the cache for the place where a lookup of `key` starts (`crate::prefetch`), a
    /// while before the lookup: most keys are found there or in the next few places.
    pub(crate) fn prefetch(&self, key: u64) {
        if !self.keys.is_empty() {
            crate::prefetch::prefetch_bytes(&self.keys[self.home(key)], 8);
        }
    }

    /// True when `key` is in the map.
    pub(crate) fn contains_key(&self, key: &u64) -> bool {
        self.find(*key).is_some()
    }

    /// The value stored with `key`.
    pub(crate) fn get(&self, key: &u64) -> Option<&u32> {
        self.find(*key).map(|i| &self.values[i])
    }

    /// Stores `value` with `key` (nonzero), replacing any value it had.
    pub(crate) fn insert(&mut self, key: u64, value: u32) {
        debug_assert_ne!(key, 0, "zero marks an empty place");
        if let Some(i) = self.find(key) {
            self.values[i] = value;
            return;
        }
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        loop {
            if self.keys[i] == 0 {
                self.keys[i] = key;
                self.values[i] = value;
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// Removes `key`, returning its value. The keys after it in its probe run move back
    /// into the gap when their own probes start at or before it, so every key stays
    /// reachable from its home without passing an empty place.
    pub(crate) fn remove(&mut self, key: &u64) -> Option<u32> {
        let mut gap = self.find(*key)?;
        let value = self.values[gap];
        let mask = self.keys.len() - 1;
        let mut next = gap;
        loop {
            next = (next + 1) & mask;
            let k = self.keys[next];
            if k == 0 {
                break;
            }
            // Distances travelled from the home, around the end of the array.
            let home = self.home(k);
            if (next.wrapping_sub(home) & mask) >= (next.wrapping_sub(gap) & mask) {
                self.keys[gap] = k;
                self.values[gap] = self.values[next];
                gap = next;
            }
        }
        self.keys[gap] = 0;
        self.len -= 1;
        Some(value)
    }

    /// Doubles the places (or makes the first ones) and puts every key back.
    fn grow(&mut self) {
        let capacity = (self.keys.len() * 2).max(MIN_CAPACITY);
        let keys = std::mem::replace(&mut self.keys, vec![0; capacity]);
        let values = std::mem::replace(&mut self.values, vec![0; capacity]);
        self.len = 0;
        for (k, v) in keys.into_iter().zip(values) {
            if k != 0 {
                self.insert(k, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn key(lo: u64, hi: u64) -> u64 {
        (lo << 32) | hi
    }

    /// A long random mix of inserts, replacements and removals leaves the table answering
    /// exactly as the standard map does, including around the end of the array where probe
    /// runs wrap.
    #[test]
    fn answers_like_the_standard_map_through_inserts_and_removals() {
        let mut table = PairMap::default();
        let mut reference = HashMap::new();
        let mut seed = 99u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            seed >> 33
        };
        for step in 0..200_000u32 {
            // Few distinct keys so that removals hit and probe runs form, break and re-form.
            let lo = next() % 300;
            let k = key(lo, lo + 1 + next() % 7);
            if next() % 3 == 0 {
                assert_eq!(table.remove(&k), reference.remove(&k), "step {step}");
            } else {
                table.insert(k, step);
                reference.insert(k, step);
            }
            let probe = key(next() % 300, 300 + next() % 10);
            assert_eq!(table.get(&probe), reference.get(&probe));
            assert_eq!(table.contains_key(&k), reference.contains_key(&k));
        }
        assert_eq!(table.len, reference.len());
        for (k, v) in &reference {
            assert_eq!(table.get(k), Some(v));
        }
    }

    /// Neighbouring pairs (shapes created together) spread over the table: probe runs
    /// stay short, where a hash that kept them together would make lookups walk.
    #[test]
    fn neighbouring_pairs_keep_probe_runs_short() {
        let mut table = PairMap::default();
        for lo in 0..64u64 {
            for hi in lo + 1..lo + 33 {
                table.insert(key(lo, hi), 0);
            }
        }
        let mask = table.keys.len() - 1;
        let longest = table
            .keys
            .iter()
            .enumerate()
            .filter(|(_, k)| **k != 0)
            .map(|(i, k)| i.wrapping_sub(table.home(*k)) & mask)
            .max()
            .unwrap();
        // 2048 keys in 4096 places: a good spread keeps every key within a few places.
        assert!(longest <= 12, "a key sits {longest} places past its home");
    }
}
