//! File-driven tests over a fixture home folder holding one config of every client and scope
//! (`tests/fixtures/home`), each written from the client's documented format with comments
//! and keys that are not servers. Planted secrets all contain `s3cr3t`.
//!
//! Snapshots (`tests/snapshots`) hold the config `init` writes and each rewritten file.

use std::path::{Path, PathBuf};

use serde_json::Value;
use toolshape_clients::yaml::{SourceFile, render_config};
use toolshape_clients::{
    Client, Entry, Format, Location, Machine, Os, Scope, Source, import, locations, read_servers, rewrite,
};

const SECRET_MARK: &str = "s3cr3t";

fn home() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/home")
}

fn machine() -> Machine {
    Machine {
        home: home(),
        cwd: home().join("project"),
        os: Os::Linux,
        xdg_config_home: None,
        appdata: None,
        codex_home: None,
    }
}

/// A fixture's text, with the project folder where Claude Code's file names it.
fn read(location: &Location) -> Option<String> {
    let text = std::fs::read_to_string(&location.path).ok()?;
    Some(text.replace("@PROJECT@", &machine().cwd.to_string_lossy()))
}

/// Paths made machine-independent for snapshots.
fn portable(text: &str) -> String {
    text.replace(&home().to_string_lossy().into_owned(), "/HOME")
}

fn found() -> Vec<(Location, String)> {
    locations(&machine()).into_iter().filter_map(|l| read(&l).map(|t| (l, t))).collect()
}

fn import_all() -> toolshape_clients::Import {
    let files: Vec<_> = found()
        .into_iter()
        .map(|(l, text)| {
            let servers = read_servers(&l, &text, &home()).unwrap_or_else(|e| panic!("{}: {e}", l.path.display()));
            (l, servers)
        })
        .collect();
    import(&files)
}

#[test]
fn every_client_and_scope_has_a_fixture() {
    let found = found();
    for client in Client::ALL {
        assert!(found.iter().any(|(l, _)| l.client == client), "no fixture for {client}");
    }
    for scope in [Scope::User, Scope::Local, Scope::Project] {
        assert!(found.iter().any(|(l, _)| l.scope == scope), "no fixture for scope {scope}");
    }
}

#[test]
fn init_writes_every_server_once_and_no_secret() {
    let import = import_all();
    let sources: Vec<SourceFile<'_>> = Vec::new();
    let yaml = render_config(&import, &sources);
    assert!(!yaml.contains(SECRET_MARK), "a secret reached the config:\n{yaml}");
    // Every secret that was moved is still reachable for `install`, as a literal source.
    let moved: Vec<&str> = import
        .upstreams
        .iter()
        .flat_map(|u| &u.vars)
        .filter_map(|v| match &v.source {
            Source::Secret(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    for planted in ["ghp_s3cr3t", "BSAs3cr3t", "sntrys_s3cr3t", "dk_s3cr3t", "s3cr3tQueryKey", "rt-s3cr3t"] {
        assert!(moved.iter().any(|m| m.starts_with(planted)), "{planted} not moved: {moved:?}");
    }
    let names: Vec<&str> = import.upstreams.iter().map(|u| u.upstream.as_str()).collect();
    // Same name, different server: the second gets its client's name.
    assert!(names.contains(&"github") && names.contains(&"github-cursor"), "{names:?}");
    // Same server in two clients: imported once.
    assert_eq!(names.iter().filter(|n| **n == "time").count(), 1);
    assert!(import.duplicates.iter().any(|(_, server, upstream)| server == "time" && upstream == "time"));
    // Switched off, SSE and the other project's servers stay out.
    for absent in ["old", "legacy", "events", "other"] {
        assert!(!names.contains(&absent), "{absent} imported");
    }
    assert_eq!(import.skipped.len(), 3, "{:?}", import.skipped);
    insta::assert_snapshot!("init", portable(&yaml));
}

#[test]
fn the_written_config_passes_check() {
    let yaml = render_config(&import_all(), &[]);
    let lookup = |_: &str| Some("value".to_owned());
    let loaded = toolshape_mask::load(&yaml, "toolshape.yaml", &lookup);
    if let Err(errors) = loaded {
        panic!("{errors}\n{yaml}");
    }
}

fn entry_for(location: &Location, text: &str) -> (Entry, Vec<String>) {
    let servers = read_servers(location, text, &home()).unwrap_or_default();
    let import = import(&[(location.clone(), servers)]);
    let vars: Vec<_> = import.upstreams.iter().flat_map(|u| u.vars.clone()).collect();
    let entry = Entry::new(
        "/opt/toolshape/bin/toolshape".into(),
        vec!["serve".into(), "--config".into(), "/HOME/toolshape.yaml".into()],
        &vars,
    )
    .expect("one source per variable");
    (entry, import.upstreams.iter().map(|u| u.server.clone()).collect())
}

/// The whole document as JSON, minus the servers at `location` (what must not change).
fn everything_else(location: &Location, text: &str) -> Value {
    let mut value = match location.format {
        Format::Json => jsonc_value(text),
        Format::Toml => toml_value(text),
    };
    let servers = match &location.servers_at {
        toolshape_clients::ServersAt::McpServers => value.get_mut("mcpServers"),
        toolshape_clients::ServersAt::Servers => value.get_mut("servers"),
        toolshape_clients::ServersAt::McpServersTable => value.get_mut("mcp_servers"),
        toolshape_clients::ServersAt::ProjectMcpServers(p) => {
            value.get_mut("projects").and_then(|v| v.get_mut(p.as_str())).and_then(|v| v.get_mut("mcpServers"))
        }
    };
    if let Some(s) = servers {
        *s = Value::Null;
    }
    value
}

fn jsonc_value(text: &str) -> Value {
    let root = jsonc_parser::cst::CstRootNode::parse(text, &Default::default()).expect("parses");
    root.to_serde_value().unwrap_or(Value::Null)
}

fn toml_value(text: &str) -> Value {
    let parsed: toml_edit::DocumentMut = text.parse().expect("toml");
    let mut map = serde_json::Map::new();
    for (k, v) in parsed.iter() {
        map.insert(k.to_owned(), Value::String(v.to_string()));
    }
    Value::Object(map)
}

#[test]
fn install_rewrites_each_file_keeping_everything_else() {
    for (location, text) in found() {
        let label = format!("{}-{}", location.client, location.scope);
        let (entry, fronted) = entry_for(&location, &text);
        let rewritten = rewrite(&text, &location, &fronted, &entry).unwrap_or_else(|e| panic!("{label}: {e}"));
        // Servers toolshape fronts are gone, toolshape is there, skipped ones are kept.
        let after = read_servers(&location, &rewritten, &home()).expect("still parses");
        let names: Vec<&str> = after.iter().map(|s| s.name.as_str()).collect();
        assert!(names.contains(&"toolshape"), "{label}: {names:?}");
        for gone in &fronted {
            assert!(!names.contains(&gone.as_str()), "{label}: {gone} still there");
        }
        let before = read_servers(&location, &text, &home()).expect("parses");
        for kept in before.iter().filter(|s| s.skip.is_some()) {
            assert!(names.contains(&kept.name.as_str()), "{label}: skipped {} was removed", kept.name);
        }
        // Every other key, and every comment, as it was; a comment on the line above a
        // removed server goes with it.
        assert_eq!(everything_else(&location, &text), everything_else(&location, &rewritten), "{label}");
        let lines: Vec<&str> = text.lines().collect();
        for (i, comment) in lines.iter().enumerate() {
            let trimmed = comment.trim_start();
            if !trimmed.starts_with("//") && !trimmed.starts_with('#') {
                continue;
            }
            let next = lines.get(i + 1).map_or("", |l| l.trim_start());
            let describes_removed = fronted.iter().any(|name| next.starts_with(&format!("\"{name}\"")));
            assert_eq!(rewritten.contains(comment.trim()), !describes_removed, "{label}: comment {comment}");
        }
        insta::assert_snapshot!(label, portable(&rewritten));
    }
}

#[test]
fn secrets_go_to_the_entry_in_the_clients_own_syntax() {
    let all = found();
    let get = |client: Client, scope: Scope| all.iter().find(|(l, _)| l.client == client && l.scope == scope).cloned();
    let (vscode, text) = get(Client::VsCode, Scope::Project).expect("fixture");
    let json = entry_for(&vscode, &text).0.to_json(Client::VsCode).expect("entry");
    assert_eq!(json["env"]["PERPLEXITY_KEY"], "${input:perplexity-key}");
    assert_eq!(json["type"], "stdio");
    let (cursor, text) = get(Client::Cursor, Scope::User).expect("fixture");
    let json = entry_for(&cursor, &text).0.to_json(Client::Cursor).expect("entry");
    assert_eq!(json["env"]["GITHUB_TOKEN"], "${env:GITHUB_TOKEN}");
    let (desktop, text) = get(Client::ClaudeDesktop, Scope::User).expect("fixture");
    let json = entry_for(&desktop, &text).0.to_json(Client::ClaudeDesktop).expect("entry");
    assert_eq!(json["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"], "ghp_s3cr3tAbCdEf0123456789");
    assert_eq!(json["env"]["BRAVE_API_KEY"], "BSAs3cr3t9x8y7z6");
    let (codex, text) = get(Client::Codex, Scope::User).expect("fixture");
    let json = entry_for(&codex, &text).0.to_json(Client::Codex).expect("entry");
    assert_eq!(json["env_vars"][0], "NOTION_TOKEN");
}
