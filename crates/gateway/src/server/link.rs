//! [`AgentLink`] over rmcp's server handles: an agent request (or a whole session) reached
//! through its peer, and a 2026-07-28 `subscriptions/listen` stream.

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CancelledNotificationParam, ClientCapabilities, ClientResult, GetExtensions, ProgressToken,
    PromptListChangedNotification, RequestId, ResourceListChangedNotification, ResourceUpdatedNotificationParam,
    ServerNotification, ServerRequest, ToolListChangedNotification,
};
use rmcp::service::{OriginatingRequestId, PeerRequestOptions, SubscriptionSink};
use rmcp::{Peer, RoleServer};

use crate::agent::{AgentLink, AgentNote, LinkError, ListKind, RelayError, Stop};

/// An agent session's peer, as the request `request_id` (with its progress token) reaches
/// it; a session as a whole has no request.
pub(crate) struct PeerLink {
    peer: Peer<RoleServer>,
    token: Option<ProgressToken>,
    request_id: Option<RequestId>,
}

impl PeerLink {
    /// The agent request `request_id` of the session at `peer`, which asked for progress
    /// under `token` (or not at all).
    pub(crate) fn request(
        peer: Peer<RoleServer>,
        token: Option<ProgressToken>,
        request_id: RequestId,
    ) -> Arc<PeerLink> {
        Arc::new(PeerLink { peer, token, request_id: Some(request_id) })
    }

    /// The agent request this link is for, if it is for one.
    #[cfg(test)]
    pub(crate) fn request_id(&self) -> Option<&RequestId> {
        self.request_id.as_ref()
    }

    /// The session at `peer`, for notifications outside any request.
    pub(crate) fn session(peer: Peer<RoleServer>) -> Arc<PeerLink> {
        Arc::new(PeerLink { peer, token: None, request_id: None })
    }
}

#[async_trait::async_trait]
impl AgentLink for PeerLink {
    fn is_closed(&self) -> bool {
        self.peer.is_transport_closed()
    }

    fn capabilities(&self) -> Option<ClientCapabilities> {
        self.peer.peer_info().map(|info| info.capabilities.clone())
    }

    fn wants_progress(&self) -> bool {
        self.token.is_some()
    }

    fn same_connection(&self, other: &dyn AgentLink) -> bool {
        let Some(other) = other.as_any().downcast_ref::<PeerLink>() else { return false };
        match (self.peer.peer_info(), other.peer.peer_info()) {
            (Some(a), Some(b)) => Arc::ptr_eq(&a, &b),
            (None, None) => true,
            _ => false,
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    #[expect(deprecated, reason = "upstream log messages are passed to sessions of the versions that have logging")]
    async fn notify(&self, note: AgentNote) -> Result<(), LinkError> {
        match note {
            AgentNote::ListChanged(kind) => self.peer.send_notification(list_changed(kind)).await?,
            AgentNote::ResourceUpdated(uri) => {
                self.peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri)).await?
            }
            AgentNote::Progress(mut params) => {
                let Some(token) = self.token.clone() else { return Ok(()) };
                params.progress_token = token;
                self.peer.notify_progress(params).await?
            }
            AgentNote::Log(params) => self.peer.notify_logging_message(params).await?,
        }
        Ok(())
    }

    async fn request(
        &self,
        mut request: ServerRequest,
        timeout: Duration,
        stop: Stop<'_>,
    ) -> Result<ClientResult, RelayError> {
        // Ride the agent request's own response stream (Streamable HTTP), not the stream of
        // whatever request rmcp thinks is current.
        if let Some(id) = &self.request_id {
            request.extensions_mut().insert(OriginatingRequestId(id.clone()));
        }
        let peer = self.peer.clone();
        // Sent from a task of its own: rmcp tags a request sent from inside a handler with
        // that handler's request id, which is the upstream's and means nothing to the agent.
        let sent = tokio::spawn(async move {
            peer.send_request_with_option(request, PeerRequestOptions::with_timeout(timeout)).await
        })
        .await;
        let handle = match sent {
            Ok(Ok(handle)) => handle,
            Ok(Err(e)) => return Err(RelayError::Service(e)),
            Err(_) => return Err(RelayError::NotSent),
        };
        let (agent, id) = (handle.peer.clone(), handle.id.clone());
        tokio::select! {
            answer = handle.await_response() => answer.map_err(RelayError::Service),
            reason = stop => {
                withdraw(agent, id, reason.as_str());
                Err(RelayError::Stopped(reason))
            }
        }
    }
}

/// Tell the agent a relayed request is no longer wanted.
fn withdraw(agent: Peer<RoleServer>, id: RequestId, reason: &str) {
    let params = CancelledNotificationParam::new(Some(id), Some(reason.to_owned()));
    tokio::spawn(async move {
        let _ = agent.notify_cancelled(params).await;
    });
}

/// A `subscriptions/listen` request's stream: it carries the list changes it asked for and
/// nothing else.
pub(crate) struct ListenLink {
    sink: SubscriptionSink,
}

impl ListenLink {
    /// The stream of `sink`.
    pub(crate) fn new(sink: SubscriptionSink) -> Arc<ListenLink> {
        Arc::new(ListenLink { sink })
    }

    /// The lists the subscription asked for.
    pub(crate) fn lists(&self) -> Vec<ListKind> {
        let filter = self.sink.accepted();
        [
            (ListKind::Tools, filter.tools_list_changed),
            (ListKind::Prompts, filter.prompts_list_changed),
            (ListKind::Resources, filter.resources_list_changed),
        ]
        .into_iter()
        .filter(|(_, asked)| *asked == Some(true))
        .map(|(kind, _)| kind)
        .collect()
    }
}

#[async_trait::async_trait]
impl AgentLink for ListenLink {
    fn is_closed(&self) -> bool {
        // The subscription is forgotten when its request ends (see `Listeners::subscribe`).
        false
    }

    fn capabilities(&self) -> Option<ClientCapabilities> {
        None
    }

    fn wants_progress(&self) -> bool {
        false
    }

    fn same_connection(&self, _other: &dyn AgentLink) -> bool {
        false
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    async fn notify(&self, note: AgentNote) -> Result<(), LinkError> {
        match note {
            AgentNote::ListChanged(kind) => Ok(self.sink.send(list_changed(kind)).await?),
            // Per-resource updates, progress and log messages are not offered on these streams.
            AgentNote::ResourceUpdated(_) | AgentNote::Progress(_) | AgentNote::Log(_) => Ok(()),
        }
    }

    async fn request(
        &self,
        _request: ServerRequest,
        _timeout: Duration,
        _stop: Stop<'_>,
    ) -> Result<ClientResult, RelayError> {
        Err(RelayError::NotSent)
    }
}

/// The notification for a change of `kind`.
fn list_changed(kind: ListKind) -> ServerNotification {
    match kind {
        ListKind::Tools => ServerNotification::ToolListChangedNotification(ToolListChangedNotification::default()),
        ListKind::Prompts => {
            ServerNotification::PromptListChangedNotification(PromptListChangedNotification::default())
        }
        ListKind::Resources => {
            ServerNotification::ResourceListChangedNotification(ResourceListChangedNotification::default())
        }
    }
}
