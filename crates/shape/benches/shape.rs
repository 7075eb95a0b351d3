//! Benchmarks of the shaping core, against the cheapest thing a gateway could do instead:
//! parse the payload into a `serde_json::Value`. The SPEC asks that cost grow with the
//! budget, not the payload, so shaping 10 MB or 100 MB to 2,000 tokens should cost about a
//! parse (one validating scan), and the ratio in each group shows whether it does.
//!
//! Payloads come from `toolshape-fixtures` and are generated once per process. Sample counts
//! and times are kept small so the whole run takes a few minutes on two cores:
//! `cargo bench -p toolshape-shape --bench shape`.

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use serde_json::{Map, Value};
use toolshape_fixtures::{Kind, NOW_UNIX, Size, generate};
use toolshape_shape::{OffsetContinuation, ShapeContext, ShapePlan, Shaped, Shaper};
use toolshape_tokens::Tokenizer;

/// The budget every benchmark shapes to: a typical mask's.
const BUDGET: usize = 2_000;
const MB: usize = 1_000_000;

/// A payload generated on first use and kept for the rest of the process.
struct Payload {
    cell: OnceLock<Vec<u8>>,
    kind: Kind,
    size: Size,
}

impl Payload {
    const fn new(kind: Kind, size: Size) -> Payload {
        Payload { cell: OnceLock::new(), kind, size }
    }

    fn bytes(&self) -> &[u8] {
        self.cell.get_or_init(|| generate(self.kind, self.size, 7))
    }
}

static ISSUES_10MB: Payload = Payload::new(Kind::Issues, Size::Bytes(10 * MB));
static ISSUES_100MB: Payload = Payload::new(Kind::Issues, Size::Bytes(100 * MB));
static ROWS_100K: Payload = Payload::new(Kind::Table, Size::Count(100_000));
static LOG_10MB: Payload = Payload::new(Kind::Logs, Size::Bytes(10 * MB));
static LOG_1MB: Payload = Payload::new(Kind::Logs, Size::Bytes(MB));

fn shaper(plan: ShapePlan) -> Shaper {
    Shaper::new(ShapePlan { budget_tokens: BUDGET, ..plan }).expect("benchmark plans compile")
}

fn plan_from(json: Value) -> ShapePlan {
    serde_json::from_value(json).expect("benchmark plans deserialize")
}

fn shape(shaper: &Shaper, input: &[u8]) -> Shaped {
    shape_with_nonce(shaper, input, "0123456789abcdef")
}

fn shape_with_nonce(shaper: &Shaper, input: &[u8], nonce: &str) -> Shaped {
    let continuation = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let ctx = ShapeContext {
        tool: "bench",
        tokenizer: Tokenizer::default(),
        nonce,
        now_unix: Some(NOW_UNIX),
        resume: None,
        continuation: &continuation,
    };
    shaper.shape(input, &ctx).expect("benchmark payloads shape")
}

/// Settings for groups whose single iteration takes a large fraction of a second.
fn slow_group<'c>(c: &'c mut Criterion, name: &str) -> BenchmarkGroup<'c, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(5));
    // Flat sampling runs the same iteration count per sample: right for long iterations,
    // where the linear ramp would multiply the run time.
    g.sampling_mode(SamplingMode::Flat);
    g
}

/// Shaping a big issues array to 2,000 tokens, next to parsing the same bytes.
fn issues(c: &mut Criterion) {
    let default = shaper(ShapePlan::default());
    let projected = shaper(plan_from(serde_json::json!({
        "project": ["number", "title", "user.login as author", "labels[].name as labels", "updated_at"],
        "sort": {"by": "updated_at", "order": "desc"},
        "field_tokens": {"title": 40}
    })));
    for (label, payload) in [("10MB", &ISSUES_10MB), ("100MB", &ISSUES_100MB)] {
        let input = payload.bytes();
        let mut g = slow_group(c, &format!("issues_{label}_to_{BUDGET}_tokens"));
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_function(BenchmarkId::new("serde_json_value", label), |b| {
            b.iter(|| black_box(serde_json::from_slice::<Value>(black_box(input)).expect("valid JSON")))
        });
        g.bench_function(BenchmarkId::new("shape_default_plan", label), |b| {
            b.iter(|| black_box(shape(&default, black_box(input))))
        });
        g.bench_function(BenchmarkId::new("shape_project_sort", label), |b| {
            b.iter(|| black_box(shape(&projected, black_box(input))))
        });
        g.finish();
    }
}

/// Projection and sort over 100,000 small records: the case where every record must be
/// looked at (the sort key), so cost follows the record count.
fn project_sort(c: &mut Criterion) {
    let input = ROWS_100K.bytes();
    let plan = shaper(plan_from(serde_json::json!({
        "project": ["order_id", "date", "country", "product", "amount", "customer as buyer"],
        "sort": {"by": "amount", "order": "desc"}
    })));
    let mut g = slow_group(c, "rows_100k_project_sort");
    g.throughput(Throughput::Elements(100_000));
    g.bench_function("serde_json_value", |b| {
        b.iter(|| black_box(serde_json::from_slice::<Value>(black_box(input)).expect("valid JSON")))
    });
    g.bench_function("shape_project_sort", |b| b.iter(|| black_box(shape(&plan, black_box(input)))));
    g.finish();
}

/// A 10 MB log: head, and head and tail, with the level count that scans every line.
fn logs(c: &mut Criterion) {
    let input = LOG_10MB.bytes();
    let head = shaper(ShapePlan::default());
    let head_tail = shaper(plan_from(serde_json::json!({"text": {"keep": "head_tail"}})));
    let mut g = slow_group(c, "log_10MB_to_2000_tokens");
    g.throughput(Throughput::Bytes(input.len() as u64));
    g.bench_function("count_lines_baseline", |b| {
        b.iter(|| black_box(black_box(input).iter().filter(|&&c| c == b'\n').count()))
    });
    g.bench_function("shape_head", |b| b.iter(|| black_box(shape(&head, black_box(input)))));
    g.bench_function("shape_head_tail", |b| b.iter(|| black_box(shape(&head_tail, black_box(input)))));
    g.finish();
}

/// A 1 MB log passed on whole (a budget far above its size): redaction, the level count and
/// one exact count of the rendered envelope, next to one exact count of the raw bytes (the
/// least any exact check of the budget costs).
fn passthrough(c: &mut Criterion) {
    let input = LOG_1MB.bytes();
    let text = std::str::from_utf8(input).expect("fixture logs are UTF-8");
    let whole = Shaper::new(ShapePlan { budget_tokens: 2_000_000, ..ShapePlan::default() }).expect("plan compiles");
    let mut g = slow_group(c, "log_1MB_passed_whole");
    g.throughput(Throughput::Bytes(input.len() as u64));
    g.bench_function("count_tokens_baseline", |b| b.iter(|| black_box(Tokenizer::default().count(black_box(text)))));
    g.bench_function("shape_whole", |b| {
        b.iter(|| {
            let shaped = shape(&whole, black_box(input));
            assert!(shaped.envelope.next.is_none(), "the whole log fits");
            black_box(shaped)
        })
    });
    g.finish();
}

/// A small result, the common case of a gateway call: a device status of about 140 bytes and
/// a page of five short records, each shaped with a fresh nonce as the gateway does (so the
/// nonce's pieces are never in the tokenizer's memo). The baseline is one exact count of the
/// input, the least any exact check of the budget costs.
fn small(c: &mut Criterion) {
    let status = br#"{"lights":[{"brightness":180,"entity":"light.kitchen","friendly_name":"kitchen light","last_changed":"2025-12-25T00:03:00Z","state":"on"}]}"#;
    let records: Vec<Value> = (0..5)
        .map(|i| serde_json::json!({"id": i, "title": format!("Issue number {i} about the login page"), "state": "open", "updated_at": "2025-12-24T10:00:00Z"}))
        .collect();
    let page = serde_json::to_vec(&records).expect("records serialize");
    let default = shaper(ShapePlan::default());
    let mut g = c.benchmark_group("small_result");
    for (label, input) in [("status_140B", status.as_slice()), ("five_records", page.as_slice())] {
        let text = std::str::from_utf8(input).expect("UTF-8");
        g.bench_function(BenchmarkId::new("count_tokens_baseline", label), |b| {
            b.iter(|| black_box(Tokenizer::default().count(black_box(text))))
        });
        let mut n = 0u64;
        g.bench_function(BenchmarkId::new("shape_default_plan", label), |b| {
            b.iter(|| {
                n = n.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let nonce = format!("{n:016x}");
                black_box(shape_with_nonce(&default, black_box(input), &nonce))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, small, issues, project_sort, logs, passthrough);
criterion_main!(benches);
