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

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex as StdMutex, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rmcp::model::{
    GetPromptRequestParams, GetPromptResult, Prompt, ReadResourceRequestParams, ReadResourceResult, Resource,
    ResourceTemplate,
};
use rmcp::{Peer, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;
use toolshape_mask::{CallContext, CallError, Config, MaskSet, PrefixPolicy, Surface, ToolDefinition, UpstreamTool};
use toolshape_shape::{
    Continuation, Envelope, Failure, Next, RenderMode, Resume, ShapeContext, ShapePlan, ShapeReport, Shaper, Status,
};
use toolshape_tokens::Tokenizer;

use crate::cursor::{Cursor, CursorError, CursorKey, SnapshotId};
use crate::read::{self, ReadArgs};
use crate::store::{MemoryStore, Store};
use crate::upstream::{ListChanged, ProgressSink, Reply, Upstream};
use crate::{GatewayError, random};

/// How long a `result_read` waits for a snapshot still being made.
const PENDING_WAIT: Duration = Duration::from_secs(60);

/// Settings of a gateway that are not in the config file.
#[derive(Clone)]
pub struct GatewayOptions {
    /// The profile whose tools are shown (`None`: every tool).
    pub profile: Option<String>,
    /// How long snapshots (and so cursors) live.
    pub snapshot_ttl: Duration,
    /// The most bytes the in-memory store holds; the oldest snapshots are evicted first.
    pub store_bytes: usize,
    /// Whether tool lists advertise the envelope's JSON Schema as `outputSchema`.
    pub output_schema: bool,
    /// The secret cursors are signed with; `None` makes a random one for this process.
    pub secret: Option<Vec<u8>>,
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
            .finish()
    }
}

impl Default for GatewayOptions {
    fn default() -> Self {
        GatewayOptions {
            profile: None,
            snapshot_ttl: Duration::from_secs(30 * 60),
            store_bytes: 256 * 1024 * 1024,
            output_schema: true,
            secret: None,
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
    /// What shaping measured.
    pub report: ShapeReport,
    /// The kind of failure (`timeout`, `crashed`, ...), when the call failed.
    pub failure: Option<&'static str>,
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
    Data { payload: Payload, shaper: Shaper, resume: Option<Resume>, source: Source, label: String },
    Failed { failure: Failure, shaper: Shaper },
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
    key: CursorKey,
    tokenizer: Tokenizer,
    /// Tool lists fetched from upstreams; an upstream missing here has not been asked yet.
    tools: StdMutex<BTreeMap<String, Vec<UpstreamTool>>>,
    surface: StdMutex<Option<Arc<Surface>>>,
    /// Upstreams whose tools were asked for at least once.
    asked: StdMutex<HashSet<String>>,
    /// Upstreams whose tools are being asked for now.
    inflight: StdMutex<HashSet<String>>,
    /// First listings in progress, for other callers to wait on.
    first_fetches: StdMutex<HashMap<String, watch::Receiver<bool>>>,
    /// This gateway, for background tasks that outlive a borrow of it.
    me: Weak<Gateway>,
    pending: Arc<StdMutex<HashMap<SnapshotId, watch::Receiver<bool>>>>,
    peers: StdMutex<Vec<Peer<RoleServer>>>,
    prompt_routes: StdMutex<HashMap<String, (String, String)>>,
    resource_routes: StdMutex<HashMap<String, String>>,
}

impl Gateway {
    /// Build a gateway from a loaded config and start what must start now: the event loop
    /// for upstream notifications and the upstreams marked `start: eager`. Must run inside a
    /// Tokio runtime.
    pub async fn launch(config: Config, masks: MaskSet, options: GatewayOptions) -> Result<Arc<Gateway>, GatewayError> {
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new(options.store_bytes));
        Gateway::launch_with_store(config, masks, options, store).await
    }

    /// As [`Gateway::launch`], with a store of the caller's choosing.
    pub async fn launch_with_store(
        config: Config,
        masks: MaskSet,
        options: GatewayOptions,
        store: Arc<dyn Store>,
    ) -> Result<Arc<Gateway>, GatewayError> {
        masks.surface(options.profile.as_deref(), &[]).map_err(GatewayError::Profile)?;
        let key = match &options.secret {
            Some(s) => CursorKey::from_secret(s),
            None => CursorKey::random(),
        };
        let (events_tx, events_rx) = mpsc::unbounded_channel();
        let upstreams = config
            .upstreams
            .iter()
            .map(|(name, spec)| (name.clone(), Arc::new(Upstream::new(name, spec.clone(), events_tx.clone()))))
            .collect();
        let tokenizer = Tokenizer::new(masks.defaults().tokenizer);
        let gw = Arc::new_cyclic(|me| Gateway {
            config,
            masks,
            options,
            upstreams,
            store,
            key,
            tokenizer,
            tools: StdMutex::new(BTreeMap::new()),
            surface: StdMutex::new(None),
            asked: StdMutex::new(HashSet::new()),
            inflight: StdMutex::new(HashSet::new()),
            first_fetches: StdMutex::new(HashMap::new()),
            me: me.clone(),
            pending: Arc::new(StdMutex::new(HashMap::new())),
            peers: StdMutex::new(Vec::new()),
            prompt_routes: StdMutex::new(HashMap::new()),
            resource_routes: StdMutex::new(HashMap::new()),
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

    /// Stop every upstream (child processes exit).
    pub async fn shutdown(&self) {
        for up in self.upstreams.values() {
            up.stop().await;
        }
    }

    /// Remember an agent connection, to tell it when the tool list changes.
    pub fn register_peer(&self, peer: Peer<RoleServer>) {
        if let Ok(mut p) = self.peers.lock() {
            p.retain(|x| !x.is_transport_closed());
            p.push(peer);
        }
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
                if !self.exposes(name) || known.contains(name) {
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
                if let Ok(mut s) = self.surface.lock() {
                    *s = None;
                }
                true
            }
            Err(f) => {
                tracing::warn!(upstream = %name, error = %f.line("tools/list"), "could not list upstream tools");
                false
            }
        }
    }

    /// The surface the profile sees, with every reachable upstream's tools.
    async fn surface(&self, refresh: bool) -> Result<Arc<Surface>, Failure> {
        if refresh {
            self.refresh_tools().await;
        }
        if let Some(s) = self.surface.lock().ok().and_then(|s| s.clone()) {
            return Ok(s);
        }
        let all: Vec<UpstreamTool> =
            self.tools.lock().map(|t| t.values().flatten().cloned().collect()).unwrap_or_default();
        let surface = self
            .masks
            .surface(self.options.profile.as_deref(), &all)
            .map_err(|e| Failure::InvalidArguments { detail: e.to_string() })?;
        for note in surface.notes() {
            tracing::info!("{note}");
        }
        let surface = Arc::new(surface);
        if let Ok(mut s) = self.surface.lock() {
            *s = Some(surface.clone());
        }
        Ok(surface)
    }

    /// The tools the agent sees: the surface, then `result_read`.
    pub async fn list_tools(&self) -> Vec<ToolDefinition> {
        let mut defs: Vec<ToolDefinition> = match self.surface(true).await {
            Ok(s) => s.definitions().cloned().collect(),
            Err(_) => Vec::new(),
        };
        defs.push(ToolDefinition {
            name: read::TOOL_NAME.to_owned(),
            description: read::DESCRIPTION.to_owned(),
            input_schema: read::input_schema(),
        });
        defs
    }

    /// Call `tool` as the agent would. Every call goes through here and comes back as an
    /// envelope: results, upstream failures and refused calls alike.
    pub async fn call(&self, tool: &str, arguments: Option<Map<String, Value>>, caller: &Caller) -> Outcome {
        let started = Instant::now();
        let (produced, upstream) = if tool == read::TOOL_NAME {
            (self.read(arguments.as_ref(), caller).await, None)
        } else {
            self.forward(tool, arguments, caller).await
        };
        let dispatched = started.elapsed();
        let outcome = self.finish(produced, tool, caller).await;
        let r = &outcome.report;
        tracing::info!(
            tool,
            upstream = upstream.as_deref().unwrap_or("-"),
            status = outcome.envelope.status.as_str(),
            failure = outcome.failure.unwrap_or("-"),
            bytes_in = r.bytes_in,
            bytes_out = r.bytes_out,
            tokens_out = r.tokens_out,
            records_kept = r.records_kept,
            records_omitted = r.records_omitted,
            cut_at = r.cut_at.as_deref().unwrap_or("-"),
            dispatch_ms = dispatched.as_millis(),
            shape_ms = started.elapsed().saturating_sub(dispatched).as_millis(),
            "call"
        );
        outcome
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
        let surface = match self.surface(false).await {
            Ok(s) if s.get(tool).is_some() => Ok(s),
            _ => self.surface(true).await,
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
        let (meta, payload) = match self.load_snapshot(cursor.snapshot).await {
            Ok(Some(found)) => found,
            // Expired or evicted before its cursor: the cursor cannot be honoured.
            Ok(None) => return failed(Failure::CursorExpired),
            Err(detail) => return failed(Failure::CursorInvalid { detail }),
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

    /// The stored snapshot `id`, waiting for it if it is still being made.
    async fn load_snapshot(&self, id: SnapshotId) -> Result<Option<(SnapshotMeta, Payload)>, String> {
        let pending = self.pending.lock().ok().and_then(|p| p.get(&id).cloned());
        if let Some(mut rx) = pending {
            let _ = tokio::time::timeout(PENDING_WAIT, rx.wait_for(|done| *done)).await;
        }
        let Some(buf) = self.store.get(&store_key(id)).await.map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        let Some(newline) = buf.iter().position(|&b| b == b'\n') else {
            return Err("stored snapshot is damaged".into());
        };
        let meta: SnapshotMeta =
            serde_json::from_slice(&buf[..newline]).map_err(|_| "stored snapshot is damaged".to_owned())?;
        Ok(Some((meta, Payload { buf, start: newline + 1 })))
    }

    /// Shape what dispatch produced into the outcome the agent gets; keep a snapshot when
    /// `next` needs one.
    async fn finish(&self, produced: Produced, tool: &str, caller: &Caller) -> Outcome {
        let nonce = random::nonce();
        let scope = CursorKey::scope_tag(&caller.scope);
        let tokenizer = self.tokenizer;
        match produced {
            Produced::Failed { failure, shaper } => {
                let kind = failure.kind();
                let tool_name = tool.to_owned();
                let shaped = tokio::task::spawn_blocking(move || {
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
                let mut outcome = into_outcome(shaped);
                outcome.failure = Some(kind);
                outcome
            }
            Produced::Data { payload, shaper, resume, source, label } => {
                let (id, expires) = match &source {
                    Source::Stored { id, expires } => (*id, *expires),
                    _ => (SnapshotId::random(), expiry(self.options.snapshot_ttl)),
                };
                let continuation = CursorContinuation { key: self.key.clone(), snapshot: id, expires, scope };
                let job_shaper = shaper.clone();
                let job_payload = payload.clone();
                let job_label = label.clone();
                let shaped = tokio::task::spawn_blocking(move || {
                    let ctx = ShapeContext {
                        tool: &job_label,
                        tokenizer,
                        nonce: &nonce,
                        now_unix: Some(now_unix() as i64),
                        resume,
                        continuation: &continuation,
                    };
                    job_shaper.shape(job_payload.as_slice(), &ctx).map_err(|e| (e.to_string(), nonce.clone()))
                })
                .await;
                let outcome = into_outcome(shaped);
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
        let ttl = self.options.snapshot_ttl;
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

    /// Prompts of every connected upstream, namespaced like tools.
    pub async fn list_prompts(&self) -> Vec<Prompt> {
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

    /// `prompts/get`, routed to the upstream that listed the prompt.
    pub async fn get_prompt(&self, mut params: GetPromptRequestParams) -> Result<GetPromptResult, String> {
        let mut route = self.prompt_routes.lock().ok().and_then(|r| r.get(&params.name).cloned());
        if route.is_none() {
            self.list_prompts().await;
            route = self.prompt_routes.lock().ok().and_then(|r| r.get(&params.name).cloned());
        }
        let Some((upstream, original)) = route else { return Err(format!("no prompt named `{}`", params.name)) };
        let up = self.upstreams.get(&upstream).ok_or_else(|| format!("upstream `{upstream}` is not configured"))?;
        params.name = original;
        up.get_prompt(params).await.map_err(|f| f.line("prompts/get"))
    }

    /// Resources and resource templates of every connected upstream, as they list them.
    pub async fn list_resources(&self) -> (Vec<Resource>, Vec<ResourceTemplate>) {
        let mut resources = Vec::new();
        let mut templates = Vec::new();
        let mut routes = HashMap::new();
        for (name, up) in self.connected() {
            match up.list_resources().await {
                Ok((r, t)) => {
                    for res in &r {
                        routes.insert(res.uri.clone(), name.clone());
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

    /// `resources/read`, routed to the upstream that listed the URI, else tried on each.
    pub async fn read_resource(&self, params: ReadResourceRequestParams) -> Result<ReadResourceResult, ResourceError> {
        let routed = self.resource_routes.lock().ok().and_then(|r| r.get(&params.uri).cloned());
        if let Some(up) = routed.and_then(|n| self.upstreams.get(&n)) {
            return up.read_resource(params).await.map_err(|f| match f {
                Failure::Protocol { code: RESOURCE_NOT_FOUND, .. } => ResourceError::NotFound(f.line("resources/read")),
                other => ResourceError::Upstream(other.line("resources/read")),
            });
        }
        // No upstream listed this URI: try each; if none has it, it is not found.
        for (_, up) in self.connected() {
            if let Ok(r) = up.read_resource(params.clone()).await {
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

    /// Forget the cached tools of `upstream`, ask it again, and tell every agent.
    async fn tools_changed(&self, upstream: &str) {
        if let Ok(mut t) = self.tools.lock() {
            t.remove(upstream);
        }
        if let Ok(mut s) = self.surface.lock() {
            *s = None;
        }
        if let Some(up) = self.upstreams.get(upstream).cloned()
            && self.exposes(upstream)
        {
            self.fetch_tools(&up).await;
        }
        self.notify_tools_changed().await;
    }

    async fn notify_tools_changed(&self) {
        for peer in self.live_peers() {
            if let Err(e) = peer.notify_tool_list_changed().await {
                tracing::debug!(error = %e, "could not notify an agent of a tool list change");
            }
        }
    }

    fn live_peers(&self) -> Vec<Peer<RoleServer>> {
        match self.peers.lock() {
            Ok(mut p) => {
                p.retain(|x| !x.is_transport_closed());
                p.clone()
            }
            Err(_) => Vec::new(),
        }
    }
}

/// Forwards upstream notifications to agents for as long as the gateway lives.
async fn event_loop(gw: Weak<Gateway>, mut events: mpsc::UnboundedReceiver<ListChanged>) {
    while let Some(ev) = events.recv().await {
        let Some(gw) = gw.upgrade() else { return };
        match ev {
            ListChanged::Tools(name) => {
                tracing::info!(upstream = %name, "upstream tool list changed");
                gw.tools_changed(&name).await;
            }
            ListChanged::Prompts(_) => {
                for peer in gw.live_peers() {
                    let _ = peer.notify_prompt_list_changed().await;
                }
            }
            ListChanged::Resources(_) => {
                for peer in gw.live_peers() {
                    let _ = peer.notify_resource_list_changed().await;
                }
            }
        }
    }
}

/// For failures and snapshots: they never write `next`.
struct NoContinuation;

impl Continuation for NoContinuation {
    fn next(&self, _resume: &Resume) -> Next {
        Next { tool: read::TOOL_NAME.to_owned(), arguments: Map::new() }
    }
}

fn into_outcome(shaped: Result<Result<toolshape_shape::Shaped, (String, String)>, tokio::task::JoinError>) -> Outcome {
    match shaped {
        Ok(Ok(s)) => Outcome { text: s.text, envelope: s.envelope, report: s.report, failure: None },
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
