//! Toward the agent: the rmcp `ServerHandler`, implemented by hand because the tool list
//! changes at run time. This module is the only one that knows rmcp's server handles: the
//! rest of the gateway reaches an agent through [`AgentLink`](crate::agent::AgentLink),
//! which `link` implements over a session's peer.
//!
//! Adding an MCP method means adding its handler here (converting the request and the
//! answer) and, if it reaches upstreams, a method of [`Gateway`] (in `gateway/passthrough.rs`
//! for requests passed through) and of `Upstream` (in `upstream/requests.rs`).
//!
//! Every method converts between MCP messages and [`Gateway`] calls and does nothing else:
//! `tools/call` becomes [`Gateway::call`], and its outcome becomes a `CallToolResult` whose
//! one text block is exactly what the model reads and whose `structuredContent` is the
//! envelope. For a 2026-07-28 agent (no session) a tool call, a prompt or a resource read
//! runs through `input`, which can answer `input_required` between rounds, and list
//! changes go to its `subscriptions/listen` (see `Listeners`). What is decided per client
//! when its session begins (whether results carry `structuredContent`) is decided in
//! `client`. Tool definitions advertise
//! the envelope's schema as `outputSchema` (or none: with `--no-output-schema`, or for a
//! client sent no `structuredContent`), never an upstream's, so clients that validate
//! structured content accept every result.

use std::borrow::Cow;
use std::sync::Arc;

#[expect(deprecated, reason = "logging/setLevel is answered for agents of the versions that have it")]
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult, ContentBlock,
    GetPromptRequestParams, GetPromptResponse, Implementation, InitializeRequestParams, InitializeResult,
    InputResponses, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, MetaObject,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ResultType,
    ServerCapabilities, ServerConfig, SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use toolshape_shape::Envelope;

pub(crate) mod client;
pub(crate) mod input;
pub(crate) mod link;

use self::client::ClientPolicy;
use self::input::{Finished, ParkedCalls, RequestKind, Resumed, Round, Running};
use self::link::{ListenLink, PeerLink};
use crate::agent::{AgentCall, AgentInputs, AgentLink, ListKind};
use crate::gateway::{Caller, Gateway, RequestError};

/// What the gateway tells a client it is for.
const INSTRUCTIONS: &str = "Every tool result is an envelope {status, summary, data, omitted, next} inside \
delimiters. When `next` is not null, call the tool it names with its arguments to read more.";

/// The MCP server an agent talks to: a cheap handle on a shared [`Gateway`].
#[derive(Clone)]
pub(crate) struct GatewayServer {
    gateway: Arc<Gateway>,
    /// Calls of 2026-07-28 agents waiting for the agent's input.
    parked: Arc<ParkedCalls>,
    /// The scope of a connection that has no session id (stdio): one per process.
    default_scope: Arc<str>,
}

impl GatewayServer {
    /// A server for `gateway`; connections without a session id share `default_scope`.
    pub(crate) fn new(gateway: Arc<Gateway>, default_scope: &str) -> GatewayServer {
        GatewayServer { gateway, parked: Arc::default(), default_scope: default_scope.into() }
    }

    /// Who is calling and what its cursors, handles and found tools are bound to.
    ///
    /// An authenticated HTTP request (see [`crate::auth`]) is scoped to its principal and
    /// session, `principal:NAME/session:ID` (`principal:NAME` for a request without a session,
    /// the stateless protocol), and sees its principal's profile. Without authentication the
    /// scope is the HTTP session id; requests without one (stdio, or stateless HTTP without
    /// auth) share the connection's default scope, where cursors and handles are protected
    /// only by being unguessable, which is why a non-loopback address requires principals.
    fn caller(&self, context: &RequestContext<RoleServer>) -> Caller {
        let parts = context.extensions.get::<axum::http::request::Parts>();
        let session =
            parts.and_then(|p| p.headers.get("mcp-session-id")).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let principal = parts.and_then(|p| p.extensions.get::<crate::auth::Authenticated>());
        let scope = match (principal, &session) {
            (Some(p), Some(s)) => format!("principal:{}/session:{s}", p.name),
            (Some(p), None) => format!("principal:{}", p.name),
            (None, Some(s)) => s.clone(),
            (None, None) => {
                if parts.is_some() {
                    // Over HTTP only 2026-07-28 requests (no session) get here; say once
                    // that such callers are not told apart.
                    static WARNED: std::sync::Once = std::sync::Once::new();
                    WARNED.call_once(|| {
                        tracing::warn!(
                            "an HTTP request without a session or principal: such callers share one scope; \
                             configure `auth.principals` to keep their cursors apart"
                        );
                    });
                }
                self.default_scope.to_string()
            }
        };
        let mut caller = Caller::local(&scope);
        caller.session = session;
        if let Some(p) = principal {
            caller.principal = Some(p.name.to_string());
            caller.profile = p.profile.as_deref().map(str::to_owned);
        }
        caller.cancel = context.ct.clone();
        // Every call carries its agent session, not only calls that asked for progress: an
        // upstream's sampling and elicitation requests are relayed to it.
        caller.agent = Some(AgentCall {
            link: PeerLink::request(context.peer.clone(), context.meta.get_progress_token(), context.id.clone()),
            session: caller.scope.as_str().into(),
            inputs: None,
        });
        caller
    }

    /// How the client behind `context` is served (see [`client`]).
    fn policy(&self, context: &RequestContext<RoleServer>) -> ClientPolicy {
        ClientPolicy::of(context.client_info().as_ref(), &self.gateway.clients_config())
    }

    fn tool(&self, def: toolshape_mask::ToolDefinition, policy: ClientPolicy) -> Tool {
        let schema = match def.input_schema {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        let mut tool = Tool::new(def.name, def.description, Arc::new(schema));
        // An upstream's behaviour hints (or what a mask can claim of its handlers).
        tool.annotations = def.annotations.and_then(|a| serde_json::from_value(a).ok());
        // A tool with an output schema must answer with structured content.
        if self.gateway.options().output_schema
            && policy.structured_content
            && let Value::Object(out) = Envelope::json_schema()
        {
            tool = tool.with_raw_output_schema(Arc::new(out));
        }
        tool
    }

    /// Run `work` (a `tools/call`, `prompts/get` or `resources/read`) for the caller. An agent
    /// with a session takes upstream requests as requests of its own, so `work` runs at once.
    /// For a 2026-07-28 agent the first round starts `work` on a task of its own; a retry
    /// carrying `requestState` resumes the parked call with the agent's answers. Either way
    /// the call runs until it finishes or an upstream asks for input (see [`input`]).
    async fn run<Work>(
        &self,
        kind: RequestKind,
        retry: (Option<String>, Option<InputResponses>),
        caller: &mut Caller,
        context: &RequestContext<RoleServer>,
        work: impl FnOnce(Arc<Gateway>, Caller) -> Work,
    ) -> Round
    where
        Work: Future<Output = Finished> + Send + 'static,
    {
        if has_session(context) {
            return Round::Done(work(self.gateway.clone(), caller.clone()).await);
        }
        let (state, responses) = retry;
        let running = match state.as_deref() {
            Some(state) => match self.parked.resume(state, &caller.scope, kind, responses) {
                Ok(Resumed::Call(running)) => {
                    running.inputs.follow(round(context));
                    running
                }
                Ok(Resumed::AskedAgain(asked)) => return Round::NeedsInput(asked),
                Err(error) => return Round::Failed(error),
            },
            None => {
                let (asks, asked) = mpsc::channel(8);
                let capabilities = context.client_capabilities();
                let inputs = Arc::new(AgentInputs::new(asks, capabilities));
                inputs.follow(round(context));
                if let Some(agent) = caller.agent.as_mut() {
                    agent.inputs = Some(inputs.clone());
                }
                // The call outlives this round, so it has a cancellation of its own.
                let cancel = CancellationToken::new();
                caller.cancel = cancel.clone();
                let task = tokio::spawn(work(self.gateway.clone(), caller.clone()));
                Running { kind, task, asks: asked, cancel, inputs }
            }
        };
        self.parked.drive(running, &caller.scope, context.ct.clone()).await
    }
}

/// The agent request of one round of a 2026-07-28 call, where its progress goes.
fn round(context: &RequestContext<RoleServer>) -> Arc<dyn AgentLink> {
    PeerLink::request(context.peer.clone(), context.meta.get_progress_token(), context.id.clone())
}

/// Whether the request belongs to a session that began with `initialize`; 2026-07-28
/// requests stand alone and hear of changes only through `subscriptions/listen`.
fn has_session(context: &RequestContext<RoleServer>) -> bool {
    context.protocol_version().is_none_or(|v| v.has_initialize())
}

fn internal(message: String) -> ErrorData {
    ErrorData::internal_error(message, None)
}

impl ServerHandler for GatewayServer {
    #[expect(deprecated, reason = "logging is offered to agents of the versions that have it")]
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_completions()
            .enable_prompts()
            .enable_logging()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_prompts_list_changed()
            .enable_resources_list_changed()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("toolshape", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        // Every version rmcp knows: sessions that begin with `initialize` are told of list
        // changes on their connection, 2026-07-28 agents on `subscriptions/listen`.
        Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS)
    }

    fn accepted_subscription_filter(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        // The three lists. Per-resource updates are offered to sessions (`resources/subscribe`),
        // not on these streams.
        let lists = SubscriptionFilter::builder().tools_list_changed().prompts_list_changed().resources_list_changed();
        Some(requested.intersection(&lists.build()))
    }

    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), ErrorData> {
        let caller = self.caller(subscription.request_context());
        let link = ListenLink::new(subscription.sink().clone());
        let lists = link.lists();
        let _open = self.gateway.listeners().subscribe(link, lists, caller.scope.as_str());
        subscription.cancelled().await;
        Ok(())
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        self.gateway.listeners().add_session(PeerLink::session(context.peer.clone()));
        self.negotiate_initialize(&request)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let caller = self.caller(&context);
        let policy = self.policy(&context);
        let tools = self
            .gateway
            .list_tools(&caller)
            .await
            .into_iter()
            .map(|d| {
                let keep = policy.always_load_meta && self.gateway.stays_loaded(&d.name);
                let mut tool = self.tool(d, policy);
                if keep {
                    let mut meta = Map::new();
                    meta.insert(client::ALWAYS_LOAD_KEY.to_owned(), Value::Bool(true));
                    tool.meta = Some(MetaObject(meta));
                }
                tool
            })
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut caller = self.caller(&context);
        let modern = !has_session(&context);
        let outcome = if modern {
            let retry = (request.request_state, request.input_responses);
            let (name, arguments) = (request.name, request.arguments);
            let work = |gateway: Arc<Gateway>, caller: Caller| async move {
                Finished::Tool(gateway.call(&name, arguments, &caller).await)
            };
            match self.run(RequestKind::ToolCall, retry, &mut caller, &context, work).await {
                Round::Done(Finished::Tool(outcome)) => outcome,
                Round::Done(_) => return Err(internal("a tool call finished as another kind of request".into())),
                Round::NeedsInput(asked) => return Ok(asked.into()),
                Round::Failed(error) => return Err(error),
            }
        } else {
            self.gateway.call(&request.name, request.arguments, &caller).await
        };
        if outcome.tools_changed {
            // Only this caller's list changed; the client lists again and sees the tools
            // its search found. Clients that ignore it use the generic call tool.
            let gateway = self.gateway.clone();
            let session: Option<Arc<dyn AgentLink>> = (!modern).then(|| PeerLink::session(context.peer.clone()) as _);
            let scope = caller.scope.clone();
            tokio::spawn(async move {
                gateway.listeners().notify_caller(session.as_deref(), &scope, ListKind::Tools).await;
            });
        }
        let policy = self.policy(&context);
        // The envelope first, then the media it lists, in the upstream's order.
        let mut content = Vec::with_capacity(1 + outcome.media.len());
        content.push(ContentBlock::text(outcome.text));
        content.extend(outcome.media);
        let mut result = CallToolResult::success(content);
        if policy.structured_content {
            result.structured_content = Some(serde_json::to_value(&outcome.envelope).unwrap_or(Value::Null));
        }
        result.is_error = Some(outcome.envelope.status == toolshape_shape::Status::Error);
        Ok(result.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(self.gateway.list_prompts().await))
    }

    async fn get_prompt(
        &self,
        mut request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let mut caller = self.caller(&context);
        // The retry's fields are toolshape's to read; the upstream is asked the request itself.
        let retry = (request.request_state.take(), request.input_responses.take());
        let work = |gateway: Arc<Gateway>, caller: Caller| async move {
            let prompt = gateway.get_prompt(request, &caller).await;
            Finished::Prompt(prompt.map_err(|e| ErrorData::invalid_params(e.to_string(), None)))
        };
        let mut prompt = match self.run(RequestKind::Prompt, retry, &mut caller, &context, work).await {
            Round::Done(Finished::Prompt(prompt)) => prompt?,
            Round::Done(_) => return Err(internal("a prompt request finished as another kind of request".into())),
            Round::NeedsInput(asked) => return Ok(asked.into()),
            Round::Failed(error) => return Err(error),
        };
        // Upstreams are spoken to with a handshake version, whose results carry no type;
        // 2026-07-28 requires one.
        prompt.result_type.get_or_insert(ResultType::COMPLETE);
        Ok(prompt.into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let caller = self.caller(&context);
        let mut completed = self
            .gateway
            .complete(request, &caller)
            .await
            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        completed.result_type.get_or_insert(ResultType::COMPLETE);
        Ok(completed)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(self.gateway.list_resources().await.0))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(self.gateway.list_resources().await.1))
    }

    async fn read_resource(
        &self,
        mut request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let mut caller = self.caller(&context);
        let retry = (request.request_state.take(), request.input_responses.take());
        let work = |gateway: Arc<Gateway>, caller: Caller| async move {
            let read = gateway.read_resource(request, &caller).await.map_err(|e: RequestError| {
                if e.is_not_found() {
                    ErrorData::resource_not_found(e.to_string(), None)
                } else {
                    internal(e.to_string())
                }
            });
            Finished::Resource(read)
        };
        let mut read = match self.run(RequestKind::Resource, retry, &mut caller, &context, work).await {
            Round::Done(Finished::Resource(read)) => read?,
            Round::Done(_) => return Err(internal("a resource request finished as another kind of request".into())),
            Round::NeedsInput(asked) => return Ok(asked.into()),
            Round::Failed(error) => return Err(error),
        };
        read.result_type.get_or_insert(ResultType::COMPLETE);
        Ok(read.into())
    }

    #[expect(deprecated, reason = "logging/setLevel is answered for agents of the versions that have it")]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let caller = self.caller(&context);
        self.gateway.set_log_level(request.level, &caller).await;
        Ok(())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let caller = self.caller(&context);
        self.gateway.subscribe(&request.uri, &caller).await.map_err(|e| ErrorData::invalid_params(e.to_string(), None))
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let caller = self.caller(&context);
        self.gateway.unsubscribe(&request.uri, &caller).await.map_err(|e| internal(e.to_string()))
    }
}
