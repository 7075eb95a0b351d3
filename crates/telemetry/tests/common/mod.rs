//! A generated span log with totals computed here, independently of the report code.

#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use toolshape_telemetry::{
    CallStatus, MediaCounts, Span, SpanLogConfig, SpanSink, Telemetry, TelemetryConfig, TokensBefore,
};

/// The time the generated spans end at (2026-11-30 00:00 UTC).
pub const END_MS: i64 = 1_796_083_200_000;
/// The generated spans cover three days before [`END_MS`].
pub const SPAN_MS: i64 = 3 * 86_400_000;

/// A small deterministic generator (64-bit LCG), so the log is the same on every run.
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Tools and the scale of their results.
pub const TOOLS: [(&str, u64); 5] = [
    ("github__list_issues", 40_000),
    ("slack__history", 12_000),
    ("logs__tail", 90_000),
    ("jira__get", 800),
    ("k8s <pods>", 3_000),
];

/// `n` spans over the three days before [`END_MS`], all with exact pre-shaping counts.
pub fn generate(n: usize, seed: u64) -> Vec<Span> {
    let mut rng = Lcg::new(seed);
    (0..n)
        .map(|i| {
            let (tool, scale) = TOOLS[rng.below(TOOLS.len() as u64) as usize];
            let before = 1 + rng.below(scale);
            // Most calls shrink a lot; some small ones grow inside their envelope.
            let after = if rng.below(10) == 0 { before + rng.below(60) } else { before / (2 + rng.below(20)) + 40 };
            let status = match rng.below(20) {
                0 | 1 => CallStatus::Error,
                2 => CallStatus::Empty,
                3..=8 => CallStatus::Partial,
                _ => CallStatus::Ok,
            };
            let mut redactions = BTreeMap::new();
            if rng.below(7) == 0 {
                redactions.insert("email".to_owned(), 1 + rng.below(3));
            }
            Span {
                time_ms: END_MS - SPAN_MS + (i as i64 * SPAN_MS / n as i64),
                mask: Some("default".into()),
                upstream: Some(tool.split("__").next().unwrap_or(tool).to_owned()),
                principal: None,
                session: Some(format!("s{}", rng.below(5))),
                tokens_before: TokensBefore::Exact(before),
                tokens_after: after,
                bytes_before: before * 4,
                bytes_after: after * 4,
                records_kept: rng.below(50),
                records_omitted: rng.below(500),
                cut: (status == CallStatus::Partial).then(|| format!("record {}", rng.below(100))),
                redactions,
                upstream_ms: rng.below(2_000) as f64 / 10.0,
                shaping_ms: rng.below(100) as f64 / 100.0,
                // Some results carry images or audio.
                media: (rng.below(9) == 0).then(|| {
                    let items = 1 + rng.below(3);
                    let tokens_before = rng.below(20_000);
                    let bytes_before = rng.below(5_000_000);
                    MediaCounts {
                        items,
                        cut: rng.below(items + 1),
                        bytes_before,
                        bytes_after: bytes_before / (1 + rng.below(8)),
                        tokens_before,
                        tokens_after: tokens_before.min(1_600),
                    }
                }),
                ..Span::new(tool, status)
            }
        })
        .collect()
}

/// What a report over some spans must say about one tool.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Expected {
    pub calls: u64,
    pub errors: u64,
    pub before: u64,
    pub after: u64,
    pub saved: i64,
    pub befores: Vec<u64>,
}

/// Per-tool totals of the spans at or after `since_ms`, and the order tools must appear in.
pub fn expected(spans: &[Span], since_ms: Option<i64>) -> (BTreeMap<String, Expected>, Vec<String>) {
    let mut tools: BTreeMap<String, Expected> = BTreeMap::new();
    for span in spans.iter().filter(|s| since_ms.is_none_or(|since| s.time_ms >= since)) {
        let before = match &span.tokens_before {
            TokensBefore::Exact(n) | TokensBefore::Estimated(n) => *n,
            TokensBefore::Pending(_) => panic!("expected totals need resolved counts"),
        };
        let e = tools.entry(span.tool.clone()).or_default();
        e.calls += 1;
        e.errors += u64::from(span.status == CallStatus::Error);
        e.before += before;
        e.after += span.tokens_after;
        e.saved += before as i64 - span.tokens_after as i64;
        e.befores.push(before);
    }
    for e in tools.values_mut() {
        e.befores.sort_unstable_by(|a, b| b.cmp(a));
        e.befores.truncate(3);
    }
    let mut order: Vec<String> = tools.keys().cloned().collect();
    order.sort_by(|a, b| {
        let (ea, eb) = (&tools[a], &tools[b]);
        eb.after.cmp(&ea.after).then(eb.before.cmp(&ea.before)).then(a.cmp(b))
    });
    (tools, order)
}

/// Write `spans` through a [`Telemetry`] sink into a new span log at `path`.
pub fn write_log(path: &Path, spans: &[Span]) {
    let config = TelemetryConfig {
        span_log: Some(SpanLogConfig::at(path)),
        queue_capacity: spans.len().max(1),
        ..TelemetryConfig::default()
    };
    let sink: Arc<dyn SpanSink> = Arc::new(Telemetry::start(config).unwrap());
    for span in spans {
        sink.record(span.clone());
    }
    assert!(sink.flush(Duration::from_secs(60)), "the span log was not written in time");
    let stats = sink.stats();
    assert_eq!((stats.dropped, stats.failed), (0, 0), "{stats:?}");
}
