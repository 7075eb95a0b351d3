//! Repeated calls: the same tool with the same arguments in the same session, more than
//! `limit` times within `window`.
//!
//! An agent stuck in a loop pays for the same result on every turn and learns nothing new.
//! The detector counts calls per (session, tool, canonical arguments) in a sliding window;
//! the caller answers a repeat with a short envelope that says so and points to the
//! previous result, instead of the full result again.
//!
//! - Arguments are compared by the hash of their canonical JSON, so key order and whitespace
//!   do not make a call look new, and no argument value is kept.
//! - The caller passes `now` (any monotonic origin); nothing here reads a clock.
//! - Memory is bounded: at most `capacity` keys, each with at most `limit` timestamps and a
//!   reference of at most [`MAX_PREVIOUS_BYTES`]; keys whose last call left the window are
//!   dropped, and when the table is full the key seen least recently goes.
//! - Whether a tool may be short-circuited at all is the caller's decision: a tool declared
//!   non-idempotent must never be (see [`crate::Hints::declares_non_idempotent`]).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::Duration;

use serde_json::Value;

use crate::canonical::{canonical_text, sha256};

/// The default `repeat_limit`: calls allowed in the window before the next is a repeat.
pub const DEFAULT_REPEAT_LIMIT: u32 = 3;
/// The default `repeat_window`.
pub const DEFAULT_REPEAT_WINDOW: Duration = Duration::from_secs(60);
/// The default number of (session, tool, arguments) keys remembered.
pub const DEFAULT_REPEAT_CAPACITY: usize = 4096;
/// The largest `limit` honoured; a larger one is treated as this (each key keeps up to
/// `limit` timestamps).
pub const MAX_REPEAT_LIMIT: u32 = 1000;
/// The longest reference to a previous result kept per key; a longer one is not kept.
pub const MAX_PREVIOUS_BYTES: usize = 2048;

/// When a call counts as a repeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepeatPolicy {
    /// Calls allowed within the window; the next one is a repeat. `0` turns detection off.
    pub limit: u32,
    /// How far back calls are counted.
    pub window: Duration,
}

impl Default for RepeatPolicy {
    fn default() -> Self {
        RepeatPolicy { limit: DEFAULT_REPEAT_LIMIT, window: DEFAULT_REPEAT_WINDOW }
    }
}

/// Which calls count as the same: session, tool, and the hash of the canonical arguments.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallKey {
    session: Option<String>,
    tool: String,
    arguments: [u8; 32],
}

impl CallKey {
    /// The key of a call of `tool` with `arguments` in `session`.
    pub fn new(session: Option<&str>, tool: &str, arguments: &Value) -> CallKey {
        CallKey {
            session: session.map(str::to_owned),
            tool: tool.to_owned(),
            arguments: sha256(canonical_text(arguments).as_bytes()),
        }
    }
}

/// Whether a call is a repeat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Repeat {
    /// Within the limit: answer it in full.
    Fresh,
    /// Over the limit: answer with a repeat envelope.
    Repeated {
        /// Calls with these arguments since the key was last quiet for a whole window, this
        /// one included.
        calls: u32,
        /// What the caller [`remembered`](RepeatDetector::remember) about the last full
        /// answer (a cursor or handle to point to), if anything.
        previous: Option<String>,
    },
}

#[derive(Debug)]
struct Entry {
    /// The most recent call times, oldest first, at most `limit`.
    recent: VecDeque<Duration>,
    previous: Option<String>,
    /// Calls since the key was first seen (it is forgotten after a quiet window).
    calls: u32,
    /// This entry's place in `RepeatDetector::by_age`.
    stamp: (Duration, u64),
}

/// Counts calls per [`CallKey`] in a sliding window, in bounded memory.
#[derive(Debug)]
pub struct RepeatDetector {
    policy: RepeatPolicy,
    capacity: usize,
    entries: HashMap<CallKey, Entry>,
    /// Keys by the time of their last call (and a sequence number for ties), oldest first.
    by_age: BTreeMap<(Duration, u64), CallKey>,
    next_seq: u64,
}

impl RepeatDetector {
    /// A detector remembering at most `capacity` keys (at least one).
    pub fn new(policy: RepeatPolicy, capacity: usize) -> RepeatDetector {
        let policy = RepeatPolicy { limit: policy.limit.min(MAX_REPEAT_LIMIT), ..policy };
        RepeatDetector {
            policy,
            capacity: capacity.max(1),
            entries: HashMap::new(),
            by_age: BTreeMap::new(),
            next_seq: 0,
        }
    }

    /// The policy in force.
    pub fn policy(&self) -> RepeatPolicy {
        self.policy
    }

    /// How many keys are remembered.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no key is remembered.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Counts a call made at `now` and says whether it is a repeat. Repeats count too, so an
    /// agent that keeps looping keeps getting the short answer until it stops for a window.
    pub fn observe(&mut self, key: CallKey, now: Duration) -> Repeat {
        let limit = self.policy.limit as usize;
        if limit == 0 {
            return Repeat::Fresh;
        }
        self.drop_expired(now);
        let window = self.policy.window;
        let stamp = (now, self.next_seq);
        self.next_seq = self.next_seq.wrapping_add(1);
        let verdict = match self.entries.get_mut(&key) {
            Some(entry) => {
                self.by_age.remove(&entry.stamp);
                entry.stamp = stamp;
                while entry.recent.front().is_some_and(|t| now.saturating_sub(*t) >= window) {
                    entry.recent.pop_front();
                }
                entry.calls = entry.calls.saturating_add(1);
                let verdict = if entry.recent.len() >= limit {
                    Repeat::Repeated { calls: entry.calls, previous: entry.previous.clone() }
                } else {
                    Repeat::Fresh
                };
                entry.recent.push_back(now);
                while entry.recent.len() > limit {
                    entry.recent.pop_front();
                }
                verdict
            }
            None => {
                while self.entries.len() >= self.capacity {
                    let Some((_, oldest)) = self.by_age.pop_first() else { break };
                    self.entries.remove(&oldest);
                }
                let recent = VecDeque::from([now]);
                self.entries.insert(key.clone(), Entry { recent, previous: None, calls: 1, stamp });
                Repeat::Fresh
            }
        };
        self.by_age.insert(stamp, key);
        verdict
    }

    /// Remembers what a repeat of `key` should point to (the cursor or handle of the last
    /// full answer). Ignored for a key not being counted, or a reference over
    /// [`MAX_PREVIOUS_BYTES`].
    pub fn remember(&mut self, key: &CallKey, previous: &str) {
        if let Some(entry) = self.entries.get_mut(key) {
            entry.previous = (previous.len() <= MAX_PREVIOUS_BYTES).then(|| previous.to_owned());
        }
    }

    /// Forgets keys whose last call is a whole window before `now`.
    fn drop_expired(&mut self, now: Duration) {
        while let Some(entry) = self.by_age.first_entry() {
            let (last, _) = *entry.key();
            if now.saturating_sub(last) < self.policy.window {
                break;
            }
            let key = entry.remove();
            self.entries.remove(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn the_call_after_the_limit_is_a_repeat() {
        let mut d = RepeatDetector::new(RepeatPolicy::default(), 16);
        let key = CallKey::new(Some("s"), "search", &json!({"q": "x", "n": 1}));
        assert_eq!(d.observe(key.clone(), secs(0)), Repeat::Fresh);
        d.remember(&key, "cursor-1");
        assert_eq!(d.observe(key.clone(), secs(1)), Repeat::Fresh);
        assert_eq!(d.observe(key.clone(), secs(2)), Repeat::Fresh);
        // Key order does not make a call new.
        let same = CallKey::new(Some("s"), "search", &json!({"n": 1.0, "q": "x"}));
        assert_eq!(d.observe(same, secs(3)), Repeat::Repeated { calls: 4, previous: Some("cursor-1".into()) });
    }

    #[test]
    fn sessions_tools_and_arguments_are_counted_apart() {
        let mut d = RepeatDetector::new(RepeatPolicy { limit: 1, window: secs(60) }, 16);
        let args = json!({"q": "x"});
        assert_eq!(d.observe(CallKey::new(Some("a"), "t", &args), secs(0)), Repeat::Fresh);
        assert_eq!(d.observe(CallKey::new(Some("b"), "t", &args), secs(0)), Repeat::Fresh);
        assert_eq!(d.observe(CallKey::new(Some("a"), "u", &args), secs(0)), Repeat::Fresh);
        assert_eq!(d.observe(CallKey::new(Some("a"), "t", &json!({"q": "y"})), secs(0)), Repeat::Fresh);
        assert_eq!(d.observe(CallKey::new(None, "t", &args), secs(0)), Repeat::Fresh);
        assert!(matches!(d.observe(CallKey::new(Some("a"), "t", &args), secs(1)), Repeat::Repeated { .. }));
    }

    #[test]
    fn the_window_slides() {
        let mut d = RepeatDetector::new(RepeatPolicy { limit: 2, window: secs(10) }, 16);
        let key = CallKey::new(None, "t", &json!({}));
        assert_eq!(d.observe(key.clone(), secs(0)), Repeat::Fresh);
        assert_eq!(d.observe(key.clone(), secs(5)), Repeat::Fresh);
        assert!(matches!(d.observe(key.clone(), secs(9)), Repeat::Repeated { calls: 3, .. }));
        // At 15 the calls at 0 and 5 have left the window; the one at 9 is still in it.
        assert_eq!(d.observe(key.clone(), secs(15)), Repeat::Fresh);
        assert!(matches!(d.observe(key.clone(), secs(16)), Repeat::Repeated { .. }));
        // A whole window of quiet forgets the key.
        assert_eq!(d.observe(key.clone(), secs(100)), Repeat::Fresh);
        assert_eq!(d.len(), 1);
    }

    #[test]
    fn limit_zero_is_off() {
        let mut d = RepeatDetector::new(RepeatPolicy { limit: 0, window: secs(10) }, 16);
        let key = CallKey::new(None, "t", &json!({}));
        for i in 0..10 {
            assert_eq!(d.observe(key.clone(), secs(i)), Repeat::Fresh);
        }
        assert!(d.is_empty());
    }

    #[test]
    fn memory_is_bounded_and_the_least_recent_key_goes() {
        let mut d = RepeatDetector::new(RepeatPolicy { limit: 1, window: secs(60) }, 3);
        let key = |i: u64| CallKey::new(None, "t", &json!({ "i": i }));
        for i in 0..3 {
            d.observe(key(i), secs(i));
        }
        d.observe(key(0), secs(3)); // 0 is now the most recent; 1 the least.
        d.observe(key(9), secs(4));
        assert_eq!(d.len(), 3);
        assert!(matches!(d.observe(key(0), secs(5)), Repeat::Repeated { .. }));
        assert_eq!(d.observe(key(1), secs(6)), Repeat::Fresh, "1 was forgotten");
    }

    #[test]
    fn long_references_are_not_kept_and_clocks_may_go_back() {
        let mut d = RepeatDetector::new(RepeatPolicy { limit: 1, window: secs(60) }, 4);
        let key = CallKey::new(None, "t", &json!({}));
        d.observe(key.clone(), secs(10));
        d.remember(&key, &"x".repeat(MAX_PREVIOUS_BYTES + 1));
        assert_eq!(d.observe(key.clone(), secs(5)), Repeat::Repeated { calls: 2, previous: None });
    }
}
