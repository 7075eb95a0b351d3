//! The log level each agent session asked for with `logging/setLevel`, and the level asked
//! of upstreams.
//!
//! An upstream's `notifications/message` reaches an agent only if that agent's session set a
//! level and the message is at least that severe; without `logging/setLevel` an agent is sent
//! no log messages (the MCP logging utility lets the server choose, and unasked notifications
//! only clutter an agent's screen). Upstream connections are shared by every session, so an
//! upstream is asked for the most verbose level any session has set; each session still gets
//! only what it asked for, filtered here.
#![expect(deprecated, reason = "logging is deprecated in 2026-07-28; sessions of earlier versions still use it")]

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex as StdMutex;

use rmcp::model::LoggingLevel;

/// Most sessions whose level is remembered; beyond it the oldest settings are forgotten (those
/// sessions are then sent no log messages until they set a level again).
const MAX_SESSIONS: usize = 10_000;

/// Severity rank of `level`: higher is more severe.
pub(crate) fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// The levels of every agent session, shared by the gateway and every upstream.
#[derive(Default)]
pub(crate) struct LogLevels {
    inner: StdMutex<Levels>,
}

#[derive(Default)]
struct Levels {
    /// Session scope → (the level it set, when it set it: a serial number).
    by_session: HashMap<Arc<str>, (LoggingLevel, u64)>,
    serial: u64,
    /// The most verbose level any session has set: what upstreams are asked for.
    upstream: Option<LoggingLevel>,
}

impl LogLevels {
    /// Record `level` for `session`. Returns the level upstreams must now be asked for, when
    /// it became more verbose.
    pub(crate) fn set(&self, session: &str, level: LoggingLevel) -> Option<LoggingLevel> {
        let Ok(mut levels) = self.inner.lock() else { return None };
        levels.serial += 1;
        let serial = levels.serial;
        if levels.by_session.len() >= MAX_SESSIONS && !levels.by_session.contains_key(session) {
            let oldest = levels.by_session.iter().min_by_key(|(_, (_, at))| *at).map(|(s, _)| s.clone());
            if let Some(oldest) = oldest {
                levels.by_session.remove(&oldest);
            }
        }
        levels.by_session.insert(session.into(), (level, serial));
        let more_verbose = levels.upstream.is_none_or(|current| severity(level) < severity(current));
        if more_verbose {
            levels.upstream = Some(level);
            return Some(level);
        }
        None
    }

    /// Whether `session` wants a message of `level`.
    pub(crate) fn wants(&self, session: &str, level: LoggingLevel) -> bool {
        let Ok(levels) = self.inner.lock() else { return false };
        levels.by_session.get(session).is_some_and(|(set, _)| severity(level) >= severity(*set))
    }

    /// The level to ask of an upstream that starts now, if any session set one.
    pub(crate) fn upstream_level(&self) -> Option<LoggingLevel> {
        self.inner.lock().ok().and_then(|l| l.upstream)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [LoggingLevel; 8] = [
        LoggingLevel::Debug,
        LoggingLevel::Info,
        LoggingLevel::Notice,
        LoggingLevel::Warning,
        LoggingLevel::Error,
        LoggingLevel::Critical,
        LoggingLevel::Alert,
        LoggingLevel::Emergency,
    ];

    #[test]
    fn a_session_that_set_no_level_is_sent_nothing() {
        let levels = LogLevels::default();
        assert!(ALL.iter().all(|l| !levels.wants("s", *l)));
        levels.set("other", LoggingLevel::Debug);
        assert!(ALL.iter().all(|l| !levels.wants("s", *l)));
    }

    #[test]
    fn a_session_gets_its_level_and_more_severe_only() {
        let levels = LogLevels::default();
        levels.set("s", LoggingLevel::Warning);
        let wanted: Vec<_> = ALL.iter().filter(|l| levels.wants("s", **l)).map(|l| severity(*l)).collect();
        assert_eq!(wanted, vec![3, 4, 5, 6, 7]);
        // Setting again replaces, in either direction.
        levels.set("s", LoggingLevel::Emergency);
        assert!(!levels.wants("s", LoggingLevel::Alert));
        levels.set("s", LoggingLevel::Debug);
        assert!(levels.wants("s", LoggingLevel::Debug));
    }

    #[test]
    fn upstreams_are_asked_for_the_most_verbose_level_any_session_set() {
        let levels = LogLevels::default();
        assert_eq!(levels.upstream_level(), None);
        assert_eq!(levels.set("a", LoggingLevel::Error), Some(LoggingLevel::Error));
        assert_eq!(levels.set("b", LoggingLevel::Info), Some(LoggingLevel::Info));
        // Less verbose than what upstreams already send: nothing to ask.
        assert_eq!(levels.set("c", LoggingLevel::Warning), None);
        assert_eq!(levels.upstream_level(), Some(LoggingLevel::Info));
        // Each session still gets only its own level.
        assert!(!levels.wants("a", LoggingLevel::Warning));
        assert!(levels.wants("b", LoggingLevel::Info));
    }

    #[test]
    fn remembered_sessions_are_bounded_forgetting_the_oldest() {
        let levels = LogLevels::default();
        for i in 0..MAX_SESSIONS + 5 {
            levels.set(&format!("s{i}"), LoggingLevel::Info);
        }
        assert_eq!(levels.inner.lock().unwrap().by_session.len(), MAX_SESSIONS);
        assert!(!levels.wants("s0", LoggingLevel::Emergency));
        assert!(levels.wants(&format!("s{}", MAX_SESSIONS + 4), LoggingLevel::Info));
    }
}
