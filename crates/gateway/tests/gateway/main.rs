//! The gateway end to end, in one process: an rmcp client talks to the gateway over an
//! in-memory duplex pipe, and the gateway talks to two upstreams started by the test: an
//! rmcp server defined here, over Streamable HTTP on a loopback port, and a misbehaving
//! stdio server (`fixtures/stdio_upstream.py`, run with `python3`). The tests that start the
//! Python server run when `TOOLSHAPE_HEAVY_TESTS=1` asks for them (as `scripts/test.sh`
//! does), and otherwise skip, saying so.
//!
//! Checked: the tool list's shape (no upstream `outputSchema` leaks), large results come
//! back partial with a cursor, pages reassemble the result byte for byte, `result_read`
//! views, tampered cursors are refused, and every kind of upstream failure (error result,
//! JSON-RPC error, time-out, crash, garbage, oversized response, missing binary) becomes an
//! error envelope while the gateway keeps serving. Also: progress and cancellation are
//! forwarded, upstream tool list changes reach the agent, and the Streamable HTTP server
//! keeps cursors per session and refuses foreign `Host` headers.

// Helpers outside `#[test]` functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    ArgumentInfo, CallToolRequestParams, CallToolResult, CompleteRequestParams, GetPromptRequestParams,
    ProgressNotificationParam, ReadResourceRequestParams, Reference,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;
use toolshape_gateway::{Gateway, GatewayOptions};

mod documents;
mod tracker;

use tracker::*;

// ---------------------------------------------------------------------------------------
// The gateway under test and a client in front of it.

/// The agent: records the progress and list-change notifications it receives.
#[derive(Clone, Default)]
struct Agent {
    progress: Arc<Mutex<Vec<f64>>>,
    list_changed: Arc<AtomicUsize>,
}

impl ClientHandler for Agent {
    async fn on_progress(&self, p: ProgressNotificationParam, _c: NotificationContext<RoleClient>) {
        self.progress.lock().unwrap().push(p.progress);
    }

    async fn on_tool_list_changed(&self, _c: NotificationContext<RoleClient>) {
        self.list_changed.fetch_add(1, Ordering::SeqCst);
    }
}

struct Rig {
    client: RunningService<RoleClient, Agent>,
    agent: Agent,
}

/// Whether the tests whose gateway starts the Python stdio upstream run (they skip, saying
/// why, unless `TOOLSHAPE_HEAVY_TESTS` asks for them).
fn with_python() -> bool {
    toolshape_fixtures::heavy::run("Python (`python3`), which runs the stdio test upstream")
}

async fn gateway() -> Arc<Gateway> {
    let port = start_tracker().await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/stdio_upstream.py");
    let yaml = format!(
        r#"
upstreams:
  svc: {{ url: "http://127.0.0.1:{port}/mcp", timeout_secs: 2 }}
  small: {{ url: "http://127.0.0.1:{port}/mcp", timeout_secs: 2, max_response_bytes: 1000000 }}
  stub: {{ command: [python3, "{script}"], timeout_secs: 3, max_response_bytes: 1048576 }}
  dead: {{ command: ["/nonexistent/toolshape-test-binary"], expose_unmasked: false }}
masks:
  - name: open_issues
    handler: svc/issues
    description: Issues of the tracker, a few fields each.
    input_schema: {{ type: object, properties: {{}} }}
    result:
      project: [number, title, "user.login as author"]
      budget_tokens: 600
      noun: issues
  - name: tight_issues
    handler: svc/issues
    description: Issues of the tracker, whole, at a small budget.
    input_schema: {{ type: object, properties: {{}} }}
    result: {{ budget_tokens: 400 }}
  - name: stored_issues
    handler: svc/issues
    description: Stores the issues behind a handle.
    input_schema: {{ type: object, properties: {{}} }}
    result: {{ form: reference, noun: issues }}
  - name: dead_tool
    handler: dead/anything
    description: A tool whose upstream cannot start.
    input_schema: {{ type: object, properties: {{}} }}
"#
    );
    let (config, masks) = toolshape_mask::load(&yaml, "test.yaml", &|_| None).expect("config loads");
    let options = GatewayOptions { secret: Some(b"test secret".to_vec()), ..GatewayOptions::default() };
    Gateway::launch(config, masks, options).await.expect("gateway launches")
}

async fn rig() -> Rig {
    let gateway = gateway().await;
    let (ours, theirs) = tokio::io::duplex(1 << 20);
    let (gr, gw) = tokio::io::split(theirs);
    tokio::spawn(async move { toolshape_gateway::serve_io(gateway, gr, gw).await });
    let (cr, cw) = tokio::io::split(ours);
    let agent = Agent::default();
    let client = agent.clone().serve((cr, cw)).await.expect("client connects");
    Rig { client, agent }
}

impl Rig {
    async fn call(&self, name: &str, args: Value) -> (CallToolResult, Value) {
        call(self.client.peer(), name, args).await
    }

    /// Follow `next` to the end; returns every page's envelope, the first included.
    async fn follow(&self, first: Value) -> Vec<Value> {
        let mut pages = vec![first];
        for _ in 0..500 {
            let next = pages.last().unwrap()["next"].clone();
            if next.is_null() {
                return pages;
            }
            assert_eq!(next["tool"], "result_read");
            let (_, env) = self.call("result_read", next["arguments"].clone()).await;
            assert_ne!(env["status"], "error", "{env}");
            pages.push(env);
        }
        panic!("too many pages");
    }
}

/// Call a tool and check the result's shape: one text block, the envelope inside
/// delimiters, the same envelope as structured content, `isError` for error envelopes.
async fn call(peer: &rmcp::Peer<RoleClient>, name: &str, args: Value) -> (CallToolResult, Value) {
    {
        let mut params = CallToolRequestParams::new(name.to_owned());
        if let Value::Object(m) = args {
            params = params.with_arguments(m);
        }
        let r = peer.call_tool(params).await.expect("the gateway answers every call");
        let env = r.structured_content.clone().expect("structured content carries the envelope");
        assert_eq!(r.content.len(), 1, "one text block");
        let text = r.content[0].as_text().expect("text block").text.clone();
        // The text is the envelope inside delimiters, each on a line of its own.
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("<<<tool-result "), "{text}");
        assert!(lines.last().unwrap().starts_with("<<<end "), "{text}");
        // The gateway's nonce: five listed words, the same in both lines.
        let nonce = &lines[0]["<<<tool-result ".len()..];
        assert!(toolshape_util::nonce::is_word_nonce(nonce), "{text}");
        assert_eq!(lines.last().unwrap()["<<<end ".len()..], *nonce, "{text}");
        let inner: Value = serde_json::from_str(&lines[1..lines.len() - 1].join("\n")).expect("inner JSON");
        assert_eq!(inner, env, "structured content and text agree");
        assert_eq!(r.is_error, Some(env["status"] == "error"));
        (r, env)
    }
}

fn tokens(text: &str) -> usize {
    toolshape_tokens::Tokenizer::default().count(text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_list_shows_masks_unmasked_tools_and_result_read_with_envelope_schemas() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let tools = rig.client.peer().list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for want in ["open_issues", "dead_tool", "svc_search", "svc_log", "svc_boom", "stub_echo", "result_read"] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    assert!(!names.contains(&"svc_issues"), "a mask's handler is not listed unmasked");
    let envelope_schema = toolshape_shape::Envelope::json_schema();
    for t in &tools {
        let schema = t.output_schema.as_ref().map(|s| Value::Object((**s).clone()));
        assert_eq!(schema.as_ref(), Some(&envelope_schema), "{} lists another outputSchema", t.name);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_records_come_back_partial_and_pages_reassemble_them() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let (r, env) = rig.call("open_issues", json!({})).await;
    assert_eq!(env["status"], "partial", "{env}");
    assert!(tokens(&r.content[0].as_text().unwrap().text) <= 600);
    assert_eq!(env["omitted"]["original"]["records"], 600);
    assert!(env["next"]["arguments"]["cursor"].is_string(), "a cursor: {env}");
    let pages = rig.follow(env.clone()).await;
    assert!(pages.len() > 3, "several pages");
    let seen: Vec<Value> = pages.iter().flat_map(|p| p["data"].as_array().cloned().unwrap_or_default()).collect();
    let want: Vec<Value> = issues()
        .iter()
        .map(|i| json!({"number": i["number"], "title": i["title"], "author": i["user"]["login"]}))
        .collect();
    assert_eq!(seen, want, "pages reassemble the records exactly");
    // Every page names the upstream result's size, as the first read did, not the size of
    // the processed snapshot it is read from.
    for page in &pages {
        if let Some(original) = page["omitted"].get("original") {
            assert_eq!(original["bytes"], env["omitted"]["original"]["bytes"], "{page}");
        }
    }
}

/// Facets the first read has no room for come with the next page, through the signed
/// cursor: the first read says how many are left, a later page says them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn facets_left_out_of_the_first_read_come_through_the_cursor() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let (_, env) = rig.call("tight_issues", json!({})).await;
    let first = env["summary"].as_str().unwrap().to_owned();
    assert!(first.contains("more facets with next"), "{env}");
    let pages = rig.follow(env).await;
    let later: Vec<&str> = pages[1..].iter().filter_map(|p| p["summary"].as_str()).collect();
    // A clause the first read did not hold: a count of values or a range.
    let said_later = later.iter().flat_map(|s| s.split("; ")).any(|c| {
        (c.contains(", most first: ") || c.contains(": max ") || c.contains(": latest ")) && !first.contains(c)
    });
    assert!(said_later, "first: {first}\nlater: {later:#?}");
    assert!(!later.last().unwrap().contains("more facets with next"), "{later:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_text_pages_reassemble_byte_for_byte() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let (_, env) = rig.call("svc_log", json!({})).await;
    assert_eq!(env["status"], "partial", "{env}");
    assert!(env["summary"].as_str().unwrap().contains("ERROR"), "log levels counted: {env}");
    let pages = rig.follow(env).await;
    // The first read shows the head, a marker of the lines left out, and the tail; the
    // pages after it bring exactly the lines between.
    let first = pages[0]["data"].as_str().unwrap_or_default();
    let marker = first.find("[… ").expect("the first read marks the lines it leaves out");
    let after = marker + first[marker..].find("…]\n").expect("a closed marker") + "…]\n".len();
    let middle: String = pages[1..].iter().map(|p| p["data"].as_str().unwrap_or_default()).collect();
    let text = format!("{}{middle}{}", &first[..marker], &first[after..]);
    assert_eq!(text, log_text(), "pages reassemble the text byte for byte");
}

/// A 10 MB log with secrets of every kind: the first read redacts only the head and the tail
/// it shows, the pages after it (read from the snapshot, redacted whole) go on from exactly
/// where its head stopped, and a pattern read finds the leaking lines redacted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_text_read_in_parts_resumes_exactly_and_shows_no_secret() {
    let gateway = gateway_with_a_silent_upstream(4, "").await;
    let caller = toolshape_gateway::Caller::local("test");
    let (raw, planted) = leaky_log();
    let redactor = toolshape_redact::Redactor::new(&toolshape_redact::RedactSpec::default()).unwrap();
    let full = redactor.redact_text(raw, &mut toolshape_redact::RedactionCounts::default()).into_owned();
    let no_secret = |text: &str| {
        for secret in planted {
            assert!(!text.contains(secret.as_str()), "{secret} shown");
        }
    };
    let first = gateway.call("svc_leaky_log", None, &caller).await;
    no_secret(&first.text);
    let env = serde_json::to_value(&first.envelope).unwrap();
    assert_eq!(env["status"], "partial", "{env}");
    let summary = env["summary"].as_str().unwrap();
    let lines = full.lines().count();
    assert!(summary.contains(&format!(" of {} (", toolshape_shape::thousands(lines as u64))), "{summary}");
    assert!(summary.contains("log levels in the first"), "{summary}");
    let data = env["data"].as_str().unwrap();
    let marker = data.find("[… ").expect("the first read marks the lines it leaves out");
    let after = marker + data[marker..].find("…]\n").expect("a closed marker") + "…]\n".len();
    let (head, tail) = (&data[..marker], &data[after..]);
    assert!(full.starts_with(head) && full.ends_with(tail), "head and tail are the whole redaction's");
    // Pages go on from the head's end, byte for byte.
    let cursor = env["next"]["arguments"]["cursor"].as_str().unwrap().to_owned();
    let mut read = head.to_owned();
    let mut next = env["next"]["arguments"].clone();
    for _ in 0..3 {
        let page = gateway.call("result_read", next.as_object().cloned(), &caller).await;
        no_secret(&page.text);
        let page = serde_json::to_value(&page.envelope).unwrap();
        read.push_str(page["data"].as_str().unwrap());
        assert!(full.starts_with(&read), "a page does not go on where the last stopped");
        next = page["next"]["arguments"].clone();
    }
    assert!(read.len() > head.len() + 1000);
    // A pattern read searches the snapshot, redacted whole.
    let args = json!({"cursor": cursor, "pattern": "\\[leak\\]", "limit": 40});
    let found = gateway.call("result_read", args.as_object().cloned(), &caller).await;
    no_secret(&found.text);
    let found = serde_json::to_value(&found.envelope).unwrap();
    let shown = found["data"].to_string();
    assert!(shown.contains("[leak]") && shown.contains("[GITHUB_TOKEN]"), "{found}");
}

/// A pattern read that narrows a large record says so: `partial`, the record counted in
/// `omitted`, and a `next` that reads it whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pattern_read_that_narrows_a_record_is_partial_and_reads_it_whole_next() {
    let gateway = gateway_with_a_silent_upstream(4, "").await;
    let caller = toolshape_gateway::Caller::local("test");
    let first = serde_json::to_value(&gateway.call("svc_vms", None, &caller).await.envelope).unwrap();
    let cursor = first["next"]["arguments"]["cursor"].as_str().expect("a cursor").to_owned();
    let args = json!({"cursor": cursor, "pattern": "vm-27\\b"});
    let found = serde_json::to_value(&gateway.call("result_read", args.as_object().cloned(), &caller).await.envelope);
    let found = found.unwrap();
    assert_eq!(found["status"], "partial", "{found}");
    assert_eq!((found["omitted"]["reason"].as_str(), found["omitted"]["count"].as_u64()), (Some("narrowed"), Some(1)));
    assert_eq!(found["next"]["arguments"], json!({"cursor": cursor, "query": "$[27]"}), "{found}");
    let whole = gateway.call("result_read", found["next"]["arguments"].as_object().cloned(), &caller).await;
    let whole = serde_json::to_value(&whole.envelope).unwrap();
    assert!(whole.to_string().contains("boot 27 ok"), "the record whole, its console too: {whole}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn result_read_views_and_refused_cursors() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let (_, env) = rig.call("open_issues", json!({})).await;
    let cursor = env["next"]["arguments"]["cursor"].as_str().expect("a cursor").to_owned();

    let (_, env) = rig.call("result_read", json!({"cursor": cursor, "query": "$[?@.author == 'user3'].number"})).await;
    let numbers: Vec<u64> = env["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let expect: Vec<u64> = (1..=600u64).filter(|n| n % 17 == 3).collect();
    assert_eq!(numbers, expect, "{env}");
    let (_, env) = rig.call("result_read", json!({"cursor": cursor, "pattern": "theme button", "limit": 2})).await;
    assert_eq!(env["data"].as_array().unwrap().len(), 2, "{env}");
    let (_, env) = rig.call("result_read", json!({"cursor": cursor, "query": "not jsonpath"})).await;
    assert_eq!(env["status"], "error");
    assert!(env["summary"].as_str().unwrap().contains("invalid query"), "{env}");

    // A tampered cursor is refused, with what to do.
    let mut bytes = cursor.clone().into_bytes();
    bytes[10] = if bytes[10] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(bytes).unwrap();
    let (_, env) = rig.call("result_read", json!({"cursor": tampered})).await;
    assert_eq!(env["status"], "error");
    let summary = env["summary"].as_str().unwrap();
    assert!(summary.contains("not valid") && summary.contains("repeat the original call"), "{summary}");
    let (_, env) = rig.call("result_read", json!({"cursor": "garbage"})).await;
    assert_eq!(env["status"], "error");
    let (_, env) = rig.call("result_read", json!({})).await;
    assert!(env["summary"].as_str().unwrap().contains("invalid arguments"), "{env}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upstream_failures_are_error_envelopes_and_others_keep_serving() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let (_, env) = rig.call("svc_boom", json!({})).await;
    assert_eq!(env["status"], "error");
    assert!(env["summary"].as_str().unwrap().contains("ValueError"), "{env}");
    let (_, env) = rig.call("svc_rpc_error", json!({})).await;
    assert!(env["summary"].as_str().unwrap().contains("-32602"), "{env}");
    let started = Instant::now();
    let (_, env) = rig.call("svc_slow", json!({})).await;
    assert!(env["summary"].as_str().unwrap().contains("timed out after 2 s"), "{env}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let (_, env) = rig.call("dead_tool", json!({})).await;
    assert!(env["summary"].as_str().unwrap().contains("unavailable"), "{env}");
    let (_, env) = rig.call("no_such_tool", json!({})).await;
    assert!(env["summary"].as_str().unwrap().contains("no tool named"), "{env}");
    // rmcp's HTTP client closes the connection on an oversized answer; the gateway says so
    // and reconnects for the next call.
    let (_, env) = rig.call("small_huge", json!({})).await;
    let summary = env["summary"].as_str().unwrap();
    assert!(summary.contains("connection closed") && summary.contains("1.0 MB"), "{summary}");
    let (_, env) = rig.call("small_log", json!({})).await;
    assert_eq!(env["status"], "partial", "still serving after an oversized response: {env}");
    let (_, env) = rig.call("svc_search", json!({})).await;
    assert_eq!(env["status"], "partial", "the same upstream still answers: {env}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stdio_upstream_that_crashes_writes_garbage_or_too_much_is_contained() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let (_, env) = rig.call("stub_echo", json!({"a": 1})).await;
    assert_eq!(env["status"], "ok", "{env}");
    let (_, env) = rig.call("stub_crash", json!({})).await;
    let summary = env["summary"].as_str().unwrap();
    assert!(summary.contains("stopped") && summary.contains("exit status 3"), "{summary}");
    let (_, env) = rig.call("stub_echo", json!({"again": true})).await;
    assert_eq!(env["status"], "ok", "restarted after the crash: {env}");
    let (_, env) = rig.call("stub_huge", json!({})).await;
    assert!(env["summary"].as_str().unwrap().contains("more than 1.0 MB"), "{env}");
    let (_, env) = rig.call("stub_echo", json!({})).await;
    assert_eq!(env["status"], "ok", "still serving after an oversized response: {env}");
    let (_, env) = rig.call("stub_garbage", json!({})).await;
    assert!(env["summary"].as_str().unwrap().contains("not JSON-RPC"), "{env}");
    let (_, env) = rig.call("svc_search", json!({})).await;
    assert_eq!(env["status"], "partial", "the other upstream was never affected: {env}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_cancellation_and_list_changes_are_forwarded() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let (_, env) = rig.call("svc_progress", json!({})).await;
    assert_eq!(env["status"], "ok", "{env}");
    for _ in 0..100 {
        if rig.agent.progress.lock().unwrap().len() == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // rmcp hands each notification to its own task, on both sides of the gateway, so the
    // order they arrive in is not guaranteed; that each arrives is.
    let mut seen = rig.agent.progress.lock().unwrap().clone();
    seen.sort_by(f64::total_cmp);
    assert_eq!(seen, vec![1.0, 2.0, 3.0]);

    let peer = rig.client.peer().clone();
    let pending = tokio::spawn(async move { peer.call_tool(CallToolRequestParams::new("svc_wait_cancel")).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    pending.abort();
    for _ in 0..100 {
        if UPSTREAM_SAW_CANCEL.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(UPSTREAM_SAW_CANCEL.load(Ordering::SeqCst), "the upstream saw the cancellation");

    let before = rig.agent.list_changed.load(Ordering::SeqCst);
    rig.call("svc_announce", json!({})).await;
    for _ in 0..100 {
        if rig.agent.list_changed.load(Ordering::SeqCst) > before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(rig.agent.list_changed.load(Ordering::SeqCst) > before, "tools/list_changed reached the agent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamable_http_serves_keeps_cursors_per_session_and_checks_hosts() {
    if !with_python() {
        return;
    }
    assert!(toolshape_gateway::check_bind("0.0.0.0:0".parse().unwrap(), false).is_err());
    assert!(toolshape_gateway::check_bind("0.0.0.0:0".parse().unwrap(), true).is_ok());
    assert!(toolshape_gateway::check_bind("[::1]:0".parse().unwrap(), false).is_ok());

    let gateway = gateway().await;
    let shutdown = CancellationToken::new();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let stop = shutdown.clone();
    tokio::spawn(async move {
        let options = toolshape_gateway::HttpOptions::new("127.0.0.1:0".parse().unwrap());
        toolshape_gateway::serve_http_with(gateway, options, stop, Some(tx)).await
    });
    let addr = rx.await.unwrap();
    let url = format!("http://{addr}/mcp");
    let a = ().serve(rmcp::transport::StreamableHttpClientTransport::from_uri(url.clone())).await.unwrap();
    let b = ().serve(rmcp::transport::StreamableHttpClientTransport::from_uri(url)).await.unwrap();
    let tools = a.peer().list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "result_read"));
    let (_, env) = call(a.peer(), "open_issues", json!({})).await;
    let args = env["next"]["arguments"].clone();
    let (_, page) = call(a.peer(), "result_read", args.clone()).await;
    assert_eq!(page["status"], "partial", "{page}");
    let (_, refused) = call(b.peer(), "result_read", args).await;
    assert_eq!(refused["status"], "error", "another session's cursor is refused: {refused}");
    assert!(refused["summary"].as_str().unwrap().contains("another session"), "{refused}");

    // A request naming a foreign host (DNS rebinding) is refused before any MCP handling.
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let status = raw_status(addr, &request).await;
    assert!(status.starts_with("HTTP/1.1 4"), "foreign Host refused: {status}");

    // Regression (conformance run): a loopback Host with a foreign `Origin` (a page elsewhere
    // in a browser) is refused too; the loopback origin itself is served.
    let with_origin = |origin: &str| {
        format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nOrigin: {origin}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    };
    let status = raw_status(addr, &with_origin("http://evil.example")).await;
    assert!(status.starts_with("HTTP/1.1 4"), "foreign Origin refused: {status}");
    let status = raw_status(addr, &with_origin(&format!("http://127.0.0.1:{}", addr.port()))).await;
    assert!(status.starts_with("HTTP/1.1 2"), "loopback Origin served: {status}");
    shutdown.cancel();
}

/// The status line the gateway answers a raw HTTP request with.
async fn raw_status(addr: std::net::SocketAddr, request: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut response)).await;
    String::from_utf8_lossy(&response).lines().next().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_never_answers_does_not_delay_the_others() {
    let gateway = gateway_with_a_silent_upstream(1, "").await;
    let caller = toolshape_gateway::Caller::local("test");

    // The first listing waits for every upstream once (the silent one up to its time-out).
    let tools = gateway.list_tools(&caller).await;
    assert!(tools.iter().any(|t| t.name == "svc_log"));
    assert!(!tools.iter().any(|t| t.name.starts_with("silent_")));
    // After that, neither listings nor calls wait for it again, while it is retried.
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(600)).await;
        let started = Instant::now();
        let tools = gateway.list_tools(&caller).await;
        assert!(tools.iter().any(|t| t.name == "svc_log"));
        let outcome = gateway.call("svc_boom", None, &caller).await;
        assert!(outcome.is_error());
        assert!(started.elapsed() < Duration::from_millis(800), "took {:?}", started.elapsed());
    }
    let outcome = gateway.call("silent_anything", None, &caller).await;
    assert!(outcome.envelope.summary.contains("no tool named"), "{}", outcome.envelope.summary);
}

/// A call made before any listing asks only the upstream its name points to, so a slow
/// or silent upstream elsewhere in the config does not delay it (found by the fault tests
/// under load: a Python upstream starting for seconds held up calls to the others).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_call_does_not_wait_for_an_unrelated_upstream_to_start() {
    let masks = r#"
masks:
  - name: open_issues
    handler: svc/issues
    description: Issues of the tracker.
    input_schema: { type: object, properties: {} }
    result: { project: [number, title], noun: issues }
"#;
    let gateway = gateway_with_a_silent_upstream(4, masks).await;
    let caller = toolshape_gateway::Caller::local("test");
    for tool in ["svc_log", "open_issues"] {
        let started = Instant::now();
        let outcome = gateway.call(tool, None, &caller).await;
        assert!(!outcome.is_error(), "{tool}: {}", outcome.envelope.summary);
        assert!(started.elapsed() < Duration::from_secs(2), "{tool} took {:?}", started.elapsed());
    }
    // A name no upstream's prefix begins still asks them all, and is refused.
    let outcome = gateway.call("nothing_here", None, &caller).await;
    assert!(outcome.envelope.summary.contains("no tool named"), "{}", outcome.envelope.summary);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompts_and_resources_pass_through() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let prompts = rig.client.peer().list_all_prompts().await.unwrap();
    assert_eq!(prompts.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), vec!["small_triage", "svc_triage"]);
    let got = rig.client.peer().get_prompt(GetPromptRequestParams::new("svc_triage")).await.unwrap();
    assert_eq!(got.messages.len(), 1);
    let resources = rig.client.peer().list_all_resources().await.unwrap();
    assert!(resources.iter().any(|r| r.uri == "tracker://readme"), "{resources:?}");
    let read = rig.client.peer().read_resource(ReadResourceRequestParams::new("tracker://readme")).await.unwrap();
    assert_eq!(read.contents.len(), 1);
    // Regression (conformance run): a resource nobody has is "not found" (-32002), not an
    // internal error.
    match rig.client.peer().read_resource(ReadResourceRequestParams::new("tracker://nope")).await {
        Err(rmcp::ServiceError::McpError(e)) => assert_eq!(e.code.0, -32002, "{e:?}"),
        other => panic!("expected resource not found, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completions_of_an_upstream_without_them_are_empty_and_an_unknown_prompt_is_refused() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let argument = ArgumentInfo::new("severity", "hi");
    let prompt = Reference::for_prompt("svc_triage");
    let done = rig.client.peer().complete(CompleteRequestParams::new(prompt, argument.clone())).await.unwrap();
    assert!(done.completion.values.is_empty(), "{done:?}");
    match rig.client.peer().complete(CompleteRequestParams::new(Reference::for_prompt("nope"), argument)).await {
        Err(rmcp::ServiceError::McpError(e)) => {
            assert_eq!(e.code.0, -32602, "{e:?}");
            assert!(e.message.contains("no prompt named `nope`"), "{}", e.message);
        }
        other => panic!("expected an invalid-params error, got {other:?}"),
    }
}

/// Regression: an agent lists tools, prompts and resources together when it connects. A
/// listing of prompts or resources taken before any tool listing saw only the upstreams
/// already up, none with lazy ones, and nothing told the agent to list again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompts_and_resources_listed_first_start_their_upstreams() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let resources = rig.client.peer().list_all_resources().await.unwrap();
    assert!(resources.iter().any(|r| r.uri == "tracker://readme"), "{resources:?}");
    let rig = self::rig().await;
    let prompts = rig.client.peer().list_all_prompts().await.unwrap();
    assert!(prompts.iter().any(|p| p.name == "svc_triage"), "{prompts:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reference_results_are_reopened_by_handle() {
    if !with_python() {
        return;
    }
    let rig = rig().await;
    let (_, env) = rig.call("stored_issues", json!({})).await;
    assert_eq!(env["status"], "ok", "{env}");
    assert!(env["data"].is_null());
    let handle = env["next"]["arguments"]["handle"].as_str().expect("a handle").to_owned();
    let (_, page) = rig.call("result_read", json!({"handle": handle})).await;
    assert_eq!(page["status"], "partial", "{page}");
    assert_eq!(page["data"][0]["number"], 1);
    let (_, picked) = rig.call("result_read", json!({"handle": handle, "query": "$[?@.number == 42].title"})).await;
    assert_eq!(picked["data"], json!([issues()[41]["title"]]), "{picked}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_each_get_their_own_answer() {
    if !with_python() {
        return;
    }
    let rig = Arc::new(rig().await);
    let mut set = tokio::task::JoinSet::new();
    for i in 0..12 {
        let rig = rig.clone();
        set.spawn(async move {
            let (_, env) = rig.call("stub_echo", json!({"i": i})).await;
            (i, env)
        });
    }
    while let Some(done) = set.join_next().await {
        let (i, env) = done.unwrap();
        assert_eq!(env["status"], "ok", "{env}");
        assert_eq!(env["data"]["i"], i, "{env}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_or_evicted_snapshots_say_to_repeat_the_call() {
    let port = start_tracker().await;
    let yaml = format!("upstreams:\n  svc: {{ url: \"http://127.0.0.1:{port}/mcp\" }}\n");
    let caller = toolshape_gateway::Caller::local("test");

    // Expired: the cursor outlives nothing.
    let (config, masks) = toolshape_mask::load(&yaml, "test.yaml", &|_| None).unwrap();
    let options = GatewayOptions { snapshot_ttl: Some(Duration::from_secs(1)), ..GatewayOptions::default() };
    let gateway = Gateway::launch(config, masks, options).await.unwrap();
    let first = gateway.call("svc_log", None, &caller).await;
    let next = first.envelope.next.clone().expect("a next");
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let late = gateway.call(&next.tool, Some(next.arguments), &caller).await;
    assert!(late.is_error());
    assert!(late.envelope.summary.contains("expired") && late.envelope.summary.contains("repeat"), "{}", late.text);

    // Evicted (here: never fits the store): the same answer, not a crash or a hang.
    let (config, masks) = toolshape_mask::load(&yaml, "test.yaml", &|_| None).unwrap();
    let options = GatewayOptions { store_bytes: Some(1000), ..GatewayOptions::default() };
    let gateway = Gateway::launch(config, masks, options).await.unwrap();
    let first = gateway.call("svc_log", None, &caller).await;
    let next = first.envelope.next.clone().expect("a next");
    let gone = gateway.call(&next.tool, Some(next.arguments), &caller).await;
    assert!(gone.envelope.summary.contains("expired"), "{}", gone.text);

    // Another caller's scope: refused.
    let other = toolshape_gateway::Caller::local("someone else");
    let first = gateway.call("svc_log", None, &caller).await;
    let next = first.envelope.next.clone().expect("a next");
    let refused = gateway.call(&next.tool, Some(next.arguments), &other).await;
    assert!(refused.envelope.summary.contains("another session"), "{}", refused.text);
}

/// Keeps every span it is given.
#[derive(Default)]
struct KeptSpans(Mutex<Vec<toolshape_telemetry::Span>>);

impl toolshape_telemetry::SpanSink for KeptSpans {
    fn record(&self, span: toolshape_telemetry::Span) {
        self.0.lock().unwrap().push(span);
    }
    fn flush(&self, _timeout: Duration) -> bool {
        true
    }
    fn stats(&self) -> toolshape_telemetry::SinkStats {
        toolshape_telemetry::SinkStats::default()
    }
}

#[tokio::test]
async fn a_calls_span_is_recorded_after_its_answer_and_before_shutdown_ends() {
    let yaml = r#"
upstreams:
  dead: { command: ["/nonexistent/toolshape-test-binary"], expose_unmasked: false }
"#;
    let (config, masks) = toolshape_mask::load(yaml, "test.yaml", &|_| None).expect("config loads");
    let spans = Arc::new(KeptSpans::default());
    let options = GatewayOptions { spans: spans.clone(), ..GatewayOptions::default() };
    let gateway = Gateway::launch(config, masks, options).await.expect("gateway launches");
    let outcome = gateway.call("result_read", None, &toolshape_gateway::Caller::local("t")).await;
    assert!(outcome.is_error(), "{}", outcome.text);
    // The answer is back, and on this single-threaded runtime the recording has not run yet:
    // it waits until the task that answers has had its turn.
    assert_eq!(spans.0.lock().unwrap().len(), 0);
    gateway.shutdown().await;
    let kept = spans.0.lock().unwrap();
    assert_eq!(kept.len(), 1, "shutdown waits for the span of every answered call");
    assert_eq!(kept[0].tool, "result_read");
    assert!(kept[0].tokens_after > 0, "the answer's tokens are counted for the span");
}

/// A long answer that fits by its bytes is answered before it is counted; its span still
/// gets the exact count, made off the calling task.
#[tokio::test]
async fn a_long_answer_passed_whole_is_counted_exactly_for_its_span() {
    let port = start_tracker().await;
    let yaml = format!(
        r#"
upstreams:
  svc: {{ url: "http://127.0.0.1:{port}/mcp", timeout_secs: 5, max_response_bytes: 8388608 }}
masks:
  - name: whole
    handler: svc/huge
    description: All of a long text.
    input_schema: {{ type: object, properties: {{}} }}
    result: {{ budget_tokens: 4000000 }}
"#
    );
    let (config, masks) = toolshape_mask::load(&yaml, "test.yaml", &|_| None).expect("config loads");
    let spans = Arc::new(KeptSpans::default());
    let options = GatewayOptions { spans: spans.clone(), ..GatewayOptions::default() };
    let gateway = Gateway::launch(config, masks, options).await.expect("gateway launches");
    let outcome = gateway.call("whole", None, &toolshape_gateway::Caller::local("t")).await;
    assert_eq!(outcome.envelope.status, toolshape_shape::Status::Ok, "{}", &outcome.text[..300]);
    assert!(outcome.text.len() > 3 << 20, "passed whole: {} bytes", outcome.text.len());
    gateway.shutdown().await;
    let kept = spans.0.lock().unwrap();
    assert_eq!(kept.len(), 1);
    let exact = toolshape_tokens::Tokenizer::default().count(&outcome.text) as u64;
    assert_eq!(kept[0].tokens_after, exact, "the span holds the answer's exact count");
}
