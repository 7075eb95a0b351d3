//! The process's allocator: mimalloc, set to give freed memory back to the system at once.
//!
//! Shaping parses every value it reads into small allocations, and mimalloc serves them in
//! fewer instructions than the system allocator: the gateway's CPU per shaped page of 20
//! issues fell by about a quarter (BENCHMARKS.md, "The allocator"). With its defaults it
//! also keeps what is freed for a second and commits its arenas eagerly, which raised the
//! gateway's memory at rest by 8 MiB and after 1,000 calls by 70 MiB. Purging at once and
//! committing on demand keeps the speed and brings memory below the system allocator's.
//!
//! This is the one place in the workspace with `unsafe` code: two calls into mimalloc's C
//! library, made before any other thread exists.

#![allow(unsafe_code)]

use libmimalloc_sys::{mi_option_set, mi_option_t};

/// The global allocator of the binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_arena_eager_commit` in mimalloc 3's `mi_option_e` (not exported as a constant
/// by the sys crate; `tests/allocator.rs` checks it by the name the library prints).
const ARENA_EAGER_COMMIT: mi_option_t = 4;
/// `mi_option_purge_delay` (milliseconds before freed memory is given back).
const PURGE_DELAY: mi_option_t = 15;

/// Give freed memory back at once and commit arena memory only when it is used.
///
/// The allocator makes its first arena at the process's first allocation, before `main`
/// (the runtime allocates while it starts), so on ELF systems this runs as a load-time
/// constructor, before any Rust code. Elsewhere `main` calls it first thing: the purge delay
/// still applies, and arenas made later are committed on demand.
extern "C" fn return_freed_memory_promptly() {
    // SAFETY: `mi_option_set` is not thread-safe; it runs before any other thread is
    // started (at load time, or first in `main`). Both options take any integer, and the
    // constants name options that exist in the linked library (checked by
    // `tests/allocator.rs`, which reads the options' names and values as the library
    // prints them).
    unsafe {
        mi_option_set(ARENA_EAGER_COMMIT, 0);
        mi_option_set(PURGE_DELAY, 0);
    }
}

/// Runs [`return_freed_memory_promptly`] when the binary is loaded.
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
#[used]
#[unsafe(link_section = ".init_array")]
static SET_AT_LOAD: extern "C" fn() = return_freed_memory_promptly;

/// Where no load-time constructor is set up, `main` sets the options.
pub(crate) fn set_up() {
    #[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
    return_freed_memory_promptly();
}
