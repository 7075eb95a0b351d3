//! One put followed by one get of the same key, for 1 KiB and 1 MiB values, on each backend
//! side by side: memory, a SQLite file (WAL) and Redis on loopback. The Redis server is
//! started by the bench itself (a throwaway `redis-server` on a free port, no persistence)
//! and stopped at the end. Keys rotate over 64 names so the stores evict as they would in
//! service. Run: `cargo bench -p toolshape-store --bench store`.

#[path = "../tests/support/redis_server.rs"]
mod redis_server;

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use redis_server::RedisServer;
use toolshape_store::{Store, StoreSpec};

const KIB: usize = 1024;
const MIB: usize = 1024 * 1024;
const TTL: Duration = Duration::from_secs(600);

fn bench_put_get(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().expect("runtime");
    let redis = RedisServer::start();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let specs = [
        ("memory", StoreSpec::Memory { max_bytes: 64 * MIB }),
        (
            "sqlite",
            StoreSpec::Sqlite { path: dir.path().join("bench.db"), max_bytes: 64 * MIB, max_entry_bytes: 2 * MIB },
        ),
        ("redis", StoreSpec::Redis { url: redis.url(0), key_prefix: "bench:".into(), max_entry_bytes: 2 * MIB }),
    ];
    let stores: Vec<(&str, Arc<dyn Store>)> = specs
        .iter()
        .map(|(name, spec)| (*name, runtime.block_on(toolshape_store::open(spec)).expect("open the store")))
        .collect();

    for (label, size) in [("1KiB", KIB), ("1MiB", MIB)] {
        let mut group = c.benchmark_group(format!("put_get/{label}"));
        group.throughput(Throughput::Bytes(size as u64));
        group.sample_size(if size >= MIB { 30 } else { 100 });
        group.measurement_time(Duration::from_secs(4));
        let value: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        for (name, store) in &stores {
            let mut turn = 0usize;
            group.bench_with_input(BenchmarkId::from_parameter(name), &value, |b, value| {
                b.iter(|| {
                    turn = (turn + 1) % 64;
                    let key = format!("snapshot-{turn}");
                    runtime.block_on(async {
                        store.put(&key, value.clone(), TTL).await.expect("put");
                        let got = store.get(&key).await.expect("get").expect("present");
                        black_box(got.len())
                    })
                });
            });
        }
        group.finish();
    }
    drop(stores);
    drop(redis);
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench_put_get(&mut criterion);
    criterion.final_summary();
}
