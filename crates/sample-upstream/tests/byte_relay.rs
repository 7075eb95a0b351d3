//! The byte relay passes bytes both ways unchanged and ends when its client does.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

#[test]
fn the_relay_copies_both_ways_and_ends_with_its_client() {
    let mut relay = Command::new(env!("CARGO_BIN_EXE_toolshape-byte-relay"))
        .arg("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the relay starts");
    let message: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    let mut input = relay.stdin.take().expect("piped stdin");
    let sent = message.clone();
    // Written from a thread: the pipes hold less than the message, so reading must go on meanwhile.
    let writer = std::thread::spawn(move || {
        input.write_all(&sent).expect("the relay reads");
        // Dropping stdin closes it: `cat` ends, then the relay.
    });
    let mut echoed = Vec::new();
    relay.stdout.take().expect("piped stdout").read_to_end(&mut echoed).expect("the relay writes");
    writer.join().expect("writer thread");
    assert_eq!(echoed.len(), message.len());
    assert!(echoed == message, "the bytes came back changed");
    assert!(relay.wait().expect("the relay exits").success());
}

#[test]
fn a_missing_command_is_a_clear_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_toolshape-byte-relay"))
        .arg("no-such-command-anywhere")
        .output()
        .expect("the relay runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start no-such-command-anywhere"));
}
