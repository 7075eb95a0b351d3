//! `toolshape tools`: the tool surface a model would see from a config, with what each
//! definition costs in tokens.
//!
//! Offline, the surface is the masks. Saved upstream tool lists
//! (`--upstream-tools github=tools.json`, an MCP `tools/list` result or a bare array) add
//! the unmasked upstream tools the config exposes, and the cost of those lists as the
//! upstreams publish them, for comparison. `--live` starts the config's upstreams and lists
//! exactly what the gateway would serve, `result_read` included.

use std::path::PathBuf;

use anyhow::{Context, anyhow};
use clap::{Args, ValueEnum};
use serde_json::{Value, json};
use toolshape_mask::{ToolDefinition, UpstreamTool};
use toolshape_tokens::Tokenizer;

use toolshape_gateway::Gateway;

use super::serve::{init_logging, options};
use super::{EXIT_PROBLEMS, Failure, load_masks, print_line};

#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    /// The config file.
    #[arg(long)]
    config: PathBuf,
    /// Show the surface of this profile (every tool when left out).
    #[arg(long)]
    profile: Option<String>,
    /// `table` for people, `json` for scripts.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// A saved tool list of an upstream: `NAME=FILE` (repeatable).
    #[arg(long = "upstream-tools", value_name = "NAME=FILE", conflicts_with = "live")]
    upstream_tools: Vec<String>,
    /// Start the upstreams and list what the gateway would serve.
    #[arg(long)]
    live: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Format {
    Table,
    Json,
}

pub(crate) fn run(args: ToolsArgs) -> Result<(), Failure> {
    let (_config, masks) = load_masks(&args.config)?;
    let upstream = read_upstream_tools(&args.upstream_tools)?;
    let surface = masks.surface(args.profile.as_deref(), &upstream).map_err(|e| Failure::plan(e.into()))?;
    let encoding = masks.defaults().tokenizer;
    let tokenizer = Tokenizer::new(encoding);
    let live_defs = if args.live {
        // The gateway takes its own copy of the compiled config.
        let (config, live_masks) = load_masks(&args.config)?;
        Some(live_tools(config, live_masks, args.profile.clone())?)
    } else {
        None
    };
    let rows: Vec<(&ToolDefinition, usize)> = match &live_defs {
        Some(defs) => defs.iter().map(|d| (d, d.tokens(&tokenizer))).collect(),
        None => surface.definitions().map(|d| (d, d.tokens(&tokenizer))).collect(),
    };
    let total: usize = rows.iter().map(|(_, t)| t).sum();
    let raw_tokens: usize = upstream
        .iter()
        .map(|t| {
            let def = ToolDefinition {
                name: t.name.clone(),
                description: t.description.clone(),
                input_schema: t.input_schema.clone(),
                annotations: t.annotations.clone(),
            };
            def.tokens(&tokenizer)
        })
        .sum();

    match args.format {
        Format::Json => {
            let tools: Vec<Value> = rows
                .iter()
                .map(|(d, t)| {
                    let mut v = d.to_json();
                    if let Some(o) = v.as_object_mut() {
                        o.insert("tokens".into(), json!(t));
                    }
                    v
                })
                .collect();
            let mut out = json!({
                "profile": surface.profile(),
                "tokenizer": encoding.name(),
                "tools": tools,
                "total_tokens": total,
            });
            if !upstream.is_empty() {
                out["upstream_tools"] = json!({ "count": upstream.len(), "tokens": raw_tokens });
            }
            if !surface.notes().is_empty() {
                out["notes"] = json!(surface.notes());
            }
            print_line(&serde_json::to_string_pretty(&out).unwrap_or_default())
        }
        Format::Table => {
            let width = rows.iter().map(|(d, _)| d.name.chars().count()).max().unwrap_or(4).max(4);
            print_line(&format!("{:<width$}  {:>6}  DESCRIPTION", "TOOL", "TOKENS"))?;
            for (d, t) in &rows {
                print_line(&format!("{:<width$}  {:>6}  {}", d.name, t, clip(&d.description, 70)))?;
            }
            let profile = surface.profile().map(|p| format!(", profile `{p}`")).unwrap_or_default();
            print_line(&format!(
                "total: {} tool{}, {} tokens ({}{profile})",
                rows.len(),
                if rows.len() == 1 { "" } else { "s" },
                total,
                encoding.name()
            ))?;
            if !upstream.is_empty() {
                print_line(&format!(
                    "upstream tool lists as published: {} tools, {} tokens",
                    upstream.len(),
                    raw_tokens
                ))?;
            }
            for note in surface.notes() {
                print_line(&format!("note: {note}"))?;
            }
            if !args.live {
                print_line(
                    "note: a static listing, from the config alone: the masks, and unmasked upstream tools only from \
                     --upstream-tools lists; it leaves out every other upstream tool, toolshape's own tools \
                     (result_read, search) and whether the handlers exist. `--live` lists what the gateway serves; \
                     `toolshape doctor` checks the handlers.",
                )?;
            }
            Ok(())
        }
    }
}

/// What a running gateway over `config` lists: the upstreams are started, asked, and stopped.
fn live_tools(
    config: toolshape_mask::Config,
    masks: toolshape_mask::MaskSet,
    profile: Option<String>,
) -> Result<Vec<ToolDefinition>, Failure> {
    init_logging("warn");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
        .map_err(Failure::input)?;
    runtime.block_on(async move {
        let gateway = Gateway::launch(config, masks, options(profile, Some(60), Some(16), true))
            .await
            .map_err(|e| Failure { error: e.into(), code: EXIT_PROBLEMS })?;
        let defs = gateway.list_tools(&toolshape_gateway::Caller::local("cli")).await;
        gateway.shutdown().await;
        Ok(defs)
    })
}

fn clip(s: &str, max: usize) -> String {
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > max {
        format!("{}…", one_line.chars().take(max - 1).collect::<String>())
    } else {
        one_line
    }
}

/// Read `NAME=FILE` tool lists.
fn read_upstream_tools(specs: &[String]) -> Result<Vec<UpstreamTool>, Failure> {
    let mut out = Vec::new();
    for spec in specs {
        let (name, file) = spec.split_once('=').ok_or_else(|| {
            Failure::plan(anyhow!("--upstream-tools `{spec}`: write NAME=FILE, like `github=tools.json`"))
        })?;
        let text =
            std::fs::read_to_string(file).with_context(|| format!("cannot read `{file}`")).map_err(Failure::input)?;
        let value: Value =
            serde_json::from_str(&text).with_context(|| format!("`{file}` is not JSON")).map_err(Failure::input)?;
        let list = match &value {
            Value::Array(items) => items,
            Value::Object(o) => match o.get("tools") {
                Some(Value::Array(items)) => items,
                _ => {
                    return Err(Failure::input(anyhow!(
                        "`{file}`: expected `{{\"tools\": [...]}}` or an array of tools"
                    )));
                }
            },
            _ => return Err(Failure::input(anyhow!("`{file}`: expected `{{\"tools\": [...]}}` or an array of tools"))),
        };
        for item in list {
            let tool = UpstreamTool {
                upstream: name.to_owned(),
                name: item.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                description: item.get("description").and_then(Value::as_str).unwrap_or_default().to_owned(),
                input_schema: item.get("inputSchema").cloned().unwrap_or_else(|| json!({"type": "object"})),
                annotations: item.get("annotations").filter(|a| a.is_object()).cloned(),
            };
            if tool.name.is_empty() {
                return Err(Failure::input(anyhow!("`{file}`: a tool without a name")));
            }
            out.push(tool);
        }
    }
    Ok(out)
}
