//! `toolshape-byte-relay CMD [ARGS…]`: start `CMD` and copy bytes between this process's
//! standard streams and the child's, unchanged, as soon as they arrive.
//!
//! It is the floor of any stdio gateway: one more process between the client and the server,
//! doing no parsing and no work at all. `bench/overhead.py` measures it next to toolshape, so
//! the cost of the extra hop itself (two more pipe writes and two more process wake-ups per
//! call) can be told apart from what toolshape does with a call. Not part of the product.

use std::io::{Read, Write};
use std::process::{Command, ExitCode, Stdio};

/// Copy `from` to `to` until `from` ends, flushing every read at once.
fn pump(mut from: impl Read, mut to: impl Write) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match from.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                if to.write_all(&buf[..n]).and_then(|()| to.flush()).is_err() {
                    return;
                }
            }
        }
    }
}

/// A note on standard error (standard output belongs to the protocol).
fn note(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(program) = args.next() else {
        note("usage: toolshape-byte-relay CMD [ARGS…]");
        return ExitCode::from(2);
    };
    let mut child = match Command::new(&program).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn() {
        Ok(child) => child,
        Err(e) => {
            note(&format!("cannot start {}: {e}", program.to_string_lossy()));
            return ExitCode::from(1);
        }
    };
    let (Some(child_in), Some(child_out)) = (child.stdin.take(), child.stdout.take()) else {
        return ExitCode::from(1);
    };
    // Requests on a thread of their own, answers on this one: each direction blocks only on
    // its own pipe, the lowest latency plain threads give.
    std::thread::spawn(move || pump(std::io::stdin().lock(), child_in));
    pump(child_out, std::io::stdout().lock());
    let _ = child.kill();
    let _ = child.wait();
    ExitCode::SUCCESS
}
