//! Where toolshape keeps snapshots between a call and the reads that page through it.
//!
//! [`Store`] is the interface: opaque string keys and byte values, each with a time to live.
//! It is object safe and async (methods return boxed futures), so the gateway holds an
//! `Arc<dyn Store>` and does not know which backend is behind it. Three backends:
//!
//! - [`MemoryStore`] (the default): a map in the process, bounded by total bytes, evicting the
//!   oldest entries first. Values are held zstd-compressed when that saves room, and its caps
//!   count the compressed bytes.
//! - [`SqliteStore`]: one SQLite file in WAL mode, shared by every gateway process on the
//!   machine that opens it and kept across restarts; bounded by total bytes, oldest first.
//! - [`RedisStore`]: a Redis server shared by several replicas; every key carries a TTL, and
//!   Redis' own `maxmemory` with an LRU policy bounds the total.
//!
//! Invariants every backend keeps:
//! - a value larger than the per-entry cap is refused with [`StoreError::TooLarge`] and
//!   changes nothing;
//! - an entry is never returned after its time to live has passed;
//! - the bytes held never exceed the total cap (where the backend has one), because room is
//!   made by evicting the oldest entries before a new one is written;
//! - a backend that cannot be reached answers [`StoreError::Unavailable`] within a bounded
//!   time, without credentials in the message.
//!
//! [`StoreSpec`] names a backend and its limits; [`open`] turns one into a store.

mod memory;
mod memory_codec;
mod redis_store;
mod sqlite;

use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

pub use memory::MemoryStore;
pub use redis_store::{RedisOptions, RedisStore};
pub use sqlite::SqliteStore;

/// A boxed future returned by [`Store`] methods.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Why the store could not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The value alone is larger than one entry (or the whole store) may be. Nothing changed.
    #[error("a value of {size} bytes is larger than the store's limit of {limit} bytes")]
    TooLarge {
        /// The value's size.
        size: usize,
        /// The limit it exceeds: the per-entry cap, or the total cap when that is smaller.
        limit: usize,
    },
    /// The backend could not be reached in time (connection refused, timed out, dropped, or
    /// the file is locked by another process for too long). Worth retrying later.
    #[error("the {backend} store is unavailable: {reason}")]
    Unavailable {
        /// Which backend, e.g. `Redis (127.0.0.1:6379/0)` or `SQLite (/path/store.db)`; never
        /// with credentials.
        backend: String,
        /// What went wrong (never with credentials).
        reason: String,
    },
    /// Any other backend failure: a poisoned lock, a corrupt file, a refused command.
    #[error("the store failed: {0}")]
    Backend(String),
}

impl StoreError {
    /// Whether trying again later may succeed (the backend was unreachable, not wrong).
    pub fn is_retryable(&self) -> bool {
        matches!(self, StoreError::Unavailable { .. })
    }
}

/// Byte values under string keys, each with a time to live.
pub trait Store: Send + Sync {
    /// Keep `value` under `key` for `ttl`, replacing any value there. May evict other
    /// entries to stay within the store's bounds. A value over the per-entry cap is refused
    /// with [`StoreError::TooLarge`] and leaves any value already under `key` in place.
    fn put<'a>(&'a self, key: &'a str, value: Vec<u8>, ttl: Duration) -> StoreFuture<'a, Result<(), StoreError>>;

    /// The value under `key`, or `None` when it was never stored, has expired, was deleted
    /// or was evicted.
    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<Option<Arc<Vec<u8>>>, StoreError>>;

    /// Forget the value under `key`. Deleting a key that is not there is not an error.
    fn delete<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<(), StoreError>>;
}

/// What a bounded store holds right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StoreStats {
    /// Entries held.
    pub entries: usize,
    /// Bytes held (values only, compressed where the store compresses): what the caps count.
    pub bytes: usize,
    /// Bytes of the same values as they were given, before any compression.
    pub uncompressed_bytes: usize,
    /// Entries evicted to make room since the store was made (for SQLite: since the file
    /// was made, by every process sharing it).
    pub evicted: u64,
}

impl StoreStats {
    /// How many times smaller the values are as held than as given (1 when nothing is
    /// compressed or nothing is held).
    pub fn compression_ratio(&self) -> f64 {
        if self.bytes == 0 { 1.0 } else { self.uncompressed_bytes as f64 / self.bytes as f64 }
    }
}

/// Which store to use and its limits: what a config section maps to.
#[derive(Clone, PartialEq, Eq)]
pub enum StoreSpec {
    /// In this process only; lost on exit.
    Memory {
        /// The most bytes of values held, counted compressed as held; one value may use all of it.
        max_bytes: usize,
    },
    /// A SQLite file, shared by the processes on this machine that open it, kept across restarts.
    Sqlite {
        /// The database file; made when missing (its directory must exist).
        path: PathBuf,
        /// The most bytes of values held in the file; the oldest entries are evicted first.
        max_bytes: usize,
        /// The largest single value.
        max_entry_bytes: usize,
    },
    /// A Redis server shared by several replicas.
    Redis {
        /// `redis://[[user]:password@]host:port/db`; the password is never logged.
        url: String,
        /// Put before every key (e.g. `toolshape:`), so one Redis can serve other users too.
        key_prefix: String,
        /// The largest single value. The total is bounded by Redis' own `maxmemory`.
        max_entry_bytes: usize,
    },
}

impl fmt::Debug for StoreSpec {
    // By hand so that a Redis password in the URL never reaches a log line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreSpec::Memory { max_bytes } => f.debug_struct("Memory").field("max_bytes", max_bytes).finish(),
            StoreSpec::Sqlite { path, max_bytes, max_entry_bytes } => f
                .debug_struct("Sqlite")
                .field("path", path)
                .field("max_bytes", max_bytes)
                .field("max_entry_bytes", max_entry_bytes)
                .finish(),
            StoreSpec::Redis { url, key_prefix, max_entry_bytes } => f
                .debug_struct("Redis")
                .field("url", &redis_store::redact_url(url))
                .field("key_prefix", key_prefix)
                .field("max_entry_bytes", max_entry_bytes)
                .finish(),
        }
    }
}

/// Open the store `spec` describes: for SQLite, open (or make) the file; for Redis, connect
/// and check the server answers.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use std::time::Duration;
/// let store = toolshape_store::open(&toolshape_store::StoreSpec::Memory { max_bytes: 1 << 20 }).await?;
/// store.put("snapshot-1", b"{}".to_vec(), Duration::from_secs(60)).await?;
/// assert_eq!(store.get("snapshot-1").await?.as_deref(), Some(&b"{}".to_vec()));
/// # Ok::<(), toolshape_store::StoreError>(()) }).unwrap();
/// ```
pub async fn open(spec: &StoreSpec) -> Result<Arc<dyn Store>, StoreError> {
    Ok(match spec {
        StoreSpec::Memory { max_bytes } => Arc::new(MemoryStore::new(*max_bytes)),
        StoreSpec::Sqlite { path, max_bytes, max_entry_bytes } => {
            Arc::new(SqliteStore::open(path, *max_bytes, *max_entry_bytes).await?)
        }
        StoreSpec::Redis { url, key_prefix, max_entry_bytes } => {
            let options = RedisOptions {
                key_prefix: key_prefix.clone(),
                max_entry_bytes: *max_entry_bytes,
                ..RedisOptions::default()
            };
            Arc::new(RedisStore::connect(url, options).await?)
        }
    })
}

/// The longest time to live any backend keeps: longer ones are shortened to it, so that
/// expiry arithmetic (wall-clock milliseconds, `Instant`s, Redis' `PX`) cannot overflow.
pub const MAX_TTL: Duration = Duration::from_secs(100 * 365 * 24 * 60 * 60);

/// `ttl` in whole milliseconds, at most [`MAX_TTL`].
fn ttl_millis(ttl: Duration) -> u64 {
    // MAX_TTL in milliseconds fits in u64 (and i64) by a wide margin.
    u64::try_from(ttl.min(MAX_TTL).as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_of_a_redis_spec_hides_the_password() {
        let spec = StoreSpec::Redis {
            url: "redis://user:s3cr3t-pw@cache.internal:6380/2".into(),
            key_prefix: "toolshape:".into(),
            max_entry_bytes: 10,
        };
        let shown = format!("{spec:?}");
        assert!(!shown.contains("s3cr3t-pw"), "{shown}");
        assert!(shown.contains("cache.internal:6380/2"), "{shown}");
    }

    #[test]
    fn only_unavailable_is_retryable() {
        assert!(StoreError::Unavailable { backend: "x".into(), reason: "y".into() }.is_retryable());
        assert!(!StoreError::Backend("x".into()).is_retryable());
        assert!(!StoreError::TooLarge { size: 2, limit: 1 }.is_retryable());
    }

    #[test]
    fn ttl_millis_is_capped() {
        assert_eq!(ttl_millis(Duration::from_millis(1500)), 1500);
        assert_eq!(ttl_millis(Duration::MAX), ttl_millis(MAX_TTL));
    }
}
