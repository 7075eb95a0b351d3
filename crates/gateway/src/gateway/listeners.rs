//! The agents to tell when the tool, prompt or resource list changes.
//!
//! Two kinds of agent listen. A session that began with `initialize` (protocol versions before
//! 2026-07-28) is told on its own connection, of every list. A 2026-07-28 agent has no
//! session: it opens a `subscriptions/listen` request, names the lists it cares about, and
//! is told on that request's stream, only of those.
//!
//! A change that concerns one caller only (tools its search activated) goes to that caller:
//! its session, or the subscriptions whose scope is the caller's (`Listeners::notify_caller`).

use std::sync::Arc;
use std::sync::Mutex as StdMutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::agent::{AgentLink, AgentNote, ListKind};

/// One open `subscriptions/listen` request.
struct Subscription {
    id: u64,
    link: Arc<dyn AgentLink>,
    /// The lists it asked for.
    lists: Vec<ListKind>,
    /// The caller scope of the request that opened it (see `GatewayServer::caller`).
    scope: String,
}

/// Everyone listening for list changes.
#[derive(Default)]
pub(crate) struct Listeners {
    sessions: StdMutex<Vec<Arc<dyn AgentLink>>>,
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
    pub(crate) fn add_session(&self, session: Arc<dyn AgentLink>) {
        if let Ok(mut p) = self.sessions.lock() {
            p.retain(|x| !x.is_closed());
            p.push(session);
        }
    }

    /// Tell `link` of changes to `lists` for as long as the returned guard lives.
    pub(crate) fn subscribe(
        &self,
        link: Arc<dyn AgentLink>,
        lists: Vec<ListKind>,
        scope: &str,
    ) -> SubscriptionGuard<'_> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut subs) = self.subscriptions.lock() {
            subs.push(Subscription { id, link, lists, scope: scope.to_owned() });
        }
        SubscriptionGuard { listeners: self, id }
    }

    /// Tell every session, and every subscription that asked for `kind`.
    pub(crate) async fn notify_all(&self, kind: ListKind) {
        let sessions = match self.sessions.lock() {
            Ok(mut p) => {
                p.retain(|x| !x.is_closed());
                p.clone()
            }
            Err(_) => Vec::new(),
        };
        for session in sessions {
            notify(session.as_ref(), kind).await;
        }
        self.notify_subscriptions(kind, None).await;
    }

    /// Tell one caller only: its session when it has one (`session`), otherwise the
    /// subscriptions opened in its `scope` that asked for `kind`.
    pub(crate) async fn notify_caller(&self, session: Option<&dyn AgentLink>, scope: &str, kind: ListKind) {
        match session {
            Some(session) => notify(session, kind).await,
            None => self.notify_subscriptions(kind, Some(scope)).await,
        }
    }

    async fn notify_subscriptions(&self, kind: ListKind, scope: Option<&str>) {
        let links: Vec<Arc<dyn AgentLink>> = match self.subscriptions.lock() {
            Ok(subs) => subs
                .iter()
                .filter(|s| s.lists.contains(&kind) && scope.is_none_or(|sc| sc == s.scope))
                .map(|s| s.link.clone())
                .collect(),
            Err(_) => Vec::new(),
        };
        for link in links {
            if let Err(e) = link.notify(AgentNote::ListChanged(kind)).await {
                tracing::debug!(error = %e, ?kind, "could not tell a subscription of a list change");
            }
        }
    }
}

async fn notify(session: &dyn AgentLink, kind: ListKind) {
    if let Err(e) = session.notify(AgentNote::ListChanged(kind)).await {
        tracing::debug!(error = %e, ?kind, "could not tell an agent session of a list change");
    }
}
