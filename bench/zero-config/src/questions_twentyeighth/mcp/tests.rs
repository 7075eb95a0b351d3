//! Tests of the mcp half's questions: its readers on small hand-made results, and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end). The part-wide
//! checks in `questions_twentyeighth` cover both halves together.

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] =
    ["gcp_logging_entries", "quickbooks_invoices_query", "mixpanel_segmentation", "otlp_traces_json"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentyEighth, &SEEDS);
}

#[test]
fn durations_are_read_as_seconds() {
    assert_eq!(duration_seconds("0.115847170s"), Some(0.11584717));
    assert_eq!(duration_seconds("12s"), Some(12.0));
    assert_eq!(duration_seconds("12"), None);
}

#[test]
fn cloud_logging_entries_are_read_by_workload_trace_and_latency() {
    let v = json!({"entries": [
        {"insertId": "a1", "resource": {"type": "cloud_run_revision", "labels": {"service_name": "payments-api"}}, "severity": "ERROR", "timestamp": "t3",
         "httpRequest": {"requestUrl": "https://x/v1/authorize", "status": 503, "latency": "12.5s", "responseSize": "90"}, "trace": "projects/p/traces/abc"},
        {"insertId": "b2", "resource": {"type": "cloud_run_revision", "labels": {"service_name": "payments-api"}}, "severity": "ERROR", "timestamp": "t2",
         "textPayload": "Error: provider timeout", "trace": "projects/p/traces/abc"},
        {"insertId": "c3", "resource": {"type": "k8s_container", "labels": {"container_name": "cart-api", "pod_name": "cart-api-1"}}, "severity": "INFO", "timestamp": "t1",
         "jsonPayload": {"message": "added"}},
        {"insertId": "d4", "resource": {"type": "gcs_bucket", "labels": {}}, "severity": "ERROR", "timestamp": "t0",
         "protoPayload": {"serviceName": "storage.googleapis.com", "methodName": "storage.objects.get", "status": {"code": 7}, "authenticationInfo": {"principalEmail": "a@b.c"}}},
        {"insertId": "e5", "resource": {"type": "cloud_run_revision", "labels": {"service_name": "image-resizer"}}, "severity": "INFO", "timestamp": "t0",
         "httpRequest": {"requestUrl": "https://x/img", "status": 200, "latency": "0.040s", "responseSize": "9000"}, "trace": "projects/p/traces/def"}
    ], "nextPageToken": "tok"});
    let e = list(&v, "entries");
    assert_eq!(gcp_logging::source(&e[3]), "storage.googleapis.com");
    assert_eq!(gcp_logging::message(&e[2]), "added");
    assert_eq!(gcp_logging::trace_id(&e[0]), "abc");
    let qs = json_questions("gcp_logging_entries", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["ERROR".into()], value: "3".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["PERMISSION_DENIED".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["5xx".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "a1".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "e5".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "payments-api".into(), max: true }), "{c:?}");
}

#[test]
fn quickbooks_invoices_are_overdue_only_when_owing_past_their_due_date() {
    let invoice = |doc: &str, customer: &str, total: f64, balance: f64, due: &str| {
        json!({"Id": format!("9{doc}"), "DocNumber": doc, "TxnDate": "2025-11-01", "DueDate": due, "TotalAmt": total, "Balance": balance,
        "CustomerRef": {"value": "1", "name": customer}, "EmailStatus": "EmailSent", "BillEmail": {"Address": "a@b.c"},
        "Line": [{"Amount": total, "DetailType": "SalesItemLineDetail", "SalesItemLineDetail": {"ItemRef": {"name": "Sod"}, "Qty": 2, "UnitPrice": total / 2.0}},
                 {"Amount": total, "DetailType": "SubTotalLineDetail", "SubTotalLineDetail": {}}]})
    };
    let v = json!({"QueryResponse": {"Invoice": [
        invoice("1004", "Patel Residence", 120.0, 120.0, "2026-01-15"),
        invoice("1003", "Riverside Church", 980.5, 400.0, "2025-12-01"),
        invoice("1002", "Patel Residence", 75.25, 75.25, "2025-11-20"),
        invoice("1001", "Riverside Church", 300.0, 0.0, "2025-11-10")
    ], "startPosition": 1, "maxResults": 4, "totalCount": 40}, "time": "2025-12-31T10:00:00.000-08:00"});
    assert_eq!(quickbooks::today(&v), "2025-12-31");
    assert_eq!(quickbooks::item_lines(&v["QueryResponse"]["Invoice"][0]).len(), 1);
    assert!(!quickbooks::unpaid(&v["QueryResponse"]["Invoice"][3]));
    let qs = json_questions("quickbooks_invoices_query", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["overdue".into()], value: "2".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["partly paid".into(), "partial".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "1003".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "1002".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Riverside Church".into(), max: true }), "{c:?}");
}

#[test]
fn mixpanel_segments_are_totalled_over_their_days() {
    let v = json!({"data": {"series": ["2025-12-01", "2025-12-02", "2025-12-03"], "values": {
        "DE": {"2025-12-01": 5, "2025-12-02": 0, "2025-12-03": 9},
        "US": {"2025-12-01": 40, "2025-12-02": 2, "2025-12-03": 30},
        "undefined": {"2025-12-01": 1, "2025-12-02": 0, "2025-12-03": 0}
    }}, "legend_size": 3});
    let segments = mixpanel::segments(&v);
    assert_eq!(segments[1].0, "US");
    assert_eq!(
        mixpanel::totals(&segments),
        vec![(14, "DE".to_owned()), (72, "US".to_owned()), (1, "undefined".to_owned())]
    );
    let qs = json_questions("mixpanel_segmentation", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["undefined".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "US".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "undefined".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "2025-12-02".into(), max: false }), "{c:?}");
    assert!(
        c.contains(&&Check::Extreme { id: "DE".into(), max: true })
            || c.contains(&&Check::Extreme { id: "US".into(), max: true })
    );
}

#[test]
fn otlp_spans_carry_their_service_and_typed_attributes() {
    let span = |id: &str, parent: &str, start: i64, end: i64, code: Option<i64>| {
        let mut s = json!({"traceId": "t1", "spanId": id, "name": format!("op {id}"), "kind": 2,
            "startTimeUnixNano": start.to_string(), "endTimeUnixNano": end.to_string(),
            "attributes": [{"key": "http.response.status_code", "value": {"intValue": "502"}}, {"key": "db.system.name", "value": {"stringValue": "redis"}}],
            "status": code.map_or(json!({}), |c| json!({"code": c}))});
        if !parent.is_empty() {
            s["parentSpanId"] = json!(parent);
        }
        s
    };
    let resource = |service: &str, spans: serde_json::Value| json!({"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]}, "scopeSpans": [{"scope": {"name": "s", "version": "1"}, "spans": spans}]});
    let v = json!({"resourceSpans": [
        resource("cart", json!([span("b", "a", 120, 150, Some(2)), span("c", "a", 160, 161, None)])),
        resource("frontend", json!([span("a", "", 100, 400, Some(2))]))
    ]});
    let all = otlp::spans(&v);
    assert_eq!(all.len(), 3);
    assert_eq!(all[2].service, "frontend");
    assert_eq!(otlp::attribute(list(all[0].span, "attributes"), "http.response.status_code"), "502");
    assert_eq!(otlp::nanos(all[2].span), Some(300));
    assert!(otlp::failed(all[0].span) && !otlp::failed(all[1].span));
    let qs = json_questions("otlp_traces_json", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["error".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["traces".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "a".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "c".into(), max: false }), "{c:?}");
}
