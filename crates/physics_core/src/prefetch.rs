//! Asking the cache for a record a few iterations before a loop reads it.
//!
//! The solver's preparing and storing stages read the touching contacts' records in an order
//! the hardware prefetcher does not foresee: storing walks them in slot order, but the slots
//! hold the apart contacts too, so the stride changes from one record to the next; preparing
//! walks them lane by lane, colour by colour, skipping the other colours' contacts.
//! Naming the record some iterations ahead lets those misses overlap the work on the records
//! in between. Storing names every record (only the line or two of its impulses), even one
//! that follows the last in memory: left to the hardware prefetcher, the pyramids' storing
//! waited on those records' lines (it took about a quarter longer). A prefetch is only a
//! hint: it never faults, and on targets without one it does nothing.

// The one intrinsic call: a hint that cannot fault (see the SAFETY comment below).
#![allow(unsafe_code)]

/// How many iterations ahead a loop asks for its records: enough to cover a miss to memory
/// (a few hundred cycles) with the tens of cycles each iteration takes.
pub(crate) const PREFETCH_DISTANCE: usize = 6;

/// Brings the cache lines of the first `bytes` bytes of the `T` at `value` towards the core,
/// for reading or writing soon: the part of a large record the loop touches (lines it never
/// reads would only hold the core's few slots for outstanding misses, which the prefetches
/// of the next records need). Takes an address, not a reference: the record may be another
/// worker's to write at the time, and nothing is read from it.
#[inline(always)]
pub(crate) fn prefetch_bytes<T>(value: *const T, bytes: usize) {
    prefetch_span(value.cast::<u8>(), bytes.min(std::mem::size_of::<T>()));
}

/// Brings the cache lines of the `bytes` bytes from `start` towards the core (see
/// [`prefetch_bytes`]).
#[inline(always)]
pub(crate) fn prefetch_span(start: *const u8, size: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let start = start.cast::<i8>();
        // Every 64-byte line from the first byte to the last (a record need not start on a
        // line, so its last byte may lie one line further than its size suggests).
        let lines = (0..size).step_by(64).chain((size > 0).then(|| size - 1));
        for offset in lines {
            // SAFETY: a prefetch never reads memory architecturally and never faults,
            // whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (start, size);
}
