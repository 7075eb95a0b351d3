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
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotificationParam, ClientCapabilities,
    ClientConfig, ClientRequest, ClientResult, CompleteRequest, CompleteRequestParams, CompleteResult, ContentBlock,
    ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationCapability, ErrorCode, FormElicitationCapability,
    GetExtensions, GetPromptRequest, GetPromptRequestParams, GetPromptResult, Implementation, InputRequest,
    ProgressNotificationParam, ProgressToken, Prompt, ProtocolVersion, ReadResourceRequest, ReadResourceRequestParams,
    ReadResourceResult, RequestId, Resource, ResourceContents, ResourceTemplate, ResourceUpdatedNotificationParam,
    SamplingCapability, ServerRequest, ServerResult, SubscribeRequestParams, Tool, UnsubscribeRequestParams,
    UrlElicitationCapability,
};
// Sampling is deprecated by the newest protocol (SEP-2577), but the versions with an
// `initialize` handshake that toolshape speaks to upstreams still have it.
#[expect(deprecated, reason = "sampling is relayed for the protocol versions that still have it")]
use rmcp::model::{CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult};
#[expect(deprecated, reason = "upstream log messages are kept in toolshape's log and passed to sessions that ask")]
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam, SetLevelRequestParams};
use rmcp::service::{
    InboundStreamOrigin, NotificationContext, OriginatingRequestId, PeerRequestOptions, RequestContext, RunningService,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ErrorData, Peer, RoleClient, RoleServer, ServiceError, serve_client};
use serde_json::{Map, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, Semaphore, mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use toolshape_shape::Failure;

use crate::log_levels::LogLevels;
use crate::wire::UpstreamWire;

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

/// The agent call an upstream call serves: where the upstream's progress notifications go,
/// and where its sampling and elicitation requests are relayed while the call runs.
#[derive(Clone)]
pub(crate) struct ProgressSink {
    /// The agent session's peer.
    pub(crate) peer: Peer<RoleServer>,
    /// The agent's own progress token, when it asked for progress.
    pub(crate) token: Option<ProgressToken>,
    /// The agent's id for its `tools/call`: relayed requests ride that call's response
    /// stream (Streamable HTTP).
    pub(crate) request_id: RequestId,
    /// Which agent session made the call (the caller's scope).
    pub(crate) session: Arc<str>,
    /// Set when the agent speaks 2026-07-28, which has no server-to-client requests: an
    /// upstream's request is handed to the agent call as an input it must supply, and the
    /// call answers `input_required` (see `crate::input`).
    pub(crate) inputs: Option<Arc<AgentInputs>>,
}

/// How a 2026-07-28 agent call takes an upstream's sampling and elicitation requests.
pub(crate) struct AgentInputs {
    /// Where the call hears of a request it must pass to the agent.
    pub(crate) asks: mpsc::Sender<InputAsk>,
    /// What the agent declared in the request's `_meta`.
    pub(crate) capabilities: Option<ClientCapabilities>,
    /// Where the call's progress goes: the latest round's request, since each retry is a
    /// request of its own, with a progress token of its own (`None`: it asked for none).
    progress: StdMutex<Option<(Peer<RoleServer>, ProgressToken)>>,
    /// The `-32021` error of the first upstream request the agent could not take (it did
    /// not declare the capability). Whether the call needed it is the upstream's to say: if
    /// the call then fails, the agent gets this error, which names what to declare; if the
    /// upstream did without, the call's result stands.
    refused: StdMutex<Option<ErrorData>>,
}

impl AgentInputs {
    /// Inputs for a call; its progress goes nowhere until a round is [followed](Self::follow).
    pub(crate) fn new(asks: mpsc::Sender<InputAsk>, capabilities: Option<ClientCapabilities>) -> AgentInputs {
        AgentInputs { asks, capabilities, progress: StdMutex::new(None), refused: StdMutex::new(None) }
    }

    /// Note a request the agent could not take (the first one is kept).
    pub(crate) fn refuse(&self, error: ErrorData) {
        if let Ok(mut refused) = self.refused.lock() {
            refused.get_or_insert(error);
        }
    }

    /// The error of the first request the agent could not take, if any.
    pub(crate) fn take_refusal(&self) -> Option<ErrorData> {
        self.refused.lock().ok().and_then(|mut r| r.take())
    }

    /// A new round: progress goes to this request from now on.
    pub(crate) fn follow(&self, peer: &Peer<RoleServer>, token: Option<ProgressToken>) {
        if let Ok(mut progress) = self.progress.lock() {
            *progress = token.map(|t| (peer.clone(), t));
        }
    }
}

/// An upstream's request waiting for the agent's answer.
pub(crate) struct InputAsk {
    /// The request, as the agent is shown it.
    pub(crate) request: InputRequest,
    /// Where the agent's answer goes (its result, read as the kind asked for, or an error).
    pub(crate) reply: oneshot::Sender<Result<ClientResult, ErrorData>>,
}

impl ProgressSink {
    /// Whether two calls come from the same agent session: same scope and the same peer.
    /// 2026-07-28 has no sessions (each HTTP request has a peer of its own): two such calls
    /// are one caller when their scope is the same.
    fn same_session(&self, other: &ProgressSink) -> bool {
        if self.session != other.session {
            return false;
        }
        match (&self.inputs, &other.inputs) {
            (Some(_), Some(_)) => true,
            (None, None) => match (self.peer.peer_info(), other.peer.peer_info()) {
                (Some(a), Some(b)) => Arc::ptr_eq(&a, &b),
                (None, None) => true,
                _ => false,
            },
            _ => false,
        }
    }
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
    events: mpsc::UnboundedSender<UpstreamEvent>,
    /// Where progress notifications go.
    progress: StdMutex<ProgressRoutes>,
    /// The calls in flight, to relay the upstream's sampling and elicitation requests.
    calls: StdMutex<InFlight>,
    /// The upstream's time-out, which also bounds a relayed request.
    timeout: Duration,
    /// The log level of each agent session, to forward the upstream's log messages.
    levels: Arc<LogLevels>,
}

/// The calls in flight on one upstream, by a serial number.
#[derive(Default)]
struct InFlight {
    next: u64,
    calls: HashMap<u64, InFlightCall>,
}

/// One call in flight.
#[derive(Clone)]
struct InFlightCall {
    agent: ProgressSink,
    /// The upstream's id for the call, once it is sent.
    upstream_id: Option<RequestId>,
    /// Fires when the call ends, so a request relayed for it stops waiting.
    ended: CancellationToken,
}

/// Which agent call an upstream's request belongs to.
enum Attribution {
    /// This one.
    One(InFlightCall),
    /// No call is in flight.
    Nobody,
    /// Calls of this many agent sessions are in flight, and nothing tells which one asked.
    Ambiguous(usize),
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

    /// Record a call in flight until the returned guard is dropped.
    fn begin_call(&self, agent: ProgressSink) -> CallGuard<'_> {
        let ended = CancellationToken::new();
        let call = InFlightCall { agent, upstream_id: None, ended: ended.clone() };
        let key = match self.calls.lock() {
            Ok(mut inflight) => {
                let key = inflight.next;
                inflight.next = inflight.next.wrapping_add(1);
                inflight.calls.insert(key, call);
                Some(key)
            }
            Err(_) => None,
        };
        CallGuard { shared: self, key, ended }
    }

    /// The agent call an upstream request belongs to. `origin` is the upstream id of the call
    /// whose response stream carried the request (Streamable HTTP only); otherwise the
    /// request is attributed only when every call in flight comes from one agent session,
    /// since relaying it to the wrong session would show one user's data to another.
    fn attribute(&self, origin: Option<&RequestId>) -> Attribution {
        let Ok(inflight) = self.calls.lock() else { return Attribution::Nobody };
        if let Some(origin) = origin
            && let Some(call) = inflight.calls.values().find(|c| c.upstream_id.as_ref() == Some(origin))
        {
            return Attribution::One(call.clone());
        }
        // The newest call first: when one session has several, its latest stream is the
        // likeliest to still be open.
        let mut calls: Vec<(&u64, &InFlightCall)> = inflight.calls.iter().collect();
        calls.sort_by_key(|(key, _)| std::cmp::Reverse(**key));
        let mut sessions: Vec<&InFlightCall> = Vec::new();
        for (_, call) in calls {
            if !sessions.iter().any(|s| s.agent.same_session(&call.agent)) {
                sessions.push(call);
            }
        }
        match sessions.as_slice() {
            [] => Attribution::Nobody,
            [one] => Attribution::One((*one).clone()),
            several => Attribution::Ambiguous(several.len()),
        }
    }
}

/// Keeps a call on its upstream's in-flight list; dropping it (the call ended, timed out or
/// was cancelled) removes the call and stops any request relayed for it.
struct CallGuard<'a> {
    shared: &'a Shared,
    key: Option<u64>,
    ended: CancellationToken,
}

impl CallGuard<'_> {
    /// Record the upstream's id for the call, once it is sent.
    fn sent_as(&self, id: &RequestId) {
        if let (Some(key), Ok(mut inflight)) = (self.key, self.shared.calls.lock())
            && let Some(call) = inflight.calls.get_mut(&key)
        {
            call.upstream_id = Some(id.clone());
        }
    }
}

impl Drop for CallGuard<'_> {
    fn drop(&mut self) {
        self.ended.cancel();
        if let (Some(key), Ok(mut inflight)) = (self.key, self.shared.calls.lock()) {
            inflight.calls.remove(&key);
        }
    }
}

/// A server-to-client request an upstream may make, and what the agent must support for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Relayed {
    /// `sampling/createMessage`; `tools` when the request offers the model tools.
    Sampling { tools: bool },
    /// `elicitation/create` in form mode.
    FormElicitation,
    /// `elicitation/create` in URL mode.
    UrlElicitation,
}

impl Relayed {
    /// What the request is called in error messages.
    fn what(self) -> &'static str {
        match self {
            Relayed::Sampling { .. } => "sampling",
            Relayed::FormElicitation | Relayed::UrlElicitation => "elicitation",
        }
    }

    /// Why the agent cannot take this request, from the capabilities it declared.
    fn unsupported_by(self, caps: &ClientCapabilities) -> Option<&'static str> {
        match self {
            Relayed::Sampling { tools } => match &caps.sampling {
                None => Some("the agent connected to toolshape does not support sampling"),
                Some(s) if tools && s.tools.is_none() => {
                    Some("the agent connected to toolshape does not support tools in sampling requests")
                }
                Some(_) => None,
            },
            // An empty elicitation capability means form mode (the first version of it).
            Relayed::FormElicitation => match &caps.elicitation {
                None => Some("the agent connected to toolshape does not support elicitation"),
                Some(e) if e.form.is_none() && e.url.is_some() => {
                    Some("the agent connected to toolshape does not support form elicitation")
                }
                Some(_) => None,
            },
            Relayed::UrlElicitation => match &caps.elicitation {
                None => Some("the agent connected to toolshape does not support elicitation"),
                Some(e) if e.url.is_none() => Some("the agent connected to toolshape does not support URL elicitation"),
                Some(_) => None,
            },
        }
    }
}

/// The `-32021` error for a request the agent cannot take, whose data names the capability
/// as the schema has it (`requiredCapabilities`, a `ClientCapabilities` object).
fn missing_capability(kind: Relayed, reason: String) -> ErrorData {
    let required = match kind {
        Relayed::Sampling { tools: false } => serde_json::json!({"sampling": {}}),
        Relayed::Sampling { tools: true } => serde_json::json!({"sampling": {"tools": {}}}),
        Relayed::FormElicitation => serde_json::json!({"elicitation": {"form": {}}}),
        Relayed::UrlElicitation => serde_json::json!({"elicitation": {"url": {}}}),
    };
    let data = serde_json::json!({"requiredCapabilities": required});
    ErrorData::new(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, reason, Some(data))
}

/// Send `params` to the agent under the agent's own token (for a 2026-07-28 call, the token
/// of its latest round).
async fn forward_progress(upstream: &str, sink: &ProgressSink, mut params: ProgressNotificationParam) {
    let target = match &sink.inputs {
        Some(inputs) => inputs.progress.lock().ok().and_then(|p| p.clone()),
        None => sink.token.clone().map(|t| (sink.peer.clone(), t)),
    };
    let Some((peer, token)) = target else { return };
    params.progress_token = token;
    if let Err(e) = peer.notify_progress(params).await {
        tracing::debug!(upstream, error = %e, "could not forward progress");
    }
}

/// The upstream id of the request whose response stream carried a message (Streamable HTTP
/// only): what attributes the message to one agent call.
fn stream_origin(extensions: &rmcp::model::Extensions) -> Option<&RequestId> {
    match extensions.get::<InboundStreamOrigin>() {
        Some(InboundStreamOrigin::OutboundRequest(id)) => Some(id),
        _ => None,
    }
}

/// The rmcp client handler for one upstream: forwards list changes and progress, and relays
/// sampling and elicitation requests to the agent whose call caused them.
#[derive(Clone)]
struct Client {
    shared: Arc<Shared>,
}

impl Client {
    /// Pass an upstream's log message to the agent session whose call it came during, if that
    /// session asked for messages of its level (`logging/setLevel`). A message outside any
    /// call, or while calls of several sessions run, belongs to no one session and stays in
    /// toolshape's log. The logger is prefixed with the upstream's name, so the agent knows
    /// which server spoke.
    #[expect(deprecated, reason = "the protocol versions toolshape speaks to agents before 2026-07-28 have logging")]
    async fn forward_log(&self, mut params: LoggingMessageNotificationParam, ctx: &NotificationContext<RoleClient>) {
        let origin = stream_origin(&ctx.extensions);
        let Attribution::One(call) = self.shared.attribute(origin) else { return };
        // 2026-07-28 agents have no logging; their calls have no session to send it on.
        if call.agent.inputs.is_some() || !self.shared.levels.wants(&call.agent.session, params.level) {
            return;
        }
        let name = &self.shared.name;
        params.logger = Some(match params.logger.take() {
            Some(logger) => format!("{name}/{logger}"),
            None => name.clone(),
        });
        if let Err(e) = call.agent.peer.notify_logging_message(params).await {
            tracing::debug!(upstream = %name, error = %e, "could not pass a log message to the agent");
        }
    }

    /// Relay `request` to the agent session of the call in flight that caused it, bounded by
    /// the upstream's time-out, and return the agent's answer.
    async fn relay(
        &self,
        mut request: ServerRequest,
        kind: Relayed,
        ctx: &RequestContext<RoleClient>,
    ) -> Result<ClientResult, ErrorData> {
        let name = &self.shared.name;
        let what = kind.what();
        let origin = stream_origin(&ctx.extensions);
        let call = match self.shared.attribute(origin) {
            Attribution::One(call) => call,
            Attribution::Nobody => {
                return Err(ErrorData::invalid_request(
                    format!(
                        "toolshape cannot relay this {what} request: no tool call from an agent is in progress \
                         on upstream `{name}`"
                    ),
                    None,
                ));
            }
            Attribution::Ambiguous(sessions) => {
                tracing::warn!(upstream = %name, sessions, "a {what} request could not be attributed to one agent session");
                return Err(ErrorData::invalid_request(
                    format!(
                        "toolshape cannot relay this {what} request: tool calls of {sessions} agent sessions are \
                         in progress on upstream `{name}`, and the request could not be attributed to one session"
                    ),
                    None,
                ));
            }
        };
        let declared = match &call.agent.inputs {
            Some(inputs) => inputs.capabilities.clone(),
            None => call.agent.peer.peer_info().map(|info| info.capabilities.clone()),
        };
        let refusal = match declared {
            Some(capabilities) => kind.unsupported_by(&capabilities).map(str::to_owned),
            None => Some(format!(
                "the agent connected to toolshape did not declare its capabilities, so {what} is not relayed"
            )),
        };
        if let Some(reason) = refusal {
            let error = missing_capability(kind, reason);
            if let Some(inputs) = &call.agent.inputs {
                // Noted before the upstream hears of it, so before its call can end.
                inputs.refuse(error.clone());
            }
            return Err(error);
        }
        if let Some(inputs) = &call.agent.inputs {
            return self.ask_agent_call(inputs, request, kind, &call, ctx).await;
        }
        // Ride the agent call's own response stream (Streamable HTTP), not the stream of
        // whatever request rmcp thinks is current.
        request.extensions_mut().insert(OriginatingRequestId(call.agent.request_id.clone()));
        let timeout = self.shared.timeout;
        let peer = call.agent.peer.clone();
        // Sent from a task of its own: rmcp tags a request sent from inside a handler with
        // that handler's request id, which is the upstream's and means nothing to the agent.
        let sent = tokio::spawn(async move {
            peer.send_request_with_option(request, PeerRequestOptions::with_timeout(timeout)).await
        })
        .await;
        let handle = match sent {
            Ok(Ok(handle)) => handle,
            Ok(Err(e)) => return Err(relay_error(what, e, timeout)),
            Err(_) => {
                return Err(ErrorData::internal_error(format!("toolshape could not relay the {what} request"), None));
            }
        };
        let (agent, id) = (handle.peer.clone(), handle.id.clone());
        tokio::select! {
            answer = handle.await_response() => answer.map_err(|e| relay_error(what, e, timeout)),
            () = call.ended.cancelled() => {
                cancel_relayed(agent, id, "the tool call ended");
                Err(ErrorData::internal_error(format!("the tool call ended before the agent answered the {what} request"), None))
            }
            () = ctx.ct.cancelled() => {
                cancel_relayed(agent, id, "cancelled by the upstream");
                Err(ErrorData::internal_error(format!("the {what} request was cancelled"), None))
            }
        }
    }
}

impl Client {
    /// Relay `request` to a 2026-07-28 agent: its call answers `input_required` with the
    /// request, and the agent's retry carries the answer back here. Bounded like any relay.
    async fn ask_agent_call(
        &self,
        inputs: &AgentInputs,
        request: ServerRequest,
        kind: Relayed,
        call: &InFlightCall,
        ctx: &RequestContext<RoleClient>,
    ) -> Result<ClientResult, ErrorData> {
        let what = kind.what();
        let request = match request {
            ServerRequest::CreateMessageRequest(r) => InputRequest::CreateMessage(r),
            ServerRequest::ElicitRequest(r) => InputRequest::Elicitation(r),
            _ => return Err(ErrorData::internal_error(format!("toolshape cannot relay this {what} request"), None)),
        };
        let (reply, answer) = oneshot::channel();
        let timeout = self.shared.timeout;
        let ended = || {
            ErrorData::internal_error(format!("the tool call ended before the agent answered the {what} request"), None)
        };
        let asked = async {
            inputs.asks.send(InputAsk { request, reply }).await.map_err(|_| ended())?;
            answer.await.map_err(|_| ended())?
        };
        tokio::select! {
            answered = tokio::time::timeout(timeout, asked) => answered.unwrap_or_else(|_| {
                Err(ErrorData::internal_error(
                    format!("the agent did not answer the {what} request within {} s", timeout.as_secs()),
                    None,
                ))
            }),
            () = call.ended.cancelled() => Err(ended()),
            () = ctx.ct.cancelled() => Err(ErrorData::internal_error(format!("the {what} request was cancelled"), None)),
        }
    }
}

/// Tell the agent a relayed request is no longer wanted.
fn cancel_relayed(agent: Peer<RoleServer>, id: RequestId, reason: &str) {
    let params = CancelledNotificationParam::new(Some(id), Some(reason.to_owned()));
    tokio::spawn(async move {
        let _ = agent.notify_cancelled(params).await;
    });
}

/// What the upstream is told when relaying to the agent failed: the agent's own error as
/// it is, otherwise what happened.
fn relay_error(what: &str, e: ServiceError, timeout: Duration) -> ErrorData {
    match e {
        ServiceError::McpError(err) => err,
        ServiceError::Timeout { .. } => ErrorData::internal_error(
            format!("the agent did not answer the {what} request within {} s", timeout.as_secs()),
            None,
        ),
        ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
            ErrorData::internal_error(format!("the agent disconnected before answering the {what} request"), None)
        }
        other => ErrorData::internal_error(format!("the {what} request failed at the agent: {other}"), None),
    }
}

impl ClientHandler for Client {
    #[expect(deprecated, reason = "sampling is relayed for the protocol versions that still have it")]
    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        ctx: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let kind = Relayed::Sampling { tools: params.tools.is_some() || params.tool_choice.is_some() };
        let request = ServerRequest::CreateMessageRequest(CreateMessageRequest::new(params));
        match self.relay(request, kind, &ctx).await? {
            ClientResult::CreateMessageResult(result) => Ok(*result),
            _ => Err(ErrorData::internal_error(
                "the agent answered the sampling request with another kind of result",
                None,
            )),
        }
    }

    async fn create_elicitation(
        &self,
        params: ElicitRequestParams,
        ctx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let kind = match &params {
            ElicitRequestParams::UrlElicitationParams { .. } => Relayed::UrlElicitation,
            _ => Relayed::FormElicitation,
        };
        let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
        match self.relay(request, kind, &ctx).await? {
            ClientResult::ElicitResult(result) => Ok(result),
            _ => Err(ErrorData::internal_error(
                "the agent answered the elicitation request with another kind of result",
                None,
            )),
        }
    }

    async fn on_progress(&self, params: ProgressNotificationParam, _ctx: NotificationContext<RoleClient>) {
        if let Some((sink, params)) = self.shared.route(params) {
            forward_progress(&self.shared.name, &sink, params).await;
        }
    }

    #[expect(deprecated, reason = "the protocol versions toolshape speaks to upstreams still have logging")]
    async fn on_logging_message(&self, params: LoggingMessageNotificationParam, ctx: NotificationContext<RoleClient>) {
        log_message(&self.shared.name, &params);
        self.forward_log(params, &ctx).await;
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _ctx: NotificationContext<RoleClient>,
    ) {
        let _ = self.shared.events.send(UpstreamEvent::ResourceUpdated(self.shared.name.clone(), params.uri));
    }

    async fn on_tool_list_changed(&self, _ctx: NotificationContext<RoleClient>) {
        let _ = self.shared.events.send(UpstreamEvent::Tools(self.shared.name.clone()));
    }

    async fn on_prompt_list_changed(&self, _ctx: NotificationContext<RoleClient>) {
        let _ = self.shared.events.send(UpstreamEvent::Prompts(self.shared.name.clone()));
    }

    async fn on_resource_list_changed(&self, _ctx: NotificationContext<RoleClient>) {
        let _ = self.shared.events.send(UpstreamEvent::Resources(self.shared.name.clone()));
    }

    fn get_info(&self) -> ClientConfig {
        // The last version with an `initialize` handshake: every upstream server in use
        // today speaks it, and it keeps list-changed notifications on the session.
        ClientConfig::new(relayed_capabilities(), Implementation::new("toolshape", env!("CARGO_PKG_VERSION")))
            .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }
}

/// What toolshape declares to every upstream: sampling and elicitation (form and URL), which
/// it relays to the agent whose call caused them. Upstream connections are shared by every
/// agent session, so this is declared whatever one agent supports; a request the agent of
/// the call cannot take is answered with an error naming the missing capability.
fn relayed_capabilities() -> ClientCapabilities {
    let mut capabilities = ClientCapabilities::default();
    capabilities.sampling = Some(SamplingCapability::default());
    capabilities.elicitation = Some(
        ElicitationCapability::new()
            .with_form(FormElicitationCapability::new())
            .with_url(UrlElicitationCapability::new()),
    );
    capabilities
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
            shared: Arc::new(Shared {
                name: name.to_owned(),
                events,
                progress: StdMutex::new(ProgressRoutes::default()),
                calls: StdMutex::new(InFlight::default()),
                timeout,
                levels,
            }),
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
            let service = serve_client(client, UpstreamWire::new(reader, writer)).await.map_err(|e| {
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
        let tools = self.bounded(&conn, conn.service.peer().list_all_tools()).await?;
        self.reset_failures();
        Ok(tools)
    }

    /// Every prompt the upstream lists; an upstream without prompts lists none.
    pub(crate) async fn list_prompts(&self) -> Result<Vec<Prompt>, Failure> {
        let conn = self.conn().await?;
        if conn.service.peer().peer_info().is_some_and(|i| i.capabilities.prompts.is_none()) {
            return Ok(Vec::new());
        }
        self.bounded(&conn, conn.service.peer().list_all_prompts()).await
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

    /// `prompts/get`, passed through for `agent`'s request, which receives the upstream's
    /// progress and its sampling and elicitation requests while it runs.
    pub(crate) async fn get_prompt(
        &self,
        params: GetPromptRequestParams,
        agent: Option<ProgressSink>,
        cancel: &CancellationToken,
    ) -> Result<GetPromptResult, Failure> {
        let conn = self.conn().await?;
        let request = ClientRequest::GetPromptRequest(GetPromptRequest::new(params));
        match self.exchange_within_timeout(&conn, request, agent, cancel).await? {
            ServerResult::GetPromptResult(r) => Ok(r),
            other => Err(self.unexpected("a prompt", &other)),
        }
    }

    /// `completion/complete`, passed through for `agent`'s request (as for a prompt). An
    /// upstream that offers no completions has none to give: the answer is empty, not an error.
    pub(crate) async fn complete(
        &self,
        params: CompleteRequestParams,
        agent: Option<ProgressSink>,
        cancel: &CancellationToken,
    ) -> Result<CompleteResult, Failure> {
        let conn = self.conn().await?;
        if conn.service.peer().peer_info().is_some_and(|i| i.capabilities.completions.is_none()) {
            return Ok(CompleteResult::default());
        }
        let request = ClientRequest::CompleteRequest(CompleteRequest::new(params));
        match self.exchange_within_timeout(&conn, request, agent, cancel).await? {
            ServerResult::CompleteResult(r) => Ok(r),
            other => Err(self.unexpected("completions", &other)),
        }
    }

    /// `resources/subscribe` for `uri`, so the upstream reports its changes. An upstream that
    /// does not offer subscriptions is refused here, with a message that says so.
    #[expect(deprecated, reason = "upstreams before 2026-07-28 take resources/subscribe")]
    pub(crate) async fn subscribe(&self, uri: &str) -> Result<(), Failure> {
        let conn = self.conn().await?;
        self.check_subscriptions(&conn)?;
        self.bounded(&conn, conn.service.peer().subscribe(SubscribeRequestParams::new(uri))).await
    }

    /// `resources/unsubscribe` for `uri`, if the upstream is connected (a connection that
    /// ended took its subscriptions with it).
    #[expect(deprecated, reason = "upstreams before 2026-07-28 take resources/unsubscribe")]
    pub(crate) async fn unsubscribe(&self, uri: &str) -> Result<(), Failure> {
        let Some(conn) = self.live_conn().await else { return Ok(()) };
        self.check_subscriptions(&conn)?;
        self.bounded(&conn, conn.service.peer().unsubscribe(UnsubscribeRequestParams::new(uri))).await
    }

    /// `request` on `conn`, bounded by the upstream's time-out, its error as a failure.
    async fn bounded<T>(
        &self,
        conn: &Conn,
        request: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, Failure> {
        match tokio::time::timeout(self.timeout, request).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(e)) => Err(self.failure(e, conn).await),
            Err(_) => Err(Failure::Timeout { upstream: self.name.clone(), after_ms: ms(self.timeout) }),
        }
    }

    fn check_subscriptions(&self, conn: &Conn) -> Result<(), Failure> {
        let offered = conn
            .service
            .peer()
            .peer_info()
            .is_none_or(|i| i.capabilities.resources.as_ref().and_then(|r| r.subscribe).unwrap_or(false));
        if offered {
            return Ok(());
        }
        Err(Failure::Protocol {
            upstream: self.name.clone(),
            code: i64::from(ErrorCode::METHOD_NOT_FOUND.0),
            message: "this upstream does not offer resource subscriptions".to_owned(),
        })
    }

    /// The live connection, without starting one (a start in progress is waited for).
    async fn live_conn(&self) -> Option<Arc<Conn>> {
        match &*self.state.lock().await {
            State::Up(c) if !c.is_closed() => Some(c.clone()),
            _ => None,
        }
    }

    /// Ask the upstream, if it is connected, to send log messages from `level` up; an
    /// upstream that starts later is asked when it connects.
    #[expect(deprecated, reason = "the protocol versions toolshape speaks to upstreams still have logging")]
    pub(crate) async fn set_log_level(&self, level: LoggingLevel) {
        if let Some(conn) = self.live_conn().await {
            self.ask_log_level(&conn, level);
        }
    }

    /// `logging/setLevel` on `conn`, if the upstream offers logging, on a task of its own: an
    /// upstream slow to answer must hold up neither its start nor the agent's request. A
    /// failure is logged only.
    #[expect(deprecated, reason = "the protocol versions toolshape speaks to upstreams still have logging")]
    fn ask_log_level(&self, conn: &Conn, level: LoggingLevel) {
        let peer = conn.service.peer().clone();
        if peer.peer_info().is_some_and(|i| i.capabilities.logging.is_none()) {
            return;
        }
        let (name, timeout) = (self.name.clone(), self.timeout);
        tokio::spawn(async move {
            match tokio::time::timeout(timeout, peer.set_level(SetLevelRequestParams::new(level))).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::warn!(upstream = %name, error = %e, "upstream refused logging/setLevel"),
                Err(_) => tracing::warn!(upstream = %name, "upstream did not answer logging/setLevel in time"),
            }
        });
    }

    /// `resources/read`, passed through for `agent`'s request (as for a prompt), bounded by
    /// the response cap.
    pub(crate) async fn read_resource(
        &self,
        params: ReadResourceRequestParams,
        agent: Option<ProgressSink>,
        cancel: &CancellationToken,
    ) -> Result<ReadResourceResult, Failure> {
        let conn = self.conn().await?;
        let request = ClientRequest::ReadResourceRequest(ReadResourceRequest::new(params));
        let result = match self.exchange_within_timeout(&conn, request, agent, cancel).await? {
            ServerResult::ReadResourceResult(r) => r,
            other => return Err(self.unexpected("a resource", &other)),
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

    /// Call `tool` with `arguments` for `agent`'s call, which receives the upstream's progress
    /// and its sampling and elicitation requests. Waits for a concurrency slot; the whole call
    /// (the wait included) is bounded by the time-out. If `cancel` fires, or the returned
    /// future is dropped, the upstream is told the request is cancelled.
    pub(crate) async fn call(
        &self,
        tool: &str,
        arguments: Map<String, Value>,
        agent: Option<ProgressSink>,
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
            match self.exchange(&conn, request, agent, cancel).await? {
                ServerResult::CallToolResult(result) => {
                    self.reset_failures();
                    self.reduce(result)
                }
                other => Err(self.unexpected("a tool result", &other)),
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

    /// [`Self::exchange`] bounded by the upstream's time-out.
    async fn exchange_within_timeout(
        &self,
        conn: &Conn,
        request: ClientRequest,
        agent: Option<ProgressSink>,
        cancel: &CancellationToken,
    ) -> Result<ServerResult, Failure> {
        match tokio::time::timeout(self.timeout, self.exchange(conn, request, agent, cancel)).await {
            Ok(r) => r,
            Err(_) => Err(Failure::Timeout { upstream: self.name.clone(), after_ms: ms(self.timeout) }),
        }
    }

    /// Send `request` on `conn` for `agent`'s request and wait for the answer. While it runs
    /// the request is in flight: the upstream's sampling and elicitation requests are relayed
    /// to the agent, and its progress goes to the agent's token. If `cancel` fires, or the
    /// returned future is dropped, the upstream is told the request is cancelled.
    async fn exchange(
        &self,
        conn: &Conn,
        request: ClientRequest,
        agent: Option<ProgressSink>,
        cancel: &CancellationToken,
    ) -> Result<ServerResult, Failure> {
        let peer = conn.service.peer().clone();
        // In flight before it is sent: the upstream may ask for sampling at once.
        let in_flight = agent.clone().map(|a| self.shared.begin_call(a));
        let handle = match peer.send_request_with_option(request, PeerRequestOptions::no_options()).await {
            Ok(h) => h,
            Err(e) => return Err(self.failure(e, conn).await),
        };
        if let Some(in_flight) = &in_flight {
            in_flight.sent_as(&handle.id);
        }
        let mut guard =
            CancelGuard { peer: Some(peer), id: Some(handle.id.clone()), shared: &self.shared, token: None };
        if let Some(sink) = agent.filter(|a| a.token.is_some()) {
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
        if !matches!(response, Err(ServiceError::Cancelled { .. })) {
            guard.disarm();
        }
        match response {
            Ok(result) => Ok(result),
            Err(e) => Err(self.failure(e, conn).await),
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

    /// The failure for an answer of another kind than the request asked for.
    fn unexpected(&self, expected: &str, got: &ServerResult) -> Failure {
        Failure::InvalidResponse {
            upstream: self.name.clone(),
            detail: format!("expected {expected}, got {}", result_kind(got)),
        }
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
                    toolshape_shape::format_bytes(self.spec.max_response_bytes)
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

/// Write an upstream's log message (`notifications/message`) to toolshape's log, next to its
/// stderr lines and cut to the same length. Every message is kept here; it also reaches an
/// agent only when it came during that agent's call and the agent asked for its level (see
/// `Client::forward_log`): an upstream connection is shared by every agent, and a message
/// outside a call belongs to none of them.
#[expect(deprecated, reason = "the protocol versions toolshape speaks to upstreams still have logging")]
fn log_message(upstream: &str, params: &LoggingMessageNotificationParam) {
    let text = log_text(&params.data);
    let logger = params.logger.as_deref().unwrap_or("-");
    match params.level {
        LoggingLevel::Debug => tracing::debug!(upstream, logger, "log: {text}"),
        LoggingLevel::Info | LoggingLevel::Notice => tracing::info!(upstream, logger, "log: {text}"),
        LoggingLevel::Warning => tracing::warn!(upstream, logger, "log: {text}"),
        LoggingLevel::Error | LoggingLevel::Critical | LoggingLevel::Alert | LoggingLevel::Emergency => {
            tracing::error!(upstream, logger, "log: {text}")
        }
    }
}

/// A log message's data as one line of text: a string as it is, anything else (and a string
/// with line breaks or other control characters, which could forge lines of toolshape's log)
/// as JSON, cut to [`STDERR_LINE_MAX`] bytes at a character boundary.
fn log_text(data: &Value) -> String {
    let mut text = match data {
        Value::String(text) if !text.contains(char::is_control) => text.clone(),
        other => other.to_string(),
    };
    let mut end = text.len().min(STDERR_LINE_MAX);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text
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

    proptest::proptest! {
        /// Whatever an upstream logs, its line is one line, within the stderr line limit, and
        /// a prefix of the message's text (its JSON when it is not a plain string), whole when
        /// that fits.
        #[test]
        fn a_log_line_is_a_bounded_prefix_of_the_message(
            text in "(\\PC|\n|\r|\t){0,3000}",
            as_string: bool,
        ) {
            let data = if as_string { Value::String(text.clone()) } else { serde_json::json!({"text": text}) };
            let plain = as_string && !text.contains(char::is_control);
            let whole = if plain { text.clone() } else { data.to_string() };
            let line = log_text(&data);
            proptest::prop_assert!(!line.contains(['\n', '\r']), "{line:?}");
            proptest::prop_assert!(line.len() <= STDERR_LINE_MAX);
            proptest::prop_assert!(whole.starts_with(&line));
            if whole.len() <= STDERR_LINE_MAX {
                proptest::prop_assert_eq!(line, whole);
            } else {
                // Cut no further than the last character boundary before the limit.
                proptest::prop_assert!(line.len() + 4 > STDERR_LINE_MAX);
            }
        }
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

    /// An agent: answers sampling with `reply`, or never when it is `None`.
    #[derive(Clone)]
    struct TestAgent {
        reply: Option<&'static str>,
        sampling: bool,
    }

    impl ClientHandler for TestAgent {
        #[expect(deprecated, reason = "the test agent answers sampling")]
        async fn create_message(
            &self,
            params: CreateMessageRequestParams,
            _ctx: RequestContext<RoleClient>,
        ) -> Result<CreateMessageResult, ErrorData> {
            let Some(reply) = self.reply else { return std::future::pending().await };
            let asked = params
                .messages
                .first()
                .and_then(|m| m.content.first())
                .and_then(|c| c.as_text())
                .map(|t| t.text.clone());
            let text = format!("{reply} (asked: {})", asked.unwrap_or_default());
            Ok(CreateMessageResult::new(rmcp::model::SamplingMessage::assistant_text(text), "test-model".into()))
        }

        fn get_info(&self) -> ClientConfig {
            let mut capabilities = ClientCapabilities::default();
            if self.sampling {
                capabilities.sampling = Some(SamplingCapability::default());
            }
            ClientConfig::new(capabilities, Implementation::new("test-agent", "0"))
        }
    }

    /// The gateway's side of an agent session; only its peer is used.
    struct AgentSide;

    impl rmcp::ServerHandler for AgentSide {}

    /// An upstream whose every tool asks for sampling and returns the reply, or the error.
    struct AskingUpstream;

    impl rmcp::ServerHandler for AskingUpstream {
        fn get_info(&self) -> rmcp::model::ServerConfig {
            rmcp::model::ServerConfig::new(rmcp::model::ServerCapabilities::builder().enable_tools().build())
        }

        #[expect(deprecated, reason = "the test upstream asks for sampling")]
        async fn call_tool(
            &self,
            _request: CallToolRequestParams,
            ctx: RequestContext<RoleServer>,
        ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
            let params = CreateMessageRequestParams::new(vec![rmcp::model::SamplingMessage::user_text("say hi")], 10);
            let request = ServerRequest::CreateMessageRequest(CreateMessageRequest::new(params));
            let text = match ctx.peer.send_request(request).await {
                Ok(ClientResult::CreateMessageResult(r)) => {
                    r.message.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default()
                }
                Ok(_) => "unexpected".to_owned(),
                Err(e) => format!("error: {e}"),
            };
            Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
        }
    }

    type Running<R, S> = RunningService<R, S>;

    /// An agent session: the agent's client and the gateway-side peer that reaches it.
    async fn agent(agent: TestAgent) -> (Running<RoleServer, AgentSide>, Running<RoleClient, TestAgent>) {
        let (a, b) = tokio::io::duplex(64 * 1024);
        let client = tokio::spawn(async move { serve_client(agent, tokio::io::split(b)).await.unwrap() });
        let server = rmcp::serve_server(AgentSide, tokio::io::split(a)).await.unwrap();
        (server, client.await.unwrap())
    }

    /// The upstream connection under test, with `shared` as its state.
    async fn upstream(shared: Arc<Shared>) -> (Running<RoleClient, Client>, Running<RoleServer, AskingUpstream>) {
        let (a, b) = tokio::io::duplex(64 * 1024);
        let server =
            tokio::spawn(async move { rmcp::serve_server(AskingUpstream, tokio::io::split(b)).await.unwrap() });
        let client = serve_client(Client { shared }, tokio::io::split(a)).await.unwrap();
        (client, server.await.unwrap())
    }

    fn shared(timeout: Duration) -> Arc<Shared> {
        let (events, _) = mpsc::unbounded_channel();
        Arc::new(Shared {
            name: "up".into(),
            events,
            progress: StdMutex::new(ProgressRoutes::default()),
            calls: StdMutex::new(InFlight::default()),
            timeout,
            levels: Arc::default(),
        })
    }

    fn call_of(session: &Running<RoleServer, AgentSide>, scope: &str, id: i64) -> ProgressSink {
        ProgressSink {
            peer: session.peer().clone(),
            token: None,
            request_id: RequestId::Number(id),
            session: scope.into(),
            inputs: None,
        }
    }

    async fn ask(client: &Running<RoleClient, Client>) -> String {
        let result = client.peer().call_tool(CallToolRequestParams::new("ask")).await.unwrap();
        all_text(&result.content).unwrap()
    }

    #[tokio::test]
    async fn sampling_is_relayed_to_the_agent_of_the_call_in_flight() {
        let shared = shared(Duration::from_secs(5));
        let (session, _agent) = agent(TestAgent { reply: Some("hello from the agent"), sampling: true }).await;
        let (client, _server) = upstream(shared.clone()).await;
        let _call = shared.begin_call(call_of(&session, "s1", 1));
        assert_eq!(ask(&client).await, "hello from the agent (asked: say hi)");
    }

    #[tokio::test]
    async fn sampling_without_a_call_in_flight_is_refused() {
        let shared = shared(Duration::from_secs(5));
        let (client, _server) = upstream(shared.clone()).await;
        let text = ask(&client).await;
        assert!(text.contains("no tool call from an agent is in progress"), "{text}");
    }

    #[tokio::test]
    async fn sampling_with_calls_of_two_sessions_in_flight_is_refused_not_guessed() {
        let shared = shared(Duration::from_secs(5));
        let (one, _a) = agent(TestAgent { reply: Some("from one"), sampling: true }).await;
        let (two, _b) = agent(TestAgent { reply: Some("from two"), sampling: true }).await;
        let (client, _server) = upstream(shared.clone()).await;
        let _first = shared.begin_call(call_of(&one, "s1", 1));
        let second = shared.begin_call(call_of(&two, "s2", 1));
        let text = ask(&client).await;
        assert!(text.contains("could not be attributed to one session"), "{text}");
        assert!(!text.contains("from one") && !text.contains("from two"), "{text}");
        // Two calls of one session are not ambiguous.
        drop(second);
        let _again = shared.begin_call(call_of(&one, "s1", 2));
        assert!(ask(&client).await.starts_with("from one"));
    }

    #[tokio::test]
    async fn the_same_scope_on_another_peer_is_another_session() {
        let shared = shared(Duration::from_secs(5));
        let (one, _a) = agent(TestAgent { reply: Some("from one"), sampling: true }).await;
        let (two, _b) = agent(TestAgent { reply: Some("from two"), sampling: true }).await;
        let _first = shared.begin_call(call_of(&one, "same", 1));
        let _second = shared.begin_call(call_of(&two, "same", 2));
        assert!(matches!(shared.attribute(None), Attribution::Ambiguous(2)));
    }

    #[tokio::test]
    async fn calls_without_sessions_are_one_caller_by_scope() {
        let shared = shared(Duration::from_secs(5));
        let (one, _a) = agent(TestAgent { reply: Some("from one"), sampling: true }).await;
        let (two, _b) = agent(TestAgent { reply: Some("from two"), sampling: true }).await;
        let modern = |session: &Running<RoleServer, AgentSide>, scope: &str, id: i64| {
            let (asks, _) = mpsc::channel(1);
            let mut sink = call_of(session, scope, id);
            sink.inputs = Some(Arc::new(AgentInputs::new(asks, None)));
            sink
        };
        let first = shared.begin_call(modern(&one, "same", 1));
        let second = shared.begin_call(modern(&two, "same", 2));
        // Each request its own peer, one scope: one caller, and its newest call is asked.
        let Attribution::One(call) = shared.attribute(None) else { panic!("not attributed") };
        assert_eq!(call.agent.request_id, RequestId::Number(2));
        // Another scope, or a session-holding call of the same scope, is someone else.
        let third = shared.begin_call(modern(&two, "other", 3));
        assert!(matches!(shared.attribute(None), Attribution::Ambiguous(2)));
        drop((first, second, third));
        let _modern = shared.begin_call(modern(&one, "same", 4));
        let _session = shared.begin_call(call_of(&one, "same", 5));
        assert!(matches!(shared.attribute(None), Attribution::Ambiguous(2)));
    }

    /// Progress notes: which agent got it, under which token, how far.
    type Seen = Arc<StdMutex<Vec<(&'static str, ProgressToken, f64)>>>;

    /// An agent that notes the progress it is sent, under its own name.
    #[derive(Clone)]
    struct ProgressAgent {
        name: &'static str,
        seen: Seen,
    }

    impl ClientHandler for ProgressAgent {
        async fn on_progress(&self, params: ProgressNotificationParam, _ctx: NotificationContext<RoleClient>) {
            if let Ok(mut seen) = self.seen.lock() {
                seen.push((self.name, params.progress_token, params.progress));
            }
        }
    }

    async fn progress_agent(
        agent: ProgressAgent,
    ) -> (Running<RoleServer, AgentSide>, Running<RoleClient, ProgressAgent>) {
        let (a, b) = tokio::io::duplex(64 * 1024);
        let client = tokio::spawn(async move { serve_client(agent, tokio::io::split(b)).await.unwrap() });
        let server = rmcp::serve_server(AgentSide, tokio::io::split(a)).await.unwrap();
        (server, client.await.unwrap())
    }

    #[tokio::test]
    async fn progress_of_a_call_without_session_follows_its_latest_round() {
        let seen = Arc::new(StdMutex::new(Vec::new()));
        let (first, _a) = progress_agent(ProgressAgent { name: "round 1", seen: seen.clone() }).await;
        let (second, _b) = progress_agent(ProgressAgent { name: "round 2", seen: seen.clone() }).await;
        let token = |n: i64| ProgressToken(rmcp::model::NumberOrString::Number(n));
        let (asks, _) = mpsc::channel(1);
        let inputs = Arc::new(AgentInputs::new(asks, None));
        inputs.follow(first.peer(), Some(token(1)));
        let mut sink = call_of(&first, "s", 1);
        sink.inputs = Some(inputs.clone());
        // The upstream's own token is replaced by the agent's.
        forward_progress("up", &sink, ProgressNotificationParam::new(token(99), 1.0)).await;
        inputs.follow(second.peer(), Some(token(2)));
        forward_progress("up", &sink, ProgressNotificationParam::new(token(99), 2.0)).await;
        // A round that asked for no progress gets none.
        inputs.follow(first.peer(), None);
        forward_progress("up", &sink, ProgressNotificationParam::new(token(99), 3.0)).await;
        tokio::time::timeout(Duration::from_secs(5), async {
            while seen.lock().unwrap().len() < 2 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(*seen.lock().unwrap(), [("round 1", token(1), 1.0), ("round 2", token(2), 2.0)]);
    }

    #[tokio::test]
    async fn the_stream_a_request_arrived_on_names_its_call() {
        let shared = shared(Duration::from_secs(5));
        let (one, _a) = agent(TestAgent { reply: Some("from one"), sampling: true }).await;
        let (two, _b) = agent(TestAgent { reply: Some("from two"), sampling: true }).await;
        let first = shared.begin_call(call_of(&one, "s1", 1));
        first.sent_as(&RequestId::Number(7));
        let second = shared.begin_call(call_of(&two, "s2", 1));
        second.sent_as(&RequestId::Number(8));
        let Attribution::One(call) = shared.attribute(Some(&RequestId::Number(8))) else { panic!("not attributed") };
        assert_eq!(&*call.agent.session, "s2");
        // An id of no call in flight falls back to the safe rule.
        assert!(matches!(shared.attribute(Some(&RequestId::Number(9))), Attribution::Ambiguous(2)));
        drop((first, second));
        assert!(matches!(shared.attribute(None), Attribution::Nobody));
    }

    #[tokio::test]
    async fn an_agent_without_sampling_gets_a_clear_error() {
        let shared = shared(Duration::from_secs(5));
        let (session, _agent) = agent(TestAgent { reply: Some("never"), sampling: false }).await;
        let (client, _server) = upstream(shared.clone()).await;
        let _call = shared.begin_call(call_of(&session, "s1", 1));
        let text = ask(&client).await;
        assert!(text.contains("the agent connected to toolshape does not support sampling"), "{text}");
    }

    #[tokio::test]
    async fn a_silent_agent_is_bounded_by_the_time_out() {
        let shared = shared(Duration::from_millis(300));
        let (session, _agent) = agent(TestAgent { reply: None, sampling: true }).await;
        let (client, _server) = upstream(shared.clone()).await;
        let _call = shared.begin_call(call_of(&session, "s1", 1));
        let started = Instant::now();
        let text = ask(&client).await;
        assert!(text.contains("did not answer the sampling request"), "{text}");
        assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    }

    #[tokio::test]
    async fn a_call_that_ends_stops_its_relay() {
        let shared = shared(Duration::from_secs(60));
        let (session, _agent) = agent(TestAgent { reply: None, sampling: true }).await;
        let (client, _server) = upstream(shared.clone()).await;
        let call = shared.begin_call(call_of(&session, "s1", 1));
        let ask = tokio::spawn(async move { ask(&client).await });
        tokio::time::sleep(Duration::from_millis(200)).await;
        let started = Instant::now();
        drop(call);
        let text = tokio::time::timeout(Duration::from_secs(5), ask).await.unwrap().unwrap();
        assert!(text.contains("the tool call ended before the agent answered"), "{text}");
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn capabilities_decide_what_the_agent_can_take() {
        let none = ClientCapabilities::default();
        let all = relayed_capabilities();
        let mut form_only = ClientCapabilities::default();
        form_only.elicitation = Some(ElicitationCapability::new());
        let sampling = Relayed::Sampling { tools: false };
        assert!(sampling.unsupported_by(&none).unwrap().contains("does not support sampling"));
        assert_eq!(sampling.unsupported_by(&all), None);
        assert!(Relayed::Sampling { tools: true }.unsupported_by(&all).unwrap().contains("tools"));
        assert!(Relayed::FormElicitation.unsupported_by(&none).unwrap().contains("does not support elicitation"));
        assert_eq!(Relayed::FormElicitation.unsupported_by(&form_only), None);
        assert!(Relayed::UrlElicitation.unsupported_by(&form_only).unwrap().contains("URL elicitation"));
        assert_eq!(Relayed::UrlElicitation.unsupported_by(&all), None);
    }
}
