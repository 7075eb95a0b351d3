//! Toward the agent: the rmcp `ServerHandler`, implemented by hand because the tool list
//! changes at run time.
//!
//! Every method converts between MCP messages and [`Gateway`] calls and does nothing else:
//! `tools/call` becomes [`Gateway::call`], and its outcome becomes a `CallToolResult` whose
//! one text block is exactly what the model reads and whose `structuredContent` is the
//! envelope. Tool definitions advertise the envelope's schema as `outputSchema` (or none),
//! never an upstream's, so clients that validate structured content accept every result.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResponse,
    Implementation, InitializeRequestParams, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value};
use toolshape_shape::Envelope;

use crate::gateway::{Caller, Gateway, ResourceError};
use crate::upstream::ProgressSink;

/// What the gateway tells a client it is for.
const INSTRUCTIONS: &str = "Every tool result is an envelope {status, summary, data, omitted, next} inside \
delimiters. When `next` is not null, call the tool it names with its arguments to read more.";

/// The MCP server an agent talks to: a cheap handle on a shared [`Gateway`].
#[derive(Clone)]
pub struct GatewayServer {
    gateway: Arc<Gateway>,
    /// The scope of a connection that has no session id (stdio): one per process.
    default_scope: Arc<str>,
}

impl GatewayServer {
    /// A server for `gateway`; connections without a session id share `default_scope`.
    pub fn new(gateway: Arc<Gateway>, default_scope: &str) -> GatewayServer {
        GatewayServer { gateway, default_scope: default_scope.into() }
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
                    // Today only stateless protocol versions (not served yet) get here over
                    // HTTP; say once that such callers are not told apart.
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
        caller.progress = Some(ProgressSink {
            peer: context.peer.clone(),
            token: context.meta.get_progress_token(),
            request_id: context.id.clone(),
            session: caller.scope.as_str().into(),
        });
        caller
    }

    fn tool(&self, def: toolshape_mask::ToolDefinition) -> Tool {
        let schema = match def.input_schema {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        let mut tool = Tool::new(def.name, def.description, Arc::new(schema));
        if self.gateway.options().output_schema
            && let Value::Object(out) = Envelope::json_schema()
        {
            tool = tool.with_raw_output_schema(Arc::new(out));
        }
        tool
    }
}

fn internal(message: String) -> ErrorData {
    ErrorData::internal_error(message, None)
}

impl ServerHandler for GatewayServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_prompts()
            .enable_resources()
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
        // Versions with an `initialize` handshake: list-changed notifications go to the
        // session's peer. 2026-07-28 (subscriptions) is not served yet.
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::LATEST_WITH_INITIALIZE))
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        self.gateway.register_peer(context.peer.clone());
        self.negotiate_initialize(&request)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let caller = self.caller(&context);
        let tools = self.gateway.list_tools(&caller).await.into_iter().map(|d| self.tool(d)).collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let caller = self.caller(&context);
        let outcome = self.gateway.call(&request.name, request.arguments, &caller).await;
        if outcome.tools_changed {
            // Only this session's list changed; the client lists again and sees the tools
            // its search found. Clients that ignore it use the generic call tool.
            let peer = context.peer.clone();
            tokio::spawn(async move {
                if let Err(e) = peer.notify_tool_list_changed().await {
                    tracing::debug!(error = %e, "could not notify the agent of its new tools");
                }
            });
        }
        let mut result = CallToolResult::success(vec![ContentBlock::text(outcome.text)]);
        result.structured_content = Some(serde_json::to_value(&outcome.envelope).unwrap_or(Value::Null));
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
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.gateway.get_prompt(request).await.map(Into::into).map_err(|m| ErrorData::invalid_params(m, None))
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
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.gateway.read_resource(request).await.map(Into::into).map_err(|e| match e {
            ResourceError::NotFound(message) => ErrorData::resource_not_found(message, None),
            ResourceError::Upstream(message) => internal(message),
        })
    }
}
