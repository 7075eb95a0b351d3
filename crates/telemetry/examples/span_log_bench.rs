//! Measures the span log: how long `record` takes on the caller's side, how fast the
//! background thread writes (counting pending pre-shaping tokens), and how long reading and
//! reporting a large log takes.
//!
//! `cargo run --release -p toolshape-telemetry --example span_log_bench -- [SPANS] [PAYLOAD_BYTES]`
//! (defaults: 200000 spans, 20000-byte pending payloads on one span in ten).

#![allow(clippy::print_stdout, clippy::unwrap_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use toolshape_telemetry::{
    CallStatus, Report, Span, SpanLogConfig, SpanSink, Telemetry, TelemetryConfig, TokensBefore, read_spans,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let spans: usize = args.next().map_or(200_000, |a| a.parse().unwrap());
    let payload_bytes: usize = args.next().map_or(20_000, |a| a.parse().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spans.sqlite");
    let telemetry = Telemetry::start(TelemetryConfig {
        span_log: Some(SpanLogConfig { path: path.clone(), max_bytes: 1 << 30 }),
        queue_capacity: spans,
        ..TelemetryConfig::default()
    })
    .unwrap();
    // JSON-like text, so the token count is realistic.
    let payload: Arc<[u8]> = Arc::from(
        "{\"id\": 4711, \"title\": \"Crash when saving a file\", \"state\": \"open\", \"labels\": [\"bug\"]}\n"
            .repeat(payload_bytes / 80 + 1)
            .as_bytes(),
    );
    let tools = ["github__list_issues", "slack__history", "logs__tail", "jira__get", "k8s__pods"];
    let mut latencies = Vec::with_capacity(spans);
    let started = Instant::now();
    for i in 0..spans {
        let tokens_before = if i % 10 == 0 {
            TokensBefore::pending(payload.clone())
        } else {
            TokensBefore::Exact(1_000 + i as u64 % 5_000)
        };
        let span = Span {
            time_ms: 1_796_083_200_000 + i as i64 * 1_000,
            tokens_before,
            tokens_after: 300 + i as u64 % 700,
            bytes_before: 20_000,
            bytes_after: 1_500,
            cut: Some(format!("record {}", i % 100)),
            ..Span::new(tools[i % tools.len()], CallStatus::Partial)
        };
        let t = Instant::now();
        telemetry.record(span);
        latencies.push(t.elapsed());
    }
    let recorded = started.elapsed();
    assert!(telemetry.flush(Duration::from_secs(600)));
    let written = started.elapsed();
    let stats = telemetry.stats();
    drop(telemetry);
    latencies.sort_unstable();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    println!("spans: {spans} (one in ten with a pending {payload_bytes}-byte payload)");
    println!("record(): p50 {:?}, p99 {:?}, max {:?}; all queued in {recorded:?}", at(0.5), at(0.99), at(1.0));
    println!(
        "writer: all written after {written:?} ({:.0} spans/s); dropped {}, estimated {}",
        spans as f64 / written.as_secs_f64(),
        stats.dropped,
        stats.estimated
    );
    println!(
        "span log: {} bytes ({} bytes per span)",
        std::fs::metadata(&path).unwrap().len(),
        std::fs::metadata(&path).unwrap().len() / spans as u64
    );
    let t = Instant::now();
    let read = read_spans(&path, None, &mut |_| {}).unwrap();
    let read_time = t.elapsed();
    let t = Instant::now();
    let report = Report::build(&read, None, 0);
    let build_time = t.elapsed();
    let t = Instant::now();
    let html = report.to_html();
    let html_time = t.elapsed();
    println!(
        "read {} spans: {read_time:?}; report: {build_time:?}; html ({} bytes): {html_time:?}",
        read.len(),
        html.len()
    );
}
