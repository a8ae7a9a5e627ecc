//! The one place that shares mutable arrays between workers.
//!
//! Stage blocks write disjoint parts of the solver arrays: a range of bodies, a range of
//! constraints, or the bodies of one colour's constraints, which are disjoint by the
//! colouring. Rust cannot see that disjointness through indices, so the arrays are handed to
//! the workers as [`SharedMut`] and each block asks for its part with an `unsafe` call whose
//! contract is exactly that disjointness. Everything the blocks do with their parts is safe
//! code.
#![allow(unsafe_code)]

use crate::solver::body_state::{BodyState, STATIC_BODY};
#[cfg(target_arch = "x86_64")]
use crate::solver::wide_contacts::avx8::F32x8;
use std::marker::PhantomData;
use std::ops::Range;
use wide::f32x4;

// `StatesView` relies on the static index never being a valid one, and reads a state as two
// aligned rows of four floats: velocity, angular velocity, padding; then delta position and
// delta rotation.
const _: () = assert!(STATIC_BODY == u32::MAX);
const _: () = {
    assert!(std::mem::size_of::<BodyState>() == 32);
    assert!(std::mem::align_of::<BodyState>() == 32);
    assert!(std::mem::offset_of!(BodyState, angular_velocity) == 8);
    assert!(std::mem::offset_of!(BodyState, padding) == 12);
    assert!(std::mem::offset_of!(BodyState, delta_position) == 16);
    assert!(std::mem::offset_of!(BodyState, delta_rotation) == 24);
};

/// A mutable slice that several workers may hold at once. Reading or writing through it is
/// `unsafe`: the caller promises no two workers touch the same element during a stage.
pub(crate) struct SharedMut<'a, T> {
    ptr: *mut T,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: a `SharedMut` is a `&mut [T]` split among workers; moving `T`s between threads
// needs `T: Send`, and the accessors' contracts rule out two workers on one element.
unsafe impl<T: Send> Send for SharedMut<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for SharedMut<'_, T> {}

impl<'a, T> SharedMut<'a, T> {
    /// Shares `slice` for as long as it is borrowed.
    pub fn new(slice: &'a mut [T]) -> SharedMut<'a, T> {
        SharedMut {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            _borrow: PhantomData,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The elements `range`.
    ///
    /// # Safety
    /// While the returned slice lives, no other worker may access these elements (through
    /// any accessor of this `SharedMut`).
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn range(&self, range: Range<usize>) -> &mut [T] {
        assert!(range.start <= range.end && range.end <= self.len);
        // SAFETY: in bounds (checked above); exclusive by the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
    }

    /// The elements `range` of one block of a stage whose blocks cover disjoint ranges.
    /// Only `for_each_block` calls this, with ranges from `block_range`.
    #[allow(clippy::mut_from_ref)]
    pub(super) fn disjoint_range(&self, range: Range<usize>) -> &mut [T] {
        // SAFETY: `for_each_block` hands each block index to exactly one call, and the
        // ranges of distinct blocks do not overlap (`block_range`).
        unsafe { self.range(range) }
    }

    /// Every element.
    ///
    /// # Safety
    /// Only from a stage that runs as a single block, so no other worker is inside the stage.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn all(&self) -> &mut [T] {
        // SAFETY: forwarded to the caller.
        unsafe { self.range(0..self.len) }
    }

    /// Every element, read-only.
    ///
    /// # Safety
    /// No worker writes any element during the stage.
    pub unsafe fn all_shared(&self) -> &[T] {
        // SAFETY: in bounds by construction; nobody writes by the caller's promise.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// Asks the cache for the first `bytes` bytes of element `index` (`crate::prefetch`);
    /// nothing if out of range. Safe while other workers hold the element: no reference to
    /// it is formed, nothing is read.
    #[inline(always)]
    pub fn prefetch_bytes(&self, index: usize, bytes: usize) {
        if index < self.len {
            let at = self.ptr.wrapping_add(index).cast_const();
            crate::prefetch::prefetch_bytes(at, bytes);
        }
    }

    /// Asks the cache for bytes `offset..offset + bytes` of element `index` (the part of a
    /// large record a loop touches, `crate::prefetch`); nothing if out of range. Safe while
    /// other workers hold the element, as [`SharedMut::prefetch_bytes`].
    #[inline(always)]
    pub fn prefetch_range(&self, index: usize, offset: usize, bytes: usize) {
        if index < self.len {
            let at = self
                .ptr
                .wrapping_add(index)
                .cast::<u8>()
                .wrapping_add(offset);
            crate::prefetch::prefetch_span(at.cast_const(), bytes);
        }
    }

    /// Element `index`.
    ///
    /// # Safety
    /// While the returned reference lives, no other worker may access this element.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn get(&self, index: usize) -> &mut T {
        assert!(index < self.len);
        // SAFETY: in bounds (checked above); exclusive by the caller's promise.
        unsafe { &mut *self.ptr.add(index) }
    }

    /// Element `index`, read-only: other workers may meanwhile hold other elements, where
    /// a read through a shared `&[T]` would claim them all.
    ///
    /// # Safety
    /// While the returned reference lives, no worker may write this element.
    pub unsafe fn get_shared(&self, index: usize) -> &T {
        assert!(index < self.len);
        // SAFETY: in bounds (checked above); nobody writes it by the caller's promise.
        unsafe { &*self.ptr.add(index) }
    }
}

/// The body states as one worker sees them while it solves constraints of one colour:
/// read a body, write its velocity. The static index reads as a body at rest and ignores
/// writes.
pub(crate) struct StatesView<'a> {
    ptr: *mut BodyState,
    len: usize,
    _borrow: PhantomData<&'a mut [BodyState]>,
}

impl<'a> StatesView<'a> {
    /// A view of states this thread borrows exclusively.
    #[cfg(test)]
    pub fn new(states: &'a mut [BodyState]) -> StatesView<'a> {
        StatesView {
            ptr: states.as_mut_ptr(),
            len: states.len(),
            _borrow: PhantomData,
        }
    }

    /// A view of shared states for one block of a colour stage.
    ///
    /// # Safety
    /// During the stage, the bodies this view reads or writes are touched by no other
    /// worker: the block's constraints belong to one colour (no two constraints of a colour
    /// move the same body) and nothing else runs in a colour stage.
    pub unsafe fn shared(states: &SharedMut<'a, BodyState>) -> StatesView<'a> {
        StatesView {
            ptr: states.ptr,
            len: states.len,
            _borrow: PhantomData,
        }
    }

    /// Where body `index` is read from: its state, or the at-rest constant for the static
    /// index (so would an index past the end, which the solver never builds: debug builds
    /// assert it).
    ///
    /// Branch-free: the address is chosen with a conditional move and loaded after, so a
    /// group whose lanes mix moving and fixed bodies costs no mispredicted branch.
    #[inline(always)]
    fn source(&self, index: u32) -> *const BodyState {
        debug_assert!(index == STATIC_BODY || (index as usize) < self.len);
        // `STATIC_BODY` is `u32::MAX`, never below `len`: one comparison covers both cases.
        if (index as usize) < self.len {
            // SAFETY: in bounds.
            unsafe { self.ptr.add(index as usize) as *const BodyState }
        } else {
            &BodyState::AT_REST
        }
    }

    /// The state of body `index` as its two rows of four floats, the velocity half
    /// (vx, vy, w, padding) and the motion half (dpx, dpy, qc, qs): two aligned loads. The
    /// static index reads as a body at rest. (The four-lane contact path's; the eight-lane path
    /// reads whole rows of eight.)
    #[inline(always)]
    pub fn read_rows(&self, index: u32) -> [f32x4; 2] {
        // SAFETY: `source` is in bounds or the constant, and `BodyState` is exactly two
        // aligned rows of four floats (asserted above); no other worker writes this body (see
        // `shared`), and this view hands out no references, so the copy cannot alias a live
        // `&mut`.
        unsafe { self.source(index).cast::<[f32x4; 2]>().read() }
    }

    /// The state of body `index` as one row of eight floats, the velocity half then the
    /// motion half (the eight-lane contact path's): one load.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn read_row8(&self, index: u32) -> F32x8 {
        // SAFETY: as in `read_rows`; `BodyState` is one 32-byte aligned row of eight floats
        // (asserted above), as is the at-rest constant, and so is an `F32x8`.
        unsafe { self.source(index).cast::<F32x8>().read() }
    }

    /// Sets the velocity half (vx, vy, w, padding) of body `index` with one aligned store;
    /// writes to the static index (or past the end) go nowhere.
    #[inline(always)]
    pub fn write_velocity_row(&mut self, index: u32, row: f32x4) {
        debug_assert!(index == STATIC_BODY || (index as usize) < self.len);
        if (index as usize) < self.len {
            // SAFETY: in bounds, and the velocity half is the state's first aligned row; as
            // in `read_rows`, no other worker touches this body.
            unsafe { self.ptr.add(index as usize).cast::<f32x4>().write(row) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy_math::Vec2;

    /// The row accessors: a real index reads and writes its own state, the static index
    /// reads as a body at rest and its writes change no state.
    #[test]
    fn states_view_reads_static_at_rest_and_drops_its_writes() {
        let moving = BodyState {
            linear_velocity: Vec2::new(1.0, 2.0),
            angular_velocity: 3.0,
            padding: 0.0,
            delta_position: Vec2::new(0.5, -0.5),
            delta_rotation: crate::math::Rot { c: 0.6, s: 0.8 },
        };
        let mut states = vec![moving; 3];
        let mut view = StatesView::new(&mut states);
        let rows = |r: [f32x4; 2]| (r[0].to_array(), r[1].to_array());
        assert_eq!(
            rows(view.read_rows(1)),
            ([1.0, 2.0, 3.0, 0.0], [0.5, -0.5, 0.6, 0.8])
        );
        let at_rest = ([0.0; 4], [0.0, 0.0, 1.0, 0.0]);
        assert_eq!(rows(view.read_rows(STATIC_BODY)), at_rest);
        view.write_velocity_row(2, f32x4::new([-4.0, 5.0, -6.0, 0.0]));
        view.write_velocity_row(STATIC_BODY, f32x4::splat(7.0));
        assert_eq!(rows(view.read_rows(STATIC_BODY)), at_rest);
        assert_eq!(
            states[2],
            BodyState {
                linear_velocity: Vec2::new(-4.0, 5.0),
                angular_velocity: -6.0,
                ..moving
            }
        );
        assert_eq!(states[0], moving);
        assert_eq!(states[1], moving);
    }
}
