//! Tests of the mcp half's questions: its readers on small hand-made results, and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end). The part-wide
//! checks in `questions_thirtyfirst` cover both halves together.

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] =
    ["datadog_metrics_query", "posthog_trends_query", "supabase_list_tables", "sentry_issue_events"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::ThirtyFirst, &SEEDS);
}

#[test]
fn datadog_points_pair_float_timestamps_with_values_and_nulls() {
    let series = |host: &str, points: serde_json::Value| {
        let n = points.as_array().map_or(0, Vec::len);
        json!({"query_index": 0, "metric": "system.cpu.user", "tag_set": [format!("host:{host}")], "interval": 20,
               "length": n, "pointlist": points})
    };
    let v = json!({"query": "avg:system.cpu.user{env:prod} by {host}", "group_by": ["host"], "series": [
        series("a", json!([[1_767_225_000_000.0, 10.5], [1_767_225_020_000.0, 80.25], [1_767_225_040_000.0, 12.0]])),
        series("b", json!([[1_767_225_000_000.0, 30.0], [1_767_225_020_000.0, null], [1_767_225_040_000.0, 2.5]])),
        series("c", json!([[1_767_225_020_000.0, 40.0], [1_767_225_040_000.0, 41.0]]))
    ]});
    let s = list(&v, "series");
    assert_eq!(datadog::points(&s[1])[1], ("1767225020000.0".to_owned(), "null".to_owned(), None));
    assert_eq!(datadog::extreme_point(&s[0], true), Some(("1767225020000.0".to_owned(), "80.25".to_owned())));
    assert_eq!(datadog::group(&s[2]), "host:c");
    let qs = json_questions("datadog_metrics_query", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["null".into(), "nulls".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["hosts".into(), "host".into()], value: "3".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "host:a".into(), max: true }), "{c:?}");
    // Averages leave the null out: b's is 16.25, below a's 34.25 and c's 40.5.
    assert!(c.contains(&&Check::Extreme { id: "host:c".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "host:b".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "host:c".into(), max: false }), "{c:?}");
    // Summed over hosts, the second bucket (80.25 + 40) is the busiest.
    assert!(c.contains(&&Check::Extreme { id: "1767225020000.0".into(), max: true }), "{c:?}");
}

#[test]
fn posthog_days_pair_with_counts_and_the_buckets_are_told_apart() {
    let result = |event: &str, value: &str, label: &str, data: [u64; 3]| {
        json!({"data": data, "labels": ["29-Dec-2025", "30-Dec-2025", "31-Dec-2025"],
               "days": ["2025-12-29", "2025-12-30", "2025-12-31"], "count": data.iter().sum::<u64>() as f64,
               "label": label, "action": {"id": event, "math": "total"}, "breakdown_value": value})
    };
    let v = json!({"last_refresh": "2025-12-31T18:00:00.000000Z", "results": [
        result("$pageview", "Chrome", "$pageview - Chrome", [50, 70, 20]),
        result("$pageview", "$$_posthog_breakdown_null_$$", "$pageview - None (i.e. no value)", [5, 4, 1]),
        result("$pageview", "$$_posthog_breakdown_other_$$", "$pageview - Other (i.e. all remaining values)", [9, 8, 2]),
        result("signed_up", "Chrome", "signed_up - Chrome", [3, 1, 0])
    ], "timezone": "UTC", "timings": [{"k": ".", "t": 0.5}]});
    let r = list(&v, "results");
    assert_eq!(posthog::points(&r[0])[1], ("2025-12-30".to_owned(), "70".to_owned(), 70.0));
    assert!(posthog::is_bucket(&r[2]) && !posthog::is_bucket(&r[0]));
    let qs = json_questions("posthog_trends_query", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["breakdown values".into(), "values".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["signed_up".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "$pageview - Chrome".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "$pageview - None (i.e. no value)".into(), max: false }), "{c:?}");
    // 70 + 4 + 8 on the 30th; the partial last day is the quietest.
    assert!(c.contains(&&Check::Extreme { id: "2025-12-30".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "2025-12-31".into(), max: false }), "{c:?}");
}

#[test]
fn supabase_foreign_keys_are_counted_once_though_both_tables_list_them() {
    let fk = |name: &str, source: &str, target: &str| json!({"name": name, "source": source, "target": target});
    let col =
        |name: &str, options: &[&str]| json!({"name": name, "data_type": "uuid", "format": "uuid", "options": options});
    let v = json!([
        {"schema": "public", "name": "projects", "rls_enabled": true, "rows": 40, "columns": [col("id", &["updatable"])],
         "primary_keys": ["id"], "foreign_key_constraints": [fk("tasks_project_id_fkey", "public.tasks.project_id", "public.projects.id")]},
        {"schema": "public", "name": "tasks", "rls_enabled": false, "rows": 900,
         "columns": [col("id", &["updatable"]), col("project_id", &["updatable"]), col("parent_id", &["nullable", "updatable"])],
         "primary_keys": ["id"], "comment": "Work items.", "foreign_key_constraints": [
            fk("tasks_project_id_fkey", "public.tasks.project_id", "public.projects.id"),
            fk("tasks_parent_id_fkey", "public.tasks.parent_id", "public.tasks.id")]}
    ]);
    assert_eq!(supabase::references_to(list(&v, ""), "projects"), 1);
    assert_eq!(supabase::references_to(list(&v, ""), "tasks"), 1);
    let qs = json_questions("supabase_list_tables", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["foreign keys".into(), "references".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["without RLS".into(), "rls_enabled".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["nullable".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "tasks".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "projects".into(), max: false }), "{c:?}");
}

#[test]
fn sentry_tags_are_read_by_key_and_counted_per_release() {
    let event = |id: &str, release: &str, user: Option<&str>, env: &str| {
        let mut tags = vec![json!({"key": "environment", "value": env}), json!({"key": "release", "value": release})];
        if let Some(u) = user {
            tags.push(json!({"key": "user", "value": format!("id:{u}")}));
        }
        json!({"id": id, "eventID": id, "groupID": "42", "title": "TypeError: x", "tags": tags,
               "user": user.map(|u| json!({"id": u})), "dateCreated": "2025-12-31T10:00:00Z"})
    };
    let v = json!([
        event("e1", "web@2.0.0", Some("7"), "production"),
        event("e2", "web@2.0.0", Some("7"), "staging"),
        event("e3", "web@1.9.0", None, "production")
    ]);
    assert_eq!(sentry::tag(&list(&v, "")[1], "environment").as_deref(), Some("staging"));
    assert_eq!(sentry::tag(&list(&v, "")[2], "user"), None);
    let qs = json_questions("sentry_issue_events", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["web@2.0.0".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["staging".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["no user".into(), "anonymous".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["users".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "web@2.0.0".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "web@1.9.0".into(), max: false }), "{c:?}");
}
