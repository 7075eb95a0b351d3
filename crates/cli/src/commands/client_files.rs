//! The file side of `init`, `install` and `uninstall`: this machine's client files, writing
//! them safely, backups, and the install records `uninstall` reads.
//!
//! A file is replaced by writing a sibling and renaming it over the original (keeping its
//! permissions), so a client never reads half a file. Records live in toolshape's state folder
//! (`$XDG_STATE_HOME/toolshape/installs`, else `~/.local/state/toolshape/installs`).

use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow};
use toolshape_clients::{Client, InstallRecord, Location, Machine, Os, Scope, locations};

use super::Failure;

/// This machine as the client library needs it: home, working folder and the variables that
/// move config folders.
pub(crate) fn machine() -> Result<Machine, Failure> {
    let home = std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| Failure::input(anyhow!("cannot tell the home folder: HOME is not set")))?;
    let cwd = std::env::current_dir().context("cannot read the working folder").map_err(Failure::input)?;
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    Ok(Machine {
        home,
        cwd,
        os: Os::current(),
        xdg_config_home: var("XDG_CONFIG_HOME").filter(|p| p.is_absolute()),
        appdata: var("APPDATA"),
        codex_home: var("CODEX_HOME"),
    })
}

/// The candidate files, narrowed to `client` and `scope` when given.
pub(crate) fn candidates(machine: &Machine, client: Option<Client>, scope: Option<Scope>) -> Vec<Location> {
    locations(machine)
        .into_iter()
        .filter(|l| client.is_none_or(|c| l.client == c) && scope.is_none_or(|s| l.scope == s))
        .collect()
}

/// A file's text, `None` when it does not exist.
pub(crate) fn read_text(path: &Path) -> Result<Option<String>, Failure> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| Failure::input(anyhow!("`{}` is not UTF-8 text", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Failure::input(anyhow::Error::new(e).context(format!("cannot read `{}`", path.display())))),
    }
}

/// Replace `path` with `bytes`: a sibling file renamed over it, with the old permissions.
pub(crate) fn write_replacing(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let fail =
        |e: std::io::Error| Failure::input(anyhow::Error::new(e).context(format!("cannot write `{}`", path.display())));
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(fail)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temp = dir.join(format!(".{name}.toolshape-{}", std::process::id()));
    std::fs::write(&temp, bytes).map_err(fail)?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(&temp, meta.permissions());
    }
    std::fs::rename(&temp, path).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        fail(e)
    })
}

/// Now, for backup names (`20261201T101500Z`) and records (RFC 3339).
pub(crate) fn now() -> (String, String) {
    let now = jiff::Timestamp::now();
    (now.strftime("%Y%m%dT%H%M%SZ").to_string(), now.to_string())
}

/// The backup of `path` taken at `stamp`: `<file>.toolshape-backup-<stamp>` beside it.
pub(crate) fn backup_path(path: &Path, stamp: &str) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!("{name}.toolshape-backup-{stamp}"))
}

/// Where install records are kept.
pub(crate) fn records_dir() -> PathBuf {
    let spans = toolshape_telemetry::default_spans_path();
    spans.parent().map_or_else(|| PathBuf::from("installs"), |p| p.join("installs"))
}

/// The record file of an install into `location`.
pub(crate) fn record_path(location: &Location) -> PathBuf {
    let key =
        toolshape_clients::digest(format!("{}|{}", location.path.display(), location.servers_at.describe()).as_bytes());
    records_dir().join(format!("{}-{}-{}.json", location.client, location.scope, &key[..12]))
}

/// The record of an install into `location`, when there is one.
pub(crate) fn load_record(location: &Location) -> Result<Option<InstallRecord>, Failure> {
    let path = record_path(location);
    let Some(text) = read_text(&path)? else { return Ok(None) };
    serde_json::from_str(&text)
        .map(Some)
        .with_context(|| format!("the install record `{}` is damaged", path.display()))
        .map_err(Failure::input)
}

/// Keep `record` for `location`.
pub(crate) fn save_record(location: &Location, record: &InstallRecord) -> Result<(), Failure> {
    let text =
        serde_json::to_string_pretty(record).context("cannot write the install record").map_err(Failure::input)?;
    write_replacing(&record_path(location), text.as_bytes())
}

/// Forget the record for `location`.
pub(crate) fn remove_record(location: &Location) -> Result<(), Failure> {
    match std::fs::remove_file(record_path(location)) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Failure::input(anyhow::Error::new(e).context("cannot remove the install record"))),
    }
}

/// `--client` values, for clap.
pub(crate) fn parse_client(text: &str) -> Result<Client, String> {
    Client::from_id(text).ok_or_else(|| {
        let names: Vec<&str> = Client::ALL.iter().map(|c| c.id()).collect();
        format!("unknown client `{text}`; one of: {}", names.join(", "))
    })
}

/// `--scope` values, for clap.
pub(crate) fn parse_scope(text: &str) -> Result<Scope, String> {
    Scope::from_id(text).ok_or_else(|| format!("unknown scope `{text}`; one of: user, local, project"))
}

/// An absolute form of `path` (made from the working folder; not resolving links).
pub(crate) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}
