//! The span log end to end: spans written through the sink, read back, and reported on.

#![allow(clippy::unwrap_used)]

mod common;

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{END_MS, expected, generate, write_log};
use proptest::prelude::*;
use toolshape_shape::thousands;
use toolshape_telemetry::{
    CallStatus, MediaCounts, Metrics, ReadProgress, Report, Span, SpanExport, SpanLogConfig, SpanSink, Telemetry,
    TelemetryConfig, TelemetryError, TokensBefore, read_spans,
};
use toolshape_tokens::Tokenizer;

fn no_progress() -> impl FnMut(ReadProgress) {
    |_| {}
}

fn assert_report_matches(report: &Report, spans: &[Span], since_ms: Option<i64>) {
    let (tools, order) = expected(spans, since_ms);
    let names: Vec<&str> = report.tools.iter().map(|t| t.tool.as_str()).collect();
    assert_eq!(names, order, "tools must be sorted by tokens after shaping");
    let total_after: u64 = tools.values().map(|e| e.after).sum();
    let total_before: u64 = tools.values().map(|e| e.before).sum();
    assert_eq!(report.calls, tools.values().map(|e| e.calls).sum::<u64>());
    assert_eq!(report.tokens_after, total_after);
    assert_eq!(report.tokens_before, total_before);
    assert_eq!(report.tokens_saved, tools.values().map(|e| e.saved).sum::<i64>());
    assert_eq!(report.tokens_saved, total_before as i64 - total_after as i64, "saved is before minus after");
    for tool in &report.tools {
        let e = &tools[&tool.tool];
        assert_eq!(
            (tool.calls, tool.errors, tool.tokens_before, tool.tokens_after, tool.tokens_saved),
            (e.calls, e.errors, e.before, e.after, e.saved),
            "{}",
            tool.tool
        );
        let share = if total_after == 0 { 0.0 } else { e.after as f64 / total_after as f64 };
        assert!((tool.share - share).abs() < 1e-12, "{}: {} vs {share}", tool.tool, tool.share);
        assert!((tool.error_rate - e.errors as f64 / e.calls as f64).abs() < 1e-12);
        assert_eq!(tool.largest.iter().map(|c| c.tokens_before).collect::<Vec<_>>(), e.befores, "{}", tool.tool);
    }
}

#[test]
fn a_generated_log_reports_its_known_totals() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join("spans.sqlite");
    let spans = generate(3_000, 7);
    write_log(&path, &spans);

    let mut calls = Vec::new();
    let read = read_spans(&path, None, &mut |p| calls.push(p)).unwrap();
    assert_eq!(read, spans, "spans must read back exactly as written");
    assert_eq!(calls.last(), Some(&ReadProgress { read: 3_000, total: 3_000 }));

    let report = Report::build(&read, None, END_MS);
    assert_report_matches(&report, &spans, None);
    let media = spans.iter().filter_map(|s| s.media).fold(MediaCounts::default(), MediaCounts::plus);
    assert!(media.items > 0, "the generated log has media");
    assert_eq!(report.media, media);
    assert_eq!(report.tools.iter().map(|t| t.media).fold(MediaCounts::default(), MediaCounts::plus), media);
    let table = report.to_table();
    assert!(table.contains("media (images, audio, blobs):"), "{table}");
    let total = table.lines().rev().find(|l| l.trim_start().starts_with("total")).unwrap();
    assert!(
        total.contains(&format!("image tokens {} → {}", thousands(media.tokens_before), thousands(media.tokens_after))),
        "{total}"
    );

    // The last day only, filtered by the reader and by the report alike.
    let since = END_MS - 86_400_000;
    let recent = read_spans(&path, Some(since), &mut no_progress()).unwrap();
    assert!(recent.len() < spans.len() && !recent.is_empty());
    assert!(recent.iter().all(|s| s.time_ms >= since));
    assert_report_matches(&Report::build(&recent, Some(since), END_MS), &spans, Some(since));
    assert_report_matches(&Report::build(&read, Some(since), END_MS), &spans, Some(since));
}

#[test]
fn pending_counts_are_counted_or_estimated_on_the_writer_thread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spans.sqlite");
    let metrics = Arc::new(Metrics::new());
    let telemetry = Telemetry::start(TelemetryConfig {
        span_log: Some(SpanLogConfig::at(&path)),
        metrics: Some(Arc::clone(&metrics)),
        exact_count_limit: 10_000,
        ..TelemetryConfig::default()
    })
    .unwrap();
    let small = "{\"title\": \"a rather ordinary issue\", \"body\": \"nothing to see here\"}".repeat(20);
    let large = "x".repeat(10_001);
    for (tool, text) in [("small", &small), ("large", &large)] {
        telemetry.record(Span {
            tokens_before: TokensBefore::pending(text.clone()),
            bytes_before: text.len() as u64,
            ..Span::new(tool, CallStatus::Ok)
        });
    }
    assert!(telemetry.flush(Duration::from_secs(30)));
    let read = read_spans(&path, None, &mut no_progress()).unwrap();
    let counted = Tokenizer::default().count(&small) as u64;
    assert_eq!(read[0].tokens_before, TokensBefore::Exact(counted));
    assert_eq!(read[1].tokens_before, TokensBefore::Estimated(10_001u64.div_ceil(4)));
    assert_eq!(telemetry.stats().estimated, 1);
    let text = metrics.render();
    assert!(text.contains(&format!("toolshape_tokens_before_sum{{tool=\"small\"}} {counted}\n")), "{text}");
    assert!(text.contains("toolshape_tokens_before_sum{tool=\"large\"} 2501\n"), "{text}");
}

#[test]
fn the_size_bound_holds_and_keeps_the_newest_spans() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spans.sqlite");
    let max_bytes = 128 * 1024;
    let telemetry = Telemetry::start(TelemetryConfig {
        span_log: Some(SpanLogConfig { path: path.clone(), max_bytes }),
        queue_capacity: 512,
        ..TelemetryConfig::default()
    })
    .unwrap();
    let spans = generate(20_000, 11);
    let mut largest_file = 0;
    for chunk in spans.chunks(500) {
        for span in chunk {
            telemetry.record(span.clone());
        }
        assert!(telemetry.flush(Duration::from_secs(30)));
        largest_file = largest_file.max(std::fs::metadata(&path).unwrap().len());
    }
    assert_eq!(telemetry.stats().dropped, 0);
    drop(telemetry);
    // One batch (at most 256 spans, well under 64 KiB) may land before the oldest rows go.
    assert!(largest_file <= max_bytes + 64 * 1024, "the span log grew to {largest_file} bytes (bound {max_bytes})");
    let kept = read_spans(&path, None, &mut no_progress()).unwrap();
    assert!(kept.len() > 300 && kept.len() < spans.len(), "kept {}", kept.len());
    assert_eq!(kept.last(), spans.last(), "the newest span must survive");
    // What is kept is a contiguous run of the newest spans.
    assert_eq!(&spans[spans.len() - kept.len()..], kept.as_slice());
}

/// An exporter that holds the background thread until released.
struct Stuck {
    entered: Sender<usize>,
    release: Receiver<()>,
    exported: Arc<Mutex<usize>>,
}

impl SpanExport for Stuck {
    fn export(&mut self, spans: &[Span]) {
        let _ = self.entered.send(spans.len());
        let _ = self.release.recv_timeout(Duration::from_secs(30));
        *self.exported.lock().unwrap() += spans.len();
    }
}

#[test]
fn recording_never_blocks_and_a_full_queue_drops() {
    let (release, released) = channel();
    let (entered, entering) = channel();
    let exported = Arc::new(Mutex::new(0));
    let metrics = Arc::new(Metrics::new());
    let export: Arc<Mutex<dyn SpanExport>> =
        Arc::new(Mutex::new(Stuck { entered, release: released, exported: exported.clone() }));
    let telemetry = Telemetry::start(TelemetryConfig {
        queue_capacity: 4,
        export: Some(export),
        metrics: Some(metrics.clone()),
        ..TelemetryConfig::default()
    })
    .unwrap();
    // One span first, and wait until the writer is stuck exporting it: from then on the
    // outcome does not depend on how the threads interleave (a CI run once saw the writer
    // drain spans while they were being recorded, so its batch size is not predictable
    // otherwise).
    telemetry.record(Span { tokens_before: TokensBefore::Exact(0), ..Span::new("t", CallStatus::Ok) });
    let first_batch = entering.recv_timeout(Duration::from_secs(10)).expect("the writer never exported");
    assert_eq!(first_batch, 1);
    let started = Instant::now();
    for i in 1..200 {
        telemetry.record(Span { tokens_before: TokensBefore::Exact(i), ..Span::new("t", CallStatus::Ok) });
    }
    let took = started.elapsed();
    assert!(took < Duration::from_millis(500), "recording 199 spans took {took:?} with the writer stuck");
    let stats = telemetry.stats();
    // The stuck writer holds the first span; the queue holds 4 more; the other 195 were dropped.
    assert_eq!((stats.queued, stats.dropped), (5, 195), "{stats:?}");
    assert!(!telemetry.flush(Duration::from_millis(50)), "flush must give up while the writer is stuck");
    // Every call is counted in the metrics, dropped or not.
    assert!(metrics.render().contains("toolshape_tool_calls_total{tool=\"t\",status=\"ok\"} 200\n"));
    assert!(metrics.render().contains(&format!("toolshape_spans_dropped_total {}\n", stats.dropped)));
    for _ in 0..10 {
        let _ = release.send(());
    }
    assert!(telemetry.flush(Duration::from_secs(10)));
    assert_eq!(*exported.lock().unwrap() as u64, stats.queued);
}

#[test]
fn missing_and_foreign_files_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.sqlite");
    let error = read_spans(&missing, None, &mut no_progress()).unwrap_err();
    assert!(matches!(error, TelemetryError::Missing { .. }), "{error}");
    assert!(error.to_string().contains("--spans"), "{error}");

    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "this is not a database, just some text that is long enough to look like a header").unwrap();
    let error = read_spans(&text, None, &mut no_progress()).unwrap_err();
    assert!(matches!(error, TelemetryError::NotASpanLog { .. }), "{error}");
    assert!(error.to_string().contains("not a SQLite database"), "{error}");

    let other = dir.path().join("other.sqlite");
    rusqlite::Connection::open(&other).unwrap().execute_batch("CREATE TABLE things (a INTEGER)").unwrap();
    let error = read_spans(&other, None, &mut no_progress()).unwrap_err();
    assert!(error.to_string().contains("no `spans` table"), "{error}");

    // A sink refuses to write into someone else's `spans` table.
    rusqlite::Connection::open(&other).unwrap().execute_batch("CREATE TABLE spans (a INTEGER)").unwrap();
    let error =
        Telemetry::start(TelemetryConfig { span_log: Some(SpanLogConfig::at(&other)), ..TelemetryConfig::default() })
            .unwrap_err();
    assert!(matches!(error, TelemetryError::NotASpanLog { .. }), "{error}");
}

#[test]
fn a_log_written_before_media_were_recorded_is_read_and_then_written_with_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    // The table as the first version wrote it, with one span.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(
            "CREATE TABLE spans (id INTEGER PRIMARY KEY, time_ms INTEGER NOT NULL, tool TEXT NOT NULL, mask TEXT,
             upstream TEXT, principal TEXT, session TEXT, status TEXT NOT NULL, tokens_before INTEGER NOT NULL,
             tokens_before_estimated INTEGER NOT NULL, tokens_after INTEGER NOT NULL, bytes_before INTEGER NOT NULL,
             bytes_after INTEGER NOT NULL, records_kept INTEGER NOT NULL, records_omitted INTEGER NOT NULL, cut TEXT,
             redactions TEXT NOT NULL, upstream_ms REAL NOT NULL, shaping_ms REAL NOT NULL);
             INSERT INTO spans VALUES (1, 5, 'old', NULL, NULL, NULL, NULL, 'ok', 10, 0, 5, 40, 20, 1, 0, NULL, '{}', 1.0, 0.5);",
        )
        .unwrap();
    let read = read_spans(&path, None, &mut no_progress()).unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!((read[0].tool.as_str(), read[0].media), ("old", None));

    // A gateway opening it adds the column and writes media from then on.
    let media = MediaCounts {
        items: 2,
        cut: 1,
        bytes_before: 900,
        bytes_after: 300,
        tokens_before: 4_000,
        tokens_after: 1_600,
    };
    let span = Span { time_ms: 6, media: Some(media), ..Span::new("new", CallStatus::Ok) };
    write_log(&path, std::slice::from_ref(&span));
    let read = read_spans(&path, None, &mut no_progress()).unwrap();
    assert_eq!(read.len(), 2);
    assert_eq!(read[0].media, None);
    assert_eq!(read[1].media, Some(media));
    assert_eq!(Report::build(&read, None, 10).media, media);
}

fn arb_span() -> impl Strategy<Value = Span> {
    (0usize..4, 0i64..1_000_000, 0u64..100_000, 0u64..5_000, 0usize..5, any::<bool>()).prop_map(
        |(tool, time_ms, before, after, status, estimated)| Span {
            time_ms,
            tokens_before: if estimated { TokensBefore::Estimated(before) } else { TokensBefore::Exact(before) },
            tokens_after: after,
            ..Span::new(["a", "b", "c", "d"][tool], CallStatus::ALL[status])
        },
    )
}

proptest! {
    #[test]
    fn reports_add_up(spans in proptest::collection::vec(arb_span(), 0..200), since in proptest::option::of(0i64..1_000_000)) {
        let report = Report::build(&spans, since, 0);
        assert_report_matches(&report, &spans, since);
        let (calls, before, after) = report.timeline.iter()
            .fold((0, 0, 0), |(c, b, a), t| (c + t.calls, b + t.tokens_before, a + t.tokens_after));
        prop_assert_eq!((calls, before, after), (report.calls, report.tokens_before, report.tokens_after));
        prop_assert!(report.timeline.len() <= toolshape_telemetry::report::MAX_TIME_BUCKETS);
        prop_assert!(report.timeline.windows(2).all(|w| w[0].end_ms == w[1].start_ms));
        if report.tokens_after > 0 {
            let shares: f64 = report.tools.iter().map(|t| t.share).sum();
            prop_assert!((shares - 1.0).abs() < 1e-9);
        }
        let estimated = spans.iter().filter(|s| since.is_none_or(|t| s.time_ms >= t) && s.tokens_before.is_estimated()).count();
        prop_assert_eq!(report.estimated_calls, estimated as u64);
    }
}

/// An exporter that records the size of every batch it is given.
struct Batches(Arc<Mutex<Vec<usize>>>);

impl SpanExport for Batches {
    fn export(&mut self, spans: &[Span]) {
        self.0.lock().unwrap().push(spans.len());
    }
}

#[test]
fn spans_recorded_together_are_written_together_and_a_flush_does_not_wait_for_the_linger() {
    let batches = Arc::new(Mutex::new(Vec::new()));
    let export: Arc<Mutex<dyn SpanExport>> = Arc::new(Mutex::new(Batches(batches.clone())));
    let telemetry = Telemetry::start(TelemetryConfig { export: Some(export), ..TelemetryConfig::default() }).unwrap();
    for i in 0..100 {
        telemetry.record(Span { tokens_before: TokensBefore::Exact(i), ..Span::new("t", CallStatus::Ok) });
    }
    assert!(telemetry.flush(Duration::from_secs(10)));
    let sizes = batches.lock().unwrap().clone();
    assert_eq!(sizes.iter().sum::<usize>(), 100, "{sizes:?}");
    // Recording 100 spans takes microseconds; the writer gathers for 100 ms, so a few
    // transactions hold them all, not one per span.
    assert!(sizes.len() <= 10, "{} batches: {sizes:?}", sizes.len());

    // One more span, then a flush shorter than the linger: the flush cuts the gathering short.
    telemetry.record(Span::new("t", CallStatus::Ok));
    assert!(telemetry.flush(Duration::from_millis(90)), "the flush waited for the linger");
    assert_eq!(batches.lock().unwrap().iter().sum::<usize>(), 101);
}
