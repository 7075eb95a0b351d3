//! Comparing the tools an upstream serves now with the lock, and what to do about each
//! difference.

use serde::{Deserialize, Serialize};

use crate::definition::{DefinitionHash, ToolDefinition};
use crate::lock::{Lock, ToolKey};

/// How a live tool stands against the lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PinStatus {
    /// Pinned, and the definition is the one approved.
    Same,
    /// Pinned, but the definition differs from the one approved.
    Changed,
    /// Not in the lock.
    New,
    /// In the lock, but the upstream no longer serves it.
    Removed,
}

impl PinStatus {
    /// `same`, `changed`, `new` or `removed`.
    pub fn as_str(self) -> &'static str {
        match self {
            PinStatus::Same => "same",
            PinStatus::Changed => "changed",
            PinStatus::New => "new",
            PinStatus::Removed => "removed",
        }
    }
}

/// One tool's standing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Which tool.
    pub key: ToolKey,
    /// How it stands.
    pub status: PinStatus,
}

impl Lock {
    /// How one live tool of `upstream` stands.
    pub fn check(&self, upstream: &str, live: &ToolDefinition) -> PinStatus {
        self.status_of(&ToolKey::new(upstream, live.name.clone()), &live.hash())
    }

    /// How a live tool whose definition hashes to `hash` stands.
    pub fn status_of(&self, key: &ToolKey, hash: &DefinitionHash) -> PinStatus {
        match self.get(key) {
            None => PinStatus::New,
            Some(pinned) if pinned.hash() == hash => PinStatus::Same,
            Some(_) => PinStatus::Changed,
        }
    }

    /// Every tool of `upstream`, live or pinned, with its standing, sorted by name. A tool
    /// listed twice by the upstream is reported once, by its first definition.
    pub fn compare(&self, upstream: &str, live: &[ToolDefinition]) -> Vec<Change> {
        let mut changes: Vec<Change> = Vec::with_capacity(live.len());
        let mut seen = std::collections::BTreeSet::new();
        for tool in live {
            if seen.insert(tool.name.as_str()) {
                changes.push(Change {
                    key: ToolKey::new(upstream, tool.name.clone()),
                    status: self.check(upstream, tool),
                });
            }
        }
        for (key, _) in self.of_upstream(upstream) {
            if !seen.contains(key.tool.as_str()) {
                changes.push(Change { key: key.clone(), status: PinStatus::Removed });
            }
        }
        changes.sort_by(|a, b| a.key.cmp(&b.key));
        changes
    }
}

/// What to do with a tool that is new or changed since it was pinned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnChange {
    /// Do not list it, and refuse calls to it, until it is approved.
    #[default]
    Quarantine,
    /// List it and serve it, and log a warning.
    Warn,
    /// Do not compare with the lock at all.
    Off,
}

/// Whether a tool may be listed and called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// Listed and callable.
    Serve,
    /// Listed and callable, but it is new or changed: log it.
    Warn,
    /// Not listed; calls are refused with [`held_message`].
    Hold,
}

impl OnChange {
    /// What to do with a tool of this standing.
    pub fn admit(self, status: PinStatus) -> Admission {
        match (self, status) {
            (OnChange::Off, _) | (_, PinStatus::Same | PinStatus::Removed) => Admission::Serve,
            (OnChange::Warn, _) => Admission::Warn,
            (OnChange::Quarantine, _) => Admission::Hold,
        }
    }
}

/// The error a call to a held tool gets. `tool` is the name the model called (a mask's name
/// when a mask wraps the held handler).
pub fn held_message(tool: &str, status: PinStatus) -> String {
    let what = match status {
        PinStatus::New => "is new since the tools were pinned",
        _ => "changed since it was pinned",
    };
    format!("tool `{tool}` {what}; review `toolshape pin --diff`, then `toolshape pin --approve {tool}`")
}

/// The log line for a tool served under `warn`.
pub fn warn_message(key: &ToolKey, status: PinStatus) -> String {
    let what = match status {
        PinStatus::New => "is not in the lock file",
        _ => "differs from its pinned definition",
    };
    format!("tool `{key}` {what}; served because pin.on_change is `warn` (see `toolshape pin --diff`)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn def(name: &str, description: &str) -> ToolDefinition {
        ToolDefinition::from_mcp(&json!({"name": name, "description": description})).unwrap()
    }

    #[test]
    fn new_changed_removed_and_same() {
        let mut lock = Lock::new();
        lock.pin("u", def("same", "a"));
        lock.pin("u", def("changed", "a"));
        lock.pin("u", def("removed", "a"));
        lock.pin("other", def("elsewhere", "a"));
        let live = [def("same", "a"), def("changed", "b"), def("new", "a"), def("same", "listed twice")];
        let changes = lock.compare("u", &live);
        let got: Vec<(&str, PinStatus)> = changes.iter().map(|c| (c.key.tool.as_str(), c.status)).collect();
        assert_eq!(
            got,
            [
                ("changed", PinStatus::Changed),
                ("new", PinStatus::New),
                ("removed", PinStatus::Removed),
                ("same", PinStatus::Same)
            ]
        );
    }

    #[test]
    fn modes_admit() {
        use Admission::*;
        use PinStatus::*;
        let table = [
            (OnChange::Quarantine, [Serve, Hold, Hold, Serve]),
            (OnChange::Warn, [Serve, Warn, Warn, Serve]),
            (OnChange::Off, [Serve, Serve, Serve, Serve]),
        ];
        for (mode, expected) in table {
            let got: Vec<Admission> = [Same, Changed, New, Removed].iter().map(|s| mode.admit(*s)).collect();
            assert_eq!(got, expected, "{mode:?}");
        }
    }

    #[test]
    fn held_message_says_what_to_run() {
        assert_eq!(
            held_message("x", PinStatus::Changed),
            "tool `x` changed since it was pinned; review `toolshape pin --diff`, then `toolshape pin --approve x`"
        );
        assert!(held_message("x", PinStatus::New).starts_with("tool `x` is new since"));
    }
}
