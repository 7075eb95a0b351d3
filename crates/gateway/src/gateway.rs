//! The gateway's core: the tool surface, the one dispatch path every call takes, and the
//! snapshots behind cursors.
//!
//! [`Gateway::call`] is the only way a tool is called: masked tools, unmasked upstream tools
//! and `result_read` alike. It produces either bytes to shape (with the shaper that applies)
//! or a [`Failure`], and one private step, `Gateway::finish`, turns either into the envelope
//! and the exact text the model reads, with a fresh nonce and, when something did not fit, a
//! signed cursor to a snapshot. Nothing reaches the agent any other way, so every tool inherits the budget,
//! the delimiters and the cursors.
//!
//! Snapshots are made after the response is built, on a blocking thread, so a large result
//! costs the caller one shaping pass, not two. A `result_read` that arrives before the
//! snapshot is stored waits for it: the snapshot's id is registered as pending before the
//! response leaves.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::{Arc, Mutex as StdMutex, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

#[expect(deprecated, reason = "logging/setLevel is answered for agents of the versions that have it")]
use rmcp::model::LoggingLevel;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult, Prompt, ReadResourceRequestParams,
    ReadResourceResult, Reference, Resource, ResourceTemplate, ResourceUpdatedNotificationParam,
};
use rmcp::{Peer, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use toolshape_mask::{
    CallContext, CallError, Config, MaskSet, PrefixPolicy, SearchConfig, SearchMode, Surface, ToolDefinition,
    UpstreamTool,
};
use toolshape_shape::{
    Continuation, Data, Envelope, Failure, Next, RenderMode, Resume, ShapeContext, ShapePlan, ShapeReport, Shaper,
    Status,
};
use toolshape_tokens::Tokenizer;

use crate::cursor::{Cursor, CursorError, CursorKey, SnapshotId};
use crate::listeners::{ListKind, Listeners};
use crate::log_levels::LogLevels;
use crate::read::{self, ReadArgs};
use crate::search::{self, Catalog, SearchArgs};
use crate::store::{Store, open as open_store, spec as store_spec};
use crate::upstream::{ProgressSink, Reply, Upstream, UpstreamEvent};
use crate::watches::{Added, MAX_WATCHES, Watches};
use crate::{GatewayError, random};
use toolshape_telemetry::{DEFAULT_EXACT_COUNT_LIMIT, Metrics, NoopSink, Span, SpanSink, TokensBefore};

/// How long a `result_read` waits for a snapshot still being made.
const PENDING_WAIT: Duration = Duration::from_secs(60);

/// How long after a cursor was signed a missing snapshot may still be on its way from
/// another replica (replicas store snapshots after answering, as this one does): a
/// `result_read` for a cursor this young polls the shared store before calling it expired.
const REPLICA_GRACE_SECS: u64 = 10;

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
        }
    }
}

/// Who is calling, as far as the gateway is concerned.
#[derive(Clone)]
pub struct Caller {
    /// The principal or session cursors are bound to.
    pub scope: String,
    /// The client session, for templates (`context.session`).
    pub session: Option<String>,
    /// The authenticated principal, for templates (`context.principal`).
    pub principal: Option<String>,
    /// The profile this caller sees; `None` falls back to the gateway's profile.
    pub profile: Option<String>,
    /// Fires when the client cancels the call.
    pub cancel: CancellationToken,
    pub(crate) progress: Option<ProgressSink>,
}

impl Caller {
    /// A caller with no session or principal, bound to `scope`.
    pub fn local(scope: &str) -> Caller {
        Caller {
            scope: scope.to_owned(),
            session: None,
            principal: None,
            profile: None,
            cancel: CancellationToken::new(),
            progress: None,
        }
    }
}

/// What one call produced for the model.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Exactly what the model reads: the rendered envelope inside its delimiters.
    pub text: String,
    /// The envelope.
    pub envelope: Envelope,
    /// What shaping measured. `tokens_out` is `None` for an answer that fits its budget by
    /// its bytes alone: it is counted for the call's span once the answer is sent
    /// (`Shaper::shape_uncounted`); count `text` when the number is needed sooner.
    pub report: ShapeReport,
    /// The kind of failure (`timeout`, `crashed`, ...), when the call failed.
    pub failure: Option<&'static str>,
    /// Whether this call changed the caller's tool list (a search activated tools), so the
    /// client should be sent `tools/list_changed`.
    pub tools_changed: bool,
}

impl Outcome {
    /// Whether the envelope reports an error.
    pub fn is_error(&self) -> bool {
        self.envelope.status == Status::Error
    }
}

/// What the gateway keeps with a snapshot's bytes in the store.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct SnapshotMeta {
    /// The tool whose result this is (for summaries).
    tool: String,
    /// The plan that reads its pages.
    plan: ShapePlan,
    /// The scope tag, hex.
    scope: String,
}

/// Bytes shared without copying: a stored value from `start` on.
#[derive(Clone)]
struct Payload {
    buf: Arc<Vec<u8>>,
    start: usize,
}

impl Payload {
    fn new(bytes: Vec<u8>) -> Payload {
        Payload { buf: Arc::new(bytes), start: 0 }
    }

    fn as_slice(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or_default()
    }
}

/// Where the data behind a result's `next` lives.
enum Source {
    /// An upstream result: its snapshot is made from it with the shaper, if needed.
    Upstream,
    /// A view made by `result_read`: already in page form, stored as is if needed.
    View,
    /// A page of a stored snapshot: `next` points into the same snapshot.
    Stored { id: SnapshotId, expires: u32 },
}

/// What dispatch produced before shaping.
enum Produced {
    Data {
        payload: Payload,
        shaper: Shaper,
        resume: Option<Resume>,
        source: Source,
        label: String,
    },
    Failed {
        failure: Failure,
        shaper: Shaper,
    },
    /// An envelope made whole by the gateway (a search that found nothing).
    Direct {
        envelope: Envelope,
    },
}

/// Writes `next` as a `result_read` call with a signed cursor.
struct CursorContinuation {
    key: CursorKey,
    snapshot: SnapshotId,
    expires: u32,
    scope: [u8; 8],
}

impl Continuation for CursorContinuation {
    fn next(&self, resume: &Resume) -> Next {
        let cursor =
            Cursor { snapshot: self.snapshot, resume: resume.clone(), expires_unix: self.expires, scope: self.scope };
        let mut arguments = Map::new();
        let name = if matches!(resume, Resume::Handle) { "handle" } else { "cursor" };
        arguments.insert(name.into(), Value::String(self.key.encode(&cursor)));
        Next { tool: read::TOOL_NAME.to_owned(), arguments }
    }
}

/// A running gateway: upstreams, masks, store and key.
pub struct Gateway {
    config: Config,
    masks: MaskSet,
    options: GatewayOptions,
    upstreams: BTreeMap<String, Arc<Upstream>>,
    store: Arc<dyn Store>,
    /// How long snapshots, cursors and search activations live.
    snapshot_ttl: Duration,
    key: CursorKey,
    tokenizer: Tokenizer,
    /// Tool lists fetched from upstreams; an upstream missing here has not been asked yet.
    tools: StdMutex<BTreeMap<String, Vec<UpstreamTool>>>,
    /// Surfaces by profile, rebuilt after a tool-list change.
    surfaces: StdMutex<HashMap<Option<String>, Arc<Surface>>>,
    /// Search indexes by profile, each built from the surface it names.
    catalogs: StdMutex<HashMap<Option<String>, Arc<Catalog>>>,
    /// Upstreams whose tools were asked for at least once.
    asked: StdMutex<HashSet<String>>,
    /// Upstreams whose tools are being asked for now.
    inflight: StdMutex<HashSet<String>>,
    /// First listings in progress, for other callers to wait on.
    first_fetches: StdMutex<HashMap<String, watch::Receiver<bool>>>,
    /// This gateway, for background tasks that outlive a borrow of it.
    me: Weak<Gateway>,
    pending: Arc<StdMutex<HashMap<SnapshotId, watch::Receiver<bool>>>>,
    /// Agent sessions and subscriptions to tell of list changes.
    listeners: Listeners,
    prompt_routes: StdMutex<HashMap<String, (String, String)>>,
    resource_routes: StdMutex<HashMap<String, String>>,
    /// The log level each agent session set, shared with every upstream.
    log_levels: Arc<LogLevels>,
    /// Which sessions watch which upstream resource.
    watches: Watches,
    /// Spans and log lines of answered calls, not yet recorded.
    after_reply: TaskTracker,
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
        let snapshot_ttl = options.snapshot_ttl.unwrap_or(Duration::from_secs(config.store.ttl_secs.max(1)));
        let key = match &options.secret {
            Some(s) => CursorKey::from_secret(s),
            None => CursorKey::random(),
        };
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
        let gw = Arc::new_cyclic(|me| Gateway {
            config,
            masks,
            options,
            upstreams,
            store,
            snapshot_ttl,
            key,
            tokenizer,
            tools: StdMutex::new(BTreeMap::new()),
            surfaces: StdMutex::new(HashMap::new()),
            catalogs: StdMutex::new(HashMap::new()),
            asked: StdMutex::new(HashSet::new()),
            inflight: StdMutex::new(HashSet::new()),
            first_fetches: StdMutex::new(HashMap::new()),
            me: me.clone(),
            pending: Arc::new(StdMutex::new(HashMap::new())),
            listeners: Listeners::default(),
            prompt_routes: StdMutex::new(HashMap::new()),
            resource_routes: StdMutex::new(HashMap::new()),
            log_levels,
            watches: Watches::default(),
            after_reply: TaskTracker::new(),
        });
        tokio::spawn(event_loop(Arc::downgrade(&gw), events_rx));
        for (name, spec) in &gw.config.upstreams {
            if spec.start == toolshape_mask::StartPolicy::Eager
                && let Some(up) = gw.upstreams.get(name).cloned()
            {
                tokio::spawn(async move { up.start().await });
            }
        }
        Ok(gw)
    }

    /// The options the gateway runs with.
    pub fn options(&self) -> &GatewayOptions {
        &self.options
    }

    /// The store snapshots, handles and search activations are kept in.
    pub fn store(&self) -> Arc<dyn Store> {
        self.store.clone()
    }

    /// How long snapshots (and their cursors and handles) live.
    pub fn snapshot_ttl(&self) -> Duration {
        self.snapshot_ttl
    }

    /// Whether the store is shared beyond this process (SQLite or Redis in the config), so
    /// that HTTP sessions are kept in it too and any replica (or this one, restarted) can
    /// resume them.
    pub fn store_is_shared(&self) -> bool {
        self.config.store.backend != toolshape_mask::StoreBackend::Memory
    }

    /// Stop every upstream (child processes exit), and record the spans of answered calls.
    pub async fn shutdown(&self) {
        for up in self.upstreams.values() {
            up.stop().await;
        }
        // Every answered call's span and log line, before the caller flushes the span log.
        self.after_reply.close();
        self.after_reply.wait().await;
    }

    /// Who to tell when lists change: sessions that began with `initialize` and
    /// `subscriptions/listen` requests.
    pub(crate) fn listeners(&self) -> &Listeners {
        &self.listeners
    }

    fn exposes(&self, upstream: &str) -> bool {
        self.config
            .upstreams
            .get(upstream)
            .is_some_and(|u| u.expose_unmasked.unwrap_or(self.config.defaults.expose_unmasked))
    }

    /// Ask the upstreams whose tools are listed and whose list is not known. Upstreams never
    /// asked before are waited for, so the first tool list is complete; upstreams that failed
    /// before are retried in the background, so a dead upstream never delays calls to the
    /// others, and agents are told when its tools appear.
    async fn refresh_tools(&self) {
        self.refresh_tools_of(None).await;
    }

    /// [`Gateway::refresh_tools`] for the upstreams in `only` (all when `None`).
    async fn refresh_tools_of(&self, only: Option<&BTreeSet<String>>) {
        let Some(me) = self.me.upgrade() else { return };
        let mut waits: Vec<watch::Receiver<bool>> = Vec::new();
        let mut first: Vec<(Arc<Upstream>, watch::Sender<bool>)> = Vec::new();
        let mut retry: Vec<Arc<Upstream>> = Vec::new();
        {
            let known = self.tools.lock().map(|t| t.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
            let (Ok(mut asked), Ok(mut inflight), Ok(mut firsts)) =
                (self.asked.lock(), self.inflight.lock(), self.first_fetches.lock())
            else {
                return;
            };
            for (name, up) in &self.upstreams {
                if !self.exposes(name) || known.contains(name) || only.is_some_and(|o| !o.contains(name)) {
                    continue;
                }
                if let Some(rx) = firsts.get(name) {
                    // Another caller started the first listing: wait for the same one.
                    waits.push(rx.clone());
                    continue;
                }
                if !inflight.insert(name.clone()) {
                    continue;
                }
                if asked.insert(name.clone()) {
                    let (tx, rx) = watch::channel(false);
                    firsts.insert(name.clone(), rx.clone());
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
                if let Ok(mut firsts) = gw.first_fetches.lock() {
                    firsts.remove(up.name());
                }
                let _ = done.send(true);
            });
        }
        for mut rx in waits {
            let _ = rx.wait_for(|done| *done).await;
        }
    }

    /// List `up`'s tools into the cache; true when it answered.
    async fn fetch_tools(&self, up: &Upstream) -> bool {
        let name = up.name().to_owned();
        let listed = up.list_tools().await;
        if let Ok(mut inflight) = self.inflight.lock() {
            inflight.remove(&name);
        }
        match listed {
            Ok(tools) => {
                let tools = tools
                    .into_iter()
                    .map(|t| UpstreamTool {
                        upstream: name.clone(),
                        name: t.name.to_string(),
                        description: t.description.map(|d| d.to_string()).unwrap_or_default(),
                        input_schema: Value::Object((*t.input_schema).clone()),
                    })
                    .collect();
                if let Ok(mut all) = self.tools.lock() {
                    all.insert(name, tools);
                }
                self.forget_surfaces();
                true
            }
            Err(f) => {
                tracing::warn!(upstream = %name, error = %f.line("tools/list"), "could not list upstream tools");
                false
            }
        }
    }

    fn forget_surfaces(&self) {
        if let Ok(mut s) = self.surfaces.lock() {
            s.clear();
        }
    }

    /// The profile `caller` sees.
    fn profile_of<'c>(&'c self, caller: &'c Caller) -> Option<&'c str> {
        caller.profile.as_deref().or(self.options.profile.as_deref())
    }

    /// The surface `profile` sees, with every reachable upstream's tools.
    async fn surface(&self, profile: Option<&str>, refresh: bool) -> Result<Arc<Surface>, Failure> {
        if refresh {
            self.refresh_tools().await;
        }
        let key = profile.map(str::to_owned);
        if let Some(s) = self.surfaces.lock().ok().and_then(|s| s.get(&key).cloned()) {
            return Ok(s);
        }
        let all: Vec<UpstreamTool> =
            self.tools.lock().map(|t| t.values().flatten().cloned().collect()).unwrap_or_default();
        let surface =
            self.masks.surface(profile, &all).map_err(|e| Failure::InvalidArguments { detail: e.to_string() })?;
        for note in surface.notes() {
            tracing::info!("{note}");
        }
        if let Some(search) = &self.config.search {
            for problem in search::dangling_patterns(&surface, search) {
                tracing::warn!("{problem}");
            }
        }
        let surface = Arc::new(surface);
        if let Ok(mut s) = self.surfaces.lock() {
            s.insert(key, surface.clone());
        }
        Ok(surface)
    }

    /// The search index over `surface`, built once per surface.
    fn catalog(
        &self,
        profile: Option<&str>,
        surface: &Arc<Surface>,
        search: &SearchConfig,
    ) -> Result<Arc<Catalog>, String> {
        let key = profile.map(str::to_owned);
        if let Some(c) = self.catalogs.lock().ok().and_then(|c| c.get(&key).cloned())
            && Arc::ptr_eq(&c.surface, surface)
        {
            return Ok(c);
        }
        let catalog = Arc::new(Catalog::build(surface.clone(), &search::own_names(search)).map_err(|e| e.to_string())?);
        if let Ok(mut c) = self.catalogs.lock() {
            c.insert(key, catalog.clone());
        }
        Ok(catalog)
    }

    /// The tools `caller` sees: the surface (or, with search, its loaded part and the search
    /// and call tools), then `result_read`.
    pub async fn list_tools(&self, caller: &Caller) -> Vec<ToolDefinition> {
        let profile = self.profile_of(caller);
        let mut defs: Vec<ToolDefinition> = match (self.surface(profile, true).await, &self.config.search) {
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
        });
        defs
    }

    /// The tools a search activated for `caller`'s scope.
    async fn activations(&self, caller: &Caller) -> BTreeSet<String> {
        let key = search::activation_key(&hex(&CursorKey::scope_tag(&caller.scope)));
        match self.store.get(&key).await {
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
        match self.store.put(&key, search::encode_activations(&names), self.snapshot_ttl).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %e, "could not keep the session's found tools");
                false
            }
        }
    }

    /// The search tool: rank the surface's tools for the query and answer with the best.
    async fn search(
        &self,
        arguments: Option<&Map<String, Value>>,
        caller: &Caller,
        search: &SearchConfig,
    ) -> (Produced, bool) {
        let shaper = search_shaper(self.masks.passthrough_shaper());
        let failed = |detail: String| {
            (Produced::Failed { failure: Failure::InvalidArguments { detail }, shaper: shaper.clone() }, false)
        };
        let args = match SearchArgs::parse(arguments, search) {
            Ok(a) => a,
            Err(detail) => return failed(detail),
        };
        let profile = self.profile_of(caller);
        let surface = match self.surface(profile, true).await {
            Ok(s) => s,
            Err(failure) => return (Produced::Failed { failure, shaper }, false),
        };
        let catalog = match self.catalog(profile, &surface, search) {
            Ok(c) => c,
            Err(detail) => return failed(detail),
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
            Produced::Data { payload, shaper, resume: None, source: Source::Upstream, label: search.tool_name.clone() },
            changed,
        )
    }

    /// Call `tool` as the agent would. Every call goes through here and comes back as an
    /// envelope: results, upstream failures and refused calls alike.
    pub async fn call(&self, tool: &str, arguments: Option<Map<String, Value>>, caller: &Caller) -> Outcome {
        let started = Instant::now();
        let mut tools_changed = false;
        let search = self.config.search.as_ref();
        // The tool whose span this is: a generic call counts as the tool it called.
        let mut target = tool.to_owned();
        let (produced, upstream) = if tool == read::TOOL_NAME {
            (self.read(arguments.as_ref(), caller).await, None)
        } else if let Some(search) = search.filter(|s| s.tool_name == tool) {
            let (produced, changed) = self.search(arguments.as_ref(), caller, search).await;
            tools_changed = changed;
            (produced, None)
        } else if let Some(search) = search.filter(|s| s.call_tool_name == tool) {
            match search::parse_call(arguments) {
                Ok((name, _)) if search::own_names(search).contains(&name.as_str()) => {
                    let detail = format!("`{name}` is one of the gateway's own tools; call it directly");
                    let shaper = self.masks.passthrough_shaper().clone();
                    (Produced::Failed { failure: Failure::InvalidArguments { detail }, shaper }, None)
                }
                Ok((name, inner)) => {
                    let forwarded = self.forward(&name, inner, caller).await;
                    target = name;
                    forwarded
                }
                Err(detail) => {
                    let shaper = self.masks.passthrough_shaper().clone();
                    (Produced::Failed { failure: Failure::InvalidArguments { detail }, shaper }, None)
                }
            }
        } else {
            self.forward(tool, arguments, caller).await
        };
        let dispatched = started.elapsed();
        let raw = match &produced {
            Produced::Data { payload, source: Source::Upstream, .. } => Some(payload.buf.clone()),
            _ => None,
        };
        let mut outcome = self.finish(produced, tool, caller).await;
        outcome.tools_changed = tools_changed;
        let record = CallRecord {
            tool: tool.to_owned(),
            target,
            upstream,
            principal: caller.principal.clone(),
            session: caller.session.clone(),
            raw,
            status: outcome.envelope.status,
            failure: outcome.failure,
            report: outcome.report.clone(),
            // Counted here when shaping left it (an answer that fits by its bytes).
            uncounted_text: outcome.report.tokens_out.is_none().then(|| outcome.text.clone()),
            dispatched,
            shaped: started.elapsed().saturating_sub(dispatched),
        };
        self.after_reply(record);
        outcome
    }

    /// Record the call's span and write its log line once the answer is on its way: the
    /// work is spawned, and yields once before doing anything, so the task that writes the
    /// answer runs first (on the single-threaded stdio runtime this puts it after the write;
    /// on a multi-threaded one it runs alongside). [`Gateway::shutdown`] waits for it.
    fn after_reply(&self, record: CallRecord) {
        let Some(me) = self.me.upgrade() else {
            self.record_call(record);
            return;
        };
        self.after_reply.spawn(async move {
            tokio::task::yield_now().await;
            me.record_call(record);
        });
    }

    /// The span and the log line of one call.
    fn record_call(&self, mut record: CallRecord) {
        if let Some(text) = record.uncounted_text.take() {
            record.report.tokens_out = Some(self.tokenizer.count(&text) as u64);
        }
        let r = &record.report;
        tracing::info!(
            tool = record.tool,
            upstream = record.upstream.as_deref().unwrap_or("-"),
            status = record.status.as_str(),
            failure = record.failure.unwrap_or("-"),
            bytes_in = r.bytes_in,
            bytes_out = r.bytes_out,
            tokens_out = r.tokens_out,
            records_kept = r.records_kept,
            records_omitted = r.records_omitted,
            cut_at = r.cut_at.as_deref().unwrap_or("-"),
            dispatch_ms = record.dispatched.as_millis(),
            shape_ms = record.shaped.as_millis(),
            "call"
        );
        self.record_span(record);
    }

    /// Hand the call's span to the sink. The pre-shaping tokens are counted by the sink's
    /// thread, from the upstream bytes (shared, not copied).
    fn record_span(&self, record: CallRecord) {
        let mut span = Span::from_report(&record.target, record.status, &record.report, TokensBefore::Exact(0));
        span.mask = self.masks.mask_names().any(|m| m == record.target).then(|| record.target.clone());
        span.upstream = record.upstream;
        span.principal = record.principal;
        span.session = record.session;
        span.upstream_ms = record.dispatched.as_secs_f64() * 1000.0;
        span.shaping_ms = record.shaped.as_secs_f64() * 1000.0;
        span.tokens_before = match record.raw {
            Some(bytes) if bytes.len() <= DEFAULT_EXACT_COUNT_LIMIT => TokensBefore::Pending(bytes),
            Some(bytes) => TokensBefore::estimate(bytes.len() as u64),
            // Failures had nothing before shaping; pages of a stored result claim no savings
            // of their own (the first page's span did).
            None => TokensBefore::Exact(if record.status == Status::Error { 0 } else { span.tokens_after }),
        };
        self.options.spans.record(span);
    }

    /// A masked or unmasked upstream tool: prepare, call, and hand the result on to shaping.
    async fn forward(
        &self,
        tool: &str,
        arguments: Option<Map<String, Value>>,
        caller: &Caller,
    ) -> (Produced, Option<String>) {
        let fallback = || self.masks.passthrough_shaper().clone();
        // The known surface first: asking upstreams again is only worth it for a name it
        // does not have (a call before any tools/list, or a tool that just appeared).
        let profile = self.profile_of(caller);
        let surface = match self.surface(profile, false).await {
            Ok(s) if s.get(tool).is_some() => Ok(s),
            _ => {
                // Ask the upstreams the name points to first: a call must not wait for an
                // unrelated upstream that is slow to start.
                let likely = self.masks.upstreams_for(tool).filter(|set| !set.is_empty());
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
        };
        let surface = match surface {
            Ok(s) => s,
            Err(failure) => return (Produced::Failed { failure, shaper: fallback() }, None),
        };
        let ctx = CallContext { session: caller.session.clone(), principal: caller.principal.clone() };
        let args = Value::Object(arguments.unwrap_or_default());
        let prepared = match self.masks.prepare_call(&surface, tool, args, &ctx) {
            Ok(p) => p,
            Err(e) => {
                let shaper = self.masks.shaper(&surface, tool).cloned().unwrap_or_else(|_| fallback());
                return (Produced::Failed { failure: call_failure(e), shaper }, None);
            }
        };
        let shaper = prepared.shaper.clone();
        let upstream_name = prepared.upstream.clone();
        let Some(upstream) = self.upstreams.get(&prepared.upstream) else {
            let failure = Failure::Unavailable { upstream: upstream_name.clone(), detail: "not configured".into() };
            return (Produced::Failed { failure, shaper }, Some(upstream_name));
        };
        let arguments = match prepared.arguments {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        let produced =
            match upstream.call(&prepared.upstream_tool, arguments, caller.progress.clone(), &caller.cancel).await {
                Ok(Reply::Result(bytes)) => Produced::Data {
                    payload: Payload::new(bytes),
                    shaper,
                    resume: None,
                    source: Source::Upstream,
                    label: tool.to_owned(),
                },
                Ok(Reply::ToolError(text)) => Produced::Failed { failure: Failure::ToolError { text }, shaper },
                Err(failure) => Produced::Failed { failure, shaper },
            };
        (produced, Some(upstream_name))
    }

    /// `result_read`: check the cursor, find the snapshot, and read a page or make a view.
    async fn read(&self, arguments: Option<&Map<String, Value>>, caller: &Caller) -> Produced {
        let fallback = self.masks.passthrough_shaper().clone();
        let failed = |failure: Failure| Produced::Failed { failure, shaper: fallback.clone() };
        let args = match ReadArgs::parse(arguments) {
            Ok(a) => a,
            Err(detail) => return failed(Failure::InvalidArguments { detail }),
        };
        let scope = CursorKey::scope_tag(&caller.scope);
        let cursor = match self.key.decode(args.token(), &scope, now_unix()) {
            Ok(c) => c,
            Err(CursorError::Expired) => return failed(Failure::CursorExpired),
            Err(e) => return failed(Failure::CursorInvalid { detail: e.to_string() }),
        };
        let signed_unix = u64::from(cursor.expires_unix).saturating_sub(self.snapshot_ttl.as_secs());
        let (meta, payload) = match self.load_snapshot(cursor.snapshot, signed_unix).await {
            Ok(Some(found)) => found,
            // Expired or evicted before its cursor: the cursor cannot be honoured.
            Ok(None) => return failed(Failure::CursorExpired),
            Err(failure) => return failed(failure),
        };
        if meta.scope != hex(&scope) {
            return failed(Failure::CursorInvalid { detail: CursorError::OtherScope.to_string() });
        }
        let shaper = match Shaper::new(meta.plan.clone()) {
            Ok(s) => s,
            Err(e) => return failed(Failure::CursorInvalid { detail: format!("stored plan is unusable: {e}") }),
        };
        if args.wants_view() {
            let view_args = args.clone();
            let source = payload.clone();
            let view = tokio::task::spawn_blocking(move || read::make_view(source.as_slice(), &view_args)).await;
            return match view {
                Ok(Ok(bytes)) => Produced::Data {
                    payload: Payload::new(bytes),
                    shaper,
                    resume: None,
                    source: Source::View,
                    label: meta.tool,
                },
                Ok(Err(e)) => Produced::Failed { failure: Failure::InvalidArguments { detail: e.to_string() }, shaper },
                Err(_) => Produced::Failed {
                    failure: Failure::InvalidArguments { detail: "the view could not be made".into() },
                    shaper,
                },
            };
        }
        let (shaper, resume) = match cursor.resume {
            Resume::Handle => (shaper, None),
            r @ Resume::Fields { .. } => (shaper.without_caps(), Some(r)),
            r => (shaper, Some(r)),
        };
        Produced::Data {
            payload,
            shaper,
            resume,
            source: Source::Stored { id: cursor.snapshot, expires: cursor.expires_unix },
            label: meta.tool,
        }
    }

    /// The stored snapshot `id`, whose cursor was signed at `signed_unix`, waiting for it if
    /// it is still being made here, or (for a young cursor) by another replica. A store that
    /// cannot be reached is [`Failure::Unavailable`], so the agent retries later rather than
    /// repeating the original call.
    async fn load_snapshot(
        &self,
        id: SnapshotId,
        signed_unix: u64,
    ) -> Result<Option<(SnapshotMeta, Payload)>, Failure> {
        let unavailable = |e: crate::store::StoreError| Failure::Unavailable {
            upstream: "snapshot store".into(),
            detail: e.to_string(),
        };
        let pending = self.pending.lock().ok().and_then(|p| p.get(&id).cloned());
        let made_here = pending.is_some();
        if let Some(mut rx) = pending {
            let _ = tokio::time::timeout(PENDING_WAIT, rx.wait_for(|done| *done)).await;
        }
        let mut found = self.store.get(&store_key(id)).await.map_err(unavailable)?;
        if found.is_none() && !made_here && self.store_is_shared() {
            let deadline = signed_unix.saturating_add(REPLICA_GRACE_SECS);
            let mut delay = Duration::from_millis(10);
            while found.is_none() && now_unix() < deadline {
                tokio::time::sleep(delay).await;
                delay = (delay * 2).min(Duration::from_millis(250));
                found = self.store.get(&store_key(id)).await.map_err(unavailable)?;
            }
        }
        let Some(buf) = found else {
            return Ok(None);
        };
        let damaged = || Failure::CursorInvalid { detail: "stored snapshot is damaged".into() };
        let Some(newline) = buf.iter().position(|&b| b == b'\n') else {
            return Err(damaged());
        };
        let meta: SnapshotMeta = serde_json::from_slice(&buf[..newline]).map_err(|_| damaged())?;
        Ok(Some((meta, Payload { buf, start: newline + 1 })))
    }

    /// Shape what dispatch produced into the outcome the agent gets; keep a snapshot when
    /// `next` needs one.
    async fn finish(&self, produced: Produced, tool: &str, caller: &Caller) -> Outcome {
        let nonce = random::nonce();
        let scope = CursorKey::scope_tag(&caller.scope);
        let tokenizer = self.tokenizer;
        match produced {
            Produced::Direct { envelope } => {
                let text = toolshape_shape::render(&envelope, self.masks.passthrough_shaper().plan().render, &nonce);
                let report = ShapeReport {
                    bytes_out: text.len() as u64,
                    tokens_out: Some(self.tokenizer.count(&text) as u64),
                    ..ShapeReport::default()
                };
                Outcome { text, envelope, report, failure: None, tools_changed: false }
            }
            Produced::Failed { failure, shaper } => {
                let kind = failure.kind();
                let tool_name = tool.to_owned();
                // Most failures are a line or two: handing them to the blocking pool and back
                // would cost more than shaping them.
                let inline = failure_text_len(&failure) <= INLINE_SHAPE_MAX_BYTES;
                let shaped = shape_off_task(inline, move || {
                    let none = NoContinuation;
                    let ctx = ShapeContext {
                        tool: &tool_name,
                        tokenizer,
                        nonce: &nonce,
                        now_unix: None,
                        resume: None,
                        continuation: &none,
                    };
                    match shaper.shape_failure(&failure, &ctx) {
                        Ok(s) => Ok(s),
                        Err(e) => Err((e.to_string(), nonce)),
                    }
                })
                .await;
                let mut outcome = match shaped {
                    Some(shaped) => into_outcome(Ok(shaped)),
                    None => bare_error("shaping failed unexpectedly; retry the call", &random::nonce()),
                };
                outcome.failure = Some(kind);
                outcome
            }
            Produced::Data { payload, shaper, resume, source, label } => {
                let (id, expires) = match &source {
                    Source::Stored { id, expires } => (*id, *expires),
                    _ => (SnapshotId::random(), expiry(self.snapshot_ttl)),
                };
                let continuation = CursorContinuation { key: self.key.clone(), snapshot: id, expires, scope };
                let job_shaper = shaper.clone();
                let job_payload = payload.clone();
                let job_label = label.clone();
                let inline = payload.as_slice().len() <= INLINE_SHAPE_MAX_BYTES;
                let shaped = shape_off_task(inline, move || {
                    let ctx = ShapeContext {
                        tool: &job_label,
                        tokenizer,
                        nonce: &nonce,
                        now_unix: Some(now_unix() as i64),
                        resume,
                        continuation: &continuation,
                    };
                    // The count a small answer's report needs is made after the answer is sent.
                    job_shaper.shape_uncounted(job_payload.as_slice(), &ctx).map_err(|e| (e.to_string(), nonce.clone()))
                })
                .await;
                let outcome = match shaped {
                    Some(shaped) => into_outcome(Ok(shaped)),
                    None => bare_error("shaping failed unexpectedly; retry the call", &random::nonce()),
                };
                if outcome.report.needs_snapshot && !matches!(source, Source::Stored { .. }) {
                    self.keep_snapshot(id, payload, shaper, source, label, hex(&scope));
                }
                outcome
            }
        }
    }

    /// Register `id` as pending, then make and store its snapshot in the background.
    fn keep_snapshot(
        &self,
        id: SnapshotId,
        payload: Payload,
        shaper: Shaper,
        source: Source,
        tool: String,
        scope: String,
    ) {
        let (tx, rx) = watch::channel(false);
        if let Ok(mut p) = self.pending.lock() {
            p.insert(id, rx);
        }
        let store = self.store.clone();
        let pending = self.pending.clone();
        let ttl = self.snapshot_ttl;
        let tokenizer = self.tokenizer;
        tokio::spawn(async move {
            let started = Instant::now();
            let made = tokio::task::spawn_blocking(move || {
                let (plan, bytes) = match source {
                    Source::View => (shaper.plan().clone(), payload.as_slice().to_vec()),
                    _ => {
                        let none = NoContinuation;
                        let ctx = ShapeContext {
                            tool: &tool,
                            tokenizer,
                            nonce: "0000000000000000",
                            now_unix: None,
                            resume: None,
                            continuation: &none,
                        };
                        (shaper.for_pages().plan().clone(), shaper.snapshot(payload.as_slice(), &ctx).bytes)
                    }
                };
                let meta = SnapshotMeta { tool, plan, scope };
                let mut value = serde_json::to_vec(&meta).unwrap_or_default();
                value.push(b'\n');
                value.extend_from_slice(&bytes);
                value
            })
            .await;
            match made {
                Ok(value) => {
                    let size = value.len();
                    if let Err(e) = store.put(&store_key(id), value, ttl).await {
                        tracing::warn!(error = %e, "snapshot not stored; its cursor will report it expired");
                    } else {
                        tracing::debug!(bytes = size, ms = started.elapsed().as_millis() as u64, "snapshot stored");
                    }
                }
                Err(e) => tracing::warn!(error = %e, "snapshot could not be made"),
            }
            if let Ok(mut p) = pending.lock() {
                p.remove(&id);
            }
            let _ = tx.send(true);
        });
    }

    /// The upstreams connected right now. Prompts and resources are listed from these only:
    /// clients list them at start-up, and that must not wait for (or start) other upstreams.
    fn connected(&self) -> impl Iterator<Item = (&String, &Arc<Upstream>)> {
        self.upstreams.iter().filter(|(_, up)| up.is_up())
    }

    /// Prompts of every connected upstream, namespaced like tools. Like a tool listing, the
    /// first one starts the upstreams not yet started and waits for them (each bounded by its
    /// time-out): an agent lists tools, prompts and resources together when it connects, and
    /// a prompt list taken before its upstream was up would stay short.
    pub async fn list_prompts(&self) -> Vec<Prompt> {
        self.refresh_tools().await;
        let mut out = Vec::new();
        let mut routes = HashMap::new();
        for (name, up) in self.connected() {
            match up.list_prompts().await {
                Ok(prompts) => {
                    for mut p in prompts {
                        let listed = self.namespaced(name, &p.name);
                        routes.insert(listed.clone(), (name.clone(), p.name.clone()));
                        p.name = listed;
                        out.push(p);
                    }
                }
                Err(f) => tracing::debug!(upstream = %name, error = %f.line("prompts/list"), "no prompts"),
            }
        }
        if let Ok(mut r) = self.prompt_routes.lock() {
            *r = routes;
        }
        out
    }

    /// `prompts/get` for `caller`, routed to the upstream that listed the prompt. The
    /// upstream's sampling and elicitation requests meanwhile go to the caller, as during a
    /// tool call.
    pub async fn get_prompt(
        &self,
        mut params: GetPromptRequestParams,
        caller: &Caller,
    ) -> Result<GetPromptResult, String> {
        let Some((upstream, original)) = self.prompt_route(&params.name).await else {
            return Err(format!("no prompt named `{}`", params.name));
        };
        let up = self.upstreams.get(&upstream).ok_or_else(|| format!("upstream `{upstream}` is not configured"))?;
        params.name = original;
        up.get_prompt(params, caller.progress.clone(), &caller.cancel).await.map_err(|f| f.line("prompts/get"))
    }

    /// The upstream that listed prompt `name`, and the prompt's own name there; prompts are
    /// listed first when no listing has named it yet.
    async fn prompt_route(&self, name: &str) -> Option<(String, String)> {
        let route = || self.prompt_routes.lock().ok().and_then(|r| r.get(name).cloned());
        if let Some(found) = route() {
            return Some(found);
        }
        self.list_prompts().await;
        route()
    }

    /// The upstream that listed the resource or resource template `uri`; resources are listed
    /// first when no listing has named it yet.
    async fn resource_route(&self, uri: &str) -> Option<String> {
        let route = || self.resource_routes.lock().ok().and_then(|r| r.get(uri).cloned());
        if let Some(found) = route() {
            return Some(found);
        }
        self.list_resources().await;
        route()
    }

    /// `completion/complete` for `caller`: a prompt argument's values come from the upstream
    /// that listed the prompt (asked under its own name), a resource template's from the
    /// upstream that listed the template.
    pub async fn complete(&self, mut params: CompleteRequestParams, caller: &Caller) -> Result<CompleteResult, String> {
        let upstream = match &mut params.r#ref {
            Reference::Prompt(prompt) => {
                let Some((upstream, original)) = self.prompt_route(&prompt.name).await else {
                    return Err(format!("no prompt named `{}`", prompt.name));
                };
                prompt.name = original;
                upstream
            }
            Reference::Resource(template) => self
                .resource_route(&template.uri)
                .await
                .ok_or_else(|| format!("no resource template `{}`", template.uri))?,
            _ => return Err("completions are offered for prompts and resource templates only".to_owned()),
        };
        let up = self.upstreams.get(&upstream).ok_or_else(|| format!("upstream `{upstream}` is not configured"))?;
        up.complete(params, caller.progress.clone(), &caller.cancel).await.map_err(|f| f.line("completion/complete"))
    }

    /// `logging/setLevel` from `caller`'s session: from now on it is sent the log messages of
    /// its calls' upstreams from `level` up. Upstreams are asked for that level when it is
    /// more verbose than what they were asked before (they are shared by every session).
    #[expect(deprecated, reason = "logging/setLevel is answered for agents of the versions that have it")]
    pub async fn set_log_level(&self, level: LoggingLevel, caller: &Caller) {
        if let Some(ask) = self.log_levels.set(&caller.scope, level) {
            for (_, up) in self.connected() {
                up.set_log_level(ask).await;
            }
        }
    }

    /// `resources/subscribe` from `caller`'s session, reached at `peer`: the upstream that
    /// listed `uri` is subscribed (once, however many sessions watch it), and the session is
    /// sent `notifications/resources/updated` when it changes. A URI no listing named goes to
    /// the first connected upstream that accepts the subscription.
    pub async fn subscribe(&self, uri: &str, caller: &Caller, peer: Peer<RoleServer>) -> Result<(), String> {
        let candidates: Vec<String> = match self.resource_route(uri).await {
            Some(upstream) => vec![upstream],
            None => self.connected().map(|(name, _)| name.clone()).collect(),
        };
        let mut refusals = Vec::new();
        for name in candidates {
            let Some(up) = self.upstreams.get(&name) else { continue };
            let (added, orphaned) = self.watches.add(&name, uri, &caller.scope, peer.clone());
            self.unsubscribe_orphans(orphaned);
            match added {
                Added::Joined => return Ok(()),
                Added::Full => {
                    return Err(format!(
                        "toolshape keeps at most {MAX_WATCHES} resource subscriptions; unsubscribe from some first"
                    ));
                }
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
            0 => format!("no resource `{uri}`: no upstream lists it"),
            _ => refusals.join("; "),
        })
    }

    /// `resources/unsubscribe` from `caller`'s session; the upstream is unsubscribed when no
    /// session watches the resource any more. Unsubscribing from what the session did not
    /// subscribe to is not an error (the end state is what it asked for).
    pub async fn unsubscribe(&self, uri: &str, caller: &Caller) -> Result<(), String> {
        let (unwatched, _) = self.watches.remove(uri, &caller.scope);
        for name in unwatched {
            if let Some(up) = self.upstreams.get(&name) {
                up.unsubscribe(uri).await.map_err(|f| f.line("resources/unsubscribe"))?;
            }
        }
        Ok(())
    }

    /// An upstream reported that `uri` changed: tell the sessions that watch it. If none does
    /// any more (they disconnected), unsubscribe the upstream.
    async fn resource_updated(&self, upstream: &str, uri: &str) {
        let (peers, unwatched) = self.watches.watchers(upstream, uri);
        for peer in peers {
            let params = ResourceUpdatedNotificationParam::new(uri);
            if let Err(e) = peer.notify_resource_updated(params).await {
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
            let Some(up) = self.upstreams.get(&name).cloned() else { continue };
            tokio::spawn(async move {
                if let Err(f) = up.unsubscribe(&uri).await {
                    tracing::debug!(upstream = %up.name(), uri, error = %f.line("resources/unsubscribe"), "unsubscribe failed");
                }
            });
        }
    }

    /// An upstream connected again: subscribe it again to every resource a session watches.
    async fn subscribe_again(&self, upstream: &str) {
        let Some(up) = self.upstreams.get(upstream) else { return };
        for uri in self.watches.resources_of(upstream) {
            if let Err(f) = up.subscribe(&uri).await {
                tracing::warn!(upstream, uri, error = %f.line("resources/subscribe"), "could not subscribe again after a reconnection");
            }
        }
    }

    /// Resources and resource templates of every connected upstream, as they list them
    /// (the first listing starts the upstreams, as for prompts).
    pub async fn list_resources(&self) -> (Vec<Resource>, Vec<ResourceTemplate>) {
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
        if let Ok(mut r) = self.resource_routes.lock() {
            *r = routes;
        }
        (resources, templates)
    }

    /// `resources/read` for `caller` (as for a prompt), routed to the upstream that listed
    /// the URI (listing them first if no listing has named it), else tried on each.
    pub async fn read_resource(
        &self,
        params: ReadResourceRequestParams,
        caller: &Caller,
    ) -> Result<ReadResourceResult, ResourceError> {
        let (agent, cancel) = (&caller.progress, &caller.cancel);
        if let Some(up) = self.resource_route(&params.uri).await.and_then(|n| self.upstreams.get(&n)) {
            return up.read_resource(params, agent.clone(), cancel).await.map_err(|f| match f {
                Failure::Protocol { code: RESOURCE_NOT_FOUND, .. } => ResourceError::NotFound(f.line("resources/read")),
                other => ResourceError::Upstream(other.line("resources/read")),
            });
        }
        // No upstream listed this URI: try each; if none has it, it is not found.
        for (_, up) in self.connected() {
            if let Ok(r) = up.read_resource(params.clone(), agent.clone(), cancel).await {
                return Ok(r);
            }
        }
        Err(ResourceError::NotFound(format!("no resource `{}`", params.uri)))
    }

    fn namespaced(&self, upstream: &str, name: &str) -> String {
        match self.config.defaults.prefix {
            PrefixPolicy::None => name.to_owned(),
            PrefixPolicy::Upstream => {
                let prefix = self
                    .config
                    .upstreams
                    .get(upstream)
                    .and_then(|u| u.prefix.clone())
                    .unwrap_or_else(|| upstream.to_owned());
                format!("{prefix}{}{name}", self.config.defaults.prefix_separator)
            }
        }
    }

    /// Ask `upstream` for its tools again, and tell every agent.
    async fn tools_changed(&self, upstream: &str) {
        // The old list is kept until the new one arrives: a call made meanwhile (servers
        // often announce several changes right after connecting) still finds its tool.
        let fetched = match self.upstreams.get(upstream).cloned() {
            Some(up) if self.exposes(upstream) => self.fetch_tools(&up).await,
            _ => false,
        };
        if !fetched && let Ok(mut t) = self.tools.lock() {
            t.remove(upstream);
        }
        self.forget_surfaces();
        self.notify_tools_changed().await;
    }

    async fn notify_tools_changed(&self) {
        self.listeners.notify_all(ListKind::Tools).await;
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

/// What is recorded of a call after its answer is sent (see [`Gateway::after_reply`]).
struct CallRecord {
    /// The tool the agent called.
    tool: String,
    /// The tool whose span this is: a generic `call_tool` counts as the tool it called.
    target: String,
    upstream: Option<String>,
    principal: Option<String>,
    session: Option<String>,
    /// The upstream's bytes, counted for the span by the sink's thread.
    raw: Option<Arc<Vec<u8>>>,
    status: Status,
    failure: Option<&'static str>,
    report: ShapeReport,
    /// The text the model read, when shaping did not count it.
    uncounted_text: Option<String>,
    dispatched: Duration,
    shaped: Duration,
}

/// For failures and snapshots: they never write `next`.
struct NoContinuation;

impl Continuation for NoContinuation {
    fn next(&self, _resume: &Resume) -> Next {
        Next { tool: read::TOOL_NAME.to_owned(), arguments: Map::new() }
    }
}

/// Results and failures up to this size are shaped on the calling task: handing a small one
/// to the blocking pool and back costs more than shaping it, while a large one would hold up
/// the other calls of this runtime thread.
const INLINE_SHAPE_MAX_BYTES: usize = 16 * 1024;

/// About how many bytes of text shaping `failure` reads: the upstream's own, where it sent
/// some (an error result's text can be as large as any result).
fn failure_text_len(failure: &Failure) -> usize {
    match failure {
        Failure::ToolError { text } => text.len(),
        Failure::Protocol { message, .. } => message.len(),
        Failure::Crashed { detail, .. }
        | Failure::Unavailable { detail, .. }
        | Failure::InvalidArguments { detail }
        | Failure::InvalidResponse { detail, .. }
        | Failure::CursorInvalid { detail } => detail.len(),
        Failure::UnknownTool { name, suggestions } => name.len() + suggestions.iter().map(String::len).sum::<usize>(),
        Failure::Timeout { .. } | Failure::ResponseTooLarge { .. } | Failure::CursorExpired => 0,
    }
}

/// Run a shaping job on the calling task (`inline`) or on the blocking pool; `None` if it
/// panicked, in either place, so a shaping bug never takes the session down with it.
async fn shape_off_task<T: Send + 'static>(inline: bool, job: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    if inline {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).ok()
    } else {
        tokio::task::spawn_blocking(job).await.ok()
    }
}

fn into_outcome(shaped: Result<Result<toolshape_shape::Shaped, (String, String)>, tokio::task::JoinError>) -> Outcome {
    match shaped {
        Ok(Ok(s)) => {
            Outcome { text: s.text, envelope: s.envelope, report: s.report, failure: None, tools_changed: false }
        }
        Ok(Err((message, nonce))) => bare_error(&message, &nonce),
        Err(_) => bare_error("shaping failed unexpectedly; retry the call", &random::nonce()),
    }
}

/// An error envelope rendered without a plan: for the rare case where shaping itself
/// cannot produce one (a budget too small for any envelope).
fn bare_error(message: &str, nonce: &str) -> Outcome {
    let envelope = Envelope::error(message);
    let text = toolshape_shape::render(&envelope, RenderMode::Json, nonce);
    Outcome {
        report: ShapeReport { bytes_out: text.len() as u64, ..ShapeReport::default() },
        text,
        envelope,
        failure: Some("shape"),
        tools_changed: false,
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

fn store_key(id: SnapshotId) -> String {
    format!("snap:{}", id.hex())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn now_unix() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

fn expiry(ttl: Duration) -> u32 {
    u32::try_from(now_unix().saturating_add(ttl.as_secs())).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_come_from_backticks() {
        assert_eq!(backticked("did you mean `open_issues`?"), vec!["open_issues".to_owned()]);
        assert!(backticked("no hint").is_empty());
    }
}

/// The JSON-RPC code for a resource that does not exist (MCP `resources/read`).
const RESOURCE_NOT_FOUND: i64 = -32002;

/// Why `resources/read` failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResourceError {
    /// No upstream has this URI (answered with code -32002).
    #[error("{0}")]
    NotFound(String),
    /// The upstream that has it failed.
    #[error("{0}")]
    Upstream(String),
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
