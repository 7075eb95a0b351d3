//! The agents to tell when the tool, prompt or resource list changes.
//!
//! Two kinds of agent listen. A session that began with `initialize` (protocol versions before
//! 2026-07-28) is told on its own connection, of every list. A 2026-07-28 agent has no
//! session: it opens a `subscriptions/listen` request, names the lists it cares about, and
//! is told on that request's stream, only of those.
//!
//! A change that concerns one caller only (tools its search activated) goes to that caller:
//! its session, or the subscriptions whose scope is the caller's (`Listeners::notify_caller`).

use std::sync::Mutex as StdMutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rmcp::model::{
    PromptListChangedNotification, ResourceListChangedNotification, ServerNotification, ToolListChangedNotification,
};
use rmcp::service::SubscriptionSink;
use rmcp::{Peer, RoleServer};

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

impl ListKind {
    fn notification(self) -> ServerNotification {
        match self {
            ListKind::Tools => ServerNotification::ToolListChangedNotification(ToolListChangedNotification::default()),
            ListKind::Prompts => {
                ServerNotification::PromptListChangedNotification(PromptListChangedNotification::default())
            }
            ListKind::Resources => {
                ServerNotification::ResourceListChangedNotification(ResourceListChangedNotification::default())
            }
        }
    }

    /// Whether a subscription asked for this list.
    fn wanted_by(self, sink: &SubscriptionSink) -> bool {
        let filter = sink.accepted();
        let asked = match self {
            ListKind::Tools => filter.tools_list_changed,
            ListKind::Prompts => filter.prompts_list_changed,
            ListKind::Resources => filter.resources_list_changed,
        };
        asked == Some(true)
    }
}

/// One open `subscriptions/listen` request.
struct Subscription {
    id: u64,
    sink: SubscriptionSink,
    /// The caller scope of the request that opened it (see `GatewayServer::caller`).
    scope: String,
}

/// Everyone listening for list changes.
#[derive(Default)]
pub(crate) struct Listeners {
    sessions: StdMutex<Vec<Peer<RoleServer>>>,
    subscriptions: StdMutex<Vec<Subscription>>,
    next_id: AtomicU64,
}

/// What [`Listeners::subscribe`] returns: the subscription ends when this is dropped.
pub(crate) struct SubscriptionGuard<'a> {
    listeners: &'a Listeners,
    id: u64,
}

impl Drop for SubscriptionGuard<'_> {
    fn drop(&mut self) {
        if let Ok(mut subs) = self.listeners.subscriptions.lock() {
            subs.retain(|s| s.id != self.id);
        }
    }
}

impl Listeners {
    /// Remember a session's connection until it closes.
    pub(crate) fn add_session(&self, peer: Peer<RoleServer>) {
        if let Ok(mut p) = self.sessions.lock() {
            p.retain(|x| !x.is_transport_closed());
            p.push(peer);
        }
    }

    /// Tell `sink` of changes for as long as the returned guard lives.
    pub(crate) fn subscribe(&self, sink: SubscriptionSink, scope: &str) -> SubscriptionGuard<'_> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut subs) = self.subscriptions.lock() {
            subs.push(Subscription { id, sink, scope: scope.to_owned() });
        }
        SubscriptionGuard { listeners: self, id }
    }

    /// Tell every session, and every subscription that asked for `kind`.
    pub(crate) async fn notify_all(&self, kind: ListKind) {
        let sessions = match self.sessions.lock() {
            Ok(mut p) => {
                p.retain(|x| !x.is_transport_closed());
                p.clone()
            }
            Err(_) => Vec::new(),
        };
        for peer in sessions {
            notify_session(&peer, kind).await;
        }
        self.notify_subscriptions(kind, None).await;
    }

    /// Tell one caller only: its session when it has one (`session`), otherwise the
    /// subscriptions opened in its `scope` that asked for `kind`.
    pub(crate) async fn notify_caller(&self, session: Option<&Peer<RoleServer>>, scope: &str, kind: ListKind) {
        match session {
            Some(peer) => notify_session(peer, kind).await,
            None => self.notify_subscriptions(kind, Some(scope)).await,
        }
    }

    async fn notify_subscriptions(&self, kind: ListKind, scope: Option<&str>) {
        let sinks: Vec<SubscriptionSink> = match self.subscriptions.lock() {
            Ok(subs) => subs
                .iter()
                .filter(|s| kind.wanted_by(&s.sink) && scope.is_none_or(|sc| sc == s.scope))
                .map(|s| s.sink.clone())
                .collect(),
            Err(_) => Vec::new(),
        };
        for sink in sinks {
            if let Err(e) = sink.send(kind.notification()).await {
                tracing::debug!(error = %e, ?kind, "could not tell a subscription of a list change");
            }
        }
    }
}

async fn notify_session(peer: &Peer<RoleServer>, kind: ListKind) {
    if let Err(e) = peer.send_notification(kind.notification()).await {
        tracing::debug!(error = %e, ?kind, "could not tell an agent session of a list change");
    }
}
