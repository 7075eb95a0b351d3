//! An upstream's child process: started with its three pipes owned by the gateway, stdout
//! behind the line guard, stderr logged line by line, and its exit watched to explain a
//! crash.

use std::process::Stdio;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

use tokio::sync::oneshot;

use super::StartError;
use super::guard::line_guard;
use super::logs::log_stderr;

/// What the stdout guard and the exit watcher of a child process observed.
#[derive(Default)]
pub(super) struct ChildWatch {
    /// `exit status 1`, `signal 9`, once the process has exited.
    pub(super) exit: StdMutex<Option<String>>,
    /// Lines on stdout that were not JSON.
    pub(super) garbage_lines: AtomicU64,
}

type ChildParts = (tokio::io::DuplexStream, tokio::process::ChildStdin, Arc<ChildWatch>, oneshot::Sender<()>);

/// Start a child process with its stdout behind the line guard, its stderr logged and its
/// exit watched.
pub(super) fn spawn_child(
    name: &str,
    spec: &toolshape_mask::Upstream,
    argv: &[String],
    cap: usize,
) -> Result<ChildParts, StartError> {
    let (program, args) = argv.split_first().ok_or(StartError::EmptyCommand)?;
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args)
        .envs(&spec.env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(dir) = &spec.cwd {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().map_err(|e| StartError::Spawn { program: program.clone(), reason: e.to_string() })?;
    let (Some(stdin), Some(stdout), stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take()) else {
        return Err(StartError::Pipes);
    };
    let watch = Arc::new(ChildWatch::default());
    let (guard_out, guard_in) = tokio::io::duplex(256 * 1024);
    tokio::spawn(line_guard(name.to_owned(), stdout, guard_out, cap, watch.clone()));
    if let Some(stderr) = stderr {
        tokio::spawn(log_stderr(name.to_owned(), stderr));
    }
    let (stop_tx, stop_rx) = oneshot::channel::<()>();
    tokio::spawn(watch_exit(name.to_owned(), child, stop_rx, watch.clone()));
    tracing::info!(upstream = name, program = %program, "upstream process started");
    Ok((guard_in, stdin, watch, stop_tx))
}

/// Wait for the child to exit and record how; when the connection is dropped, give the
/// child two seconds to exit on its own (its stdin is closed by then), then kill it.
async fn watch_exit(
    name: String,
    mut child: tokio::process::Child,
    stop: oneshot::Receiver<()>,
    watch: Arc<ChildWatch>,
) {
    let status = tokio::select! {
        s = child.wait() => s,
        _ = stop => {
            match tokio::time::timeout(Duration::from_secs(2), child.wait()).await {
                Ok(s) => s,
                Err(_) => {
                    let _ = child.kill().await;
                    child.wait().await
                }
            }
        }
    };
    let text = match status {
        Ok(s) => describe_exit(s),
        Err(e) => format!("unknown ({e})"),
    };
    tracing::info!(upstream = %name, exit = %text, "upstream process exited");
    if let Ok(mut e) = watch.exit.lock() {
        *e = Some(text);
    }
}

fn describe_exit(s: std::process::ExitStatus) -> String {
    if let Some(code) = s.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return format!("killed by signal {sig}");
        }
    }
    "exited".to_owned()
}
