//! The dispatch path: [`Gateway::call`], which every tool call takes.
//!
//! A call is dispatched by name: `result_read` reads a snapshot (`snapshots`), the search
//! tool ranks the surface (`tool_search`), the generic call tool unwraps the tool it names,
//! and every other name is an upstream tool, masked or not. An upstream call is *prepared*
//! first ([`Gateway::prepare`]: the tool found on the caller's surface, its arguments
//! checked and templated by its mask, its upstream picked, and the trust checks passed: the
//! tool not held by the lock file, its arguments through the argument guard, the call not a
//! repeat), then sent. Whatever dispatch
//! produced, bytes or a failure, is shaped by `finish`, and the call is recorded by `record`
//! after the answer is sent.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value};
use toolshape_mask::{CallContext, CallError};
use toolshape_media::MediaPolicy;
use toolshape_shape::{Envelope, Failure, Shaper};
use toolshape_telemetry::SearchCall;
use toolshape_trust::{CallKey, GuardAction, held_message};

use super::finish::{Attached, Payload, Produced, Source};
use super::record::CallRecord;
use super::tool_search;
use super::trust::Mark;
use super::{Caller, Gateway, Outcome};
use crate::cursor::CursorKey;
use crate::read;
use crate::search;
use crate::upstream::{Reply, Upstream};

/// An upstream call ready to send.
struct Prepared {
    /// The upstream that serves the tool (kept by the call even if a reload replaces it).
    upstream: Arc<Upstream>,
    /// The tool's name there.
    tool: String,
    /// The arguments, as the mask rewrote them.
    arguments: Map<String, Value>,
    /// The shaper its result goes through.
    shaper: Shaper,
    /// What its images, audio and embedded resources may take.
    media: MediaPolicy,
    /// Whether a repeat of the call may be answered without calling: neither the mask nor
    /// the upstream declares the tool non-idempotent.
    repeatable: bool,
}

/// What the trust checks noted about a call on its way through.
#[derive(Default)]
struct CallNotes {
    /// Refused or short-circuited, and why.
    mark: Option<Mark>,
    /// The call's repeat key, when repeats are counted.
    repeat_key: Option<CallKey>,
}

impl Gateway {
    /// Call `tool` as the agent would. Every call goes through here and comes back as an
    /// envelope: results, upstream failures and refused calls alike.
    pub async fn call(&self, tool: &str, arguments: Option<Map<String, Value>>, caller: &Caller) -> Outcome {
        let started = Instant::now();
        let mut tools_changed = false;
        let mut notes = CallNotes::default();
        let loaded = self.loaded();
        let search = loaded.config.search.as_ref();
        // The tool whose span this is: a generic call counts as the tool it called.
        let mut target = tool.to_owned();
        let mut search_lead = None;
        let mut search_call = None;
        let (produced, upstream) = if tool == read::TOOL_NAME {
            (self.read(arguments.as_ref(), caller).await, None)
        } else if let Some(search) = search.filter(|s| s.tool_name == tool) {
            let answer = self.search(arguments.as_ref(), caller, search).await;
            tools_changed = answer.changed;
            if answer.shows_tools {
                search_lead = answer.query.clone().zip(answer.findings.clone());
            }
            search_call = answer.query.map(|query| {
                let (returned, matched) = answer.findings.map(|f| (f.names, f.matched)).unwrap_or_default();
                SearchCall { query, returned, matched: matched as u64 }
            });
            (answer.produced, None)
        } else if let Some(search) = search.filter(|s| s.call_tool_name == tool) {
            match search::parse_call(arguments) {
                Ok((name, _)) if search::own_names(search).contains(&name.as_str()) => {
                    let detail = format!("`{name}` is one of the gateway's own tools; call it directly");
                    (self.refused(detail), None)
                }
                Ok((name, inner)) => {
                    let forwarded = self.forward(&name, inner, caller, &mut notes).await;
                    target = name;
                    forwarded
                }
                Err(e) => (self.refused(e.to_string()), None),
            }
        } else {
            self.forward(tool, arguments, caller, &mut notes).await
        };
        let dispatched = started.elapsed();
        let raw = match &produced {
            Produced::Data { payload, source: Source::Upstream, .. } => Some(payload.shared()),
            Produced::Failed { failure, .. } => upstream_error_text(failure).map(|t| Arc::new(t.as_bytes().to_vec())),
            _ => None,
        };
        let media = match &produced {
            Produced::Data { attached, .. } => attached.stats,
            _ => None,
        };
        let mut outcome = self.finish(produced, tool, caller).await;
        outcome.tools_changed = tools_changed;
        if let Some((query, findings)) = search_lead {
            tool_search::lead_summary(&mut outcome, &query, &findings, loaded.masks.passthrough_shaper().plan().render);
        }
        // A repeat of this call can point to where this answer reads on.
        if let (None, Some(key), Some(next)) = (notes.mark, &notes.repeat_key, &outcome.envelope.next) {
            self.trust.remember(key, outcome.envelope.omitted.as_ref(), next);
        }
        let record = CallRecord {
            tool: tool.to_owned(),
            target,
            upstream,
            principal: caller.principal.clone(),
            session: caller.session.clone(),
            raw,
            status: outcome.envelope.status,
            mark: notes.mark,
            failure: outcome.failure,
            report: outcome.report.clone(),
            // Counted here when shaping left it (an answer that fits by its bytes).
            uncounted_text: outcome.report.tokens_out.is_none().then(|| outcome.text.clone()),
            dispatched,
            shaped: started.elapsed().saturating_sub(dispatched),
            media,
            search: search_call,
        };
        self.after_reply(record);
        outcome
    }

    /// Whether a repeat answer's `next` reads a snapshot that was never stored (the store was
    /// down when the earlier answer was kept): the call is then run again instead.
    fn points_to_unkept(&self, envelope: &Envelope, caller: &Caller) -> bool {
        let cursor = envelope.next.as_ref().and_then(|n| n.arguments.get("cursor")).and_then(Value::as_str);
        cursor.is_some_and(|c| self.snapshots.names_unkept(c, &CursorKey::scope_tag(&caller.scope)))
    }

    /// A call refused before dispatch, for `detail`, shaped by the passthrough plan.
    fn refused(&self, detail: String) -> Produced {
        let shaper = self.loaded().masks.passthrough_shaper().clone();
        Produced::Failed { failure: Failure::InvalidArguments { detail }, shaper }
    }

    /// A masked or unmasked upstream tool: prepare, call, and hand the result on to shaping.
    /// The upstream's name comes back with what it produced, once one was picked.
    async fn forward(
        &self,
        tool: &str,
        arguments: Option<Map<String, Value>>,
        caller: &Caller,
        notes: &mut CallNotes,
    ) -> (Produced, Option<String>) {
        // Keyed by the model's own arguments, before the mask rewrites them.
        let arguments = Value::Object(arguments.unwrap_or_default());
        if self.trust.counts_repeats() {
            notes.repeat_key = Some(CallKey::new(Some(&caller.scope), tool, &arguments));
        }
        let Value::Object(arguments) = arguments else { return (self.refused(String::new()), None) };
        let prepared = match self.prepare(tool, Some(arguments), caller, notes).await {
            Ok(p) => p,
            Err(refused) => return refused,
        };
        let Prepared { upstream, tool: upstream_tool, arguments, shaper, media, repeatable } = prepared;
        if !repeatable {
            notes.repeat_key = None;
        }
        if let Some(key) = notes.repeat_key.clone()
            && let Some(envelope) = self.trust.repeat(key, tool)
            && !self.points_to_unkept(&envelope, caller)
        {
            notes.mark = Some(Mark::Repeat);
            return (Produced::Direct { envelope }, Some(upstream.name().to_owned()));
        }
        let agent = caller.agent.clone();
        let produced = match upstream.call(&upstream_tool, arguments, agent, &caller.cancel).await {
            Ok(Reply::Result(bytes)) => Produced::Data {
                payload: Payload::new(bytes),
                shaper,
                resume: None,
                source: Source::Upstream,
                label: tool.to_owned(),
                attached: Attached::default(),
            },
            Ok(Reply::Mixed(blocks)) => self.with_media(blocks, shaper, media, tool, caller).await,
            Ok(Reply::ToolError(text)) => Produced::Failed { failure: Failure::ToolError { text }, shaper },
            Err(failure) => Produced::Failed { failure, shaper },
        };
        (produced, Some(upstream.name().to_owned()))
    }

    /// Everything decided before an upstream is called, in one place: the tool found on the
    /// caller's surface, its arguments checked and rewritten by its mask (input schema,
    /// templates, profile), and its upstream picked. A check that refuses a call before it
    /// reaches its upstream belongs here; a refusal comes back as what dispatch produced
    /// (with the upstream's name once one was picked).
    async fn prepare(
        &self,
        tool: &str,
        arguments: Option<Map<String, Value>>,
        caller: &Caller,
        notes: &mut CallNotes,
    ) -> Result<Prepared, (Produced, Option<String>)> {
        let loaded = self.loaded();
        let masks = &loaded.masks;
        let fallback = || masks.passthrough_shaper().clone();
        let profile = self.profile_of(caller);
        let mut surface = match self.surface_with(profile, tool).await {
            Ok(s) => s,
            Err(failure) => return Err((Produced::Failed { failure, shaper: fallback() }, None)),
        };
        // A tool held by the lock file: approved since (the file changed), or refused.
        if surface.get(tool).is_none() && surface.held(tool).is_some() && self.reload_pins() {
            match self.surface(profile, false).await {
                Ok(s) => surface = s,
                Err(failure) => return Err((Produced::Failed { failure, shaper: fallback() }, None)),
            }
        }
        if surface.get(tool).is_none()
            && let Some((upstream, handler)) = surface.held(tool)
        {
            notes.mark = Some(Mark::Quarantined);
            let status = self.pin_status(upstream, handler);
            tracing::warn!(tool, handler = %format!("{upstream}/{handler}"), "call refused: the tool is held until approved");
            let envelope = Envelope::error(held_message(tool, status));
            return Err((Produced::Direct { envelope }, Some(upstream.to_owned())));
        }
        let ctx = CallContext { session: caller.session.clone(), principal: caller.principal.clone() };
        let args = Value::Object(arguments.unwrap_or_default());
        let mut prepared = match masks.prepare_call(&surface, tool, args, &ctx) {
            Ok(p) => p,
            Err(e) => {
                let shaper = masks.shaper(&surface, tool).cloned().unwrap_or_else(|_| fallback());
                return Err((Produced::Failed { failure: call_failure(e), shaper }, None));
            }
        };
        let Some(upstream) = self.upstream(&prepared.upstream) else {
            let failure = Failure::Unavailable { upstream: prepared.upstream.clone(), detail: "not configured".into() };
            return Err((Produced::Failed { failure, shaper: prepared.shaper.clone() }, Some(prepared.upstream)));
        };
        let verdict = masks.guard_for(prepared.mask).check(&mut prepared.arguments, &prepared.fixed);
        match verdict.action {
            GuardAction::Pass => {}
            GuardAction::Warn => {
                tracing::warn!(tool, findings = %verdict.summary(), "the arguments look like they hold a secret; sent unchanged (guard: warn)");
            }
            GuardAction::Redacted => {
                tracing::warn!(tool, findings = %verdict.summary(), "secrets in the arguments were replaced by placeholders (guard: redact)");
            }
            GuardAction::Block => {
                tracing::warn!(tool, findings = %verdict.summary(), "call blocked: the arguments hold what looks like a secret (guard: block)");
                notes.mark = Some(Mark::Blocked);
                let envelope = Envelope::error(verdict.block_message(tool));
                return Err((Produced::Direct { envelope }, Some(prepared.upstream)));
            }
        }
        let repeatable = !prepared.mask.is_some_and(|m| masks.declares_non_idempotent(m))
            && !self.tool_hints(&prepared.upstream, &prepared.upstream_tool).declares_non_idempotent();
        let media = self.media_policy(&prepared);
        let arguments = match prepared.arguments {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        let shaper = prepared.shaper.clone();
        Ok(Prepared { upstream, tool: prepared.upstream_tool, arguments, shaper, media, repeatable })
    }

    /// The surface `profile` sees, asking upstreams again only when it lacks `tool`.
    async fn surface_with(
        &self,
        profile: Option<&str>,
        tool: &str,
    ) -> Result<std::sync::Arc<toolshape_mask::Surface>, Failure> {
        // The known surface first: asking upstreams again is only worth it for a name it
        // does not have (a call before any tools/list, or a tool that just appeared).
        match self.surface(profile, false).await {
            Ok(s) if s.get(tool).is_some() => Ok(s),
            _ => {
                // Ask the upstreams the name points to first: a call must not wait for an
                // unrelated upstream that is slow to start.
                let likely = self.loaded().masks.upstreams_for(tool).filter(|set| !set.is_empty());
                match likely {
                    Some(likely) => {
                        self.refresh_tools_of(Some(&likely)).await;
                        match self.surface(profile, false).await {
                            Ok(s) if s.get(tool).is_some() => Ok(s),
                            _ => self.surface(profile, true).await,
                        }
                    }
                    None => self.surface(profile, true).await,
                }
            }
        }
    }
}

/// A refused call as the failure the model reads.
fn call_failure(e: CallError) -> Failure {
    match e {
        CallError::UnknownTool { name, hint } => {
            let suggestions = hint.as_deref().map(backticked).unwrap_or_default();
            Failure::UnknownTool { name, suggestions }
        }
        CallError::InvalidArguments { problems, .. } => Failure::InvalidArguments { detail: problems.join("; ") },
        CallError::Rejected { message, .. } => Failure::InvalidArguments { detail: message },
        e @ CallError::Template { .. } => Failure::InvalidArguments { detail: e.message() },
    }
}

/// The names between backticks in `text`.
fn backticked(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

/// The text of an upstream's own error answer (an `isError` result, or a JSON-RPC error's
/// message), which is what shaping started from: its span records its tokens and bytes
/// before shaping like any result's. Failures the gateway words itself have none.
fn upstream_error_text(failure: &Failure) -> Option<&str> {
    match failure {
        Failure::ToolError { text } => Some(text.as_str()),
        Failure::Protocol { code, message, .. } if *code != CANCELLED_CODE => Some(message.as_str()),
        _ => None,
    }
    .filter(|text| !text.is_empty())
}

/// The JSON-RPC code of a request the client cancelled (the message is the gateway's).
const CANCELLED_CODE: i64 = -32800;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_come_from_backticks() {
        assert_eq!(backticked("did you mean `open_issues`?"), vec!["open_issues".to_owned()]);
        assert!(backticked("no hint").is_empty());
    }
}
