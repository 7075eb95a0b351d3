//! Prompts, resources, completions, resource subscriptions and log levels, passed through
//! to the upstream that listed them.
//!
//! Prompts are namespaced like tools; each listing records which upstream listed which
//! prompt and resource ([`Routes`]), and a request for a name no listing named lists them
//! first. An upstream's sampling and elicitation requests during a prompt, a read or a
//! completion go to the caller, as during a tool call. Subscriptions are made once per
//! resource upstream, however many sessions watch it (see `watches`).

use std::collections::HashMap;
use std::sync::Mutex as StdMutex;

#[expect(deprecated, reason = "logging/setLevel is answered for agents of the versions that have it")]
use rmcp::model::LoggingLevel;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult, Prompt, ReadResourceRequestParams,
    ReadResourceResult, Reference, Resource, ResourceTemplate,
};
use toolshape_shape::Failure;

use super::watches::{Added, MAX_WATCHES};
use super::{Caller, Gateway};
use crate::agent::AgentNote;

/// The JSON-RPC code for a resource that does not exist (MCP `resources/read`).
const RESOURCE_NOT_FOUND: i64 = -32002;

/// Why a prompt, resource, completion or subscription request failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// No listing names this prompt.
    #[error("no prompt named `{0}`")]
    UnknownPrompt(String),
    /// No upstream has this resource (answered with code -32002).
    #[error("no resource `{0}`")]
    UnknownResource(String),
    /// No listing names this resource, and no upstream took the subscription.
    #[error("no resource `{0}`: no upstream lists it")]
    UnlistedResource(String),
    /// No listing names this resource template.
    #[error("no resource template `{0}`")]
    UnknownTemplate(String),
    /// The upstream a route names is not in the config.
    #[error("upstream `{0}` is not configured")]
    UnconfiguredUpstream(String),
    /// Completions were asked for something other than a prompt or a resource template.
    #[error("completions are offered for prompts and resource templates only")]
    NoCompletions,
    /// The gateway holds as many subscriptions as it keeps.
    #[error("toolshape keeps at most {MAX_WATCHES} resource subscriptions; unsubscribe from some first")]
    TooManySubscriptions,
    /// A subscription from a caller that is not an agent session (nothing to tell of updates).
    #[error("resource subscriptions need an agent session to send updates to")]
    NoSession,
    /// The upstream said the resource does not exist: what it said.
    #[error("{0}")]
    UpstreamNotFound(String),
    /// The upstream (or each upstream tried) refused or failed: what they said.
    #[error("{0}")]
    Upstream(String),
}

impl RequestError {
    /// Whether the thing asked for does not exist (`resources/read` answers -32002 then).
    pub fn is_not_found(&self) -> bool {
        matches!(self, RequestError::UnknownResource(_) | RequestError::UpstreamNotFound(_))
    }
}

/// Which upstream listed each prompt and resource, as of the latest listings.
#[derive(Default)]
pub(super) struct Routes {
    /// Prompt name as listed → (upstream, the prompt's own name there).
    prompts: StdMutex<HashMap<String, (String, String)>>,
    /// Resource URI or URI template → upstream.
    resources: StdMutex<HashMap<String, String>>,
}

impl Gateway {
    /// Prompts of every connected upstream, namespaced like tools. Like a tool listing, the
    /// first one starts the upstreams not yet started and waits for them (each bounded by its
    /// time-out): an agent lists tools, prompts and resources together when it connects, and
    /// a prompt list taken before its upstream was up would stay short.
    pub(crate) async fn list_prompts(&self) -> Vec<Prompt> {
        self.refresh_tools().await;
        let mut out = Vec::new();
        let mut routes = HashMap::new();
        for (name, up) in self.connected() {
            match up.list_prompts().await {
                Ok(prompts) => {
                    for mut p in prompts {
                        let listed = self.namespaced(&name, &p.name);
                        routes.insert(listed.clone(), (name.clone(), p.name.clone()));
                        p.name = listed;
                        out.push(p);
                    }
                }
                Err(f) => tracing::debug!(upstream = %name, error = %f.line("prompts/list"), "no prompts"),
            }
        }
        if let Ok(mut r) = self.routes.prompts.lock() {
            *r = routes;
        }
        out
    }

    /// `prompts/get` for `caller`, routed to the upstream that listed the prompt. The
    /// upstream's sampling and elicitation requests meanwhile go to the caller, as during a
    /// tool call.
    pub(crate) async fn get_prompt(
        &self,
        mut params: GetPromptRequestParams,
        caller: &Caller,
    ) -> Result<GetPromptResult, RequestError> {
        let Some((upstream, original)) = self.prompt_route(&params.name).await else {
            return Err(RequestError::UnknownPrompt(params.name));
        };
        let up = self.upstream(&upstream).ok_or(RequestError::UnconfiguredUpstream(upstream))?;
        params.name = original;
        up.get_prompt(params, caller.agent.clone(), &caller.cancel)
            .await
            .map_err(|f| RequestError::Upstream(f.line("prompts/get")))
    }

    /// The upstream that listed prompt `name`, and the prompt's own name there; prompts are
    /// listed first when no listing has named it yet.
    async fn prompt_route(&self, name: &str) -> Option<(String, String)> {
        let route = || self.routes.prompts.lock().ok().and_then(|r| r.get(name).cloned());
        if let Some(found) = route() {
            return Some(found);
        }
        self.list_prompts().await;
        route()
    }

    /// The upstream that listed the resource or resource template `uri`; resources are listed
    /// first when no listing has named it yet.
    async fn resource_route(&self, uri: &str) -> Option<String> {
        let route = || self.routes.resources.lock().ok().and_then(|r| r.get(uri).cloned());
        if let Some(found) = route() {
            return Some(found);
        }
        self.list_resources().await;
        route()
    }

    /// `completion/complete` for `caller`: a prompt argument's values come from the upstream
    /// that listed the prompt (asked under its own name), a resource template's from the
    /// upstream that listed the template.
    pub(crate) async fn complete(
        &self,
        mut params: CompleteRequestParams,
        caller: &Caller,
    ) -> Result<CompleteResult, RequestError> {
        let upstream = match &mut params.r#ref {
            Reference::Prompt(prompt) => {
                let Some((upstream, original)) = self.prompt_route(&prompt.name).await else {
                    return Err(RequestError::UnknownPrompt(prompt.name.clone()));
                };
                prompt.name = original;
                upstream
            }
            Reference::Resource(template) => self
                .resource_route(&template.uri)
                .await
                .ok_or_else(|| RequestError::UnknownTemplate(template.uri.clone()))?,
            _ => return Err(RequestError::NoCompletions),
        };
        let up = self.upstream(&upstream).ok_or(RequestError::UnconfiguredUpstream(upstream))?;
        up.complete(params, caller.agent.clone(), &caller.cancel)
            .await
            .map_err(|f| RequestError::Upstream(f.line("completion/complete")))
    }

    /// `logging/setLevel` from `caller`'s session: from now on it is sent the log messages of
    /// its calls' upstreams from `level` up. Upstreams are asked for that level when it is
    /// more verbose than what they were asked before (they are shared by every session).
    #[expect(deprecated, reason = "logging/setLevel is answered for agents of the versions that have it")]
    pub(crate) async fn set_log_level(&self, level: LoggingLevel, caller: &Caller) {
        if let Some(ask) = self.log_levels.set(&caller.scope, level) {
            for (_, up) in self.connected() {
                up.set_log_level(ask).await;
            }
        }
    }

    /// `resources/subscribe` from `caller`'s session: the upstream that listed `uri` is
    /// subscribed (once, however many sessions watch it), and the session is sent
    /// `notifications/resources/updated` when it changes. A URI no listing named goes to
    /// the first connected upstream that accepts the subscription.
    pub(crate) async fn subscribe(&self, uri: &str, caller: &Caller) -> Result<(), RequestError> {
        let Some(session) = caller.agent.as_ref().map(|a| a.link.clone()) else {
            return Err(RequestError::NoSession);
        };
        let candidates: Vec<String> = match self.resource_route(uri).await {
            Some(upstream) => vec![upstream],
            None => self.connected().into_iter().map(|(name, _)| name).collect(),
        };
        let mut refusals = Vec::new();
        for name in candidates {
            let Some(up) = self.upstream(&name) else { continue };
            let (added, orphaned) = self.watches.add(&name, uri, &caller.scope, session.clone());
            self.unsubscribe_orphans(orphaned);
            match added {
                Added::Joined => return Ok(()),
                Added::Full => return Err(RequestError::TooManySubscriptions),
                Added::First => match up.subscribe(uri).await {
                    Ok(()) => return Ok(()),
                    Err(failure) => {
                        self.watches.forget(&name, uri, &caller.scope);
                        refusals.push(failure.line("resources/subscribe"));
                    }
                },
            }
        }
        Err(match refusals.len() {
            0 => RequestError::UnlistedResource(uri.to_owned()),
            _ => RequestError::Upstream(refusals.join("; ")),
        })
    }

    /// `resources/unsubscribe` from `caller`'s session; the upstream is unsubscribed when no
    /// session watches the resource any more. Unsubscribing from what the session did not
    /// subscribe to is not an error (the end state is what it asked for).
    pub(crate) async fn unsubscribe(&self, uri: &str, caller: &Caller) -> Result<(), RequestError> {
        let (unwatched, _) = self.watches.remove(uri, &caller.scope);
        for name in unwatched {
            if let Some(up) = self.upstream(&name) {
                up.unsubscribe(uri).await.map_err(|f| RequestError::Upstream(f.line("resources/unsubscribe")))?;
            }
        }
        Ok(())
    }

    /// An upstream reported that `uri` changed: tell the sessions that watch it. If none does
    /// any more (they disconnected), unsubscribe the upstream.
    pub(super) async fn resource_updated(&self, upstream: &str, uri: &str) {
        let (sessions, unwatched) = self.watches.watchers(upstream, uri);
        for session in sessions {
            if let Err(e) = session.notify(AgentNote::ResourceUpdated(uri.to_owned())).await {
                tracing::debug!(upstream, uri, error = %e, "could not tell an agent session of a resource update");
            }
        }
        if unwatched {
            self.unsubscribe_orphans(vec![(upstream.to_owned(), uri.to_owned())]);
        }
    }

    /// Unsubscribe upstreams from resources no session watches any more, off the caller's
    /// path (an upstream may be slow to answer).
    fn unsubscribe_orphans(&self, orphaned: Vec<(String, String)>) {
        for (name, uri) in orphaned {
            let Some(up) = self.upstream(&name) else { continue };
            tokio::spawn(async move {
                if let Err(f) = up.unsubscribe(&uri).await {
                    tracing::debug!(upstream = %up.name(), uri, error = %f.line("resources/unsubscribe"), "unsubscribe failed");
                }
            });
        }
    }

    /// An upstream connected again: subscribe it again to every resource a session watches.
    pub(super) async fn subscribe_again(&self, upstream: &str) {
        let Some(up) = self.upstream(upstream) else { return };
        for uri in self.watches.resources_of(upstream) {
            if let Err(f) = up.subscribe(&uri).await {
                tracing::warn!(upstream, uri, error = %f.line("resources/subscribe"), "could not subscribe again after a reconnection");
            }
        }
    }

    /// Resources and resource templates of every connected upstream, as they list them
    /// (the first listing starts the upstreams, as for prompts).
    pub(crate) async fn list_resources(&self) -> (Vec<Resource>, Vec<ResourceTemplate>) {
        self.refresh_tools().await;
        let mut resources = Vec::new();
        let mut templates = Vec::new();
        let mut routes = HashMap::new();
        for (name, up) in self.connected() {
            match up.list_resources().await {
                Ok((r, t)) => {
                    for res in &r {
                        routes.insert(res.uri.clone(), name.clone());
                    }
                    // Templates too, for completions; no read names a template itself.
                    for template in &t {
                        routes.insert(template.uri_template.clone(), name.clone());
                    }
                    resources.extend(r);
                    templates.extend(t);
                }
                Err(f) => tracing::debug!(upstream = %name, error = %f.line("resources/list"), "no resources"),
            }
        }
        if let Ok(mut r) = self.routes.resources.lock() {
            *r = routes;
        }
        (resources, templates)
    }

    /// `resources/read` for `caller` (as for a prompt), routed to the upstream that listed
    /// the URI (listing them first if no listing has named it), else tried on each.
    pub(crate) async fn read_resource(
        &self,
        params: ReadResourceRequestParams,
        caller: &Caller,
    ) -> Result<ReadResourceResult, RequestError> {
        let (agent, cancel) = (&caller.agent, &caller.cancel);
        if let Some(up) = self.resource_route(&params.uri).await.and_then(|n| self.upstream(&n)) {
            return up.read_resource(params, agent.clone(), cancel).await.map_err(|f| match f {
                Failure::Protocol { code: RESOURCE_NOT_FOUND, .. } => {
                    RequestError::UpstreamNotFound(f.line("resources/read"))
                }
                other => RequestError::Upstream(other.line("resources/read")),
            });
        }
        // No upstream listed this URI: try each; if none has it, it is not found.
        for (_, up) in self.connected() {
            if let Ok(r) = up.read_resource(params.clone(), agent.clone(), cancel).await {
                return Ok(r);
            }
        }
        Err(RequestError::UnknownResource(params.uri))
    }
}
