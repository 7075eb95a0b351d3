//! `toolshape install --client NAME`: rewrite a client's config so that it starts toolshape
//! in place of the servers toolshape now fronts.
//!
//! Each server of the client's file must be an upstream of the config, as `init` imported it
//! (compared after both are read the same way); a server that is not (added or changed since
//! `init`) stops the install with nothing written. The file is backed up beside itself with a
//! timestamp, rewritten keeping every other key, and a record kept for `uninstall`. With no
//! config yet, the client's servers are imported into one first. `--dry-run` prints the diff,
//! secrets hidden.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::Args;
use toolshape_clients::import::{convert, name_candidates};
use toolshape_clients::yaml::{SourceFile, render_config, upstream_yaml};
use toolshape_clients::{
    Client, ClientServer, ENTRY_NAME, Entry, InstallRecord, Location, Machine, Scope, Skip, Var, diff, digest, import,
    rewrite, servers_digest,
};
use toolshape_mask::Upstream;

use super::client_files::{
    absolute, backup_path, candidates, load_record, machine, now, parse_client, parse_scope, read_text, save_record,
    write_replacing,
};
use super::init::read_all;
use super::{EXIT_PROBLEMS, Failure, print_line};

#[derive(Debug, Args)]
pub(crate) struct InstallArgs {
    /// The client: claude-desktop, claude-code, cursor, vscode, windsurf, gemini or codex.
    #[arg(long, value_parser = parse_client)]
    client: Client,
    /// Which of its files: user, local (Claude Code's per-folder list) or project. Needed
    /// only when more than one has servers.
    #[arg(long, value_parser = parse_scope)]
    scope: Option<Scope>,
    /// The toolshape config the client will serve (written from the client's servers first
    /// when it does not exist).
    #[arg(long, value_name = "FILE", default_value = "toolshape.yaml")]
    config: PathBuf,
    /// The toolshape program the client starts [default: this one].
    #[arg(long, value_name = "PATH")]
    command: Option<PathBuf>,
    /// Print the change as a diff, secrets hidden, and write nothing.
    #[arg(long)]
    dry_run: bool,
}

/// Refusals that leave everything as it was.
fn refuse(message: String) -> Failure {
    Failure { error: anyhow!(message), code: EXIT_PROBLEMS }
}

/// The file of `client` to work on: the `scope` asked, else the one file with servers, else
/// the user's (Claude Code's local list when the folder already has one).
pub(crate) fn choose_location(machine: &Machine, client: Client, scope: Option<Scope>) -> Result<Location, Failure> {
    let all = candidates(machine, Some(client), scope);
    if scope.is_some() {
        return all.into_iter().next().ok_or_else(|| refuse(format!("{} has no such scope", client.display_name())));
    }
    let found = read_all(machine, all.clone())?;
    let with_servers: Vec<&Location> =
        found.iter().filter(|(_, servers)| servers.iter().any(|s| s.skip.is_none())).map(|(l, _)| l).collect();
    match with_servers.as_slice() {
        [one] => Ok((*one).clone()),
        [] => all.into_iter().next().ok_or_else(|| refuse(format!("{} has no config file", client.display_name()))),
        several => {
            let list: Vec<String> = several.iter().map(|l| format!("{} ({})", l.scope, l.path.display())).collect();
            Err(refuse(format!(
                "{} has servers in several files: {}; choose one with --scope",
                client.display_name(),
                list.join(", ")
            )))
        }
    }
}

pub(crate) fn run(args: InstallArgs) -> Result<(), Failure> {
    let machine = machine()?;
    let location = choose_location(&machine, args.client, args.scope)?;
    if let Some(record) = load_record(&location)? {
        return Err(refuse(format!(
            "toolshape is already installed in {} (`{}`, {}); run `toolshape uninstall --client {} --scope {}` first",
            location.client.display_name(),
            record.path,
            record.installed_at,
            location.client,
            location.scope
        )));
    }
    let before = read_text(&location.path)?;
    let text = before.clone().unwrap_or_default();
    let servers = toolshape_clients::read_servers(&location, &text, &machine.home)
        .map_err(|e| refuse(format!("{} config `{}`: {e}", location.label(), location.path.display())))?;
    if servers.iter().any(|s| s.name == ENTRY_NAME || s.skip == Some(Skip::Toolshape)) {
        return Err(refuse(format!(
            "`{}` already has a `{ENTRY_NAME}` server; remove it (or uninstall) first",
            location.path.display()
        )));
    }
    let config_path = absolute(&args.config);
    if !config_path.exists() {
        write_config_from(&location, &servers, &config_path, args.dry_run)?;
    }
    let fronted = match_config(&location, &servers, &config_path)?;
    let program = match &args.command {
        Some(p) => absolute(p),
        None => std::env::current_exe()
            .and_then(std::fs::canonicalize)
            .map_err(|e| refuse(format!("cannot tell where this toolshape program is ({e}); give --command PATH")))?,
    };
    let vars: Vec<Var> = fronted.values().flatten().cloned().collect();
    let entry = Entry::new(
        program.to_string_lossy().into_owned(),
        vec!["serve".into(), "--config".into(), config_path.to_string_lossy().into_owned()],
        &vars,
    )
    .map_err(|e| refuse(e.to_string()))?;
    let removed: Vec<String> = fronted.keys().cloned().collect();
    let new_text = rewrite(&text, &location, &removed, &entry).map_err(|e| refuse(e.to_string()))?;
    let label = location.path.display().to_string();
    if args.dry_run {
        print_line(diff(&text, &new_text, &label, &label, &entry.secrets()).trim_end())?;
        return print_line("(dry run: nothing was written)");
    }
    // The file must be as it was read: a client (or person) writing it meanwhile would lose
    // that change otherwise.
    if read_text(&location.path)? != before {
        return Err(refuse(format!(
            "`{label}` changed while toolshape was installing; nothing was written, try again"
        )));
    }
    let (stamp, installed_at) = now();
    let backup = match &before {
        Some(original) => {
            let path = backup_path(&location.path, &stamp);
            write_replacing(&path, original.as_bytes())?;
            Some(path)
        }
        None => None,
    };
    write_replacing(&location.path, new_text.as_bytes())?;
    let record = InstallRecord {
        client: location.client.id().to_owned(),
        scope: location.scope.id().to_owned(),
        path: label.clone(),
        backup: backup.as_ref().map(|p| p.display().to_string()),
        before_sha256: before.as_ref().map(|t| digest(t.as_bytes())),
        after_sha256: digest(new_text.as_bytes()),
        installed_at,
        config: config_path.display().to_string(),
        removed: removed.clone(),
        servers_sha256: servers_digest(&new_text, &location).ok(),
    };
    save_record(&location, &record)?;
    report(&location, &record, &entry, &program)
}

fn report(location: &Location, record: &InstallRecord, entry: &Entry, program: &Path) -> Result<(), Failure> {
    let instead =
        if record.removed.is_empty() { String::new() } else { format!(" in place of {}", record.removed.join(", ")) };
    print_line(&format!(
        "Installed: {} ({}) now starts `{} serve --config {}`{instead}.",
        location.client.display_name(),
        record.path,
        program.display(),
        record.config
    ))?;
    if !entry.env.is_empty() {
        let names: Vec<&str> = entry.env.iter().map(|v| v.name.as_str()).collect();
        print_line(&format!("Its entry's env provides {}.", names.join(", ")))?;
    }
    if let Some(backup) = &record.backup {
        print_line(&format!("Backup: {backup}"))?;
    }
    print_line(&format!(
        "Restart {} to use it. Undo with: toolshape uninstall --client {} --scope {}",
        location.client.display_name(),
        location.client,
        location.scope
    ))
}

/// With no config yet: import this file's servers into one.
fn write_config_from(location: &Location, servers: &[ClientServer], path: &Path, dry_run: bool) -> Result<(), Failure> {
    let imported = import(&[(location.clone(), servers.to_vec())]);
    let source = SourceFile {
        label: location.label(),
        path: &location.path,
        servers: servers.iter().map(|s| s.name.clone()).collect(),
    };
    let yaml = render_config(&imported, &[source]);
    if dry_run {
        print_line(&format!("(dry run) would write {}:", path.display()))?;
        return print_line(yaml.trim_end());
    }
    write_replacing(path, yaml.as_bytes())?;
    print_line(&format!("Wrote {} from {} ({} upstreams).", path.display(), location.label(), imported.upstreams.len()))
}

/// Variables are read as markers (`\u{1}NAME\u{1}`) when configs are compared, so that a
/// value compares by its text and the variables it reads, whatever they are called.
fn placeholder(name: &str) -> Option<String> {
    Some(format!("\u{1}{name}\u{1}"))
}

/// Names given to the same variables by the import (left) and the config (right).
type Bindings = BTreeMap<String, String>;

/// Whether `ours` (a value as the import writes it) and `theirs` (the config's) are the same
/// text reading variables at the same places; each of our names is bound to theirs.
fn same_text(ours: &str, theirs: &str, bindings: &mut Bindings) -> bool {
    let a: Vec<&str> = ours.split('\u{1}').collect();
    let b: Vec<&str> = theirs.split('\u{1}').collect();
    if a.len() != b.len() {
        return false;
    }
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        if i % 2 == 0 {
            if x != y {
                return false;
            }
        } else if bindings.entry((*x).to_owned()).or_insert_with(|| (*y).to_owned()) != y {
            return false;
        }
    }
    true
}

fn same_list(ours: &[String], theirs: &[String], bindings: &mut Bindings) -> bool {
    ours.len() == theirs.len() && ours.iter().zip(theirs).all(|(a, b)| same_text(a, b, bindings))
}

fn same_map(ours: &BTreeMap<String, String>, theirs: &BTreeMap<String, String>, bindings: &mut Bindings) -> bool {
    ours.len() == theirs.len() && ours.iter().all(|(k, v)| theirs.get(k).is_some_and(|t| same_text(v, t, bindings)))
}

/// Whether two upstreams start or reach the same server with the same values; `None` when
/// they differ, else how our variable names map to the config's.
fn same_server(ours: &Upstream, theirs: &Upstream) -> Option<Bindings> {
    let mut b = Bindings::new();
    let same =
        same_list(ours.command.as_deref().unwrap_or_default(), theirs.command.as_deref().unwrap_or_default(), &mut b)
            && ours.command.is_some() == theirs.command.is_some()
            && same_list(ours.url.as_slice(), theirs.url.as_slice(), &mut b)
            && same_list(ours.cwd.as_slice(), theirs.cwd.as_slice(), &mut b)
            && same_map(&ours.env, &theirs.env, &mut b)
            && same_map(&ours.headers, &theirs.headers, &mut b);
    same.then_some(b)
}

/// The client's servers the config fronts, with the variables each needs; refuses when a
/// server of the client is not in the config as `init` would write it.
fn match_config(
    location: &Location,
    servers: &[ClientServer],
    config_path: &Path,
) -> Result<BTreeMap<String, Vec<Var>>, Failure> {
    let config_text = match read_text(config_path)? {
        Some(t) => t,
        None if servers.is_empty() => String::new(),
        None => return Err(refuse(format!("`{}` does not exist", config_path.display()))),
    };
    let name = config_path.display().to_string();
    let config = toolshape_mask::Config::parse(&config_text, &name, &placeholder).map_err(|errors| Failure {
        error: anyhow!("{} problem(s) in `{name}` (run `toolshape check --config {name}`):\n{errors}", errors.len()),
        code: EXIT_PROBLEMS,
    })?;
    let mut fronted = BTreeMap::new();
    let mut missing = Vec::new();
    for server in servers.iter().filter(|s| s.skip.is_none()) {
        let found = name_candidates(&server.name, location).into_iter().find_map(|upstream| {
            let existing = config.upstreams.get(&upstream)?;
            let (spec, vars) = convert(server, &upstream);
            let snippet = format!("upstreams:\n{}", upstream_yaml(&upstream, &spec, 2));
            let converted = toolshape_mask::Config::parse(&snippet, "import", &placeholder).ok()?;
            let bindings = same_server(converted.upstreams.get(&upstream)?, existing)?;
            Some(
                vars.into_iter()
                    .map(|mut v| {
                        v.name = bindings.get(&v.name).cloned().unwrap_or(v.name);
                        v
                    })
                    .collect::<Vec<Var>>(),
            )
        });
        match found {
            Some(vars) => {
                fronted.insert(server.name.clone(), vars);
            }
            None => missing.push(format!("`{}`", server.name)),
        }
    }
    if !missing.is_empty() {
        return Err(refuse(format!(
            "`{}` has servers that `{name}` does not front as they are now: {} (added or changed since `toolshape init`). \
             Nothing was changed. Import them again with `toolshape init --client {} --force`, or make the config's \
             upstream match the client's entry.",
            location.path.display(),
            missing.join(", "),
            location.client
        )));
    }
    Ok(fronted)
}
