//! Benchmarks of text redaction on large inputs: the common case (nothing to find), a log with
//! a finding every 100 lines, and GitHub-issues JSON redacted as text.
//!
//! Inputs are generated once per process. Samples are few so the whole run takes well under a
//! minute on two cores: `cargo bench -p toolshape-redact --bench redact`.

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use toolshape_fixtures::{Kind, Size, generate};
use toolshape_redact::{RedactSpec, RedactionCounts, Redactor};

const SIZE: usize = 4 << 20;

/// About `target` bytes of log lines full of digits, dates, ids and addresses (the shape of
/// `tests/perf.rs`), with a line holding an email, a card, a phone and an AWS key every `every`
/// lines (none when `every` is 0).
fn log_text(target: usize, every: u64) -> String {
    let mut text = String::with_capacity(target + 200);
    let mut i = 0u64;
    while text.len() < target {
        text.push_str(&format!(
            "2024-01-02T10:11:{:02}.{:03}Z INFO req={:08x}-1c2d-4e5f-8a9b-{:012x} ip=10.0.{}.{} \
             took {} ms v1.2.{} order {} status=200 path=/api/v1/items?page={}\n",
            i % 60,
            i % 1000,
            i.wrapping_mul(2_654_435_761) & 0xffff_ffff,
            i.wrapping_mul(40_503),
            i % 256,
            (i * 7) % 256,
            i % 997,
            i % 50,
            1_000_000_000 + i,
            i % 100
        ));
        if every > 0 && i.is_multiple_of(every) {
            text.push_str(
                "user jane.doe@example.com paid with 4111 1111 1111 1111 from +44 20 7946 0958 \
                 using AKIAIOSFODNN7EXAMPLE\n",
            );
        }
        i += 1;
    }
    text
}

/// GitHub issues from `toolshape-fixtures`, pretty-printed (one member per line, as a tool
/// result shown to a model usually is).
fn issues_text(target: usize) -> String {
    let raw = generate(Kind::Issues, Size::Bytes(target), 7);
    let value: Value = serde_json::from_slice(&raw).expect("fixtures are valid JSON");
    serde_json::to_string_pretty(&value).expect("serializable")
}

static CLEAN_LOG: OnceLock<String> = OnceLock::new();
static LOG_WITH_FINDINGS: OnceLock<String> = OnceLock::new();
static ISSUES: OnceLock<String> = OnceLock::new();

fn bench(c: &mut Criterion) {
    let redactor = Redactor::new(&RedactSpec::default()).expect("default spec compiles");
    let mut group = c.benchmark_group("redact_text");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    for (name, cell, make) in [
        ("log_4mb_nothing", &CLEAN_LOG, (|| log_text(SIZE, 0)) as fn() -> String),
        ("log_4mb_finding_every_100_lines", &LOG_WITH_FINDINGS, || log_text(SIZE, 100)),
        ("issues_json_4mb", &ISSUES, || issues_text(SIZE)),
    ] {
        let text = cell.get_or_init(make);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut counts = RedactionCounts::default();
                let out = redactor.redact_text(black_box(text), &mut counts);
                black_box((out.len(), counts.total()))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
