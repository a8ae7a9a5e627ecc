//! The hash of the contact map's keys: two shape indices packed into a `u64`.
//!
//! The standard library's SipHash protects tables against keys chosen by an attacker, which
//! a world's own shape indices cannot be, and costs more than the rest of a pair lookup. One
//! multiplication by an odd constant near 2^64 / golden ratio spreads the packed pair over
//! the high bits, and folding them down spreads it over the low bits the table indexes with.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// 2^64 divided by the golden ratio, rounded to odd.
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// Hasher for packed shape pairs (and, correctly if slowly, for anything else).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairHasher(u64);

impl Hasher for PairHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(SPREAD);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

/// A map keyed by packed shape pairs.
pub(crate) type PairMap<V> = HashMap<u64, V, BuildHasherDefault<PairHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// Neighbouring pairs (the common case: shapes created together) land in different low
    /// bits, so the table does not pile them into a few buckets.
    #[test]
    fn neighbouring_pairs_spread_over_the_low_bits() {
        let build = BuildHasherDefault::<PairHasher>::default();
        let mut buckets = vec![0u32; 1024];
        for lo in 0..64u64 {
            for hi in lo + 1..lo + 33 {
                let h = build.hash_one((lo << 32) | hi);
                buckets[(h % 1024) as usize] += 1;
            }
        }
        // 2048 keys over 1024 buckets: 2 on average; a poor hash would stack dozens.
        assert!(
            buckets.iter().all(|&n| n <= 10),
            "{:?}",
            buckets.iter().max()
        );
    }
}
