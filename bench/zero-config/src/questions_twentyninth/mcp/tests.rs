//! Tests of the mcp half's questions: its readers on small hand-made results, and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end). The part-wide
//! checks in `questions_twentyninth` cover both halves together.

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] =
    ["github_list_commits", "servicenow_incidents", "stackexchange_search", "virustotal_file_report"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentyNinth, &SEEDS);
}

#[test]
fn commit_titles_name_their_pull_requests_and_times_read_back() {
    let commit = |sha: &str, message: &str, parents: usize, authored: &str, committed: &str, verified: bool| {
        json!({"sha": sha, "commit": {"author": {"name": "Ann", "date": authored}, "committer": {"name": "GitHub", "date": committed},
               "message": message, "verification": {"verified": verified, "reason": if verified { "valid" } else { "unsigned" }}},
               "author": {"login": "ann", "type": "User"}, "committer": {"login": "web-flow"},
               "parents": (0..parents).map(|i| json!({"sha": format!("p{i}")})).collect::<Vec<_>>()})
    };
    let v = json!([
        commit(
            "aaaaaaa1",
            "Merge pull request #812 from ann/fix-io\n\nFix io",
            2,
            "2025-12-31T10:00:00Z",
            "2025-12-31T10:00:00Z",
            true
        ),
        commit(
            "bbbbbbb2",
            "fix: handle EOF (#811)\n\nCo-authored-by: Bo <1+bo@users.noreply.github.com>",
            1,
            "2025-12-20T10:00:00Z",
            "2025-12-30T10:00:00Z",
            true
        ),
        commit(
            "ccccccc3",
            "docs: typo\n\nSigned-off-by: Ann <a@b.c>",
            1,
            "2025-12-29T09:00:00Z",
            "2025-12-29T10:00:00Z",
            false
        )
    ]);
    let c = list(&v, "");
    assert!(github_commits::is_merge(&c[0]) && !github_commits::is_merge(&c[1]));
    assert_eq!(github_commits::pull_request(&c[0]), "#812");
    assert_eq!(github_commits::pull_request(&c[1]), "#811");
    assert_eq!(github_commits::pull_request(&c[2]), "");
    assert_eq!(github_commits::merged_branch(&c[0]), "ann/fix-io");
    assert_eq!(github_commits::title(&c[1]), "fix: handle EOF (#811)");
    assert_eq!(github_commits::seconds("2026-01-01T00:00:00Z"), Some(1_767_225_600));
    let qs = json_questions("github_list_commits", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["merge".into()], value: "1".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["unverified".into(), "not verified".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "bbbbbbb2".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "bbbbbbb2".into(), max: true }), "{c:?}");
}

#[test]
fn servicenow_fields_are_read_with_or_without_display_values() {
    let all = json!({"state": {"display_value": "On Hold", "value": "3"}, "assigned_to": {"display_value": "", "value": ""},
                     "caller_id": {"display_value": "Abel Tuter", "link": "https://x/api/now/table/sys_user/1", "value": "1"}});
    assert_eq!(servicenow::shown(&all, "state"), "On Hold");
    assert_eq!(servicenow::stored(&all, "state"), "3");
    assert_eq!(servicenow::shown(&all, "caller_id"), "Abel Tuter");
    assert_eq!(servicenow::shown(&all, "assigned_to"), "");
    let bare = json!({"state": "3", "assigned_to": "", "caller_id": {"link": "https://x", "value": "1"}});
    assert_eq!(servicenow::shown(&bare, "caller_id"), "1");
    assert_eq!(servicenow::stored(&bare, "state"), "3");
    assert_eq!(servicenow::seconds("2026-01-01 00:00:00"), Some(1_767_225_600));
    let incident = |n: &str, state: &str, prio: &str, reassigned: &str, opened: &str, resolved: &str| {
        json!({"number": n, "state": state, "priority": prio, "active": (state < "6").to_string(), "reassignment_count": reassigned,
               "opened_at": opened, "resolved_at": resolved, "assigned_to": "", "made_sla": "true", "sys_mod_count": reassigned,
               "short_description": format!("problem {n}")})
    };
    let v = json!({"result": [
        incident("INC0000003", "2", "1", "4", "2025-12-30 10:00:00", ""),
        incident("INC0000002", "6", "3", "0", "2025-12-20 10:00:00", "2025-12-29 10:00:00"),
        incident("INC0000001", "7", "1", "3", "2025-12-10 10:00:00", "2025-12-10 11:00:00")
    ]});
    let qs = json_questions("servicenow_incidents", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["P1".into(), "Critical".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["reassigned".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "INC0000003".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "INC0000002".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "INC0000001".into(), max: false }), "{c:?}");
}

#[test]
fn stack_overflow_questions_are_counted_by_their_other_tags() {
    let question = |id: i64, tags: &[&str], score: i64, views: i64, answers: i64, accepted: bool| {
        let mut q = json!({"tags": tags, "owner": {"display_name": "x", "reputation": id}, "is_answered": answers > 0, "view_count": views,
                           "answer_count": answers, "score": score, "creation_date": 1_600_000_000 + id, "question_id": id, "title": format!("t{id}")});
        if accepted {
            q["accepted_answer_id"] = json!(id + 1);
        }
        q
    };
    let v = json!({"items": [
        question(11, &["python", "pandas"], 5, 900, 2, true),
        question(12, &["pandas", "numpy", "python"], -1, 40, 0, false),
        question(13, &["numpy", "pandas"], 2, 100, 1, false)
    ], "has_more": true, "quota_max": 10000, "quota_remaining": 9876});
    let items = list(&v, "items");
    assert_eq!(stackexchange::searched_tag(items), "pandas");
    assert_eq!(stackexchange::other_tags(&items[1], "pandas"), vec!["numpy", "python"]);
    let qs = json_questions("stackexchange_search", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["numpy".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["accepted".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "11".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "12".into(), max: false }), "{c:?}");
}

#[test]
fn virustotal_engines_keep_their_order_and_verdicts() {
    let v = json!({"data": {"id": "abc", "attributes": {
        "last_analysis_results": {
            "Zeta": {"engine_name": "Zeta", "category": "malicious", "result": "Trojan.X"},
            "Alpha": {"engine_name": "Alpha", "category": "undetected", "result": null},
            "Mid": {"engine_name": "Mid", "category": "malicious", "result": "Trojan.X"}
        },
        "pe_info": {"sections": [{"name": ".text", "entropy": 6.5, "raw_size": 900}, {"name": ".vmp0", "entropy": 7.9, "raw_size": 100}],
                    "import_list": [{"library_name": "KERNEL32.dll", "imported_functions": ["A", "B", "C"]},
                                    {"library_name": "USER32.dll", "imported_functions": ["D"]}]}
    }}});
    let a = &v["data"]["attributes"];
    let engines = virustotal::entries(a, "last_analysis_results");
    assert_eq!(engines.iter().map(|e| field(e, "engine_name")).collect::<Vec<_>>(), ["Zeta", "Alpha", "Mid"]);
    assert_eq!(virustotal::verdict(engines[0]), ["malicious", "Trojan.X"]);
    assert_eq!(virustotal::verdict(engines[1]), ["undetected"]);
    let qs = json_questions("virustotal_file_report", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["malicious".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Trojan.X".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: ".vmp0".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: ".text".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "KERNEL32.dll".into(), max: true }), "{c:?}");
}
