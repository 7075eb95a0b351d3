//! Tests of the mcp half's questions: its readers on small hand-made results, and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end). The part-wide
//! checks in `questions_thirtieth` cover both halves together.

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] =
    ["slack_users_list", "cloudwatch_get_metric_data", "huggingface_models_search", "github_list_releases"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::Thirtieth, &SEEDS);
}

#[test]
fn slack_members_are_counted_by_role_and_time_zone() {
    let member = |id: &str, name: &str, tz: Option<&str>, flags: &[&str], updated: i64| {
        let mut m = json!({"id": id, "name": name, "deleted": flags.contains(&"deleted"),
                           "profile": {"real_name": format!("Person {name}"), "title": "Engineer", "email": format!("{name}@example.com")},
                           "is_bot": flags.contains(&"bot"), "updated": updated});
        if let Some(tz) = tz {
            m["tz"] = json!(tz);
            m["tz_offset"] = json!(if tz == "Asia/Tokyo" { 32_400 } else { 3_600 });
            for f in ["is_admin", "is_owner", "is_restricted", "is_ultra_restricted"] {
                m[f] = json!(flags.contains(&f));
            }
        }
        m
    };
    let v = json!({"ok": true, "members": [
        member("USLACKBOT", "slackbot", Some("Europe/Berlin"), &[], 0),
        member("U01", "ana", Some("Europe/Berlin"), &["is_admin", "is_owner"], 1_700_000_000),
        member("U02", "ben", None, &["deleted"], 1_600_000_000),
        member("U03", "cleo", Some("Asia/Tokyo"), &["is_restricted"], 1_767_000_000),
        member("U04", "deploy_bot", Some("Europe/Berlin"), &["bot"], 1_650_000_000)
    ], "cache_ts": 1_767_225_000, "response_metadata": {"next_cursor": "dXNlcjpVMDU="}});
    assert!(!slack_users::is_person(&list(&v, "members")[0]));
    assert_eq!(slack_users::full_name(&list(&v, "members")[2]), "Person ben");
    let qs = json_questions("slack_users_list", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["admin".into(), "is_admin".into()], value: "1".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["deactivated".into(), "deleted".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Count { labels: vec!["bot".into(), "is_bot".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Europe/Berlin".into()], value: "3".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Europe/Berlin".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Asia/Tokyo".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cleo".into(), max: true }), "{c:?}");
    // Slackbot, bots and deactivated people are not asked about as stale profiles.
    assert!(c.contains(&&Check::Extreme { id: "ana".into(), max: false }), "{c:?}");
}

#[test]
fn cloudwatch_points_pair_timestamps_with_values() {
    let series = |id: &str, label: &str, stamps: &[&str], values: &[f64], status: &str| json!({"Id": id, "Label": label, "Timestamps": stamps, "Values": values, "StatusCode": status});
    let t = ["2025-12-31T23:55:00+00:00", "2025-12-31T23:50:00+00:00", "2025-12-31T23:45:00+00:00"];
    let v = json!({"MetricDataResults": [
        series("cpu_web1", "web-1 CPUUtilization", &t, &[12.5, 97.25, 30.0], "Complete"),
        series("cpu_web2", "web-2 CPUUtilization", &t, &[40.0, 41.0, 8.0], "Complete"),
        series("err5xx_alb", "alb HTTPCode_Target_5XX_Count", &t[..2], &[3.0, 3.0], "PartialData")
    ], "Messages": []});
    let s = list(&v, "MetricDataResults");
    assert_eq!(cloudwatch::points(&s[0])[1], (t[1].to_owned(), "97.25".to_owned(), 97.25));
    assert_eq!(cloudwatch::extreme_point(&s[0], true), Some((t[1].to_owned(), "97.25".to_owned())));
    assert_eq!(cloudwatch::extreme_point(&s[1], false), Some((t[2].to_owned(), "8.0".to_owned())));
    // Two points share the peak: no single answer.
    assert_eq!(cloudwatch::extreme_point(&s[2], true), None);
    let qs = json_questions("cloudwatch_get_metric_data", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["PartialData".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "web-1 CPUUtilization".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "web-2 CPUUtilization".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "alb HTTPCode_Target_5XX_Count".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["web-1 CPUUtilization".into(), t[0].into(), "12.5".into()])), "{c:?}");
}

#[test]
fn hugging_face_models_are_counted_by_gating_task_and_library() {
    let model = |id: &str,
                 downloads: u64,
                 likes: u64,
                 gated: serde_json::Value,
                 task: &str,
                 created: &str,
                 files: usize| {
        json!({"id": id, "downloads": downloads, "likes": likes, "gated": gated, "pipeline_tag": task, "library_name": "transformers",
               "trendingScore": likes % 7, "createdAt": created, "lastModified": created,
               "siblings": (0..files).map(|k| json!({"rfilename": format!("f{k}")})).collect::<Vec<_>>()})
    };
    let v = json!([
        model("org/a", 900, 10, json!(false), "fill-mask", "2022-03-02T23:29:04.000Z", 12),
        model("org/b", 500, 40, json!("manual"), "text-classification", "2024-05-01T10:00:00.000Z", 3),
        model("user/c", 20, 1, json!("auto"), "fill-mask", "2025-11-30T08:00:00.000Z", 5)
    ]);
    assert!(huggingface::is_gated(&list(&v, "")[2]) && !huggingface::is_gated(&list(&v, "")[0]));
    let qs = json_questions("huggingface_models_search", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["gated".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["manual".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["fill-mask".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "org/b".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "org/a".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "user/c".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "user/c".into(), max: true }), "{c:?}");
}

#[test]
fn release_downloads_add_up_over_their_assets() {
    let asset = |name: &str, downloads: u64, size: u64| json!({"name": name, "download_count": downloads, "size": size, "digest": null});
    let release = |tag: &str, pre: bool, author: &str, assets: Vec<serde_json::Value>| json!({"tag_name": tag, "prerelease": pre, "author": {"login": author}, "published_at": "2025-12-01T10:00:00Z", "assets": assets});
    let v = json!([
        release(
            "v2.0.0",
            false,
            "ann",
            vec![asset("t-v2.0.0-linux.tar.gz", 50, 9_000), asset("t-v2.0.0-mac.tar.gz", 30, 8_000)]
        ),
        release("v2.0.0-rc.1", true, "ann", vec![asset("t-v2.0.0-rc.1-linux.tar.gz", 5, 8_900)]),
        release(
            "v1.9.0",
            false,
            "bo",
            vec![asset("t-v1.9.0-linux.tar.gz", 70, 7_000), asset("t-v1.9.0-mac.tar.gz", 40, 6_000)]
        )
    ]);
    assert_eq!(github_releases::release_downloads(&list(&v, "")[0]), 80);
    let qs = json_questions("github_list_releases", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["prerelease".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["assets".into()], value: "5".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["ann".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "v1.9.0".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "v2.0.0".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "t-v1.9.0-linux.tar.gz".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "t-v2.0.0-linux.tar.gz".into(), max: true }), "{c:?}");
}
