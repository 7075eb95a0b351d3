//! Search spans in the span log: written and read back with their query and returned tools,
//! and a log written before the search columns existed is still read, then upgraded in place
//! by the next writer without losing a row.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use toolshape_telemetry::{
    CallStatus, Report, SearchCall, Span, SpanLogConfig, SpanSink, Telemetry, TelemetryConfig, TokensBefore, read_spans,
};

/// The `spans` table as the first version of the log made it.
const FIRST_VERSION: &str = "
CREATE TABLE spans (
    id INTEGER PRIMARY KEY, time_ms INTEGER NOT NULL, tool TEXT NOT NULL, mask TEXT, upstream TEXT,
    principal TEXT, session TEXT, status TEXT NOT NULL, tokens_before INTEGER NOT NULL,
    tokens_before_estimated INTEGER NOT NULL, tokens_after INTEGER NOT NULL, bytes_before INTEGER NOT NULL,
    bytes_after INTEGER NOT NULL, records_kept INTEGER NOT NULL, records_omitted INTEGER NOT NULL, cut TEXT,
    redactions TEXT NOT NULL, upstream_ms REAL NOT NULL, shaping_ms REAL NOT NULL
);
CREATE INDEX spans_by_time ON spans (time_ms);
INSERT INTO spans (time_ms, tool, status, tokens_before, tokens_before_estimated, tokens_after, bytes_before,
    bytes_after, records_kept, records_omitted, redactions, upstream_ms, shaping_ms)
VALUES (1000, 'old_tool', 'ok', 500, 0, 50, 2000, 200, 3, 7, '{}', 1.5, 0.5);
";

fn write(path: &std::path::Path, spans: Vec<Span>) {
    let telemetry =
        Telemetry::start(TelemetryConfig { span_log: Some(SpanLogConfig::at(path)), ..TelemetryConfig::default() })
            .unwrap();
    for span in spans {
        telemetry.record(span);
    }
    assert!(telemetry.flush(Duration::from_secs(10)));
}

fn search_span(time_ms: i64, query: &str, returned: &[&str], matched: u64) -> Span {
    Span {
        time_ms,
        session: Some("s".into()),
        search: Some(SearchCall {
            query: query.into(),
            returned: returned.iter().map(|s| (*s).to_owned()).collect(),
            matched,
        }),
        ..Span::new("search_tools", CallStatus::Ok)
    }
}

#[test]
fn an_old_log_is_read_then_upgraded_by_the_next_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    rusqlite::Connection::open(&path).unwrap().execute_batch(FIRST_VERSION).unwrap();

    let old = read_spans(&path, None, &mut |_| {}).unwrap();
    assert_eq!(old.len(), 1);
    assert_eq!((old[0].tool.as_str(), old[0].tokens_after, old[0].search.as_ref()), ("old_tool", 50, None));
    assert_eq!(Report::build(&old, None, 0).search, None, "an old log has no searches");

    let later = Span {
        time_ms: 3000,
        session: Some("s".into()),
        tokens_before: TokensBefore::Exact(10),
        ..Span::new("fs_read", CallStatus::Ok)
    };
    write(&path, vec![search_span(2000, "read a file", &["fs_read", "fs_stat"], 9), later]);

    let spans = read_spans(&path, None, &mut |_| {}).unwrap();
    assert_eq!(spans.len(), 3, "no row lost: {spans:?}");
    assert_eq!(spans[0].tool, "old_tool");
    assert_eq!(spans[0].search, None);
    let search = spans[1].search.as_ref().unwrap();
    assert_eq!(
        (search.query.as_str(), search.returned.as_slice(), search.matched),
        ("read a file", &["fs_read".to_owned(), "fs_stat".to_owned()][..], 9)
    );
    assert_eq!(spans[2].search, None);
    let report = Report::build(&spans, None, 0).search.unwrap();
    assert_eq!((report.searches, report.followed), (1, 1));
    assert!((report.hit_rate - 1.0).abs() < 1e-12);

    // A second writer finds the columns there and adds nothing.
    write(&path, vec![search_span(4000, "zzqx", &[], 0)]);
    let spans = read_spans(&path, None, &mut |_| {}).unwrap();
    assert_eq!(spans.len(), 4);
    let report = Report::build(&spans, None, 0);
    let search = report.search.as_ref().unwrap();
    assert_eq!((search.searches, search.empty, search.unused.len()), (2, 1, 1));
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["search"]["unused"][0]["query"], "zzqx");
    assert!(report.to_table().contains("queries that led to no call"), "{}", report.to_table());
    assert!(report.to_html().contains("id=\"search\""));
}

#[test]
fn a_table_with_other_columns_is_still_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.sqlite");
    let odd = FIRST_VERSION.replace("shaping_ms REAL NOT NULL\n", "shaping_ms REAL NOT NULL, colour TEXT\n");
    rusqlite::Connection::open(&path).unwrap().execute_batch(&odd).unwrap();
    let error = read_spans(&path, None, &mut |_| {}).unwrap_err();
    assert!(error.to_string().contains("colour"), "{error}");
}
