//! `toolshape report` on a span log generated here: the table, the JSON, the HTML page, and
//! clear errors for missing or foreign files and bad durations.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use assert_cmd::Command;
use toolshape_telemetry::{
    CallStatus, Span, SpanLogConfig, SpanSink, Telemetry, TelemetryConfig, TokensBefore, now_unix_ms,
};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("toolshape").unwrap().args(args).env_remove("XDG_STATE_HOME").output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Three tools; `search` two hours ago, the others within the last hour.
fn write_log(path: &std::path::Path) -> Vec<Span> {
    let now = now_unix_ms();
    let spans = vec![
        Span {
            time_ms: now - 2 * 3_600_000,
            tokens_before: TokensBefore::Exact(9_000),
            tokens_after: 700,
            ..Span::new("search", CallStatus::Partial)
        },
        Span {
            time_ms: now - 600_000,
            tokens_before: TokensBefore::Exact(40_000),
            tokens_after: 1_200,
            ..Span::new("logs", CallStatus::Partial)
        },
        Span {
            time_ms: now - 500_000,
            tokens_before: TokensBefore::Exact(30_000),
            tokens_after: 1_000,
            ..Span::new("logs", CallStatus::Ok)
        },
        Span {
            time_ms: now - 400_000,
            tokens_before: TokensBefore::Exact(50),
            tokens_after: 90,
            ..Span::new("get", CallStatus::Error)
        },
    ];
    let sink =
        Telemetry::start(TelemetryConfig { span_log: Some(SpanLogConfig::at(path)), ..TelemetryConfig::default() })
            .unwrap();
    let sink: Arc<dyn SpanSink> = Arc::new(sink);
    for span in &spans {
        sink.record(span.clone());
    }
    assert!(sink.flush(Duration::from_secs(30)));
    spans
}

#[test]
fn report_prints_the_table_json_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("spans.sqlite");
    write_log(&log);
    let log = log.to_str().unwrap();

    let (code, out, err) = run(&["report", "--spans", log]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains("4 calls · 3 tools"), "{out}");
    assert!(lines[1].starts_with("tool"), "{out}");
    // Most costly first: logs (2,200 after), search (700), get (90).
    assert!(lines[2].starts_with("logs") && lines[2].contains("70,000") && lines[2].contains("2,200"), "{out}");
    assert!(lines[3].starts_with("search") && lines[4].starts_with("get"), "{out}");
    assert!(lines[4].contains("100.0%"), "get's only call failed: {out}");

    let (code, out, err) = run(&["report", "--spans", log, "--since", "1h", "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["calls"], 3);
    assert_eq!(json["tokens_before"], 70_050);
    assert_eq!(json["tokens_after"], 2_290);
    assert_eq!(json["tools"][0]["tool"], "logs");
    assert_eq!(json["tools"][0]["tokens_saved"], 67_800);
    assert_eq!(json["tools"][1]["tool"], "get");
    // get's answer grew inside its envelope: that counts against it.
    assert_eq!(json["tools"][1]["tokens_saved"], -40);
    assert_eq!(json["tokens_saved"], 70_050 - 2_290);

    let page = dir.path().join("report.html");
    let (code, _, err) = run(&["report", "--spans", log, "--html", page.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("data-tool=\"logs\" data-calls=\"2\" data-tokens-before=\"70000\" data-tokens-after=\"2200\"")
    );
}

#[test]
fn report_explains_missing_and_foreign_files_and_bad_durations() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.sqlite");
    let (code, _, err) = run(&["report", "--spans", missing.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("no span log at") && err.contains("toolshape serve"), "{err}");

    let junk = dir.path().join("junk.sqlite");
    std::fs::write(&junk, "x".repeat(4096)).unwrap();
    let (code, _, err) = run(&["report", "--spans", junk.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("is not a toolshape span log"), "{err}");

    let (code, _, err) = run(&["report", "--spans", junk.to_str().unwrap(), "--since", "yesterday"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad duration `yesterday`"), "{err}");
}

#[test]
fn report_reads_the_default_span_log_under_xdg_state_home() {
    let dir = tempfile::tempdir().unwrap();
    write_log(&dir.path().join("toolshape").join("spans.sqlite"));
    let out = Command::cargo_bin("toolshape")
        .unwrap()
        .args(["report", "--json"])
        .env("XDG_STATE_HOME", dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["calls"], 4);
}
