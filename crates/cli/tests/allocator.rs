//! The allocator's options are in force from the start: mimalloc, asked to be verbose,
//! prints every option by name with its value when it starts, which shows both that the
//! option numbers in `src/allocator.rs` name the options meant and that the values are set
//! before the allocator's first arena is made.

#![cfg(feature = "mimalloc")]

use assert_cmd::Command;

#[test]
fn freed_memory_is_returned_at_once_and_arenas_are_committed_on_demand() {
    let out = Command::cargo_bin("toolshape")
        .expect("the binary is built")
        .arg("--version")
        .env("MIMALLOC_VERBOSE", "1")
        .output()
        .expect("the binary runs");
    assert!(out.status.success());
    let printed = String::from_utf8_lossy(&out.stderr);
    for line in ["option 'arena_eager_commit': 0", "option 'purge_delay': 0"] {
        assert!(printed.lines().any(|l| l.trim_end() == line), "`{line}` not among what mimalloc printed:\n{printed}");
    }
}
