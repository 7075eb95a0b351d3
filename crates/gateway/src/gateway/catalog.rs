//! The tool catalog: every upstream's tool list, the surface each profile sees (masks and
//! unmasked tools together), and the search index over each surface.
//!
//! Tool lists are asked for lazily: the first listing waits for every upstream whose tools
//! are exposed, so the first tool list is complete; an upstream that failed is retried in
//! the background, so a dead upstream never delays calls to the others, and agents are told
//! when its tools appear. Surfaces and indexes are built once per tool-list change and
//! profile, and shared by every session.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::{Arc, Mutex as StdMutex};

use serde_json::Value;
use tokio::sync::watch;
use toolshape_mask::{SearchConfig, Surface, ToolDefinition, UpstreamTool};
use toolshape_search::SearchError;
use toolshape_shape::Failure;
use toolshape_trust::{DefinitionHash, Hints, PinStatus, ToolKey};

use super::{Caller, Gateway};
use crate::agent::ListKind;
use crate::read;
use crate::search::{self, Catalog};
use crate::upstream::Upstream;

/// Tool lists, surfaces and search indexes, each behind its own lock.
#[derive(Default)]
pub(super) struct ToolCatalog {
    /// What upstreams listed, and the listings under way.
    listing: StdMutex<Listing>,
    /// Surfaces by profile, rebuilt after a tool-list change.
    surfaces: StdMutex<HashMap<Option<String>, Arc<Surface>>>,
    /// Search indexes by profile, each built from the surface it names.
    indexes: StdMutex<HashMap<Option<String>, Arc<Catalog>>>,
}

/// The upstreams' tool lists and the listings under way.
#[derive(Default)]
struct Listing {
    /// Tool lists fetched from upstreams; an upstream missing here has not been asked yet
    /// (or its last listing failed).
    tools: BTreeMap<String, Vec<UpstreamTool>>,
    /// The hash of each listed tool's definition, by (upstream, tool): what the lock file
    /// is compared with.
    hashes: BTreeMap<(String, String), DefinitionHash>,
    /// Upstreams whose tools were asked for at least once.
    asked: HashSet<String>,
    /// Upstreams whose tools are being asked for now.
    inflight: HashSet<String>,
    /// First listings in progress, for other callers to wait on.
    first_fetches: HashMap<String, watch::Receiver<bool>>,
}

impl ToolCatalog {
    /// Forget every surface (and so every index): the tools changed.
    fn forget_surfaces(&self) {
        if let Ok(mut s) = self.surfaces.lock() {
            s.clear();
        }
    }

    /// Forget what `upstreams` listed, as if never asked (a reload replaced or removed
    /// them), and every surface and index built with it.
    pub(super) fn forget_upstreams(&self, upstreams: &[String]) {
        if let Ok(mut listing) = self.listing.lock() {
            for name in upstreams {
                listing.tools.remove(name);
                listing.asked.remove(name);
            }
        }
        self.forget_surfaces();
        if let Ok(mut i) = self.indexes.lock() {
            i.clear();
        }
    }
}

impl Gateway {
    /// Ask the upstreams whose tools are listed and whose list is not known. Upstreams never
    /// asked before are waited for, so the first tool list is complete; upstreams that failed
    /// before are retried in the background, so a dead upstream never delays calls to the
    /// others, and agents are told when its tools appear.
    pub(super) async fn refresh_tools(&self) {
        self.refresh_tools_of(None).await;
    }

    /// [`Gateway::refresh_tools`] for the upstreams in `only` (all when `None`).
    pub(super) async fn refresh_tools_of(&self, only: Option<&BTreeSet<String>>) {
        let Some(me) = self.me.upgrade() else { return };
        let mut waits: Vec<watch::Receiver<bool>> = Vec::new();
        let mut first: Vec<(Arc<Upstream>, watch::Sender<bool>)> = Vec::new();
        let mut retry: Vec<Arc<Upstream>> = Vec::new();
        {
            let Ok(mut listing) = self.catalog.listing.lock() else { return };
            let listing = &mut *listing;
            for (name, up) in self.upstreams().iter() {
                if !self.exposes(name) || listing.tools.contains_key(name) || only.is_some_and(|o| !o.contains(name)) {
                    continue;
                }
                if let Some(rx) = listing.first_fetches.get(name) {
                    // Another caller started the first listing: wait for the same one.
                    waits.push(rx.clone());
                    continue;
                }
                if !listing.inflight.insert(name.clone()) {
                    continue;
                }
                if listing.asked.insert(name.clone()) {
                    let (tx, rx) = watch::channel(false);
                    listing.first_fetches.insert(name.clone(), rx.clone());
                    waits.push(rx);
                    first.push((up.clone(), tx));
                } else {
                    retry.push(up.clone());
                }
            }
        }
        // Detached tasks: a caller that gives up must not leave a listing half done.
        for up in retry {
            let gw = me.clone();
            tokio::spawn(async move {
                if gw.fetch_tools(&up).await {
                    gw.notify_tools_changed().await;
                }
            });
        }
        for (up, done) in first {
            let gw = me.clone();
            tokio::spawn(async move {
                gw.fetch_tools(&up).await;
                if let Ok(mut listing) = gw.catalog.listing.lock() {
                    listing.first_fetches.remove(up.name());
                }
                let _ = done.send(true);
            });
        }
        for mut rx in waits {
            let _ = rx.wait_for(|done| *done).await;
        }
    }

    /// List `up`'s tools into the catalog; true when it answered.
    async fn fetch_tools(&self, up: &Upstream) -> bool {
        let name = up.name().to_owned();
        let listed = up.list_tools().await;
        if let Ok(mut listing) = self.catalog.listing.lock() {
            listing.inflight.remove(&name);
        }
        match listed {
            Ok(tools) => {
                let hashes: BTreeMap<String, DefinitionHash> = tools
                    .iter()
                    .filter_map(|t| {
                        let json = serde_json::to_value(t).ok()?;
                        Some((t.name.to_string(), toolshape_trust::ToolDefinition::from_mcp(&json).ok()?.hash()))
                    })
                    .collect();
                self.trust.report_listing(&name, &hashes);
                let tools = tools
                    .into_iter()
                    .map(|t| UpstreamTool {
                        upstream: name.clone(),
                        name: t.name.to_string(),
                        description: t.description.map(|d| d.to_string()).unwrap_or_default(),
                        input_schema: Value::Object((*t.input_schema).clone()),
                        annotations: t.annotations.as_ref().and_then(|a| serde_json::to_value(a).ok()),
                    })
                    .collect();
                if let Ok(mut listing) = self.catalog.listing.lock() {
                    listing.hashes.retain(|(upstream, _), _| *upstream != name);
                    listing.hashes.extend(hashes.into_iter().map(|(tool, hash)| ((name.clone(), tool), hash)));
                    listing.tools.insert(name, tools);
                }
                self.catalog.forget_surfaces();
                true
            }
            Err(f) => {
                tracing::warn!(upstream = %name, error = %f.line("tools/list"), "could not list upstream tools");
                false
            }
        }
    }

    /// The surface `profile` sees, with every reachable upstream's tools.
    pub(super) async fn surface(&self, profile: Option<&str>, refresh: bool) -> Result<Arc<Surface>, Failure> {
        if refresh {
            self.refresh_tools().await;
        }
        let key = profile.map(str::to_owned);
        if let Some(s) = self.catalog.surfaces.lock().ok().and_then(|s| s.get(&key).cloned()) {
            return Ok(s);
        }
        let (all, held): (Vec<UpstreamTool>, BTreeSet<(String, String)>) = self
            .catalog
            .listing
            .lock()
            .map(|l| (l.tools.values().flatten().cloned().collect(), self.trust.held(&l.hashes)))
            .unwrap_or_default();
        let surface = self
            .loaded()
            .masks
            .surface_holding(profile, &all, &held)
            .map_err(|e| Failure::InvalidArguments { detail: e.to_string() })?;
        for note in surface.notes() {
            tracing::info!("{note}");
        }
        if let Some(search) = &self.loaded().config.search {
            for problem in search::dangling_patterns(&surface, search) {
                tracing::warn!("{problem}");
            }
        }
        let surface = Arc::new(surface);
        if let Ok(mut s) = self.catalog.surfaces.lock() {
            s.insert(key, surface.clone());
        }
        Ok(surface)
    }

    /// The search index over `surface`, built once per surface.
    pub(super) fn search_index(
        &self,
        profile: Option<&str>,
        surface: &Arc<Surface>,
        search: &SearchConfig,
    ) -> Result<Arc<Catalog>, SearchError> {
        let key = profile.map(str::to_owned);
        if let Some(c) = self.catalog.indexes.lock().ok().and_then(|c| c.get(&key).cloned())
            && Arc::ptr_eq(&c.surface, surface)
        {
            return Ok(c);
        }
        let catalog = Arc::new(Catalog::build(surface.clone(), &search::own_names(search))?);
        if let Ok(mut c) = self.catalog.indexes.lock() {
            c.insert(key, catalog.clone());
        }
        Ok(catalog)
    }

    /// Whether `tool` must stay in the model's context even under a client's own tool
    /// search: with a `search:` section, the `always_loaded` tools and the search and call
    /// tools (the model cannot search for the rest without them).
    pub fn stays_loaded(&self, tool: &str) -> bool {
        self.loaded().config.search.as_ref().is_some_and(|search| {
            search.is_always_loaded(tool) || tool == search.tool_name || tool == search.call_tool_name
        })
    }

    /// The tools `caller` sees: the surface (or, with search, its loaded part and the search
    /// and call tools), then `result_read`.
    pub async fn list_tools(&self, caller: &Caller) -> Vec<ToolDefinition> {
        // A tool approved with `toolshape pin --approve` while serving is listed again.
        self.reload_pins();
        let profile = self.profile_of(caller);
        let mut defs: Vec<ToolDefinition> = match (self.surface(profile, true).await, &self.loaded().config.search) {
            (Ok(s), None) => s.definitions().cloned().collect(),
            (Ok(s), Some(search)) => {
                let activated = self.activations(caller).await;
                let deferred = s.definitions().filter(|d| !search.is_always_loaded(&d.name)).count();
                search::session_tools(&s, search, &activated, deferred)
            }
            (Err(_), _) => Vec::new(),
        };
        defs.push(ToolDefinition {
            name: read::TOOL_NAME.to_owned(),
            description: read::DESCRIPTION.to_owned(),
            input_schema: read::input_schema(),
            annotations: None,
        });
        defs
    }

    /// Ask `upstream` for its tools again, and tell every agent.
    pub(super) async fn tools_changed(&self, upstream: &str) {
        // The old list is kept until the new one arrives: a call made meanwhile (servers
        // often announce several changes right after connecting) still finds its tool.
        let fetched = match self.upstream(upstream) {
            Some(up) if self.exposes(upstream) => self.fetch_tools(&up).await,
            _ => false,
        };
        if !fetched && let Ok(mut listing) = self.catalog.listing.lock() {
            listing.tools.remove(upstream);
            listing.hashes.retain(|(up, _), _| up != upstream);
        }
        self.catalog.forget_surfaces();
        self.notify_tools_changed().await;
    }

    /// Reads the lock file again if it changed on disk; true (and the surfaces forgotten)
    /// when the pins in force changed.
    pub(super) fn reload_pins(&self) -> bool {
        let changed = self.trust.reload_if_changed();
        if changed {
            self.catalog.forget_surfaces();
        }
        changed
    }

    /// How the listed tool `upstream/tool` stands against the lock.
    pub(super) fn pin_status(&self, upstream: &str, tool: &str) -> PinStatus {
        let key = (upstream.to_owned(), tool.to_owned());
        let hash = self.catalog.listing.lock().ok().and_then(|l| l.hashes.get(&key).cloned());
        match hash {
            Some(hash) => self.trust.status(&ToolKey::new(upstream, tool), &hash),
            None => PinStatus::New,
        }
    }

    /// The behaviour hints `upstream` lists for `tool` (none when it is not listed).
    pub(super) fn tool_hints(&self, upstream: &str, tool: &str) -> Hints {
        let Ok(listing) = self.catalog.listing.lock() else { return Hints::default() };
        listing
            .tools
            .get(upstream)
            .and_then(|tools| tools.iter().find(|t| t.name == tool))
            .and_then(|t| t.annotations.as_ref())
            .map(Hints::from_annotations)
            .unwrap_or_default()
    }

    /// Tell every agent the tool list changed.
    async fn notify_tools_changed(&self) {
        self.listeners.notify_all(ListKind::Tools).await;
    }
}
