//! `toolshape doctor --config FILE`: what `check` cannot see without running anything.
//!
//! It starts every upstream (timing it, counting its tools, keeping its stderr tail for a
//! failure), checks that every mask's handler is a tool its upstream lists (with the closest
//! name when not), renders every `handler_input` template with arguments made from the mask's
//! input schema (so an unknown filter or test, found only when a template runs, is found
//! here), and prints the surface's cost in tokens: the upstreams' lists as published, after
//! masking, and after deferral when `search:` is set. Each problem is printed once; any
//! problem means exit code 1.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow};
use clap::Args;
use rmcp::ServiceExt;
use rmcp::model::Tool;
use rmcp::transport::TokioChildProcess;
use serde_json::{Map, Value, json};
use tokio::io::AsyncBufReadExt;
use toolshape_mask::{CallContext, CallError, Config, MaskSet, ToolDefinition, Upstream, UpstreamTool, did_you_mean};
use toolshape_tokens::Tokenizer;

use super::{EXIT_PROBLEMS, Failure, print_line, read_config};

#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// The config file.
    #[arg(long)]
    config: PathBuf,
}

/// Lines of an upstream's stderr shown when it fails.
const STDERR_LINES: usize = 8;

/// What starting one upstream showed.
struct Probe {
    tools: Result<Vec<Tool>, String>,
    took: Duration,
    stderr: Vec<String>,
}

pub(crate) fn run(args: DoctorArgs) -> Result<(), Failure> {
    super::logging::init("error");
    let (name, text) = read_config(&args.config)?;
    let (config, masks) = match toolshape_mask::load(&text, &name, &|var| std::env::var(var).ok()) {
        Ok((mut config, masks)) => {
            super::config_paths::resolve(&mut config, &super::config_paths::config_dir(&args.config));
            (config, masks)
        }
        Err(errors) => {
            for e in &errors {
                print_line(&format!("problem: {e}"))?;
            }
            return Err(problems(errors.len()));
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
        .map_err(Failure::input)?;
    let mut problems_found = 0usize;
    let mut listed: Vec<UpstreamTool> = Vec::new();
    let mut reachable: BTreeMap<String, Vec<String>> = BTreeMap::new();
    print_line("upstreams:")?;
    for (upstream, spec) in &config.upstreams {
        let waiting = super::waiting::Waiting::start(format!("starting upstream {upstream}"));
        let probe = runtime.block_on(probe(spec));
        drop(waiting);
        let secs = probe.took.as_secs_f64();
        match probe.tools {
            Ok(tools) => {
                print_line(&format!("  ok    {upstream}: started in {secs:.1} s, {} tools", tools.len()))?;
                reachable.insert(upstream.clone(), tools.iter().map(|t| t.name.to_string()).collect());
                listed.extend(tools.into_iter().map(|t| UpstreamTool {
                    upstream: upstream.clone(),
                    name: t.name.to_string(),
                    description: t.description.as_deref().unwrap_or_default().to_owned(),
                    input_schema: Value::Object((*t.input_schema).clone()),
                    annotations: t.annotations.as_ref().and_then(|a| serde_json::to_value(a).ok()),
                }));
            }
            Err(why) => {
                problems_found += 1;
                print_line(&format!("  FAIL  {upstream}: {why} (after {secs:.1} s)"))?;
                for line in &probe.stderr {
                    print_line(&format!("        stderr: {line}"))?;
                }
                if probe.stderr.is_empty() {
                    print_line("        (nothing on its stderr)")?;
                }
            }
        }
    }
    print_line("masks:")?;
    let surface = masks.surface(None, &listed).map_err(|e| Failure::plan(e.into()))?;
    for mask in &config.masks {
        let mut handlers: Vec<&str> = mask.handler.iter().map(String::as_str).collect();
        if let Some(switch) = &mask.switch {
            handlers.extend(switch.cases.values().map(|c| c.handler.as_str()));
        }
        let mut mask_problems = Vec::new();
        for handler in handlers {
            let Some((upstream, tool)) = handler.split_once('/') else { continue };
            // An upstream that failed to start was reported above: its tools are unknown.
            let Some(tools) = reachable.get(upstream) else { continue };
            if !tools.iter().any(|t| t == tool) {
                let hint =
                    did_you_mean(tool, tools.iter().map(String::as_str)).map(|h| format!(" ({h})")).unwrap_or_default();
                mask_problems.push(format!("handler `{handler}`: upstream `{upstream}` has no tool `{tool}`{hint}"));
            }
        }
        mask_problems.extend(template_problems(&masks, &surface, &mask.name, mask.input_schema.as_ref()));
        if mask_problems.is_empty() {
            print_line(&format!("  ok    {}", mask.name))?;
        }
        for p in &mask_problems {
            print_line(&format!("  FAIL  {}: {p}", mask.name))?;
        }
        problems_found += mask_problems.len();
    }
    print_surface(&config, &masks, &surface, &listed, &runtime, &args.config)?;
    if problems_found > 0 {
        return Err(problems(problems_found));
    }
    print_line("no problems found")
}

fn problems(n: usize) -> Failure {
    Failure { error: anyhow!("{n} problem{} found", if n == 1 { "" } else { "s" }), code: EXIT_PROBLEMS }
}

/// Render the mask's templates with arguments made from its input schema: once with every
/// property, once with the required ones only. Only template failures count: arguments the
/// schema refuses say nothing about the config.
fn template_problems(
    masks: &MaskSet,
    surface: &toolshape_mask::Surface,
    mask: &str,
    schema: Option<&Value>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let schema = schema.cloned().unwrap_or_else(|| json!({"type": "object"}));
    for all in [true, false] {
        let args = sample_object(&schema, all);
        if let Err(CallError::Template { field, error, .. }) =
            masks.prepare_call(surface, mask, Value::Object(args), &CallContext::default())
        {
            let line = format!("template `{field}` fails: {error}");
            if !out.contains(&line) {
                out.push(line);
            }
        }
    }
    out
}

/// An object of plausible values for `schema`'s properties (all of them, or the required).
fn sample_object(schema: &Value, all: bool) -> Map<String, Value> {
    let required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let mut out = Map::new();
    for (name, prop) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
        if all || required.contains(&name.as_str()) {
            out.insert(name.clone(), sample(prop, 0));
        }
    }
    out
}

fn sample(schema: &Value, depth: usize) -> Value {
    if let Some(v) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return v.clone();
    }
    for key in ["const", "default"] {
        if let Some(v) = schema.get(key) {
            return v.clone();
        }
    }
    if let Some(v) = schema.get("examples").and_then(Value::as_array).and_then(|e| e.first()) {
        return v.clone();
    }
    let kind = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).find(|t| *t != "null").unwrap_or("string"),
        _ => "string",
    };
    match kind {
        "integer" => json!(schema.get("minimum").and_then(Value::as_i64).unwrap_or(1)),
        "number" => json!(schema.get("minimum").and_then(Value::as_f64).unwrap_or(1.5)),
        "boolean" => json!(true),
        "array" if depth < 4 => json!([sample(schema.get("items").unwrap_or(&Value::Null), depth + 1)]),
        "object" if depth < 4 => Value::Object(sample_object(schema, true)),
        "null" => Value::Null,
        _ => json!("example"),
    }
}

/// Tokens of the tool definitions a model reads: as the upstreams publish them, after
/// masking, and after deferral when `search:` is set.
fn print_surface(
    config: &Config,
    masks: &MaskSet,
    surface: &toolshape_mask::Surface,
    listed: &[UpstreamTool],
    runtime: &tokio::runtime::Runtime,
    path: &std::path::Path,
) -> Result<(), Failure> {
    let tok = Tokenizer::new(masks.defaults().tokenizer);
    let published: usize = listed
        .iter()
        .map(|t| {
            ToolDefinition {
                name: t.name.clone(),
                description: t.description.clone(),
                input_schema: t.input_schema.clone(),
                annotations: t.annotations.clone(),
            }
            .tokens(&tok)
        })
        .sum();
    let masked: Vec<&ToolDefinition> = surface.definitions().collect();
    let masked_tokens: usize = masked.iter().map(|d| d.tokens(&tok)).sum();
    print_line("surface:")?;
    print_line(&format!("  as the upstreams publish it: {} tools, {published} tokens", listed.len()))?;
    print_line(&format!("  after masking:               {} tools, {masked_tokens} tokens", masked.len()))?;
    if config.search.is_some() {
        // The deferred listing is the gateway's: ask one.
        let (config, masks) = super::load_masks(path)?;
        let served = runtime.block_on(async move {
            let gateway =
                toolshape_gateway::Gateway::launch(config, masks, super::serve::options(None, None, None, true))
                    .await
                    .ok()?;
            let defs = gateway.list_tools(&toolshape_gateway::Caller::local("doctor")).await;
            gateway.shutdown().await;
            Some(defs)
        });
        if let Some(defs) = served {
            let tokens: usize = defs.iter().map(|d| d.tokens(&tok)).sum();
            print_line(&format!("  after deferral (search):     {} tools, {tokens} tokens", defs.len()))?;
        }
    }
    Ok(())
}

/// Start (or connect to) one upstream and list its tools, keeping its stderr's last lines.
async fn probe(spec: &Upstream) -> Probe {
    let started = Instant::now();
    let stderr: Arc<Mutex<VecDeque<String>>> = Arc::default();
    let wait = Duration::from_secs(spec.timeout_secs.max(1));
    let listing = async {
        if spec.command.is_none() {
            return super::upstream_list::list_one(spec).await.map_err(|e| format!("{e:#}"));
        }
        list_stdio(spec, stderr.clone()).await
    };
    let tools = match tokio::time::timeout(wait, listing).await {
        Ok(result) => result,
        Err(_) => Err(format!("did not list its tools within {} s", wait.as_secs())),
    };
    // Let the last stderr lines of a process that just died arrive.
    if tools.is_err() {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let stderr = stderr.lock().map(|l| l.iter().cloned().collect()).unwrap_or_default();
    Probe { tools, took: started.elapsed(), stderr }
}

async fn list_stdio(spec: &Upstream, tail: Arc<Mutex<VecDeque<String>>>) -> Result<Vec<Tool>, String> {
    let argv = spec.command.as_deref().unwrap_or_default();
    let (program, args) = argv.split_first().ok_or_else(|| "`command` is empty".to_owned())?;
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args).envs(&spec.env).kill_on_drop(true);
    if let Some(dir) = &spec.cwd {
        cmd.current_dir(dir);
    }
    let (transport, stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    if let Some(stderr) = stderr {
        tokio::spawn(async move {
            let mut lines = tokio::io::BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if let Ok(mut kept) = tail.lock() {
                    if kept.len() == STDERR_LINES {
                        kept.pop_front();
                    }
                    kept.push_back(line.chars().take(300).collect());
                }
            }
        });
    }
    let client = ().serve(transport).await.map_err(|e| format!("the MCP handshake failed: {e}"))?;
    let tools = client.peer().list_all_tools().await.map_err(|e| format!("tools/list failed: {e}"));
    let _ = client.cancel().await;
    tools
}
