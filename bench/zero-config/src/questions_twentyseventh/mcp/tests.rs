//! Tests of the mcp half's questions: its readers on small hand-made results, and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end). The part-wide
//! checks in `questions_twentyseventh` cover both halves together.

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] =
    ["datadog_logs_search", "shopify_products_graphql", "salesforce_soql_cases", "google_ads_search_stream"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentySeventh, &SEEDS);
}

#[test]
fn timestamps_of_every_form_are_read_to_the_second() {
    assert_eq!(seconds("2026-01-01T00:00:00.000+0000"), Some(1_767_225_600));
    assert_eq!(seconds("2025-12-31T23:59:59Z"), Some(1_767_225_599));
    assert_eq!(
        seconds("2024-03-01T00:00:00.250Z").zip(seconds("2024-02-28T00:00:00Z")).map(|(a, b)| a - b),
        Some(2 * 86_400)
    );
    assert_eq!(seconds("last tuesday"), None);
}

#[test]
fn datadog_errors_are_counted_by_service_and_requests_timed() {
    let event = |id: &str, service: &str, status: &str, own: serde_json::Value| json!({"id": id, "type": "log", "attributes": {"timestamp": "2025-12-31T23:59:00.000Z", "host": format!("node-{}", id.len() % 2), "service": service, "status": status, "message": "m", "tags": [format!("pod_name:{service}-abc")], "attributes": own}});
    let v = json!({"data": [
        event("a", "web-ingress", "error", json!({"http": {"url": "/x", "status_code": 502}, "duration": 9_000_000_000i64, "trace_id": "t1"})),
        event("bb", "payments-service", "error", json!({"trace_id": "t1", "error": {"kind": "CardException", "message": "declined"}})),
        event("ccc", "web-ingress", "info", json!({"http": {"url": "/y", "status_code": 200}, "duration": 40_000_000, "trace_id": "t2"})),
        event("dddd", "payments-service", "error", json!({"trace_id": "t3", "error": {"kind": "CardException", "message": "declined"}}))
    ], "meta": {"page": {"after": "cur"}, "request_id": "req"}, "links": {"next": "n"}});
    assert_eq!(datadog::requests(list(&v, "data")).len(), 2);
    assert_eq!(datadog::tag(&v["data"][1], "pod_name"), "payments-service-abc");
    let qs = json_questions("datadog_logs_search", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["payments-service".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["5xx".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "a".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "ccc".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "payments-service".into(), max: true }), "{c:?}");
}

#[test]
fn shopify_prices_are_read_from_their_strings_and_sales_from_compare_at_prices() {
    let product = |title: &str, status: &str, low: &str, high: &str, stock: i64, compare: Option<&str>| {
        json!({"node": {"id": format!("gid://shopify/Product/{}", title.len()), "title": title, "handle": title.to_lowercase(), "status": status, "vendor": "Northpeak", "productType": "Jackets", "tags": ["a"], "createdAt": format!("2025-0{}-01T00:00:00Z", title.len()), "totalInventory": stock,
        "priceRangeV2": {"minVariantPrice": {"amount": low, "currencyCode": "EUR"}, "maxVariantPrice": {"amount": high, "currencyCode": "EUR"}},
        "variants": {"edges": [{"node": {"sku": format!("SKU-{title}"), "price": low, "compareAtPrice": compare, "inventoryQuantity": stock}}]}}})
    };
    let v = json!({"data": {"products": {"edges": [
        product("Fjord", "ACTIVE", "129.0", "139.0", 0, None),
        product("Tarn", "DRAFT", "24.95", "24.95", 12, Some("31.95")),
        product("Yoho", "ACTIVE", "9.5", "1200.0", 40, None)
    ], "pageInfo": {"hasNextPage": true, "endCursor": "e"}}}, "extensions": {"cost": {"actualQueryCost": 8}}});
    assert!(shopify::on_sale(&v["data"]["products"]["edges"][1]["node"]));
    let qs = json_questions("shopify_products_graphql", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["ACTIVE".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["out of stock".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["on sale".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Yoho".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Yoho".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "SKU-Fjord".into(), max: false }), "{c:?}");
}

#[test]
fn salesforce_open_cases_and_queues_are_told_apart() {
    let case = |n: &str, status: &str, priority: &str, created: &str, closed: Option<&str>, owner_url: &str| {
        json!({"Id": format!("500{n}"), "CaseNumber": n, "Subject": "s", "Status": status, "Priority": priority, "Origin": "Web", "Type": "Problem",
        "CreatedDate": created, "ClosedDate": closed, "IsEscalated": status == "Escalated",
        "Account": {"Name": "Acme", "Industry": "Retail"}, "Owner": {"attributes": {"type": "Name", "url": owner_url}, "Name": format!("owner {}", owner_url.len())}, "Contact": null})
    };
    let v = json!({"totalSize": 9, "done": false, "nextRecordsUrl": "/q-4", "records": [
        case("00000004", "New", "High", "2025-12-30T10:00:00.000+0000", None, "/sobjects/Group/00G1"),
        case("00000003", "Escalated", "High", "2025-12-29T10:00:00.000+0000", None, "/sobjects/User/0051"),
        case("00000002", "Closed", "High", "2025-12-20T10:00:00.000+0000", Some("2025-12-28T10:00:00.000+0000"), "/sobjects/User/0051"),
        case("00000001", "Closed", "Low", "2025-12-10T10:00:00.000+0000", Some("2025-12-11T10:00:00.000+0000"), "/sobjects/User/00522")
    ]});
    assert!(salesforce::queued(&v["records"][0]) && !salesforce::queued(&v["records"][1]));
    let qs = json_questions("salesforce_soql_cases", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(
        c.contains(&&Check::Count { labels: vec!["High".into(), "high-priority".into()], value: "2".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Count { labels: vec!["queue".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "00000003".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "00000002".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "00000001".into(), max: false }), "{c:?}");
}

#[test]
fn google_ads_rows_are_summed_across_batches() {
    let row = |campaign: &str, group: &str, date: &str, clicks: &str, cost: &str, conversions: f64| {
        json!({"campaign": {"id": format!("{}", campaign.len()), "name": campaign, "status": "ENABLED", "advertisingChannelType": "SEARCH"},
        "adGroup": {"id": format!("9{}", group.len()), "name": group, "status": "ENABLED"},
        "metrics": {"impressions": "100", "clicks": clicks, "costMicros": cost, "conversions": conversions}, "segments": {"date": date}})
    };
    let v = json!([
        {"results": [row("Brand", "Core", "2025-12-01", "10", "5000000", 1.0), row("Generic", "Boots", "2025-12-01", "30", "9000000", 0.0)], "requestId": "r"},
        {"results": [row("Brand", "Core", "2025-12-02", "25", "7000000", 2.5), row("Generic", "Boots", "2025-12-02", "0", "0", 0.0)], "requestId": "r"}
    ]);
    let rows = google_ads::rows(&v);
    assert_eq!(rows.len(), 4);
    assert_eq!(google_ads::totals(&rows, "adGroup.name", "metrics.conversions")[1], (3.5, "Core".to_owned()));
    let qs = json_questions("google_ads_search_stream", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "Core".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Generic".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "2025-12-01".into(), max: true }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["no conversions".into(), "0 conversions".into()], value: "2".into() }),
        "{c:?}"
    );
}
