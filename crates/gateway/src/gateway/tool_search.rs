//! The search tool on the call path: rank the caller's surface for a query, activate what
//! was found for the caller's scope, and answer with the found tools' definitions. What a
//! search did (query, mode, what it found) is known here and nowhere else, so this is where
//! search telemetry is recorded.
//!
//! Activations live in the store under the caller's scope, so every replica sharing a store
//! lists the same tools for a session (see `crate::search`).

use std::collections::BTreeSet;

use serde_json::{Map, Value};
use toolshape_mask::{SearchConfig, SearchMode};
use toolshape_shape::{Data, Envelope, Failure, Shaper, Status};
use toolshape_util::hex;

use super::finish::{Attached, Payload, Produced, Source};
use super::{Caller, Gateway};
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
    /// The flag is true when the caller's tool list changed (new tools were activated).
    pub(super) async fn search(
        &self,
        arguments: Option<&Map<String, Value>>,
        caller: &Caller,
        search: &SearchConfig,
    ) -> (Produced, bool) {
        let shaper = search_shaper(self.loaded().masks.passthrough_shaper());
        let failed = |detail: String| {
            (Produced::Failed { failure: Failure::InvalidArguments { detail }, shaper: shaper.clone() }, false)
        };
        let args = match SearchArgs::parse(arguments, search) {
            Ok(a) => a,
            Err(e) => return failed(e.to_string()),
        };
        let profile = self.profile_of(caller);
        let surface = match self.surface(profile, true).await {
            Ok(s) => s,
            Err(failure) => return (Produced::Failed { failure, shaper }, false),
        };
        let catalog = match self.search_index(profile, &surface, search) {
            Ok(c) => c,
            Err(e) => return failed(e.to_string()),
        };
        let found = match catalog.search(args.mode, &args.query, args.limit) {
            Ok(found) => found,
            Err(e) => return failed(e.to_string()),
        };
        if found.is_empty() {
            let hint = match args.mode {
                SearchMode::Bm25 => "try other or fewer words, or mode \"regex\" with part of a tool name",
                SearchMode::Regex => "try a shorter pattern, or mode \"bm25\" with words describing the task",
            };
            let summary = format!("No tool matched {:?} among {} tools; {hint}.", args.query, catalog.len());
            return (Produced::Direct { envelope: empty_envelope(summary) }, false);
        }
        let changed = self.activate(caller, &found, search).await;
        let payload = Payload::new(search::found_records(&surface, &found));
        (
            Produced::Data {
                payload,
                shaper,
                resume: None,
                source: Source::Upstream,
                label: search.tool_name.clone(),
                attached: Attached::default(),
            },
            changed,
        )
    }
}

/// An envelope for zero results, with a summary that says what to try next.
fn empty_envelope(summary: String) -> Envelope {
    Envelope { status: Status::Empty, summary, data: Data::Null, omitted: None, next: None }
}

/// The shaper for search results: the passthrough plan, counting tools.
fn search_shaper(base: &Shaper) -> Shaper {
    let mut plan = base.plan().clone();
    plan.noun = Some("tools".to_owned());
    Shaper::new(plan).unwrap_or_else(|_| base.clone())
}
