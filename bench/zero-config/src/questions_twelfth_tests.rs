//! Tests of the twelfth part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, the JSON answers computed from
//! the records, and the readers of network statistics, mail queues, LDIF and query plans
//! computing their answers from the lines.

use toolshape_fixtures::apis::Split;

use serde_json::json;

use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_twelfth_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Twelfth, &[1, 2, 5]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Twelfth);
}

#[test]
fn json_answers_come_from_the_records() {
    let build = |n: u64, result: &str, duration: u64, fails: Option<u64>, cause: &str, authors: &[&str]| {
        let mut actions = vec![
            json!({"_class": "hudson.model.CauseAction", "causes": [{"shortDescription": cause}]}),
            json!({}),
            json!({"_class": "hudson.plugins.git.util.BuildData", "lastBuiltRevision": {"SHA1": format!("{n:040}")}}),
        ];
        if let Some(f) = fails {
            actions.push(json!({"_class": "hudson.tasks.junit.TestResultAction", "failCount": f, "totalCount": 900}));
        }
        let items: Vec<_> = authors.iter().map(|a| json!({"author": {"fullName": a}})).collect();
        json!({"actions": actions, "displayName": format!("#{n}"), "duration": duration, "number": n, "result": result,
               "changeSets": [{"items": items, "kind": "git"}], "culprits": authors.iter().map(|a| json!({"fullName": a})).collect::<Vec<_>>()})
    };
    let v = json!({"builds": [
        build(12, "UNSTABLE", 600, Some(3), "Push event to branch main", &["Ada Berg", "Kofi Li"]),
        build(11, "SUCCESS", 900, Some(0), "Started by timer", &[]),
        build(10, "UNSTABLE", 700, Some(9), "Push event to branch main", &["Ada Berg"]),
        build(9, "FAILURE", 100, None, "Started by timer", &["Ada Berg"]),
    ]});
    let qs = json_questions("jenkins_builds", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["#12".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["#9".into(), "FAILURE".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "#11".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "#10".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Ada Berg".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["timer".into()], value: "2".into() }), "{c:?}");

    let message = |id: &str, who: &str, ty: u64, likes: &[u64]| {
        let reactions: Vec<_> = likes.iter().map(|n| json!({"emoji": {"name": "👍"}, "count": n})).collect();
        json!({"type": ty, "id": id, "author": {"username": who}, "timestamp": format!("2025-12-31T0{}:00:00+00:00", id.len()),
               "attachments": [], "embeds": [], "reactions": reactions})
    };
    let v = json!([
        message("5", "mei", 19, &[1]),
        message("44", "mei", 0, &[2, 3]),
        message("333", "ivan", 7, &[]),
        message("2222", "mei", 19, &[]),
    ]);
    let qs = json_questions("discord_messages", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "44".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "mei".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["replies".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["2025-12-31T04:00:00+00:00".into()])), "{c:?}");

    let service = |name: &str, updated: &str, min: u64, state: &str| {
        json!({"name": format!("projects/p/locations/europe-west1/services/{name}"), "updateTime": updated, "generation": "3",
               "template": {"scaling": {"minInstanceCount": min}, "containers": [{"image": format!("img/{name}:1")}]},
               "terminalCondition": {"state": state}, "latestReadyRevision": format!("projects/p/x/revisions/{name}-00002-abc")})
    };
    let v = json!({"services": [
        service("cart-api", "2025-10-01T00:00:00.1Z", 1, "CONDITION_SUCCEEDED"),
        service("tax-service", "2025-03-01T00:00:00.1Z", 0, "CONDITION_FAILED"),
        service("user-profile", "2025-12-01T00:00:00.1Z", 2, "CONDITION_SUCCEEDED"),
    ]});
    let qs = json_questions("cloud_run_services", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["cart-api".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["user-profile".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["tax-service".into(), "tax-service-00002-abc".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "tax-service".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["minInstanceCount".into()], value: "2".into() }), "{c:?}");
}

#[test]
fn network_statistics_and_mail_queues_are_read_by_their_rows() {
    let sar = "Linux 6.8.0-51-generic (app-fra-02) \t12/31/25 \t_x86_64_\t(32 CPU)\n\n\
               00:00:01        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil\n\
               00:10:01         eno1    100.00    100.00    900.00    800.00      0.00      0.00      0.00     40.00\n\
               00:10:01         eno2     10.00     10.00     10.00  90000.00      0.00      0.00      0.00     72.00\n\
               00:10:01  veth1a2b3c4      1.00      1.00      5.00      1.00      0.00      0.00      0.00      0.00\n\n\
               00:10:01        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil\n\
               00:20:01         eno1    100.00    100.00    950.00    800.00      0.00      0.00      0.00     41.00\n\
               00:20:01         eno2     10.00     10.00     10.00    100.00      0.00      0.00      0.00      0.10\n\
               00:20:01  veth9f8e7d6      1.00      1.00      7.00      1.00      0.00      0.00      0.00      0.00\n\n\
               Average:        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil\n\
               Average:         eno1    100.00    100.00    925.00    800.00      0.00      0.00      0.00     40.50\n\
               Average:         eno2     10.00     10.00     10.00  45050.00      0.00      0.00      0.00     36.05\n\
               Average:  veth1a2b3c4      1.00      1.00      5.00      1.00      0.00      0.00      0.00      0.00\n\
               Average:  veth9f8e7d6      1.00      1.00      7.00      1.00      0.00      0.00      0.00      0.00\n";
    let (samples, averages) = sar_rows(&lines(sar));
    assert_eq!(samples.len(), 6);
    assert_eq!(samples[1]["%ifutil"], "72.00");
    assert_eq!(averages[0]["rxkB/s"], "925.00");
    let qs = text_questions("sar_net_dev", sar).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["app-fra-02".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Average:".into(), "eno1".into(), "925.00".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "00:20:01".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "00:10:01".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "veth9f8e7d6".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["interfaces".into()], value: "4".into() }), "{c:?}");

    let mailq = "-Queue ID-  --Size-- ----Arrival Time---- -Sender/Recipient-------\n\
                 A1B2C3D4E5*    2456 Wed Dec 31 09:12:44  noreply@northwind.example\n\
                 \x20                                        ada@yahoo.com\n\n\
                 0F0E0D0C0B1    91000 Mon Dec 29 10:00:00  MAILER-DAEMON\n\
                 (connect to mail.oldcorp.example[203.0.113.45]:25: Connection timed out)\n\
                 \x20                                        kofi@oldcorp.example\n\n\
                 99AA88BB77!    3000 Tue Dec 30 23:59:59  noreply@northwind.example\n\
                 \x20                                        mei@yahoo.com\n\
                 \x20                                        ivan@yahoo.com\n\n\
                 -- 94 Kbytes in 3 Requests.\n";
    let rows = mailq_rows(&lines(mailq));
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["status"], "active");
    assert_eq!(rows[1]["reason"], "connect to mail.oldcorp.example[203.0.113.45]:25: Connection timed out");
    assert_eq!(rows[2]["recipients"], json!(["mei@yahoo.com", "ivan@yahoo.com"]));
    let qs = text_questions("postfix_mailq", mailq).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["A1B2C3D4E5".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["3 Requests".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["94 Kbytes".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "0F0E0D0C0B1".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "0F0E0D0C0B1".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "noreply@northwind.example".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["hold".into(), "held".into()], value: "1".into() }), "{c:?}");
}

#[test]
fn directories_and_query_plans_are_read_by_their_entries_and_nodes() {
    let ldif = "# extended LDIF\n#\n\n# northwind.example\ndn: dc=northwind,dc=example\nobjectClass: organization\no: Northwind\n\n\
                # ops, Groups, northwind.example\ndn: cn=ops,ou=Groups,dc=northwind,dc=example\nobjectClass: groupOfNames\ncn: ops\n\
                member: uid=ada.berg,ou=People,dc=northwind,dc=example\nmember: uid=kofi.li,ou=People,dc=northwind,dc=example\n\n\
                # ada.berg, People, northwind.example\ndn: uid=ada.berg,ou=People,dc=northwind,dc=example\nobjectClass: inetOrgPerson\n\
                uid: ada.berg\ncn: Ada Berg\nmail: ada.berg@northwind.example\ndescription: a very long value that ldapsearch folds over th\n e next line\n\n\
                # kofi.li, People, northwind.example\ndn: uid=kofi.li,ou=People,dc=northwind,dc=example\nobjectClass: inetOrgPerson\n\
                uid: kofi.li\ncn: Kofi Li\nmanager: uid=ada.berg,ou=People,dc=northwind,dc=example\n\n\
                # search result\nsearch: 2\nresult: 0 Success\n\n# numResponses: 5\n# numEntries: 4\n";
    let entries = ldif_entries(&lines(ldif));
    assert_eq!(entries.len(), 4);
    assert_eq!(entries[1]["member"].as_array().map(Vec::len), Some(2));
    assert_eq!(entries[2]["description"], "a very long value that ldapsearch folds over the next line");
    let qs = text_questions("ldapsearch_directory", ldif).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Northwind".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["numEntries".into(), "4".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Kofi Li".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["member".into(), "members".into()], value: "2".into() }));

    let plan = "                 QUERY PLAN\n------------------------------\n \
                Sort  (cost=1.00..2.00 rows=4 width=8) (actual time=9.000..9.100 rows=4 loops=1)\n   \
                Sort Key: e.kind\n   \
                ->  Append  (cost=0.00..1.00 rows=4 width=8) (actual time=0.010..8.000 rows=300 loops=1)\n         \
                ->  Seq Scan on events_2025_11_28 e_1  (cost=0.00..1.00 rows=9 width=8) (actual time=0.010..6.500 rows=250 loops=1)\n               \
                Filter: (kind = 'purchase'::text)\n               \
                Rows Removed by Filter: 4000\n               \
                Buffers: shared hit=10 read=900\n         \
                ->  Bitmap Heap Scan on events_2025_11_29 e_2  (cost=0.00..1.00 rows=9 width=8) (actual time=0.300..1.500 rows=50 loops=1)\n               \
                Buffers: shared hit=100 read=20\n               \
                ->  Bitmap Index Scan on events_2025_11_29_kind_idx  (cost=0.00..1.00 rows=9 width=0) (actual time=0.200..0.200 rows=50 loops=1)\n                     \
                Buffers: shared hit=3 read=2000\n \
                Planning Time: 0.500 ms\n \
                Execution Time: 9.300 ms\n(12 rows)\n";
    let nodes = plan_nodes(&lines(plan));
    assert_eq!(nodes.len(), 5);
    assert_eq!(nodes[2]["table"], "events_2025_11_28");
    assert_eq!(nodes[2]["removed"], "4000");
    assert_eq!(nodes[3]["read"], "20");
    let qs = text_questions("explain_analyze", plan).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["e.kind".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Execution Time: 9.300 ms".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "events_2025_11_28".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Seq Scan".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["partitions".into()], value: "2".into() }), "{c:?}");
}
