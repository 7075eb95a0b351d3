//! Toward upstreams: one [`Upstream`] per configured MCP server, started or connected on
//! demand, restarted with backoff after a crash, and called under a time-out, a response
//! size cap and a concurrency limit.
//!
//! Child processes are spawned here rather than by rmcp's `TokioChildProcess` so that the
//! gateway owns their three pipes (`child`): stderr goes to the log line by line; stdout
//! passes through a *line guard* (`guard`) before rmcp reads it (`wire`), which cuts off any
//! line longer than the response cap (answering the call it belonged to with an error
//! instead of letting it hang) and counts lines that are not JSON at all; and the exit status
//! is kept to explain a crash. Streamable HTTP upstreams use rmcp's reqwest client with the
//! same caps.
//!
//! Every outcome of a call is either the upstream's answer or a [`Failure`] (`failure`): no
//! error from an upstream leaves this module as anything else, and nothing here panics.
//!
//! Files, one job each:
//! - `mod.rs` (here): an upstream's connection and its lifecycle (start, backoff, restart).
//! - `requests`: the requests sent to an upstream (`tools/call`, lists, prompts, resources,
//!   completions, subscriptions, log level), each bounded and cancellable.
//! - `content`: an upstream's `tools/call` result as the bytes the call path shapes.
//! - `failure`: an rmcp error as the [`Failure`] the model reads.
//! - `inflight`: the calls in flight on an upstream and where their progress goes.
//! - `relay`: the rmcp client handler: notifications, log messages, and the upstream's
//!   sampling and elicitation requests relayed to the agent whose call caused them.
//! - `child`, `guard`, `logs`, `wire`: a child process's pipes, stdout line guard, log lines
//!   and JSON-RPC transport.

mod child;
mod content;
mod failure;
mod guard;
mod inflight;
mod logs;
mod relay;
mod requests;
#[cfg(test)]
mod tests;
mod wire;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, serve_client};
use tokio::sync::{Mutex, Semaphore, mpsc, oneshot};
use toolshape_shape::Failure;

pub(crate) use self::content::Reply;

use self::child::{ChildWatch, spawn_child};
use self::inflight::Shared;
use self::relay::Client;
use self::wire::UpstreamWire;
use crate::log_levels::LogLevels;

/// Longest wait between restarts of a crashing upstream.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// What an upstream told the gateway (the first field is the upstream's name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum UpstreamEvent {
    /// Its tool list changed.
    Tools(String),
    /// Its prompt list changed.
    Prompts(String),
    /// Its resource list changed.
    Resources(String),
    /// A resource it was subscribed to changed (`notifications/resources/updated`): the URI.
    ResourceUpdated(String, String),
    /// It connected again after its connection was lost (its subscriptions were lost too).
    Reconnected(String),
}

/// Why an upstream could not be started or connected; the model reads it as the detail of
/// [`Failure::Unavailable`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum StartError {
    /// The config names neither a command nor a URL.
    #[error("neither `command` nor `url` is configured")]
    NoTransport,
    /// `command` is an empty list.
    #[error("`command` is empty")]
    EmptyCommand,
    /// The process could not be started.
    #[error("cannot start `{program}`: {reason}")]
    Spawn {
        /// The program named.
        program: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The process started without the pipes asked for.
    #[error("the process's pipes could not be opened")]
    Pipes,
    /// The process exited before answering `initialize`: how.
    #[error("process exited during initialize: {0}")]
    ExitedDuringInitialize(String),
    /// The `initialize` exchange failed.
    #[error("initialize failed: {0}")]
    Initialize(String),
    /// A configured header's name is not a valid HTTP header name (values are secrets and
    /// never shown).
    #[error("header name `{0}` is not valid")]
    HeaderName(String),
    /// A configured header's value is not a valid HTTP header value.
    #[error("header `{0}` has an invalid value")]
    HeaderValue(String),
    /// The Streamable HTTP server could not be reached or refused the session.
    #[error("cannot connect to {url}: {reason}")]
    Connect {
        /// The URL configured.
        url: String,
        /// What went wrong.
        reason: String,
    },
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
    /// Whether a connection was ever made: a later one is a reconnection, which the gateway
    /// is told of (resource subscriptions must be made again).
    connected_before: AtomicBool,
}

impl Upstream {
    /// An upstream that is not started yet.
    pub(crate) fn new(
        name: &str,
        spec: toolshape_mask::Upstream,
        events: mpsc::UnboundedSender<UpstreamEvent>,
        levels: Arc<LogLevels>,
    ) -> Upstream {
        let timeout = Duration::from_secs(spec.timeout_secs.max(1));
        let permits = Semaphore::new(spec.max_concurrency.max(1) as usize);
        Upstream {
            name: name.to_owned(),
            timeout,
            permits,
            spec,
            state: Mutex::new(State::Idle),
            shared: Arc::new(Shared::new(name, events, timeout, levels)),
            failures: StdMutex::new(0),
            connected_before: AtomicBool::new(false),
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
                if self.connected_before.swap(true, Ordering::Relaxed) {
                    let _ = self.shared.events.send(UpstreamEvent::Reconnected(self.name.clone()));
                }
                if let Some(level) = self.shared.levels.upstream_level() {
                    self.ask_log_level(&conn, level);
                }
                return Ok(conn);
            }
            Ok(Err(error)) => error.to_string(),
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

    async fn connect(&self) -> Result<Conn, StartError> {
        let client = Client::new(self.shared.clone());
        let cap = usize::try_from(self.spec.max_response_bytes).unwrap_or(usize::MAX);
        if let Some(argv) = &self.spec.command {
            let (reader, writer, watch, stop) = spawn_child(&self.name, &self.spec, argv, cap)?;
            let service = serve_client(client, UpstreamWire::new(reader, writer)).await.map_err(|e| {
                match watch.exit.lock().ok().and_then(|e| e.clone()) {
                    Some(exit) => StartError::ExitedDuringInitialize(exit),
                    None => StartError::Initialize(e.to_string()),
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
                let name =
                    axum::http::HeaderName::from_bytes(k.as_bytes()).map_err(|_| StartError::HeaderName(k.clone()))?;
                let value = axum::http::HeaderValue::from_str(v).map_err(|_| StartError::HeaderValue(k.clone()))?;
                headers.insert(name, value);
            }
            config = config.custom_headers(headers);
            let transport = StreamableHttpClientTransport::from_config(config);
            let service = serve_client(client, transport)
                .await
                .map_err(|e| StartError::Connect { url: url.clone(), reason: e.to_string() })?;
            Ok(Conn { service, child: None, _stop: None })
        } else {
            Err(StartError::NoTransport)
        }
    }

    /// The live connection, without starting one (a start in progress is waited for).
    async fn live_conn(&self) -> Option<Arc<Conn>> {
        match &*self.state.lock().await {
            State::Up(c) if !c.is_closed() => Some(c.clone()),
            _ => None,
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
