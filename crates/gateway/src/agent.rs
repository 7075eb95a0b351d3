//! The agent, as the gateway's inner side sees it: what an upstream needs of the agent whose
//! request it serves (relay a request, forward progress and log messages, tell of changes),
//! and nothing of how that agent is reached.
//!
//! [`AgentLink`] is the seam. `crate::server`, the only module that knows rmcp's server
//! handles, implements it over an agent session's peer (and over a `subscriptions/listen`
//! stream); the upstream side, the watches and the listeners hold `Arc<dyn AgentLink>`. A
//! new kind of agent transport implements this trait and nothing else changes.

use std::any::Any;
use std::pin::Pin;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

#[expect(deprecated, reason = "upstream log messages are passed to sessions of the versions that have logging")]
use rmcp::model::LoggingMessageNotificationParam;
use rmcp::model::{ClientCapabilities, ClientResult, InputRequest, ProgressNotificationParam, ServerRequest};
use rmcp::{ErrorData, ServiceError};
use tokio::sync::{mpsc, oneshot};

/// Which list changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListKind {
    /// `notifications/tools/list_changed`.
    Tools,
    /// `notifications/prompts/list_changed`.
    Prompts,
    /// `notifications/resources/list_changed`.
    Resources,
}

/// A notification for an agent.
#[derive(Debug, Clone)]
pub(crate) enum AgentNote {
    /// A list changed.
    ListChanged(ListKind),
    /// A resource the agent subscribed to changed: its URI.
    ResourceUpdated(String),
    /// An upstream's progress, sent under the agent's own progress token (dropped when the
    /// agent's request asked for none).
    Progress(ProgressNotificationParam),
    /// An upstream's log message.
    #[expect(deprecated, reason = "upstream log messages are passed to sessions of the versions that have logging")]
    Log(LoggingMessageNotificationParam),
}

/// Why a relayed request stopped waiting for the agent's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopReason {
    /// The tool call (or other request) it was made for ended.
    CallEnded,
    /// The upstream cancelled its request.
    CancelledUpstream,
}

impl StopReason {
    /// What the agent is told when the request is withdrawn.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            StopReason::CallEnded => "the tool call ended",
            StopReason::CancelledUpstream => "cancelled by the upstream",
        }
    }
}

/// Resolves when a relayed request should stop waiting, saying why.
pub(crate) type Stop<'a> = Pin<Box<dyn Future<Output = StopReason> + Send + 'a>>;

/// Why a notification did not reach the agent (logged only: notifications are best effort).
pub(crate) type LinkError = Box<dyn std::error::Error + Send + Sync>;

/// Why a relayed request got no answer.
#[derive(Debug)]
pub(crate) enum RelayError {
    /// Sending or waiting failed (the agent's own error among them).
    Service(ServiceError),
    /// The request could not be sent at all.
    NotSent,
    /// The stop fired first; the agent was told the request is no longer wanted.
    Stopped(StopReason),
}

/// One agent request as the upstream side reaches it: its session, its progress token and
/// its request id (requests relayed for it ride its response stream).
#[async_trait::async_trait]
pub(crate) trait AgentLink: Send + Sync + 'static {
    /// Whether the agent's connection has closed.
    fn is_closed(&self) -> bool;

    /// The capabilities the agent declared when its session began, if it began one.
    fn capabilities(&self) -> Option<ClientCapabilities>;

    /// Whether the request asked for progress.
    fn wants_progress(&self) -> bool;

    /// Whether `other` reaches the agent over the same connection.
    fn same_connection(&self, other: &dyn AgentLink) -> bool;

    /// This link as [`Any`], for [`AgentLink::same_connection`] to compare like with like.
    fn as_any(&self) -> &dyn Any;

    /// Send the agent a notification.
    async fn notify(&self, note: AgentNote) -> Result<(), LinkError>;

    /// Send the agent `request` for its request and wait, at most `timeout`, for the answer,
    /// or until `stop` resolves (the agent is then told the request is withdrawn).
    async fn request(
        &self,
        request: ServerRequest,
        timeout: Duration,
        stop: Stop<'_>,
    ) -> Result<ClientResult, RelayError>;
}

/// The agent request an upstream request serves: where the upstream's progress
/// notifications go, and where its sampling and elicitation requests are relayed while it
/// runs.
#[derive(Clone)]
pub(crate) struct AgentCall {
    /// The agent's request.
    pub(crate) link: Arc<dyn AgentLink>,
    /// Which agent session made the call (the caller's scope).
    pub(crate) session: Arc<str>,
    /// Set when the agent speaks 2026-07-28, which has no server-to-client requests: an
    /// upstream's request is handed to the agent call as an input it must supply, and the
    /// call answers `input_required` (see `crate::server::input`).
    pub(crate) inputs: Option<Arc<AgentInputs>>,
}

impl AgentCall {
    /// Whether two calls come from the same agent session: same scope and the same
    /// connection. 2026-07-28 has no sessions (each HTTP request has a connection of its
    /// own): two such calls are one caller when their scope is the same.
    pub(crate) fn same_session(&self, other: &AgentCall) -> bool {
        if self.session != other.session {
            return false;
        }
        match (&self.inputs, &other.inputs) {
            (Some(_), Some(_)) => true,
            (None, None) => self.link.same_connection(other.link.as_ref()),
            _ => false,
        }
    }

    /// Send `params` to the agent under the agent's own token (for a 2026-07-28 call, the
    /// token of its latest round).
    pub(crate) async fn progress(&self, upstream: &str, params: ProgressNotificationParam) {
        let link = match &self.inputs {
            Some(inputs) => inputs.progress.lock().ok().and_then(|p| p.clone()),
            None => Some(self.link.clone()),
        };
        let Some(link) = link else { return };
        if let Err(e) = link.notify(AgentNote::Progress(params)).await {
            tracing::debug!(upstream, error = %e, "could not forward progress");
        }
    }
}

/// How a 2026-07-28 agent call takes an upstream's sampling and elicitation requests.
pub(crate) struct AgentInputs {
    /// Where the call hears of a request it must pass to the agent.
    pub(crate) asks: mpsc::Sender<InputAsk>,
    /// What the agent declared in the request's `_meta`.
    pub(crate) capabilities: Option<ClientCapabilities>,
    /// Where the call's progress goes: the latest round's request, since each retry is a
    /// request of its own, with a progress token of its own (or none).
    progress: StdMutex<Option<Arc<dyn AgentLink>>>,
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
    pub(crate) fn follow(&self, round: Arc<dyn AgentLink>) {
        if let Ok(mut progress) = self.progress.lock() {
            *progress = Some(round);
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
