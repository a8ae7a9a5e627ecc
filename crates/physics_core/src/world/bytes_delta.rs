//! Bytes written as a change to other bytes: what a server sends a client in place of a whole
//! keyframe when the client already holds an earlier one.
//!
//! The encoder walks the new bytes and emits two kinds of operation: copy a run of the base,
//! or write literal bytes. Runs are found two ways:
//! - in place: the base byte that would follow the last copy if nothing had moved, which
//!   catches the common case of records that kept their place and changed a few fields;
//! - by content: every aligned 16 bytes of the base are indexed by a rolling hash, so a
//!   run that moved (a body removed before it, a contact list that grew) is still found.
//!
//! A match is grown forward byte by byte, so one copy covers any length of unchanged bytes.
//! The operations are deflated and framed like snapshots: a tag, a version byte, a checksum of
//! the deflated bytes. The checksum of the base goes first in the content, so a delta applied
//! to any other base is refused by name instead of decoding to garbage.
//!
//! ```
//! use physics_core::world::bytes_delta;
//!
//! let base = b"the quick brown fox jumps over the lazy dog, twice over the lazy dog".to_vec();
//! let mut new = base.clone();
//! new[4..9].copy_from_slice(b"QUICK");
//! let delta = bytes_delta::encode(&base, &new);
//! assert_eq!(bytes_delta::decode(&base, &delta, 1 << 20).unwrap(), new);
//! // Another base is refused.
//! assert!(bytes_delta::decode(&new, &delta, 1 << 20).is_err());
//! ```

use super::framed::{frame, unframe};
use super::snapshot::checksum;
use std::collections::HashMap;

/// Tag of delta bytes.
const MAGIC: &[u8; 4] = b"P2DB";
/// Version of the operation format.
const FORMAT_VERSION: u8 = 1;
/// Deflate effort, as snapshots use.
const DEFLATE_LEVEL: u8 = 3;
/// Bytes per indexed block of the base: the shortest moved run found by content.
const BLOCK: usize = 16;
/// Shortest run copied from the base where the last copy left off: shorter equal stretches
/// between changed fields cost more as an operation than as literal bytes.
const MIN_IN_PLACE: usize = 8;
/// Multiplier of the rolling hash (odd, so every byte position weighs differently).
const HASH_BASE: u64 = 0x100_0000_01b3;

/// Why delta bytes could not be applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaError {
    /// The delta was written against other base bytes.
    WrongBase,
    /// Not delta bytes, damaged bytes, or operations that reach outside the base or past the
    /// announced length.
    Damaged(&'static str),
}

impl std::fmt::Display for DeltaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeltaError::WrongBase => write!(f, "a delta written against other base bytes"),
            DeltaError::Damaged(why) => write!(f, "damaged delta: {why}"),
        }
    }
}

impl std::error::Error for DeltaError {}

/// `new` as a change to `base`, framed and deflated; [`decode`] with the same `base` gives
/// `new` back exactly.
pub fn encode(base: &[u8], new: &[u8]) -> Vec<u8> {
    let mut content = checksum(base).to_le_bytes().to_vec();
    Operations::find(base, new, &mut content);
    frame(MAGIC, FORMAT_VERSION, &content, DEFLATE_LEVEL)
}

/// The bytes [`encode`] was given as `new`, rebuilt from `base` and `delta`. Refuses a delta
/// written against other bytes than `base`, damaged bytes, and a result longer than `limit`.
pub fn decode(base: &[u8], delta: &[u8], limit: usize) -> Result<Vec<u8>, DeltaError> {
    // The operations are at most a few bytes per byte they write, plus the literal bytes.
    let content = unframe(
        delta,
        MAGIC,
        FORMAT_VERSION,
        limit.saturating_mul(2).max(1 << 16),
    )
    .map_err(DeltaError::Damaged)?;
    let (sum, mut ops) = content
        .split_first_chunk::<8>()
        .ok_or(DeltaError::Damaged("no base checksum"))?;
    if u64::from_le_bytes(*sum) != checksum(base) {
        return Err(DeltaError::WrongBase);
    }
    let length = read_varint(&mut ops)?;
    let length = usize::try_from(length).map_err(|_| DeltaError::Damaged("length"))?;
    if length > limit {
        return Err(DeltaError::Damaged("longer than the limit"));
    }
    let mut out = Vec::with_capacity(length);
    // Where in the base the last copy ended: copies are written relative to it.
    let mut expected: i64 = 0;
    while out.len() < length {
        let op = read_varint(&mut ops)?;
        let run = usize::try_from(op >> 1).map_err(|_| DeltaError::Damaged("run"))?;
        if run == 0 || run > length - out.len() {
            return Err(DeltaError::Damaged("a run past the announced length"));
        }
        if op & 1 == 0 {
            let (literal, rest) = ops
                .split_at_checked(run)
                .ok_or(DeltaError::Damaged("truncated literal"))?;
            out.extend_from_slice(literal);
            ops = rest;
            expected = expected.saturating_add(run as i64);
        } else {
            let shift = unzigzag(read_varint(&mut ops)?);
            let start = expected
                .checked_add(shift)
                .ok_or(DeltaError::Damaged("copy"))?;
            let start = usize::try_from(start).map_err(|_| DeltaError::Damaged("copy"))?;
            let source = start
                .checked_add(run)
                .and_then(|end| base.get(start..end))
                .ok_or(DeltaError::Damaged("a copy outside the base"))?;
            out.extend_from_slice(source);
            expected = (start + run) as i64;
        }
    }
    if !ops.is_empty() {
        return Err(DeltaError::Damaged("trailing operations"));
    }
    Ok(out)
}

/// The encoder's state: the base's block index and the operations written so far.
struct Operations<'a> {
    base: &'a [u8],
    new: &'a [u8],
    /// First aligned block of the base with each hash.
    index: HashMap<u64, usize>,
    /// `HASH_BASE` to the power `BLOCK - 1`, to take the oldest byte out of the hash.
    top: u64,
    /// Where in the base the last copy ended, advanced by literal bytes written since.
    expected: usize,
}

impl<'a> Operations<'a> {
    /// Writes the length of `new` and the operations rebuilding it from `base` to `out`.
    fn find(base: &'a [u8], new: &'a [u8], out: &mut Vec<u8>) {
        let mut index = HashMap::with_capacity(base.len() / BLOCK);
        for start in (0..base.len().saturating_sub(BLOCK - 1)).step_by(BLOCK) {
            index
                .entry(block_hash(&base[start..start + BLOCK]))
                .or_insert(start);
        }
        let mut ops = Operations {
            base,
            new,
            index,
            top: (1..BLOCK).fold(1u64, |power, _| power.wrapping_mul(HASH_BASE)),
            expected: 0,
        };
        write_varint(out, new.len() as u64);
        ops.walk(out);
    }

    /// The walk over `new`: a literal run grows until a match starts, then the match is
    /// written as one copy.
    fn walk(&mut self, out: &mut Vec<u8>) {
        let new = self.new;
        let mut literal_start = 0;
        let mut at = 0;
        let mut hash = None;
        while at < new.len() {
            let in_place = self.expected + (at - literal_start);
            let found = if self.matches_in_place(at, in_place) {
                Some(in_place)
            } else {
                if hash.is_none() && at + BLOCK <= new.len() {
                    hash = Some(block_hash(&new[at..at + BLOCK]));
                }
                hash.and_then(|h| self.block_at(h, at))
            };
            match found {
                Some(start) => {
                    let run = common_prefix(&new[at..], &self.base[start..]);
                    self.literal(out, &new[literal_start..at]);
                    self.copy(out, start, run);
                    at += run;
                    literal_start = at;
                    hash = None;
                }
                None => {
                    // Roll the hash one byte on.
                    if let Some(h) = hash
                        && at + BLOCK < new.len()
                    {
                        let out_byte = u64::from(new[at]).wrapping_mul(self.top);
                        let next = h.wrapping_sub(out_byte).wrapping_mul(HASH_BASE);
                        hash = Some(next.wrapping_add(u64::from(new[at + BLOCK])));
                    } else {
                        hash = None;
                    }
                    at += 1;
                }
            }
        }
        self.literal(out, &new[literal_start..]);
    }

    /// Whether the base continues at `start` as `new` does at `at`, for `MIN_IN_PLACE` bytes.
    fn matches_in_place(&self, at: usize, start: usize) -> bool {
        let (Some(new), Some(base)) = (
            self.new.get(at..at + MIN_IN_PLACE),
            self.base.get(start..start + MIN_IN_PLACE),
        ) else {
            return false;
        };
        new == base
    }

    /// The base block with hash `hash` whose bytes are those of `new` at `at`, if any.
    fn block_at(&self, hash: u64, at: usize) -> Option<usize> {
        let start = *self.index.get(&hash)?;
        (self.base[start..start + BLOCK] == self.new[at..at + BLOCK]).then_some(start)
    }

    /// Writes `bytes` as they are.
    fn literal(&mut self, out: &mut Vec<u8>, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        write_varint(out, (bytes.len() as u64) << 1);
        out.extend_from_slice(bytes);
        self.expected += bytes.len();
    }

    /// Writes a copy of `run` base bytes from `start`.
    fn copy(&mut self, out: &mut Vec<u8>, start: usize, run: usize) {
        write_varint(out, ((run as u64) << 1) | 1);
        write_varint(out, zigzag(start as i64 - self.expected as i64));
        self.expected = start + run;
    }
}

/// The polynomial hash of one block, as the rolling update keeps it.
fn block_hash(block: &[u8]) -> u64 {
    block.iter().fold(0u64, |h, &byte| {
        h.wrapping_mul(HASH_BASE).wrapping_add(u64::from(byte))
    })
}

/// How many leading bytes `a` and `b` share.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// LEB128: seven bits a byte, low first, the high bit set on all but the last.
fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a [`write_varint`] value from the front of `bytes`.
fn read_varint(bytes: &mut &[u8]) -> Result<u64, DeltaError> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = bytes
            .split_first()
            .ok_or(DeltaError::Damaged("truncated operation"))?;
        *bytes = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(DeltaError::Damaged("an overlong number"))
}

/// A signed shift as an unsigned number, small for small shifts either way.
fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// The inverse of [`zigzag`].
fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reproducible byte stream (xorshift).
    fn noise(seed: u64, len: usize) -> Vec<u8> {
        let mut state = seed | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect()
    }

    #[test]
    fn edits_of_every_kind_come_back_exactly() {
        let base = noise(1, 20_000);
        let mut changed = base.clone();
        // A few fields changed in place.
        for at in (100..20_000).step_by(997) {
            changed[at] ^= 0x5a;
        }
        // A run removed and another inserted, shifting everything after them.
        changed.drain(3_000..3_050);
        let inserted = noise(9, 70);
        changed.splice(9_000..9_000, inserted);
        for new in [
            changed,
            Vec::new(),
            base.clone(),
            noise(2, 5_000),
            base[..7].to_vec(),
        ] {
            let delta = encode(&base, &new);
            assert_eq!(decode(&base, &delta, 1 << 20).unwrap(), new);
        }
        // An empty base: all literal.
        let new = noise(3, 1_000);
        assert_eq!(decode(&[], &encode(&[], &new), 1 << 20).unwrap(), new);
    }

    #[test]
    fn small_changes_cost_little_and_moved_runs_are_found() {
        let base = noise(4, 100_000);
        let mut changed = base.clone();
        for at in (0..100_000).step_by(1_000) {
            changed[at] ^= 1;
        }
        // 100 changed bytes: each costs a literal and a copy, a few bytes.
        let delta = encode(&base, &changed);
        assert!(
            delta.len() < 1_500,
            "{} bytes for 100 changed bytes",
            delta.len()
        );
        // The first half moved behind 3 new bytes: found by content, not sent again.
        let mut shifted = vec![7, 7, 7];
        shifted.extend_from_slice(&base[..50_000]);
        let delta = encode(&base, &shifted);
        assert!(delta.len() < 200, "{} bytes for a moved half", delta.len());
        assert_eq!(decode(&base, &delta, 1 << 20).unwrap(), shifted);
    }

    #[test]
    fn another_base_or_damaged_bytes_are_refused() {
        let base = noise(5, 4_000);
        let mut new = base.clone();
        new[10] = 0;
        let delta = encode(&base, &new);
        let mut other = base.clone();
        other[3_999] ^= 1;
        assert_eq!(decode(&other, &delta, 1 << 20), Err(DeltaError::WrongBase));
        for cut in [0, 5, 13, delta.len() / 2, delta.len() - 1] {
            assert!(
                decode(&base, &delta[..cut], 1 << 20).is_err(),
                "cut at {cut}"
            );
        }
        let mut flipped = delta.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0x10;
        assert!(decode(&base, &flipped, 1 << 20).is_err());
        assert!(matches!(
            decode(&base, &delta, 100),
            Err(DeltaError::Damaged(_))
        ));
    }

    #[test]
    fn operations_that_reach_outside_the_base_are_refused_not_followed() {
        let base = noise(6, 64);
        // Hand-written operations: a copy of 32 bytes from offset 48 of a 64-byte base.
        let mut content = checksum(&base).to_le_bytes().to_vec();
        write_varint(&mut content, 32);
        write_varint(&mut content, (32 << 1) | 1);
        write_varint(&mut content, zigzag(48));
        let delta = frame(MAGIC, FORMAT_VERSION, &content, DEFLATE_LEVEL);
        assert!(matches!(
            decode(&base, &delta, 1 << 20),
            Err(DeltaError::Damaged(_))
        ));
        // A literal longer than the announced length.
        let mut content = checksum(&base).to_le_bytes().to_vec();
        write_varint(&mut content, 2);
        write_varint(&mut content, 4 << 1);
        content.extend([1, 2, 3, 4]);
        let delta = frame(MAGIC, FORMAT_VERSION, &content, DEFLATE_LEVEL);
        assert!(decode(&base, &delta, 1 << 20).is_err());
    }
}
