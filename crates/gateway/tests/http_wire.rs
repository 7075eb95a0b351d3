//! Streamable HTTP on the wire, with a plain HTTP client: a body that is not a JSON-RPC
//! message gets `400` and a JSON-RPC error (not `415`: its media type was right); a quick
//! answer is one JSON body.

#![allow(clippy::unwrap_used)]

use std::net::SocketAddr;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use toolshape_gateway::{Gateway, GatewayOptions, HttpOptions};

/// A gateway with no upstreams, served over HTTP on a free loopback port.
async fn serve() -> (SocketAddr, CancellationToken) {
    let (config, masks) = toolshape_mask::load("upstreams: {}\n", "t.yaml", &|_| None).unwrap();
    let gateway = Gateway::launch(config, masks, GatewayOptions::default()).await.unwrap();
    let shutdown = CancellationToken::new();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let stop = shutdown.clone();
    let options = HttpOptions::new("127.0.0.1:0".parse().unwrap());
    tokio::spawn(async move { toolshape_gateway::serve_http_with(gateway, options, stop, Some(tx)).await });
    (rx.await.unwrap(), shutdown)
}

async fn post(addr: SocketAddr, content_type: &str, body: &str) -> (u16, String, String) {
    let response = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("content-type", content_type)
        .header("accept", "application/json, text/event-stream")
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let media = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    (status, media, response.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_is_not_json_rpc_gets_400_with_a_json_rpc_error() {
    let (addr, shutdown) = serve().await;
    let cut_short = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":"#;
    for (body, code) in [(cut_short, -32700), ("not json", -32700), ("[1,2]", -32600), ("{}", -32600)] {
        let (status, media, text) = post(addr, "application/json", body).await;
        assert_eq!(status, 400, "{body}: {text}");
        assert!(media.starts_with("application/json"), "{body}: {media}");
        let error: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{body}: not JSON ({e}): {text}"));
        assert_eq!(error["jsonrpc"], "2.0");
        assert_eq!(error["error"]["code"], code, "{body}: {text}");
        assert_eq!(error["id"], Value::Null, "no request id could be read: {text}");
    }
    // The right media type with a real message is served; a wrong media type keeps its 415.
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "wire-test", "version": "1"}}});
    let (status, _, text) = post(addr, "application/json", &init.to_string()).await;
    assert_eq!(status, 200, "{text}");
    let (status, _, _) = post(addr, "text/plain", &init.to_string()).await;
    assert_eq!(status, 415);
    shutdown.cancel();
}

/// The JSON-RPC message of an answer, sent as JSON or as one server-sent event.
fn message_of(body: &str) -> Value {
    // A server-sent event stream starts with an empty priming event.
    let json = body
        .lines()
        .filter_map(|l| l.strip_prefix("data:").map(str::trim))
        .find(|data| !data.is_empty())
        .unwrap_or(body.trim());
    serde_json::from_str(json).unwrap_or_else(|e| panic!("not a JSON-RPC answer ({e}): {body}"))
}

/// One session of a client named `client`: its tool list and a tool call's result.
async fn list_and_call(addr: SocketAddr, client: &str) -> (Value, Value) {
    let http = reqwest::Client::new();
    let url = format!("http://{addr}/mcp");
    let send = |body: Value, session: Option<String>| {
        let mut request = http
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_string());
        if let Some(id) = session {
            request = request.header("mcp-session-id", id);
        }
        request.send()
    };
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": client, "version": "1.0"}}});
    let answer = send(init, None).await.unwrap();
    let session = answer.headers().get("mcp-session-id").map(|v| v.to_str().unwrap().to_owned());
    assert!(answer.status().is_success(), "{client}: {}", answer.text().await.unwrap());
    let _ = answer.text().await;
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    send(initialized, session.clone()).await.unwrap();
    let list = send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}), session.clone()).await.unwrap();
    let tools = message_of(&list.text().await.unwrap())["result"]["tools"].clone();
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "result_read", "arguments": {"cursor": "not-a-cursor"}}});
    let result = message_of(&send(call, session).await.unwrap().text().await.unwrap())["result"].clone();
    (tools, result)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_show_the_model_structured_content_get_the_delimited_text_alone() {
    let (addr, shutdown) = serve().await;
    for (client, structured) in [
        ("claude-code", false),
        ("codex-mcp-client", false),
        ("Visual Studio Code", false),
        ("gemini-cli-mcp-client", true),
        ("some-other-agent", true),
    ] {
        let (tools, result) = list_and_call(addr, client).await;
        let tools = tools.as_array().unwrap_or_else(|| panic!("{client}: no tool list"));
        assert!(!tools.is_empty(), "{client}");
        for tool in tools {
            assert_eq!(tool.get("outputSchema").is_some(), structured, "{client}: {tool}");
        }
        assert_eq!(result.get("structuredContent").is_some(), structured, "{client}: {result}");
        // Whatever else is sent, the text the model reads is the delimited envelope.
        let text = result["content"][0]["text"].as_str().unwrap();
        let last = text.trim_end().lines().last().unwrap_or_default();
        assert!(text.starts_with("<<<tool-result ") && last.starts_with("<<<end "), "{client}: {text}");
        assert_eq!(result["isError"], true, "{client}: {result}");
    }
    shutdown.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_config_sets_structured_content_for_every_client_or_by_name() {
    let yaml = "upstreams: {}\nclients:\n  structured_content: never\n  overrides:\n    claude-code: always\n";
    let (config, masks) = toolshape_mask::load(yaml, "t.yaml", &|_| None).unwrap();
    let gateway = Gateway::launch(config, masks, GatewayOptions::default()).await.unwrap();
    let shutdown = CancellationToken::new();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let stop = shutdown.clone();
    let options = HttpOptions::new("127.0.0.1:0".parse().unwrap());
    tokio::spawn(async move { toolshape_gateway::serve_http_with(gateway, options, stop, Some(tx)).await });
    let addr = rx.await.unwrap();
    let (_, result) = list_and_call(addr, "gemini-cli-mcp-client").await;
    assert!(result.get("structuredContent").is_none(), "never, for every client: {result}");
    let (tools, result) = list_and_call(addr, "claude-code").await;
    assert!(result.get("structuredContent").is_some(), "always, by name: {result}");
    assert!(tools[0].get("outputSchema").is_some(), "{tools}");
    shutdown.cancel();
}

/// A quick answer leaves as one `application/json` body (cheaper for a client to read than an
/// event stream), with its session header. (Streams kept for progress, server requests and
/// slow calls: `json_answers_tests.rs`, and the end-to-end tests over HTTP.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_answers_are_one_json_body_with_the_session_header() {
    let (addr, shutdown) = serve().await;
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "wire-test", "version": "1"}}});
    let http = reqwest::Client::new();
    let url = format!("http://{addr}/mcp");
    let answer = http
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(init.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(answer.headers()["content-type"], "application/json");
    let session = answer.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let message: Value = serde_json::from_str(&answer.text().await.unwrap()).unwrap();
    assert_eq!(message["id"], 1);
    assert!(message["result"]["serverInfo"].is_object(), "{message}");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let sent = http
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-session-id", &session)
        .body(initialized.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status().as_u16(), 202);
    // The same session's next request: a list, also one JSON body.
    let list = http
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-session-id", &session)
        .body(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(list.headers()["content-type"], "application/json");
    let tools: Value = serde_json::from_str(&list.text().await.unwrap()).unwrap();
    assert!(tools["result"]["tools"].as_array().is_some_and(|t| !t.is_empty()), "{tools}");
    shutdown.cancel();
}
