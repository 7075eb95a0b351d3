//! MCP session records in the gateway's store, so that any replica can serve any session.
//!
//! rmcp keeps Streamable HTTP sessions in the memory of the process that opened them. When
//! a request names a session this process does not hold (the client was sent to another
//! replica, or this process restarted, or dropped the session after it idled), rmcp asks a
//! [`SessionStore`] for the session's record (the client's `initialize` parameters) and, when
//! one is there, replays the handshake locally and serves the request as if the session had
//! always been here.
//!
//! [`SessionRecords`] is that store over the gateway's own [`Store`]: one JSON value per
//! session under `session:<id>`, with a time to live. With a shared store (Redis, or one
//! SQLite file) every replica sees every session; everything else a session owns (snapshots
//! behind cursors and handles, search activations) is already kept in the same store, keyed
//! by the session's scope, so no request needs to reach the replica that served the previous
//! one.
//!
//! A record's time to live is renewed every time a replica restores the session from it, so
//! a session in use keeps its record; one untouched for its time to live is gone and
//! its client must initialize again (it gets `404 Session not found`, as the MCP spec asks).
//!
//! When the store cannot be reached, a session this process does not hold cannot be restored:
//! rmcp answers `500` naming the store's error; [`outage_as_unavailable`] turns that into
//! `503 Service Unavailable` with `Retry-After`, which clients and load balancers retry.
//!
//! A client ends its session with `DELETE` and its `Mcp-Session-Id` ([`session_guard`]): the
//! session is closed here and its record removed from the store, the answer is `200 OK`
//! with an empty body (as the MCP SDKs' own servers answer), and every later request naming
//! it gets `404`, as does a `DELETE` of a session that does not exist (or no longer does).
//!
//! A session ended with `DELETE` leaves a marker (`session-ended:<id>`, kept as long as a
//! record would be). Another replica that restored the session still holds it in memory, so
//! before serving a session it holds, a replica checks its record (at most once every
//! [`RECHECK_AFTER`] per session; the check also renews the record's time to live):
//! - the record is there: the session is served;
//! - the record is gone and the marker is there (ended elsewhere): the session is closed
//!   here too and the request gets `404`;
//! - the record is gone without a marker (the store lost its data, as a Redis restarted
//!   without persistence does, or the record expired while the session was held here): the
//!   replica writes the record again from what it holds and serves the request.
//!
//! So after a store restart that lost its data, what a client sees does not depend on timing:
//! a request to a replica that holds its session is served (and from then on any replica can
//! restore the session again); a request to a replica that does not hold it, before that, gets
//! `404 Session not found`, and the client initializes a new session, as MCP clients do on
//! `404`. With one replica (or sticky sessions) every session survives. When the store cannot
//! be reached the check is skipped: a session this process can serve is not failed for an
//! outage.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::Request;
use axum::extract::State;
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::store::{SessionState, SessionStore, SessionStoreError};
use rmcp::transport::streamable_http_server::session::{SessionId, SessionManager};

use crate::gateway::Gateway;
use crate::store::Store;

/// What every session record's key starts with.
const KEY_PREFIX: &str = "session:";
/// What the key of an ended session's marker starts with.
const ENDED_PREFIX: &str = "session-ended:";

/// The shortest time a session record is kept: sessions usually outlive the results they
/// page through, and a record is a few hundred bytes.
pub(crate) const MIN_SESSION_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// MCP session records kept in a [`Store`], for rmcp to restore sessions from.
#[derive(Clone)]
pub(crate) struct SessionRecords {
    store: Arc<dyn Store>,
    ttl: Duration,
    /// The records this process wrote or read, to write again if the store loses them.
    known: Arc<Mutex<HashMap<String, Vec<u8>>>>,
}

impl std::fmt::Debug for SessionRecords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionRecords").field("ttl", &self.ttl).finish_non_exhaustive()
    }
}

impl SessionRecords {
    /// Records in `store`, each kept for `ttl` after it was written or last restored.
    pub(crate) fn new(store: Arc<dyn Store>, ttl: Duration) -> SessionRecords {
        SessionRecords { store, ttl, known: Arc::default() }
    }

    /// The store key of session `id`.
    fn key(id: &str) -> String {
        format!("{KEY_PREFIX}{id}")
    }

    /// Remember `id`'s record, to write it again if the store loses it.
    fn remember(&self, id: &str, record: &[u8]) {
        let mut known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        if known.len() >= CHECKS_KEPT && !known.contains_key(id) {
            // Forget one: that session, if the store loses it, ends as before (`404`).
            if let Some(any) = known.keys().next().cloned() {
                known.remove(&any);
            }
        }
        known.insert(id.to_owned(), record.to_vec());
    }

    /// After `id`'s record was found missing: write it again from what this process knows,
    /// unless the session was ended (`DELETE`). Whether it was written.
    async fn revive(&self, id: &str) -> Result<bool, crate::store::StoreError> {
        if self.store.get(&format!("{ENDED_PREFIX}{id}")).await?.is_some() {
            return Ok(false);
        }
        let record = self.known.lock().unwrap_or_else(PoisonError::into_inner).get(id).cloned();
        let Some(record) = record else { return Ok(false) };
        self.store.put(&SessionRecords::key(id), record, self.ttl).await?;
        Ok(true)
    }
}

/// The session store for `gateway`'s HTTP endpoint: its own store when that is shared
/// (SQLite or Redis), kept for the snapshot time to live or [`MIN_SESSION_TTL`], whichever
/// is longer; `None` with the in-memory store, where only this process could read the
/// records and rmcp's own in-memory sessions suffice.
pub(crate) fn for_gateway(gateway: &Gateway) -> Option<Arc<SessionRecords>> {
    gateway
        .store_is_shared()
        .then(|| Arc::new(SessionRecords::new(gateway.store(), gateway.snapshot_ttl().max(MIN_SESSION_TTL))))
}

/// What rmcp's `500` answer starts with when restoring a session failed.
const RESTORE_FAILED: &[u8] = b"Encounter an error when restore session: ";
/// The most bytes of a `500` answer read to recognise it (rmcp's are one short line).
const MAX_ERROR_BODY: usize = 4096;

/// axum middleware: answer `503 Service Unavailable` with `Retry-After: 1` instead of rmcp's
/// `500` when a session could not be restored because the store is unavailable. Every other
/// response passes unchanged (streams included: only `500` bodies are read).
pub(crate) async fn outage_as_unavailable(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if response.status() != StatusCode::INTERNAL_SERVER_ERROR {
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ERROR_BODY).await else {
        return Response::from_parts(parts, Body::from("Internal Server Error"));
    };
    let Some(reason) = bytes.strip_prefix(RESTORE_FAILED) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    let message = format!(
        "Service Unavailable: this session cannot be resumed here now ({}); retry shortly",
        String::from_utf8_lossy(reason).trim()
    );
    let mut unavailable = Response::new(Body::from(message));
    *unavailable.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    unavailable.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    unavailable.headers_mut().insert(RETRY_AFTER, HeaderValue::from_static("1"));
    unavailable
}

/// The header that names a session.
const SESSION_HEADER: HeaderName = HeaderName::from_static("mcp-session-id");

/// How long a session this process holds is served before its record is checked again.
pub const RECHECK_AFTER: Duration = Duration::from_secs(1);

/// Above this many remembered checks, the stale ones are forgotten.
const CHECKS_KEPT: usize = 4096;

/// Where the sessions of one HTTP endpoint live, for [`session_guard`] to tell one that
/// exists from one that does not.
#[derive(Clone)]
pub(crate) struct SessionPlaces {
    /// The sessions this process holds.
    held: Arc<LocalSessionManager>,
    /// The shared records any replica may restore a session from, if any.
    records: Option<Arc<SessionRecords>>,
    /// When each held session's record was last found, by session id.
    checked: Arc<Mutex<HashMap<String, Instant>>>,
}

impl std::fmt::Debug for SessionPlaces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionPlaces").field("shared_records", &self.records.is_some()).finish_non_exhaustive()
    }
}

impl SessionPlaces {
    /// The sessions `held` here, with `records` shared with other replicas (if any).
    pub(crate) fn new(held: Arc<LocalSessionManager>, records: Option<Arc<SessionRecords>>) -> SessionPlaces {
        SessionPlaces { held, records, checked: Arc::default() }
    }

    /// Whether session `id`, held here, was ended elsewhere: its shared record is gone and
    /// its end marker there. Then it is closed here too. False when there are no shared
    /// records, when the session is not held here (rmcp restores it from its record or
    /// refuses it), when it was checked less than [`RECHECK_AFTER`] ago, when the store lost
    /// the record (it is written again) and when the store cannot be reached.
    async fn ended_elsewhere(&self, id: &str) -> bool {
        let Some(records) = &self.records else { return false };
        let session = SessionId::from(id);
        if !self.held.has_session(&session).await.unwrap_or(false) {
            return false;
        }
        let recently =
            |checked: &HashMap<String, Instant>| checked.get(id).is_some_and(|at| at.elapsed() < RECHECK_AFTER);
        if recently(&self.checked.lock().unwrap_or_else(PoisonError::into_inner)) {
            return false;
        }
        let found = match records.load(id).await {
            Ok(None) => match records.revive(id).await {
                Ok(true) => {
                    tracing::info!("a held session's record was lost by the store; written again");
                    Ok(Some(()))
                }
                Ok(false) => Ok(None),
                Err(e) => Err(SessionStoreError::from(e)),
            },
            other => other.map(|found| found.map(|_| ())),
        };
        match found {
            Ok(Some(())) => {
                let mut checked = self.checked.lock().unwrap_or_else(PoisonError::into_inner);
                if checked.len() >= CHECKS_KEPT {
                    checked.retain(|_, at| at.elapsed() < RECHECK_AFTER);
                }
                checked.insert(id.to_owned(), Instant::now());
                false
            }
            Ok(None) => {
                self.checked.lock().unwrap_or_else(PoisonError::into_inner).remove(id);
                if let Err(e) = self.held.close_session(&session).await {
                    tracing::debug!(error = %e, "could not close a session ended elsewhere");
                }
                tracing::info!("a session ended on another replica (its record is gone); closed here too");
                true
            }
            Err(e) => {
                tracing::debug!(error = %e, "could not check a session's record; serving it as held");
                false
            }
        }
    }

    /// Whether session `id` exists: held here, or recorded in the shared store.
    async fn exists(&self, id: &str) -> Result<bool, SessionStoreError> {
        let held = self.held.has_session(&SessionId::from(id)).await;
        if held.unwrap_or(false) {
            return Ok(true);
        }
        match &self.records {
            Some(records) => Ok(records.load(id).await?.is_some()),
            None => Ok(false),
        }
    }
}

/// A plain-text answer.
fn plain(status: StatusCode, message: &'static str) -> Response {
    let mut response = Response::new(Body::from(message));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    response
}

/// axum middleware for requests with an `Mcp-Session-Id` (placed inside the bearer guard,
/// which has already checked that the session is the caller's).
///
/// A `DELETE` gets `404` when no such session exists and `503` when the shared store cannot
/// tell; otherwise rmcp closes the session here and drops its record, and its
/// `202 Accepted` becomes `200 OK`, the answer MCP clients expect for a session that is over.
/// Any other request naming a session held here whose shared record is gone (ended on another
/// replica) gets `404`. Everything else passes unchanged.
pub(crate) async fn session_guard(State(places): State<SessionPlaces>, request: Request, next: Next) -> Response {
    // Without a session id, rmcp answers (or asks for one) itself.
    let Some(id) = request.headers().get(SESSION_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned) else {
        return next.run(request).await;
    };
    if request.method() != Method::DELETE {
        if places.ended_elsewhere(&id).await {
            return plain(StatusCode::NOT_FOUND, "Not Found: Session not found");
        }
        return next.run(request).await;
    }
    match places.exists(&id).await {
        Ok(true) => {}
        Ok(false) => return plain(StatusCode::NOT_FOUND, "Not Found: Session not found"),
        Err(e) => {
            tracing::warn!(error = %e, "could not look up a session to end");
            let mut response = plain(
                StatusCode::SERVICE_UNAVAILABLE,
                "Service Unavailable: the session store cannot be reached to end this session; retry shortly",
            );
            response.headers_mut().insert(RETRY_AFTER, HeaderValue::from_static("1"));
            return response;
        }
    }
    let response = next.run(request).await;
    if response.status() != StatusCode::ACCEPTED {
        return response;
    }
    let mut ended = Response::new(Body::empty());
    *ended.status_mut() = StatusCode::OK;
    ended
}

#[async_trait::async_trait]
impl SessionStore for SessionRecords {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let key = SessionRecords::key(session_id);
        let Some(bytes) = self.store.get(&key).await? else { return Ok(None) };
        self.remember(session_id, &bytes);
        let state: SessionState = match serde_json::from_slice(&bytes) {
            Ok(state) => state,
            Err(e) => {
                // A record this version cannot read is as good as none: the client
                // initializes again rather than failing on every request.
                tracing::warn!(error = %e, "unreadable session record; treating the session as unknown");
                return Ok(None);
            }
        };
        // Renew the record: the session is in use. Failing to is not worth failing the
        // request for; the record simply expires sooner.
        if let Err(e) = self.store.put(&key, bytes.to_vec(), self.ttl).await {
            tracing::debug!(error = %e, "could not renew a session record");
        }
        Ok(Some(state))
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let value = serde_json::to_vec(state)?;
        self.remember(session_id, &value);
        self.store.put(&SessionRecords::key(session_id), value, self.ttl).await?;
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        self.known.lock().unwrap_or_else(PoisonError::into_inner).remove(session_id);
        // The marker first: a replica that finds the record gone must know it was ended.
        self.store.put(&format!("{ENDED_PREFIX}{session_id}"), Vec::new(), self.ttl).await?;
        self.store.delete(&SessionRecords::key(session_id)).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use rmcp::model::{ClientCapabilities, Implementation, InitializeRequestParams, ProtocolVersion};

    use super::*;
    use crate::store::{MemoryStore, StoreError, StoreFuture};

    fn state(client: &str) -> SessionState {
        let params = InitializeRequestParams::new(ClientCapabilities::default(), Implementation::new(client, "1.0"))
            .with_protocol_version(ProtocolVersion::V_2025_06_18);
        SessionState::new(params)
    }

    fn records(ttl: Duration) -> (Arc<MemoryStore>, SessionRecords) {
        let memory = Arc::new(MemoryStore::new(1 << 20));
        let records = SessionRecords::new(memory.clone(), ttl);
        (memory, records)
    }

    #[tokio::test]
    async fn a_stored_session_loads_back_until_deleted() {
        let (_, records) = records(Duration::from_secs(60));
        assert!(records.load("s1").await.unwrap().is_none());
        records.store("s1", &state("client-one")).await.unwrap();
        records.store("s2", &state("client-two")).await.unwrap();
        let loaded = records.load("s1").await.unwrap().unwrap();
        assert_eq!(loaded.initialize_params.client_info.name, "client-one");
        assert_eq!(records.load("s2").await.unwrap().unwrap().initialize_params.client_info.name, "client-two");
        records.delete("s1").await.unwrap();
        assert!(records.load("s1").await.unwrap().is_none());
        assert!(records.load("s2").await.unwrap().is_some());
        // Deleting what is not there is fine.
        records.delete("s1").await.unwrap();
    }

    #[tokio::test]
    async fn records_live_under_their_own_prefix_and_expire() {
        let (memory, records) = records(Duration::from_millis(30));
        records.store("abc", &state("c")).await.unwrap();
        assert!(memory.get("session:abc").await.unwrap().is_some());
        assert!(memory.get("abc").await.unwrap().is_none());
        tokio::time::sleep(Duration::from_millis(60)).await;
        assert!(records.load("abc").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn loading_renews_the_record() {
        let (memory, records) = records(Duration::from_millis(200));
        records.store("abc", &state("c")).await.unwrap();
        // Touch it well inside its lifetime, several times, past the original deadline.
        for _ in 0..4 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            assert!(records.load("abc").await.unwrap().is_some());
        }
        assert!(memory.get("session:abc").await.unwrap().is_some());
    }

    #[tokio::test]
    async fn an_unreadable_record_is_an_unknown_session() {
        let (memory, records) = records(Duration::from_secs(60));
        memory.put("session:bad", b"not json".to_vec(), Duration::from_secs(60)).await.unwrap();
        assert!(records.load("bad").await.unwrap().is_none());
    }

    /// A store whose backend is down.
    struct Down;

    impl Store for Down {
        fn put<'a>(&'a self, _: &'a str, _: Vec<u8>, _: Duration) -> StoreFuture<'a, Result<(), StoreError>> {
            Box::pin(std::future::ready(Err(unavailable())))
        }
        fn get<'a>(&'a self, _: &'a str) -> StoreFuture<'a, Result<Option<Arc<Vec<u8>>>, StoreError>> {
            Box::pin(std::future::ready(Err(unavailable())))
        }
        fn delete<'a>(&'a self, _: &'a str) -> StoreFuture<'a, Result<(), StoreError>> {
            Box::pin(std::future::ready(Err(unavailable())))
        }
    }

    fn unavailable() -> StoreError {
        StoreError::Unavailable { backend: "Redis (127.0.0.1:1/0)".into(), reason: "connection refused".into() }
    }

    async fn through_the_middleware(status: StatusCode, body: &'static str) -> (StatusCode, Option<String>, String) {
        let app = axum::Router::new()
            .route(
                "/mcp",
                axum::routing::post(move || async move {
                    let mut r = Response::new(Body::from(body));
                    *r.status_mut() = status;
                    r
                }),
            )
            .layer(axum::middleware::from_fn(outage_as_unavailable));
        let request = Request::builder().method("POST").uri("/mcp").body(Body::empty()).unwrap();
        let response = tower::ServiceExt::oneshot(app, request).await.unwrap();
        let status = response.status();
        let retry = response.headers().get(RETRY_AFTER).map(|v| v.to_str().unwrap().to_owned());
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
        (status, retry, String::from_utf8(bytes.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn a_failed_restore_becomes_503_and_everything_else_passes() {
        let outage = "Encounter an error when restore session: the Redis (127.0.0.1:1/0) store is unavailable: refused";
        let (status, retry, body) = through_the_middleware(StatusCode::INTERNAL_SERVER_ERROR, outage).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(retry.as_deref(), Some("1"));
        assert!(body.contains("store is unavailable: refused") && body.contains("retry"), "{body}");
        let other = "Encounter an error when create session: boom";
        let (status, retry, body) = through_the_middleware(StatusCode::INTERNAL_SERVER_ERROR, other).await;
        assert_eq!((status, retry, body.as_str()), (StatusCode::INTERNAL_SERVER_ERROR, None, other));
        let (status, _, body) = through_the_middleware(StatusCode::OK, "data: {}").await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "data: {}"));
    }

    #[tokio::test]
    async fn an_unavailable_store_is_an_error_that_says_so() {
        let records = SessionRecords::new(Arc::new(Down), Duration::from_secs(60));
        let loaded = records.load("s").await.unwrap_err().to_string();
        assert!(loaded.contains("unavailable"), "{loaded}");
        assert!(records.store("s", &state("c")).await.unwrap_err().to_string().contains("unavailable"));
        assert!(records.delete("s").await.unwrap_err().to_string().contains("unavailable"));
    }
}
