//! Where snapshots live between a call and the `result_read` calls that page through it.
//!
//! [`Store`] is the interface: opaque keys and byte values, each with a time to live. It is
//! object safe and async-friendly (methods return boxed futures), so a SQLite or Redis store
//! can implement it later without touching the gateway. [`MemoryStore`] is the default: a
//! map bounded by total bytes, evicting the oldest entries first, expiring entries on read
//! and on every write.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A boxed future returned by [`Store`] methods.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Why the store could not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The value alone is larger than the whole store may hold.
    #[error("a value of {size} bytes is larger than the store's limit of {limit} bytes")]
    TooLarge {
        /// The value's size.
        size: usize,
        /// The store's total limit.
        limit: usize,
    },
    /// The backend failed (a lock was poisoned, a connection dropped).
    #[error("the store failed: {0}")]
    Backend(String),
}

/// Byte values under string keys, each with a time to live.
pub trait Store: Send + Sync {
    /// Keep `value` under `key` for `ttl`, replacing any value there. May evict other
    /// entries to stay within the store's bounds.
    fn put<'a>(&'a self, key: &'a str, value: Vec<u8>, ttl: Duration) -> StoreFuture<'a, Result<(), StoreError>>;

    /// The value under `key`, or `None` when it was never stored, has expired or was evicted.
    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<Option<Arc<Vec<u8>>>, StoreError>>;
}

/// What [`MemoryStore`] holds right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StoreStats {
    /// Entries held.
    pub entries: usize,
    /// Bytes held (values only).
    pub bytes: usize,
    /// Entries evicted to make room since the store was made.
    pub evicted: u64,
}

/// The in-memory store: bounded by total bytes, oldest entries evicted first.
#[derive(Debug)]
pub struct MemoryStore {
    limit: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<String, Entry>,
    /// Insertion order: sequence number → key. The oldest is evicted first.
    order: BTreeMap<u64, String>,
    next_seq: u64,
    bytes: usize,
    evicted: u64,
}

#[derive(Debug)]
struct Entry {
    value: Arc<Vec<u8>>,
    expires: Instant,
    seq: u64,
}

impl Inner {
    fn remove(&mut self, key: &str) -> Option<Entry> {
        let e = self.entries.remove(key)?;
        self.order.remove(&e.seq);
        self.bytes -= e.value.len();
        Some(e)
    }

    fn expire(&mut self, now: Instant) {
        let dead: Vec<String> = self.entries.iter().filter(|(_, e)| e.expires <= now).map(|(k, _)| k.clone()).collect();
        for k in dead {
            self.remove(&k);
        }
    }
}

impl MemoryStore {
    /// A store that holds at most `limit_bytes` of values.
    pub fn new(limit_bytes: usize) -> MemoryStore {
        MemoryStore { limit: limit_bytes, inner: Mutex::new(Inner::default()) }
    }

    /// What the store holds now.
    pub fn stats(&self) -> StoreStats {
        match self.inner.lock() {
            Ok(g) => StoreStats { entries: g.entries.len(), bytes: g.bytes, evicted: g.evicted },
            Err(_) => StoreStats::default(),
        }
    }

    fn put_now(&self, key: &str, value: Vec<u8>, ttl: Duration) -> Result<(), StoreError> {
        if value.len() > self.limit {
            return Err(StoreError::TooLarge { size: value.len(), limit: self.limit });
        }
        let now = Instant::now();
        let mut g = self.inner.lock().map_err(|_| StoreError::Backend("memory store lock poisoned".into()))?;
        g.remove(key);
        g.expire(now);
        while g.bytes + value.len() > self.limit {
            let Some((_, oldest)) = g.order.pop_first() else { break };
            if let Some(e) = g.entries.remove(&oldest) {
                g.bytes -= e.value.len();
                g.evicted += 1;
            }
        }
        let seq = g.next_seq;
        g.next_seq += 1;
        g.bytes += value.len();
        g.order.insert(seq, key.to_owned());
        g.entries.insert(key.to_owned(), Entry { value: Arc::new(value), expires: now + ttl, seq });
        Ok(())
    }

    fn get_now(&self, key: &str) -> Result<Option<Arc<Vec<u8>>>, StoreError> {
        let now = Instant::now();
        let mut g = self.inner.lock().map_err(|_| StoreError::Backend("memory store lock poisoned".into()))?;
        match g.entries.get(key) {
            Some(e) if e.expires > now => Ok(Some(e.value.clone())),
            Some(_) => {
                g.remove(key);
                Ok(None)
            }
            None => Ok(None),
        }
    }
}

impl Store for MemoryStore {
    fn put<'a>(&'a self, key: &'a str, value: Vec<u8>, ttl: Duration) -> StoreFuture<'a, Result<(), StoreError>> {
        // Memory operations do not wait on anything: answer at once.
        Box::pin(std::future::ready(self.put_now(key, value, ttl)))
    }

    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<Option<Arc<Vec<u8>>>, StoreError>> {
        Box::pin(std::future::ready(self.get_now(key)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block<T>(f: StoreFuture<'_, T>) -> T {
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
    }

    #[test]
    fn evicts_oldest_to_stay_bounded() {
        let s = MemoryStore::new(10);
        let ttl = Duration::from_secs(60);
        block(s.put("a", vec![0; 4], ttl)).unwrap();
        block(s.put("b", vec![0; 4], ttl)).unwrap();
        block(s.put("c", vec![0; 4], ttl)).unwrap();
        assert!(block(s.get("a")).unwrap().is_none());
        assert!(block(s.get("b")).unwrap().is_some());
        assert!(block(s.get("c")).unwrap().is_some());
        assert_eq!(s.stats(), StoreStats { entries: 2, bytes: 8, evicted: 1 });
        assert!(matches!(block(s.put("d", vec![0; 11], ttl)), Err(StoreError::TooLarge { .. })));
    }

    #[test]
    fn expired_entries_are_gone() {
        let s = MemoryStore::new(100);
        block(s.put("a", vec![1], Duration::ZERO)).unwrap();
        assert!(block(s.get("a")).unwrap().is_none());
        assert_eq!(s.stats().bytes, 0);
    }

    #[test]
    fn replacing_a_key_keeps_the_count_right() {
        let s = MemoryStore::new(100);
        let ttl = Duration::from_secs(60);
        block(s.put("a", vec![1; 10], ttl)).unwrap();
        block(s.put("a", vec![1; 20], ttl)).unwrap();
        assert_eq!(s.stats(), StoreStats { entries: 1, bytes: 20, evicted: 0 });
    }
}
