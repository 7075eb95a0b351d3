//! The gateway's core: the tool surface, the one dispatch path every call takes, the
//! snapshots behind cursors, and the pass-through of prompts, resources and completions.
//!
//! [`Gateway::call`] is the only way a tool is called: masked tools, unmasked upstream tools
//! and `result_read` alike. Nothing reaches the agent any other way, so every tool inherits
//! the budget, the delimiters and the cursors.
//!
//! A [`Gateway`] is made of owned parts, each holding its own locks:
//! - [`Loaded`] (here): what the config decided (upstreams' specs, masks, tokenizer): the
//!   one value a reload of the config replaces.
//! - `catalog`: [`ToolCatalog`](catalog::ToolCatalog), the upstreams' tool lists, the
//!   surfaces built from them per profile and the search indexes over those surfaces.
//! - `call`: the dispatch path, from a tool name to what is shaped, with the checks made
//!   before an upstream is called in one place (`Gateway::prepare`).
//! - `tool_search`: the search tool and the tools each session's searches activated.
//! - `finish`: shaping what dispatch produced into the [`Outcome`] the agent gets.
//! - `snapshots`: [`Snapshots`](snapshots::Snapshots), where results live between a call
//!   and the `result_read` calls that page through them; `result_read` itself.
//! - `record`: the span and log line of each call, made after the answer is sent.
//! - `passthrough`: prompts, resources, completions, subscriptions and log levels, routed
//!   to the upstream that listed them ([`Routes`](passthrough::Routes)).
//! - `listeners` and `watches`: who is told of list changes and of resource updates.
//! - `outcome`: [`Caller`], [`Outcome`] and [`FailureKind`], the call path's vocabulary.
//! - `reload`: [`Gateway::reload`], a new config in place of the running one.
//! - `trust`: the lock file of pinned tool definitions and the repeated-call counter (the
//!   held tools, the argument guard and repeats are decided in `call`).

mod call;
mod catalog;
mod finish;
pub(crate) mod listeners;
mod media;
mod media_call;
mod media_store;
mod narrowed;
mod outcome;
mod passthrough;
mod record;
mod reload;
mod snapshots;
mod tool_search;
mod trust;
mod watches;

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock, Weak};
use std::time::Duration;

use tokio::sync::mpsc;
use toolshape_mask::{Config, MaskSet, PrefixPolicy};
use toolshape_telemetry::{Metrics, NoopSink, SpanSink};
use toolshape_tokens::Tokenizer;

pub use self::outcome::{Caller, FailureKind, Outcome};
pub use self::passthrough::RequestError;
pub use self::reload::Reloaded;
pub use self::trust::PinOptions;

use self::catalog::ToolCatalog;
use self::listeners::Listeners;
use self::passthrough::Routes;
use self::record::Recorder;
use self::snapshots::Snapshots;
use self::trust::Trust;
use self::watches::Watches;
use crate::GatewayError;
use crate::agent::ListKind;
use crate::cursor::CursorKey;
use crate::log_levels::LogLevels;
use crate::store::{Store, open as open_store, spec as store_spec};
use crate::upstream::{Upstream, UpstreamEvent};

/// Settings of a gateway that are not in the config file.
#[derive(Clone)]
pub struct GatewayOptions {
    /// The profile whose tools are shown (`None`: every tool).
    pub profile: Option<String>,
    /// How long snapshots (and so cursors) live; `None`: the config's `store.ttl_secs`.
    pub snapshot_ttl: Option<Duration>,
    /// The most bytes the store holds (memory and SQLite), the oldest snapshots evicted
    /// first; `None`: the config's `store.max_bytes`.
    pub store_bytes: Option<usize>,
    /// Whether tool lists advertise the envelope's JSON Schema as `outputSchema`.
    pub output_schema: bool,
    /// The secret cursors are signed with; `None` makes a random one for this process.
    pub secret: Option<Vec<u8>>,
    /// Where each call's span goes (the span log, metrics, export); nowhere by default.
    pub spans: Arc<dyn SpanSink>,
    /// The metrics the span sink updates, served at `/metrics` in HTTP mode.
    pub metrics: Option<Arc<Metrics>>,
    /// The lock file of pinned tool definitions, and what to do with tools it does not pin
    /// as served; `None`: tools are not compared with a lock.
    pub pins: Option<PinOptions>,
}

impl std::fmt::Debug for GatewayOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The secret is never printed, only whether there is one.
        f.debug_struct("GatewayOptions")
            .field("profile", &self.profile)
            .field("snapshot_ttl", &self.snapshot_ttl)
            .field("store_bytes", &self.store_bytes)
            .field("output_schema", &self.output_schema)
            .field("secret", &self.secret.as_ref().map(|_| "(set)"))
            .field("metrics", &self.metrics.is_some())
            .field("pins", &self.pins)
            .finish()
    }
}

impl Default for GatewayOptions {
    fn default() -> Self {
        GatewayOptions {
            profile: None,
            snapshot_ttl: None,
            store_bytes: None,
            output_schema: true,
            secret: None,
            spans: Arc::new(NoopSink),
            metrics: None,
            pins: None,
        }
    }
}

/// What the config decided for a running gateway. Everything the call path reads of the
/// config is read from here, so reloading the config means building a new `Loaded` (and
/// the upstreams it names) and putting it in place of this one.
pub(crate) struct Loaded {
    /// The config file, as loaded.
    pub(crate) config: Config,
    /// The compiled masks and profiles.
    pub(crate) masks: MaskSet,
    /// The tokenizer budgets are counted in.
    pub(crate) tokenizer: Tokenizer,
}

/// A running gateway: upstreams, masks, store and key.
pub struct Gateway {
    /// The config's decisions; a reload puts a new one in place (see `reload.rs`).
    loaded: RwLock<Arc<Loaded>>,
    options: GatewayOptions,
    /// The upstreams by name; a reload keeps those whose spec did not change.
    upstreams: RwLock<Arc<BTreeMap<String, Arc<Upstream>>>>,
    /// Where upstreams send their notifications (new upstreams of a reload too).
    events: mpsc::UnboundedSender<UpstreamEvent>,
    /// Tool lists, surfaces and search indexes.
    catalog: ToolCatalog,
    /// Snapshots behind cursors and handles, and the store they are kept in.
    snapshots: Snapshots,
    /// Which upstream listed each prompt and resource.
    routes: Routes,
    /// Agent sessions and subscriptions to tell of list changes.
    listeners: Listeners,
    /// Which sessions watch which upstream resource.
    watches: Watches,
    /// The log level each agent session set, shared with every upstream.
    log_levels: Arc<LogLevels>,
    /// Spans and log lines of answered calls.
    recorder: Recorder,
    /// Pinned tool definitions and the repeat counter.
    trust: Trust,
    /// This gateway, for background tasks that outlive a borrow of it.
    me: Weak<Gateway>,
}

impl Gateway {
    /// Build a gateway from a loaded config and start what must start now: the event loop
    /// for upstream notifications and the upstreams marked `start: eager`. Must run inside a
    /// Tokio runtime.
    ///
    /// Snapshots, handles, search activations and (over HTTP) session records are kept in the
    /// store the config's `store:` section chooses (memory by default), with
    /// `options.store_bytes` overriding its size; a SQLite file or Redis server that cannot
    /// be opened stops the launch.
    pub async fn launch(config: Config, masks: MaskSet, options: GatewayOptions) -> Result<Arc<Gateway>, GatewayError> {
        let spec = store_spec(&config.store, options.store_bytes)?;
        tracing::info!(store = ?spec, "opening the store");
        let store = open_store(&spec).await.map_err(GatewayError::Store)?;
        Gateway::launch_with_store(config, masks, options, store).await
    }

    /// As [`Gateway::launch`], with a store of the caller's choosing (the config's `store:`
    /// section then only gives the time to live).
    pub async fn launch_with_store(
        config: Config,
        masks: MaskSet,
        options: GatewayOptions,
        store: Arc<dyn Store>,
    ) -> Result<Arc<Gateway>, GatewayError> {
        masks.surface(options.profile.as_deref(), &[]).map_err(GatewayError::Profile)?;
        let ttl = options.snapshot_ttl.unwrap_or(Duration::from_secs(config.store.ttl_secs.max(1)));
        let key = match &options.secret {
            Some(s) => CursorKey::from_secret(s),
            None => CursorKey::random(),
        };
        let shared_store = config.store.backend != toolshape_mask::StoreBackend::Memory;
        let (events_tx, events_rx) = mpsc::unbounded_channel();
        let log_levels = Arc::new(LogLevels::default());
        let upstreams = config
            .upstreams
            .iter()
            .map(|(name, spec)| {
                let upstream = Upstream::new(name, spec.clone(), events_tx.clone(), log_levels.clone());
                (name.clone(), Arc::new(upstream))
            })
            .collect();
        let tokenizer = Tokenizer::new(masks.defaults().tokenizer);
        let recorder = Recorder::new(options.spans.clone());
        let trust = Trust::new(options.pins.clone(), masks.repeat_policy())?;
        let gw = Arc::new_cyclic(|me| Gateway {
            loaded: RwLock::new(Arc::new(Loaded { config, masks, tokenizer })),
            options,
            upstreams: RwLock::new(Arc::new(upstreams)),
            events: events_tx,
            catalog: ToolCatalog::default(),
            snapshots: Snapshots::new(store, key, ttl, shared_store),
            routes: Routes::default(),
            listeners: Listeners::default(),
            watches: Watches::default(),
            log_levels,
            recorder,
            trust,
            me: me.clone(),
        });
        tokio::spawn(event_loop(Arc::downgrade(&gw), events_rx));
        for (name, spec) in &gw.loaded().config.upstreams {
            if spec.start == toolshape_mask::StartPolicy::Eager
                && let Some(up) = gw.upstream(name)
            {
                tokio::spawn(async move { up.start().await });
            }
        }
        Ok(gw)
    }

    /// The options the gateway runs with.
    pub(crate) fn options(&self) -> &GatewayOptions {
        &self.options
    }

    /// The config's choices of how results are sent to each kind of client (as now loaded:
    /// a reload applies to requests that come after it).
    pub(crate) fn clients_config(&self) -> toolshape_mask::ClientsConfig {
        self.loaded().config.clients.clone()
    }

    /// The store snapshots, handles and search activations are kept in.
    pub(crate) fn store(&self) -> Arc<dyn Store> {
        self.snapshots.store().clone()
    }

    /// How long snapshots (and their cursors and handles) live.
    pub(crate) fn snapshot_ttl(&self) -> Duration {
        self.snapshots.ttl()
    }

    /// Whether the store is shared beyond this process (SQLite or Redis in the config), so
    /// that HTTP sessions are kept in it too and any replica (or this one, restarted) can
    /// resume them.
    pub fn store_is_shared(&self) -> bool {
        self.snapshots.is_shared()
    }

    /// Stop every upstream (child processes exit), and record the spans of answered calls.
    pub async fn shutdown(&self) {
        for up in self.upstreams().values() {
            up.stop().await;
        }
        // Every answered call's span and log line, before the caller flushes the span log.
        self.recorder.wait().await;
    }

    /// Who to tell when lists change: sessions that began with `initialize` and
    /// `subscriptions/listen` requests.
    pub(crate) fn listeners(&self) -> &Listeners {
        &self.listeners
    }

    /// Whether `upstream`'s tools are exposed unmasked (and so must be listed).
    fn exposes(&self, upstream: &str) -> bool {
        let loaded = self.loaded();
        let config = &loaded.config;
        config.upstreams.get(upstream).is_some_and(|u| u.expose_unmasked.unwrap_or(config.defaults.expose_unmasked))
    }

    /// The profile `caller` sees.
    fn profile_of<'c>(&'c self, caller: &'c Caller) -> Option<&'c str> {
        caller.profile.as_deref().or(self.options.profile.as_deref())
    }

    /// The upstreams connected right now. Prompts and resources are listed from these only:
    /// clients list them at start-up, and that must not wait for (or start) other upstreams.
    fn connected(&self) -> Vec<(String, Arc<Upstream>)> {
        self.upstreams().iter().filter(|(_, up)| up.is_up()).map(|(n, up)| (n.clone(), up.clone())).collect()
    }

    /// The config's decisions now (a reload may replace them at any time after).
    pub(crate) fn loaded(&self) -> Arc<Loaded> {
        self.loaded.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// The upstreams now, by name.
    fn upstreams(&self) -> Arc<BTreeMap<String, Arc<Upstream>>> {
        self.upstreams.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// The upstream named `name`, when the config has it.
    fn upstream(&self, name: &str) -> Option<Arc<Upstream>> {
        self.upstreams().get(name).cloned()
    }

    /// `name` of `upstream` as the agent sees it (prefixed as the config says).
    fn namespaced(&self, upstream: &str, name: &str) -> String {
        let loaded = self.loaded();
        let config = &loaded.config;
        match config.defaults.prefix {
            PrefixPolicy::None => name.to_owned(),
            PrefixPolicy::Upstream => {
                let prefix = config
                    .upstreams
                    .get(upstream)
                    .and_then(|u| u.prefix.clone())
                    .unwrap_or_else(|| upstream.to_owned());
                format!("{prefix}{}{name}", config.defaults.prefix_separator)
            }
        }
    }
}

/// Forwards upstream notifications to agents for as long as the gateway lives.
async fn event_loop(gw: Weak<Gateway>, mut events: mpsc::UnboundedReceiver<UpstreamEvent>) {
    while let Some(ev) = events.recv().await {
        let Some(gw) = gw.upgrade() else { return };
        match ev {
            UpstreamEvent::Tools(name) => {
                tracing::info!(upstream = %name, "upstream tool list changed");
                gw.tools_changed(&name).await;
            }
            UpstreamEvent::Prompts(_) => gw.listeners.notify_all(ListKind::Prompts).await,
            UpstreamEvent::Resources(_) => gw.listeners.notify_all(ListKind::Resources).await,
            UpstreamEvent::ResourceUpdated(name, uri) => gw.resource_updated(&name, &uri).await,
            UpstreamEvent::Reconnected(name) => {
                // Subscriptions lived on the old connection; make them again off this loop,
                // which must not wait on an upstream.
                let gw = gw.clone();
                tokio::spawn(async move { gw.subscribe_again(&name).await });
            }
        }
    }
}
