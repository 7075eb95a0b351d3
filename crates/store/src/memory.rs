//! The in-memory store: a map bounded by total bytes and by bytes per entry, evicting the
//! oldest entries first, expiring entries on read and on every write.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::{MAX_TTL, Store, StoreError, StoreFuture, StoreStats};

/// The in-memory store: bounded by total bytes, oldest entries evicted first.
#[derive(Debug)]
pub struct MemoryStore {
    limit: usize,
    max_entry: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<String, Entry>,
    /// Insertion order: sequence number → key. The oldest is evicted first.
    order: BTreeMap<u64, String>,
    /// Expiry order: (deadline, sequence number) → key, so expiring is not a scan of every entry.
    deadlines: BTreeMap<(Instant, u64), String>,
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
        self.deadlines.remove(&(e.expires, e.seq));
        self.bytes -= e.value.len();
        Some(e)
    }

    fn expire(&mut self, now: Instant) {
        while let Some(entry) = self.deadlines.first_entry() {
            if entry.key().0 > now {
                break;
            }
            let key = entry.remove();
            self.remove(&key);
        }
    }

    fn evict_oldest(&mut self) -> bool {
        let Some((_, oldest)) = self.order.first_key_value() else { return false };
        let oldest = oldest.clone();
        self.remove(&oldest);
        self.evicted += 1;
        true
    }
}

impl MemoryStore {
    /// A store that holds at most `limit_bytes` of values; one value may use all of it.
    pub fn new(limit_bytes: usize) -> MemoryStore {
        MemoryStore::with_limits(limit_bytes, limit_bytes)
    }

    /// A store that holds at most `limit_bytes` of values, each at most `max_entry_bytes`.
    pub fn with_limits(limit_bytes: usize, max_entry_bytes: usize) -> MemoryStore {
        MemoryStore { limit: limit_bytes, max_entry: max_entry_bytes, inner: Mutex::new(Inner::default()) }
    }

    /// What the store holds now.
    pub fn stats(&self) -> StoreStats {
        match self.inner.lock() {
            Ok(g) => StoreStats { entries: g.entries.len(), bytes: g.bytes, evicted: g.evicted },
            Err(_) => StoreStats::default(),
        }
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Inner>, StoreError> {
        self.inner.lock().map_err(|_| StoreError::Backend("memory store lock poisoned".into()))
    }

    fn put_now(&self, key: &str, value: Vec<u8>, ttl: Duration) -> Result<(), StoreError> {
        let cap = self.max_entry.min(self.limit);
        if value.len() > cap {
            return Err(StoreError::TooLarge { size: value.len(), limit: cap });
        }
        let now = Instant::now();
        // Capped at MAX_TTL the addition does not overflow on any supported clock; were it to,
        // the entry would expire at once rather than panic.
        let expires = now.checked_add(ttl.min(MAX_TTL)).unwrap_or(now);
        let mut g = self.lock()?;
        g.remove(key);
        g.expire(now);
        while g.bytes + value.len() > self.limit {
            if !g.evict_oldest() {
                break;
            }
        }
        let seq = g.next_seq;
        g.next_seq += 1;
        g.bytes += value.len();
        g.order.insert(seq, key.to_owned());
        g.deadlines.insert((expires, seq), key.to_owned());
        g.entries.insert(key.to_owned(), Entry { value: Arc::new(value), expires, seq });
        Ok(())
    }

    fn get_now(&self, key: &str) -> Result<Option<Arc<Vec<u8>>>, StoreError> {
        let now = Instant::now();
        let mut g = self.lock()?;
        match g.entries.get(key) {
            Some(e) if e.expires > now => Ok(Some(e.value.clone())),
            Some(_) => {
                g.remove(key);
                Ok(None)
            }
            None => Ok(None),
        }
    }

    fn delete_now(&self, key: &str) -> Result<(), StoreError> {
        self.lock()?.remove(key);
        Ok(())
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

    fn delete<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<(), StoreError>> {
        Box::pin(std::future::ready(self.delete_now(key)))
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
    fn expired_entries_are_purged_by_later_writes() {
        let s = MemoryStore::new(100);
        block(s.put("short", vec![1; 30], Duration::from_millis(20))).unwrap();
        block(s.put("long", vec![1; 30], Duration::from_secs(60))).unwrap();
        std::thread::sleep(Duration::from_millis(40));
        block(s.put("other", vec![1; 5], Duration::from_secs(60))).unwrap();
        // The expired entry went without counting as an eviction.
        assert_eq!(s.stats(), StoreStats { entries: 2, bytes: 35, evicted: 0 });
    }

    #[test]
    fn replacing_a_key_keeps_the_count_right() {
        let s = MemoryStore::new(100);
        let ttl = Duration::from_secs(60);
        block(s.put("a", vec![1; 10], ttl)).unwrap();
        block(s.put("a", vec![1; 20], ttl)).unwrap();
        assert_eq!(s.stats(), StoreStats { entries: 1, bytes: 20, evicted: 0 });
    }

    #[test]
    fn per_entry_cap_refuses_without_touching_the_old_value() {
        let s = MemoryStore::with_limits(100, 8);
        let ttl = Duration::from_secs(60);
        block(s.put("a", vec![7; 8], ttl)).unwrap();
        assert_eq!(block(s.put("a", vec![1; 9], ttl)), Err(StoreError::TooLarge { size: 9, limit: 8 }));
        assert_eq!(block(s.get("a")).unwrap().as_deref(), Some(&vec![7; 8]));
    }

    #[test]
    fn delete_forgets_and_frees() {
        let s = MemoryStore::new(100);
        let ttl = Duration::from_secs(60);
        block(s.put("a", vec![1; 10], ttl)).unwrap();
        block(s.delete("a")).unwrap();
        block(s.delete("never-there")).unwrap();
        assert!(block(s.get("a")).unwrap().is_none());
        assert_eq!(s.stats(), StoreStats { entries: 0, bytes: 0, evicted: 0 });
    }

    #[test]
    fn a_huge_ttl_does_not_overflow() {
        let s = MemoryStore::new(100);
        block(s.put("a", vec![1], Duration::MAX)).unwrap();
        assert!(block(s.get("a")).unwrap().is_some());
    }
}
