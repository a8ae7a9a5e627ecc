//! Reading bounded engine inputs out of fuzz bytes.

use arbitrary::Unstructured;
use physics_core::Vec2;

/// The largest coordinate the checks feed the engine, in metres. Games stay far inside it;
/// beyond about 1e5 m an f32 cannot resolve the engine's 5 mm slop, and the checks assert
/// properties (unit normals, convexity) that need that resolution.
pub const COORDINATE_LIMIT: f32 = 1.0e4;

/// The largest size of one shape, in metres.
pub const SIZE_LIMIT: f32 = 1.0e3;

/// A float in `[-limit, limit]` from the bytes. Seven times in eight it is spread evenly over
/// the range (16 bits of resolution); otherwise it is a raw float, kept when it is finite and
/// within the limit (so tiny values, subnormals and signed zeros get through) and clamped
/// when not (NaN becomes 0). Running out of bytes gives 0.
pub fn bounded(u: &mut Unstructured, limit: f32) -> f32 {
    let bits: u16 = u.arbitrary().unwrap_or(0x8000);
    if bits & 7 != 0 {
        return limit * ((bits >> 3) as f32 / 4095.5 - 1.0).clamp(-1.0, 1.0);
    }
    let x: f32 = u.arbitrary().unwrap_or(0.0);
    if x.is_nan() {
        0.0
    } else {
        x.clamp(-limit, limit)
    }
}

/// A float in `[0, limit]`, as [`bounded`].
pub fn magnitude(u: &mut Unstructured, limit: f32) -> f32 {
    bounded(u, limit).abs()
}

/// A point with both coordinates bounded by `limit`.
pub fn point(u: &mut Unstructured, limit: f32) -> Vec2 {
    Vec2::new(bounded(u, limit), bounded(u, limit))
}

/// A float that may be anything at all, NaN and infinities included, for inputs the engine
/// must refuse rather than clamp.
pub fn raw(u: &mut Unstructured) -> f32 {
    u.arbitrary().unwrap_or(0.0)
}

/// A small count in `0..=max`.
pub fn count(u: &mut Unstructured, max: usize) -> usize {
    u.int_in_range(0..=max).unwrap_or(0)
}

/// Panics unless `v` is finite.
pub fn assert_finite(v: Vec2, what: &str) {
    assert!(v.is_finite(), "{what} is not finite: {v:?}");
}

/// Panics unless `n` has unit length within `tolerance`.
pub fn assert_unit(n: Vec2, tolerance: f32, what: &str) {
    let length = n.length();
    assert!(
        (length - 1.0).abs() <= tolerance,
        "{what} is not unit length: {n:?} (length {length})"
    );
}
