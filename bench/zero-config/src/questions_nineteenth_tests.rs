//! Tests of the nineteenth part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, the JSON answers computed from
//! the records (`_cat` fields read without their dots), and the readers of top listings,
//! df tables, kubectl events tables and pytest reports computing their answers from the
//! lines.

use toolshape_fixtures::apis::Split;

use serde_json::json;

use super::readers::{cpu_seconds, df_bytes, durations, events, kib, mounts, summary_count, tasks};
use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_nineteenth_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Nineteenth, &[1, 2, 5]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Nineteenth);
}

#[test]
fn stack_events_and_indices_are_answered_from_their_records() {
    let ev = |id: &str, logical: &str, kind: &str, status: &str, reason: Option<&str>| {
        json!({"EventId": id, "LogicalResourceId": logical, "ResourceType": kind, "ResourceStatus": status,
               "PhysicalResourceId": format!("phys-{logical}"), "Timestamp": format!("2025-12-0{}T10:00:00.000000+00:00", id.len() % 9),
               "ResourceStatusReason": reason})
    };
    let stack = "AWS::CloudFormation::Stack";
    let v = json!({"StackEvents": [
        ev("e1", "shop", stack, "UPDATE_ROLLBACK_COMPLETE", None),
        ev("e22", "OrdersTable", "AWS::DynamoDB::Table", "UPDATE_FAILED", Some("Limit Exceeded")),
        ev("e333", "OrdersTable", "AWS::DynamoDB::Table", "UPDATE_IN_PROGRESS", None),
        ev("e4444", "shop", stack, "UPDATE_IN_PROGRESS", Some("User Initiated")),
    ]});
    let qs = json_questions("cloudformation_stack_events", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["shop".into(), "UPDATE_ROLLBACK_COMPLETE".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["OrdersTable".into(), "Limit Exceeded".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "OrdersTable".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["User Initiated".into()], value: "1".into() }), "{c:?}");

    let index = |name: &str, health: &str, docs: &str, size: &str| {
        json!({"health": health, "status": "open", "index": name, "uuid": format!("u-{name}"), "pri": "1",
               "rep": "1", "docs.count": docs, "docs.deleted": "0", "store.size": size})
    };
    let list = vec![
        index("a-logs", "green", "900", "2.5gb"),
        index("b-logs", "yellow", "12000", "800.0mb"),
        index("c-logs", "green", "40", "12.0kb"),
        json!({"health": null, "status": "close", "index": "d-logs", "docs.count": null, "store.size": null}),
    ];
    let records = indices(&list);
    assert_eq!(records[1]["docs_count"], "12000");
    assert_eq!(records[0]["store_bytes"], 2.5 * 1024f64.powi(3));
    let qs = json_questions("elasticsearch_cat_indices", &Value::Array(list)).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["d-logs".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "b-logs".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "a-logs".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "c-logs".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["close".into(), "closed".into()], value: "1".into() }));
}

#[test]
fn applications_and_tasks_are_answered_from_their_records() {
    let app = |name: &str, health: &str, resources: usize, reconciled: &str| {
        json!({"metadata": {"name": name, "creationTimestamp": format!("2024-0{}-01T00:00:00Z", resources)},
               "spec": {"project": "shop", "source": {"targetRevision": "main"}},
               "status": {"health": {"status": health}, "sync": {"status": "Synced", "revision": "abc"},
                          "resources": vec![json!({}); resources], "reconciledAt": reconciled,
                          "operationState": {"phase": if health == "Degraded" { "Failed" } else { "Succeeded" }}}})
    };
    let v = json!({"items": [
        app("cart-prod", "Healthy", 3, "2025-12-31T23:58:00Z"),
        app("cart-staging", "Degraded", 7, "2025-12-31T23:59:30Z"),
        app("search-prod", "Healthy", 2, "2025-12-31T23:57:00Z"),
    ]});
    let qs = json_questions("argocd_applications", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["search-prod".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cart-staging".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "search-prod".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Failed".into(), "failed".into()], value: "1".into() }));

    let task = |name: &str, status: &str, who: &[&str], estimate: u64| {
        let people: Vec<Value> = who.iter().map(|w| json!({"username": w})).collect();
        json!({"id": format!("id-{}", name.len()), "name": name, "status": {"status": status}, "assignees": people,
               "time_estimate": estimate, "time_spent": estimate / 2, "tags": [{"name": "bug"}]})
    };
    let v = json!({"tasks": [
        task("Fix login", "to do", &["Maya Okafor"], 3_600_000),
        task("Add dark mode", "in progress", &[], 28_800_000),
        task("Cache prices", "to do", &["Maya Okafor", "Omar Haddad"], 1_800_000),
    ]});
    let qs = json_questions("clickup_tasks", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Fix login".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Add dark mode".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Maya Okafor".into(), max: true }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["unassigned".into(), "assignees".into()], value: "1".into() }),
        "{c:?}"
    );
}

#[test]
fn top_listings_and_df_tables_are_read_by_their_lines() {
    let top = "top - 10:42:17 up 41 days,  3:12,  3 users,  load average: 3.21, 2.87, 2.65\n\
               Tasks:   4 total,   1 running,   3 sleeping,   0 stopped,   0 zombie\n\n\
               \x20   PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n\
               \x20  4120 elastic+  20   0 9512344   6.8g  31220 S  61.4  10.8 912:01.50 java\n\
               \x20  2211 postgres  20   0 8812344   1.2g   1.1g S  12.5   1.9  81:12.34 postgres\n\
               \x20  2300 deploy    20   0   12100   4400   3100 S   0.0   0.0   0:00.10 tmux: server\n\
               \x20     2 root      20   0       0      0      0 S   0.0   0.0   0:01.07 kthreadd\n";
    let rows = tasks(&lines(top));
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[2]["COMMAND"], "tmux: server");
    assert_eq!(kib(&rows[0]["RES"]), Some(6.8 * 1_048_576.0));
    assert_eq!(cpu_seconds(&rows[1]["TIME+"]), Some(81.0 * 60.0 + 12.34));
    let qs = text_questions("top_batch", top).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["4120".into(), "java".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["2".into(), "kthreadd".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "4120".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "elastic+".into(), max: true }), "{c:?}");

    let df = "Filesystem     Type     Size  Used Avail Use% Mounted on\n\
              /dev/root      ext4     194G   87G  107G  45% /\n\
              tmpfs          tmpfs    1.0G   12K  1.0G   1% /var/lib/kubelet/pods/p1/volumes/kubernetes.io~projected/kube-api-access-x2k4p\n\
              /dev/nvme2n1   ext4      50G   41G  9.0G  83% /var/lib/kubelet/pods/p1/volumes/kubernetes.io~csi/pvc-a/mount\n\
              /dev/nvme3n1   ext4      20G  2.0G   18G  10% /var/lib/kubelet/pods/p2/volumes/kubernetes.io~csi/pvc-b/mount\n\
              overlay        overlay  194G   87G  107G  45% /run/containerd/io.containerd.runtime.v2.task/k8s.io/abc/rootfs\n";
    let rows = mounts(&lines(df));
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[2]["Use%"], "83%");
    assert_eq!(df_bytes(&rows[3]["Used"]), Some(2.0 * 1024f64.powi(3)));
    let qs = text_questions("df_h_t", df).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["/dev/root".into(), "/".into()])), "{c:?}");
    let full = "/var/lib/kubelet/pods/p1/volumes/kubernetes.io~csi/pvc-a/mount";
    assert!(c.contains(&&Check::Extreme { id: full.into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["kubernetes.io~csi".into(), "csi".into()], value: "2".into() }));
}

#[test]
fn events_tables_and_pytest_reports_are_read_by_their_lines() {
    let table = "NAMESPACE   LAST SEEN              TYPE      REASON      OBJECT                 MESSAGE\n\
                 checkout    4m3s                   Normal    Started     pod/checkout-abc-x1    Started container api\n\
                 checkout    2m (x41 over 50m)      Warning   BackOff     pod/checkout-abc-x2    Back-off restarting failed container api\n\
                 search      12s                    Normal    Scheduled   pod/search-def-y1      Successfully assigned search/search-def-y1 to node-1\n";
    let rows = events(&lines(table));
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1]["LAST SEEN"], "2m (x41 over 50m)");
    assert_eq!(rows[1]["repeats"], 41);
    assert_eq!(rows[2]["MESSAGE"], "Successfully assigned search/search-def-y1 to node-1");
    let qs = text_questions("kubectl_get_events", table).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["checkout".into(), "pod/checkout-abc-x1".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "pod/checkout-abc-x2".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "checkout".into(), max: true }), "{c:?}");

    let report = "============================= slowest durations ==============================\n\
                  4.10s call     tests/e2e/test_storefront.py::test_lists_order\n\
                  1.25s setup    tests/e2e/test_storefront.py::test_lists_order\n\
                  0.50s setup    tests/api/test_auth.py::test_rejects_token\n\
                  0.02s teardown tests/api/test_auth.py::test_rejects_token\n\
                  0.01s call     tests/api/test_auth.py::test_rejects_token\n\n\
                  (12 durations < 0.005s hidden.  Use -vv to show these durations.)\n\
                  =========== 7 passed, 2 skipped, 3 warnings in 9.12s (0:00:09) ===========\n";
    let rows = durations(&lines(report));
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[3]["phase"], "teardown");
    assert_eq!(rows[0]["file"], "tests/e2e/test_storefront.py");
    assert_eq!(summary_count(&lines(report), "skipped"), Some(2));
    let qs = text_questions("pytest_durations", report).unwrap_or_default();
    let c = checks(&qs);
    let slow = "tests/e2e/test_storefront.py::test_lists_order";
    assert!(c.contains(&&Check::Together(vec![slow.into(), "call".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: slow.into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["passed".into()], value: "7".into() }), "{c:?}");
}
