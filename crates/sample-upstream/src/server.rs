//! The MCP server: lists the catalog and runs each call against the shared data.
//!
//! Arguments are checked against each tool's input schema (unknown ones refused); a bad
//! argument, an unknown issue or light, and `fail_with_error` answer an `isError` result
//! with a sentence saying what to do, as a careful real server would. Only a tool name that
//! does not exist is a JSON-RPC error. Work on the large data sets runs on the blocking pool,
//! so a `slow` call and a 10,000-issue page never hold up each other.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use crate::catalog::{self, Args};
use crate::data::{Data, IssueQuery, IssueSort, LIGHTS, LOG_LEVELS, StateFilter, TABLE_COLUMNS, TableQuery};
use crate::faults;

/// How the server is reached: the fault tools that write to standard output need stdio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    /// Newline-delimited JSON-RPC over standard input and output.
    Stdio,
    /// Streamable HTTP.
    Http,
}

/// The sample MCP server. Cheap to clone: the HTTP transport makes one per session.
#[derive(Debug, Clone)]
pub(crate) struct SampleServer {
    data: Arc<Data>,
    tools: Arc<Vec<Tool>>,
    transport: Transport,
}

/// What a tool call came to: a result, or a message for an `isError` result.
type Outcome = Result<CallToolResult, String>;

impl SampleServer {
    /// A server over `data`, reached through `transport`.
    pub(crate) fn new(data: Arc<Data>, transport: Transport) -> SampleServer {
        SampleServer { data, tools: Arc::new(catalog::tools()), transport }
    }

    /// The tool named `name`, if listed now.
    fn find(&self, name: &str) -> Option<Tool> {
        if name == catalog::BONUS_TOOL {
            return self.data.bonus().then(catalog::bonus_tool);
        }
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    /// Every tool listed now.
    fn listed(&self) -> Vec<Tool> {
        let mut tools = self.tools.to_vec();
        if self.data.bonus() {
            tools.push(catalog::bonus_tool());
        }
        tools
    }

    async fn run(&self, name: &str, args: Args, ctx: &RequestContext<RoleServer>) -> Outcome {
        match name {
            "slow" => slow(&args, ctx).await,
            "crash" => crash(&args).await,
            "garbage" => self.garbage(&args, ctx).await,
            "drip" => self.drip(&args, ctx).await,
            "toggle_bonus_tool" => {
                let listed = self.data.toggle_bonus();
                // A peer that cannot be told (or an older session kind) still sees the new list
                // at its next tools/list.
                let _ = ctx.peer.notify_tool_list_changed().await;
                Ok(text(if listed { "bonus_tool is listed now" } else { "bonus_tool is no longer listed" }))
            }
            catalog::BONUS_TOOL => {
                let name = args.str("name")?.unwrap_or("stranger");
                Ok(text(format!("bonus! hello, {name}")))
            }
            _ => {
                let data = Arc::clone(&self.data);
                let name = name.to_owned();
                tokio::task::spawn_blocking(move || data_tool(&data, &name, &args))
                    .await
                    .unwrap_or_else(|e| Err(format!("the tool failed inside the server: {e}")))
            }
        }
    }

    fn stdio_only(&self, tool: &str) -> Result<(), String> {
        match self.transport {
            Transport::Stdio => Ok(()),
            Transport::Http => Err(format!(
                "{tool} writes to standard output, which only the stdio transport reads; start the server without --http"
            )),
        }
    }

    async fn garbage(&self, args: &Args, ctx: &RequestContext<RoleServer>) -> Outcome {
        self.stdio_only("garbage")?;
        let lines = args.int("lines", 1, 100_000)?.unwrap_or(3) as usize;
        let kind = args.choice("kind", &["text", "partial", "binary"])?.unwrap_or("text");
        let answer = args.bool("answer")?.unwrap_or(true);
        faults::write_garbage(lines, kind).map_err(|e| format!("could not write to stdout: {e}"))?;
        if !answer {
            // Never answer: the caller's time-out (and its cancellation) is what ends the call.
            ctx.ct.cancelled().await;
            return Err("cancelled".to_owned());
        }
        Ok(text(format!("wrote {lines} {kind} garbage line(s) to stdout before this answer")))
    }

    async fn drip(&self, args: &Args, ctx: &RequestContext<RoleServer>) -> Outcome {
        self.stdio_only("drip")?;
        let chars = args.int("chars", 1, 100_000)?.unwrap_or(20) as usize;
        let interval = Duration::from_millis(args.int("interval_ms", 1, 60_000)?.unwrap_or(1000) as u64);
        let id = serde_json::to_value(&ctx.id).unwrap_or(Value::Null);
        let message = faults::drip_message(&id, chars);
        tokio::select! {
            written = faults::drip(&message, interval) => {
                written.map_err(|e| format!("could not write to stdout: {e}"))?;
            }
            () = ctx.ct.cancelled() => {}
        }
        // The answer went out by hand (or the call was cancelled): answering again would send a
        // second response for the same id. Wait for the session to end or the call to be
        // cancelled; the transport drops what a cancelled call returns.
        ctx.ct.cancelled().await;
        Err("cancelled".to_owned())
    }
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

fn state_filter(args: &Args, default: StateFilter) -> Result<StateFilter, String> {
    Ok(match args.choice("state", &["open", "closed", "all"])? {
        Some("open") => StateFilter::Open,
        Some("closed") => StateFilter::Closed,
        Some(_) => StateFilter::All,
        None => default,
    })
}

/// The tools that work on the data (and the fault tools that need no waiting).
fn data_tool(data: &Data, name: &str, args: &Args) -> Outcome {
    match name {
        "list_issues" => {
            let query = IssueQuery {
                state: state_filter(args, StateFilter::Open)?,
                label: args.str("label")?.map(str::to_owned),
                sort: match args.choice("sort", &["created", "updated", "comments"])? {
                    Some("updated") => IssueSort::Updated,
                    Some("comments") => IssueSort::Comments,
                    _ => IssueSort::Created,
                },
                descending: args.choice("direction", &["asc", "desc"])? != Some("asc"),
                per_page: args.int("per_page", 1, catalog::MAX_PER_PAGE)?.unwrap_or(30) as usize,
                page: args.int("page", 1, i64::from(u32::MAX))?.unwrap_or(1) as usize,
            };
            Ok(text(data.list_issues(&query)))
        }
        "get_issue" => {
            let number = args.int("number", i64::MIN, i64::MAX)?.unwrap_or_default();
            match data.get_issue(number) {
                Some(issue) => Ok(CallToolResult::structured(issue.clone())),
                None => {
                    let (lo, hi) = data.issue_number_range();
                    Err(format!(
                        "issue #{number} does not exist; numbers run from {lo} to {hi} with gaps: find one with list_issues or search_issues"
                    ))
                }
            }
        }
        "search_issues" => {
            let query = args.str("query")?.unwrap_or_default().trim();
            if query.is_empty() {
                return Err("search_issues: `query` needs at least one word".to_owned());
            }
            let state = state_filter(args, StateFilter::All)?;
            let per_page = args.int("per_page", 1, 100)?.unwrap_or(30) as usize;
            Ok(CallToolResult::structured(data.search_issues(query, state, per_page)))
        }
        "read_log" => {
            let lines = args.int("lines", 1, catalog::MAX_LOG_LINES)?.unwrap_or(catalog::DEFAULT_LOG_LINES) as usize;
            let min_level = args.choice("min_level", &LOG_LEVELS)?;
            Ok(text(data.read_log(lines, min_level)))
        }
        "query_table" => {
            let query = TableQuery {
                region: args.choice("region", &["EMEA", "AMER", "APAC"])?.map(str::to_owned),
                status: args
                    .choice("status", &["paid", "pending", "refunded", "cancelled", "overdue"])?
                    .map(str::to_owned),
                order_by: args.choice("order_by", &TABLE_COLUMNS)?.unwrap_or("id").to_owned(),
                descending: args.bool("descending")?.unwrap_or(false),
                limit: args.int("limit", 1, catalog::MAX_TABLE_LIMIT)?.unwrap_or(1000) as usize,
            };
            Ok(CallToolResult::structured(data.query_table(&query)))
        }
        "switch_light" => {
            let entity = args.str("entity")?.unwrap_or_default();
            let on = args.bool("on")?.unwrap_or_default();
            let brightness = args.int("brightness", 1, 255)?.map(|b| b as u8);
            data.switch_light(entity, on, brightness)
                .map(CallToolResult::structured)
                .ok_or_else(|| unknown_light(entity))
        }
        "light_status" => {
            let entity = args.str("entity")?;
            data.light_status(entity).map(CallToolResult::structured).ok_or_else(|| unknown_light(entity.unwrap_or("")))
        }
        "fail_with_error" => {
            let message = args.str("message")?.unwrap_or("canceling statement due to statement timeout");
            Err(faults::python_traceback(message))
        }
        "huge" => {
            let mb = args.int("mb", 1, catalog::MAX_HUGE_MB)?.unwrap_or(1) as usize;
            let json = args.choice("format", &["text", "json"])? == Some("json");
            Ok(text(faults::huge(mb, json)))
        }
        other => crate::media::call(other, args)
            .unwrap_or_else(|| Err(format!("{other} has no implementation (a bug in the sample server)"))),
    }
}

fn unknown_light(entity: &str) -> String {
    format!("unknown light `{entity}`; the lights are {}", LIGHTS.join(", "))
}

async fn slow(args: &Args, ctx: &RequestContext<RoleServer>) -> Outcome {
    let ms = args.int("ms", 0, catalog::MAX_SLOW_MS)?.unwrap_or(0) as u64;
    let token = ctx.meta.get_progress_token();
    // Ten progress steps, at most a second apart.
    let step = Duration::from_millis((ms / 10).clamp(1, 1000));
    let total = Duration::from_millis(ms);
    let started = tokio::time::Instant::now();
    loop {
        let elapsed = started.elapsed();
        if elapsed >= total {
            break;
        }
        tokio::select! {
            () = tokio::time::sleep(step.min(total - elapsed)) => {}
            () = ctx.ct.cancelled() => {
                // On stderr, which a gateway logs: how a test sees the cancellation arrive.
                let message = format!("slow: cancelled after {} ms", started.elapsed().as_millis());
                crate::note(&message);
                return Err(message);
            }
        }
        if let Some(token) = &token {
            let done = started.elapsed().min(total).as_millis() as f64;
            let note =
                ProgressNotificationParam::new(token.clone(), done).with_total(ms as f64).with_message("sleeping");
            // A client that went away cannot be told; the sleep goes on regardless.
            let _ = ctx.peer.notify_progress(note).await;
        }
    }
    Ok(text(format!("slept {ms} ms")))
}

async fn crash(args: &Args) -> Outcome {
    let after = args.int("after_ms", 0, 60_000)?.unwrap_or(0) as u64;
    let code = args.int("exit_code", 0, 255)?.unwrap_or(101) as i32;
    tokio::time::sleep(Duration::from_millis(after)).await;
    crate::note(&format!("crash: exiting with code {code}, as asked"));
    std::process::exit(code)
}

impl ServerHandler for SampleServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build())
            .with_server_info(
                Implementation::new("toolshape-sample-upstream", env!("CARGO_PKG_VERSION"))
                    .with_title("toolshape sample upstream"),
            )
            .with_instructions(
                "A sample issue tracker, application log, sales table and light switch with \
                 deterministic data, plus fault tools (fail_with_error, slow, huge, crash, garbage, \
                 drip) for testing what sits in front of it.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.listed()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.find(name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(tool) = self.find(&request.name) else {
            let listed = self.listed();
            let names: Vec<&str> = listed.iter().map(|t| &*t.name).collect();
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{}`; the tools are {}", request.name, names.join(", ")),
                None,
            ));
        };
        let outcome = match Args::new(&tool, request.arguments) {
            Ok(args) => self.run(&request.name, args, &context).await,
            Err(message) => Err(message),
        };
        if context.ct.is_cancelled() {
            return Err(ErrorData::internal_error("cancelled", None));
        }
        Ok(outcome.unwrap_or_else(|message| CallToolResult::error(vec![ContentBlock::text(message)])).into())
    }
}
