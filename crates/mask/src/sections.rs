//! The config sections that set up the gateway's services rather than its tools: `search`
//! (deferred loading), `store` (where snapshots live), `auth` and `http` (HTTP mode), and
//! `telemetry` (the span log and metrics).
//!
//! Each section is plain data with defaults; [`crate::Config::parse`] reads and checks it
//! (every problem with its line). What a section names that only exists at run time (a tool
//! in `search.always_loaded`, a Redis server) is checked by the gateway when it starts.
//!
//! Secrets never sit in the file: a bearer token is named by the environment variable that
//! holds it (`token_env`), read through the loader's lookup, and never printed.

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `search:` tool search with deferred loading. When the section is present, only the
/// `always_loaded` tools (and the search and call tools) are listed at first; every other
/// tool is found through search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// Tools listed from the start: names, or patterns with `*` (`memory_*`). Every other
    /// tool is deferred until a search finds it. At least one entry.
    pub always_loaded: Vec<String>,
    /// How queries are matched unless the search call says otherwise.
    pub mode: SearchMode,
    /// How many tools a search returns unless it asks for another number (at most 50).
    pub limit: usize,
    /// The name of the search tool.
    pub tool_name: String,
    /// The name of the generic tool that calls any tool by name, for clients that do not
    /// follow `tools/list_changed`.
    pub call_tool_name: String,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            always_loaded: Vec::new(),
            mode: SearchMode::Bm25,
            limit: DEFAULT_SEARCH_LIMIT,
            tool_name: "search_tools".to_owned(),
            call_tool_name: "call_tool".to_owned(),
        }
    }
}

/// Results a search returns unless asked otherwise.
pub const DEFAULT_SEARCH_LIMIT: usize = 5;
/// The most results one search may return.
pub const MAX_SEARCH_LIMIT: usize = 50;

/// How a search query is matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SearchMode {
    /// Ranked keyword search (BM25 over names, descriptions and parameters).
    #[default]
    Bm25,
    /// A case-insensitive regular expression over the same fields.
    Regex,
}

impl SearchConfig {
    /// Whether `tool` is one of the always-loaded tools.
    pub fn is_always_loaded(&self, tool: &str) -> bool {
        self.always_loaded.iter().any(|p| glob_match(p, tool))
    }
}

/// Whether `name` matches `pattern`, where `*` stands for any run of characters.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let Some(first) = parts.next() else { return pattern == name };
    let Some(mut rest) = name.strip_prefix(first) else { return false };
    let pieces: Vec<&str> = parts.collect();
    let Some((last, middle)) = pieces.split_last() else { return rest.is_empty() };
    for piece in middle {
        match rest.find(piece) {
            Some(i) => rest = &rest[i + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// `store:` where snapshots (behind cursors and handles) and search sessions live.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct StoreConfig {
    /// `memory` (default; this process only), `sqlite` (a local file, survives restarts)
    /// or `redis` (shared by replicas).
    pub backend: StoreBackend,
    /// The SQLite file (backend `sqlite`).
    pub path: Option<String>,
    /// The Redis URL, like `redis://127.0.0.1:6379/0` (backend `redis`). Write a password
    /// through `${VAR}`; it is never logged.
    pub url: Option<String>,
    /// What every Redis key starts with, so several deployments can share one server.
    pub key_prefix: String,
    /// The most bytes the store holds (memory and SQLite); the oldest entries go first.
    pub max_bytes: u64,
    /// The most bytes one stored result may take.
    pub max_entry_bytes: u64,
    /// How long stored results (and their cursors and handles) live, in seconds.
    pub ttl_secs: u64,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            backend: StoreBackend::Memory,
            path: None,
            url: None,
            key_prefix: "toolshape:".to_owned(),
            max_bytes: 256 * 1024 * 1024,
            max_entry_bytes: 64 * 1024 * 1024,
            ttl_secs: 30 * 60,
        }
    }
}

/// Which store backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StoreBackend {
    /// In this process's memory.
    #[default]
    Memory,
    /// A local SQLite file.
    Sqlite,
    /// A Redis server shared by replicas.
    Redis,
}

/// `auth:` who may call in HTTP mode. Each principal has a bearer token (named by the
/// environment variable that holds it) and optionally a profile.
#[derive(Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct AuthConfig {
    /// Principals by name.
    pub principals: BTreeMap<String, Principal>,
    /// Token values, read from the environment when the config is loaded (principal name →
    /// token). Never serialized, never printed.
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) tokens: BTreeMap<String, String>,
}

impl fmt::Debug for AuthConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthConfig")
            .field("principals", &self.principals)
            .field("tokens", &format_args!("({} set)", self.tokens.len()))
            .finish()
    }
}

impl AuthConfig {
    /// Whether any principal is configured (HTTP mode then requires a bearer token).
    pub fn is_enabled(&self) -> bool {
        !self.principals.is_empty()
    }

    /// Each principal's name, token value and profile.
    pub fn credentials(&self) -> impl Iterator<Item = (&str, &str, Option<&str>)> {
        self.principals.iter().filter_map(|(name, p)| {
            self.tokens.get(name).map(|token| (name.as_str(), token.as_str(), p.profile.as_deref()))
        })
    }
}

/// One principal of `auth.principals`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Principal {
    /// The environment variable holding this principal's bearer token (at least 16
    /// characters).
    pub token_env: String,
    /// The profile whose tools this principal sees; every tool when absent.
    #[serde(default)]
    pub profile: Option<String>,
}

/// The shortest bearer token accepted.
pub const MIN_TOKEN_CHARS: usize = 16;

/// `http:` limits and checks of the Streamable HTTP endpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct HttpConfig {
    /// The largest request body accepted, in bytes.
    pub max_body_bytes: u64,
    /// `Origin` values accepted besides the loopback origins (browsers send one).
    pub allowed_origins: Vec<String>,
    /// `Host` values accepted besides the loopback names.
    pub allowed_hosts: Vec<String>,
    /// Serve Prometheus metrics at `/metrics`.
    pub metrics: bool,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            max_body_bytes: 4 * 1024 * 1024,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            metrics: true,
        }
    }
}

/// `telemetry:` the span log (one row per call) and exports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct TelemetryConfig {
    /// The SQLite span log: a path, or `off`. Default: `spans.sqlite` in the user's state
    /// folder (`$XDG_STATE_HOME/toolshape`, else `~/.local/state/toolshape`).
    pub spans: Option<String>,
    /// The largest the span log grows before it is rotated, in bytes.
    pub spans_max_bytes: u64,
    /// An OTLP/HTTP endpoint spans and metrics are exported to, like
    /// `http://127.0.0.1:4318`. No export when absent.
    pub otlp_endpoint: Option<String>,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig { spans: None, spans_max_bytes: 64 * 1024 * 1024, otlp_endpoint: None }
    }
}

impl TelemetryConfig {
    /// Whether the span log is switched off.
    pub fn spans_off(&self) -> bool {
        self.spans.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("off"))
    }
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn globs_match_prefixes_suffixes_and_middles() {
        assert!(glob_match("memory_*", "memory_read_graph"));
        assert!(!glob_match("memory_*", "fs_read"));
        assert!(glob_match("*", "anything"));
        assert!(glob_match("*_file", "read_text_file"));
        assert!(glob_match("a*b*c", "axxbyyc"));
        assert!(!glob_match("a*b*c", "axxbyy"));
        assert!(glob_match("exact", "exact"));
        assert!(!glob_match("exact", "exactly"));
        assert!(!glob_match("ab*ba", "aba"));
    }
}
