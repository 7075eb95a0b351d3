//! Tests of the fifteenth part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, the JSON answers computed from
//! the records, and the readers of CRUSH trees, vulnerability tables, PostgreSQL logs
//! and slow logs computing their answers from the lines.

use toolshape_fixtures::apis::Split;

use serde_json::json;

use super::readers::{ceph_rows, pg_lines, slowlog_entries, trivy_rows};
use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_fifteenth_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Fifteenth, &[1, 2, 5]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Fifteenth);
}

#[test]
fn mail_and_events_are_answered_from_their_records() {
    let msg = |subject: &str, from: &str, read: bool, to: usize, at: &str| {
        let to: Vec<Value> = (0..to)
            .map(|k| json!({"emailAddress": {"name": format!("P{k}"), "address": format!("p{k}@x.com")}}))
            .collect();
        json!({"receivedDateTime": at, "hasAttachments": !read, "subject": subject, "importance": "normal",
               "isRead": read, "from": {"emailAddress": {"name": from, "address": format!("{}@x.com", from.to_lowercase())}},
               "toRecipients": to, "ccRecipients": [], "flag": {"flagStatus": "notFlagged"}})
    };
    let v = json!({"value": [
        msg("Rates for Q1", "Ada", false, 1, "2025-12-31T10:00:00Z"),
        msg("RE: Rates for Q1", "Ada", true, 4, "2025-12-31T09:00:00Z"),
        msg("Invoice 7", "Bo", false, 1, "2025-12-30T09:00:00Z"),
    ]});
    let qs = json_questions("graph_messages", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Rates for Q1".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Bo".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["unread".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Ada".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "RE: Rates for Q1".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Rates for Q1".into(), max: true }), "{c:?}");

    let ev = |id: &str, event: &str, email: &str, path: &str, props: Value| {
        let mut p = json!({"$pathname": path, "$browser": "Chrome", "$lib": "web"});
        if let (Some(p), Some(extra)) = (p.as_object_mut(), props.as_object()) {
            p.extend(extra.clone());
        }
        json!({"id": id, "event": event, "timestamp": format!("2025-12-31T1{}:00:00.000000+00:00", id.len()), "properties": p,
               "person": {"properties": {"email": email}}})
    };
    let v = json!({"results": [
        ev("e1", "$pageview", "ada@x.com", "/invoices", json!({})),
        ev("e22", "invoice_created", "ada@x.com", "", json!({"invoice_id": "inv_a", "amount": 120.5, "$lib": "posthog-node"})),
        ev("e333", "invoice_created", "bo@x.com", "", json!({"invoice_id": "inv_b", "amount": 980.0, "$lib": "posthog-node"})),
        ev("e4444", "$pageview", "bo@x.com", "/invoices", json!({})),
        ev("e55555", "$pageview", "ada@x.com", "/clients", json!({})),
    ]});
    let qs = json_questions("posthog_events", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "ada@x.com".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "/invoices".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "inv_b".into(), max: true }), "{c:?}");
    let server = Check::Count { labels: vec!["posthog-node".into(), "server".into()], value: "2".into() };
    assert!(c.contains(&&server), "{c:?}");
}

#[test]
fn candidates_and_machines_are_answered_from_their_records() {
    let cand = |name: &str, stage: &str, salary: u64, recruiter: &str, created: &str| {
        json!({"id": format!("rec{name}"), "createdTime": created, "fields": {"Name": name, "Stage": stage,
               "Role Title (from Role)": ["Data Engineer"], "Source": "LinkedIn", "Salary Expectation": salary,
               "Recruiter": {"name": recruiter}, "Email": format!("{name}@x.com")}})
    };
    let v = json!({"records": [
        cand("Ada", "Applied", 90_000, "Kofi Li", "2025-10-01T10:00:00.000Z"),
        cand("Bo", "Onsite", 150_000, "Kofi Li", "2025-11-01T10:00:00.000Z"),
        cand("Cy", "Applied", 120_000, "Mei Ito", "2025-12-01T10:00:00.000Z"),
    ]});
    let qs = json_questions("airtable_records", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Ada".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Cy".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Bo".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Kofi Li".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Cy".into(), max: true }), "{c:?}");

    let m = |name: &str, region: &str, group: &str, state: &str, check: &str, updated: &str| {
        json!({"id": format!("id-{name}"), "name": name, "state": state, "region": region, "private_ip": "fdaa::2",
               "config": {"metadata": {"fly_process_group": group, "fly_release_version": "9"}},
               "created_at": updated, "updated_at": updated, "checks": [{"status": check}]})
    };
    let v = json!([
        m("red-sun-1", "iad", "app", "started", "passing", "2025-12-30T10:00:00Z"),
        m("icy-sea-2", "iad", "worker", "started", "critical", "2025-12-31T10:00:00Z"),
        m("dry-dust-3", "lhr", "app", "stopped", "passing", "2025-12-01T10:00:00Z"),
    ]);
    let qs = json_questions("fly_machines", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["id-dry-dust-3".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["worker".into()], value: "1".into() }), "{c:?}");
    let failing = Check::Count { labels: vec!["critical".into(), "failing".into()], value: "1".into() };
    assert!(c.contains(&&failing), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "iad".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "dry-dust-3".into(), max: false }), "{c:?}");
}

#[test]
fn crush_trees_and_vulnerability_tables_are_read_by_their_rows() {
    let tree = "ID   CLASS  WEIGHT    REWEIGHT  SIZE     RAW USE  DATA     OMAP     META     AVAIL    %USE   VAR   PGS  STATUS  TYPE NAME\n\
                -1         29.10538         -   29 TiB   18 TiB   18 TiB   60 MiB   56 GiB   11 TiB  61.00  1.00    -          root default\n\
                -3         29.10538         -   29 TiB   18 TiB   18 TiB   60 MiB   56 GiB   11 TiB  61.00  1.00    -              host cephstor01\n\
                 0    hdd  14.55269   1.00000   15 TiB  9.7 TiB  9.7 TiB   30 MiB   30 GiB  4.8 TiB  66.98  1.10  131      up          osd.0\n\
                 1    hdd  14.55269   1.00000   15 TiB  8.1 TiB  8.1 TiB   30 MiB   26 GiB  6.4 TiB  55.85  0.92  109      up          osd.1\n\
                 2   nvme   3.49309   0.00000      0 B      0 B      0 B      0 B      0 B      0 B   0.00  0.00    0    down          osd.2\n\
                                        TOTAL   29 TiB   18 TiB   18 TiB   60 MiB   56 GiB   11 TiB  61.00\n\
                MIN/MAX VAR: 0.92/1.10  STDDEV: 5.56\n";
    let rows = ceph_rows(&lines(tree));
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[1]["kind"], "host");
    assert_eq!(rows[2]["host"], "cephstor01");
    assert_eq!(rows[2]["pgs"], 131);
    assert_eq!(rows[4]["status"], "down");
    let qs = text_questions("ceph_osd_df_tree", tree).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["osd.0".into(), "66.98".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["0.92/1.10".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["TOTAL".into(), "61.00".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["down".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "osd.0".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "osd.1".into(), max: false }), "{c:?}");

    let report = "img:1 (debian 12.8)\n===================\nTotal: 3 (UNKNOWN: 0, LOW: 1, MEDIUM: 0, HIGH: 1, CRITICAL: 1)\n\n\
                  ┌─────────┬───────────────┬──────────┬──────────┬───────────┬───────────┬──────────────┐\n\
                  │ Library │ Vulnerability │ Severity │  Status  │ Installed │   Fixed   │    Title     │\n\
                  ├─────────┼───────────────┼──────────┼──────────┼───────────┼───────────┼──────────────┤\n\
                  │ libc6   │ CVE-2024-1111 │ CRITICAL │ fixed    │ 2.36-9    │ 2.36-10   │ glibc: bad   │\n\
                  │         │               │          │          │           │           │ https://avd  │\n\
                  │         ├───────────────┼──────────┼──────────┼───────────┼───────────┼──────────────┤\n\
                  │         │ CVE-2023-2222 │ LOW      │ affected │ 2.36-9    │           │ glibc: meh   │\n\
                  ├─────────┼───────────────┼──────────┼──────────┼───────────┼───────────┼──────────────┤\n\
                  │ tar     │ CVE-2022-3333 │ HIGH     │ affected │ 1.34      │           │ tar: oops    │\n\
                  └─────────┴───────────────┴──────────┴──────────┴───────────┴───────────┴──────────────┘\n";
    let rows = trivy_rows(&lines(report));
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1]["library"], "libc6");
    assert_eq!(rows[1]["first"], false);
    assert_eq!(rows[2]["target"], "img:1 (debian 12.8)");
    let qs = text_questions("trivy_image", report).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["img:1 (debian 12.8)".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["CVE-2022-3333".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["CVE-2024-1111".into(), "2.36-10".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["CRITICAL".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "libc6".into(), max: true }), "{c:?}");
}

#[test]
fn database_logs_and_slow_logs_are_read_by_their_lines() {
    let log = "2025-12-31 18:14:37.141 UTC [402424] app@ledger LOG:  duration: 4351.106 ms  execute <unnamed>: UPDATE invoices SET status = $1\n\
               2025-12-31 18:14:37.141 UTC [402424] app@ledger DETAIL:  Parameters: $1 = 'paid'\n\
               2025-12-31 18:15:22.826 UTC [402452] app@ledger ERROR:  duplicate key value violates unique constraint \"invoices_pkey\"\n\
               2025-12-31 18:16:00.000 UTC [402460] [unknown]@[unknown] LOG:  connection received: host=10.20.4.16 port=46573\n\
               2025-12-31 18:16:30.390 UTC [402510] metabase@ledger LOG:  duration: 66833.217 ms  statement: SELECT 1\n\
               2025-12-31 18:19:25.128 UTC [108465] LOG:  automatic vacuum of table \"ledger.public.sessions\": index scans: 1\n\
               \tpages: 0 removed, 201199 remain, 47932 scanned (23.82% of total)\n";
    let rows = pg_lines(&lines(log));
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[1]["level"], "DETAIL");
    assert_eq!(rows[5]["user"], "");
    assert_eq!(rows[4]["user"], "metabase");
    let qs = text_questions("postgres_log", log).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["2025-12-31 18:14:37.141".into()])), "{c:?}");
    let last = Check::Together(vec![
        "2025-12-31 18:19:25.128".into(),
        "automatic vacuum of table \"ledger.public.sessions\": index scans: 1".into(),
    ]);
    assert!(c.contains(&&last), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "2025-12-31 18:16:30.390".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "10.20.4.16".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["ERROR".into(), "errors".into()], value: "1".into() }), "{c:?}");
    let error = Check::Together(vec![
        "402452".into(),
        "duplicate key value violates unique constraint \"invoices_pkey\"".into(),
    ]);
    assert!(c.contains(&&error), "{c:?}");

    let slow = "1) 1) (integer) 912\n   2) (integer) 1767225052\n   3) (integer) 12376\n   4)  1) \"MGET\"\n       \
                2) \"cache:a\"\n       3) \"cache:b\"\n       4) \"cache:c\"\n       5) \"cache:d\"\n       6) \"cache:e\"\n       \
                7) \"cache:f\"\n       8) \"cache:g\"\n       9) \"cache:h\"\n      10) \"cache:i\"\n   5) \"10.30.2.17:52690\"\n   \
                6) \"web-7\"\n\
                2) 1) (integer) 911\n   2) (integer) 1767224618\n   3) (integer) 240000\n   4) 1) \"KEYS\"\n      2) \"session:*\"\n   \
                5) \"127.0.0.1:45483\"\n   6) \"\"\n";
    let es = slowlog_entries(&lines(slow));
    assert_eq!(es.len(), 2);
    assert_eq!(es[0]["command"], "MGET");
    assert_eq!(es[0]["args"].as_array().map(Vec::len), Some(10));
    assert_eq!(es[0]["ip"], "10.30.2.17");
    assert_eq!(es[1]["key"], "session:*");
    assert_eq!(es[1]["micros"], 240_000);
    assert_eq!(es[1]["name"], "");
    let qs = text_questions("redis_slowlog", slow).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["912".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["911".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "911".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["KEYS".into()], value: "1".into() }), "{c:?}");
}
