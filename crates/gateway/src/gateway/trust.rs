//! Trust at the tool boundary, on the gateway's side: the lock file of pinned tool
//! definitions (read at launch and again when it changes on disk), which listed tools it
//! holds back, and the repeated-call counter.
//!
//! The decisions themselves are `toolshape_trust`'s; this part owns the state they need
//! between calls and the one file it reads.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex as StdMutex;
use std::time::{Instant, SystemTime};

use serde_json::Value;
use toolshape_shape::{Data, Envelope, Next, Omitted, Status};
use toolshape_telemetry::CallStatus;
use toolshape_trust::{
    Admission, CallKey, DEFAULT_REPEAT_CAPACITY, DefinitionHash, Lock, OnChange, PinStatus, Repeat, RepeatDetector,
    RepeatPolicy, ToolKey, warn_message,
};

use crate::GatewayError;

/// Where the lock file is and what to do with tools it does not pin as they are served.
#[derive(Debug, Clone)]
pub struct PinOptions {
    /// The lock file (`toolshape.lock` next to the config by default).
    pub path: PathBuf,
    /// `quarantine`, `warn` or `off`.
    pub on_change: OnChange,
}

/// The lock as last read, and what the file looked like then.
struct PinState {
    lock: Lock,
    /// Modification time and length of the file when it was read (`None`: no file).
    seen: Option<(SystemTime, u64)>,
}

/// The pinned definitions in force.
struct Pins {
    path: PathBuf,
    on_change: OnChange,
    state: StdMutex<PinState>,
}

/// Trust state between calls: the pins and the repeat counter.
pub(super) struct Trust {
    pins: Option<Pins>,
    repeats: StdMutex<RepeatDetector>,
    /// The origin of the repeat counter's clock.
    started: Instant,
}

/// What the trust checks decided about a call, for its span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mark {
    /// Refused: the tool is held until approved.
    Quarantined,
    /// Refused: the arguments hold a secret.
    Blocked,
    /// Answered with a repeat envelope.
    Repeat,
}

impl Mark {
    /// The span status this mark records.
    pub(super) fn status(self) -> CallStatus {
        match self {
            Mark::Quarantined => CallStatus::Quarantined,
            Mark::Blocked => CallStatus::Blocked,
            Mark::Repeat => CallStatus::Repeat,
        }
    }
}

/// The file's modification time and length, `None` when it cannot be read.
fn stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// Reads the lock file; a missing file is an empty lock.
fn read_lock(path: &Path) -> Result<Lock, GatewayError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Lock::parse(&text).map_err(|e| GatewayError::Lock { path: path.to_owned(), error: e }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Lock::new()),
        Err(e) => Err(GatewayError::Io(e)),
    }
}

impl Trust {
    /// Reads the lock file `pins` names (a missing one pins nothing), and starts counting
    /// repeats under `repeat`.
    pub(super) fn new(pins: Option<PinOptions>, repeat: RepeatPolicy) -> Result<Trust, GatewayError> {
        let pins = match pins {
            Some(p) if p.on_change != OnChange::Off => {
                let seen = stamp(&p.path);
                let lock = read_lock(&p.path)?;
                if seen.is_none() {
                    tracing::warn!(
                        lock = %p.path.display(),
                        "no lock file: every upstream tool counts as new; run `toolshape pin` to approve the tools"
                    );
                }
                Some(Pins { path: p.path, on_change: p.on_change, state: StdMutex::new(PinState { lock, seen }) })
            }
            _ => None,
        };
        Ok(Trust {
            pins,
            repeats: StdMutex::new(RepeatDetector::new(repeat, DEFAULT_REPEAT_CAPACITY)),
            started: Instant::now(),
        })
    }

    /// Reads the lock file again if it changed on disk (`toolshape pin --approve` while
    /// serving); true when the pins in force changed. A file that no longer parses is
    /// logged and the pins in force are kept.
    pub(super) fn reload_if_changed(&self) -> bool {
        let Some(pins) = &self.pins else { return false };
        let now = stamp(&pins.path);
        let Ok(mut state) = pins.state.lock() else { return false };
        if state.seen == now {
            return false;
        }
        match read_lock(&pins.path) {
            Ok(lock) => {
                tracing::info!(lock = %pins.path.display(), tools = lock.len(), "lock file read again");
                state.lock = lock;
                state.seen = now;
                true
            }
            Err(e) => {
                tracing::error!(error = %e, "the lock file changed but cannot be read; the pins read before stay in force");
                state.seen = now;
                false
            }
        }
    }

    /// How one listed tool stands against the lock (`Same` when nothing is pinned).
    pub(super) fn status(&self, key: &ToolKey, hash: &DefinitionHash) -> PinStatus {
        match &self.pins {
            Some(pins) => pins.state.lock().map(|s| s.lock.status_of(key, hash)).unwrap_or(PinStatus::Same),
            None => PinStatus::Same,
        }
    }

    /// Logs each tool of a fresh listing that is new or changed: held, or served with a
    /// warning.
    pub(super) fn report_listing(&self, upstream: &str, hashes: &BTreeMap<String, DefinitionHash>) {
        let Some(pins) = &self.pins else { return };
        for (tool, hash) in hashes {
            let key = ToolKey::new(upstream, tool.clone());
            let status = self.status(&key, hash);
            match pins.on_change.admit(status) {
                Admission::Serve => {}
                Admission::Warn => tracing::warn!("{}", warn_message(&key, status)),
                Admission::Hold => tracing::warn!(
                    tool = %key,
                    status = status.as_str(),
                    "tool held until approved: review `toolshape pin --diff`, then `toolshape pin --approve {key}`"
                ),
            }
        }
    }

    /// The listed tools to hold back, by (upstream, tool).
    pub(super) fn held(&self, hashes: &BTreeMap<(String, String), DefinitionHash>) -> BTreeSet<(String, String)> {
        let Some(pins) = &self.pins else { return BTreeSet::new() };
        let Ok(state) = pins.state.lock() else { return BTreeSet::new() };
        hashes
            .iter()
            .filter(|((upstream, tool), hash)| {
                let status = state.lock.status_of(&ToolKey::new(upstream.clone(), tool.clone()), hash);
                pins.on_change.admit(status) == Admission::Hold
            })
            .map(|(key, _)| key.clone())
            .collect()
    }

    /// Counts a call; `Some(envelope)` when it is a repeat to answer without calling.
    pub(super) fn repeat(&self, key: CallKey, tool: &str) -> Option<Envelope> {
        let now = self.started.elapsed();
        let mut repeats = self.repeats.lock().ok()?;
        let window = repeats.policy().window.as_secs();
        match repeats.observe(key, now) {
            Repeat::Fresh => None,
            Repeat::Repeated { calls, previous } => Some(repeat_envelope(tool, calls, window, previous.as_deref())),
        }
    }

    /// Remembers where the last full answer of `key` can be read on: its `next`, and the
    /// `omitted` that says what is behind it.
    pub(super) fn remember(&self, key: &CallKey, omitted: Option<&Omitted>, next: &Next) {
        let omitted = omitted.map(|o| Omitted { fields_cut: None, ..o.clone() });
        let Ok(text) = serde_json::to_string(&serde_json::json!({ "omitted": omitted, "next": next })) else {
            return;
        };
        if let Ok(mut repeats) = self.repeats.lock() {
            repeats.remember(key, &text);
        }
    }

    /// Whether repeats are counted at all.
    pub(super) fn counts_repeats(&self) -> bool {
        self.repeats.lock().map(|r| r.policy().limit > 0).unwrap_or(false)
    }
}

/// The short answer to a repeated call: it says so, and points to where the last full
/// answer can be read on, if anywhere.
fn repeat_envelope(tool: &str, calls: u32, window_secs: u64, previous: Option<&str>) -> Envelope {
    let previous = previous.and_then(|text| serde_json::from_str::<Value>(text).ok());
    let read_on = previous.and_then(|v| {
        let next: Next = serde_json::from_value(v.get("next")?.clone()).ok()?;
        let omitted: Omitted = serde_json::from_value(v.get("omitted")?.clone()).ok()?;
        Some((omitted, next))
    });
    let (omitted, next) = match read_on {
        Some((omitted, next)) => (Some(omitted), Some(next)),
        None => (None, None),
    };
    let mut summary = format!(
        "repeat: `{tool}` was called {calls} times with these same arguments within {window_secs} s, so it was not \
         run again; use the answer you already have"
    );
    if next.is_some() {
        summary.push_str(", or read on with `next`");
    }
    summary.push_str(". Change the arguments to get something new.");
    let status = if next.is_some() { Status::Partial } else { Status::Ok };
    Envelope { status, summary, data: Data::Null, omitted, next }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeat_points_to_where_the_last_answer_reads_on() {
        let previous = r#"{"omitted":{"count":90,"unit":"records","reason":"budget","original":{"bytes":9000}},"next":{"tool":"result_read","arguments":{"cursor":"abc"}}}"#;
        let env = repeat_envelope("search", 4, 60, Some(previous));
        assert_eq!(env.omitted.as_ref().map(|o| o.count), Some(90));
        assert_eq!(env.status, Status::Partial);
        assert!(env.summary.starts_with("repeat: `search` was called 4 times"), "{}", env.summary);
        assert_eq!(env.next.map(|n| n.tool), Some("result_read".to_owned()));
        let env = repeat_envelope("search", 4, 60, None);
        assert_eq!((env.status, env.next.is_none()), (Status::Ok, true));
        assert!(!env.summary.contains("`next`"));
    }
}
