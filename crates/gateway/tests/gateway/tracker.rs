//! The HTTP upstream the gateway tests talk to: an issue tracker with a wide, schema'd tool
//! and some failing tools, and a loopback listener that never answers.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, ListPromptsResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, Prompt, PromptMessage, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, Role, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};
use toolshape_gateway::{Gateway, GatewayOptions};

// ---------------------------------------------------------------------------------------
// The HTTP upstream: an issue tracker with a wide, schema'd tool and some failing tools.

pub(super) fn issues() -> Vec<Value> {
    let words = ["save", "load", "render", "panel", "window", "export", "import", "theme", "cache", "login"];
    (1..=600)
        .map(|n: usize| {
            json!({
                "number": n,
                "title": format!("The {} button fails after the {} step", words[n % 10], words[(n * 7) % 10]),
                "state": if n.is_multiple_of(3) { "closed" } else { "open" },
                "user": {"login": format!("user{}", n % 17), "id": n * 11},
                "labels": [{"name": words[n % 4]}],
                "body": format!("Steps: open the {} view, press {} twice, then wait.", words[n % 10], words[(n + 3) % 10]),
            })
        })
        .collect()
}

/// Forty virtual machines of about 6 KB each: a pattern read narrows the one it finds.
pub(super) fn vms() -> Vec<Value> {
    (0..40)
        .map(|n| json!({"id": format!("vm-{n}"), "state": "running", "console": format!("boot {n} ok\n").repeat(600)}))
        .collect()
}

pub(super) fn log_text() -> String {
    let mut s = String::new();
    for i in 0..3000 {
        let level = if i % 50 == 0 {
            "ERROR"
        } else if i % 7 == 0 {
            "WARN"
        } else {
            "INFO"
        };
        s.push_str(&format!("2026-01-02T03:04:{:02} {level} worker step {i} finished the batch ✓\n", i % 60));
    }
    s.push_str("last line without a newline");
    s
}

/// A 10 MB application log with a secret of every built-in detector kind planted every 100
/// lines, and the secrets planted; made once.
pub(super) fn leaky_log() -> &'static (String, Vec<String>) {
    static LOG: std::sync::OnceLock<(String, Vec<String>)> = std::sync::OnceLock::new();
    LOG.get_or_init(|| toolshape_fixtures::logs::leaky_log_bytes(10_000_000, 100, 11))
}

#[derive(Clone)]
pub(super) struct Tracker;

/// Set when the upstream sees `wait_cancel` cancelled.
pub(super) static UPSTREAM_SAW_CANCEL: AtomicBool = AtomicBool::new(false);

pub(super) fn tool(name: &str, output_schema: bool) -> Tool {
    let mut t = Tool::new(name.to_owned(), format!("the {name} tool"), Arc::new(Map::new()));
    if output_schema {
        let schema = json!({"type": "object", "properties": {"items": {"type": "array"}}, "required": ["items"]});
        let Value::Object(m) = schema else { unreachable!() };
        t = t.with_raw_output_schema(Arc::new(m));
    }
    t
}

impl ServerHandler for Tracker {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_prompts().enable_resources().enable_tools().build())
    }

    async fn list_prompts(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new("triage", Some("Triage the newest issues"), None)]))
    }

    async fn get_prompt(
        &self,
        req: GetPromptRequestParams,
        _c: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        assert_eq!(req.name, "triage", "the gateway strips its prefix");
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, "Triage the newest issues.")]).into())
    }

    async fn list_resources(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new("tracker://readme", "readme")]))
    }

    async fn read_resource(
        &self,
        req: ReadResourceRequestParams,
        _c: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if req.uri != "tracker://readme" {
            return Err(ErrorData::resource_not_found(format!("no {}", req.uri), None));
        }
        Ok(ReadResourceResult::new(vec![ResourceContents::text("The tracker's readme.", req.uri)]).into())
    }

    async fn list_tools(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![
            tool("issues", true),
            tool("search", true),
            tool("log", false),
            tool("boom", false),
            tool("slow", false),
            tool("rpc_error", false),
            tool("progress", false),
            tool("wait_cancel", false),
            tool("announce", false),
            tool("huge", false),
            tool("leaky_log", false),
            tool("vms", false),
            tool("report", false),
        ]))
    }

    async fn call_tool(
        &self,
        req: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let r = match req.name.as_ref() {
            "progress" => {
                let token = ctx.meta.get_progress_token().expect("the gateway sends a progress token");
                for step in 1..=3 {
                    let p = ProgressNotificationParam::new(token.clone(), f64::from(step)).with_total(3.0);
                    ctx.peer.notify_progress(p).await.unwrap();
                }
                // Progress is for long calls: a call that ends the instant it reports can end
                // before its notifications are handled (rmcp handles each on its own task),
                // and the gateway stops forwarding a call's progress once the call is over.
                tokio::time::sleep(Duration::from_millis(200)).await;
                CallToolResult::success(vec![ContentBlock::text("done")])
            }
            "wait_cancel" => {
                tokio::select! {
                    () = ctx.ct.cancelled() => UPSTREAM_SAW_CANCEL.store(true, Ordering::SeqCst),
                    () = tokio::time::sleep(Duration::from_secs(20)) => {}
                }
                CallToolResult::success(vec![ContentBlock::text("finished")])
            }
            "huge" => CallToolResult::success(vec![ContentBlock::text("y".repeat(3 << 20))]),
            "announce" => {
                ctx.peer.notify_tool_list_changed().await.unwrap();
                CallToolResult::success(vec![ContentBlock::text("announced")])
            }
            "issues" | "search" => CallToolResult::structured(json!({"items": issues()})),
            "log" => CallToolResult::success(vec![ContentBlock::text(log_text())]),
            "leaky_log" => CallToolResult::success(vec![ContentBlock::text(leaky_log().0.clone())]),
            "vms" => CallToolResult::structured(json!({"items": vms()})),
            "report" => CallToolResult::structured(file_report()),
            "boom" => CallToolResult::error(vec![ContentBlock::text(
                "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n  File \"b.py\", line 2, in f\nValueError: the repository acme/nope does not exist",
            )]),
            "slow" => {
                tokio::time::sleep(Duration::from_secs(20)).await;
                CallToolResult::success(vec![ContentBlock::text("late")])
            }
            _ => return Err(ErrorData::invalid_params("no such repository", None)),
        };
        Ok(r.into())
    }
}

pub(super) async fn start_tracker() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let service = StreamableHttpService::new(
        || Ok(Tracker),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    tokio::spawn(async move { axum::serve(listener, router).await });
    port
}

/// A loopback port that accepts connections and never answers: an upstream whose
/// `initialize` can only time out. Returns the port.
pub(super) async fn start_silent_listener() -> u16 {
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((conn, _)) = silent.accept().await {
            held.push(conn);
        }
    });
    port
}

/// A gateway in front of the tracker (`svc`) and an upstream that never answers (`silent`,
/// with the given time-out), plus `more_yaml` (masks) appended to the config.
pub(super) async fn gateway_with_a_silent_upstream(silent_timeout_secs: u64, more_yaml: &str) -> Arc<Gateway> {
    let port = start_tracker().await;
    let silent_port = start_silent_listener().await;
    let yaml = format!(
        r#"
upstreams:
  svc: {{ url: "http://127.0.0.1:{port}/mcp", timeout_secs: 5 }}
  silent: {{ url: "http://127.0.0.1:{silent_port}/mcp", timeout_secs: {silent_timeout_secs} }}
{more_yaml}"#
    );
    let (config, masks) = toolshape_mask::load(&yaml, "test.yaml", &|_| None).unwrap();
    Gateway::launch(config, masks, GatewayOptions::default()).await.unwrap()
}

/// A file report: one member holding the whole report, whose scan results are many pages
/// long, with a short list of imports at its end.
pub(super) fn file_report() -> Value {
    let engines: Map<String, Value> = (0..400)
        .map(|i| {
            let verdict = if i % 7 == 0 { json!("Trojan.Generic") } else { Value::Null };
            (
                format!("Engine{i:03}"),
                json!({"category": "undetected", "engine_version": format!("2.{i}.1"), "result": verdict}),
            )
        })
        .collect();
    json!({"data": {"id": "dc2583f8", "attributes": {
        "md5": "4bce97566b3272449a9c121585517b52",
        "last_analysis_results": engines,
        "imports": ["KERNEL32.dll", "USER32.dll", "CRYPT32.dll"],
    }}})
}
