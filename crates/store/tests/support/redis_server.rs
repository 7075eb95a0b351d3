//! A throwaway `redis-server` for tests and benchmarks: started on a free loopback port in a
//! temporary directory, without persistence, killed when dropped. It can be killed and
//! restarted on the same port to play an outage.
#![allow(dead_code)] // Each test or bench binary that includes this file uses part of it.

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How to get `redis-server` when it is missing.
pub(crate) const INSTALL_HINT: &str = "redis-server was not found on PATH. These tests run against a real Redis: install it \
     with `sudo apt-get install -y redis-server` (Debian/Ubuntu) or `brew install redis` (macOS). \
     scripts/test.sh installs it with apt-get when it is missing.";

/// A running (or deliberately stopped) redis-server.
pub(crate) struct RedisServer {
    child: Option<Child>,
    port: u16,
    extra_args: Vec<String>,
    dir: tempfile::TempDir,
}

impl RedisServer {
    /// Start a server on a free loopback port. Panics, saying how to install it, when
    /// `redis-server` is missing.
    pub(crate) fn start() -> RedisServer {
        RedisServer::start_with(&[])
    }

    /// As [`RedisServer::start`], with extra `redis-server` arguments (e.g. `--requirepass x`).
    pub(crate) fn start_with(extra_args: &[&str]) -> RedisServer {
        let port = free_port();
        let dir = tempfile::tempdir().expect("a temporary directory for redis-server");
        let mut server =
            RedisServer { child: None, port, extra_args: extra_args.iter().map(|a| (*a).to_owned()).collect(), dir };
        server.restart();
        server
    }

    /// The port it listens on.
    pub(crate) fn port(&self) -> u16 {
        self.port
    }

    /// `redis://127.0.0.1:PORT/DB`.
    pub(crate) fn url(&self, db: u8) -> String {
        format!("redis://127.0.0.1:{}/{db}", self.port)
    }

    /// Kill the server at once (SIGKILL), as a crash would.
    pub(crate) fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Freeze the server (SIGSTOP): connections stay open but nothing answers, as with a
    /// hung host.
    pub(crate) fn pause(&self) {
        self.signal("-STOP");
    }

    /// Let a paused server go on (SIGCONT).
    pub(crate) fn resume(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, signal: &str) {
        let child = self.child.as_ref().expect("a running redis-server");
        let status = Command::new("kill").args([signal, &child.id().to_string()]).status().expect("run kill");
        assert!(status.success(), "kill {signal} failed");
    }

    /// Start the server again on the same port, and wait until it answers PING.
    pub(crate) fn restart(&mut self) {
        self.kill();
        let port = self.port.to_string();
        let spawned = Command::new("redis-server")
            .args(["--port", &port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .args(["--dir", &self.dir.path().to_string_lossy()])
            .args(&self.extra_args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        match spawned {
            Ok(child) => self.child = Some(child),
            Err(e) if e.kind() == ErrorKind::NotFound => panic!("{INSTALL_HINT}"),
            Err(e) => panic!("could not start redis-server: {e}"),
        }
        self.wait_until_ready();
    }

    fn wait_until_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if self.answers_ping() {
                return;
            }
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                panic!("redis-server on port {} exited at start ({status}); is the port taken?", self.port);
            }
            assert!(Instant::now() < deadline, "redis-server on port {} did not answer within 10 s", self.port);
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn answers_ping(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else { return false };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        if stream.write_all(b"PING\r\n").is_err() {
            return false;
        }
        let mut answer = [0u8; 64];
        // With --requirepass the answer is a NOAUTH error: still a server that is up.
        matches!(stream.read(&mut answer), Ok(n) if n > 0)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A loopback port nothing listens on right now.
pub(crate) fn free_port() -> u16 {
    let listener = TcpListener::bind(("127.0.0.1", 0)).expect("bind a loopback port");
    listener.local_addr().expect("its address").port()
}
