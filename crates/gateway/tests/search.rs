//! Tool search through the gateway, in one process: two rmcp upstreams over Streamable HTTP
//! on a loopback port (a tracker and a file store), a gateway with a `search:` section in
//! front of them, and calls made with [`Gateway::call`] as a session would make them.
//!
//! Checked: the search envelope says how many tools matched (the ones that fit, not every
//! tool with some likeness to the query) and how many are shown; a
//! search that finds nothing answers `empty` with what to try (the namespaces that exist),
//! not unrelated tools; `search_hint` text finds a tool but is never shown; the search's span
//! records the query, the tools returned, and whether one was then called.

// Helpers outside `#[test]` functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig, ContentBlock,
    Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{ClientHandler, ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use toolshape_gateway::{Caller, Gateway, GatewayOptions, Outcome};
use toolshape_telemetry::{SinkStats, Span, SpanSink};

/// The tools of one upstream: (name, description).
type Tools = &'static [(&'static str, &'static str)];

const TRACKER: Tools = &[
    ("issues_create", "Open a new issue in the tracker with a title and a body."),
    ("issues_list", "List the open issues of a repository."),
    ("issues_close", "Close an issue by its number."),
    ("issues_comment", "Add a comment to an issue."),
];

/// A third upstream that takes the catalog past the size at which searches decline (a
/// handful of tools is better listed than searched, so small catalogs never decline).
const CALENDAR: Tools = &[
    ("events_list", "List the events of a calendar between two dates."),
    ("events_create", "Create an event with a title, a start and an end."),
    ("events_delete", "Delete an event by its id."),
    ("events_move", "Move an event to another time."),
    ("invite_send", "Invite people to an event by email address."),
    ("invite_answer", "Accept or decline an invitation."),
    ("calendars_list", "List the calendars of the account."),
    ("calendar_share", "Share a calendar with another person."),
    ("free_busy", "Find the times when people are free to meet."),
    ("reminder_set", "Set a reminder before an event starts."),
    ("timezone_get", "Get the time zone of a calendar."),
    ("room_book", "Book a meeting room for an event."),
    ("rooms_list", "List the meeting rooms of a building."),
    ("holiday_list", "List the public holidays of a country."),
];

const FILES: Tools = &[
    ("read_file", "Read the contents of a file from disk."),
    ("write_file", "Write text to a file, replacing it."),
    ("list_directory", "List the entries of a directory."),
];

#[derive(Clone)]
struct Upstream(Tools);

impl ServerHandler for Upstream {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = json!({"type": "object", "properties": {"text": {"type": "string", "description": "Any text."}}});
        let Value::Object(schema) = schema else { unreachable!() };
        let schema = Arc::new(schema);
        let tools = self.0.iter().map(|(name, description)| Tool::new(*name, *description, schema.clone())).collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        req: CallToolRequestParams,
        _c: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{} done", req.name))]).into())
    }
}

/// Both upstreams on one loopback port, at `/tracker` and `/files`.
async fn start_upstreams() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let service = |tools: Tools| {
        StreamableHttpService::new(
            move || Ok(Upstream(tools)),
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default(),
        )
    };
    let router = axum::Router::new()
        .nest_service("/tracker", service(TRACKER))
        .nest_service("/files", service(FILES))
        .nest_service("/calendar", service(CALENDAR));
    tokio::spawn(async move { axum::serve(listener, router).await });
    port
}

/// Every span the gateway records.
#[derive(Default)]
struct Spans(Mutex<Vec<Span>>);

impl SpanSink for Spans {
    fn record(&self, span: Span) {
        self.0.lock().unwrap().push(span);
    }

    fn flush(&self, _timeout: Duration) -> bool {
        true
    }

    fn stats(&self) -> SinkStats {
        SinkStats::default()
    }
}

/// A gateway in front of both upstreams with search on (only `tracker_issues_list` loaded),
/// plus `more_yaml` appended to the config.
async fn gateway(more_yaml: &str, spans: Arc<Spans>) -> Arc<Gateway> {
    gateway_with(more_yaml, spans, false).await
}

/// [`gateway`], with the calendar upstream too when `large` (21 tools in all).
async fn gateway_with(more_yaml: &str, spans: Arc<Spans>, large: bool) -> Arc<Gateway> {
    let port = start_upstreams().await;
    let calendar = if large {
        format!("  calendar: {{ url: \"http://127.0.0.1:{port}/calendar\", timeout_secs: 5 }}\n")
    } else {
        String::new()
    };
    let yaml = format!(
        r#"
upstreams:
  tracker: {{ url: "http://127.0.0.1:{port}/tracker", timeout_secs: 5 }}
  files: {{ url: "http://127.0.0.1:{port}/files", timeout_secs: 5 }}
{calendar}search:
  always_loaded: [tracker_issues_list]
{more_yaml}"#
    );
    let (config, masks) = toolshape_mask::load(&yaml, "test.yaml", &|_| None).unwrap();
    let options = GatewayOptions { spans, ..GatewayOptions::default() };
    Gateway::launch(config, masks, options).await.unwrap()
}

async fn search(gateway: &Gateway, caller: &Caller, arguments: Value) -> Outcome {
    let Value::Object(arguments) = arguments else { unreachable!() };
    gateway.call("search_tools", Some(arguments), caller).await
}

/// The names in a search answer's records.
fn names(outcome: &Outcome) -> Vec<String> {
    let data = serde_json::to_value(&outcome.envelope.data).unwrap();
    let records = data.get("records").or(Some(&data)).and_then(Value::as_array).cloned().unwrap_or_default();
    records.iter().filter_map(|r| r["name"].as_str().map(str::to_owned)).collect()
}

#[tokio::test]
async fn a_search_says_how_many_tools_matched_and_how_many_are_shown() {
    let gateway = gateway("", Arc::default()).await;
    let caller = Caller::local("s1");

    let all = search(&gateway, &caller, json!({"query": "issue", "limit": 10})).await;
    assert_eq!(all.envelope.status.as_str(), "ok", "{}", all.text);
    let shown = names(&all);
    assert!(shown.len() >= 4 && shown[..4].iter().all(|n| n.starts_with("tracker_issues_")), "{shown:?}");
    let summary = &all.envelope.summary;
    let matched: usize = summary.split(" tools matched").next().unwrap().parse().unwrap();
    assert_eq!(matched, shown.len(), "with room for every match, all are shown: {summary}");
    assert!(summary.starts_with(&format!("{matched} tools matched \"issue\", all shown. ")), "{summary}");
    assert!(all.text.contains(&format!("{matched} tools matched")), "the model reads it: {}", all.text);

    let cut = search(&gateway, &caller, json!({"query": "^tracker_issues_", "mode": "regex", "limit": 2})).await;
    assert_eq!(names(&cut).len(), 2, "{}", cut.text);
    let summary = &cut.envelope.summary;
    assert!(summary.starts_with("4 tools matched") && summary.contains("the best 2 are shown (2 more"), "{summary}");

    let one = search(&gateway, &caller, json!({"query": "^files_", "mode": "regex", "limit": 1})).await;
    assert!(one.envelope.summary.starts_with("3 tools matched") && one.envelope.summary.contains("the best is shown"));
}

#[tokio::test]
async fn matched_counts_the_tools_that_fit_not_every_tool_with_some_likeness() {
    let gateway = gateway_with("", Arc::default(), true).await;
    let caller = Caller::local("s1");
    let total = TRACKER.len() + FILES.len() + CALENDAR.len();
    let found = search(&gateway, &caller, json!({"query": "book a meeting room for the team event", "limit": 3})).await;
    assert_eq!(found.envelope.status.as_str(), "ok", "{}", found.text);
    let shown = names(&found);
    assert!(shown.iter().any(|n| n.ends_with("room_book")), "{shown:?}");
    let summary = &found.envelope.summary;
    let matched: usize = summary.split(" tool").next().unwrap().parse().unwrap();
    // Every tool has some cosine with any request; only the ones that fit are counted: at
    // most the calendar's, none of the tracker's or the files' (the count has no names, so
    // the bound is the calendar's size).
    assert!(matched >= shown.len() && matched <= CALENDAR.len() && matched < total, "{matched} of {total}: {summary}");
}

#[tokio::test]
async fn a_search_that_finds_nothing_answers_empty_with_what_to_try() {
    let gateway = gateway_with("", Arc::default(), true).await;
    let caller = Caller::local("s1");
    let before = gateway.list_tools(&caller).await.len();

    let nothing = search(&gateway, &caller, json!({"query": "zzqx frobnicate wibble"})).await;
    assert_eq!(nothing.envelope.status.as_str(), "empty", "{}", nothing.text);
    assert!(names(&nothing).is_empty(), "no unrelated tools: {}", nothing.text);
    let summary = &nothing.envelope.summary;
    assert!(summary.contains("rephrase"), "{summary}");
    assert!(summary.contains("`tracker`") && summary.contains("`files`"), "the namespaces that exist: {summary}");
    assert!(!nothing.tools_changed);
    assert_eq!(gateway.list_tools(&caller).await.len(), before, "nothing was activated");

    let regex = search(&gateway, &caller, json!({"query": "^nope_", "mode": "regex"})).await;
    assert_eq!(regex.envelope.status.as_str(), "empty");
    assert!(regex.envelope.summary.contains("shorter pattern"), "{}", regex.envelope.summary);

    // A namespace the hint named finds its tools.
    let files = search(&gateway, &caller, json!({"query": "files", "limit": 10})).await;
    let found = names(&files);
    // The namespace's three tools come first (with the embedding table, others follow).
    assert!(found.len() >= 3, "{}", files.text);
    assert!(found[..3].iter().all(|n| n.starts_with("files_")), "{found:?}");
}

#[tokio::test]
async fn a_search_hint_finds_a_tool_but_is_never_shown() {
    let masks = "masks:\n  - name: backlog\n    handler: tracker/issues_close\n    description: Close an issue.\n    \
                 search_hint: kanban grooming\n";
    let gateway = gateway(masks, Arc::default()).await;
    let caller = Caller::local("s1");
    let found = search(&gateway, &caller, json!({"query": "kanban grooming"})).await;
    assert_eq!(names(&found).first().map(String::as_str), Some("backlog"), "{}", found.text);
    // The query is echoed in the summary; the hint itself is not in any record.
    let records = serde_json::to_string(&found.envelope.data).unwrap();
    assert!(!records.contains("grooming"), "{records}");
    let listed = serde_json::to_string(&gateway.list_tools(&caller).await).unwrap();
    assert!(listed.contains("\"backlog\"") && !listed.contains("grooming"), "{listed}");
}

#[tokio::test]
async fn a_search_span_records_the_query_what_came_back_and_whether_it_was_used() {
    let spans = Arc::new(Spans::default());
    let gateway = gateway_with("", spans.clone(), true).await;
    let caller = Caller::local("s1");
    let found = search(&gateway, &caller, json!({"query": "read a file from disk"})).await;
    let shown = names(&found);
    assert_eq!(shown.first().map(String::as_str), Some("files_read_file"), "{}", found.text);
    let _ = search(&gateway, &caller, json!({"query": "zzqx frobnicate wibble"})).await;
    let arguments = json!({"name": "files_read_file", "arguments": {"text": "a"}});
    let Value::Object(arguments) = arguments else { unreachable!() };
    let called = gateway.call("call_tool", Some(arguments), &caller).await;
    assert_eq!(called.envelope.status.as_str(), "ok", "{}", called.text);
    gateway.shutdown().await;

    let spans = spans.0.lock().unwrap().clone();
    // Spans are recorded after each answer, not necessarily in call order.
    let mut searches: Vec<_> = spans.iter().filter_map(|s| s.search.as_ref()).collect();
    searches.sort_by_key(|s| s.returned.is_empty());
    assert_eq!(searches.len(), 2, "{spans:?}");
    assert_eq!(searches[0].query, "read a file from disk");
    assert_eq!(searches[0].returned, shown);
    assert!(searches[0].matched >= shown.len() as u64);
    assert!(searches[1].returned.is_empty());
    assert!(spans.iter().any(|s| s.tool == "files_read_file" && s.search.is_none()), "the call counts as its tool");
    let report = toolshape_telemetry::SearchReport::build(spans.iter()).unwrap();
    assert_eq!((report.searches, report.empty, report.followed), (2, 1, 1));
    assert_eq!(report.unused.len(), 1);
    assert_eq!(report.unused[0].query, "zzqx frobnicate wibble");
}

/// A client that introduces itself by `name` at `initialize`.
#[derive(Clone)]
struct NamedClient(&'static str);

impl ClientHandler for NamedClient {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(ClientCapabilities::default(), Implementation::new(self.0, "2.1.0"))
    }
}

/// The tools the client named `client` is listed, by name, with their `_meta`.
async fn listed_meta(client: &'static str) -> Vec<(String, Option<Value>)> {
    let gateway = gateway("", Arc::default()).await;
    let (ours, theirs) = tokio::io::duplex(1 << 20);
    let (gr, gw) = tokio::io::split(theirs);
    tokio::spawn(async move { toolshape_gateway::serve_io(gateway, gr, gw).await });
    let (cr, cw) = tokio::io::split(ours);
    let running = NamedClient(client).serve((cr, cw)).await.unwrap();
    let tools = running.peer().list_all_tools().await.unwrap();
    let _ = running.cancel().await;
    tools.into_iter().map(|t| (t.name.to_string(), t.meta.map(|m| serde_json::to_value(m).unwrap()))).collect()
}

#[tokio::test]
async fn claude_code_is_told_which_tools_to_keep_loaded_and_other_clients_are_not() {
    let listed = listed_meta("claude-code").await;
    let kept: Vec<&str> = listed
        .iter()
        .filter(|(_, meta)| meta.as_ref().is_some_and(|m| m["anthropic/alwaysLoad"] == json!(true)))
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(kept, ["tracker_issues_list", "search_tools", "call_tool"], "{listed:?}");
    assert!(listed.iter().any(|(name, meta)| name == "result_read" && meta.is_none()), "{listed:?}");

    let listed = listed_meta("some-other-client").await;
    assert!(listed.len() >= 4 && listed.iter().all(|(_, meta)| meta.is_none()), "{listed:?}");
}
