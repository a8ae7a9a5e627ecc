//! Where the operations' choices come from: a seed (the suite's runs) or fuzz bytes.

/// A source of choices. Every method has a default built on [`Choices::next`].
pub trait Choices: Clone {
    /// 64 fresh bits.
    fn next(&mut self) -> u64;

    /// True when the source has nothing more to give (fuzz bytes all read).
    fn exhausted(&self) -> bool {
        false
    }

    /// A whole number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `[lo, hi)`.
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }

    /// A number for a component: mostly in `[lo, hi)`, sometimes NaN, infinite or absurd.
    fn value(&mut self, lo: f32, hi: f32) -> f32 {
        match self.below(40) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => 1.0e30,
            _ => self.range(lo, hi),
        }
    }

    /// One of `list`, if it has any.
    fn pick<T: Copy>(&mut self, list: &[T]) -> Option<T> {
        (!list.is_empty()).then(|| list[self.below(list.len())])
    }
}

/// SplitMix64 from a seed: the same operations on every machine.
#[derive(Clone)]
pub struct Seeded(pub u64);

impl Choices for Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Choices read from fuzz bytes, two bytes a choice (zero once they run out), so a mutated
/// byte changes one choice and the fuzzer can steer the operations.
#[derive(Clone)]
pub struct FromBytes<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> FromBytes<'a> {
    /// Choices from `bytes`, first to last.
    pub fn new(bytes: &'a [u8]) -> Self {
        FromBytes { bytes, at: 0 }
    }
}

impl Choices for FromBytes<'_> {
    fn next(&mut self) -> u64 {
        let byte = |k: usize| self.bytes.get(k).copied().unwrap_or(0) as u64;
        let pair = byte(self.at) | (byte(self.at + 1) << 8);
        self.at += 2;
        // Spread over 64 bits so `range` (which reads the top bits) sees them all.
        pair.wrapping_mul(0x0001_0001_0001_0001)
    }

    fn exhausted(&self) -> bool {
        self.at >= self.bytes.len()
    }
}
