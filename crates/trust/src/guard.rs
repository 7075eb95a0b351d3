//! The argument guard: the redaction detectors run over a call's arguments before the call
//! leaves for the upstream, so that a secret the model read (or was told to send by text it
//! read) does not leave through a tool.
//!
//! - Findings name the kind and the place (`github_token at body`), never the value.
//! - Object keys are looked at as well as values: a secret written as a key would otherwise
//!   pass unseen. A key that holds one is shown redacted in paths and, under `redact`,
//!   renamed.
//! - Exempt places (a mask's fixed system parameters, which come from the config and not
//!   the model) are not looked into.
//! - Nothing without a finding is ever changed: under `redact` only the strings (and keys)
//!   that hold a finding are rewritten, to the detector's placeholder.
//! - Only high-confidence kinds by default ([`DEFAULT_GUARD_KINDS`]): private keys, cloud
//!   keys and vendor tokens, whose shapes almost never occur by chance. Emails, phone numbers
//!   and secret-named fields are often what a tool is legitimately given, so they are
//!   opt-in.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use toolshape_redact::{BUILTIN_KINDS, CustomPattern, RedactError, RedactSpec, RedactStyle, RedactionCounts, Redactor};

use crate::argpath::{ArgPath, Step};

/// The kinds the guard looks for unless configured otherwise: shapes that are a credential
/// when they occur (fixed prefixes with long random bodies, key blocks, signed tokens).
pub const DEFAULT_GUARD_KINDS: &[&str] = &[
    "private_key",
    "jwt",
    "aws_access_key",
    "aws_secret_key",
    "github_token",
    "gitlab_token",
    "slack_token",
    "slack_webhook",
    "stripe_key",
    "openai_key",
    "anthropic_key",
    "google_api_key",
    "google_oauth_token",
];

/// What the guard does when it finds something.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GuardMode {
    /// Refuse the call with an error naming the kinds found.
    Block,
    /// Replace what was found with its placeholder and make the call.
    Redact,
    /// Make the call unchanged and report what was found.
    #[default]
    Warn,
    /// Do not look.
    Off,
}

/// The guard's configuration: `guard: {arguments: block, kinds: [...], patterns: [...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GuardSpec {
    /// What to do with a finding.
    pub arguments: GuardMode,
    /// The built-in kinds to look for; [`DEFAULT_GUARD_KINDS`] when left out.
    pub kinds: Option<Vec<String>>,
    /// Extra patterns, as in `redact.patterns`.
    pub patterns: Vec<CustomPattern>,
}

/// Why a [`GuardSpec`] cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GuardError {
    /// `kinds` names a kind that is not built in.
    #[error("guard.kinds: unknown kind `{kind}`; valid kinds are: {valid}")]
    UnknownKind {
        /// What was written.
        kind: String,
        /// The valid kinds, comma-separated.
        valid: String,
    },
    /// A custom pattern is not usable.
    #[error("guard.patterns: {0}")]
    Pattern(RedactError),
}

/// One place in the arguments where something was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgFinding {
    /// Where (keys holding a secret are shown redacted).
    pub path: ArgPath,
    /// The kinds found there, sorted, each once.
    pub kinds: Vec<String>,
}

/// What the guard did to a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuardAction {
    /// Nothing found (or the guard is off): the call goes as it is.
    Pass,
    /// Found something; the call goes unchanged (`warn`).
    Warn,
    /// Found something and replaced it; the call goes with placeholders (`redact`).
    Redacted,
    /// Found something; the call must not be made (`block`).
    Block,
}

/// The guard's verdict on one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardVerdict {
    /// What was done.
    pub action: GuardAction,
    /// What was found, sorted by path.
    pub findings: Vec<ArgFinding>,
}

impl GuardVerdict {
    /// Findings counted by kind, for telemetry.
    pub fn counts(&self) -> RedactionCounts {
        let mut counts = RedactionCounts::default();
        for finding in &self.findings {
            for kind in &finding.kinds {
                counts.add(kind, 1);
            }
        }
        counts
    }

    /// `github_token at body; private_key at files[0].content`: kinds and places, no values.
    pub fn summary(&self) -> String {
        let parts: Vec<String> =
            self.findings.iter().map(|f| format!("{} at {}", f.kinds.join(", "), f.path)).collect();
        parts.join("; ")
    }

    /// The error a blocked call gets.
    pub fn block_message(&self, tool: &str) -> String {
        format!(
            "the call to `{tool}` was blocked: its arguments hold what looks like a secret ({}). \
             Secrets must not be sent to tools; call again without them.",
            self.summary()
        )
    }
}

/// A [`GuardSpec`] compiled once, then applied to every call.
#[derive(Debug, Clone)]
pub struct ArgumentGuard {
    mode: GuardMode,
    redactor: Redactor,
}

impl ArgumentGuard {
    /// Compiles a spec: checks the kinds and compiles the patterns.
    pub fn new(spec: &GuardSpec) -> Result<ArgumentGuard, GuardError> {
        let wanted: Vec<&str> = match &spec.kinds {
            Some(kinds) => kinds.iter().map(|k| k.trim()).collect(),
            None => DEFAULT_GUARD_KINDS.to_vec(),
        };
        if let Some(unknown) = wanted.iter().find(|k| !BUILTIN_KINDS.contains(k)) {
            return Err(GuardError::UnknownKind { kind: (*unknown).to_owned(), valid: BUILTIN_KINDS.join(", ") });
        }
        let disable = BUILTIN_KINDS.iter().filter(|k| !wanted.contains(k)).map(|k| (*k).to_owned()).collect();
        let redact =
            RedactSpec { builtins: true, disable, patterns: spec.patterns.clone(), style: RedactStyle::Placeholder };
        let redactor = Redactor::new(&redact).map_err(GuardError::Pattern)?;
        Ok(ArgumentGuard { mode: spec.arguments, redactor })
    }

    /// A guard that never looks.
    pub fn off() -> ArgumentGuard {
        ArgumentGuard { mode: GuardMode::Off, redactor: Redactor::none() }
    }

    /// The mode.
    pub fn mode(&self) -> GuardMode {
        self.mode
    }

    /// The kinds looked for: built-ins, then custom pattern names.
    pub fn kinds(&self) -> Vec<&str> {
        self.redactor.kinds()
    }

    /// Looks at a call's arguments; under `redact` rewrites what it found in place. Places at
    /// or under an `exempt` path are not looked at.
    pub fn check(&self, arguments: &mut Value, exempt: &[ArgPath]) -> GuardVerdict {
        if self.mode == GuardMode::Off || self.redactor.is_noop() {
            return GuardVerdict { action: GuardAction::Pass, findings: Vec::new() };
        }
        let rewrite = self.mode == GuardMode::Redact;
        let mut found: BTreeMap<ArgPath, Vec<String>> = BTreeMap::new();
        // Iterative: arguments may nest deeply. Each entry: the value, its path, its key.
        let mut stack: Vec<(&mut Value, ArgPath, Option<String>)> = vec![(arguments, ArgPath::root(), None)];
        while let Some((value, path, key)) = stack.pop() {
            if exempt.iter().any(|e| path.starts_with(e)) {
                continue;
            }
            match value {
                Value::String(_) | Value::Number(_) => {
                    let counts = self.scan_leaf(key.as_deref(), value, rewrite);
                    note(&mut found, path, &counts);
                }
                Value::Array(items) => {
                    for (i, item) in items.iter_mut().enumerate() {
                        stack.push((item, path.child(Step::Index(i)), None));
                    }
                }
                Value::Object(members) => {
                    let shown = self.scan_keys(members, &path, rewrite, &mut found);
                    for ((key, member), shown_key) in members.iter_mut().zip(shown) {
                        stack.push((member, path.child(Step::Key(shown_key)), Some(key.clone())));
                    }
                }
                Value::Null | Value::Bool(_) => {}
            }
        }
        let findings: Vec<ArgFinding> = found.into_iter().map(|(path, kinds)| ArgFinding { path, kinds }).collect();
        let action = match (findings.is_empty(), self.mode) {
            (true, _) | (_, GuardMode::Off) => GuardAction::Pass,
            (false, GuardMode::Warn) => GuardAction::Warn,
            (false, GuardMode::Redact) => GuardAction::Redacted,
            (false, GuardMode::Block) => GuardAction::Block,
        };
        GuardVerdict { action, findings }
    }

    /// Scans one string or number (as the member `key`, when it is one); rewrites it only
    /// when something was found and `rewrite` is set.
    fn scan_leaf(&self, key: Option<&str>, leaf: &mut Value, rewrite: bool) -> RedactionCounts {
        let mut counts = RedactionCounts::default();
        let mut copy = leaf.clone();
        match key {
            Some(key) => self.redactor.redact_field(key, &mut copy, &mut counts),
            None => self.redactor.redact_value(&mut copy, &mut counts),
        }
        if rewrite && !counts.is_empty() {
            *leaf = copy;
        }
        counts
    }

    /// Scans the keys of an object; returns each key as paths show it (redacted when it
    /// holds a finding). Under `rewrite`, keys that hold a finding are renamed in place,
    /// keeping member order; a renamed key that collides with another gets `#2`, `#3`, ….
    fn scan_keys(
        &self,
        members: &mut Map<String, Value>,
        path: &ArgPath,
        rewrite: bool,
        found: &mut BTreeMap<ArgPath, Vec<String>>,
    ) -> Vec<String> {
        let mut shown: Vec<String> = Vec::with_capacity(members.len());
        let mut renamed = false;
        for key in members.keys() {
            let mut counts = RedactionCounts::default();
            let redacted = self.redactor.redact_text(key, &mut counts).into_owned();
            if !counts.is_empty() {
                renamed = true;
                let unique = unique_key(&redacted, |k| members.contains_key(k) || shown.iter().any(|s| s == k));
                note(found, path.child(Step::Key(unique.clone())), &counts);
                shown.push(unique);
            } else {
                shown.push(key.clone());
            }
        }
        if rewrite && renamed {
            let old = std::mem::take(members);
            for ((_, value), key) in old.into_iter().zip(shown.iter()) {
                members.insert(key.clone(), value);
            }
        }
        shown
    }
}

/// `base`, or `base#2`, `base#3`, … — the first that `taken` says is free.
fn unique_key(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_owned();
    }
    (2..).map(|n| format!("{base}#{n}")).find(|k| !taken(k)).unwrap_or_else(|| base.to_owned())
}

/// Records the kinds of `counts` at `path`.
fn note(found: &mut BTreeMap<ArgPath, Vec<String>>, path: ArgPath, counts: &RedactionCounts) {
    if counts.is_empty() {
        return;
    }
    let kinds = found.entry(path).or_default();
    for kind in counts.0.keys() {
        if !kinds.contains(kind) {
            kinds.push(kind.clone());
        }
    }
    kinds.sort();
}

#[cfg(test)]
mod tests;
