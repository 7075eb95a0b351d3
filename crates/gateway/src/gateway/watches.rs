//! Resource subscriptions (`resources/subscribe`): which agent sessions watch which resource
//! of which upstream.
//!
//! An upstream connection is shared by every session, so the upstream is subscribed once per
//! resource, when the first session subscribes, and unsubscribed when the last one leaves. Its
//! `notifications/resources/updated` goes to the sessions watching that resource only, never
//! to the others. A session that disconnects without unsubscribing is dropped the next time
//! its resource changes (or anyone subscribes), and the upstream is unsubscribed if it was the
//! last.

use std::sync::Arc;
use std::sync::Mutex as StdMutex;

use crate::agent::AgentLink;

/// Most watches kept; a subscription beyond it is refused with a clear error.
pub(crate) const MAX_WATCHES: usize = 10_000;

/// One session watching one resource.
struct Watch {
    upstream: String,
    uri: String,
    session: Arc<str>,
    link: Arc<dyn AgentLink>,
}

/// What adding a watch asks of the caller.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Added {
    /// Nobody watched the resource: subscribe the upstream.
    First,
    /// Others (or this session) already watch it: the upstream is subscribed.
    Joined,
    /// [`MAX_WATCHES`] are kept already.
    Full,
}

/// Every watch of every session.
#[derive(Default)]
pub(crate) struct Watches {
    inner: StdMutex<Vec<Watch>>,
}

impl Watches {
    /// `session` (reached at `link`) watches `uri` of `upstream`. Closed sessions are dropped
    /// first; the resources they alone watched are returned, to unsubscribe upstream.
    pub(crate) fn add(
        &self,
        upstream: &str,
        uri: &str,
        session: &str,
        link: Arc<dyn AgentLink>,
    ) -> (Added, Vec<(String, String)>) {
        let Ok(mut watches) = self.inner.lock() else { return (Added::Full, Vec::new()) };
        let orphaned = prune(&mut watches);
        let watched = watches.iter().any(|w| w.upstream == upstream && w.uri == uri);
        if watches.iter().any(|w| w.upstream == upstream && w.uri == uri && &*w.session == session) {
            return (Added::Joined, orphaned);
        }
        if watches.len() >= MAX_WATCHES {
            return (Added::Full, orphaned);
        }
        watches.push(Watch { upstream: upstream.to_owned(), uri: uri.to_owned(), session: session.into(), link });
        (if watched { Added::Joined } else { Added::First }, orphaned)
    }

    /// `session` stops watching `uri` (of every upstream it watched it on). Returns the
    /// upstreams to unsubscribe, those nobody watches the resource on any more, and whether
    /// the session watched it at all.
    pub(crate) fn remove(&self, uri: &str, session: &str) -> (Vec<String>, bool) {
        let Ok(mut watches) = self.inner.lock() else { return (Vec::new(), false) };
        let mut upstreams: Vec<String> = Vec::new();
        watches.retain(|w| {
            let leaving = w.uri == uri && &*w.session == session;
            if leaving {
                upstreams.push(w.upstream.clone());
            }
            !leaving
        });
        let watched = !upstreams.is_empty();
        upstreams.retain(|up| !watches.iter().any(|w| &w.upstream == up && w.uri == uri));
        (upstreams, watched)
    }

    /// Undo [`Self::add`] of `session`'s watch of `uri` of `upstream` (the upstream refused the
    /// subscription).
    pub(crate) fn forget(&self, upstream: &str, uri: &str, session: &str) {
        if let Ok(mut watches) = self.inner.lock() {
            watches.retain(|w| !(w.upstream == upstream && w.uri == uri && &*w.session == session));
        }
    }

    /// The sessions to tell that `uri` of `upstream` changed. Closed sessions are dropped
    /// first; `true` means nobody watches it any more (unsubscribe the upstream).
    pub(crate) fn watchers(&self, upstream: &str, uri: &str) -> (Vec<Arc<dyn AgentLink>>, bool) {
        let Ok(mut watches) = self.inner.lock() else { return (Vec::new(), false) };
        prune(&mut watches);
        let peers: Vec<_> =
            watches.iter().filter(|w| w.upstream == upstream && w.uri == uri).map(|w| w.link.clone()).collect();
        let unwatched = peers.is_empty();
        (peers, unwatched)
    }

    /// Forget every watch of `upstream` (its connection was replaced: the new one has no
    /// subscriptions), returning the resources to subscribe again.
    pub(crate) fn resources_of(&self, upstream: &str) -> Vec<String> {
        let Ok(mut watches) = self.inner.lock() else { return Vec::new() };
        prune(&mut watches);
        let mut uris: Vec<String> = watches.iter().filter(|w| w.upstream == upstream).map(|w| w.uri.clone()).collect();
        uris.sort();
        uris.dedup();
        uris
    }
}

/// Drop the watches of closed sessions; returns the (upstream, uri) pairs nobody watches now.
fn prune(watches: &mut Vec<Watch>) -> Vec<(String, String)> {
    let mut dropped: Vec<(String, String)> = Vec::new();
    watches.retain(|w| {
        let open = !w.link.is_closed();
        if !open {
            dropped.push((w.upstream.clone(), w.uri.clone()));
        }
        open
    });
    dropped.sort();
    dropped.dedup();
    dropped.retain(|(upstream, uri)| !watches.iter().any(|w| &w.upstream == upstream && &w.uri == uri));
    dropped
}

#[cfg(test)]
mod tests {
    use rmcp::service::RunningService;
    use rmcp::{RoleClient, RoleServer, ServerHandler, serve_client, serve_server};

    use super::*;
    use crate::server::link::PeerLink;

    struct AgentSide;
    impl ServerHandler for AgentSide {}

    /// An agent session: the gateway-side service that reaches it, and the agent's client.
    async fn session() -> (RunningService<RoleServer, AgentSide>, RunningService<RoleClient, ()>) {
        let (a, b) = tokio::io::duplex(4096);
        let client = tokio::spawn(async move { serve_client((), tokio::io::split(b)).await.unwrap() });
        let server = serve_server(AgentSide, tokio::io::split(a)).await.unwrap();
        (server, client.await.unwrap())
    }

    #[tokio::test]
    async fn the_upstream_is_subscribed_by_the_first_watcher_and_unsubscribed_by_the_last() {
        let watches = Watches::default();
        let (a, _agent_a) = session().await;
        let (b, _agent_b) = session().await;
        assert_eq!(watches.add("up", "r://1", "a", PeerLink::session(a.peer().clone())).0, Added::First);
        assert_eq!(watches.add("up", "r://1", "a", PeerLink::session(a.peer().clone())).0, Added::Joined);
        assert_eq!(watches.add("up", "r://1", "b", PeerLink::session(b.peer().clone())).0, Added::Joined);
        // Another resource, or the same URI of another upstream, is a subscription of its own.
        assert_eq!(watches.add("up", "r://2", "a", PeerLink::session(a.peer().clone())).0, Added::First);
        assert_eq!(watches.add("other", "r://1", "a", PeerLink::session(a.peer().clone())).0, Added::First);
        assert_eq!(watches.watchers("up", "r://1").0.len(), 2);

        // `a` leaves r://1 of both upstreams; `other` had only `a`, `up` still has `b`.
        assert_eq!(watches.remove("r://1", "a"), (vec!["other".to_owned()], true));
        assert_eq!(watches.remove("r://1", "a"), (vec![], false), "a second unsubscribe is a no-op");
        assert_eq!(watches.remove("r://1", "b"), (vec!["up".to_owned()], true));
        let (peers, unwatched) = watches.watchers("up", "r://1");
        assert!(peers.is_empty() && unwatched);
    }

    #[tokio::test]
    async fn a_closed_session_is_dropped_and_what_it_alone_watched_is_reported() {
        let watches = Watches::default();
        let (a, agent_a) = session().await;
        let (b, _agent_b) = session().await;
        watches.add("up", "r://only-a", "a", PeerLink::session(a.peer().clone()));
        watches.add("up", "r://shared", "a", PeerLink::session(a.peer().clone()));
        watches.add("up", "r://shared", "b", PeerLink::session(b.peer().clone()));
        agent_a.cancel().await.unwrap();
        for _ in 0..100 {
            if a.peer().is_transport_closed() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert!(a.peer().is_transport_closed());
        let (added, orphaned) = watches.add("up", "r://3", "b", PeerLink::session(b.peer().clone()));
        assert_eq!(added, Added::First);
        assert_eq!(orphaned, vec![("up".to_owned(), "r://only-a".to_owned())]);
        assert_eq!(watches.watchers("up", "r://shared").0.len(), 1);
        assert_eq!(watches.resources_of("up"), vec!["r://3".to_owned(), "r://shared".to_owned()]);
    }

    #[tokio::test]
    async fn watches_are_bounded() {
        let watches = Watches::default();
        let (a, _agent) = session().await;
        for i in 0..MAX_WATCHES {
            assert_eq!(
                watches.add("up", &format!("r://{i}"), "a", PeerLink::session(a.peer().clone())).0,
                Added::First
            );
        }
        assert_eq!(watches.add("up", "r://one-more", "a", PeerLink::session(a.peer().clone())).0, Added::Full);
        // Joining what is already watched needs no room.
        assert_eq!(watches.add("up", "r://0", "a", PeerLink::session(a.peer().clone())).0, Added::Joined);
    }
}
