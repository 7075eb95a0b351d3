//! `toolshape shape`: shape a saved upstream result exactly as the gateway would, with a
//! plan from flags or the plan of a config's mask (`--config FILE --tool NAME`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::anyhow;
use clap::{Args, ValueEnum};
use serde_json::{Map, Value};
use toolshape_mask::{CallContext, MaskSet};
use toolshape_shape::{
    Filter, OffsetContinuation, Projection, RenderMode, Resume, ShapeContext, ShapePlan, Shaper, SortOrder, SortSpec,
    TextKeep,
};
use toolshape_tokens::{Encoding, Tokenizer};

use super::ignored::{self, GivenFlags};
use super::{Failure, display_input, load_masks, print_line, read_input};

#[derive(Debug, Args)]
pub(crate) struct ShapeArgs {
    /// The most tokens the model may read, delimiters included.
    #[arg(long, default_value_t = toolshape_shape::DEFAULT_BUDGET_TOKENS, allow_negative_numbers = true,
          value_parser = parse_budget)]
    budget: usize,
    /// `text`: exactly what the model reads; `json`: the envelope alone.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The tokenizer budgets are counted with (default: the config's, else o200k_base).
    #[arg(long)]
    tokenizer: Option<Encoding>,
    /// How the envelope is written for the model.
    #[arg(long, value_enum, default_value_t = RenderArg::Json)]
    render: RenderArg,
    /// Where the records are (`$.items`); found automatically when absent.
    #[arg(long)]
    records: Option<String>,
    /// Fields to keep, with renames: `--project number,title,"user.login as author"`.
    #[arg(long, value_delimiter = ',')]
    project: Vec<String>,
    /// Sort key, `field` or `field:desc`.
    #[arg(long)]
    sort: Option<String>,
    /// RFC 9535 filter over each record: `@.state == 'open'`.
    #[arg(long)]
    filter: Option<String>,
    /// Token cap for a field: `--field-tokens body=80` (repeatable).
    #[arg(long = "field-tokens", value_name = "FIELD=N")]
    field_tokens: Vec<String>,
    /// For text: keep the head (the default), or head and tail.
    #[arg(long, value_enum)]
    keep: Option<KeepArg>,
    /// Resume at record N (from a previous `next`).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_position)]
    offset: Option<u64>,
    /// Resume text at byte N (from a previous `next`).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_position)]
    byte: Option<u64>,
    /// Stop at byte N of a text, or before record N (from a previous `next`).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_position)]
    end: Option<u64>,
    /// Stop N bytes before the end of a text: the tail a first read showed (from a previous
    /// `next`).
    #[arg(long, requires = "byte", conflicts_with = "end", allow_negative_numbers = true, value_parser = parse_position)]
    before_end: Option<u64>,
    /// Go on with the summary's facets from facet N, which an earlier page had no room for
    /// (from a previous `next`).
    #[arg(long, requires = "offset", allow_negative_numbers = true, value_parser = parse_position)]
    facets: Option<u64>,
    /// Show the records from `--offset` without field caps.
    #[arg(long)]
    full_fields: bool,
    /// A fixed delimiter nonce, for reproducible output: letters and digits, or words separated
    /// by single spaces (random by default: five words).
    #[arg(long)]
    nonce: Option<String>,
    /// Print what shaping measured to standard error as JSON.
    #[arg(long)]
    report: bool,
    /// Shape as a mask of this config would (with --tool); the plan flags do not apply.
    #[arg(long, requires = "tool", conflicts_with_all = ["budget", "render", "records", "project", "sort", "filter", "field_tokens", "keep"])]
    config: Option<PathBuf>,
    /// The tool (mask name, or namespaced upstream tool) whose shaping to use.
    #[arg(long, requires = "config")]
    tool: Option<String>,
    /// The profile whose surface the tool must be on.
    #[arg(long, requires = "config")]
    profile: Option<String>,
    /// The call's arguments as JSON: checked like a real call, and they pick a switch case.
    #[arg(long, requires = "config")]
    arguments: Option<String>,
    /// The upstream result to shape; `-` or nothing reads standard input.
    file: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum RenderArg {
    Json,
    Prose,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum KeepArg {
    Head,
    HeadTail,
}

pub(crate) fn run(args: ShapeArgs) -> Result<(), Failure> {
    let masks = match &args.config {
        Some(path) => Some(load_masks(path)?.1),
        None => None,
    };
    let (mut shaper, tool, encoding, plan) = match (&masks, &args.tool) {
        (Some(masks), Some(tool)) => {
            (mask_shaper(masks, &args, tool)?, tool.clone(), args.tokenizer.unwrap_or(masks.defaults().tokenizer), None)
        }
        _ => {
            let plan = plan_from_args(&args).map_err(Failure::plan)?;
            let shaper = Shaper::new(plan.clone()).map_err(|e| Failure::plan(e.into()))?;
            (shaper, "tool".to_owned(), args.tokenizer.unwrap_or_default(), Some(plan))
        }
    };
    if args.full_fields {
        shaper = shaper.without_caps();
    }
    let input = read_input(args.file.as_deref())?;
    let nonce = match &args.nonce {
        Some(n) if n.split(' ').all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric())) => n.clone(),
        Some(_) => {
            return Err(Failure::usage(anyhow!(
                "--nonce takes letters and digits, or words of them separated by single spaces"
            )));
        }
        // As strong as the gateway's: the nonce is what keeps upstream text inside its delimiters.
        None => toolshape_util::random::nonce(),
    };
    let mut base = Map::new();
    base.insert("file".into(), Value::String(display_input(args.file.as_ref())));
    if let Some(config) = &args.config {
        base.insert("config".into(), Value::String(config.display().to_string()));
        base.insert("tool".into(), Value::String(tool.clone()));
    }
    let continuation = OffsetContinuation { tool: "toolshape shape".into(), base };
    let resume = match (args.offset, args.byte) {
        (Some(_), Some(_)) => {
            return Err(Failure::usage(anyhow!("give --offset (records) or --byte (text), not both")));
        }
        (Some(offset), None) if args.full_fields => Some(Resume::Fields { offset }),
        (Some(offset), None) => Some(Resume::Records { offset, end: args.end, facets: args.facets }),
        (None, Some(offset)) => Some(match args.before_end {
            Some(before_end) => Resume::TextBefore { offset, before_end },
            None => Resume::Text { offset, end: args.end },
        }),
        (None, None) => None,
    };
    let ctx = ShapeContext {
        tool: &tool,
        tokenizer: Tokenizer::new(encoding),
        nonce: &nonce,
        now_unix: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .and_then(|d| i64::try_from(d.as_secs()).ok()),
        resume,
        continuation: &continuation,
    };
    // Following `next` reads the snapshot the first call would have stored, exactly as the
    // gateway does: offsets then mean the same thing on every page (redacted text, records
    // after filter and sort).
    let shaped = if ctx.resume.is_some() {
        let snapshot = shaper.snapshot(&input, &ctx);
        let pages = shaper.for_pages().with_original_bytes(input.len() as u64);
        pages.shape(&snapshot.bytes, &ctx)
    } else {
        shaper.shape(&input, &ctx)
    }
    .map_err(|e| Failure::plan(e.into()))?;
    if let Some(plan) = &plan {
        let given = GivenFlags {
            records: args.records.is_some(),
            project: !args.project.is_empty(),
            sort: args.sort.is_some(),
            filter: args.filter.is_some(),
            field_tokens: !args.field_tokens.is_empty(),
            keep: args.keep.is_some(),
        };
        for note in ignored::notes(&given, plan, &shaped, &input, &ctx) {
            #[allow(clippy::print_stderr)]
            {
                eprintln!("toolshape: note: {note}");
            }
        }
    }
    if args.report {
        let report = serde_json::to_string(&shaped.report).unwrap_or_default();
        #[allow(clippy::print_stderr)]
        {
            eprintln!("{report}");
        }
    }
    match args.format {
        Format::Text => print_line(&shaped.text),
        Format::Json => print_line(&toolshape_shape::to_neutral_json(&shaped.envelope)),
    }
}

/// The shaper `tool` gets under the config: the one a real call would use when
/// `--arguments` are given (they may pick a switch case), else the mask's own.
fn mask_shaper(masks: &MaskSet, args: &ShapeArgs, tool: &str) -> Result<Shaper, Failure> {
    let surface = masks.surface(args.profile.as_deref(), &[]).map_err(|e| Failure::plan(e.into()))?;
    let refused = |e: toolshape_mask::CallError| Failure::plan(anyhow!("{}", e.message()));
    match &args.arguments {
        Some(text) => {
            let arguments: Value =
                serde_json::from_str(text).map_err(|e| Failure::usage(anyhow!("--arguments is not JSON: {e}")))?;
            let call = masks.prepare_call(&surface, tool, arguments, &CallContext::default()).map_err(refused)?;
            Ok(call.shaper.clone())
        }
        None => masks.shaper(&surface, tool).cloned().map_err(refused),
    }
}

fn plan_from_args(args: &ShapeArgs) -> anyhow::Result<ShapePlan> {
    let mut plan = ShapePlan {
        budget_tokens: args.budget,
        render: match args.render {
            RenderArg::Json => RenderMode::Json,
            RenderArg::Prose => RenderMode::Prose,
        },
        ..ShapePlan::default()
    };
    plan.text.keep = match args.keep.unwrap_or(KeepArg::Head) {
        KeepArg::Head => TextKeep::Head,
        KeepArg::HeadTail => TextKeep::HeadTail,
    };
    if let Some(r) = &args.records {
        plan.records = Some(r.parse()?);
    }
    plan.project = args.project.iter().map(|p| p.parse::<Projection>()).collect::<Result<_, _>>()?;
    if let Some(s) = &args.sort {
        let (field, order) = match s.rsplit_once(':') {
            Some((f, "desc")) => (f, SortOrder::Desc),
            Some((f, "asc")) => (f, SortOrder::Asc),
            Some((_, other)) => return Err(anyhow!("--sort order `{other}`: write `field:asc` or `field:desc`")),
            None => (s.as_str(), SortOrder::Asc),
        };
        plan.sort = Some(SortSpec { by: field.parse()?, order });
    }
    if let Some(f) = &args.filter {
        plan.filter = Some(Filter::parse(f)?);
    }
    let mut caps = BTreeMap::new();
    for spec in &args.field_tokens {
        let (field, n) =
            spec.split_once('=').ok_or_else(|| anyhow!("--field-tokens `{spec}`: write FIELD=N, like `body=80`"))?;
        let n: usize = n.trim().parse().map_err(|_| anyhow!("--field-tokens `{spec}`: N must be a whole number"))?;
        caps.insert(field.trim().to_owned(), n);
    }
    plan.field_tokens = caps;
    Ok(plan)
}

/// `--budget`: a whole number of tokens; a negative one is named as such (clap alone would
/// take `-5` for an unknown flag).
fn parse_budget(text: &str) -> Result<usize, String> {
    match text.trim().parse::<i128>() {
        Ok(n) if n < 0 => Err(format!(
            "a budget cannot be negative: it is the most tokens the model may read; give at least {}, like \
             `--budget 800`",
            toolshape_shape::MIN_BUDGET_TOKENS
        )),
        Ok(n) => usize::try_from(n).map_err(|_| format!("{n} tokens is more than this machine can count")),
        Err(_) => Err("the budget is a whole number of tokens, like `--budget 800`".to_owned()),
    }
}

/// `--offset`, `--byte`, `--end`: a position from a previous `next`, never negative.
fn parse_position(text: &str) -> Result<u64, String> {
    match text.trim().parse::<i128>() {
        Ok(n) if n < 0 => Err("a position cannot be negative: copy it from the `next` of a previous page".to_owned()),
        Ok(n) => u64::try_from(n).map_err(|_| format!("{n} is past any position")),
        Err(_) => Err("a position is a whole number, as the `next` of a previous page gives it".to_owned()),
    }
}
