//! What the two byte checks share: the engine's framing of snapshots and recordings (a 4-byte
//! tag, a version byte, an 8-byte FNV-1a checksum, then the deflated content), opened and
//! closed again around an altered content, so only decoding and validation stand in the way.

use crate::input::count;
use arbitrary::Unstructured;

/// Tag (4), version (1), checksum (8), then the deflated content.
const HEADER: usize = 13;

/// The inflated content of `framed` (the engine's own bytes, so they inflate).
pub fn content(framed: &[u8]) -> Vec<u8> {
    miniz_oxide::inflate::decompress_to_vec(&framed[HEADER..])
        .expect("the engine's own bytes inflate")
}

/// FNV-1a, as the engine puts it ahead of the deflated content.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `content` with up to 8 bytes changed (positions and values from `u`), deflated again
/// behind `framed`'s tag and version with the checksum made to match.
pub fn altered(framed: &[u8], content: &[u8], u: &mut Unstructured) -> Vec<u8> {
    let mut content = content.to_vec();
    let len = content.len();
    for _ in 0..1 + count(u, 7) {
        let at: u16 = u.arbitrary().unwrap_or(0);
        let flip: u8 = u.arbitrary().unwrap_or(1);
        content[at as usize % len] ^= flip;
    }
    let deflated = miniz_oxide::deflate::compress_to_vec(&content, 1);
    let mut bytes = framed[..HEADER].to_vec();
    bytes[5..13].copy_from_slice(&fnv1a(&deflated).to_le_bytes());
    bytes.extend(deflated);
    bytes
}
