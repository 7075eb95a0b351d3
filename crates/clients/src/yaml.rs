//! The `toolshape.yaml` that `init` writes: the imported upstreams, and comments that say
//! where each came from and which variables hold its secrets (names only, never values).
//!
//! Strings are written as JSON strings, which YAML reads as double-quoted scalars with the
//! same escapes, so no value can change the document's structure.

use std::path::Path;

use crate::import::{Import, Source, UpstreamSpec};

/// A file that was read, for the header: its label, path and the servers found there.
#[derive(Debug, Clone)]
pub struct SourceFile<'a> {
    /// `claude-desktop (user)`.
    pub label: String,
    /// The file.
    pub path: &'a Path,
    /// Its server names.
    pub servers: Vec<String>,
}

/// The config text for `import`.
pub fn render_config(import: &Import, sources: &[SourceFile<'_>]) -> String {
    let mut out = String::new();
    out.push_str("# toolshape config, written by `toolshape init` from:\n");
    for s in sources {
        let names = if s.servers.is_empty() { "no servers".to_owned() } else { s.servers.join(", ") };
        out.push_str(&format!("#   {}  {}: {names}\n", s.label, s.path.display()));
    }
    out.push_str(
        "#\n# Each server is an upstream below, under its own name; the model sees its tools with that\n\
         # name in front (`github_create_issue`), shaped by the defaults. Add masks to narrow them:\n\
         # `toolshape check --config FILE`, then `toolshape tools --live --config FILE`.\n",
    );
    let vars = variables(import);
    if !vars.is_empty() {
        out.push_str(
            "#\n# Secrets are not written here. Each `${VAR}` is read from toolshape's environment;\n\
             # `toolshape install --client NAME` puts the values in that client's entry for toolshape.\n",
        );
        for (name, what) in &vars {
            out.push_str(&format!("#   {name}: {what}\n"));
        }
    }
    for skipped in &import.skipped {
        out.push_str(&format!("# Not imported: {} server `{}`: {}.\n", skipped.from, skipped.server, skipped.reason));
    }
    out.push_str("\nupstreams:");
    if import.upstreams.is_empty() {
        out.push_str(" {}\n");
        return out;
    }
    out.push('\n');
    for (i, imported) in import.upstreams.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("  # {} server `{}`\n", imported.from, imported.server));
        for note in &imported.notes {
            out.push_str(&format!("  # Note: it {note}.\n"));
        }
        out.push_str(&upstream_yaml(&imported.upstream, &imported.spec, 2));
    }
    out
}

/// One upstream as YAML, `indent` spaces in: `name:` and its keys.
pub fn upstream_yaml(name: &str, spec: &UpstreamSpec, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = format!("{pad}{}:\n", quote_key(name));
    if let Some(command) = &spec.command {
        let items: Vec<String> = command.iter().map(|c| quote(c)).collect();
        out.push_str(&format!("{pad}  command: [{}]\n", items.join(", ")));
    }
    if let Some(url) = &spec.url {
        out.push_str(&format!("{pad}  url: {}\n", quote(url)));
    }
    if let Some(cwd) = &spec.cwd {
        out.push_str(&format!("{pad}  cwd: {}\n", quote(cwd)));
    }
    for (key, map) in [("env", &spec.env), ("headers", &spec.headers)] {
        if map.is_empty() {
            continue;
        }
        out.push_str(&format!("{pad}  {key}:\n"));
        for (k, v) in map {
            out.push_str(&format!("{pad}    {}: {}\n", quote(k), quote(v)));
        }
    }
    if let Some(secs) = spec.timeout_secs {
        out.push_str(&format!("{pad}  timeout_secs: {secs}\n"));
    }
    out
}

/// Every variable of the import once, with what it was in the client.
pub fn variables(import: &Import) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for u in &import.upstreams {
        for v in &u.vars {
            if out.iter().any(|(name, _)| *name == v.name) {
                continue;
            }
            let what = match &v.source {
                Source::Secret(_) => format!("{} of {} server `{}`", v.what, u.from, u.server),
                Source::ClientRef(raw) => format!("{raw} of {} server `{}`", u.from, u.server),
                Source::Env(name) => format!("the environment variable {name} (as the client read it)"),
            };
            out.push((v.name.clone(), what));
        }
    }
    out
}

fn quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

/// A key bare when it is a plain name, quoted otherwise.
fn quote_key(text: &str) -> String {
    let plain = !text.is_empty()
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !matches!(text, "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n")
        && !text.starts_with('-');
    if plain { text.to_owned() } else { quote(text) }
}
