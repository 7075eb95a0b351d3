//! Snapshots: where a result that did not fit lives between its call and the `result_read`
//! calls that page through it, and `result_read` itself.
//!
//! A snapshot is made after the response is built, on a blocking thread, so a large result
//! costs the caller one shaping pass, not two. A `result_read` that arrives before the
//! snapshot is stored waits for it: the snapshot's id is registered as pending before the
//! response leaves. With a shared store, a cursor signed moments ago by another replica may
//! name a snapshot still on its way: its read polls the store for a short grace period.
//!
//! The store failing is handled here and only here: a snapshot that cannot be stored is
//! logged (its cursor then reports it expired), and a read from a store that cannot be
//! reached is [`Failure::Unavailable`], so the agent retries later rather than repeating the
//! original call.

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio::sync::watch;
use toolshape_shape::{Failure, Resume, ShapeContext, ShapePlan, Shaper};
use toolshape_tokens::Tokenizer;
use toolshape_util::hex;

use super::finish::{Attached, NoContinuation, Payload, Produced, Source};
use super::{Caller, Gateway};
use crate::cursor::{CursorError, CursorKey, SnapshotId};
use crate::read::{self, ReadArgs};
use crate::store::{Store, StoreError};

/// How long a `result_read` waits for a snapshot still being made.
const PENDING_WAIT: Duration = Duration::from_secs(60);

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
}

impl Snapshots {
    /// Snapshots in `store`, signed with `key`, living `ttl`.
    pub(super) fn new(store: Arc<dyn Store>, key: CursorKey, ttl: Duration, shared: bool) -> Snapshots {
        Snapshots { store, key, ttl, shared, pending: Arc::default() }
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

    /// Register `keep.id` as pending, then make and store its snapshot in the background.
    pub(super) fn keep(&self, keep: Keep, tokenizer: Tokenizer) {
        let Keep { id, payload, shaper, source, tool, scope } = keep;
        let (tx, rx) = watch::channel(false);
        if let Ok(mut p) = self.pending.lock() {
            p.insert(id, rx);
        }
        let store = self.store.clone();
        let pending = self.pending.clone();
        let ttl = self.ttl;
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

    /// The stored snapshot `id`, whose cursor was signed at `signed_unix`, waiting for it if
    /// it is still being made here, or (for a young cursor) by another replica. A store that
    /// cannot be reached is [`Failure::Unavailable`], so the agent retries later rather than
    /// repeating the original call.
    async fn load(&self, id: SnapshotId, signed_unix: u64) -> Result<Option<(SnapshotMeta, Payload)>, Failure> {
        let unavailable =
            |e: StoreError| Failure::Unavailable { upstream: "snapshot store".into(), detail: e.to_string() };
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
        let Some(buf) = found else {
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
        let fallback = self.loaded.masks.passthrough_shaper().clone();
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
                Ok(Ok(bytes)) => Produced::Data {
                    payload: Payload::new(bytes),
                    shaper,
                    resume: None,
                    source: Source::View,
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
