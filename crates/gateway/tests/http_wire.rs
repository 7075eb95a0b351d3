//! Streamable HTTP on the wire, with a plain HTTP client: a body that is not a JSON-RPC
//! message gets `400` and a JSON-RPC error (not `415`: its media type was right).

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
