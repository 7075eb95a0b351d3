//! `toolshape pin`: approve the upstreams' tool definitions in a lock file, see what changed
//! since, and approve changes one tool at a time.
//!
//! - `toolshape pin --config FILE` starts every upstream, lists its tools and writes the lock
//!   file (`toolshape.lock` next to the config, or the config's `pin.file`) with all of
//!   them, saying how many are new, changed or gone since the last pin.
//! - `--diff` writes nothing and shows each new, changed or removed tool as a line diff of
//!   its lock block.
//! - `--approve NAME` (repeatable) pins only the named tools as they are served now, by
//!   `upstream/tool`, listed name or mask name (a mask approves the handlers it calls);
//!   approving a tool an upstream no longer lists removes it from the lock.
//!
//! The file is replaced atomically (written beside it, then renamed), so a gateway that reads
//! it again while serving never sees half of it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow};
use clap::Args;
use toolshape_gateway::PinOptions;
use toolshape_mask::{Config, MaskSet};
use toolshape_trust::{Lock, OnChange, PinStatus, ToolDefinition, ToolKey, pin_diff};

use super::upstream_list::list_raw_tools;
use super::{EXIT_PROBLEMS, Failure, load_masks, print_line};

/// The lock file's name next to the config when the config does not name one.
pub(crate) const DEFAULT_LOCK_FILE: &str = "toolshape.lock";

#[derive(Debug, Args)]
pub(crate) struct PinArgs {
    /// The config file.
    #[arg(long)]
    config: PathBuf,
    /// Show what changed since the tools were pinned; write nothing.
    #[arg(long, conflicts_with = "approve")]
    diff: bool,
    /// Pin only this tool as served now: `upstream/tool`, its listed name, or a mask name
    /// (repeatable).
    #[arg(long, value_name = "NAME")]
    approve: Vec<String>,
}

/// The lock file of `config` (read from `config_path`): the config's `pin.file` relative to
/// the config's folder, else `toolshape.lock` beside it.
pub(crate) fn lock_path(config_path: &Path, config: &Config) -> PathBuf {
    let folder = config_path.parent().unwrap_or_else(|| Path::new(""));
    let file = config.pin.as_ref().and_then(|p| p.file.clone()).unwrap_or_else(|| DEFAULT_LOCK_FILE.to_owned());
    folder.join(file)
}

/// What `serve` and `call` compare tools with: the config's `pin.on_change`, or
/// `quarantine` when the lock file exists and the config does not say; nothing without
/// either.
pub(crate) fn pin_options(config_path: &Path, config: &Config) -> Option<PinOptions> {
    let path = lock_path(config_path, config);
    let on_change = match config.pin.as_ref().and_then(|p| p.on_change) {
        Some(mode) => mode,
        None if path.exists() => OnChange::Quarantine,
        None => return None,
    };
    Some(PinOptions { path, on_change })
}

pub(crate) fn run(args: PinArgs) -> Result<(), Failure> {
    super::serve::init_logging("warn");
    let (config, masks) = load_masks(&args.config)?;
    let path = lock_path(&args.config, &config);
    let shown = path.display().to_string();
    let lock = match std::fs::read_to_string(&path) {
        Ok(text) => Lock::parse(&text).map_err(|e| Failure {
            error: anyhow!("{shown}: {e}; fix the line, or delete the file and run `toolshape pin` again"),
            code: EXIT_PROBLEMS,
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Lock::new(),
        Err(e) => return Err(Failure::input(anyhow::Error::new(e).context(format!("cannot read `{shown}`")))),
    };
    let live = live_definitions(&config)?;
    if args.diff {
        return show_diff(&lock, &live, &shown, &args.config);
    }
    let mut next = lock.clone();
    let counts = if args.approve.is_empty() {
        pin_all(&mut next, &lock, &live)
    } else {
        approve(&mut next, &masks, &config, &live, &args.approve)?
    };
    write_atomically(&path, &next.render())
        .with_context(|| format!("cannot write `{shown}`"))
        .map_err(Failure::input)?;
    print_line(&format!(
        "{shown}: {} tools pinned ({} new, {} changed, {} removed)",
        next.len(),
        counts.get(&PinStatus::New).unwrap_or(&0),
        counts.get(&PinStatus::Changed).unwrap_or(&0),
        counts.get(&PinStatus::Removed).unwrap_or(&0)
    ))
}

/// Every upstream's tools as served now, by upstream.
fn live_definitions(config: &Config) -> Result<BTreeMap<String, Vec<ToolDefinition>>, Failure> {
    let mut live = BTreeMap::new();
    for (upstream, tools) in list_raw_tools(config)? {
        let mut defs = Vec::with_capacity(tools.len());
        for tool in tools {
            let json = serde_json::to_value(&tool).map_err(|e| Failure::input(e.into()))?;
            let def = ToolDefinition::from_mcp(&json).map_err(|e| {
                Failure::input(anyhow!("upstream `{upstream}` listed a tool that cannot be pinned: {e}"))
            })?;
            defs.push(def);
        }
        live.insert(upstream, defs);
    }
    Ok(live)
}

/// Pins every live tool, dropping what no upstream lists any more; counts by status.
fn pin_all(next: &mut Lock, old: &Lock, live: &BTreeMap<String, Vec<ToolDefinition>>) -> BTreeMap<PinStatus, usize> {
    let mut counts = BTreeMap::new();
    *next = Lock::new();
    for (upstream, defs) in live {
        for change in old.compare(upstream, defs) {
            *counts.entry(change.status).or_insert(0) += 1;
        }
        for def in defs {
            next.pin(upstream, def.clone());
        }
    }
    // Tools of upstreams that no longer exist in the config are gone too.
    let gone = old.iter().filter(|(key, _)| !live.contains_key(&key.upstream)).count();
    *counts.entry(PinStatus::Removed).or_insert(0) += gone;
    counts
}

/// Pins the named tools as served now (or forgets them when no longer served).
fn approve(
    next: &mut Lock,
    masks: &MaskSet,
    config: &Config,
    live: &BTreeMap<String, Vec<ToolDefinition>>,
    names: &[String],
) -> Result<BTreeMap<PinStatus, usize>, Failure> {
    let listed = super::upstream_list::as_upstream_tools(live);
    let mut counts = BTreeMap::new();
    for name in names {
        let handlers = masks.handlers_of(name, &listed);
        if handlers.is_empty() {
            return Err(Failure {
                error: anyhow!(
                    "`{name}` is not a tool of this config; name it as `upstream/tool`, by its listed name, or by a \
                     mask name (upstreams: {})",
                    config.upstreams.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
                code: EXIT_PROBLEMS,
            });
        }
        for (upstream, tool) in handlers {
            let key = ToolKey::new(upstream.clone(), tool.clone());
            let current = live.get(&upstream).and_then(|defs| defs.iter().find(|d| d.name == tool));
            let status = match current {
                Some(def) => next.check(&upstream, def),
                None if next.get(&key).is_some() => PinStatus::Removed,
                None => {
                    return Err(Failure {
                        error: anyhow!("upstream `{upstream}` does not list a tool `{tool}`, and it is not pinned"),
                        code: EXIT_PROBLEMS,
                    });
                }
            };
            match current {
                Some(def) => next.pin(&upstream, def.clone()),
                None => {
                    next.unpin(&key);
                }
            }
            *counts.entry(status).or_insert(0) += 1;
        }
    }
    Ok(counts)
}

/// Prints the diff of every new, changed or removed tool.
fn show_diff(
    lock: &Lock,
    live: &BTreeMap<String, Vec<ToolDefinition>>,
    shown: &str,
    config_path: &Path,
) -> Result<(), Failure> {
    let mut differ = 0;
    for (upstream, defs) in live {
        for diff in pin_diff(lock, upstream, defs) {
            differ += 1;
            print_line(&format!("{} {}", diff.status.as_str(), diff.key))?;
            print_line(diff.diff.trim_end())?;
            print_line("")?;
        }
    }
    for (key, _) in lock.iter().filter(|(key, _)| !live.contains_key(&key.upstream)) {
        differ += 1;
        print_line(&format!("removed {key} (upstream `{}` is no longer in the config)", key.upstream))?;
    }
    if differ == 0 {
        print_line(&format!("{shown}: every tool is served as pinned"))
    } else {
        print_line(&format!(
            "{differ} tool(s) differ from {shown}; approve one with `toolshape pin --config {} --approve NAME`, or all \
             with `toolshape pin --config {}`",
            config_path.display(),
            config_path.display()
        ))
    }
}

/// Writes `text` to a file beside `path`, then renames it over `path`.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!(".{}.tmp", std::process::id()));
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, text)?;
    std::fs::rename(&temporary, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temporary);
    })
}
