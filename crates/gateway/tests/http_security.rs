//! HTTP mode security, end to end over loopback: `serve_http_with` serves a gateway whose
//! config names three principals (one limited to a profile), and real HTTP clients (reqwest
//! for the status codes, rmcp's client for MCP calls) knock on it.
//!
//! Checked: no token, a wrong token and a malformed header are refused with `401` and a
//! `WWW-Authenticate: Bearer` challenge; an oversized body gets `413`, oversized headers
//! `431`, a foreign `Origin` or `Host` `403`, another principal's session `404`. A cursor or
//! handle made by one principal reads nothing for another principal or another session, and
//! a forged cursor reads nothing at all. No refusal carries a token or another principal's
//! data, and a refused request leaves its connection usable for the next try. A principal with a profile sees and calls only that profile's tools. A non-loopback
//! address is refused without principals. `DELETE` ends a session with `200`, after which
//! it is `404` everywhere: on this replica, on one that restores it later, and on one that
//! held it in memory at the time.

// Helpers outside `#[test]` functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpClientTransport, StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;
use toolshape_gateway::{Gateway, GatewayError, GatewayOptions, HttpOptions};

const ALICE: &str = "alice-0f3c9a7d2b1e8c4f6a5d";
const BOB: &str = "bob-7e2d4c9b1a0f3e8d5c6b";
const TRIAGE: &str = "triage-3b8e1d7c0a9f2e4d6c5b";
/// Words only the upstream's records contain: seeing one in a refusal is a leak.
const SECRET_WORD: &str = "confidential-record";

// ---------------------------------------------------------------------------------------
// The upstream: one tool with a large result.

#[derive(Clone)]
struct Records;

impl ServerHandler for Records {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![Tool::new("records", "every record", Arc::new(Map::new()))]))
    }

    async fn call_tool(
        &self,
        _req: CallToolRequestParams,
        _c: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let items: Vec<Value> =
            (1..=400).map(|n| json!({"number": n, "title": format!("{SECRET_WORD} {n} of the ledger")})).collect();
        Ok(CallToolResult::success(vec![ContentBlock::text(Value::Array(items).to_string())]).into())
    }
}

async fn start_upstream() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let service = StreamableHttpService::new(
        || Ok(Records),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    tokio::spawn(async move { axum::serve(listener, axum::Router::new().nest_service("/mcp", service)).await });
    port
}

// ---------------------------------------------------------------------------------------
// The gateway under test.

fn config_yaml(upstream_port: u16) -> String {
    format!(
        r#"
upstreams:
  svc: {{ url: "http://127.0.0.1:{upstream_port}/mcp", timeout_secs: 5 }}
masks:
  - name: open_records
    handler: svc/records
    description: The records, a page at a time.
    input_schema: {{ type: object, properties: {{}} }}
    result: {{ budget_tokens: 300, noun: records }}
  - name: stored_records
    handler: svc/records
    description: The records behind a handle.
    input_schema: {{ type: object, properties: {{}} }}
    result: {{ form: reference, noun: records }}
profiles:
  triage: [open_records]
auth:
  principals:
    alice: {{ token_env: ALICE_TOKEN }}
    bob: {{ token_env: BOB_TOKEN }}
    triager: {{ token_env: TRIAGE_TOKEN, profile: triage }}
http:
  max_body_bytes: 8192
  allowed_origins: ["https://console.example.com"]
  allowed_hosts: ["gateway.example.com"]
"#
    )
}

fn env(var: &str) -> Option<String> {
    match var {
        "ALICE_TOKEN" => Some(ALICE.into()),
        "BOB_TOKEN" => Some(BOB.into()),
        "TRIAGE_TOKEN" => Some(TRIAGE.into()),
        _ => None,
    }
}

struct Served {
    addr: SocketAddr,
    shutdown: CancellationToken,
}

impl Served {
    fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

async fn serve() -> Served {
    serve_with(start_upstream().await, "").await
}

/// A gateway on `upstream_port`, with `extra` appended to its config (a `store:` section).
async fn serve_with(upstream_port: u16, extra: &str) -> Served {
    let yaml = format!("{}{extra}", config_yaml(upstream_port));
    let (config, masks) = toolshape_mask::load(&yaml, "test.yaml", &env).expect("config loads");
    let mut options = HttpOptions::new("127.0.0.1:0".parse().unwrap());
    options.auth = config.auth.clone();
    options.http = config.http.clone();
    let gateway_options = GatewayOptions { secret: Some(b"test secret".to_vec()), ..GatewayOptions::default() };
    let gateway = Gateway::launch(config, masks, gateway_options).await.expect("gateway launches");
    let shutdown = CancellationToken::new();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let stop = shutdown.clone();
    tokio::spawn(async move { toolshape_gateway::serve_http_with(gateway, options, stop, Some(tx)).await });
    Served { addr: rx.await.unwrap(), shutdown }
}

// ---------------------------------------------------------------------------------------
// Clients.

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}"#;

struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: String,
}

impl Answer {
    /// Check that nothing secret is in the answer: no token, no record of the upstream.
    fn assert_leaks_nothing(&self) {
        let all = format!("{:?} {}", self.headers, self.body);
        for secret in [ALICE, BOB, TRIAGE, SECRET_WORD] {
            assert!(!all.contains(secret), "the answer carries `{secret}`: {all}");
        }
    }
}

/// POST `body` to `url` with `headers` (name, value pairs) and the MCP content headers;
/// the body is read for at most a few seconds (an SSE stream may stay open).
async fn post(url: &str, headers: &[(&str, &str)], body: impl Into<reqwest::Body>) -> Answer {
    let client = reqwest::Client::new();
    let mut request = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let mut response = request.body(body).send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let mut body = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(3), async {
        while let Ok(Some(chunk)) = response.chunk().await {
            body.extend_from_slice(&chunk);
        }
    })
    .await;
    Answer { status, headers, body: String::from_utf8_lossy(&body).into_owned() }
}

/// DELETE `url` with `headers`: the status and the body.
async fn delete(url: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut request = reqwest::Client::new().delete(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

/// Open a session as `token`'s principal by hand (initialize, then initialized): its id.
async fn open_session(url: &str, token: &str) -> String {
    let opened = post(url, &[("authorization", &bearer(token))], INITIALIZE).await;
    assert_eq!(opened.status, 200, "{}", opened.body);
    let session = opened.headers["mcp-session-id"].to_str().unwrap().to_owned();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let answer = post(url, &[("authorization", &bearer(token)), ("mcp-session-id", &session)], initialized).await;
    assert_eq!(answer.status, 202, "{}", answer.body);
    session
}

const LIST_TOOLS: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// An MCP session as `token`'s principal.
async fn connect(url: &str, token: &str) -> RunningService<RoleClient, ()> {
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned()).auth_header(token.to_owned());
    ().serve(StreamableHttpClientTransport::from_config(config)).await.expect("the client connects")
}

/// Call a tool; its envelope and the text the model reads.
async fn call(client: &RunningService<RoleClient, ()>, name: &str, args: Value) -> (Value, String) {
    let mut params = CallToolRequestParams::new(name.to_owned());
    if let Value::Object(m) = args {
        params = params.with_arguments(m);
    }
    let result = client.peer().call_tool(params).await.expect("the gateway answers every call");
    let text = result.content[0].as_text().expect("a text block").text.clone();
    (result.structured_content.expect("an envelope"), text)
}

// ---------------------------------------------------------------------------------------
// The tests.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_without_a_valid_token_are_refused_with_a_bearer_challenge() {
    let served = serve().await;
    let url = served.url();

    let none = post(&url, &[], INITIALIZE).await;
    assert_eq!(none.status, 401, "{}", none.body);
    assert_eq!(none.headers["www-authenticate"], "Bearer realm=\"toolshape\"");
    assert!(none.body.contains("Authorization: Bearer"), "says what to send: {}", none.body);
    none.assert_leaks_nothing();

    let wrong_token = format!("{}x", &ALICE[..ALICE.len() - 1]);
    let wrong = post(&url, &[("authorization", &bearer(&wrong_token))], INITIALIZE).await;
    assert_eq!(wrong.status, 401, "{}", wrong.body);
    assert!(wrong.headers["www-authenticate"].to_str().unwrap().contains("invalid_token"));
    assert!(!wrong.body.contains(&wrong_token), "the token sent is not echoed: {}", wrong.body);
    wrong.assert_leaks_nothing();

    // A token with the wrong scheme, or a prefix of a real token, is no token.
    let basic = post(&url, &[("authorization", &format!("Basic {ALICE}"))], INITIALIZE).await;
    assert_eq!(basic.status, 401);
    basic.assert_leaks_nothing();
    let prefix = post(&url, &[("authorization", &bearer(&ALICE[..10]))], INITIALIZE).await;
    assert_eq!(prefix.status, 401);

    // Every method is guarded, not only POST.
    let client = reqwest::Client::new();
    let get = client.get(&url).header("accept", "text/event-stream").send().await.unwrap();
    assert_eq!(get.status().as_u16(), 401);
    let delete = client.delete(&url).header("mcp-session-id", "anything").send().await.unwrap();
    assert_eq!(delete.status().as_u16(), 401);

    let right = post(&url, &[("authorization", &bearer(ALICE))], INITIALIZE).await;
    assert_eq!(right.status, 200, "{}", right.body);
    assert!(right.body.contains("\"serverInfo\""), "{}", right.body);
    assert!(right.headers.contains_key("mcp-session-id"));
    right.assert_leaks_nothing();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_bodies_and_headers_and_foreign_origins_and_hosts_are_refused() {
    let served = serve().await;
    let url = served.url();
    let auth = bearer(ALICE);
    let auth = ("authorization", auth.as_str());

    // http.max_body_bytes is 8192: a request just over it is refused, one under it is not.
    let padding = "p".repeat(8192);
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"{padding}","version":"1"}}}}}}"#
    );
    let oversized = post(&url, &[auth], big).await;
    assert_eq!(oversized.status, 413, "{}", oversized.body);
    oversized.assert_leaks_nothing();
    let small = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"{}","version":"1"}}}}}}"#,
        &padding[..7000]
    );
    assert_eq!(post(&url, &[auth], small).await.status, 200);

    // Headers over 16 KiB in all: 431 from the guard.
    let long = "h".repeat(20 * 1024);
    let headers = post(&url, &[auth, ("x-padding", &long)], INITIALIZE).await;
    assert_eq!(headers.status, 431, "{}", headers.body);
    headers.assert_leaks_nothing();

    // Origins: a loopback origin and the configured one pass; any other is refused.
    let loopback = format!("http://127.0.0.1:{}", served.addr.port());
    assert_eq!(post(&url, &[auth, ("origin", &loopback)], INITIALIZE).await.status, 200);
    assert_eq!(post(&url, &[auth, ("origin", "https://console.example.com")], INITIALIZE).await.status, 200);
    let foreign = post(&url, &[auth, ("origin", "https://evil.example")], INITIALIZE).await;
    assert_eq!(foreign.status, 403, "{}", foreign.body);
    assert!(foreign.body.contains("Origin"), "{}", foreign.body);
    foreign.assert_leaks_nothing();
    let lookalike = post(&url, &[auth, ("origin", "http://console.example.com")], INITIALIZE).await;
    assert_eq!(lookalike.status, 403, "another scheme is another origin");

    // Hosts: the configured one passes; any other is refused (DNS rebinding).
    assert_eq!(post(&url, &[auth, ("host", "gateway.example.com")], INITIALIZE).await.status, 200);
    let rebound = post(&url, &[auth, ("host", "evil.example")], INITIALIZE).await;
    assert_eq!(rebound.status, 403, "{}", rebound.body);
    assert!(rebound.body.contains("Host"), "{}", rebound.body);
    rebound.assert_leaks_nothing();
}

/// The first line of the answer to a raw `request`, or nothing when the connection closed
/// without one.
async fn raw_status(addr: SocketAddr, request: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    // The server may stop reading (and answer, and close) before all of it is written.
    let _ = stream.write_all(request.as_bytes()).await;
    let mut response = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut response)).await;
    String::from_utf8_lossy(&response).lines().next().unwrap_or_default().to_owned()
}

/// Headers beyond what the HTTP parser takes (about 400 KiB, or over 100 lines) never reach
/// the guard: the parser answers `431` and closes, and the server keeps serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headers_beyond_the_parser_limits_get_431_and_the_server_keeps_serving() {
    let served = serve().await;
    let many: String = (0..150).map(|i| format!("X-Line-{i}: a\r\n")).collect();
    let request = format!("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n{many}Content-Length: 0\r\n\r\n");
    assert!(raw_status(served.addr, &request).await.starts_with("HTTP/1.1 431"));
    let huge = "h".repeat(600 * 1024);
    let request = format!("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: {huge}\r\nContent-Length: 0\r\n\r\n");
    let status = raw_status(served.addr, &request).await;
    // A reset can beat the answer when the server closes while the client still writes.
    assert!(status.is_empty() || status.starts_with("HTTP/1.1 431"), "answered: {status:?}");
    assert_eq!(post(&served.url(), &[("authorization", &bearer(ALICE))], INITIALIZE).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_cannot_be_used_by_another_principal() {
    let served = serve().await;
    let url = served.url();
    let opened = post(&url, &[("authorization", &bearer(ALICE))], INITIALIZE).await;
    let session = opened.headers["mcp-session-id"].to_str().unwrap().to_owned();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

    let own = post(&url, &[("authorization", &bearer(ALICE)), ("mcp-session-id", &session)], initialized).await;
    assert_eq!(own.status, 202, "the owner uses its session: {}", own.body);
    let listed = post(&url, &[("authorization", &bearer(ALICE)), ("mcp-session-id", &session)], list).await;
    assert_eq!(listed.status, 200);
    assert!(listed.body.contains("open_records"), "{}", listed.body);

    let stolen = post(&url, &[("authorization", &bearer(BOB)), ("mcp-session-id", &session)], list).await;
    assert_eq!(stolen.status, 404, "another principal's session does not exist for it: {}", stolen.body);
    assert!(!stolen.body.contains("open_records"));
    stolen.assert_leaks_nothing();
    // The session id without its tag (as rmcp made it) is not accepted either.
    let (inner, _) = session.rsplit_once('.').expect("the session id carries a tag");
    let untagged = post(&url, &[("authorization", &bearer(ALICE)), ("mcp-session-id", inner)], list).await;
    assert_eq!(untagged.status, 404);
    // Another principal cannot close it: the owner still uses it afterwards.
    let client = reqwest::Client::new();
    let closed =
        client.delete(&url).header("authorization", bearer(BOB)).header("mcp-session-id", &session).send().await;
    assert_eq!(closed.unwrap().status().as_u16(), 404);
    let again = post(&url, &[("authorization", &bearer(ALICE)), ("mcp-session-id", &session)], list).await;
    assert_eq!(again.status, 200, "{}", again.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cursors_and_handles_read_nothing_for_another_principal_or_session_or_when_forged() {
    let served = serve().await;
    let url = served.url();
    let alice = connect(&url, ALICE).await;
    let (first, _) = call(&alice, "open_records", json!({})).await;
    assert_eq!(first["status"], "partial", "{first}");
    let cursor_args = first["next"]["arguments"].clone();
    let (stored, _) = call(&alice, "stored_records", json!({})).await;
    let handle_args = stored["next"]["arguments"].clone();
    assert!(handle_args["handle"].is_string(), "{stored}");

    // The owner reads both.
    let (page, text) = call(&alice, "result_read", cursor_args.clone()).await;
    assert_eq!(page["status"], "partial", "{page}");
    assert!(text.contains(SECRET_WORD));
    let (reopened, text) = call(&alice, "result_read", handle_args.clone()).await;
    assert_ne!(reopened["status"], "error", "{reopened}");
    assert!(text.contains(SECRET_WORD));

    // Bob, with a valid token of his own, reads nothing of them.
    let bob = connect(&url, BOB).await;
    for args in [&cursor_args, &handle_args] {
        let (refused, text) = call(&bob, "result_read", args.clone()).await;
        assert_eq!(refused["status"], "error", "{refused}");
        assert!(refused["data"].is_null(), "{refused}");
        assert!(refused["summary"].as_str().unwrap().contains("another session"), "{refused}");
        assert!(!text.contains(SECRET_WORD), "nothing of alice's data: {text}");
        // Not even views or slices of it.
        let mut view = args.clone();
        view["pattern"] = json!("record");
        let (refused, text) = call(&bob, "result_read", view).await;
        assert_eq!(refused["status"], "error", "{refused}");
        assert!(!text.contains(SECRET_WORD), "{text}");
    }

    // Alice in another session is another scope too.
    let alice_again = connect(&url, ALICE).await;
    let (refused, text) = call(&alice_again, "result_read", cursor_args.clone()).await;
    assert_eq!(refused["status"], "error", "{refused}");
    assert!(!text.contains(SECRET_WORD));

    // A forged cursor: one character changed, or made up.
    let cursor = cursor_args["cursor"].as_str().unwrap().to_owned();
    let mut chars: Vec<char> = cursor.chars().collect();
    let middle = chars.len() / 2;
    chars[middle] = if chars[middle] == 'A' { 'B' } else { 'A' };
    let tampered: String = chars.into_iter().collect();
    for forged in
        [tampered.as_str(), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "not a cursor"]
    {
        let (refused, text) = call(&alice, "result_read", json!({"cursor": forged})).await;
        assert_eq!(refused["status"], "error", "{refused}");
        assert!(refused["data"].is_null());
        assert!(!text.contains(SECRET_WORD), "{text}");
    }
    let (refused, _) = call(&alice, "result_read", json!({"cursor": tampered})).await;
    assert!(refused["summary"].as_str().unwrap().contains("signature"), "{refused}");

    for client in [alice, bob, alice_again] {
        let _ = client.cancel().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_principal_with_a_profile_sees_and_calls_only_its_tools() {
    let served = serve().await;
    let url = served.url();
    let triager = connect(&url, TRIAGE).await;
    let mut names: Vec<String> =
        triager.peer().list_all_tools().await.unwrap().into_iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(names, ["open_records", "result_read"]);
    let (refused, _) = call(&triager, "stored_records", json!({})).await;
    assert_eq!(refused["status"], "error", "a tool outside the profile is not callable: {refused}");
    let (ok, _) = call(&triager, "open_records", json!({})).await;
    assert_eq!(ok["status"], "partial", "{ok}");

    // A principal without a profile sees every tool.
    let alice = connect(&url, ALICE).await;
    let names: Vec<String> =
        alice.peer().list_all_tools().await.unwrap().into_iter().map(|t| t.name.to_string()).collect();
    assert!(names.iter().any(|n| n == "stored_records"), "{names:?}");
    for client in [triager, alice] {
        let _ = client.cancel().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_loopback_address_needs_remote_access_and_principals() {
    let anywhere: SocketAddr = "0.0.0.0:0".parse().unwrap();
    assert!(matches!(toolshape_gateway::check_exposure(anywhere, false, true), Err(GatewayError::NotLoopback { .. })));
    let open = toolshape_gateway::check_exposure(anywhere, true, false).unwrap_err();
    assert!(matches!(open, GatewayError::NoAuth { .. }));
    assert!(open.to_string().contains("auth:"), "says what to add: {open}");
    assert!(toolshape_gateway::check_exposure(anywhere, true, true).is_ok());
    assert!(toolshape_gateway::check_exposure("127.0.0.1:0".parse().unwrap(), false, false).is_ok());
    assert!(toolshape_gateway::check_exposure("[::1]:0".parse().unwrap(), false, false).is_ok());

    // serve_http_with refuses before it listens.
    let (config, masks) = toolshape_mask::load("upstreams: {}\n", "t.yaml", &|_| None).unwrap();
    let gateway = Gateway::launch(config, masks, GatewayOptions::default()).await.unwrap();
    let mut options = HttpOptions::new(anywhere);
    options.allow_remote = true;
    let served = toolshape_gateway::serve_http_with(gateway, options, CancellationToken::new(), None).await;
    assert!(matches!(served, Err(GatewayError::NoAuth { .. })), "{served:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_session_ends_it_with_200_and_later_requests_get_404() {
    let served = serve().await;
    let url = served.url();
    let session = open_session(&url, ALICE).await;
    let own = [("authorization", bearer(ALICE)), ("mcp-session-id", session.clone())];
    let own: Vec<(&str, &str)> = own.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let listed = post(&url, &own, LIST_TOOLS).await;
    assert_eq!(listed.status, 200, "the session works before it ends: {}", listed.body);

    let (status, body) = delete(&url, &own).await;
    assert_eq!(status, 200, "ending a session is a success: {body}");
    assert!(body.is_empty(), "{body}");
    let after = post(&url, &own, LIST_TOOLS).await;
    assert_eq!(after.status, 404, "an ended session is gone: {}", after.body);
    assert!(!after.body.contains("open_records"), "{}", after.body);
    // Ending it again (its id is still correctly sealed for alice, so this reaches the
    // session lookup), or ending a session that never was, finds nothing.
    assert_eq!(delete(&url, &own).await.0, 404);
    let alice = bearer(ALICE);
    let made_up = [("authorization", alice.as_str()), ("mcp-session-id", "no-such-session")];
    assert_eq!(delete(&url, &made_up).await.0, 404);
    // Without a session id there is nothing to end: a client error, not a success.
    let (status, _) = delete(&url, &[("authorization", &bearer(ALICE))]).await;
    assert!((400..500).contains(&status), "answered {status}");
    // Other sessions are untouched, and a new one opens as usual.
    let other = open_session(&url, ALICE).await;
    let fresh = post(&url, &[("authorization", &bearer(ALICE)), ("mcp-session-id", &other)], LIST_TOOLS).await;
    assert_eq!(fresh.status, 200, "{}", fresh.body);
}

/// With a shared store, another replica would restore a session from its record: ending the
/// session removes the record, so no replica serves it afterwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ended_session_is_not_restored_by_another_replica() {
    let dir = tempfile::tempdir().unwrap();
    let store =
        format!("store: {{ backend: sqlite, path: \"{}\", ttl_secs: 600 }}\n", dir.path().join("s.sqlite").display());
    let upstream = start_upstream().await;
    let (first, second) = (serve_with(upstream, &store).await, serve_with(upstream, &store).await);
    let session = open_session(&first.url(), ALICE).await;
    let own = [("authorization", bearer(ALICE)), ("mcp-session-id", session.clone())];
    let own: Vec<(&str, &str)> = own.iter().map(|(k, v)| (*k, v.as_str())).collect();
    // The other replica serves the session from its record, and then holds it (the second
    // request finds the record there and remembers that it did).
    for _ in 0..2 {
        let restored = post(&second.url(), &own, LIST_TOOLS).await;
        assert_eq!(restored.status, 200, "{}", restored.body);
    }

    let (status, body) = delete(&first.url(), &own).await;
    assert_eq!(status, 200, "{body}");
    let (third_url, first_url) = (serve_with(upstream, &store).await, first.url());
    for url in [first_url, third_url.url()] {
        let after = post(&url, &own, LIST_TOOLS).await;
        assert_eq!(after.status, 404, "{url}: {}", after.body);
    }
    // The replica that still holds it in memory learns that it ended within a recheck
    // interval, closes it, and refuses it from then on.
    tokio::time::sleep(toolshape_gateway::SESSION_RECHECK_INTERVAL + Duration::from_millis(100)).await;
    for _ in 0..2 {
        let after = post(&second.url(), &own, LIST_TOOLS).await;
        assert_eq!(after.status, 404, "the replica holding the session still served it: {}", after.body);
    }
    // The replica that does not hold it can end it too: its record goes, so nobody restores it.
    let session = open_session(&first.url(), ALICE).await;
    let own = [("authorization", bearer(ALICE)), ("mcp-session-id", session.clone())];
    let own: Vec<(&str, &str)> = own.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(delete(&third_url.url(), &own).await.0, 200);
    let fourth = serve_with(upstream, &store).await;
    assert_eq!(post(&fourth.url(), &own, LIST_TOOLS).await.status, 404);
}

/// One raw HTTP/1.1 request on `stream`: the answer's status and head (lower-cased), or
/// `None` when the server closed the connection instead of answering.
async fn exchange(stream: &mut tokio::net::TcpStream, headers: &str, body: &str) -> Option<(u16, String)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut seen = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk)).await.ok()?.ok()?;
        if n == 0 {
            return None;
        }
        seen.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&seen).to_string();
        let Some(end) = text.find("\r\n\r\n") else { continue };
        let head = text[..end].to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        if seen.len() >= end + 4 + length {
            let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
            return Some((status, head));
        }
    }
}

/// Regression: a refusal was sent before the request's body was read, and the connection
/// closed under a client that sent its next try on it ("server disconnected without sending a
/// response", seen from the Python SDK's HTTP client). A refused request's body is read
/// first, so one connection carries a request with no token, one with a wrong token and one
/// with the right token; a body too large to read gets `Connection: close` instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_request_leaves_its_connection_usable() {
    let served = serve().await;
    let mut stream = tokio::net::TcpStream::connect(served.addr).await.unwrap();
    let (status, head) = exchange(&mut stream, "", INITIALIZE).await.expect("the first refusal is answered");
    assert_eq!(status, 401, "{head}");
    assert!(!head.contains("connection: close"), "{head}");
    let wrong = format!("Authorization: Bearer {}x\r\n", &ALICE[..ALICE.len() - 1]);
    let (status, head) = exchange(&mut stream, &wrong, INITIALIZE).await.expect("a second try on the connection");
    assert_eq!(status, 401, "{head}");
    let right = format!("Authorization: {}\r\n", bearer(ALICE));
    let (status, head) = exchange(&mut stream, &right, INITIALIZE).await.expect("a third try on the connection");
    assert_eq!(status, 200, "{head}");

    let mut stream = tokio::net::TcpStream::connect(served.addr).await.unwrap();
    let large = format!("{{\"pad\":\"{}\"}}", "x".repeat(200 * 1024));
    let (status, head) = exchange(&mut stream, "", &large).await.expect("a refusal of a large body is answered");
    assert_eq!(status, 401, "{head}");
    assert!(head.contains("connection: close"), "{head}");
}
