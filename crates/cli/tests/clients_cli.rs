//! `init`, `install` and `uninstall` on a temporary home folder holding the client configs of
//! `crates/clients/tests/fixtures/home` (every client and scope, with comments, keys that are
//! not servers and planted secrets containing `s3cr3t`).

use std::path::{Path, PathBuf};

use assert_cmd::Command;

const SECRET_MARK: &str = "s3cr3t";

struct Home {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    state: PathBuf,
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read fixtures") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

fn fixture_home() -> Home {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients/tests/fixtures/home");
    copy_tree(&fixtures, &home);
    let project = home.join("project");
    let claude = home.join(".claude.json");
    let text = std::fs::read_to_string(&claude).expect("claude.json");
    std::fs::write(&claude, text.replace("@PROJECT@", &project.to_string_lossy())).expect("write");
    let state = dir.path().join("state");
    Home { _dir: dir, home, project, state }
}

impl Home {
    fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::cargo_bin("toolshape").expect("binary");
        cmd.current_dir(&self.project)
            .env("HOME", &self.home)
            .env("XDG_STATE_HOME", &self.state)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("CODEX_HOME")
            .env_remove("APPDATA")
            .args(args);
        cmd
    }

    fn desktop(&self) -> PathBuf {
        self.home.join(".config/Claude/claude_desktop_config.json")
    }
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every `${NAME}` the config reads.
fn variables(yaml: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = yaml;
    while let Some(at) = rest.find("${") {
        let after = &rest[at + 2..];
        let end = after.find(['}', ':']).unwrap_or(0);
        if rest[..at].ends_with('$') || end == 0 {
            rest = after;
            continue;
        }
        out.push(after[..end].to_owned());
        rest = &after[end..];
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn init_imports_every_client_and_writes_no_secret() {
    let h = fixture_home();
    let out = h.cmd(&["init"]).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let yaml = std::fs::read_to_string(h.project.join("toolshape.yaml")).expect("written");
    assert!(!yaml.contains(SECRET_MARK), "{yaml}");
    assert!(!stdout(&out).contains(SECRET_MARK), "{}", stdout(&out));
    for upstream in
        ["github:", "github-cursor:", "filesystem:", "brave-search:", "sentry:", "time:", "db:", "perplexity:"]
    {
        assert!(yaml.contains(&format!("\n  {upstream}\n")), "{upstream} missing:\n{yaml}");
    }
    // It says which variables the config needs, and check passes once they are set.
    assert!(stdout(&out).contains("GITHUB_PERSONAL_ACCESS_TOKEN"), "{}", stdout(&out));
    let mut check = h.cmd(&["check", "--config", "toolshape.yaml"]);
    for var in variables(&yaml) {
        check.env(var, "x");
    }
    let checked = check.output().expect("runs");
    assert!(checked.status.success(), "{}{}", stdout(&checked), stderr(&checked));
    // Without them, check names what is missing.
    let unset = h.cmd(&["check", "--config", "toolshape.yaml"]).env_remove("GITHUB_PERSONAL_ACCESS_TOKEN").output();
    assert!(stdout(&unset.expect("runs")).contains("GITHUB_PERSONAL_ACCESS_TOKEN"));
    // A second init does not overwrite.
    let again = h.cmd(&["init"]).output().expect("runs");
    assert_eq!(again.status.code(), Some(3), "{}", stderr(&again));
    assert!(stderr(&again).contains("--force"));
}

#[test]
fn install_then_uninstall_restores_byte_for_byte() {
    let h = fixture_home();
    let original = std::fs::read(h.desktop()).expect("fixture");
    let init = h.cmd(&["init", "--client", "claude-desktop"]).output().expect("runs");
    assert!(init.status.success(), "{}", stderr(&init));
    // A dry run prints the diff with secrets hidden and writes nothing.
    let dry = h.cmd(&["install", "--client", "claude-desktop", "--dry-run"]).output().expect("runs");
    assert!(dry.status.success(), "{}", stderr(&dry));
    assert!(stdout(&dry).contains("+++") && stdout(&dry).contains("********"), "{}", stdout(&dry));
    assert!(!stdout(&dry).contains(SECRET_MARK), "{}", stdout(&dry));
    assert_eq!(std::fs::read(h.desktop()).expect("file"), original);

    let out = h
        .cmd(&["install", "--client", "claude-desktop", "--command", "/opt/toolshape/bin/toolshape"])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let installed: serde_json::Value =
        serde_json::from_slice(&std::fs::read(h.desktop()).expect("file")).expect("still JSON");
    let servers = installed["mcpServers"].as_object().expect("servers");
    assert_eq!(servers.keys().collect::<Vec<_>>(), ["toolshape"]);
    let entry = &servers["toolshape"];
    assert_eq!(entry["command"], "/opt/toolshape/bin/toolshape");
    let config = h.project.join("toolshape.yaml");
    assert_eq!(entry["args"], serde_json::json!(["serve", "--config", config.to_string_lossy()]));
    assert_eq!(entry["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"], "ghp_s3cr3tAbCdEf0123456789");
    assert_eq!(installed["globalShortcut"], "Ctrl+Space");
    assert_eq!(installed["preferences"]["theme"], "dark");
    // The backup is the original, with a timestamp in its name.
    let backups: Vec<PathBuf> = std::fs::read_dir(h.desktop().parent().expect("dir"))
        .expect("list")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().contains(".toolshape-backup-"))
        .collect();
    assert_eq!(backups.len(), 1);
    assert_eq!(std::fs::read(&backups[0]).expect("backup"), original);
    // Installing twice is refused.
    let twice = h.cmd(&["install", "--client", "claude-desktop"]).output().expect("runs");
    assert_eq!(twice.status.code(), Some(1));
    assert!(stderr(&twice).contains("already installed"), "{}", stderr(&twice));

    let un = h.cmd(&["uninstall", "--client", "claude-desktop"]).output().expect("runs");
    assert!(un.status.success(), "{}", stderr(&un));
    assert_eq!(std::fs::read(h.desktop()).expect("file"), original, "not byte for byte");
    let none = h.cmd(&["uninstall", "--client", "claude-desktop"]).output().expect("runs");
    assert_eq!(none.status.code(), Some(1));
}

#[test]
fn uninstall_refuses_servers_changed_since_install() {
    let h = fixture_home();
    assert!(h.cmd(&["install", "--client", "claude-desktop"]).output().expect("runs").status.success());
    let text = std::fs::read_to_string(h.desktop()).expect("file");
    let edited =
        text.replace("\"mcpServers\": {", "\"mcpServers\": {\n    \"mine\": { \"command\": \"added-later\" },");
    assert_ne!(edited, text);
    std::fs::write(h.desktop(), &edited).expect("edit");
    let out = h.cmd(&["uninstall", "--client", "claude-desktop"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("changed since `toolshape install`"), "{}", stderr(&out));
    assert!(stderr(&out).contains(".toolshape-backup-"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(h.desktop()).expect("file"), edited, "the edited file was touched");
}

#[test]
fn uninstall_keeps_the_clients_other_changes() {
    let h = fixture_home();
    assert!(h.cmd(&["install", "--client", "claude-desktop"]).output().expect("runs").status.success());
    let text = std::fs::read_to_string(h.desktop()).expect("file");
    // The client rewrites a setting of its own, as Claude Code does at every start.
    let edited = text.replace("Ctrl+Space", "Alt+Space");
    std::fs::write(h.desktop(), &edited).expect("edit");
    let out = h.cmd(&["uninstall", "--client", "claude-desktop"]).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let restored: serde_json::Value = serde_json::from_slice(&std::fs::read(h.desktop()).expect("file")).expect("JSON");
    assert_eq!(restored["globalShortcut"], "Alt+Space");
    let servers: Vec<&String> = restored["mcpServers"].as_object().expect("servers").keys().collect();
    assert_eq!(servers.len(), 3, "{servers:?}");
    assert!(!servers.iter().any(|s| *s == "toolshape"));
    assert_eq!(restored["mcpServers"]["github"]["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"], "ghp_s3cr3tAbCdEf0123456789");
}

#[test]
fn install_refuses_servers_the_config_does_not_front() {
    let h = fixture_home();
    assert!(h.cmd(&["init", "--client", "claude-desktop"]).output().expect("runs").status.success());
    let text = std::fs::read_to_string(h.desktop()).expect("file");
    let edited =
        text.replace("\"mcpServers\": {", "\"mcpServers\": {\n    \"added\": { \"command\": \"new-server\" },");
    std::fs::write(h.desktop(), &edited).expect("edit");
    let out = h.cmd(&["install", "--client", "claude-desktop"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stderr(&out).contains("`added`") && stderr(&out).contains("Nothing was changed"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(h.desktop()).expect("file"), edited);
}

#[test]
fn install_without_a_config_imports_the_clients_servers_first() {
    let h = fixture_home();
    let codex = h.home.join(".codex/config.toml");
    let original = std::fs::read(&codex).expect("fixture");
    let out = h.cmd(&["install", "--client", "codex", "--config", "codex.yaml"]).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let yaml = std::fs::read_to_string(h.project.join("codex.yaml")).expect("written");
    assert!(yaml.contains("\n  memory:\n") && yaml.contains("\n  notion:\n"), "{yaml}");
    let toml = std::fs::read_to_string(&codex).expect("file");
    assert!(toml.contains("[mcp_servers.toolshape]") && toml.contains("env_vars = [\"NOTION_TOKEN\"]"), "{toml}");
    assert!(toml.contains("[mcp_servers.legacy]") && toml.contains("[profiles.fast]"), "{toml}");
    assert!(!toml.contains("[mcp_servers.memory]"), "{toml}");
    assert!(h.cmd(&["uninstall", "--client", "codex"]).output().expect("runs").status.success());
    assert_eq!(std::fs::read(&codex).expect("file"), original);
}

#[test]
fn a_client_with_servers_in_two_files_needs_a_scope() {
    let h = fixture_home();
    let out = h.cmd(&["install", "--client", "cursor", "--dry-run"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--scope"), "{}", stderr(&out));
    let out = h.cmd(&["install", "--client", "nosuch"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("claude-desktop"), "{}", stderr(&out));
}
