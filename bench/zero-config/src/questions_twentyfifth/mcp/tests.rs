//! Tests of the mcp half's questions: its readers on small hand-made results, and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end). The part-wide
//! checks in `questions_twentyfifth` cover both halves together.

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::*;
use crate::half_checks::check_half;
use crate::question::Check;
use crate::questions::tests::checks;

/// This half's shapes.
const SHAPES: [&str; 4] = ["prometheus_rules", "github_git_tree", "sonarqube_issues", "aws_iam_authorization_details"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentyFifth, &SEEDS);
}

#[test]
fn prometheus_rules_are_counted_by_state_and_health_across_groups() {
    let alert = |at: &str| json!({"labels": {"alertname": "X"}, "state": "firing", "activeAt": at, "value": "1e+00"});
    let rule = |name: &str, state: &str, health: &str, time: f64, alerts: Vec<Value>| json!({"state": state, "name": name, "query": "up == 0", "duration": 300, "labels": {"severity": "critical"}, "alerts": alerts, "health": health, "evaluationTime": time, "lastEvaluation": "T", "type": "alerting"});
    let v = json!({"status": "success", "data": {"groups": [
        {"name": "a.rules", "file": "/a.yaml", "rules": [
            rule("ApiDown", "firing", "ok", 0.002, vec![alert("2025-12-30T01:00:00Z"), alert("2025-12-31T01:00:00Z")]),
            {"name": "job:up:sum", "query": "sum(up)", "health": "err", "lastError": "boom", "evaluationTime": 0.5, "lastEvaluation": "T", "type": "recording"}
        ], "interval": 30, "evaluationTime": 0.6, "lastEvaluation": "T"},
        {"name": "b.rules", "file": "/b.yaml", "rules": [
            rule("DiskFull", "pending", "ok", 0.004, vec![]),
            rule("CpuHot", "firing", "ok", 0.001, vec![alert("2025-12-29T01:00:00Z")])
        ], "interval": 60, "evaluationTime": 0.01, "lastEvaluation": "T"}
    ]}});
    let qs = json_questions("prometheus_rules", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["firing".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["err".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["alerts".into()], value: "3".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "a.rules".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "ApiDown".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "CpuHot".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["b.rules".into(), "/b.yaml".into()])), "{c:?}");
}

#[test]
fn git_tree_counts_go_files_under_each_service_and_finds_the_largest_blob() {
    let blob = |path: &str, size: i64| json!({"path": path, "mode": "100644", "type": "blob", "sha": format!("s{size}"), "size": size, "url": "u"});
    let tree =
        |path: &str| json!({"path": path, "mode": "040000", "type": "tree", "sha": format!("t-{path}"), "url": "u"});
    let v = json!({"sha": "root", "url": "u", "tree": [
        blob("README.md", 10), tree("services"), tree("services/a"), blob("services/a/main.go", 300), blob("services/a/x_test.go", 90),
        tree("services/b"), blob("services/b/main.go", 120), blob("services/b/go.sum", 9000)
    ], "truncated": false});
    let qs = json_questions("github_git_tree", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["services/a".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["services/b".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec![".go".into()], value: "3".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "services/b/go.sum".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "services/a/x_test.go".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "services".into(), max: true }), "{c:?}");
}

#[test]
fn sonarqube_efforts_are_read_back_in_minutes() {
    assert_eq!(sonarqube::effort_minutes("1d2h30min"), Some(480 + 150));
    assert_eq!(sonarqube::effort_minutes("45min"), Some(45));
    assert_eq!(sonarqube::effort_minutes("2h"), Some(120));
    assert_eq!(sonarqube::effort_minutes("2x"), None);
    let issue = |key: &str, sev: &str, kind: &str, file: &str, effort: &str| json!({"key": key, "rule": "java:S1", "severity": sev, "component": file, "line": 3, "message": "m", "effort": effort, "author": "a@x", "status": "OPEN", "type": kind, "scope": "MAIN", "creationDate": format!("2025-01-0{}T00:00:00+0000", key.len())});
    let v = json!({"total": 3, "effortTotal": 70, "issues": [
        issue("k1", "BLOCKER", "BUG", "p:F.java", "1h"), issue("k22", "BLOCKER", "CODE_SMELL", "p:F.java", "5min"), issue("k333", "MAJOR", "BUG", "p:G.java", "5min")
    ], "components": [{"key": "p", "qualifier": "TRK"}, {"key": "p:F.java", "qualifier": "FIL", "path": "F.java"}, {"key": "p:G.java", "qualifier": "FIL", "path": "G.java"}]});
    let qs = json_questions("sonarqube_issues", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["BLOCKER".into()], value: "1".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["components".into(), "files".into()], value: "2".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "p:F.java".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "k1".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "k1".into(), max: false }), "{c:?}");
}

#[test]
fn iam_roles_are_counted_by_the_principals_they_trust() {
    let role = |name: &str, principal: Value, attached: &[&str], used: Value| {
        json!({"RoleName": name, "Path": "/", "CreateDate": format!("2024-0{}-01T00:00:00+00:00", name.len() % 9 + 1),
        "AssumeRolePolicyDocument": {"Statement": [{"Effect": "Allow", "Principal": principal, "Action": "sts:AssumeRole"}]},
        "RolePolicyList": [], "AttachedManagedPolicies": attached.iter().map(|p| json!({"PolicyName": p, "PolicyArn": format!("arn:{p}")})).collect::<Vec<_>>(), "RoleLastUsed": used})
    };
    let v = json!({
        "UserDetailList": [{"UserName": "ana", "UserId": "AIDA1", "GroupList": ["Developers", "Admins"]}, {"UserName": "bo", "UserId": "AIDA2", "GroupList": ["Developers"]}],
        "GroupDetailList": [{"GroupName": "Admins"}, {"GroupName": "Developers"}],
        "RoleDetailList": [
            role("fn-a", json!({"Service": "lambda.amazonaws.com"}), &["P1"], json!({})),
            role("fn-bb", json!({"Service": ["lambda.amazonaws.com", "edgelambda.amazonaws.com"]}), &["P1", "AdministratorAccess"], json!({"LastUsedDate": "2025-01-01T00:00:00+00:00", "Region": "eu-west-1"})),
            role("ci", json!({"AWS": "arn:aws:iam::1:root"}), &[], json!({"LastUsedDate": "2025-06-01T00:00:00+00:00", "Region": "eu-west-1"}))
        ],
        "Policies": [{"PolicyName": "P1", "AttachmentCount": 2, "PolicyVersionList": [{}, {}]}, {"PolicyName": "P2", "AttachmentCount": 0, "PolicyVersionList": [{}]}]
    });
    let qs = json_questions("aws_iam_authorization_details", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["lambda.amazonaws.com".into()], value: "2".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["never used".into(), "unused".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Count { labels: vec!["Developers".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "ana".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "fn-bb".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "fn-bb".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "P1".into(), max: true }), "{c:?}");
}
