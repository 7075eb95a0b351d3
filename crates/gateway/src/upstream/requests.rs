//! The requests toolshape sends an upstream, each bounded by the upstream's time-out and
//! cancelled upstream when the agent gives up: `tools/call` (which also waits for a
//! concurrency slot and explains a time-out by the garbage the child wrote), the lists,
//! `prompts/get`, `resources/read`, `completion/complete`, resource subscriptions and
//! `logging/setLevel`. A request made for an agent's request is *in flight* while it runs
//! (see `inflight`): the upstream's progress and its sampling and elicitation requests reach
//! that agent.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Instant;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientRequest, CompleteRequest,
    CompleteRequestParams, CompleteResult, ErrorCode, GetPromptRequest, GetPromptRequestParams, GetPromptResult,
    ProgressToken, Prompt, ReadResourceRequest, ReadResourceRequestParams, ReadResourceResult, RequestId, Resource,
    ResourceContents, ResourceTemplate, ServerResult, SubscribeRequestParams, Tool, UnsubscribeRequestParams,
};
#[expect(deprecated, reason = "the protocol versions toolshape speaks to upstreams still have logging")]
use rmcp::model::{LoggingLevel, SetLevelRequestParams};
use rmcp::service::PeerRequestOptions;
use rmcp::{Peer, RoleClient, ServiceError};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;
use toolshape_shape::Failure;

use super::child::ChildWatch;
use super::content::{Reply, reduce};
use super::failure::result_kind;
use super::inflight::Shared;
use super::{Conn, Upstream, ms};
use crate::agent::AgentCall;

impl Upstream {
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
        agent: Option<AgentCall>,
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
        agent: Option<AgentCall>,
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
    pub(super) fn ask_log_level(&self, conn: &Conn, level: LoggingLevel) {
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
        agent: Option<AgentCall>,
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
        agent: Option<AgentCall>,
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
                    reduce(result, &self.name, self.spec.max_response_bytes)
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
        agent: Option<AgentCall>,
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
        agent: Option<AgentCall>,
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
        if let Some(sink) = agent.filter(|a| a.link.wants_progress()) {
            let early = self.shared.register(handle.progress_token.clone(), sink.clone());
            guard.token = Some(handle.progress_token.clone());
            for p in early {
                sink.progress(&self.name, p).await;
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

    /// The failure for an answer of another kind than the request asked for.
    fn unexpected(&self, expected: &str, got: &ServerResult) -> Failure {
        Failure::InvalidResponse {
            upstream: self.name.clone(),
            detail: format!("expected {expected}, got {}", result_kind(got)),
        }
    }
}

/// Sends `notifications/cancelled` upstream unless disarmed (the call finished), and always
/// stops forwarding the call's progress.
struct CancelGuard<'a> {
    peer: Option<Peer<RoleClient>>,
    id: Option<RequestId>,
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
