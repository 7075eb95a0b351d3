//! Tests of the mcp half's questions: its readers on small hand-made results, and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end). The part-wide
//! checks in `questions_twentysecond` cover both halves together.

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::network::requests;
use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] =
    ["chrome_devtools_network_requests", "github_search_code", "aws_cost_and_usage", "lighthouse_report"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentySecond, &SEEDS);
}

#[test]
fn network_lines_are_read_into_their_parts() {
    let t = "# list_network_requests response\n## Network requests\nShowing 1-3 of 3 (Page 1 of 1).\n\
             reqid=1 GET https://shop.example/a?x=1 [failed - 301]\n\
             reqid=2 POST https://www.shop.example/api [success - 204]\n\
             reqid=3 GET https://cdn.other.example/x.js [failed - net::ERR_ABORTED]\n";
    let list = requests(t);
    assert_eq!(list.len(), 3);
    assert_eq!(
        (list[0].id, list[0].method, list[0].url, list[0].status),
        (1, "GET", "https://shop.example/a?x=1", "[failed - 301]")
    );
    assert_eq!(list[1].host(), "www.shop.example");
    assert_eq!(list[2].status, "[failed - net::ERR_ABORTED]");
    let qs = text_questions("chrome_devtools_network_requests", t).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["failed".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count {
        labels: vec!["redirect".into(), "redirects".into(), "3xx".into()],
        value: "1".into()
    }));
    assert!(
        c.contains(&&Check::Together(vec!["https://www.shop.example/api".into(), "[success - 204]".into()])),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Together(vec!["https://cdn.other.example/x.js".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Showing 1-3 of 3".into()])), "{c:?}");
}

#[test]
fn cost_groups_are_summed_by_service_account_and_day() {
    let group = |service: &str, account: &str, amount: &str| json!({"Keys": [service, account], "Metrics": {"UnblendedCost": {"Amount": amount, "Unit": "USD"}, "UsageQuantity": {"Amount": "12.5", "Unit": "N/A"}}});
    let v = json!({
        "GroupDefinitions": [{"Type": "DIMENSION", "Key": "SERVICE"}, {"Type": "DIMENSION", "Key": "LINKED_ACCOUNT"}],
        "ResultsByTime": [
            {"TimePeriod": {"Start": "2025-12-01", "End": "2025-12-02"}, "Total": {}, "Groups": [group("EC2", "111", "10.5"), group("S3", "222", "4.25")], "Estimated": true},
            {"TimePeriod": {"Start": "2025-12-02", "End": "2025-12-03"}, "Total": {}, "Groups": [group("EC2", "111", "3.125"), group("S3", "111", "9.75"), group("Tax", "222", "0")], "Estimated": false}
        ],
        "DimensionValueAttributes": [{"Value": "111", "Attributes": {"description": "prod"}}, {"Value": "222", "Attributes": {"description": "data"}}]
    });
    let qs = json_questions("aws_cost_and_usage", &v).unwrap_or_default();
    let c = checks(&qs);
    // S3 costs 14.00 in all, EC2 13.625; the first day costs 14.75, the second 12.875.
    assert!(c.contains(&&Check::Extreme { id: "S3".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "2025-12-01".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "2025-12-02".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "111".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Estimated".into(), "estimated".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Together(vec!["222".into(), "data".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["EC2".into(), "10.5".into()])), "{c:?}");
}
