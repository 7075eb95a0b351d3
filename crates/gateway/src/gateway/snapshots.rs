//! Snapshots: where a result that did not fit lives between its call and the `result_read`
//! calls that page through it, and `result_read` itself.
//!
//! A snapshot is made after the response is built, on a blocking thread, so a large result
//! costs the caller one shaping pass, not two. A `result_read` that arrives before the
//! snapshot is stored waits for it: the snapshot's id is registered as pending before the
//! response leaves. With a shared store, a cursor signed moments ago by another replica may
//! name a snapshot still on its way: its read polls the store for a short grace period.
//!
//! The store failing is handled here and only here:
//! - a snapshot that cannot be stored after its answer went out is remembered (by this
//!   process, for its time to live): its cursor then says the store was unavailable when the
//!   result was kept, not that it expired;
//! - once a write or read has failed, the store is known to be failing until one succeeds:
//!   a call that needs a snapshot then stores it before answering, and when that fails too,
//!   the answer has no `next` and says the rest could not be kept (`finish`), rather than
//!   handing out a cursor that can never be read;
//! - a read from a store that cannot be reached is [`Failure::Unavailable`], so the agent
//!   retries later rather than repeating the original call.

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio::sync::watch;
use toolshape_shape::{Failure, Resume, ShapeContext, ShapePlan, Shaper, SnapshotHead};
use toolshape_tokens::Tokenizer;
use toolshape_util::hex;

use super::finish::{Attached, NoContinuation, Payload, Produced, Source};
use super::narrowed::NarrowedView;
use super::{Caller, Gateway};
use crate::cursor::{CursorError, CursorKey, SnapshotId};
use crate::read::{self, ReadArgs};
use crate::store::{Store, StoreError};

/// How long a `result_read` waits for a snapshot still being made.
const PENDING_WAIT: Duration = Duration::from_secs(60);

/// The most snapshots remembered as not kept; past it the oldest are forgotten (their
/// cursors then read as expired).
const UNKEPT_REMEMBERED: usize = 4096;

/// What a cursor whose snapshot was never stored says.
pub(super) const NOT_KEPT: &str = "the store was unavailable when this result was kept, so its pages were never saved";

/// How long after a cursor was signed a missing snapshot may still be on its way from
/// another replica (replicas store snapshots after answering, as this one does): a
/// `result_read` for a cursor this young polls the shared store before calling it expired.
const REPLICA_GRACE_SECS: u64 = 10;

/// What the gateway keeps with a snapshot's bytes in the store.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct SnapshotMeta {
    /// The tool whose result this is (for summaries).
    tool: String,
    /// The plan that reads its pages.
    plan: ShapePlan,
    /// The scope tag, hex.
    scope: String,
    /// The size of the upstream result the snapshot was made from, which its pages name as
    /// the original's; absent for a view (stored as it is) and in snapshots stored before it
    /// was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    original_bytes: Option<u64>,
}

/// A result to keep as a snapshot.
pub(super) struct Keep {
    /// The id its cursors name.
    pub(super) id: SnapshotId,
    /// What was shaped.
    pub(super) payload: Payload,
    /// The shaper it was shaped with.
    pub(super) shaper: Shaper,
    /// Where it came from (a view is stored as it is).
    pub(super) source: Source,
    /// The tool named in summaries.
    pub(super) tool: String,
    /// The caller's scope tag, hex.
    pub(super) scope: String,
    /// The snapshot's first records, as shaping the first read made them.
    pub(super) head: SnapshotHead,
}

/// The snapshots of one gateway: the store, the key cursors are signed with, how long both
/// live, and the snapshots still being made here.
pub(super) struct Snapshots {
    store: Arc<dyn Store>,
    key: CursorKey,
    ttl: Duration,
    /// Whether the store is shared with other processes (SQLite or Redis).
    shared: bool,
    /// Snapshots being made; each receiver turns true once its snapshot is stored (or failed).
    pending: Arc<StdMutex<HashMap<SnapshotId, watch::Receiver<bool>>>>,
    /// How the store is doing, as its last write or read found it.
    health: Arc<StoreHealth>,
}

/// Whether the store is failing, and which snapshots it failed to keep.
#[derive(Default)]
struct StoreHealth {
    /// The last error, while no write or read has succeeded since.
    failing: StdMutex<Option<String>>,
    /// Snapshots whose write failed, with when they would have expired.
    unkept: StdMutex<HashMap<SnapshotId, Instant>>,
}

impl StoreHealth {
    fn failed(&self, error: &StoreError) {
        if let Ok(mut f) = self.failing.lock() {
            *f = Some(error.to_string());
        }
    }

    fn answered(&self) {
        if let Ok(mut f) = self.failing.lock() {
            *f = None;
        }
    }

    fn not_kept(&self, id: SnapshotId, ttl: Duration) {
        if let Ok(mut unkept) = self.unkept.lock() {
            let now = Instant::now();
            unkept.retain(|_, until| *until > now);
            if unkept.len() >= UNKEPT_REMEMBERED
                && let Some(oldest) = unkept.iter().min_by_key(|(_, until)| **until).map(|(id, _)| *id)
            {
                unkept.remove(&oldest);
            }
            unkept.insert(id, now + ttl);
        }
    }

    fn was_not_kept(&self, id: SnapshotId) -> bool {
        self.unkept.lock().ok().is_some_and(|u| u.get(&id).is_some_and(|until| *until > Instant::now()))
    }
}

impl Snapshots {
    /// Snapshots in `store`, signed with `key`, living `ttl`.
    pub(super) fn new(store: Arc<dyn Store>, key: CursorKey, ttl: Duration, shared: bool) -> Snapshots {
        Snapshots { store, key, ttl, shared, pending: Arc::default(), health: Arc::default() }
    }

    /// The store.
    pub(super) fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The key cursors are signed with.
    pub(super) fn key(&self) -> &CursorKey {
        &self.key
    }

    /// How long snapshots, cursors and search activations live.
    pub(super) fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Whether the store is shared with other processes.
    pub(super) fn is_shared(&self) -> bool {
        self.shared
    }

    /// Whether `cursor` (a `next`'s `cursor` argument, of the caller with scope tag `scope`)
    /// names a snapshot this process knows was never stored. A repeated call is not pointed
    /// at such a cursor: it could only answer that the pages were never saved.
    pub(super) fn names_unkept(&self, cursor: &str, scope: &[u8; crate::cursor::SCOPE_LEN]) -> bool {
        self.key.decode(cursor, scope, now_unix()).is_ok_and(|c| self.health.was_not_kept(c.snapshot))
    }

    /// The last store error, if the store has failed since it last answered.
    pub(super) fn failing(&self) -> Option<String> {
        self.health.failing.lock().ok().and_then(|f| f.clone())
    }

    /// Register `keep.id` as pending, then make and store its snapshot in the background.
    pub(super) fn keep(&self, keep: Keep, tokenizer: Tokenizer) {
        let id = keep.id;
        let (tx, rx) = watch::channel(false);
        if let Ok(mut p) = self.pending.lock() {
            p.insert(id, rx);
        }
        let (store, health, pending, ttl) = (self.store.clone(), self.health.clone(), self.pending.clone(), self.ttl);
        tokio::spawn(async move {
            if let Err(e) = store_snapshot(keep, tokenizer, &store, &health, ttl).await {
                tracing::warn!(error = %e, "snapshot not stored; its cursor will say the store was unavailable");
            }
            if let Ok(mut p) = pending.lock() {
                p.remove(&id);
            }
            let _ = tx.send(true);
        });
    }

    /// Make and store `keep`'s snapshot now, before the answer that names it goes out; the
    /// store's error if it could not be stored.
    pub(super) async fn keep_now(&self, keep: Keep, tokenizer: Tokenizer) -> Result<(), NotStored> {
        store_snapshot(keep, tokenizer, &self.store, &self.health, self.ttl).await
    }

    /// The stored snapshot `id`, whose cursor was signed at `signed_unix`, waiting for it if
    /// it is still being made here, or (for a young cursor) by another replica. A store that
    /// cannot be reached is [`Failure::Unavailable`], so the agent retries later rather than
    /// repeating the original call.
    async fn load(&self, id: SnapshotId, signed_unix: u64) -> Result<Option<(SnapshotMeta, Payload)>, Failure> {
        let health = &self.health;
        let unavailable = |e: StoreError| {
            health.failed(&e);
            Failure::Unavailable { upstream: "snapshot store".into(), detail: e.to_string() }
        };
        let pending = self.pending.lock().ok().and_then(|p| p.get(&id).cloned());
        let made_here = pending.is_some();
        if let Some(mut rx) = pending {
            let _ = tokio::time::timeout(PENDING_WAIT, rx.wait_for(|done| *done)).await;
        }
        let mut found = self.store.get(&store_key(id)).await.map_err(unavailable)?;
        if found.is_none() && !made_here && self.shared {
            let deadline = signed_unix.saturating_add(REPLICA_GRACE_SECS);
            let mut delay = Duration::from_millis(10);
            while found.is_none() && now_unix() < deadline {
                tokio::time::sleep(delay).await;
                delay = (delay * 2).min(Duration::from_millis(250));
                found = self.store.get(&store_key(id)).await.map_err(unavailable)?;
            }
        }
        self.health.answered();
        let Some(buf) = found else {
            if self.health.was_not_kept(id) {
                return Err(Failure::CursorInvalid { detail: NOT_KEPT.into() });
            }
            return Ok(None);
        };
        let damaged = || Failure::CursorInvalid { detail: "stored snapshot is damaged".into() };
        let Some(newline) = buf.iter().position(|&b| b == b'\n') else {
            return Err(damaged());
        };
        let meta: SnapshotMeta = serde_json::from_slice(&buf[..newline]).map_err(|_| damaged())?;
        Ok(Some((meta, Payload::from(buf, newline + 1))))
    }
}

impl Gateway {
    /// `result_read`: check the cursor, find the snapshot, and read a page or make a view.
    pub(super) async fn read(&self, arguments: Option<&Map<String, Value>>, caller: &Caller) -> Produced {
        let fallback = self.loaded().masks.passthrough_shaper().clone();
        let failed = |failure: Failure| Produced::Failed { failure, shaper: fallback.clone() };
        let args = match ReadArgs::parse(arguments) {
            Ok(a) => a,
            Err(e) => return failed(Failure::InvalidArguments { detail: e.to_string() }),
        };
        if let Some(item) = args.media {
            return self.read_media(&args, item, caller).await;
        }
        let scope = CursorKey::scope_tag(&caller.scope);
        let cursor = match self.snapshots.key.decode(args.token(), &scope, now_unix()) {
            Ok(c) => c,
            Err(CursorError::Expired) => return failed(Failure::CursorExpired),
            Err(e) => return failed(Failure::CursorInvalid { detail: e.to_string() }),
        };
        let signed_unix = u64::from(cursor.expires_unix).saturating_sub(self.snapshots.ttl.as_secs());
        let (meta, payload) = match self.snapshots.load(cursor.snapshot, signed_unix).await {
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
                Ok(Ok(view)) => Produced::Data {
                    source: Source::View { narrowed: NarrowedView::of(&view, &args) },
                    payload: Payload::new(view.bytes),
                    shaper,
                    resume: None,
                    label: meta.tool,
                    attached: Attached::default(),
                },
                Ok(Err(e)) => Produced::Failed { failure: Failure::InvalidArguments { detail: e.to_string() }, shaper },
                Err(_) => Produced::Failed {
                    failure: Failure::InvalidArguments { detail: "the view could not be made".into() },
                    shaper,
                },
            };
        }
        let shaper = match meta.original_bytes {
            Some(bytes) => shaper.with_original_bytes(bytes),
            None => shaper,
        };
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
            attached: Attached::default(),
        }
    }
}

/// Make `keep`'s snapshot (on a blocking thread) and store it, noting in `health` how the
/// store did; a snapshot that could not be stored is remembered as not kept.
async fn store_snapshot(
    keep: Keep,
    tokenizer: Tokenizer,
    store: &Arc<dyn Store>,
    health: &StoreHealth,
    ttl: Duration,
) -> Result<(), NotStored> {
    let Keep { id, payload, shaper, source, tool, scope, head } = keep;
    let started = Instant::now();
    let made = tokio::task::spawn_blocking(move || {
        let original_bytes = (!matches!(source, Source::View { .. })).then_some(payload.as_slice().len() as u64);
        let (plan, bytes) = match source {
            Source::View { .. } => (shaper.plan().clone(), payload.as_slice().to_vec()),
            _ => {
                let none = NoContinuation;
                // Any of the gateway's nonces: they all cost the same.
                let nonce = toolshape_util::nonce::from_bits(0);
                let ctx = ShapeContext {
                    tool: &tool,
                    tokenizer,
                    nonce: &nonce,
                    now_unix: None,
                    resume: None,
                    continuation: &none,
                };
                (shaper.for_pages().plan().clone(), shaper.snapshot_after(payload.as_slice(), &ctx, &head).bytes)
            }
        };
        let meta = SnapshotMeta { tool, plan, scope, original_bytes };
        let mut value = serde_json::to_vec(&meta).unwrap_or_default();
        value.push(b'\n');
        value.extend_from_slice(&bytes);
        value
    })
    .await;
    let value = match made {
        Ok(value) => value,
        Err(e) => {
            health.not_kept(id, ttl);
            return Err(NotStored::NotMade(e));
        }
    };
    let size = value.len();
    match store.put(&store_key(id), value, ttl).await {
        Ok(()) => {
            health.answered();
            tracing::debug!(bytes = size, ms = started.elapsed().as_millis() as u64, "snapshot stored");
            Ok(())
        }
        // Too large for the store: the store is fine, and the cursor reads as evicted.
        Err(e @ StoreError::TooLarge { .. }) => Err(NotStored::Store(e)),
        Err(e) => {
            health.failed(&e);
            health.not_kept(id, ttl);
            Err(NotStored::Store(e))
        }
    }
}

/// Why a snapshot was not stored.
#[derive(Debug, thiserror::Error)]
pub(super) enum NotStored {
    /// Making it failed (the blocking task that shapes it panicked or was cancelled).
    #[error("the snapshot could not be made: {0}")]
    NotMade(tokio::task::JoinError),
    /// The store refused it or could not be reached.
    #[error(transparent)]
    Store(StoreError),
}

/// The store key of snapshot `id`.
fn store_key(id: SnapshotId) -> String {
    format!("snap:{}", id.hex())
}

/// Seconds since the Unix epoch.
pub(super) fn now_unix() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// When something made now and living `ttl` expires, in Unix seconds.
pub(super) fn expiry(ttl: Duration) -> u32 {
    u32::try_from(now_unix().saturating_add(ttl.as_secs())).unwrap_or(u32::MAX)
}
