//! `toolshape init`: write a config whose upstreams are the MCP servers the user's clients
//! already run.
//!
//! It reads every client file it knows on this machine and in the working folder (or the
//! ones `--client`, `--scope` and `--from` name), imports each server once, and writes
//! `toolshape.yaml`. Secrets are never written into it: each becomes a `${VAR}`, and the
//! command says which variables `serve` needs and that `install` provides them.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;
use toolshape_clients::yaml::{SourceFile, render_config, variables};
use toolshape_clients::{Client, ClientServer, Import, Location, Machine, Scope, import, read_servers};

use super::client_files::{absolute, candidates, machine, parse_client, parse_scope, read_text};
use super::{Failure, print_line};

#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// Read only this client's files: claude-desktop, claude-code, cursor, vscode, windsurf,
    /// gemini or codex.
    #[arg(long, value_parser = parse_client)]
    client: Option<Client>,
    /// Read only this scope's files: user, local (Claude Code's per-folder list) or project.
    #[arg(long, value_parser = parse_scope)]
    scope: Option<Scope>,
    /// Read this file instead of the client's usual one (needs --client).
    #[arg(long, value_name = "FILE", requires = "client")]
    from: Option<PathBuf>,
    /// The config to write.
    #[arg(long, short, value_name = "FILE", default_value = "toolshape.yaml")]
    output: PathBuf,
    /// Replace the config when it exists.
    #[arg(long)]
    force: bool,
    /// Print the config instead of writing it.
    #[arg(long)]
    dry_run: bool,
}

/// The client files read and their servers.
pub(crate) type Found = Vec<(Location, Vec<ClientServer>)>;

/// Read the servers of each candidate file that exists. A file that cannot be parsed is an
/// error naming it: importing around it would silently drop its servers.
pub(crate) fn read_all(machine: &Machine, candidates: Vec<Location>) -> Result<Found, Failure> {
    let mut found = Vec::new();
    for location in candidates {
        let Some(text) = read_text(&location.path)? else { continue };
        let servers = read_servers(&location, &text, &machine.home)
            .map_err(|e| Failure::input(anyhow!("{} config `{}`: {e}", location.label(), location.path.display())))?;
        // Claude Code's user file exists for every user; it counts only when it has servers.
        if servers.is_empty() && location.client == Client::ClaudeCode && location.scope != Scope::Project {
            continue;
        }
        found.push((location, servers));
    }
    Ok(found)
}

pub(crate) fn run(args: InitArgs) -> Result<(), Failure> {
    let machine = machine()?;
    let mut locations = candidates(&machine, args.client, args.scope);
    if let Some(from) = &args.from {
        let Some(mut first) = locations.into_iter().next() else {
            return Err(Failure::input(anyhow!("no such client file: --client with --scope names none")));
        };
        first.path = absolute(from);
        if read_text(&first.path)?.is_none() {
            return Err(Failure::input(anyhow!("`{}` does not exist", from.display())));
        }
        locations = vec![first];
    }
    let found = read_all(&machine, locations)?;
    if found.is_empty() {
        return Err(Failure::input(anyhow!(
            "found no MCP client config{}; name one with --client NAME --from FILE",
            args.client.map(|c| format!(" of {}", c.display_name())).unwrap_or_default()
        )));
    }
    let imported = import(&found);
    let sources: Vec<SourceFile<'_>> = found
        .iter()
        .map(|(l, servers)| SourceFile {
            label: l.label(),
            path: &l.path,
            servers: servers.iter().map(|s| s.name.clone()).collect(),
        })
        .collect();
    let yaml = render_config(&imported, &sources);
    if args.dry_run {
        return print_line(yaml.trim_end());
    }
    if args.output.exists() && !args.force {
        return Err(Failure::input(anyhow!(
            "`{}` exists; write elsewhere with --output FILE, or replace it with --force",
            args.output.display()
        )));
    }
    super::client_files::write_replacing(&args.output, yaml.as_bytes())?;
    summarize(&imported, &found, &args.output)
}

/// What was imported, what was left, and what `serve` needs.
fn summarize(imported: &Import, found: &Found, output: &std::path::Path) -> Result<(), Failure> {
    print_line(&format!(
        "Wrote {}: {} upstream{} from {} client file{}.",
        output.display(),
        imported.upstreams.len(),
        if imported.upstreams.len() == 1 { "" } else { "s" },
        found.len(),
        if found.len() == 1 { "" } else { "s" }
    ))?;
    for u in &imported.upstreams {
        print_line(&format!("  {:<20} {} server `{}`", u.upstream, u.from, u.server))?;
        for note in &u.notes {
            print_line(&format!("  {:<20} note: it {note}", ""))?;
        }
    }
    for (from, server, upstream) in &imported.duplicates {
        print_line(&format!("  {:<20} also {from} server `{server}` (the same server)", upstream))?;
    }
    for s in &imported.skipped {
        print_line(&format!("  not imported: {} server `{}`: {}", s.from, s.server, s.reason))?;
    }
    let vars = variables(imported);
    if !vars.is_empty() {
        print_line("Secrets were not copied into the config; it reads them from these variables:")?;
        for (name, what) in &vars {
            print_line(&format!("  {name:<32} {what}"))?;
        }
        print_line(
            "`toolshape install --client NAME` puts their values in that client's entry for toolshape; \
             to run `toolshape serve` or `call` yourself, set them in your environment first.",
        )?;
    }
    let clients: Vec<String> = {
        let mut c: Vec<String> = found.iter().map(|(l, _)| l.client.id().to_owned()).collect();
        c.dedup();
        c
    };
    print_line(&format!(
        "Next: toolshape check --config {0}; toolshape tools --live --config {0}; then \
         toolshape install --client {1}",
        output.display(),
        clients.first().map_or("NAME", String::as_str)
    ))
}
