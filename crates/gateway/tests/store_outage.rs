//! The gateway in front of a real `redis-server` that stops and starts again (without
//! persistence, so it comes back empty): no answer hands out a cursor that can never be
//! read, and a cursor whose snapshot the store did not take says so rather than "expired".
//!
//! `redis-server` is required (`apt-get install -y redis-server`; `scripts/test.sh` installs
//! it when missing).

#![allow(clippy::unwrap_used)]

#[path = "../../store/tests/support/redis_server.rs"]
mod redis_server;

use std::time::Duration;

use redis_server::RedisServer;
use toolshape_gateway::{Caller, Gateway, GatewayOptions, Outcome};
use toolshape_tokens::Tokenizer;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/error_upstream.py");
const BUDGET: usize = 800;

async fn gateway(redis: &RedisServer) -> std::sync::Arc<Gateway> {
    let yaml = format!(
        "upstreams:\n  app: {{ command: [python3, \"{FIXTURE}\"], timeout_secs: 10 }}\ndefaults:\n  budget_tokens: {BUDGET}\n\
         store:\n  backend: redis\n  url: \"{}\"\n  key_prefix: \"outage:\"\n",
        redis.url(0)
    );
    let (config, masks) = toolshape_mask::load(&yaml, "test.yaml", &|_| None).unwrap();
    let options = GatewayOptions { secret: Some(b"outage test secret".to_vec()), ..GatewayOptions::default() };
    Gateway::launch(config, masks, options).await.unwrap()
}

async fn read_next(gateway: &Gateway, outcome: &Outcome, caller: &Caller) -> Outcome {
    let next = outcome.envelope.next.clone().expect("a next");
    gateway.call(&next.tool, Some(next.arguments), caller).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_outage_never_hands_out_a_cursor_that_cannot_be_read() {
    let mut redis = RedisServer::start();
    let gateway = gateway(&redis).await;
    let caller = Caller::local("outage");

    // Healthy: a cursor that reads.
    let first = gateway.call("app_log", None, &caller).await;
    assert_eq!(first.envelope.status.as_str(), "partial", "{}", first.text);
    let page = read_next(&gateway, &first, &caller).await;
    assert!(!page.is_error(), "{}", page.text);

    // The store goes away. The first call after it cannot know: its cursor is handed out
    // and its snapshot fails to be kept after the answer.
    redis.kill();
    let unaware = gateway.call("app_log", None, &caller).await;
    assert!(unaware.envelope.next.is_some(), "{}", unaware.text);
    // Reading it while the store is down: the store is unavailable, try later.
    let down = read_next(&gateway, &unaware, &caller).await;
    assert!(down.is_error() && down.envelope.summary.contains("unavailable"), "{}", down.text);

    // Now the store is known to be failing: no `next`, and the answer says why.
    let known = gateway.call("app_log", None, &caller).await;
    assert_eq!(known.envelope.status.as_str(), "partial", "{}", known.text);
    assert!(known.envelope.next.is_none(), "a cursor to a snapshot that was never kept: {}", known.text);
    let summary = &known.envelope.summary;
    assert!(summary.contains("the rest could not be kept") && !summary.contains("more with next"), "{summary}");
    assert!(known.envelope.omitted.is_some(), "what was left out is still said: {}", known.text);
    assert!(Tokenizer::default().count(&known.text) <= BUDGET, "{}", known.text);

    // The store comes back, empty. The unaware call's cursor says what happened.
    redis.restart();
    let mut later = read_next(&gateway, &unaware, &caller).await;
    for _ in 0..50 {
        // The store client reconnects with a backoff.
        if !later.envelope.summary.contains("is unavailable") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        later = read_next(&gateway, &unaware, &caller).await;
    }
    assert!(later.is_error(), "{}", later.text);
    assert!(
        later.envelope.summary.contains("the store was unavailable when this result was kept"),
        "{}",
        later.envelope.summary
    );
    assert!(!later.envelope.summary.contains("expired"), "{}", later.envelope.summary);

    // And with the store back, calls get cursors that read again. This call repeats the
    // earlier ones: the repeat answer must not point to the cursor that was never kept.
    let again = gateway.call("app_log", None, &caller).await;
    let page = read_next(&gateway, &again, &caller).await;
    assert!(!page.is_error(), "{}", page.text);
    gateway.shutdown().await;
}

// ---------------------------------------------------------------------------------------
// HTTP sessions across a Redis restart that lost every record.

/// Serve `gateway` over HTTP on a free loopback port.
async fn serve_http(gateway: std::sync::Arc<Gateway>) -> (std::net::SocketAddr, tokio_util::sync::CancellationToken) {
    let shutdown = tokio_util::sync::CancellationToken::new();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let stop = shutdown.clone();
    let options = toolshape_gateway::HttpOptions::new("127.0.0.1:0".parse().unwrap());
    tokio::spawn(async move { toolshape_gateway::serve_http_with(gateway, options, stop, Some(tx)).await });
    (rx.await.unwrap(), shutdown)
}

/// POST one JSON-RPC message to `addr` in `session`: the status and the session id sent back.
async fn rpc(addr: std::net::SocketAddr, session: Option<&str>, body: serde_json::Value) -> (u16, Option<String>) {
    let mut request = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_string());
    if let Some(id) = session {
        request = request.header("mcp-session-id", id);
    }
    let response = request.send().await.unwrap();
    let id = response.headers().get("mcp-session-id").map(|v| v.to_str().unwrap().to_owned());
    let status = response.status().as_u16();
    let _ = response.text().await;
    (status, id)
}

async fn open_session(addr: std::net::SocketAddr) -> String {
    let init = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "outage-test", "version": "1"}}});
    let (status, id) = rpc(addr, None, init).await;
    assert_eq!(status, 200);
    let id = id.expect("a session id");
    rpc(addr, Some(&id), serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    id
}

async fn list(addr: std::net::SocketAddr, session: &str) -> u16 {
    rpc(addr, Some(session), serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})).await.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_sessions_survive_a_redis_restart_that_lost_their_records_on_the_replica_holding_them() {
    let mut redis = RedisServer::start();
    let (holder, stop_holder) = serve_http(gateway(&redis).await).await;
    let (other, stop_other) = serve_http(gateway(&redis).await).await;
    let kept = open_session(holder).await;
    let ended = open_session(holder).await;
    assert_eq!(list(holder, &kept).await, 200);
    assert_eq!(list(other, &kept).await, 200, "another replica restores it from its record");

    // Redis restarts empty: every session record is gone.
    redis.restart();
    // Past the recheck interval, so the holder looks for the record: whatever the timing,
    // the session it holds is served, and its record is written again.
    tokio::time::sleep(toolshape_gateway::SESSION_RECHECK_INTERVAL + Duration::from_millis(200)).await;
    let mut status = list(holder, &kept).await;
    for _ in 0..50 {
        if status == 200 {
            break;
        }
        // The store client reconnects with a backoff; until then the check is skipped.
        tokio::time::sleep(Duration::from_millis(200)).await;
        status = list(holder, &kept).await;
    }
    assert_eq!(status, 200, "a held session is served after the store lost its record");
    tokio::time::sleep(toolshape_gateway::SESSION_RECHECK_INTERVAL + Duration::from_millis(200)).await;
    assert_eq!(list(holder, &kept).await, 200, "and stays served on later checks");
    // The record is back, so the replica that restored it earlier (or any other) serves it.
    tokio::time::sleep(toolshape_gateway::SESSION_RECHECK_INTERVAL + Duration::from_millis(200)).await;
    assert_eq!(list(other, &kept).await, 200);

    // A session ended with DELETE stays ended, on the replica that held it too.
    let response = reqwest::Client::new()
        .delete(format!("http://{other}/mcp"))
        .header("mcp-session-id", &kept)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    tokio::time::sleep(toolshape_gateway::SESSION_RECHECK_INTERVAL + Duration::from_millis(200)).await;
    assert_eq!(list(holder, &kept).await, 404, "ended elsewhere: not revived");
    // The other session, held by `holder` only and never served since the restart, is
    // revived there too.
    assert_eq!(list(holder, &ended).await, 200);
    stop_holder.cancel();
    stop_other.cancel();
}
