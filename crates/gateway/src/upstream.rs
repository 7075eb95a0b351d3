//! Toward upstreams: one [`Upstream`] per configured MCP server, started or connected on
//! demand, restarted with backoff after a crash, and called under a time-out, a response
//! size cap and a concurrency limit.
//!
//! Child processes are spawned here rather than by rmcp's `TokioChildProcess` so that the
//! gateway owns their three pipes: stderr goes to the log line by line; stdout passes
//! through a *line guard* before rmcp reads it, which cuts off any line longer than the
//! response cap (answering the call it belonged to with an error instead of letting it hang)
//! and counts lines that are not JSON at all; and the exit status is kept to explain a
//! crash. Streamable HTTP upstreams use rmcp's reqwest client with the same caps.
//!
//! Every outcome of a call is either the upstream's `CallToolResult` or a [`Failure`]: no
//! error from an upstream leaves this module as anything else, and nothing here panics.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotificationParam, ClientCapabilities,
    ClientConfig, ClientRequest, ContentBlock, GetPromptRequestParams, GetPromptResult, Implementation,
    ProgressNotificationParam, ProgressToken, Prompt, ProtocolVersion, ReadResourceRequestParams, ReadResourceResult,
    Resource, ResourceContents, ResourceTemplate, ServerResult, Tool,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, Peer, RoleClient, RoleServer, ServiceError, serve_client};
use serde_json::{Map, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, Semaphore, mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use toolshape_shape::Failure;

/// JSON-RPC error code the line guard answers an oversized response with.
const TOO_LARGE_CODE: i32 = -32099;
/// Marks the line guard's own error message, so it is never confused with an upstream's.
const TOO_LARGE_MARK: &str = "toolshape: response exceeded";
/// Longest stderr line logged; the rest of a longer line is dropped.
const STDERR_LINE_MAX: usize = 4096;
/// How much of an oversized line's start and end is kept to find its `id`.
const ID_WINDOW: usize = 256;
/// Longest wait between restarts of a crashing upstream.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// An upstream said one of its lists changed (the payload is the upstream name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ListChanged {
    /// Its tool list changed.
    Tools(String),
    /// Its prompt list changed.
    Prompts(String),
    /// Its resource list changed.
    Resources(String),
}

/// Where an upstream's progress notifications for one call go: the agent's peer and the
/// agent's own progress token.
#[derive(Clone)]
pub(crate) struct ProgressSink {
    pub(crate) peer: Peer<RoleServer>,
    pub(crate) token: ProgressToken,
}

/// What an upstream answered to a `tools/call`, reduced to what shaping needs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Reply {
    /// A result: the bytes to shape (structured content, text, or a JSON list of blocks).
    Result(Vec<u8>),
    /// An `isError` result: its text.
    ToolError(String),
}

/// State shared by an upstream's connections and its rmcp client handler.
struct Shared {
    name: String,
    events: mpsc::UnboundedSender<ListChanged>,
    /// Where progress notifications go.
    progress: StdMutex<ProgressRoutes>,
}

/// Most progress notifications kept while their call is not registered yet.
const ORPHANS_MAX: usize = 64;

/// Upstream progress token → where to forward. rmcp picks the token when it sends the
/// request, so a fast upstream can report progress before the call is registered here:
/// such notifications wait in `orphans` (bounded) and are sent on at registration.
#[derive(Default)]
struct ProgressRoutes {
    sinks: HashMap<ProgressToken, ProgressSink>,
    orphans: std::collections::VecDeque<ProgressNotificationParam>,
}

impl Shared {
    /// Route `params` now, or keep it until its call registers.
    fn route(&self, params: ProgressNotificationParam) -> Option<(ProgressSink, ProgressNotificationParam)> {
        let mut routes = self.progress.lock().ok()?;
        match routes.sinks.get(&params.progress_token).cloned() {
            Some(sink) => Some((sink, params)),
            None => {
                if routes.orphans.len() >= ORPHANS_MAX {
                    routes.orphans.pop_front();
                }
                routes.orphans.push_back(params);
                None
            }
        }
    }

    /// Register a call's sink; returns the notifications that arrived before it.
    fn register(&self, token: ProgressToken, sink: ProgressSink) -> Vec<ProgressNotificationParam> {
        let Ok(mut routes) = self.progress.lock() else { return Vec::new() };
        let (early, rest): (Vec<_>, Vec<_>) = routes.orphans.drain(..).partition(|p| p.progress_token == token);
        routes.orphans = rest.into();
        routes.sinks.insert(token, sink);
        early
    }

    fn unregister(&self, token: &ProgressToken) {
        if let Ok(mut routes) = self.progress.lock() {
            routes.sinks.remove(token);
        }
    }
}

/// Send `params` to the agent under the agent's own token.
async fn forward_progress(upstream: &str, sink: &ProgressSink, mut params: ProgressNotificationParam) {
    params.progress_token = sink.token.clone();
    if let Err(e) = sink.peer.notify_progress(params).await {
        tracing::debug!(upstream, error = %e, "could not forward progress");
    }
}

/// The rmcp client handler for one upstream: forwards list changes and progress.
#[derive(Clone)]
struct Client {
    shared: Arc<Shared>,
}

impl ClientHandler for Client {
    async fn on_progress(&self, params: ProgressNotificationParam, _ctx: NotificationContext<RoleClient>) {
        if let Some((sink, params)) = self.shared.route(params) {
            forward_progress(&self.shared.name, &sink, params).await;
        }
    }

    async fn on_tool_list_changed(&self, _ctx: NotificationContext<RoleClient>) {
        let _ = self.shared.events.send(ListChanged::Tools(self.shared.name.clone()));
    }

    async fn on_prompt_list_changed(&self, _ctx: NotificationContext<RoleClient>) {
        let _ = self.shared.events.send(ListChanged::Prompts(self.shared.name.clone()));
    }

    async fn on_resource_list_changed(&self, _ctx: NotificationContext<RoleClient>) {
        let _ = self.shared.events.send(ListChanged::Resources(self.shared.name.clone()));
    }

    fn get_info(&self) -> ClientConfig {
        // The last version with an `initialize` handshake: every upstream server in use
        // today speaks it, and it keeps list-changed notifications on the session.
        ClientConfig::new(ClientCapabilities::default(), Implementation::new("toolshape", env!("CARGO_PKG_VERSION")))
            .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }
}

/// What the stdout guard and the exit watcher of a child process observed.
#[derive(Default)]
struct ChildWatch {
    /// `exit status 1`, `signal 9`, once the process has exited.
    exit: StdMutex<Option<String>>,
    /// Lines on stdout that were not JSON.
    garbage_lines: AtomicU64,
}

/// One live connection.
struct Conn {
    service: RunningService<RoleClient, Client>,
    child: Option<Arc<ChildWatch>>,
    /// Dropping it tells the child's watcher to stop the process.
    _stop: Option<oneshot::Sender<()>>,
}

impl Conn {
    fn is_closed(&self) -> bool {
        self.service.peer().is_transport_closed() || self.service.is_closed()
    }

    fn crash_detail(&self) -> String {
        match &self.child {
            Some(w) => match w.exit.lock().ok().and_then(|e| e.clone()) {
                Some(exit) => format!("process exited: {exit}"),
                None => "connection to the process closed".to_owned(),
            },
            None => "connection closed".to_owned(),
        }
    }
}

enum State {
    Idle,
    Up(Arc<Conn>),
    Down { retry_at: Instant, detail: String },
}

/// One configured upstream server.
pub(crate) struct Upstream {
    name: String,
    spec: toolshape_mask::Upstream,
    timeout: Duration,
    permits: Semaphore,
    state: Mutex<State>,
    shared: Arc<Shared>,
    /// Consecutive failed starts or crashes (a start counts until it succeeds); reset by a
    /// successful call or tool listing.
    failures: StdMutex<u32>,
}

impl Upstream {
    /// An upstream that is not started yet.
    pub(crate) fn new(
        name: &str,
        spec: toolshape_mask::Upstream,
        events: mpsc::UnboundedSender<ListChanged>,
    ) -> Upstream {
        let timeout = Duration::from_secs(spec.timeout_secs.max(1));
        let permits = Semaphore::new(spec.max_concurrency.max(1) as usize);
        Upstream {
            name: name.to_owned(),
            timeout,
            permits,
            spec,
            state: Mutex::new(State::Idle),
            shared: Arc::new(Shared {
                name: name.to_owned(),
                events,
                progress: StdMutex::new(ProgressRoutes::default()),
            }),
            failures: StdMutex::new(0),
        }
    }

    /// The configured name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// A live connection: the current one, or a new one if there is none, it closed, or
    /// its backoff has passed. Callers wait for a start in progress.
    async fn conn(&self) -> Result<Arc<Conn>, Failure> {
        let mut state = self.state.lock().await;
        if let State::Up(c) = &*state {
            if !c.is_closed() {
                return Ok(c.clone());
            }
            let detail = c.crash_detail();
            tracing::warn!(upstream = %self.name, %detail, "upstream connection lost; restarting");
            let failures = self.bump_failures();
            *state = State::Down { retry_at: Instant::now() + backoff(failures), detail };
        }
        if let State::Down { retry_at, detail, .. } = &*state {
            let now = Instant::now();
            if now < *retry_at {
                let wait = retry_at.duration_since(now).as_secs_f64();
                return Err(Failure::Unavailable {
                    upstream: self.name.clone(),
                    detail: format!("{detail}; restarting in {wait:.1} s"),
                });
            }
        }
        // Counted as failed until it succeeds: if the caller gives up mid-start (its own
        // time-out, a cancel), the backoff still applies to the next attempt.
        let failures = self.bump_failures();
        let no_answer = format!("no answer to initialize within {} s", self.timeout.as_secs());
        *state = State::Down { retry_at: Instant::now() + backoff(failures), detail: no_answer.clone() };
        let detail = match tokio::time::timeout(self.timeout, self.connect()).await {
            Ok(Ok(conn)) => {
                let conn = Arc::new(conn);
                *state = State::Up(conn.clone());
                tracing::info!(upstream = %self.name, "upstream connected");
                return Ok(conn);
            }
            Ok(Err(detail)) => detail,
            Err(_) => no_answer,
        };
        tracing::warn!(upstream = %self.name, %detail, failures, "upstream could not start");
        *state = State::Down { retry_at: Instant::now() + backoff(failures), detail: detail.clone() };
        Err(Failure::Unavailable { upstream: self.name.clone(), detail })
    }

    fn bump_failures(&self) -> u32 {
        match self.failures.lock() {
            Ok(mut f) => {
                *f = f.saturating_add(1);
                *f
            }
            Err(_) => 1,
        }
    }

    fn reset_failures(&self) {
        if let Ok(mut f) = self.failures.lock() {
            *f = 0;
        }
    }

    /// Whether a live connection exists right now (false while one is being started).
    pub(crate) fn is_up(&self) -> bool {
        match self.state.try_lock() {
            Ok(state) => matches!(&*state, State::Up(c) if !c.is_closed()),
            Err(_) => false,
        }
    }

    /// Start the upstream now (for `start: eager`); a failure is logged, and the next call
    /// tries again after the backoff.
    pub(crate) async fn start(&self) {
        let _ = self.conn().await;
    }

    /// Stop the connection, if any (the child process is stopped with it).
    pub(crate) async fn stop(&self) {
        let mut state = self.state.lock().await;
        *state = State::Idle;
    }

    async fn connect(&self) -> Result<Conn, String> {
        let client = Client { shared: self.shared.clone() };
        let cap = usize::try_from(self.spec.max_response_bytes).unwrap_or(usize::MAX);
        if let Some(argv) = &self.spec.command {
            let (reader, writer, watch, stop) = spawn_child(&self.name, &self.spec, argv, cap)?;
            let service = serve_client(client, (reader, writer)).await.map_err(|e| {
                let exit = watch.exit.lock().ok().and_then(|e| e.clone());
                match exit {
                    Some(exit) => format!("process exited during initialize: {exit}"),
                    None => format!("initialize failed: {e}"),
                }
            })?;
            Ok(Conn { service, child: Some(watch), _stop: Some(stop) })
        } else if let Some(url) = &self.spec.url {
            let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
            config.max_json_response_size = cap;
            config.max_sse_event_size = cap;
            let mut headers = HashMap::new();
            for (k, v) in &self.spec.headers {
                // Header values are secrets: errors name the header, never its value.
                let name = axum::http::HeaderName::from_bytes(k.as_bytes())
                    .map_err(|_| format!("header name `{k}` is not valid"))?;
                let value =
                    axum::http::HeaderValue::from_str(v).map_err(|_| format!("header `{k}` has an invalid value"))?;
                headers.insert(name, value);
            }
            config = config.custom_headers(headers);
            let transport = StreamableHttpClientTransport::from_config(config);
            let service = serve_client(client, transport).await.map_err(|e| format!("cannot connect to {url}: {e}"))?;
            Ok(Conn { service, child: None, _stop: None })
        } else {
            Err("neither `command` nor `url` is configured".to_owned())
        }
    }

    /// Every tool the upstream lists (starting it if needed).
    pub(crate) async fn list_tools(&self) -> Result<Vec<Tool>, Failure> {
        let conn = self.conn().await?;
        match tokio::time::timeout(self.timeout, conn.service.peer().list_all_tools()).await {
            Ok(Ok(tools)) => {
                self.reset_failures();
                Ok(tools)
            }
            Ok(Err(e)) => Err(self.failure(e, &conn).await),
            Err(_) => Err(Failure::Timeout { upstream: self.name.clone(), after_ms: ms(self.timeout) }),
        }
    }

    /// Every prompt the upstream lists; an upstream without prompts lists none.
    pub(crate) async fn list_prompts(&self) -> Result<Vec<Prompt>, Failure> {
        let conn = self.conn().await?;
        if conn.service.peer().peer_info().is_some_and(|i| i.capabilities.prompts.is_none()) {
            return Ok(Vec::new());
        }
        match tokio::time::timeout(self.timeout, conn.service.peer().list_all_prompts()).await {
            Ok(Ok(p)) => Ok(p),
            Ok(Err(e)) => Err(self.failure(e, &conn).await),
            Err(_) => Err(Failure::Timeout { upstream: self.name.clone(), after_ms: ms(self.timeout) }),
        }
    }

    /// Every resource and resource template the upstream lists.
    pub(crate) async fn list_resources(&self) -> Result<(Vec<Resource>, Vec<ResourceTemplate>), Failure> {
        let conn = self.conn().await?;
        if conn.service.peer().peer_info().is_some_and(|i| i.capabilities.resources.is_none()) {
            return Ok((Vec::new(), Vec::new()));
        }
        let peer = conn.service.peer();
        let both = async { (peer.list_all_resources().await, peer.list_all_resource_templates().await) };
        match tokio::time::timeout(self.timeout, both).await {
            Ok((Ok(r), Ok(t))) => Ok((r, t)),
            // Servers that list resources but not templates are common: keep the resources.
            Ok((Ok(r), Err(_))) => Ok((r, Vec::new())),
            Ok((Err(e), _)) => Err(self.failure(e, &conn).await),
            Err(_) => Err(Failure::Timeout { upstream: self.name.clone(), after_ms: ms(self.timeout) }),
        }
    }

    /// `prompts/get`, passed through.
    pub(crate) async fn get_prompt(&self, params: GetPromptRequestParams) -> Result<GetPromptResult, Failure> {
        let conn = self.conn().await?;
        match tokio::time::timeout(self.timeout, conn.service.peer().get_prompt(params)).await {
            Ok(Ok(r)) => Ok(r),
            Ok(Err(e)) => Err(self.failure(e, &conn).await),
            Err(_) => Err(Failure::Timeout { upstream: self.name.clone(), after_ms: ms(self.timeout) }),
        }
    }

    /// `resources/read`, passed through, bounded by the response cap.
    pub(crate) async fn read_resource(&self, params: ReadResourceRequestParams) -> Result<ReadResourceResult, Failure> {
        let conn = self.conn().await?;
        let result = match tokio::time::timeout(self.timeout, conn.service.peer().read_resource(params)).await {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => return Err(self.failure(e, &conn).await),
            Err(_) => return Err(Failure::Timeout { upstream: self.name.clone(), after_ms: ms(self.timeout) }),
        };
        let size: u64 = result
            .contents
            .iter()
            .map(|c| match c {
                ResourceContents::TextResourceContents { text, .. } => text.len() as u64,
                ResourceContents::BlobResourceContents { blob, .. } => blob.len() as u64,
                _ => 0,
            })
            .sum();
        if size > self.spec.max_response_bytes {
            return Err(Failure::ResponseTooLarge {
                upstream: self.name.clone(),
                limit_bytes: self.spec.max_response_bytes,
            });
        }
        Ok(result)
    }

    /// Call `tool` with `arguments`. Waits for a concurrency slot; the whole call (the wait
    /// included) is bounded by the time-out. If `cancel` fires, or the returned future is
    /// dropped, the upstream is told the request is cancelled.
    pub(crate) async fn call(
        &self,
        tool: &str,
        arguments: Map<String, Value>,
        progress: Option<ProgressSink>,
        cancel: &CancellationToken,
    ) -> Result<Reply, Failure> {
        let started = Instant::now();
        // The child's stdout counters as the call began, read again if it times out.
        let watched: StdMutex<Option<(Arc<ChildWatch>, u64)>> = StdMutex::new(None);
        let work = async {
            let _permit = self.permits.acquire().await.map_err(|_| Failure::Unavailable {
                upstream: self.name.clone(),
                detail: "the gateway is shutting down".into(),
            })?;
            let conn = self.conn().await?;
            if let (Some(w), Ok(mut slot)) = (&conn.child, watched.lock()) {
                *slot = Some((w.clone(), w.garbage_lines.load(Ordering::Relaxed)));
            }
            let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
            let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
            let peer = conn.service.peer().clone();
            let handle = match peer.send_request_with_option(request, PeerRequestOptions::no_options()).await {
                Ok(h) => h,
                Err(e) => return Err(self.failure(e, &conn).await),
            };
            let mut guard =
                CancelGuard { peer: Some(peer), id: Some(handle.id.clone()), shared: &self.shared, token: None };
            if let Some(sink) = progress {
                let early = self.shared.register(handle.progress_token.clone(), sink.clone());
                guard.token = Some(handle.progress_token.clone());
                for p in early {
                    forward_progress(&self.name, &sink, p).await;
                }
            }
            let response = tokio::select! {
                r = handle.await_response() => r,
                () = cancel.cancelled() => Err(ServiceError::Cancelled { reason: Some("cancelled by the client".into()) }),
            };
            let finished = !matches!(response, Err(ServiceError::Cancelled { .. }));
            if finished {
                guard.disarm();
            }
            match response {
                Ok(ServerResult::CallToolResult(result)) => {
                    self.reset_failures();
                    self.reduce(result)
                }
                Ok(other) => Err(Failure::InvalidResponse {
                    upstream: self.name.clone(),
                    detail: format!("expected a tool result, got {}", result_kind(&other)),
                }),
                Err(e) => Err(self.failure(e, &conn).await),
            }
        };
        match tokio::time::timeout(self.timeout, work).await {
            Ok(r) => r,
            Err(_) => {
                tracing::warn!(upstream = %self.name, tool, elapsed_ms = ms(started.elapsed()), "upstream call timed out");
                let garbage = watched
                    .lock()
                    .ok()
                    .and_then(|s| {
                        s.as_ref().map(|(w, before)| w.garbage_lines.load(Ordering::Relaxed).saturating_sub(*before))
                    })
                    .unwrap_or(0);
                if garbage > 0 {
                    return Err(Failure::InvalidResponse {
                        upstream: self.name.clone(),
                        detail: format!(
                            "no valid answer within {} s; it wrote {garbage} lines that are not JSON-RPC",
                            self.timeout.as_secs()
                        ),
                    });
                }
                Err(Failure::Timeout { upstream: self.name.clone(), after_ms: ms(self.timeout) })
            }
        }
    }

    /// A `CallToolResult` as bytes to shape, or the upstream's own error text.
    fn reduce(&self, result: CallToolResult) -> Result<Reply, Failure> {
        let cap = self.spec.max_response_bytes;
        let too_large = || Failure::ResponseTooLarge { upstream: self.name.clone(), limit_bytes: cap };
        if result.is_error == Some(true) {
            let text = match (&result.structured_content, all_text(&result.content)) {
                (_, Some(t)) if !t.is_empty() => t,
                (Some(v), _) => v.to_string(),
                _ => String::new(),
            };
            return Ok(Reply::ToolError(text));
        }
        let bytes = match (&result.structured_content, all_text(&result.content)) {
            // `{"content": "<the text block>"}` only wraps the text (server-filesystem does
            // this): shape the text itself, so JSON inside it is read as JSON.
            (Some(v), Some(text)) if wraps_text(v, &text) => text.into_bytes(),
            (Some(v), _) => serde_json::to_vec(v).unwrap_or_default(),
            (None, Some(text)) => text.into_bytes(),
            (None, None) => blocks_as_json(&result.content),
        };
        if bytes.len() as u64 > cap {
            return Err(too_large());
        }
        Ok(Reply::Result(bytes))
    }

    /// Turn an rmcp error into the failure the model reads.
    async fn failure(&self, e: ServiceError, conn: &Conn) -> Failure {
        let upstream = self.name.clone();
        match e {
            ServiceError::McpError(err) if err.code.0 == TOO_LARGE_CODE && err.message.starts_with(TOO_LARGE_MARK) => {
                Failure::ResponseTooLarge { upstream, limit_bytes: self.spec.max_response_bytes }
            }
            ServiceError::McpError(err) => {
                Failure::Protocol { upstream, code: i64::from(err.code.0), message: err.message.to_string() }
            }
            ServiceError::Timeout { timeout } => Failure::Timeout { upstream, after_ms: ms(timeout) },
            ServiceError::TransportClosed | ServiceError::TransportSend(_) if conn.child.is_some() => {
                // The exit status usually lands a moment after the pipe closes.
                for _ in 0..10 {
                    if conn.child.as_ref().is_some_and(|w| w.exit.lock().ok().is_some_and(|e| e.is_some())) {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Failure::Crashed { upstream, detail: conn.crash_detail() }
            }
            // rmcp's HTTP client ends the whole connection when an answer is over the size
            // limit, and does not say why: name that cause as a possibility.
            ServiceError::TransportClosed => Failure::Crashed {
                upstream,
                detail: format!(
                    "connection closed; an answer over the {} limit also closes it",
                    toolshape_shape::numfmt::bytes(self.spec.max_response_bytes)
                ),
            },
            ServiceError::TransportSend(err) => {
                let text = error_chain(&err);
                if text.contains("too large") || text.contains("exceed") {
                    Failure::ResponseTooLarge { upstream, limit_bytes: self.spec.max_response_bytes }
                } else {
                    Failure::Unavailable { upstream, detail: text }
                }
            }
            ServiceError::Cancelled { .. } => {
                Failure::Protocol { upstream, code: -32800, message: "cancelled by the client".into() }
            }
            ServiceError::UnexpectedResponse => {
                Failure::InvalidResponse { upstream, detail: "unexpected response type".into() }
            }
            other => Failure::InvalidResponse { upstream, detail: other.to_string() },
        }
    }
}

/// Sends `notifications/cancelled` upstream unless disarmed (the call finished), and always
/// stops forwarding the call's progress.
struct CancelGuard<'a> {
    peer: Option<Peer<RoleClient>>,
    id: Option<rmcp::model::RequestId>,
    shared: &'a Shared,
    token: Option<ProgressToken>,
}

impl CancelGuard<'_> {
    fn disarm(&mut self) {
        self.peer = None;
    }
}

impl Drop for CancelGuard<'_> {
    fn drop(&mut self) {
        if let Some(t) = self.token.take() {
            self.shared.unregister(&t);
        }
        if let (Some(peer), Some(id)) = (self.peer.take(), self.id.take()) {
            // Dropped mid-call (time-out, client cancel, client gone): tell the upstream so it
            // can stop working. Outside a runtime there is nobody to tell.
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(async move {
                    let _ = peer
                        .notify_cancelled(CancelledNotificationParam::new(Some(id), Some("cancelled".into())))
                        .await;
                });
            }
        }
    }
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The wait before restart attempt `failures` (1-based): at once, then 0.5 s, doubling up
/// to 30 s.
fn backoff(failures: u32) -> Duration {
    if failures <= 1 {
        return Duration::ZERO;
    }
    let exp = (failures - 2).min(16);
    Duration::from_millis(500u64.saturating_mul(1u64 << exp)).min(MAX_BACKOFF)
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut src = e.source();
    let mut depth = 0;
    while let Some(s) = src {
        out.push_str(": ");
        out.push_str(&s.to_string());
        src = s.source();
        depth += 1;
        if depth > 5 {
            break;
        }
    }
    out
}

fn result_kind(r: &ServerResult) -> &'static str {
    match r {
        ServerResult::InputRequiredResult(_) => "a request for input (not supported through toolshape)",
        ServerResult::CreateTaskResult(_) => "a task (not supported through toolshape)",
        _ => "another kind of result",
    }
}

/// All blocks' text joined by newlines, when every block is text.
fn all_text(blocks: &[ContentBlock]) -> Option<String> {
    let mut out = String::new();
    for (i, b) in blocks.iter().enumerate() {
        let t = b.as_text()?;
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&t.text);
    }
    Some(out)
}

/// Mixed content (text with images, audio or resources) as a JSON list of records the
/// shaper can cut: binary data is described by type and size, never passed as base64.
fn blocks_as_json(blocks: &[ContentBlock]) -> Vec<u8> {
    let items: Vec<Value> = blocks
        .iter()
        .map(|b| match b {
            ContentBlock::Text(t) => serde_json::json!({"type": "text", "text": t.text}),
            ContentBlock::Image(i) => {
                serde_json::json!({"type": "image", "mimeType": i.mime_type, "base64_chars": i.data.len(), "note": "binary data not shown"})
            }
            ContentBlock::Audio(a) => {
                serde_json::json!({"type": "audio", "mimeType": a.mime_type, "base64_chars": a.data.len(), "note": "binary data not shown"})
            }
            ContentBlock::Resource(r) => match &r.resource {
                ResourceContents::TextResourceContents { uri, mime_type, text, .. } => {
                    serde_json::json!({"type": "resource", "uri": uri, "mimeType": mime_type, "text": text})
                }
                ResourceContents::BlobResourceContents { uri, mime_type, blob, .. } => {
                    serde_json::json!({"type": "resource", "uri": uri, "mimeType": mime_type, "base64_chars": blob.len(), "note": "binary data not shown"})
                }
                _ => serde_json::json!({"type": "resource"}),
            },
            ContentBlock::ResourceLink(l) => {
                serde_json::json!({"type": "resource_link", "uri": l.uri, "name": l.name, "description": l.description})
            }
            _ => serde_json::json!({"type": "unknown"}),
        })
        .collect();
    serde_json::to_vec(&items).unwrap_or_default()
}

type ChildParts = (tokio::io::DuplexStream, tokio::process::ChildStdin, Arc<ChildWatch>, oneshot::Sender<()>);

/// Start a child process with its stdout behind the line guard, its stderr logged and its
/// exit watched.
fn spawn_child(name: &str, spec: &toolshape_mask::Upstream, argv: &[String], cap: usize) -> Result<ChildParts, String> {
    let (program, args) = argv.split_first().ok_or_else(|| "`command` is empty".to_owned())?;
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args)
        .envs(&spec.env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(dir) = &spec.cwd {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let (Some(stdin), Some(stdout), stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take()) else {
        return Err("the process's pipes could not be opened".to_owned());
    };
    let watch = Arc::new(ChildWatch::default());
    let (guard_out, guard_in) = tokio::io::duplex(256 * 1024);
    tokio::spawn(line_guard(name.to_owned(), stdout, guard_out, cap, watch.clone()));
    if let Some(stderr) = stderr {
        tokio::spawn(log_stderr(name.to_owned(), stderr));
    }
    let (stop_tx, stop_rx) = oneshot::channel::<()>();
    tokio::spawn(watch_exit(name.to_owned(), child, stop_rx, watch.clone()));
    tracing::info!(upstream = name, program = %program, "upstream process started");
    Ok((guard_in, stdin, watch, stop_tx))
}

/// Wait for the child to exit and record how; when the connection is dropped, give the
/// child two seconds to exit on its own (its stdin is closed by then), then kill it.
async fn watch_exit(
    name: String,
    mut child: tokio::process::Child,
    stop: oneshot::Receiver<()>,
    watch: Arc<ChildWatch>,
) {
    let status = tokio::select! {
        s = child.wait() => s,
        _ = stop => {
            match tokio::time::timeout(Duration::from_secs(2), child.wait()).await {
                Ok(s) => s,
                Err(_) => {
                    let _ = child.kill().await;
                    child.wait().await
                }
            }
        }
    };
    let text = match status {
        Ok(s) => describe_exit(s),
        Err(e) => format!("unknown ({e})"),
    };
    tracing::info!(upstream = %name, exit = %text, "upstream process exited");
    if let Ok(mut e) = watch.exit.lock() {
        *e = Some(text);
    }
}

fn describe_exit(s: std::process::ExitStatus) -> String {
    if let Some(code) = s.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return format!("killed by signal {sig}");
        }
    }
    "exited".to_owned()
}

/// Log each stderr line of an upstream at info level, cut to a bounded length.
async fn log_stderr(name: String, stderr: tokio::process::ChildStderr) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        // Read at most a bounded amount per line: a child writing one endless line must not
        // grow this buffer without limit.
        let mut limited = (&mut reader).take(STDERR_LINE_MAX as u64);
        match limited.read_until(b'\n', &mut line).await {
            Ok(0) => return,
            Ok(_) => {
                let text = String::from_utf8_lossy(&line);
                let text = text.trim_end();
                if !text.is_empty() {
                    tracing::info!(upstream = %name, "stderr: {text}");
                }
            }
            Err(_) => return,
        }
    }
}

/// Copy stdout to rmcp line by line, but never a line longer than `cap`: such a line is cut
/// off (rmcp drops the unparsable stub) and the request it answered, found from the `id` in
/// its first or last bytes, gets an error response in its place. Lines that are not JSON
/// are counted, so a time-out can say the upstream was writing garbage.
async fn line_guard(
    name: String,
    stdout: tokio::process::ChildStdout,
    mut out: tokio::io::DuplexStream,
    cap: usize,
    watch: Arc<ChildWatch>,
) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line_len = 0usize;
    let mut head: Vec<u8> = Vec::with_capacity(ID_WINDOW);
    let mut tail: Vec<u8> = Vec::with_capacity(ID_WINDOW * 2);
    let mut oversized = false;
    let mut first_byte: Option<u8> = None;
    loop {
        let chunk = match reader.fill_buf().await {
            Ok([]) | Err(_) => break,
            Ok(c) => c,
        };
        let (take, ends_line) = match memchr_newline(chunk) {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let piece = &chunk[..take];
        if first_byte.is_none() {
            first_byte = piece.iter().copied().find(|b| !b.is_ascii_whitespace());
        }
        if head.len() < ID_WINDOW {
            let n = (ID_WINDOW - head.len()).min(piece.len());
            head.extend_from_slice(&piece[..n]);
        }
        line_len += take;
        let mut write_ok = true;
        if !oversized && line_len > cap {
            oversized = true;
            tracing::warn!(upstream = %name, cap, "upstream response line exceeds the size cap; cutting it off");
            // End the partial line so rmcp drops it as unparsable and reads on.
            write_ok = out.write_all(b"\n").await.is_ok();
        } else if !oversized {
            write_ok = out.write_all(piece).await.is_ok();
        }
        if oversized {
            tail.extend_from_slice(piece);
            if tail.len() > ID_WINDOW {
                tail.drain(..tail.len() - ID_WINDOW);
            }
        }
        reader.consume(take);
        if !write_ok {
            break;
        }
        if ends_line {
            if oversized {
                match find_id(&head).or_else(|| find_id(&tail)) {
                    Some(id) => {
                        let msg = serde_json::json!({
                            "jsonrpc": "2.0",
                            "id": id,
                            "error": {"code": TOO_LARGE_CODE, "message": format!("{TOO_LARGE_MARK} {cap} bytes")}
                        });
                        let mut text = msg.to_string().into_bytes();
                        text.push(b'\n');
                        if out.write_all(&text).await.is_err() {
                            break;
                        }
                    }
                    None => {
                        tracing::warn!(upstream = %name, "oversized line without a recognisable id; the call will time out")
                    }
                }
            } else if line_len > 1 && !matches!(first_byte, Some(b'{' | b'[') | None) {
                watch.garbage_lines.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(upstream = %name, "upstream wrote a line that is not JSON-RPC to stdout");
            }
            line_len = 0;
            head.clear();
            tail.clear();
            oversized = false;
            first_byte = None;
        }
    }
    let _ = out.shutdown().await;
}

fn memchr_newline(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'\n')
}

/// The value of a top-level-looking `"id":` in a fragment of JSON: a number or a string.
fn find_id(fragment: &[u8]) -> Option<Value> {
    let text = String::from_utf8_lossy(fragment);
    let mut rest: &str = &text;
    while let Some(pos) = rest.find("\"id\"") {
        let after = rest[pos + 4..].trim_start();
        if let Some(v) = after.strip_prefix(':') {
            let v = v.trim_start();
            if let Some(s) = v.strip_prefix('"') {
                if let Some(end) = s.find('"') {
                    return Some(Value::String(s[..end].to_owned()));
                }
            } else {
                let digits: String = v.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
                if let Ok(n) = digits.parse::<i64>() {
                    return Some(Value::from(n));
                }
            }
        }
        rest = &rest[pos + 4..];
    }
    None
}

/// Whether structured content is an object of one string member equal to `text`.
fn wraps_text(structured: &serde_json::Value, text: &str) -> bool {
    structured.as_object().is_some_and(|m| m.len() == 1 && m.values().next().and_then(|v| v.as_str()) == Some(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structured_content_that_only_wraps_the_text_is_read_as_the_text() {
        let text = r#"[{"name":"a","type":"file"}]"#;
        assert!(wraps_text(&serde_json::json!({"content": text}), text));
        assert!(!wraps_text(&serde_json::json!({"content": text, "more": 1}), text));
        assert!(!wraps_text(&serde_json::json!({"content": "other"}), text));
        assert!(!wraps_text(&serde_json::json!([text]), text));
    }

    #[test]
    fn backoff_grows_and_is_capped() {
        assert_eq!(backoff(1), Duration::ZERO);
        assert_eq!(backoff(2), Duration::from_millis(500));
        assert_eq!(backoff(3), Duration::from_secs(1));
        assert_eq!(backoff(40), MAX_BACKOFF);
    }

    #[test]
    fn ids_are_found_at_either_end() {
        assert_eq!(find_id(br#"{"jsonrpc":"2.0","id":17,"result":{"content":"#), Some(Value::from(17)));
        assert_eq!(find_id(br#"xxxx"]}},"jsonrpc":"2.0","id":"a-1"}"#), Some(Value::from("a-1")));
        assert_eq!(find_id(b"no id here"), None);
    }

    #[test]
    fn mixed_content_becomes_records_without_binary() {
        let blocks = vec![ContentBlock::text("hello"), ContentBlock::image("AAAA", "image/png")];
        let v: Value = serde_json::from_slice(&blocks_as_json(&blocks)).unwrap();
        assert_eq!(v[0]["text"], "hello");
        assert_eq!(v[1]["base64_chars"], 4);
        assert!(v[1].get("data").is_none());
    }
}
