//! Eight f32 lanes in one AVX register: the `Lanes` of the eight-lane contact path.
//!
//! It offers the methods the kernel uses of `wide::f32x4`, each the same operation per lane
//! as `wide` performs on SSE2 (so both widths give the same bits): IEEE add, subtract,
//! multiply and divide; negation by flipping the sign bit; `fast_max` and `fast_min` as
//! `maxps` and `minps` with the same operand order; ordered comparisons that are false for
//! NaN; selection by mask.
//!
//! `wide::f32x8` cannot serve here: `wide` picks its implementation when it is compiled, and
//! a default build compiles it without AVX (as two halves of four). This type calls the AVX
//! intrinsics directly, in `#[inline(always)]` methods that are inlined into the eight-lane
//! entry points, which are compiled with AVX2 enabled (`eight.rs`).
//!
//! Invariant: arithmetic on an [`F32x8`] runs only inside those entry points, which are only
//! entered on a processor with AVX2. Creating one, reading or writing its lanes in memory
//! ([`F32x8::as_array`], [`F32x8::as_mut_array`], `Default`) uses no AVX instruction and is
//! fine anywhere.
#![allow(unsafe_code)]

use std::arch::x86_64::*;
use std::ops::{Add, AddAssign, BitAnd, BitOr, Div, Mul, Neg, Not, Sub, SubAssign};

/// Eight f32 lanes in one AVX register; a mask is a lane of all ones or all zeros.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct F32x8(__m256);

// An F32x8 is eight floats in 32 aligned bytes: the same memory as a `[f32; 8]` aligned to
// 32, and as a body state's row (`parallel/shared.rs` reads one straight into a register).
const _: () = {
    assert!(std::mem::size_of::<F32x8>() == 32);
    assert!(std::mem::align_of::<F32x8>() == 32);
};

impl Default for F32x8 {
    /// All lanes +0.0, written as memory (no AVX instruction).
    #[inline(always)]
    fn default() -> Self {
        F32x8::from_array([0.0; 8])
    }
}

impl F32x8 {
    /// The lanes `values`, through memory (no AVX instruction).
    #[inline(always)]
    pub fn from_array(values: [f32; 8]) -> Self {
        // SAFETY: `__m256` is 32 bytes of eight f32 lanes; any bits are a valid value.
        F32x8(unsafe { std::mem::transmute::<[f32; 8], __m256>(values) })
    }

    /// The lanes as an array (a view of the same memory).
    #[inline(always)]
    pub fn as_array(&self) -> &[f32; 8] {
        // SAFETY: same size, and the array's alignment (4) is below the register's (32).
        unsafe { &*(self as *const F32x8).cast::<[f32; 8]>() }
    }

    /// The lanes as a mutable array (a view of the same memory).
    #[inline(always)]
    pub fn as_mut_array(&mut self) -> &mut [f32; 8] {
        // SAFETY: as in `as_array`; every bit pattern is a valid f32 and a valid register.
        unsafe { &mut *(self as *mut F32x8).cast::<[f32; 8]>() }
    }

    /// Every lane `value`.
    #[inline(always)]
    pub fn splat(value: f32) -> Self {
        // SAFETY (this and every intrinsic call below): reached only inside the AVX2 entry
        // points (the module's invariant).
        F32x8(unsafe { _mm256_set1_ps(value) })
    }

    /// Lane by lane `self > rhs`, false for NaN (`wide`'s `simd_gt`).
    #[inline(always)]
    pub fn simd_gt(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_cmp_ps::<_CMP_GT_OQ>(self.0, rhs.0) })
    }

    /// Lane by lane `self >= rhs`, false for NaN.
    #[inline(always)]
    pub fn simd_ge(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_cmp_ps::<_CMP_GE_OQ>(self.0, rhs.0) })
    }

    /// Lane by lane `self < rhs`, false for NaN.
    #[inline(always)]
    pub fn simd_lt(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, rhs.0) })
    }

    /// Lane by lane `self <= rhs`, false for NaN.
    #[inline(always)]
    pub fn simd_le(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_cmp_ps::<_CMP_LE_OQ>(self.0, rhs.0) })
    }

    /// `if_true` in the lanes where the mask `self` is set, `if_false` elsewhere.
    #[inline(always)]
    pub fn select(self, if_true: Self, if_false: Self) -> Self {
        F32x8(unsafe { _mm256_blendv_ps(if_false.0, if_true.0, self.0) })
    }

    /// `maxps`: `rhs` where either lane is NaN or both are zeros (`wide`'s `fast_max`).
    #[inline(always)]
    pub fn fast_max(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_max_ps(self.0, rhs.0) })
    }

    /// `minps`: `rhs` where either lane is NaN or both are zeros (`wide`'s `fast_min`).
    #[inline(always)]
    pub fn fast_min(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_min_ps(self.0, rhs.0) })
    }

    /// Whether any lane of the mask is set (its sign bit).
    #[inline(always)]
    pub fn any(self) -> bool {
        unsafe { _mm256_movemask_ps(self.0) != 0 }
    }

    /// Whether every lane of the mask is set.
    #[inline(always)]
    pub fn all(self) -> bool {
        unsafe { _mm256_movemask_ps(self.0) == 0xff }
    }

    /// Rows to columns: lane `j` of result `i` is lane `i` of `rows[j]`.
    #[inline(always)]
    pub fn transpose(rows: [Self; 8]) -> [Self; 8] {
        // Written out, no `map`: every step must inline into the AVX2 entry points.
        let [r0, r1, r2, r3, r4, r5, r6, r7] = rows;
        let r = [r0.0, r1.0, r2.0, r3.0, r4.0, r5.0, r6.0, r7.0];
        unsafe {
            // Pairs of rows interleaved, within each 128-bit half.
            let t0 = _mm256_unpacklo_ps(r[0], r[1]);
            let t1 = _mm256_unpackhi_ps(r[0], r[1]);
            let t2 = _mm256_unpacklo_ps(r[2], r[3]);
            let t3 = _mm256_unpackhi_ps(r[2], r[3]);
            let t4 = _mm256_unpacklo_ps(r[4], r[5]);
            let t5 = _mm256_unpackhi_ps(r[4], r[5]);
            let t6 = _mm256_unpacklo_ps(r[6], r[7]);
            let t7 = _mm256_unpackhi_ps(r[6], r[7]);
            // Four rows' lanes k and k + 4 side by side.
            let s0 = _mm256_shuffle_ps::<0x44>(t0, t2);
            let s1 = _mm256_shuffle_ps::<0xee>(t0, t2);
            let s2 = _mm256_shuffle_ps::<0x44>(t1, t3);
            let s3 = _mm256_shuffle_ps::<0xee>(t1, t3);
            let s4 = _mm256_shuffle_ps::<0x44>(t4, t6);
            let s5 = _mm256_shuffle_ps::<0xee>(t4, t6);
            let s6 = _mm256_shuffle_ps::<0x44>(t5, t7);
            let s7 = _mm256_shuffle_ps::<0xee>(t5, t7);
            // Low halves give columns 0 to 3, high halves columns 4 to 7.
            [
                F32x8(_mm256_permute2f128_ps::<0x20>(s0, s4)),
                F32x8(_mm256_permute2f128_ps::<0x20>(s1, s5)),
                F32x8(_mm256_permute2f128_ps::<0x20>(s2, s6)),
                F32x8(_mm256_permute2f128_ps::<0x20>(s3, s7)),
                F32x8(_mm256_permute2f128_ps::<0x31>(s0, s4)),
                F32x8(_mm256_permute2f128_ps::<0x31>(s1, s5)),
                F32x8(_mm256_permute2f128_ps::<0x31>(s2, s6)),
                F32x8(_mm256_permute2f128_ps::<0x31>(s3, s7)),
            ]
        }
    }

    /// Four columns to eight rows of four: row `j` holds lane `j` of each column, as four
    /// floats (the velocity half of a body state).
    #[inline(always)]
    pub fn columns_to_rows_of_four(columns: [Self; 4]) -> [wide::f32x4; 8] {
        let [c0, c1, c2, c3] = columns;
        unsafe {
            let t0 = _mm256_unpacklo_ps(c0.0, c1.0);
            let t1 = _mm256_unpackhi_ps(c0.0, c1.0);
            let t2 = _mm256_unpacklo_ps(c2.0, c3.0);
            let t3 = _mm256_unpackhi_ps(c2.0, c3.0);
            // Rows j (low half) and j + 4 (high half).
            let p0 = _mm256_shuffle_ps::<0x44>(t0, t2);
            let p1 = _mm256_shuffle_ps::<0xee>(t0, t2);
            let p2 = _mm256_shuffle_ps::<0x44>(t1, t3);
            let p3 = _mm256_shuffle_ps::<0xee>(t1, t3);
            [
                row(_mm256_castps256_ps128(p0)),
                row(_mm256_castps256_ps128(p1)),
                row(_mm256_castps256_ps128(p2)),
                row(_mm256_castps256_ps128(p3)),
                row(_mm256_extractf128_ps::<1>(p0)),
                row(_mm256_extractf128_ps::<1>(p1)),
                row(_mm256_extractf128_ps::<1>(p2)),
                row(_mm256_extractf128_ps::<1>(p3)),
            ]
        }
    }
}

/// A 128-bit half as `wide`'s four lanes (no instruction: the same register).
#[inline(always)]
fn row(half: __m128) -> wide::f32x4 {
    // SAFETY: `wide::f32x4` is an SSE register of four f32, as `__m128` is.
    unsafe { std::mem::transmute::<__m128, wide::f32x4>(half) }
}

impl Add for F32x8 {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_add_ps(self.0, rhs.0) })
    }
}

impl Sub for F32x8 {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_sub_ps(self.0, rhs.0) })
    }
}

impl Mul for F32x8 {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_mul_ps(self.0, rhs.0) })
    }
}

impl Div for F32x8 {
    type Output = Self;
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_div_ps(self.0, rhs.0) })
    }
}

impl Neg for F32x8 {
    type Output = Self;
    /// The sign bit flipped (as `wide` negates: -(+0.0) is -0.0).
    #[inline(always)]
    fn neg(self) -> Self {
        F32x8(unsafe { _mm256_xor_ps(self.0, _mm256_set1_ps(-0.0)) })
    }
}

impl Not for F32x8 {
    type Output = Self;
    /// Every bit flipped: a mask's complement.
    #[inline(always)]
    fn not(self) -> Self {
        unsafe {
            let ones = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
            F32x8(_mm256_xor_ps(self.0, ones))
        }
    }
}

impl BitAnd for F32x8 {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_and_ps(self.0, rhs.0) })
    }
}

impl BitOr for F32x8 {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, rhs: Self) -> Self {
        F32x8(unsafe { _mm256_or_ps(self.0, rhs.0) })
    }
}

impl AddAssign for F32x8 {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl SubAssign for F32x8 {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}
