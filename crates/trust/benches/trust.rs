//! What trust adds to a call, next to what a call costs anyway: the argument guard and the
//! repeat counter on typical arguments, each beside serializing the same arguments (which
//! every call does to send them upstream), and hashing a tool definition (once per listing).
//!
//! `cargo bench -p toolshape-trust --bench trust`; well under a minute on two cores.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use toolshape_trust::{ArgumentGuard, CallKey, GuardSpec, RepeatDetector, RepeatPolicy, ToolDefinition};

/// Arguments of a typical call: a query, a few filters, a short text.
fn small_arguments() -> Value {
    json!({
        "owner": "acme", "repo": "widgets", "state": "open", "labels": ["bug", "p1"], "per_page": 50,
        "query": "crash on startup after upgrading to 2.3 (see stack trace in #1234)",
        "since": "2026-11-01T00:00:00Z"
    })
}

/// A call that writes a 16 KiB file: markdown with code, URLs and numbers, no secret.
fn file_arguments() -> Value {
    let mut content = String::new();
    let mut i = 0u64;
    while content.len() < 16 * 1024 {
        content.push_str(&format!(
            "## Step {i}\nRun `cargo build --release` then open https://docs.example.com/guide/{i}?ref=readme.\n\
             The service listens on 127.0.0.1:{} and retries {} times (token_count: {}).\n\n",
            8000 + i % 100,
            i % 7,
            i * 13
        ));
        i += 1;
    }
    json!({ "path": "docs/GUIDE.md", "content": content, "create_dirs": true })
}

fn bench(c: &mut Criterion) {
    let guard = ArgumentGuard::new(&GuardSpec::default()).expect("the default guard");
    for (name, args) in [("small", small_arguments()), ("file_16k", file_arguments())] {
        let mut group = c.benchmark_group(format!("per_call/{name}"));
        group.bench_function("serialize (baseline)", |b| b.iter(|| serde_json::to_vec(black_box(&args))));
        group.bench_function("guard", |b| {
            b.iter(|| {
                let mut sent = args.clone();
                guard.check(black_box(&mut sent), &[])
            })
        });
        group.bench_function("clone (part of guard)", |b| b.iter(|| black_box(&args).clone()));
        let mut detector = RepeatDetector::new(RepeatPolicy::default(), 4096);
        let mut t = 0u64;
        group.bench_function("repeat key + observe", |b| {
            b.iter(|| {
                t += 1;
                let key = CallKey::new(Some("session"), "list_issues", black_box(&args));
                detector.observe(key, Duration::from_millis(t))
            })
        });
        group.finish();
    }
    let tool = ToolDefinition::from_mcp(&json!({
        "name": "list_issues",
        "description": "List issues in a GitHub repository. ".repeat(20),
        "inputSchema": {
            "type": "object",
            "properties": (0..20).map(|i| (format!("p{i}"), json!({"type": "string", "description": "A filter. ".repeat(5)}))).collect::<serde_json::Map<_, _>>()
        },
        "annotations": {"readOnlyHint": true}
    }))
    .expect("a tool");
    c.bench_function("definition_hash/2kb", |b| b.iter(|| black_box(&tool).hash()));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
