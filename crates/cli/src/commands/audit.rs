//! `toolshape audit`: per tool, the most tokens one call can put into the model's context,
//! and the most of those that upstream-controlled free text can fill.
//!
//! Offline, the tools are the config's masks, plus one `prefix_*` line per upstream whose
//! unmasked tools are exposed with the default shaping. `--live` starts the upstreams, lists
//! their tools (each unmasked one gets its own line) and reads their `outputSchema`s, so
//! which fields are free text comes from the schema rather than an assumption.
//! Exit code 1 when a tool is flagged (its free text is bounded only by the budget, or its
//! ceiling is above `--threshold`), 0 otherwise.

use std::path::PathBuf;

use clap::Args;
use toolshape_mask::Config;
use toolshape_mask::audit::{AnswerKind, AuditReport, DEFAULT_THRESHOLD_TOKENS, OutputSchemas, ToolAudit, audit};

use super::upstream_list::list_upstream_tools;
use super::{EXIT_PROBLEMS, Failure, load_masks, print_line};

#[derive(Debug, Args)]
pub(crate) struct AuditArgs {
    /// The config file.
    #[arg(long)]
    config: PathBuf,
    /// Audit the surface of this profile (every tool when left out).
    #[arg(long)]
    profile: Option<String>,
    /// Flag tools whose upstream-controlled ceiling is above this many tokens.
    #[arg(long, default_value_t = DEFAULT_THRESHOLD_TOKENS)]
    threshold: usize,
    /// Print the audit as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Start the upstreams: audit their unmasked tools too and use their output schemas.
    #[arg(long)]
    live: bool,
}

pub(crate) fn run(args: AuditArgs) -> Result<(), Failure> {
    let (config, masks) = load_masks(&args.config)?;
    let (upstream_tools, schemas) = if args.live { live_lists(&config)? } else { (Vec::new(), OutputSchemas::new()) };
    let surface = masks.surface(args.profile.as_deref(), &upstream_tools).map_err(|e| Failure::plan(e.into()))?;
    let report = audit(&masks, &surface, &schemas, args.threshold);
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| Failure::plan(e.into()))?;
        print_line(&text)?;
    } else {
        print_table(&report)?;
    }
    let flagged = report.flagged();
    if flagged > 0 {
        return Err(Failure {
            error: anyhow::anyhow!(
                "{flagged} of {} tool(s) flagged: free text bounded only by the budget, or above {} tokens",
                report.tools.len(),
                report.threshold_tokens
            ),
            code: EXIT_PROBLEMS,
        });
    }
    Ok(())
}

fn live_lists(config: &Config) -> Result<(Vec<toolshape_mask::UpstreamTool>, OutputSchemas), Failure> {
    let listed = list_upstream_tools(config)?;
    let mut schemas = OutputSchemas::new();
    let mut tools = Vec::new();
    for (tool, schema) in listed {
        if let Some(schema) = schema {
            schemas.insert((tool.upstream.clone(), tool.name.clone()), schema);
        }
        tools.push(tool);
    }
    Ok((tools, schemas))
}

fn print_table(report: &AuditReport) -> Result<(), Failure> {
    let headers = ["TOOL", "FORM", "MAX TOKENS", "ATTACKER MAX", "IF A LIST", "ERROR TEXT", "BOUND BY", "FLAG"];
    let rows: Vec<[String; 8]> = report.tools.iter().map(row).collect();
    let mut widths = headers.map(str::len);
    for r in &rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 8]| -> String {
        let mut out = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            let pad = w.saturating_sub(cell.chars().count());
            // Numbers right-aligned, words left-aligned.
            if (2..=5).contains(&i) {
                out.push_str(&" ".repeat(pad));
                out.push_str(cell);
            } else {
                out.push_str(cell);
                if i + 1 < cells.len() {
                    out.push_str(&" ".repeat(pad));
                }
            }
            if i + 1 < cells.len() {
                out.push_str("  ");
            }
        }
        out.trim_end().to_owned()
    };
    print_line(&line(headers))?;
    for r in &rows {
        print_line(&line([&r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7]]))?;
    }
    let assumed = report.tools.iter().filter(|t| t.plan.knowledge.as_str() == "assumed").count();
    let profile = report.profile.as_ref().map(|p| format!(", profile `{p}`")).unwrap_or_default();
    print_line(&format!(
        "{} tool(s), {} flagged (threshold {} tokens, {}{profile}); {assumed} without an output schema (free text assumed)",
        report.tools.len(),
        report.flagged(),
        report.threshold_tokens,
        report.tokenizer
    ))?;
    print_advice(report)?;
    let open = report.tools.iter().any(|t| t.plan.cases.iter().any(|c| c.kind == AnswerKind::Text));
    if open {
        print_line(
            "note: without an output schema or a `records` path the answer may be plain text, which projection \
             and caps do not bound; IF A LIST is the ceiling once the answer is known to be a list",
        )?;
    }
    Ok(())
}

fn row(t: &ToolAudit) -> [String; 8] {
    let p = &t.plan;
    let tool = match &t.case {
        Some(case) => format!("{} [{case}]", t.tool),
        None => t.tool.clone(),
    };
    let attacker = if p.knowledge.as_str() == "assumed" && p.form != "status" {
        format!("{} (assumed)", p.attacker_tokens)
    } else {
        p.attacker_tokens.to_string()
    };
    let flag = if !t.flagged {
        String::new()
    } else if p.budget_bound {
        "UNCAPPED".to_owned()
    } else {
        "OVER".to_owned()
    };
    // What a list answer alone allows: the figure a `records` path or an output schema
    // leaves when it rules out object and text answers.
    let list = p
        .cases
        .iter()
        .find(|c| c.kind == AnswerKind::List)
        .map_or_else(|| "-".to_owned(), |c| c.attacker_tokens.to_string());
    [
        tool,
        p.form.to_owned(),
        p.max_tokens.to_string(),
        attacker,
        list,
        p.error_text_tokens.to_string(),
        p.bound_by.clone(),
        flag,
    ]
}

/// For each flagged tool: the lines to add under its `result:`, the ceiling they give, and
/// what they cannot bound.
fn print_advice(report: &AuditReport) -> Result<(), Failure> {
    let advised: Vec<&ToolAudit> = report.tools.iter().filter(|t| t.flagged && t.advice.is_some()).collect();
    if advised.is_empty() {
        return Ok(());
    }
    print_line("")?;
    print_line("What to change (each checked with this audit before it is shown):")?;
    for t in advised {
        let Some(advice) = &t.advice else { continue };
        if advice.lines.is_empty() {
            print_line(&format!("  {}:", t.tool))?;
        } else {
            let verdict = if advice.passes { "passes" } else { "still flagged" };
            print_line(&format!(
                "  {}: under `result:`, set (ceiling {} -> {} tokens, {verdict}):",
                t.tool, t.plan.attacker_tokens, advice.attacker_tokens
            ))?;
            for line in &advice.lines {
                print_line(&format!("      {line}"))?;
            }
        }
        for note in &advice.remaining {
            print_line(&format!("    {note}"))?;
        }
    }
    Ok(())
}
