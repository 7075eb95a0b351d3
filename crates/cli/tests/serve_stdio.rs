//! `toolshape serve` over stdio, as MCP clients start it: with stdin and stdout as pipes
//! (most clients) and as Unix sockets (clients that connect their children's stdio with
//! socket pairs). Both are driven by the runtime's event loop rather than tokio's helper
//! threads, so both are checked end to end: the handshake, a request, and a clean exit
//! when the client closes its side.

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const LIST_TOOLS: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

fn config() -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    file.write_all(b"upstreams: {}\n").unwrap();
    file
}

fn command(config: &std::path::Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_toolshape"));
    cmd.args(["serve", "--config"]).arg(config).env("TOOLSHAPE_LOG", "warn").stderr(Stdio::null());
    cmd
}

/// Send the handshake and a tool listing on `input`, read the two answers from `output`
/// (each within a few seconds), and return them.
fn converse(mut input: impl Write, output: impl Read + Send + 'static) -> (Value, Value) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            let Ok(line) = line else { break };
            if tx.send(serde_json::from_str::<Value>(&line).unwrap()).is_err() {
                break;
            }
        }
    });
    let answer = |rx: &mpsc::Receiver<Value>| rx.recv_timeout(Duration::from_secs(20)).expect("an answer in time");
    writeln!(input, "{INITIALIZE}").unwrap();
    let initialized = answer(&rx);
    writeln!(input, "{INITIALIZED}").unwrap();
    writeln!(input, "{LIST_TOOLS}").unwrap();
    let listed = answer(&rx);
    (initialized, listed)
}

fn check(initialized: &Value, listed: &Value) {
    assert_eq!(initialized["id"], 1, "{initialized}");
    assert!(initialized["result"]["serverInfo"].is_object(), "{initialized}");
    assert_eq!(listed["id"], 2, "{listed}");
    assert!(listed["result"]["tools"].is_array(), "{listed}");
}

/// Wait for `child` to exit on its own (its input closed), within a few seconds.
fn exits_cleanly(mut child: Child) {
    for _ in 0..200 {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "exited with {status}");
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    panic!("`toolshape serve` did not exit after its input closed");
}

#[test]
fn serves_over_pipes() {
    let config = config();
    let mut child = command(config.path()).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let (input, output) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
    let (initialized, listed) = converse(&input, output);
    check(&initialized, &listed);
    drop(input);
    exits_cleanly(child);
}

#[test]
fn serves_over_sockets() {
    let config = config();
    let (client_in, server_in) = UnixStream::pair().unwrap();
    let (client_out, server_out) = UnixStream::pair().unwrap();
    let child = command(config.path())
        .stdin(Stdio::from(std::os::fd::OwnedFd::from(server_in)))
        .stdout(Stdio::from(std::os::fd::OwnedFd::from(server_out)))
        .spawn()
        .unwrap();
    let (initialized, listed) = converse(&client_in, client_out);
    check(&initialized, &listed);
    client_in.shutdown(std::net::Shutdown::Write).unwrap();
    drop(client_in);
    exits_cleanly(child);
}
