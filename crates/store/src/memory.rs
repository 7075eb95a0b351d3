//! The in-memory store: a map bounded by total bytes and by bytes per entry, evicting the
//! oldest entries first, expiring entries on read and on every write.
//!
//! Values are held zstd-compressed when that makes them smaller ([`Held`]), and both bounds
//! count the bytes held, compressed: a cap of 256 MiB holds 256 MiB of frames, several times
//! that of snapshots. [`MemoryStore::stats`] reports both sizes, hence the ratio.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::memory_codec::{Held, smaller_frame};
use crate::{MAX_TTL, Store, StoreError, StoreFuture, StoreStats};

/// Values at least this long are compressed and decompressed on tokio's blocking threads
/// (when there is a runtime): about a millisecond of work per 256 KiB, too long to hold an
/// async worker that other calls are waiting for.
const OFFLOAD_MIN_BYTES: usize = 256 * 1024;

/// The in-memory store: bounded by total bytes held (compressed), oldest entries evicted first.
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
    /// Bytes held: compressed where compressed. What the caps count.
    bytes: usize,
    /// Bytes of the values themselves, as given.
    value_bytes: usize,
    evicted: u64,
}

#[derive(Debug)]
struct Entry {
    held: Held,
    expires: Instant,
    seq: u64,
}

impl Inner {
    fn remove(&mut self, key: &str) -> Option<Entry> {
        let e = self.entries.remove(key)?;
        self.order.remove(&e.seq);
        self.deadlines.remove(&(e.expires, e.seq));
        self.bytes -= e.held.held_bytes();
        self.value_bytes -= e.held.value_bytes();
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
    /// A store that holds at most `limit_bytes` (compressed); one value may use all of it.
    pub fn new(limit_bytes: usize) -> MemoryStore {
        MemoryStore::with_limits(limit_bytes, limit_bytes)
    }

    /// A store that holds at most `limit_bytes`, each value taking at most `max_entry_bytes`
    /// (both counted compressed, as held).
    pub fn with_limits(limit_bytes: usize, max_entry_bytes: usize) -> MemoryStore {
        MemoryStore { limit: limit_bytes, max_entry: max_entry_bytes, inner: Mutex::new(Inner::default()) }
    }

    /// The bytes `value` would take in a memory store, which is what counts against its
    /// caps: its zstd frame when that is smaller, else its own length. Costs a compression.
    pub fn size_of(value: &[u8]) -> usize {
        smaller_frame(value).map_or(value.len(), |frame| frame.len())
    }

    /// What the store holds now.
    pub fn stats(&self) -> StoreStats {
        match self.inner.lock() {
            Ok(g) => StoreStats {
                entries: g.entries.len(),
                bytes: g.bytes,
                uncompressed_bytes: g.value_bytes,
                evicted: g.evicted,
            },
            Err(_) => StoreStats::default(),
        }
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Inner>, StoreError> {
        self.inner.lock().map_err(|_| StoreError::Backend("memory store lock poisoned".into()))
    }

    fn put_now(&self, key: &str, held: Held, ttl: Duration) -> Result<(), StoreError> {
        let size = held.held_bytes();
        let cap = self.max_entry.min(self.limit);
        if size > cap {
            return Err(StoreError::TooLarge { size, limit: cap });
        }
        let now = Instant::now();
        // Capped at MAX_TTL the addition does not overflow on any supported clock; were it to,
        // the entry would expire at once rather than panic.
        let expires = now.checked_add(ttl.min(MAX_TTL)).unwrap_or(now);
        let mut g = self.lock()?;
        g.remove(key);
        g.expire(now);
        while g.bytes + size > self.limit {
            if !g.evict_oldest() {
                break;
            }
        }
        let seq = g.next_seq;
        g.next_seq += 1;
        g.bytes += size;
        g.value_bytes += held.value_bytes();
        g.order.insert(seq, key.to_owned());
        g.deadlines.insert((expires, seq), key.to_owned());
        g.entries.insert(key.to_owned(), Entry { held, expires, seq });
        Ok(())
    }

    /// The value under `key` as held (a cheap clone), without decompressing it under the lock.
    fn held_now(&self, key: &str) -> Result<Option<Held>, StoreError> {
        let now = Instant::now();
        let mut g = self.lock()?;
        match g.entries.get(key) {
            Some(e) if e.expires > now => Ok(Some(e.held.clone())),
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

/// The value `held` stands for.
fn unpack(held: &Held) -> Result<Arc<Vec<u8>>, StoreError> {
    held.value().ok_or_else(|| StoreError::Backend("a value in the memory store failed to decompress".into()))
}

impl Store for MemoryStore {
    fn put<'a>(&'a self, key: &'a str, value: Vec<u8>, ttl: Duration) -> StoreFuture<'a, Result<(), StoreError>> {
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) if value.len() >= OFFLOAD_MIN_BYTES => Box::pin(async move {
                let held = runtime
                    .spawn_blocking(move || Held::new(value))
                    .await
                    .map_err(|e| StoreError::Backend(format!("compressing a value failed: {e}")))?;
                self.put_now(key, held, ttl)
            }),
            // Small values, or no runtime to hand the work to: answer at once.
            _ => Box::pin(std::future::ready(self.put_now(key, Held::new(value), ttl))),
        }
    }

    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Result<Option<Arc<Vec<u8>>>, StoreError>> {
        let held = match self.held_now(key) {
            Ok(Some(held)) => held,
            other => return Box::pin(std::future::ready(other.map(|_| None))),
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) if matches!(held, Held::Compressed { len, .. } if len >= OFFLOAD_MIN_BYTES) => {
                Box::pin(async move {
                    runtime
                        .spawn_blocking(move || unpack(&held))
                        .await
                        .map_err(|e| StoreError::Backend(format!("decompressing a value failed: {e}")))?
                        .map(Some)
                })
            }
            _ => Box::pin(std::future::ready(unpack(&held).map(Some))),
        }
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
        assert_eq!(s.stats(), StoreStats { entries: 2, bytes: 8, uncompressed_bytes: 8, evicted: 1 });
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
        assert_eq!(s.stats(), StoreStats { entries: 2, bytes: 35, uncompressed_bytes: 35, evicted: 0 });
    }

    #[test]
    fn replacing_a_key_keeps_the_count_right() {
        let s = MemoryStore::new(100);
        let ttl = Duration::from_secs(60);
        block(s.put("a", vec![1; 10], ttl)).unwrap();
        block(s.put("a", vec![1; 20], ttl)).unwrap();
        assert_eq!(s.stats(), StoreStats { entries: 1, bytes: 20, uncompressed_bytes: 20, evicted: 0 });
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
        assert_eq!(s.stats(), StoreStats::default());
    }

    #[test]
    fn a_huge_ttl_does_not_overflow() {
        let s = MemoryStore::new(100);
        block(s.put("a", vec![1], Duration::MAX)).unwrap();
        assert!(block(s.get("a")).unwrap().is_some());
    }

    /// Records like a snapshot's: redundant JSON, compressible many times over.
    fn records(n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| format!(r#"{{"id":{i},"state":"open","title":"cache timeout when list {i} is empty"}},"#))
            .collect::<String>()
            .into_bytes()
    }

    #[test]
    fn the_cap_counts_compressed_bytes() {
        let value = records(1000);
        let held = MemoryStore::size_of(&value);
        assert!(held * 5 < value.len(), "{held} of {}", value.len());
        // Room for four values as held, not one as given.
        let s = MemoryStore::new(held * 4);
        let ttl = Duration::from_secs(60);
        for key in ["a", "b", "c", "d", "e"] {
            block(s.put(key, value.clone(), ttl)).unwrap();
        }
        let stats = s.stats();
        assert_eq!(
            (stats.entries, stats.bytes, stats.uncompressed_bytes, stats.evicted),
            (4, held * 4, value.len() * 4, 1)
        );
        assert!(stats.compression_ratio() > 5.0, "{stats:?}");
        assert!(block(s.get("a")).unwrap().is_none());
        assert_eq!(block(s.get("e")).unwrap().as_deref(), Some(&value));
    }

    #[test]
    fn the_per_entry_cap_counts_compressed_bytes_too() {
        let value = records(200);
        let held = MemoryStore::size_of(&value);
        let s = MemoryStore::with_limits(1 << 20, held);
        let ttl = Duration::from_secs(60);
        block(s.put("fits", value.clone(), ttl)).unwrap();
        let longer = records(400);
        let refused = block(s.put("over", longer.clone(), ttl));
        assert_eq!(refused, Err(StoreError::TooLarge { size: MemoryStore::size_of(&longer), limit: held }));
        assert_eq!(block(s.get("fits")).unwrap().as_deref(), Some(&value));
    }

    #[test]
    fn large_values_round_trip_on_a_runtime_with_blocking_threads() {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).build().unwrap();
        let s = MemoryStore::new(64 << 20);
        let value = records(40_000);
        assert!(value.len() >= OFFLOAD_MIN_BYTES);
        runtime.block_on(s.put("big", value.clone(), Duration::from_secs(60))).unwrap();
        let back = runtime.block_on(s.get("big")).unwrap().unwrap();
        assert_eq!(*back, value);
        assert!(s.stats().bytes * 10 < value.len());
        // Without a runtime the work is done in place, with the same result.
        let back = futures_ready(s.get("big")).unwrap().unwrap();
        assert_eq!(*back, value);
    }

    /// The output of a future that is ready at once, polled without a runtime.
    fn futures_ready<T>(f: StoreFuture<'_, T>) -> T {
        let mut f = f;
        let waker = std::task::Waker::noop();
        match f.as_mut().poll(&mut std::task::Context::from_waker(waker)) {
            std::task::Poll::Ready(v) => v,
            std::task::Poll::Pending => panic!("a memory store future without a runtime must be ready at once"),
        }
    }
}
