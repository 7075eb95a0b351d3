//! The search tool on the call path: rank the caller's surface for a query, activate what
//! was found for the caller's scope, and answer with the found tools' definitions. What a
//! search did (query, mode, what it found) is known here and nowhere else, so this is where
//! search telemetry is recorded.
//!
//! Activations live in the store under the caller's scope, so every replica sharing a store
//! lists the same tools for a session (see `crate::search`).

use std::collections::BTreeSet;

use serde_json::{Map, Value};
use toolshape_mask::SearchConfig;
use toolshape_shape::{AutoSpec, Data, Envelope, Failure, RenderMode, Shaper, Status};
use toolshape_util::{hex, random};

use super::finish::{Attached, Payload, Produced, Source};
use super::{Caller, Gateway, Outcome};
use crate::cursor::CursorKey;
use crate::search::{self, SearchArgs};

impl Gateway {
    /// The tools a search activated for `caller`'s scope.
    pub(super) async fn activations(&self, caller: &Caller) -> BTreeSet<String> {
        let key = search::activation_key(&hex(&CursorKey::scope_tag(&caller.scope)));
        match self.snapshots.store().get(&key).await {
            Ok(Some(bytes)) => search::decode_activations(&bytes),
            Ok(None) => BTreeSet::new(),
            Err(e) => {
                tracing::warn!(error = %e, "could not read the session's found tools");
                BTreeSet::new()
            }
        }
    }

    /// Add `found` to `caller`'s activated tools; true when any was new.
    async fn activate(&self, caller: &Caller, found: &[String], search: &SearchConfig) -> bool {
        let fresh: Vec<&String> = found.iter().filter(|n| !search.is_always_loaded(n)).collect();
        if fresh.is_empty() {
            return false;
        }
        let mut names = self.activations(caller).await;
        let before = names.len();
        names.extend(fresh.into_iter().cloned());
        if names.len() == before {
            return false;
        }
        let key = search::activation_key(&hex(&CursorKey::scope_tag(&caller.scope)));
        match self.snapshots.store().put(&key, search::encode_activations(&names), self.snapshots.ttl()).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %e, "could not keep the session's found tools");
                false
            }
        }
    }

    /// The search tool: rank the surface's tools for the query and answer with the best.
    pub(super) async fn search(
        &self,
        arguments: Option<&Map<String, Value>>,
        caller: &Caller,
        search: &SearchConfig,
    ) -> SearchAnswer {
        let shaper = search_shaper(self.loaded().masks.passthrough_shaper());
        let failed = |detail: String| {
            SearchAnswer::plain(Produced::Failed {
                failure: Failure::InvalidArguments { detail },
                shaper: shaper.clone(),
            })
        };
        let args = match SearchArgs::parse(arguments, search) {
            Ok(a) => a,
            Err(e) => return failed(e.to_string()),
        };
        let profile = self.profile_of(caller);
        let surface = match self.surface(profile, true).await {
            Ok(s) => s,
            Err(failure) => return SearchAnswer::plain(Produced::Failed { failure, shaper }),
        };
        let catalog = match self.search_index(profile, &surface, search) {
            Ok(c) => c,
            Err(e) => return failed(e.to_string()),
        };
        let findings = match catalog.find(args.mode, &args.query, args.limit) {
            Ok(found) => found,
            Err(e) => return failed(e.to_string()),
        };
        let query = Some(args.query.clone());
        if findings.names.is_empty() {
            let summary =
                search::nothing_found_summary(&args.query, args.mode, &findings, catalog.len(), &catalog.namespaces());
            return SearchAnswer {
                produced: Produced::Direct { envelope: empty_envelope(summary) },
                changed: false,
                shows_tools: false,
                query,
                findings: Some(findings),
            };
        }
        let changed = self.activate(caller, &findings.names, search).await;
        let payload = Payload::new(search::found_records(&surface, &findings.names));
        SearchAnswer {
            produced: Produced::Data {
                payload,
                shaper,
                resume: None,
                source: Source::Upstream,
                label: search.tool_name.clone(),
                attached: Attached::default(),
            },
            changed,
            shows_tools: true,
            query,
            findings: Some(findings),
        }
    }
}

/// What the search tool produced, and what the call path needs to know of it.
pub(super) struct SearchAnswer {
    /// The answer to shape.
    pub(super) produced: Produced,
    /// Whether the caller's tool list changed (new tools were activated).
    pub(super) changed: bool,
    /// Whether the answer shows tools: its summary then starts with how many tools matched
    /// and how many are shown (see [`lead_summary`]).
    pub(super) shows_tools: bool,
    /// The query, once the arguments were read.
    pub(super) query: Option<String>,
    /// What the search found, once it ran.
    pub(super) findings: Option<search::Findings>,
}

impl SearchAnswer {
    /// A refusal or failure: nothing searched.
    fn plain(produced: Produced) -> SearchAnswer {
        SearchAnswer { produced, changed: false, shows_tools: false, query: None, findings: None }
    }
}

/// Start the summary of a search's shaped answer with how many tools matched and how many
/// fit, and render it again, so the model reads that before what is shown.
pub(super) fn lead_summary(outcome: &mut Outcome, query: &str, findings: &search::Findings, render: RenderMode) {
    if outcome.envelope.status == Status::Error {
        return;
    }
    let returned = findings.names.len();
    // Records the budget left out are behind `next`; without a record count, all fit.
    let kept = match outcome.report.records_kept {
        0 => returned,
        n => usize::try_from(n).unwrap_or(returned),
    };
    let lead = search::found_lead(query, findings, kept);
    outcome.envelope.summary = format!("{lead}. {}", outcome.envelope.summary);
    outcome.text = toolshape_shape::render(&outcome.envelope, render, &random::nonce());
    outcome.report.bytes_out = outcome.text.len() as u64;
    // Counted again from the new text after the answer is sent.
    outcome.report.tokens_out = None;
}

/// An envelope for zero results, with a summary that says what to try next.
fn empty_envelope(summary: String) -> Envelope {
    Envelope { status: Status::Empty, summary, data: Data::Null, omitted: None, next: None }
}

/// The shaper for search results: the passthrough plan, counting tools, without the default
/// view's compaction: a found tool's input schema is what the model calls it with, so no
/// field of a definition may be folded away or cut short.
fn search_shaper(base: &Shaper) -> Shaper {
    let mut plan = base.plan().clone();
    plan.noun = Some("tools".to_owned());
    plan.auto = AutoSpec::OFF;
    Shaper::new(plan).unwrap_or_else(|_| base.clone())
}
