//! Tests of the mcp half's questions: its readers on small hand-made results, and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end). The part-wide
//! checks in `questions_twentysixth` cover both halves together.

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] = ["launchdarkly_flags", "circleci_pipelines", "pinecone_query", "stripe_subscriptions"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentySixth, &SEEDS);
}

#[test]
fn launchdarkly_flags_are_counted_by_environment_and_variations_are_named() {
    let flag = |key: &str, prod: bool, staging: bool, modified: i64, targets: Vec<&str>| {
        json!({"key": key, "name": key, "kind": "boolean", "temporary": key.len() > 2, "creationDate": modified - 10, "tags": ["web"],
        "_maintainer": {"email": "a@x"},
        "variations": [{"value": true, "name": "Serve new"}, {"value": false}],
        "environments": {
            "production": {"on": prod, "lastModified": modified, "version": modified % 7, "targets": [], "rules": [], "fallthrough": {"variation": 1}, "offVariation": 1},
            "staging": {"on": staging, "lastModified": 1, "version": 1, "targets": [{"values": targets, "variation": 0}], "rules": [], "fallthrough": {"variation": 0}, "offVariation": 1}
        }})
    };
    let v = json!({"items": [flag("a", true, true, 50, vec!["u1"]), flag("bbb", false, true, 90, vec!["u2", "u3"]), flag("cc", false, false, 20, vec![])], "totalCount": 3});
    let f = &v["items"][0];
    assert_eq!(launchdarkly::on_in(f), vec!["production".to_owned(), "staging".to_owned()]);
    assert_eq!(launchdarkly::variation(f, &json!(0)).as_deref(), Some("Serve new"));
    assert_eq!(launchdarkly::variation(f, &json!(1)).as_deref(), Some("false"));
    assert_eq!(launchdarkly::targeted_anywhere(&v["items"][1]), 2);
    let qs = json_questions("launchdarkly_flags", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["production".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["staging".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "bbb".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cc".into(), max: false }), "{c:?}");
}

#[test]
fn circleci_times_are_read_to_the_millisecond_and_failed_jobs_found_in_their_workflow() {
    let t = circleci::millis;
    assert_eq!(t("2025-12-31T10:00:01.250Z").zip(t("2025-12-31T10:00:00.000Z")).map(|(a, b)| a - b), Some(1_250));
    assert_eq!(t("2025-03-01T00:00:00.000Z").zip(t("2025-02-28T00:00:00.000Z")).map(|(a, b)| a - b), Some(86_400_000));
    assert_eq!(
        t("2024-03-01T00:00:00.000Z").zip(t("2024-02-28T00:00:00.000Z")).map(|(a, b)| a - b),
        Some(2 * 86_400_000)
    );
    assert_eq!(t("yesterday"), None);
    let job = |n: i64, name: &str, status: &str, d: i64| json!({"job_number": n, "name": name, "status": status, "duration": d});
    let v = json!({"items": [
        {"number": 12, "trigger": {"type": "webhook", "actor": {"login": "ana"}}, "vcs": {"branch": "main"}, "workflows": [
            {"id": "w1", "name": "build", "status": "failed", "created_at": "2025-12-31T10:00:00.000Z", "stopped_at": "2025-12-31T10:09:00.000Z",
             "jobs": [job(100, "lint", "success", 40), job(101, "unit-tests", "failed", 300)]}]},
        {"number": 11, "trigger": {"type": "scheduled_pipeline", "actor": {"login": "ana"}}, "vcs": {"branch": "main"}, "workflows": [
            {"id": "w2", "name": "nightly", "status": "success", "created_at": "2025-12-31T02:00:00.000Z", "stopped_at": "2025-12-31T02:30:00.000Z",
             "jobs": [job(98, "e2e", "success", 1700)]}]},
        {"number": 9, "trigger": {"type": "webhook", "actor": {"login": "bo"}}, "vcs": {"branch": "feat/x"}, "workflows": []}
    ], "next_page_token": "tok"});
    assert_eq!(circleci::workflows(list(&v, "items")).len(), 2);
    assert_eq!(circleci::jobs(list(&v, "items")).len(), 3);
    let qs = json_questions("circleci_pipelines", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["12".into(), "build".into(), "unit-tests".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["failed".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["main".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "98".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "w2".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "ana".into(), max: true }), "{c:?}");
}

#[test]
fn pinecone_matches_are_grouped_by_document() {
    let m = |id: &str, doc: &str, score: f64, tokens: i64| json!({"id": id, "score": score, "metadata": {"doc_id": doc, "source": format!("https://docs.acmecloud.io/{doc}"), "lang": if doc == "d" { "de" } else { "en" }, "tokens": tokens}});
    let v = json!({"matches": [m("a#0", "a", 0.91, 40), m("b#1", "b", 0.85, 90), m("a#3", "a", 0.7, 12), m("d#0", "d", 0.6, 33)], "namespace": "kb", "usage": {"readUnits": 5}});
    assert_eq!(pinecone::documents_by_matches(list(&v, "matches"))[0], (2, "a".to_owned()));
    let qs = json_questions("pinecone_query", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["docs.acmecloud.io".into()], value: "4".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["0.8".into()], value: "2".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["not in English".into(), "non-English".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "a".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "b#1".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "a#3".into(), max: false }), "{c:?}");
}

#[test]
fn stripe_monthly_amounts_spread_yearly_prices_over_twelve_months() {
    let item = |amount: i64, interval: &str, quantity: i64| json!({"price": {"nickname": format!("P {interval}"), "unit_amount": amount, "recurring": {"interval": interval}}, "quantity": quantity});
    let sub = |id: &str, status: &str, items: Vec<Value>| json!({"id": id, "status": status, "currency": "usd", "items": {"data": items}, "current_period_end": id.len()});
    let v = json!({"data": [
        sub("sub_a", "active", vec![item(1_900, "month", 10)]),
        sub("sub_bb", "past_due", vec![item(120_000, "year", 3), item(1_000, "month", 1)]),
        sub("sub_ccc", "active", vec![item(900, "month", 2)])
    ]});
    assert_eq!(stripe::monthly_amount(&v["data"][1]), 31_000.0);
    let qs = json_questions("stripe_subscriptions", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["past_due".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["active".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "sub_bb".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "sub_ccc".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "sub_a".into(), max: false }), "{c:?}");
}
