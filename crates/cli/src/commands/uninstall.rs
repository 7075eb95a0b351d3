//! `toolshape uninstall --client NAME`: put back the client file `install` rewrote, byte for
//! byte, from its backup.
//!
//! When the client rewrote other parts of the file since (Claude Code updates its file at
//! every start), the servers are put back and toolshape's entry removed, keeping those
//! changes. Refused, with nothing changed, when the servers themselves were edited since:
//! restoring would lose that edit. The message names the backup so the two can be compared.

use anyhow::anyhow;
use clap::Args;
use toolshape_clients::{Client, Location, Scope, digest, restore_servers, servers_digest};

use super::client_files::{
    candidates, load_record, machine, parse_client, parse_scope, read_text, records_dir, remove_record, write_replacing,
};
use super::{EXIT_PROBLEMS, Failure, print_line};

#[derive(Debug, Args)]
pub(crate) struct UninstallArgs {
    /// The client: claude-desktop, claude-code, cursor, vscode, windsurf, gemini or codex.
    #[arg(long, value_parser = parse_client)]
    client: Client,
    /// Which of its files, when toolshape was installed in more than one.
    #[arg(long, value_parser = parse_scope)]
    scope: Option<Scope>,
    /// Say what would be restored, and change nothing.
    #[arg(long)]
    dry_run: bool,
}

fn refuse(message: String) -> Failure {
    Failure { error: anyhow!(message), code: EXIT_PROBLEMS }
}

pub(crate) fn run(args: UninstallArgs) -> Result<(), Failure> {
    let machine = machine()?;
    let mut installed = Vec::new();
    for location in candidates(&machine, Some(args.client), args.scope) {
        if let Some(record) = load_record(&location)? {
            installed.push((location, record));
        }
    }
    let (location, record) = match installed.len() {
        1 => installed.remove(0),
        0 => {
            return Err(refuse(format!(
                "no install of toolshape in {}{} is recorded (records are kept in `{}`)",
                args.client.display_name(),
                args.scope.map(|s| format!(" ({s})")).unwrap_or_default(),
                records_dir().display()
            )));
        }
        _ => {
            let scopes: Vec<&str> = installed.iter().map(|(l, _)| l.scope.id()).collect();
            return Err(refuse(format!(
                "toolshape is installed in several {} files ({}); choose one with --scope",
                args.client.display_name(),
                scopes.join(", ")
            )));
        }
    };
    let path = location.path.clone();
    let current = read_text(&path)?;
    let current_digest = current.as_ref().map(|t| digest(t.as_bytes()));
    let original = match &record.backup {
        Some(backup) => {
            let text = read_text(std::path::Path::new(backup))?.ok_or_else(|| {
                refuse(format!("the backup `{backup}` is gone; `{}` is left as it is", path.display()))
            })?;
            if record.before_sha256.as_deref() != Some(digest(text.as_bytes()).as_str()) {
                return Err(refuse(format!(
                    "the backup `{backup}` was changed since the install; nothing was restored"
                )));
            }
            Some(text)
        }
        None => None,
    };
    let untouched = current_digest.as_deref() == Some(record.after_sha256.as_str());
    // The client rewrote its file (Claude Code does at every start) but not its servers: put
    // the servers back and keep its other changes.
    let servers_untouched = !untouched
        && record.servers_sha256.is_some()
        && current.as_deref().and_then(|t| servers_digest(t, &location).ok()) == record.servers_sha256;
    if !untouched && !servers_untouched {
        let backup = record
            .backup
            .as_deref()
            .map_or_else(|| "the file did not exist before".to_owned(), |b| format!("the original is in `{b}`"));
        return Err(refuse(format!(
            "`{}` changed since `toolshape install` ({}), so it is not restored: that change would be lost. \
             {backup}; compare the two and edit by hand.",
            path.display(),
            record.installed_at
        )));
    }
    let restored = match (&original, servers_untouched) {
        (Some(text), false) => Some(text.clone()),
        (original, true) => Some(
            restore_servers(
                current.as_deref().unwrap_or_default(),
                original.as_deref().unwrap_or_default(),
                &location,
                &record.removed,
            )
            .map_err(|e| refuse(format!("cannot put the servers back into `{}`: {e}", path.display())))?,
        ),
        (None, false) => None,
    };
    if args.dry_run {
        return print_line(&match (&restored, servers_untouched) {
            (Some(_), false) => {
                format!("(dry run) would restore `{}` from `{}`", path.display(), record.backup.unwrap_or_default())
            }
            (Some(_), true) => {
                format!("(dry run) would put {} back into `{}`", record.removed.join(", "), path.display())
            }
            (None, _) => format!("(dry run) would remove `{}`, which install created", path.display()),
        });
    }
    match &restored {
        Some(text) => write_replacing(&path, text.as_bytes())?,
        None => std::fs::remove_file(&path).map_err(|e| {
            Failure::input(anyhow::Error::new(e).context(format!("cannot remove `{}`", path.display())))
        })?,
    }
    remove_record(&location)?;
    if servers_untouched {
        return print_line(&format!(
            "Put {} back into `{}` and removed toolshape's entry; the client's other changes to the file since the \
             install are kept (the original is in `{}`). Restart {}.",
            record.removed.join(", "),
            path.display(),
            record.backup.as_deref().unwrap_or("-"),
            location.client.display_name()
        ));
    }
    done(&location, record.backup.as_deref())
}

fn done(location: &Location, backup: Option<&str>) -> Result<(), Failure> {
    match backup {
        Some(b) => print_line(&format!(
            "Restored `{}` as it was before the install (the backup `{b}` is kept). Restart {}.",
            location.path.display(),
            location.client.display_name()
        )),
        None => print_line(&format!(
            "Removed `{}`, which the install had created. Restart {}.",
            location.path.display(),
            location.client.display_name()
        )),
    }
}
