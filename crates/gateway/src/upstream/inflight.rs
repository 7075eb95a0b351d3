//! The calls in flight on one upstream, and where the upstream's progress for them goes.
//!
//! An upstream connection is shared by every agent session. What the upstream sends that
//! belongs to one call (progress, a log message, a sampling or elicitation request) is
//! attributed here: by progress token, by the response stream it arrived on (Streamable
//! HTTP), or, when nothing else tells, only if every call in flight comes from one agent
//! session, since relaying to the wrong session would show one user's data to another.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

use rmcp::model::{ProgressNotificationParam, ProgressToken, RequestId};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::UpstreamEvent;
use crate::agent::AgentCall;
use crate::log_levels::LogLevels;

/// State shared by an upstream's connections and its rmcp client handler.
pub(super) struct Shared {
    pub(super) name: String,
    pub(super) events: mpsc::UnboundedSender<UpstreamEvent>,
    /// Where progress notifications go.
    progress: StdMutex<ProgressRoutes>,
    /// The calls in flight, to relay the upstream's sampling and elicitation requests.
    calls: StdMutex<InFlight>,
    /// The upstream's time-out, which also bounds a relayed request.
    pub(super) timeout: Duration,
    /// The log level of each agent session, to forward the upstream's log messages.
    pub(super) levels: Arc<LogLevels>,
}

/// The calls in flight on one upstream, by a serial number.
#[derive(Default)]
struct InFlight {
    next: u64,
    calls: HashMap<u64, InFlightCall>,
}

/// One call in flight.
#[derive(Clone)]
pub(super) struct InFlightCall {
    pub(super) agent: AgentCall,
    /// The upstream's id for the call, once it is sent.
    upstream_id: Option<RequestId>,
    /// Fires when the call ends, so a request relayed for it stops waiting.
    pub(super) ended: CancellationToken,
}

/// Which agent call an upstream's request belongs to.
pub(super) enum Attribution {
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
    sinks: HashMap<ProgressToken, AgentCall>,
    orphans: VecDeque<ProgressNotificationParam>,
}

impl Shared {
    /// The state of upstream `name`, whose events go to `events`.
    pub(super) fn new(
        name: &str,
        events: mpsc::UnboundedSender<UpstreamEvent>,
        timeout: Duration,
        levels: Arc<LogLevels>,
    ) -> Shared {
        Shared {
            name: name.to_owned(),
            events,
            progress: StdMutex::new(ProgressRoutes::default()),
            calls: StdMutex::new(InFlight::default()),
            timeout,
            levels,
        }
    }

    /// Route `params` now, or keep it until its call registers.
    pub(super) fn route(&self, params: ProgressNotificationParam) -> Option<(AgentCall, ProgressNotificationParam)> {
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
    pub(super) fn register(&self, token: ProgressToken, sink: AgentCall) -> Vec<ProgressNotificationParam> {
        let Ok(mut routes) = self.progress.lock() else { return Vec::new() };
        let (early, rest): (Vec<_>, Vec<_>) = routes.orphans.drain(..).partition(|p| p.progress_token == token);
        routes.orphans = rest.into();
        routes.sinks.insert(token, sink);
        early
    }

    pub(super) fn unregister(&self, token: &ProgressToken) {
        if let Ok(mut routes) = self.progress.lock() {
            routes.sinks.remove(token);
        }
    }

    /// Record a call in flight until the returned guard is dropped.
    pub(super) fn begin_call(&self, agent: AgentCall) -> CallGuard<'_> {
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
    pub(super) fn attribute(&self, origin: Option<&RequestId>) -> Attribution {
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
pub(super) struct CallGuard<'a> {
    shared: &'a Shared,
    key: Option<u64>,
    ended: CancellationToken,
}

impl CallGuard<'_> {
    /// Record the upstream's id for the call, once it is sent.
    pub(super) fn sent_as(&self, id: &RequestId) {
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
