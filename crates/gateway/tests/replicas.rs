//! Two gateways sharing one store behave as one: a cursor signed by one is read by the other,
//! even when the other asks before the first has finished storing the snapshot behind it
//! (replicas store snapshots after answering). Both gateways open the same SQLite file from
//! the config's `store:` section, as two processes on one machine would; one of them stores
//! through a wrapper that delays every write, which makes the race certain instead of likely.
//! The upstream is `fixtures/stdio_upstream.py` (run with `python3`), whose `echo` tool
//! answers its arguments, so the test decides how large a result is. Both tests run when
//! `TOOLSHAPE_HEAVY_TESTS=1` asks for them (as `scripts/test.sh` does).

#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolshape_gateway::{Caller, Gateway, GatewayOptions, Outcome};
use toolshape_gateway::{Store, StoreError, StoreFuture};
use toolshape_store::SqliteStore;

/// Records the echo tool sends back: several pages under the configured budget.
const RECORDS: u64 = 400;

fn config(store_path: &std::path::Path) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/stdio_upstream.py");
    format!(
        "upstreams:\n  stub: {{ command: [python3, \"{script}\"], timeout_secs: 10 }}\n\
         defaults: {{ budget_tokens: 800 }}\n\
         store: {{ backend: sqlite, path: \"{}\", ttl_secs: 600 }}\n",
        store_path.display()
    )
}

fn options() -> GatewayOptions {
    GatewayOptions { secret: Some(b"replica test secret".to_vec()), ..GatewayOptions::default() }
}

/// Writes reach the inner store only after `delay`; writes can also be dropped altogether.
struct SlowWrites {
    inner: Arc<dyn Store>,
    delay: Duration,
    drop_writes: bool,
}

impl Store for SlowWrites {
    fn put<'a>(&'a self, key: &'a str, value: Vec<u8>, ttl: Duration) -> StoreFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            tokio::time::sleep(self.delay).await;
            if self.drop_writes {
                return Err(StoreError::TooLarge { size: value.len(), limit: 0 });
            }
            self.inner.put(key, value, ttl).await
        })
    }

    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<Option<Arc<Vec<u8>>>, StoreError>> {
        self.inner.get(key)
    }

    fn delete<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<(), StoreError>> {
        self.inner.delete(key)
    }
}

/// Gateway `slow` stores through a delayed (or dropping) wrapper; gateway `plain` opens the
/// store from the config. Both on the same file.
async fn pair(dir: &std::path::Path, drop_writes: bool) -> (Arc<Gateway>, Arc<Gateway>) {
    let path = dir.join("store.sqlite");
    let yaml = config(&path);
    let (config_a, masks_a) = toolshape_mask::load(&yaml, "a.yaml", &|_| None).unwrap();
    let (config_b, masks_b) = toolshape_mask::load(&yaml, "b.yaml", &|_| None).unwrap();
    let opened = SqliteStore::open(&path, 64 << 20, 16 << 20).await;
    let file: Arc<dyn Store> = Arc::new(opened.unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display())));
    let slow_store = Arc::new(SlowWrites { inner: file, delay: Duration::from_millis(700), drop_writes });
    let slow = Gateway::launch_with_store(config_a, masks_a, options(), slow_store).await.unwrap();
    let plain = Gateway::launch(config_b, masks_b, options()).await.unwrap();
    assert!(plain.store_is_shared() && slow.store_is_shared());
    (slow, plain)
}

fn arguments() -> serde_json::Map<String, Value> {
    let records: Vec<Value> =
        (0..RECORDS).map(|n| json!({"n": n, "text": format!("record {n} of the echo, with some words")})).collect();
    json!({"records": records}).as_object().unwrap().clone()
}

/// Every `"n"` number in a page's data, in order.
fn numbers(outcome: &Outcome) -> Vec<u64> {
    fn walk(v: &Value, out: &mut Vec<u64>) {
        match v {
            Value::Object(m) => {
                if let Some(n) = m.get("n").and_then(Value::as_u64) {
                    out.push(n);
                }
                m.values().for_each(|x| walk(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let envelope = serde_json::to_value(&outcome.envelope).unwrap();
    let mut out = Vec::new();
    walk(&envelope["data"], &mut out);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cursor_is_read_by_the_other_gateway_before_the_first_has_stored_its_snapshot() {
    if !toolshape_fixtures::heavy::run("Python (`python3`), which runs the stdio test upstream") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (slow, plain) = pair(dir.path(), false).await;
    let caller = Caller::local("session-1");
    let first = slow.call("stub_echo", Some(arguments()), &caller).await;
    assert!(!first.is_error(), "{}", first.text);
    let mut next = first.envelope.next.clone().expect("a result larger than one page");
    let mut seen = numbers(&first);
    // Straight to the other gateway: the snapshot is still on its way (700 ms).
    let started = Instant::now();
    let mut pages = 1;
    let mut gateways = [&plain, &slow].into_iter().cycle();
    loop {
        let page = gateways.next().unwrap().call(&next.tool, Some(next.arguments.clone()), &caller).await;
        assert!(!page.is_error(), "page {pages}: {}", page.text);
        if pages == 1 {
            assert!(started.elapsed() >= Duration::from_millis(300), "the first read did not wait for the snapshot");
        }
        seen.extend(numbers(&page));
        pages += 1;
        match page.envelope.next {
            Some(n) => next = n,
            None => break,
        }
    }
    assert!(pages > 2, "{pages} pages");
    assert_eq!(seen, (0..RECORDS).collect::<Vec<_>>());

    // The other gateway's cursor is bound to the caller's scope there too.
    let stranger = Caller::local("session-2");
    let first = slow.call("stub_echo", Some(arguments()), &caller).await;
    let next = first.envelope.next.clone().unwrap();
    let refused = plain.call(&next.tool, Some(next.arguments), &stranger).await;
    assert!(refused.is_error() && refused.envelope.summary.contains("another session"), "{}", refused.text);
    slow.shutdown().await;
    plain.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_that_never_arrives_is_reported_expired_within_the_grace_period() {
    if !toolshape_fixtures::heavy::run("Python (`python3`), which runs the stdio test upstream") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (slow, plain) = pair(dir.path(), true).await;
    let caller = Caller::local("session-1");
    let first = slow.call("stub_echo", Some(arguments()), &caller).await;
    let next = first.envelope.next.clone().expect("a result larger than one page");
    let started = Instant::now();
    let gone = plain.call(&next.tool, Some(next.arguments), &caller).await;
    let waited = started.elapsed();
    assert!(gone.is_error() && gone.envelope.summary.contains("expired"), "{}", gone.text);
    // It polled for the snapshot (a replica may still be storing it), but not for ever.
    assert!(waited >= Duration::from_secs(5) && waited <= Duration::from_secs(13), "waited {waited:?}");
    slow.shutdown().await;
    plain.shutdown().await;
}
