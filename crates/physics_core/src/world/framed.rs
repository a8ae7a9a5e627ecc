//! The framing that snapshots and recordings share: a 4-byte tag, a version byte and an
//! 8-byte checksum of the deflated bytes, then the encoded content deflated.
//!
//! The version byte's high bit says which build wrote the bytes: set by the `large-world`
//! build, whose positions are doubles, clear by the float build. The two layouts cannot be
//! read as each other, so bytes from the other build are refused by name.

/// The version byte's bit marking bytes written by the `large-world` build.
const LARGE_WORLD_BIT: u8 = 0x80;

/// This build's mark in the version byte.
const PRECISION_MARK: u8 = if crate::position::LARGE_WORLD {
    LARGE_WORLD_BIT
} else {
    0
};

use super::snapshot::checksum;

/// `encoded` deflated at `level`, behind `tag`, `version` and the checksum.
pub(in crate::world) fn frame(tag: &[u8; 4], version: u8, encoded: &[u8], level: u8) -> Vec<u8> {
    let deflated = miniz_oxide::deflate::compress_to_vec(encoded, level);
    let mut bytes = tag.to_vec();
    bytes.push(version | PRECISION_MARK);
    bytes.extend(checksum(&deflated).to_le_bytes());
    bytes.extend(deflated);
    bytes
}

/// The encoded content of `bytes` framed by [`frame`] with `tag` and `version`, inflated to
/// at most `limit` bytes; or why not (a missing tag or version, another version, a checksum
/// that does not match, a damaged deflate stream).
pub(in crate::world) fn unframe(
    bytes: &[u8],
    tag: &[u8; 4],
    version: u8,
    limit: usize,
) -> Result<Vec<u8>, &'static str> {
    let body = bytes.strip_prefix(tag.as_slice()).ok_or("missing tag")?;
    let (&found, body) = body.split_first().ok_or("no version")?;
    if found == version | (PRECISION_MARK ^ LARGE_WORLD_BIT) {
        return Err(if crate::position::LARGE_WORLD {
            "written by the float build (this build has the large-world feature)"
        } else {
            "written by the large-world build (this build has float positions)"
        });
    }
    if found != version | PRECISION_MARK {
        return Err("written by another format version");
    }
    let (sum, deflated) = body.split_first_chunk::<8>().ok_or("no checksum")?;
    if u64::from_le_bytes(*sum) != checksum(deflated) {
        return Err("checksum mismatch (damaged bytes)");
    }
    miniz_oxide::inflate::decompress_to_vec_with_limit(deflated, limit)
        .map_err(|_| "damaged deflate stream or too large")
}
