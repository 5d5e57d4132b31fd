//! The global allocator of the `shaderlab` command and the benchmarks (feature `mimalloc`): mimalloc, called
//! through its plain entry points whenever the layout allows.
//!
//! The compiler makes many small, short-lived allocations, which mimalloc serves markedly faster than the system
//! allocator (docs/performance.md). The `mimalloc` crate's own `GlobalAlloc` sends every request through
//! `mi_malloc_aligned`, whose generic path costs several times `mi_malloc`'s fast path; almost every Rust layout
//! asks for an alignment of at most 8, which every mimalloc block has, so those go to the plain functions.
//! Library users choose their own allocator; nothing in the compiler depends on this one.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// Every mimalloc block is aligned to at least a machine word.
const PLAIN_ALIGN: usize = std::mem::size_of::<usize>();

/// mimalloc behind `#[global_allocator]`.
pub struct MiAlloc;

// SAFETY: each function forwards to the mimalloc function with the same contract. The plain (unaligned)
// functions are used only when the requested alignment is at most a machine word, which mimalloc guarantees for
// every block; larger alignments take the aligned functions. `mi_free` accepts blocks from either family.
unsafe impl GlobalAlloc for MiAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGN {
            unsafe { mi::mi_malloc(layout.size()) as *mut u8 }
        } else {
            unsafe { mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8 }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGN {
            unsafe { mi::mi_zalloc(layout.size()) as *mut u8 }
        } else {
            unsafe { mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8 }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGN {
            unsafe { mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8 }
        } else {
            unsafe { mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8 }
        }
    }
}
