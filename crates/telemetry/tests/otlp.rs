//! OTLP export to a loopback collector started by the test: the span of a call arrives with
//! its attributes, and the metrics follow at shutdown.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use toolshape_telemetry::{
    CallStatus, Metrics, OtlpConfig, OtlpExport, Span, SpanExport, SpanSink, Telemetry, TelemetryConfig, TokensBefore,
};

type Received = Arc<Mutex<Vec<(String, Value)>>>;

/// A minimal OTLP/HTTP receiver: answers 200 to every POST and keeps (path, JSON body).
fn collector() -> (String, Received) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let received: Received = Arc::default();
    let store = received.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let mut reader = BufReader::new(stream);
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let path = request_line.split_whitespace().nth(1).unwrap_or("").to_owned();
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if line.trim().is_empty() {
                    break;
                }
                if let Some((name, value)) = line.split_once(':')
                    && name.eq_ignore_ascii_case("content-length")
                {
                    length = value.trim().parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let mut stream = reader.into_inner();
            stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
                .unwrap();
            store.lock().unwrap().push((path, serde_json::from_slice(&body).unwrap()));
        }
    });
    (url, received)
}

/// The attributes of an OTLP span or data point as key → JSON value.
fn attributes(item: &Value) -> BTreeMap<String, Value> {
    item["attributes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["key"].as_str().unwrap().to_owned(), a["value"].clone()))
        .collect()
}

#[test]
fn a_call_arrives_as_an_otlp_span_with_its_figures_and_metrics_follow() {
    let (url, received) = collector();
    let metrics = Arc::new(Metrics::new());
    let export = OtlpExport::new(OtlpConfig::new(&url), Some(metrics.clone())).unwrap();
    let export: Arc<Mutex<dyn SpanExport>> = Arc::new(Mutex::new(export));
    let telemetry = Telemetry::start(TelemetryConfig {
        metrics: Some(metrics),
        export: Some(export),
        ..TelemetryConfig::default()
    })
    .unwrap();
    let mut span = Span {
        time_ms: 1_796_083_200_000,
        mask: Some("triage".into()),
        upstream: Some("github".into()),
        principal: Some("alice".into()),
        tokens_before: TokensBefore::Exact(48_213),
        tokens_after: 1_874,
        bytes_before: 190_000,
        bytes_after: 7_400,
        records_kept: 20,
        records_omitted: 380,
        cut: Some("record 20".into()),
        upstream_ms: 412.5,
        shaping_ms: 3.25,
        ..Span::new("github__list_issues", CallStatus::Partial)
    };
    span.redactions.insert("email".into(), 4);
    telemetry.record(span);
    telemetry.record(Span::new("github__get_issue", CallStatus::Error));
    assert!(telemetry.flush(Duration::from_secs(10)));
    drop(telemetry); // shutdown sends the metrics

    let received = received.lock().unwrap().clone();
    let traces: Vec<&Value> = received.iter().filter(|(p, _)| p == "/v1/traces").map(|(_, b)| b).collect();
    assert!(!traces.is_empty(), "no spans arrived: {received:?}");
    let resource = &traces[0]["resourceSpans"][0];
    assert_eq!(attributes(&resource["resource"])["service.name"]["stringValue"], "toolshape");
    let spans: Vec<&Value> =
        traces.iter().flat_map(|b| b["resourceSpans"][0]["scopeSpans"][0]["spans"].as_array().unwrap()).collect();
    assert_eq!(spans.len(), 2);
    let call = spans.iter().find(|s| s["name"] == "tools/call github__list_issues").unwrap();
    assert_eq!(call["kind"], 2);
    assert_eq!(call["traceId"].as_str().unwrap().len(), 32);
    assert_eq!(call["spanId"].as_str().unwrap().len(), 16);
    assert_eq!(call["endTimeUnixNano"], "1796083200000000000");
    // Started upstream + shaping time (415.75 ms) before it ended.
    assert_eq!(call["startTimeUnixNano"], "1796083199584250000");
    let a = attributes(call);
    assert_eq!(a["toolshape.tool"]["stringValue"], "github__list_issues");
    assert_eq!(a["toolshape.status"]["stringValue"], "partial");
    assert_eq!(a["toolshape.tokens.before"]["intValue"], "48213");
    assert_eq!(a["toolshape.tokens.before_estimated"]["boolValue"], false);
    assert_eq!(a["toolshape.tokens.after"]["intValue"], "1874");
    assert_eq!(a["toolshape.bytes.before"]["intValue"], "190000");
    assert_eq!(a["toolshape.records.omitted"]["intValue"], "380");
    assert_eq!(a["toolshape.cut"]["stringValue"], "record 20");
    assert_eq!(a["toolshape.mask"]["stringValue"], "triage");
    assert_eq!(a["enduser.id"]["stringValue"], "alice");
    assert_eq!(a["toolshape.redactions.email"]["intValue"], "4");
    assert_eq!(a["toolshape.upstream_ms"]["doubleValue"], 412.5);
    let failed = spans.iter().find(|s| s["name"] == "tools/call github__get_issue").unwrap();
    assert_eq!(failed["status"]["code"], 2);

    let metrics: Vec<&Value> = received.iter().filter(|(p, _)| p == "/v1/metrics").map(|(_, b)| b).collect();
    let last = metrics.last().expect("metrics arrive at shutdown");
    let all = last["resourceMetrics"][0]["scopeMetrics"][0]["metrics"].as_array().unwrap();
    let calls = all.iter().find(|m| m["name"] == "toolshape.tool.calls").unwrap();
    let points = calls["sum"]["dataPoints"].as_array().unwrap();
    let partial = points.iter().find(|p| attributes(p)["tool"]["stringValue"] == "github__list_issues").unwrap();
    assert_eq!(partial["asInt"], "1");
    assert_eq!(attributes(partial)["status"]["stringValue"], "partial");
    let before = all.iter().find(|m| m["name"] == "toolshape.tokens.before").unwrap();
    let point = before["histogram"]["dataPoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| attributes(p)["tool"]["stringValue"] == "github__list_issues")
        .unwrap();
    assert_eq!(point["count"], "1");
    assert_eq!(point["sum"], 48_213.0);
    let counts: Vec<&str> = point["bucketCounts"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(counts.len(), point["explicitBounds"].as_array().unwrap().len() + 1);
    // 48,213 falls in the bucket bounded by 50,000 (the ninth).
    assert_eq!(counts[8], "1");
    assert_eq!(counts.iter().filter(|c| **c != "0").count(), 1);
}

#[test]
fn a_collector_that_is_down_pauses_export_without_failing() {
    // Bind and drop a listener to get a port nothing listens on.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut export = OtlpExport::new(OtlpConfig::new(format!("http://127.0.0.1:{port}")), None).unwrap();
    export.export(&[Span::new("t", CallStatus::Ok)]);
    export.export(&[Span::new("t", CallStatus::Ok), Span::new("t", CallStatus::Ok)]);
    assert_eq!(export.counts(), (0, 3));
    assert!(OtlpExport::new(OtlpConfig::new("https://collector:4318"), None).is_err());
}
