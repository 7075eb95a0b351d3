//! The command line as a person uses it: piped into a reader that stops early.

use std::io::Read as _;
use std::process::{Command, Stdio};

/// Regression: `zero-config --raw NAME | head` ended with "Error: Broken pipe" and a
/// backtrace once `head` had read what it wanted.
#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zero-config"))
        .args(["--raw", "github_issues"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = [0u8; 64];
    child.stdout.as_mut().expect("piped").read_exact(&mut first).expect("some output");
    // The raw result is far larger than a pipe holds: closing it makes the writer fail.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("it ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "status {:?}: {stderr}", out.status);
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
}
