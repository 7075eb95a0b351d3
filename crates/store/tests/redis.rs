//! The Redis store against a real `redis-server` that each test starts on its own loopback
//! port: round trips, TTLs, caps, prefixes, credentials kept out of errors, and an outage
//! (server killed, then restarted on the same port) that fails fast and recovers. They run
//! when `TOOLSHAPE_HEAVY_TESTS=1` asks for them (as `scripts/test.sh` does).

#[path = "support/redis_server.rs"]
mod redis_server;

use std::sync::Arc;
use std::time::{Duration, Instant};

use redis_server::{RedisServer, free_port};
use toolshape_store::{RedisOptions, RedisStore, Store, StoreError, StoreSpec};

const TTL: Duration = Duration::from_secs(60);

/// An outage must be reported within this long (the operation timeout is 2 s).
const FAIL_FAST: Duration = Duration::from_millis(3000);

fn options(prefix: &str, max_entry_bytes: usize) -> RedisOptions {
    RedisOptions { key_prefix: prefix.into(), max_entry_bytes, ..RedisOptions::default() }
}

/// Whether the tests that start `redis-server` run (they skip, saying why, unless
/// `TOOLSHAPE_HEAVY_TESTS` asks for them).
fn with_redis() -> bool {
    toolshape_fixtures::heavy::run("redis-server")
}

/// A plain connection for looking at what the store wrote.
async fn raw(server: &RedisServer) -> redis::aio::MultiplexedConnection {
    redis::Client::open(server.url(0)).expect("url").get_multiplexed_async_connection().await.expect("connect")
}

#[tokio::test]
async fn put_get_delete_and_every_key_has_a_ttl() {
    if !with_redis() {
        return;
    }
    let server = RedisServer::start();
    let store = RedisStore::connect(&server.url(0), options("toolshape:", 1 << 20)).await.unwrap();
    let value: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    store.put("snap-1", value.clone(), TTL).await.unwrap();
    assert_eq!(store.get("snap-1").await.unwrap().as_deref(), Some(&value));
    assert_eq!(store.get("never-stored").await.unwrap(), None);

    let mut conn = raw(&server).await;
    let pttl: i64 = redis::cmd("PTTL").arg("toolshape:snap-1").query_async(&mut conn).await.unwrap();
    assert!(pttl > 50_000 && pttl <= 60_000, "PTTL {pttl}");
    let unprefixed: bool = redis::cmd("EXISTS").arg("snap-1").query_async(&mut conn).await.unwrap();
    assert!(!unprefixed, "keys are stored under the prefix only");

    store.delete("snap-1").await.unwrap();
    store.delete("never-stored").await.unwrap();
    assert_eq!(store.get("snap-1").await.unwrap(), None);
}

#[tokio::test]
async fn entries_expire() {
    if !with_redis() {
        return;
    }
    let server = RedisServer::start();
    let store = RedisStore::connect(&server.url(0), options("t:", 1024)).await.unwrap();
    store.put("short", b"soon gone".to_vec(), Duration::from_millis(150)).await.unwrap();
    store.put("zero", b"gone at once".to_vec(), Duration::ZERO).await.unwrap();
    assert!(store.get("short").await.unwrap().is_some());
    assert!(store.get("zero").await.unwrap().is_none());
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(store.get("short").await.unwrap().is_none());
}

#[tokio::test]
async fn per_entry_cap_refuses_and_keeps_the_old_value() {
    if !with_redis() {
        return;
    }
    let server = RedisServer::start();
    let store = RedisStore::connect(&server.url(0), options("t:", 1000)).await.unwrap();
    store.put("k", vec![1; 1000], TTL).await.unwrap();
    assert_eq!(store.put("k", vec![2; 1001], TTL).await, Err(StoreError::TooLarge { size: 1001, limit: 1000 }));
    assert_eq!(store.get("k").await.unwrap().as_deref(), Some(&vec![1; 1000]));
}

#[tokio::test]
async fn prefixes_isolate_stores_on_one_server() {
    if !with_redis() {
        return;
    }
    let server = RedisServer::start();
    let a = RedisStore::connect(&server.url(0), options("tenant-a:", 1024)).await.unwrap();
    let b = RedisStore::connect(&server.url(0), options("tenant-b:", 1024)).await.unwrap();
    a.put("same-key", b"from a".to_vec(), TTL).await.unwrap();
    assert_eq!(b.get("same-key").await.unwrap(), None);
    b.put("same-key", b"from b".to_vec(), TTL).await.unwrap();
    assert_eq!(a.get("same-key").await.unwrap().as_deref().map(Vec::as_slice), Some(&b"from a"[..]));
    b.delete("same-key").await.unwrap();
    assert!(a.get("same-key").await.unwrap().is_some(), "deleting in one prefix leaves the other");
}

#[tokio::test]
async fn replicas_share_entries_through_open() {
    if !with_redis() {
        return;
    }
    let server = RedisServer::start();
    let spec = StoreSpec::Redis { url: server.url(3), key_prefix: "toolshape:".into(), max_entry_bytes: 2 << 20 };
    let first = toolshape_store::open(&spec).await.unwrap();
    let second = toolshape_store::open(&spec).await.unwrap();
    let big = vec![7u8; 1 << 20];
    first.put("snapshot", big.clone(), TTL).await.unwrap();
    assert_eq!(second.get("snapshot").await.unwrap().as_deref(), Some(&big));
}

#[tokio::test]
async fn an_outage_fails_fast_and_recovers_without_rebuilding_the_store() {
    if !with_redis() {
        return;
    }
    let mut server = RedisServer::start();
    let store: Arc<dyn Store> = Arc::new(RedisStore::connect(&server.url(0), options("t:", 1024)).await.unwrap());
    store.put("before", b"kept in memory only".to_vec(), TTL).await.unwrap();

    server.kill();
    let port = server.port().to_string();
    let unavailable = |what: &str, result: Result<(), StoreError>, elapsed: Duration| {
        assert!(
            matches!(&result, Err(StoreError::Unavailable { backend, .. }) if backend.contains(&port)),
            "{what}: {result:?}"
        );
        assert!(elapsed < FAIL_FAST, "{what} took {elapsed:?} to fail");
    };
    for attempt in 0..3 {
        let started = Instant::now();
        let put = store.put("during", b"x".to_vec(), TTL).await;
        unavailable(&format!("put #{attempt}"), put, started.elapsed());
        let started = Instant::now();
        let get = store.get("before").await.map(|_| ());
        unavailable(&format!("get #{attempt}"), get, started.elapsed());
        let started = Instant::now();
        let delete = store.delete("before").await;
        unavailable(&format!("delete #{attempt}"), delete, started.elapsed());
    }

    server.restart();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match store.put("after", b"back".to_vec(), TTL).await {
            Ok(()) => break,
            Err(e) => {
                assert!(e.is_retryable(), "{e}");
                assert!(Instant::now() < deadline, "no recovery within 10 s: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    assert_eq!(store.get("after").await.unwrap().as_deref().map(Vec::as_slice), Some(&b"back"[..]));
    // The server restarted without persistence: what was stored before is gone, not an error.
    assert_eq!(store.get("before").await.unwrap(), None);
}

#[tokio::test]
async fn an_unreachable_server_is_unavailable_at_connect_without_the_password() {
    let port = free_port();
    let started = Instant::now();
    let err = RedisStore::connect(&format!("redis://:hunter22secret@127.0.0.1:{port}/0"), options("t:", 10))
        .await
        .unwrap_err();
    assert!(started.elapsed() < FAIL_FAST, "took {:?}", started.elapsed());
    assert!(matches!(err, StoreError::Unavailable { .. }), "{err:?}");
    let shown = format!("{err} {err:?}");
    assert!(!shown.contains("hunter22secret"), "{shown}");
    assert!(shown.contains(&format!("127.0.0.1:{port}")), "{shown}");
}

#[tokio::test]
async fn passwords_work_and_a_wrong_one_is_refused_without_being_shown() {
    if !with_redis() {
        return;
    }
    let server = RedisServer::start_with(&["--requirepass", "right-horse-battery"]);
    let good = format!("redis://:right-horse-battery@127.0.0.1:{}/0", server.port());
    let store = RedisStore::connect(&good, options("t:", 100)).await.unwrap();
    store.put("k", b"v".to_vec(), TTL).await.unwrap();
    assert!(!format!("{store:?}").contains("right-horse-battery"));

    let bad = format!("redis://:wrong-staple-guess@127.0.0.1:{}/0", server.port());
    let err = RedisStore::connect(&bad, options("t:", 100)).await.unwrap_err();
    let shown = format!("{err} {err:?}");
    assert!(!shown.contains("wrong-staple-guess"), "{shown}");
    assert!(!err.is_retryable(), "a wrong password is not an outage: {shown}");
}

#[tokio::test]
async fn a_hung_server_times_out_within_the_bound_and_recovers() {
    if !with_redis() {
        return;
    }
    let server = RedisServer::start();
    let store = RedisStore::connect(&server.url(0), options("t:", 1024)).await.unwrap();
    store.put("k", b"v".to_vec(), TTL).await.unwrap();

    server.pause();
    let started = Instant::now();
    let result = store.get("k").await;
    let elapsed = started.elapsed();
    server.resume();
    assert!(matches!(&result, Err(StoreError::Unavailable { .. })), "{result:?}");
    assert!(elapsed >= Duration::from_millis(1500) && elapsed < FAIL_FAST, "failed after {elapsed:?}");

    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match store.get("k").await {
            Ok(value) => {
                assert_eq!(value.as_deref().map(Vec::as_slice), Some(&b"v"[..]));
                break;
            }
            Err(e) => {
                assert!(e.is_retryable(), "{e}");
                assert!(Instant::now() < deadline, "no recovery within 10 s: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}
