//! Tests of the mcp half's questions: the answers of the knowledge graph, pull request
//! files, directory tree and Todoist readers computed from small hand-made results. Every
//! shape's questions (nine of every kind, every answer in the raw result, at several seeds)
//! are checked for the whole part in `questions_twentyfirst`.

use serde_json::{Value, json};

use super::files::{folder, is_test, workspace};
use super::tasks::minutes;
use super::tree::{entries, extension, is_test_file};
use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

fn entity(name: &str, kind: &str, observations: &[&str]) -> Value {
    json!({"type": "entity", "name": name, "entityType": kind, "observations": observations})
}

fn relation(from: &str, kind: &str, to: &str) -> Value {
    json!({"type": "relation", "from": from, "to": to, "relationType": kind})
}

#[test]
fn a_knowledge_graph_is_answered_from_its_entities_and_relations() {
    let v = json!({
        "entities": [
            entity("Ada Berg", "person", &["Engineering Manager on the Payments Team", "Based in Oslo"]),
            entity("Kofi Li", "person", &["Backend Engineer on the Payments Team"]),
            entity("Mei Ito", "person", &["QA Engineer on the Payments Team", "a", "b", "c"]),
            entity("Payments Team", "team", &["Slack channel #team-payments"]),
            entity("payments-api", "service", &["Runs 4 replicas", "Written in Go 1.22"]),
            entity("ledger", "service", &["Written in Kotlin"]),
            entity("Checkout v2", "project", &["Status: on track"]),
            entity("Ledger Migration", "project", &["Status: at risk"]),
            entity("Sync 2025-12-01", "meeting", &["Held on 2025-12-01"]),
            entity("Adopt PostgreSQL 16", "decision", &["Decided on 2025-12-01"]),
        ],
        "relations": [
            relation("Kofi Li", "reports_to", "Ada Berg"),
            relation("Mei Ito", "reports_to", "Ada Berg"),
            relation("Kofi Li", "works_on", "Checkout v2"),
            relation("Kofi Li", "works_on", "Ledger Migration"),
            relation("Mei Ito", "works_on", "Ledger Migration"),
            relation("Payments Team", "owns", "payments-api"),
            relation("Payments Team", "owns", "ledger"),
            relation("payments-api", "depends_on", "ledger"),
            relation("payments-api", "source_code_in", "acme/payments-api"),
            relation("Kofi Li", "attended", "Sync 2025-12-01"),
            relation("Sync 2025-12-01", "decided", "Adopt PostgreSQL 16"),
        ]
    });
    let qs = json_questions("memory_read_graph", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Ada Berg".into(), "person".into()])), "{c:?}");
    assert!(
        c.contains(&&Check::Together(vec!["Sync 2025-12-01".into(), "decided".into(), "Adopt PostgreSQL 16".into()])),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Together(vec!["Kofi Li".into(), "Backend Engineer on the Payments Team".into()])));
    assert!(c.contains(&&Check::Together(vec!["ledger".into(), "Written in Kotlin".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Mei Ito".into(), "Ada Berg".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Payments Team".into(), "ledger".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Sync 2025-12-01".into(), "Adopt PostgreSQL 16".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["payments-api".into(), "acme/payments-api".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["person".into(), "people".into()], value: "3".into() }));
    // Ledger Migration is half way down the projects; two people work on it.
    assert!(c.contains(&&Check::Count { labels: vec!["works_on".into(), "people".into()], value: "2".into() }));
    assert!(c.contains(&&Check::Extreme { id: "Kofi Li".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Ada Berg".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "payments-api".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "ledger".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Payments Team".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Mei Ito".into(), max: true }), "{c:?}");
}

fn pr_file(path: &str, status: &str, additions: u64, deletions: u64, patch: bool) -> Value {
    let mut f = json!({"sha": "abc", "filename": path, "status": status, "additions": additions,
                       "deletions": deletions, "changes": additions + deletions});
    if patch {
        f["patch"] = json!("@@ -1 +1 @@\n-a\n+b");
    }
    f
}

#[test]
fn pull_request_files_are_answered_by_path_status_and_lines() {
    assert_eq!(folder("apps/web/src/App.tsx"), Some("apps/web/src"));
    assert_eq!(folder("package.json"), None);
    assert_eq!(workspace("packages/ui/src/index.ts"), Some("packages/ui"));
    assert_eq!(workspace("docs/testing.md"), None);
    assert_eq!(workspace("apps/web"), None);
    assert!(is_test("packages/ui/src/Button/Button.test.tsx") && is_test("internal/api/handler_test.go"));
    assert!(!is_test("src/test/setup.ts"));
    let mut renamed = pr_file("apps/web/src/test/setup.ts", "renamed", 4, 3, true);
    renamed["previous_filename"] = json!("apps/web/src/setupTests.ts");
    let list = vec![
        pr_file(".github/workflows/ci.yml", "modified", 3, 6, true),
        pr_file("apps/web/jest.config.ts", "removed", 0, 19, true),
        pr_file("apps/web/src/Cart/Cart.test.tsx", "modified", 8, 7, true),
        pr_file("apps/web/src/Cart/Cart.tsx", "modified", 14, 10, true),
        pr_file("apps/web/src/__generated__/graphql.ts", "modified", 3000, 1200, false),
        renamed,
        pr_file("jest.config.base.js", "removed", 0, 11, true),
        pr_file("packages/ui/src/Button/Button.test.tsx", "modified", 12, 11, true),
        pr_file("packages/ui/vitest.config.ts", "added", 17, 0, true),
    ];
    let qs = json_questions("github_pull_request_files", &Value::Array(list)).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec![".github/workflows/ci.yml".into(), "modified".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["packages/ui/vitest.config.ts".into(), "added".into()])), "{c:?}");
    assert!(
        c.contains(&&Check::Together(vec!["apps/web/src/test/setup.ts".into(), "apps/web/src/setupTests.ts".into()])),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Count { labels: vec!["added".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["removed".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["patch".into(), "no patch".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["test".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["additions".into(), "added".into()], value: "3058".into() }));
    assert!(c.contains(&&Check::Extreme { id: "apps/web/src/__generated__/graphql.ts".into(), max: true }));
    assert!(c.contains(&&Check::Extreme { id: "packages/ui/src/Button/Button.test.tsx".into(), max: true }));
    assert!(c.contains(&&Check::Extreme { id: "apps/web/jest.config.ts".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "apps/web/src/Cart".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "apps/web".into(), max: true }), "{c:?}");
}

fn file(name: &str) -> Value {
    json!({"name": name, "type": "file"})
}

fn dir(name: &str, children: Vec<Value>) -> Value {
    json!({"name": name, "type": "directory", "children": children})
}

#[test]
fn a_directory_tree_is_read_into_entries_with_their_counts() {
    assert_eq!(extension("Button.test.tsx"), Some(".tsx"));
    assert_eq!(extension(".gitignore"), None);
    assert_eq!(extension("Dockerfile"), None);
    assert!(is_test_file("x.spec.ts") && is_test_file("test_api.py") && is_test_file("order_test.go"));
    assert!(!is_test_file("setup.ts") && !is_test_file("latest.py"));
    let tree = vec![
        dir(".github", vec![dir("workflows", vec![file("ci.yml"), file("release.yml")])]),
        dir(
            "apps",
            vec![
                dir("admin", vec![file("main.tsx")]),
                dir(
                    "web",
                    vec![dir("src", vec![file("App.tsx"), file("App.test.tsx"), file("index.ts")]), file("README.md")],
                ),
            ],
        ),
        dir(
            "packages",
            vec![
                dir("icons", (0..6).map(|k| file(&format!("Icon{k}.tsx"))).collect()),
                dir("utils", vec![dir("src", vec![file("clamp.ts"), file("clamp.test.ts")])]),
            ],
        ),
        file("README.md"),
        file("package.json"),
    ];
    let list = entries(&tree);
    assert_eq!(list.len(), 27);
    assert_eq!(list[1]["parent"], ".github");
    assert_eq!(list[1]["depth"], 2);
    let web = list.iter().find(|x| x["name"] == "web").cloned().unwrap_or_default();
    assert_eq!(
        (web["files"].as_u64(), web["folders"].as_u64(), web["all_files"].as_u64()),
        (Some(1), Some(1), Some(4))
    );
    assert_eq!(web["entries"], json!(["src", "README.md"]));
    let qs = json_questions("filesystem_directory_tree", &Value::Array(tree)).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec![".github".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["package.json".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["App.test.tsx".into(), "src".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Icon2.tsx".into(), "icons".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["web".into(), "src".into(), "README.md".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["files".into()], value: "17".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["directories".into(), "folders".into()], value: "10".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["test".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec![".md".into(), "Markdown".into()], value: "2".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["icons".into(), "files".into()], value: "6".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["packages".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "icons".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "web".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: ".tsx".into(), max: true }), "{c:?}");
    // `apps` and `packages` tie for the most subfolders, so that is not asked.
    assert!(!qs.iter().any(|q| q.text.contains("subfolders")), "{c:?}");
}

fn task(id: &str, content: &str, due: Option<&str>, priority: u64, labels: &[&str]) -> Value {
    json!({"id": id, "assigner_id": null, "assignee_id": null, "project_id": "220", "section_id": null,
           "parent_id": null, "order": 1, "content": content, "description": "", "is_completed": false,
           "labels": labels, "priority": priority, "comment_count": 0, "creator_id": "9",
           "created_at": format!("2025-12-{:02}T10:00:00.000000Z", id.len() + 10),
           "due": due.map(|d| json!({"date": d, "string": d, "lang": "en", "is_recurring": false})),
           "url": format!("https://app.todoist.com/app/task/{id}"), "duration": null})
}

#[test]
fn todoist_tasks_are_answered_from_their_dates_priorities_and_labels() {
    let mut weekly = task("7003", "Weekly review", Some("2026-01-02"), 1, &[]);
    weekly["due"]["is_recurring"] = json!(true);
    weekly["comment_count"] = json!(5);
    weekly["duration"] = json!({"amount": 2, "unit": "day"});
    let mut sub = task("700005", "Draft the agenda", Some("2026-01-01"), 2, &["waiting"]);
    sub["parent_id"] = json!("7003");
    sub["project_id"] = json!("221");
    sub["assignee_id"] = json!("41");
    let mut long_meeting = task("7004", "Plan the offsite", None, 4, &["meeting", "waiting"]);
    long_meeting["duration"] = json!({"amount": 90, "unit": "minute"});
    long_meeting["assignee_id"] = json!("41");
    let list = vec![
        task("7001", "Pay the council tax bill", Some("2025-12-28"), 4, &["errands"]),
        task("7002", "Oat milk", None, 1, &[]),
        weekly,
        sub,
        long_meeting,
        task("7005", "Call mum", Some("2026-01-01"), 1, &["phone"]),
    ];
    assert_eq!(minutes(&list[2]), Some(2880));
    assert_eq!(minutes(&list[1]), None);
    let qs = json_questions("todoist_tasks", &Value::Array(list)).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Pay the council tax bill".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Call mum".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Weekly review".into(), "2026-01-02".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Draft the agenda".into(), "7003".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Draft the agenda".into(), "2".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Call mum".into(), "phone".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["2026-01-01".into(), "today".into()], value: "2".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["overdue".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["priority 4".into(), "urgent".into()], value: "2".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["recurring".into(), "is_recurring".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Count { labels: vec!["subtasks".into(), "parent_id".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Extreme { id: "Weekly review".into(), max: true }), "{c:?}");
    // The subtask's six-digit id makes its made-up creation day the latest.
    assert!(c.contains(&&Check::Extreme { id: "Draft the agenda".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "220".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "41".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "waiting".into(), max: true }), "{c:?}");
}
