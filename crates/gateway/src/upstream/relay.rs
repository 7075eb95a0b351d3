//! The rmcp client handler for one upstream: what the upstream sends on its own.
//!
//! List changes and resource updates become [`UpstreamEvent`]s for the gateway; progress
//! goes to the agent call it belongs to; log messages go to toolshape's log and to the agent
//! session whose call they came during; sampling and elicitation requests are relayed to the
//! agent whose call caused them (see `inflight` for how a message is attributed to a call),
//! through the call's [`AgentLink`](crate::agent::AgentLink), or, for a 2026-07-28 agent, as
//! an input its call asks for.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    ClientCapabilities, ClientConfig, ClientResult, ElicitRequest, ElicitRequestParams, ElicitResult,
    ElicitationCapability, ErrorCode, FormElicitationCapability, Implementation, InputRequest,
    ProgressNotificationParam, ProtocolVersion, RequestId, ResourceUpdatedNotificationParam, SamplingCapability,
    ServerRequest, UrlElicitationCapability,
};
// Sampling is deprecated by the newest protocol (SEP-2577), but the versions with an
// `initialize` handshake that toolshape speaks to upstreams still have it.
#[expect(deprecated, reason = "upstream log messages are kept in toolshape's log and passed to sessions that ask")]
use rmcp::model::LoggingMessageNotificationParam;
#[expect(deprecated, reason = "sampling is relayed for the protocol versions that still have it")]
use rmcp::model::{CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult};
use rmcp::service::{InboundStreamOrigin, NotificationContext, RequestContext};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceError};
use tokio::sync::oneshot;

use super::UpstreamEvent;
use super::inflight::{Attribution, InFlightCall, Shared};
use super::logs::log_message;
use crate::agent::{AgentInputs, AgentNote, InputAsk, RelayError, StopReason};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Relayed {
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
    pub(super) fn unsupported_by(self, caps: &ClientCapabilities) -> Option<&'static str> {
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
pub(super) struct Client {
    shared: Arc<Shared>,
}

impl Client {
    /// The handler of the upstream whose state is `shared`.
    pub(super) fn new(shared: Arc<Shared>) -> Client {
        Client { shared }
    }

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
        if let Err(e) = call.agent.link.notify(AgentNote::Log(params)).await {
            tracing::debug!(upstream = %name, error = %e, "could not pass a log message to the agent");
        }
    }

    /// Relay `request` to the agent session of the call in flight that caused it, bounded by
    /// the upstream's time-out, and return the agent's answer.
    async fn relay(
        &self,
        request: ServerRequest,
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
            None => call.agent.link.capabilities(),
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
        let timeout = self.shared.timeout;
        let stop = Box::pin(async {
            tokio::select! {
                () = call.ended.cancelled() => StopReason::CallEnded,
                () = ctx.ct.cancelled() => StopReason::CancelledUpstream,
            }
        });
        call.agent.link.request(request, timeout, stop).await.map_err(|e| match e {
            RelayError::Service(e) => relay_error(what, e, timeout),
            RelayError::NotSent => {
                ErrorData::internal_error(format!("toolshape could not relay the {what} request"), None)
            }
            RelayError::Stopped(StopReason::CallEnded) => ErrorData::internal_error(
                format!("the tool call ended before the agent answered the {what} request"),
                None,
            ),
            RelayError::Stopped(StopReason::CancelledUpstream) => {
                ErrorData::internal_error(format!("the {what} request was cancelled"), None)
            }
        })
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
        if let Some((call, params)) = self.shared.route(params) {
            call.progress(&self.shared.name, params).await;
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
pub(super) fn relayed_capabilities() -> ClientCapabilities {
    let mut capabilities = ClientCapabilities::default();
    capabilities.sampling = Some(SamplingCapability::default());
    capabilities.elicitation = Some(
        ElicitationCapability::new()
            .with_form(FormElicitationCapability::new())
            .with_url(UrlElicitationCapability::new()),
    );
    capabilities
}
