//! Rewriting a client's file so that it starts toolshape in place of the servers toolshape
//! now fronts, and the record that lets `uninstall` put the original back byte for byte.
//!
//! The new entry starts toolshape by absolute path with `serve --config <absolute path>`, and
//! carries in its `env` every variable the fronted servers' secrets moved to: literal secrets
//! copied from the servers' own entries, client references (VS Code's `${input:…}`) written
//! as they were so the client still expands them, and the client's environment variables
//! passed through in the client's own syntax (Codex: `env_vars`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::client::{Client, Location};
use crate::document::Document;
use crate::error::ClientsError;
use crate::import::{Source, Var};

/// The name toolshape's own entry gets in a client's file.
pub const ENTRY_NAME: &str = "toolshape";

/// toolshape's entry: how the client starts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The program (absolute).
    pub command: String,
    /// Its arguments (`serve --config /abs/toolshape.yaml`).
    pub args: Vec<String>,
    /// Its variables, each once.
    pub env: Vec<Var>,
}

impl Entry {
    /// The entry for `command args`, with `vars` merged: a name twice must have one source.
    pub fn new(command: String, args: Vec<String>, vars: &[Var]) -> Result<Entry, ClientsError> {
        let mut env: Vec<Var> = Vec::new();
        for var in vars {
            match env.iter().find(|v| v.name == var.name) {
                Some(existing) if existing.source == var.source => {}
                Some(existing) => {
                    return Err(ClientsError::VariableClash(var.name.clone(), existing.what.clone(), var.what.clone()));
                }
                None => env.push(var.clone()),
            }
        }
        Ok(Entry { command, args, env })
    }

    /// The literal secrets the entry carries (to hide them when a diff is printed).
    pub fn secrets(&self) -> Vec<String> {
        self.env
            .iter()
            .filter_map(|v| match &v.source {
                Source::Secret(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    }

    /// The entry as `client` writes it: a JSON object (Codex's is turned into a TOML table).
    /// Variables the client cannot pass through are listed in the error.
    pub fn to_json(&self, client: Client) -> Result<Value, ClientsError> {
        let mut entry = Map::new();
        if matches!(client, Client::ClaudeCode | Client::VsCode) {
            entry.insert("type".into(), json!("stdio"));
        }
        entry.insert("command".into(), json!(self.command));
        entry.insert("args".into(), json!(self.args));
        let mut env = Map::new();
        let mut forwarded = Vec::new();
        let mut impossible = Vec::new();
        for var in &self.env {
            let value = match (&var.source, client) {
                (Source::Secret(s) | Source::ClientRef(s), _) => s.clone(),
                (Source::Env(name), Client::Codex) => {
                    forwarded.push(json!(name));
                    continue;
                }
                (Source::Env(name), Client::ClaudeCode | Client::Gemini) => format!("${{{name}}}"),
                (Source::Env(name), Client::Cursor | Client::VsCode | Client::Windsurf) => format!("${{env:{name}}}"),
                (Source::Env(name), Client::ClaudeDesktop) => {
                    impossible.push(name.clone());
                    continue;
                }
            };
            env.insert(var.name.clone(), Value::String(value));
        }
        if !impossible.is_empty() {
            return Err(ClientsError::Unsupported(format!(
                "{} cannot pass its environment variables on: put the values of {} in toolshape's `env` by hand",
                client.display_name(),
                impossible.join(", ")
            )));
        }
        if !env.is_empty() {
            entry.insert("env".into(), Value::Object(env));
        }
        if !forwarded.is_empty() {
            entry.insert("env_vars".into(), Value::Array(forwarded));
        }
        Ok(Value::Object(entry))
    }
}

/// `text` (the client's file, empty when it does not exist) with `remove` taken out of the
/// servers and `entry` added as [`ENTRY_NAME`].
pub fn rewrite(text: &str, location: &Location, remove: &[String], entry: &Entry) -> Result<String, ClientsError> {
    let mut doc = Document::parse(text, location.format)?;
    doc.remove_servers(&location.servers_at, remove)?;
    doc.set_server(&location.servers_at, ENTRY_NAME, &entry.to_json(location.client)?)?;
    let mut out = doc.render();
    if text.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

/// What `install` did to one file, kept so `uninstall` can undo it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstallRecord {
    /// The client (`claude-code`).
    pub client: String,
    /// The scope (`local`).
    pub scope: String,
    /// The client's file.
    pub path: String,
    /// The copy of the file as it was, when it existed.
    pub backup: Option<String>,
    /// SHA-256 of the file as it was (`None`: it did not exist).
    pub before_sha256: Option<String>,
    /// SHA-256 of the file as `install` wrote it.
    pub after_sha256: String,
    /// When (RFC 3339).
    pub installed_at: String,
    /// The toolshape config the entry serves.
    pub config: String,
    /// The servers taken out of the file.
    pub removed: Vec<String>,
    /// [`servers_digest`] of the file as `install` wrote it: when the client rewrote the
    /// file since (Claude Code does at every start) but left its servers alone, `uninstall`
    /// puts the servers back and keeps the client's other changes.
    #[serde(default)]
    pub servers_sha256: Option<String>,
}

/// A digest of the servers at `location` in `text` (names and entries, in order).
pub fn servers_digest(text: &str, location: &Location) -> Result<String, ClientsError> {
    let servers = Document::parse(text, location.format)?.servers(&location.servers_at)?;
    let json = serde_json::to_string(&servers).map_err(|e| ClientsError::Shape(e.to_string()))?;
    Ok(digest(json.as_bytes()))
}

/// `current` with toolshape's entry taken out and the servers `removed` put back as they are
/// in `original`: the way back when the client changed other parts of its file.
pub fn restore_servers(
    current: &str,
    original: &str,
    location: &Location,
    removed: &[String],
) -> Result<String, ClientsError> {
    let before = Document::parse(original, location.format)?.servers(&location.servers_at)?;
    let mut doc = Document::parse(current, location.format)?;
    doc.remove_servers(&location.servers_at, &[ENTRY_NAME.to_owned()])?;
    for (name, entry) in before.iter().filter(|(name, _)| removed.contains(name)) {
        doc.set_server(&location.servers_at, name, entry)?;
    }
    Ok(doc.render())
}

/// The SHA-256 of `bytes`, in hex: how `install` and `uninstall` tell that a file changed.
pub fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// A unified diff from `old` to `new`, with each of `hide` replaced by `********`.
pub fn diff(old: &str, new: &str, old_label: &str, new_label: &str, hide: &[String]) -> String {
    let text = similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(old_label, new_label)
        .to_string();
    let mut hidden = text;
    let mut secrets: Vec<&String> = hide.iter().filter(|s| s.len() >= 4).collect();
    // Longest first, so a secret that contains another is hidden whole.
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    for secret in secrets {
        hidden = hidden.replace(secret.as_str(), "********");
        if let Ok(quoted) = serde_json::to_string(secret) {
            let inner = &quoted[1..quoted.len() - 1];
            hidden = hidden.replace(inner, "********");
        }
    }
    hidden
}
