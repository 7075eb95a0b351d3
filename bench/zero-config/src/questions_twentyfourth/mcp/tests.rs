//! Tests of the mcp half's questions: its readers on small hand-made results, and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end). The part-wide
//! checks in `questions_twentyfourth` cover both halves together.

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] =
    ["jaeger_trace", "elasticsearch_aggs", "github_graphql_project_items", "search_console_query"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentyFourth, &SEEDS);
}

#[test]
fn jaeger_spans_are_counted_by_the_service_of_their_process() {
    let tag = |k: &str, v: Value| json!({"key": k, "type": "string", "value": v});
    let span = |id: &str, op: &str, pid: &str, duration: i64, tags: Vec<Value>| json!({"traceID": "t1", "spanID": id, "operationName": op, "references": [], "startTime": 1, "duration": duration, "tags": tags, "logs": [], "processID": pid, "warnings": null});
    let v = json!({"data": [{"traceID": "t1", "spans": [
        span("a1", "POST /api/checkout", "p1", 900, vec![tag("http.status_code", json!(200))]),
        span("b2", "SELECT shop.stock", "p2", 40, vec![tag("db.system", json!("postgresql")), tag("db.statement", json!("SELECT 1"))]),
        span("c3", "SELECT shop.prices", "p3", 70, vec![tag("db.system", json!("postgresql")), tag("error", json!(true))]),
        span("d4", "GET", "p3", 5, vec![tag("db.system", json!("redis"))])
    ], "processes": {
        "p1": {"serviceName": "storefront-web", "tags": []},
        "p2": {"serviceName": "inventory-service", "tags": []},
        "p3": {"serviceName": "inventory-service", "tags": [tag("host.name", json!("inv-1"))]}
    }, "warnings": null}]});
    let qs = json_questions("jaeger_trace", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["inventory-service".into()], value: "3".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["error".into(), "errors".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Extreme { id: "c3".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "inventory-service".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["p3".into(), "inventory-service".into(), "inv-1".into()])), "{c:?}");
}

#[test]
fn elasticsearch_buckets_sum_their_server_errors_over_the_hours() {
    let hour = |at: &str, n: i64, codes: Value| json!({"key_as_string": at, "key": 0, "doc_count": n, "status_codes": {"buckets": codes}});
    let bucket = |key: &str, n: i64, max: f64, hours: Vec<Value>| {
        json!({"key": key, "doc_count": n, "latency_percentiles": {"values": {"50.0": 1.0, "95.0": max / 2.0, "99.0": max / 1.5}},
            "latency_stats": {"count": n, "min": 1.0, "max": max, "avg": 2.0, "sum": 2.0}, "requests_over_time": {"buckets": hours}})
    };
    let v = json!({"took": 5, "aggregations": {"services": {"sum_other_doc_count": 3, "buckets": [
        bucket("cart-api", 30, 90.0, vec![hour("T0", 10, json!([{"key": 200, "doc_count": 10}])), hour("T1", 20, json!([{"key": 200, "doc_count": 18}, {"key": 503, "doc_count": 2}]))]),
        bucket("geo-ip", 12, 400.0, vec![hour("T0", 7, json!([{"key": 200, "doc_count": 7}])), hour("T1", 5, json!([{"key": 200, "doc_count": 5}]))])
    ]}}});
    let qs = json_questions("elasticsearch_aggs", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["5xx".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "geo-ip".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cart-api".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "T1".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "T0".into(), max: false }), "{c:?}");
}

#[test]
fn project_items_are_read_by_field_name() {
    let item = |title: &str, n: i64, status: &str, estimate: f64, who: &str| {
        json!({"id": format!("PVTI_{n}"), "type": "ISSUE", "content": {"__typename": "Issue", "number": n, "title": title, "repository": {"nameWithOwner": "o/r"}, "assignees": {"nodes": [{"login": who}]}, "labels": {"nodes": []}},
            "fieldValues": {"nodes": [{"__typename": "ProjectV2ItemFieldTextValue", "text": title, "field": {"name": "Title"}}, {"__typename": "ProjectV2ItemFieldUserValue"},
                {"__typename": "ProjectV2ItemFieldSingleSelectValue", "name": status, "field": {"name": "Status"}}, {"__typename": "ProjectV2ItemFieldNumberValue", "number": estimate, "field": {"name": "Estimate"}}]}})
    };
    let v = json!({"data": {"organization": {"projectV2": {"title": "B", "items": {"totalCount": 3, "nodes": [
        item("Fix login", 7, "Done", 3.0, "ana"), item("Add search", 8, "In Progress", 8.0, "ana"), item("Tidy CSS", 9, "Done", 1.0, "bo")
    ]}}}}});
    let all = github_project::items(&v);
    assert_eq!(all[1].fields.get("Status").map(String::as_str), Some("In Progress"));
    assert_eq!(all[1].fields.get("Estimate").map(String::as_str), Some("8.0"));
    let qs = json_questions("github_graphql_project_items", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["Done".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Add search".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "ana".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["8".into(), "o/r".into(), "8.0".into()])), "{c:?}");
}

#[test]
fn search_console_rows_total_their_clicks_by_search() {
    let row = |q: &str, page: &str, country: &str, device: &str, clicks: i64, impressions: i64| json!({"keys": [q, page, country, device], "clicks": clicks, "impressions": impressions, "ctr": clicks as f64 / impressions as f64, "position": 2.5});
    let v = json!({"rows": [
        row("tents", "/c/tents", "usa", "MOBILE", 9, 100),
        row("boots", "/c/boots", "usa", "DESKTOP", 6, 300),
        row("boots", "/c/boots", "gbr", "MOBILE", 5, 50),
        row("tents", "/c/tents", "gbr", "TABLET", 0, 10)
    ], "responseAggregationType": "byPage"});
    let qs = json_questions("search_console_query", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "boots".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["usa".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["TABLET".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["byPage".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["tents".into(), "/c/tents".into(), "9".into()])), "{c:?}");
}
