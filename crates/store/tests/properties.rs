//! Property: for the memory and SQLite stores, any sequence of puts, gets and deletes (with
//! small caps) behaves like a model map that evicts its oldest entries to make room, and the
//! bytes held never exceed the total cap. The memory store counts values as it holds them
//! (compressed when that saves room, [`MemoryStore::size_of`]); SQLite as given.

use std::time::Duration;

use proptest::prelude::*;
use toolshape_store::{MemoryStore, SqliteStore, Store, StoreError, StoreStats};

/// Long enough that nothing expires during a case: expiry is tested on its own.
const TTL: Duration = Duration::from_secs(3600);

#[derive(Debug, Clone)]
enum Op {
    /// A value of `size` bytes: one byte repeated (compresses well) or, when `noisy`, a
    /// pseudo-random stream seeded by `fill` (does not compress).
    Put {
        key: u8,
        size: usize,
        fill: u8,
        noisy: bool,
    },
    Get {
        key: u8,
    },
    Delete {
        key: u8,
    },
}

fn op(max_size: usize) -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u8..6, 0..=max_size, any::<u8>(), any::<bool>())
            .prop_map(|(key, size, fill, noisy)| Op::Put { key, size, fill, noisy }),
        2 => (0u8..6).prop_map(|key| Op::Get { key }),
        1 => (0u8..6).prop_map(|key| Op::Delete { key }),
    ]
}

fn value(size: usize, fill: u8, noisy: bool) -> Vec<u8> {
    if !noisy {
        return vec![fill; size];
    }
    let mut x = u64::from(fill) | 0x9E37_79B9_7F4A_7C00;
    (0..size)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// The reference: entries in insertion order (a replaced key moves to the end), each with
/// the bytes it takes in the store under test.
#[derive(Debug)]
struct Model {
    entries: Vec<(String, Vec<u8>, usize)>,
    evicted: u64,
    size_of: fn(&[u8]) -> usize,
}

impl Model {
    fn new(size_of: fn(&[u8]) -> usize) -> Model {
        Model { entries: Vec::new(), evicted: 0, size_of }
    }

    fn bytes(&self) -> usize {
        self.entries.iter().map(|(_, _, held)| held).sum()
    }

    fn put(&mut self, key: String, value: Vec<u8>, total: usize, per_entry: usize) -> Result<(), StoreError> {
        let limit = total.min(per_entry);
        let held = (self.size_of)(&value);
        if held > limit {
            return Err(StoreError::TooLarge { size: held, limit });
        }
        self.entries.retain(|(k, _, _)| *k != key);
        while self.bytes() + held > total {
            self.entries.remove(0);
            self.evicted += 1;
        }
        self.entries.push((key, value, held));
        Ok(())
    }

    fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.entries.iter().find(|(k, _, _)| k == key).map(|(_, v, _)| v.clone())
    }

    fn delete(&mut self, key: &str) {
        self.entries.retain(|(k, _, _)| k != key);
    }

    fn stats(&self) -> StoreStats {
        StoreStats {
            entries: self.entries.len(),
            bytes: self.bytes(),
            uncompressed_bytes: self.entries.iter().map(|(_, v, _)| v.len()).sum(),
            evicted: self.evicted,
        }
    }
}

/// Run `ops` on `store` and on the model side by side; `stats` reads the store's totals.
async fn check_against_model<S: Store>(
    store: &S,
    stats: impl AsyncFn(&S) -> StoreStats,
    size_of: fn(&[u8]) -> usize,
    ops: &[Op],
    total: usize,
    per_entry: usize,
) -> Result<(), TestCaseError> {
    let mut model = Model::new(size_of);
    for (step, op) in ops.iter().enumerate() {
        match op {
            Op::Put { key, size, fill, noisy } => {
                let key = format!("k{key}");
                let value = value(*size, *fill, *noisy);
                let expected = model.put(key.clone(), value.clone(), total, per_entry);
                let got = store.put(&key, value, TTL).await;
                prop_assert_eq!(got, expected, "step {}: {:?}", step, op);
            }
            Op::Get { key } => {
                let key = format!("k{key}");
                let got = store.get(&key).await.map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(got.as_deref().cloned(), model.get(&key), "step {}: {:?}", step, op);
            }
            Op::Delete { key } => {
                let key = format!("k{key}");
                model.delete(&key);
                store.delete(&key).await.map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
        }
        let now = stats(store).await;
        prop_assert!(now.bytes <= total, "step {}: {} bytes held, cap {}", step, now.bytes, total);
        prop_assert_eq!(now, model.stats(), "step {}: {:?}", step, op);
    }
    Ok(())
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn memory_store_matches_the_model(
        total in 1usize..40,
        per_entry in 1usize..40,
        ops in prop::collection::vec(op(45), 0..60),
    ) {
        let store = MemoryStore::with_limits(total, per_entry);
        let stats = async |s: &MemoryStore| s.stats();
        runtime().block_on(check_against_model(&store, stats, MemoryStore::size_of, &ops, total, per_entry))?;
    }

    /// Values long enough to be compressed, or not when they are noise: the caps count
    /// the bytes held, and every value comes back as it was given.
    #[test]
    fn memory_store_with_compressed_values_matches_the_model(
        total in 1usize..6000,
        per_entry in 1usize..6000,
        ops in prop::collection::vec(op(5000), 0..40),
    ) {
        let store = MemoryStore::with_limits(total, per_entry);
        let stats = async |s: &MemoryStore| s.stats();
        runtime().block_on(check_against_model(&store, stats, MemoryStore::size_of, &ops, total, per_entry))?;
    }
}

proptest! {
    // Each case makes a file and a thread: fewer cases, same shapes.
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sqlite_store_matches_the_model(
        total in 1usize..40,
        per_entry in 1usize..40,
        ops in prop::collection::vec(op(45), 0..60),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let rt = runtime();
        let store = rt.block_on(SqliteStore::open(&dir.path().join("p.db"), total, per_entry)).unwrap();
        rt.block_on(check_against_model(
            &store,
            async |s: &SqliteStore| s.stats().await.unwrap(),
            <[u8]>::len,
            &ops,
            total,
            per_entry,
        ))?;
    }
}
