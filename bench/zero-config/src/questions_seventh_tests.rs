//! Tests of the seventh part's questions: every shape asked every kind, and the readers of
//! text tables and logs computing their answers from the lines.

use toolshape_fixtures::apis::Split;

use serde_json::json;

use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_seventh_part_asks_at_least_45_questions_of_every_kind() {
    let asked = crate::questions::tests::asks_every_kind(Split::Seventh);
    assert!(asked >= 45, "the seventh part asks {asked} questions");
}

#[test]
fn athena_rows_are_read_by_the_header_row_and_null_cells_are_left_out() {
    let row = |cells: &[Option<&str>]| json!({"Data": cells.iter().map(|c| c.map_or_else(|| json!({}), |s| json!({"VarCharValue": s}))).collect::<Vec<_>>()});
    let names = ["eventtime", "eventname", "sourceipaddress", "arn", "errorcode", "eventid"];
    let v = json!({"ResultSet": {"Rows": [
        row(&names.map(Some)),
        row(&[Some("t3"), Some("GetObject"), Some("1.1.1.1"), Some("role/a"), None, Some("e1")]),
        row(&[Some("t2"), Some("PutObject"), Some("2.2.2.2"), Some("role/b"), Some("AccessDenied"), Some("e2")]),
        row(&[Some("t1"), Some("GetObject"), Some("2.2.2.2"), None, Some("AccessDenied"), Some("e3")]),
    ]}});
    let qs = json_questions("athena_cloudtrail", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["t3".into(), "GetObject".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["t1".into(), "GetObject".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["AccessDenied".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "2.2.2.2".into(), max: true }), "{c:?}");
    // The header row is never taken for a record.
    assert!(qs.iter().all(|q| !q.text.contains("eventid ")), "{c:?}");
}

#[test]
fn firebase_maps_become_records_named_by_their_push_ids() {
    let v = json!({
        "-A1": {"guest": {"name": "Ann"}, "property": "Loft", "status": "confirmed", "channel": "direct", "checkIn": "2026-01-02", "totalCents": 100},
        "-A2": {"guest": {"name": "Bo"}, "property": "Barn", "status": "cancelled", "channel": "airbnb", "checkIn": "2026-01-03", "totalCents": 900},
        "-A3": {"guest": {"name": "Cy"}, "property": "Loft", "status": "confirmed", "channel": "airbnb", "checkIn": "2026-01-04", "totalCents": 300}
    });
    let qs = json_questions("firebase_bookings", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Ann".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Cy".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "-A2".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Loft".into(), max: true }), "{c:?}");
}

#[test]
fn ps_rows_keep_the_whole_command_and_psql_rows_their_columns() {
    let ps = "USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND\n\
              root 1 0.0 0.1 100 900 ? Ss Nov03 0:01 /sbin/init splash\n\
              app 20 9.5 4.0 800 7000 ? Sl 08:00 1:00 /srv/api --port 80\n\
              app 31 1.0 0.2 300 500 ? S 09:00 0:00 ps aux\n";
    let procs = ps_records(&lines(ps));
    assert_eq!(procs[0]["COMMAND"], "/sbin/init splash");
    assert_eq!(procs[1]["RSS"], "7000");
    let qs: Vec<Question> = ps_questions(&lines(ps)).into_iter().flatten().collect();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "20".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["31".into(), "ps aux".into()])), "{c:?}");

    let psql = " id | email | plan | mrr_cents | last_seen_at\n----+-------+------+-----------+------\n \
                1 | a@x.io | team | 500 | 2025-01-02\n 2 | b@x.io | free | 0 |\n 3 | c@x.io | team | 900 | 2024-03-04\n(3 rows)\n";
    let qs: Vec<Question> = psql_questions(&lines(psql)).into_iter().flatten().collect();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["3 rows".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "c@x.io".into(), max: true }), "{c:?}");
    // The customer never seen is not the one seen longest ago.
    assert!(c.contains(&&Check::Extreme { id: "c@x.io".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["free".into()], value: "1".into() }), "{c:?}");
}

#[test]
fn journal_and_git_log_answers_come_from_their_lines() {
    let journal = "Dec 31 10:00:01 h checkout-api[1]: level=error msg=\"request done\" request_id=aa method=GET path=/a status=500 duration_ms=900\n\
                   Dec 31 10:00:02 h systemd[1]: checkout-api.service: Scheduled restart job, restart counter is at 1.\n\
                   Dec 31 10:00:03 h checkout-api[2]: level=error msg=\"request done\" request_id=bb method=GET path=/a status=502 duration_ms=40\n\
                   Dec 31 10:00:04 h checkout-worker[3]: level=error msg=\"job failed\" request_id=cc job=refund attempt=1 err=\"boom now\"\n";
    let qs = text_questions("journalctl_units", journal).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "aa".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["cc".into(), "boom now".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Dec 31 10:00:04".into(), "cc".into()])), "{c:?}");
    assert!(
        qs.iter().any(|q| q.text.contains("restart") && matches!(&q.check, Check::Count { value, .. } if value == "1"))
    );

    let log = "commit aaa\nAuthor: Ann Lee <ann@x.io>\nDate:   Wed Dec 31 10:00:00 2025 +0000\n\n    fix: one\n\n \
               a.rs | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n\n\
               commit bbb\nMerge: 111 222\nAuthor: Bo Ng <bo@x.io>\nDate:   Tue Dec 30 10:00:00 2025 +0000\n\n    Merge pull request #1\n\n\
               commit ccc\nAuthor: Ann Lee <ann@x.io>\nDate:   Mon Dec 29 10:00:00 2025 +0000\n\n    feat: two\n\n    body\n\n \
               b.rs | 40 ++++\n c.rs | 2 +-\n 2 files changed, 41 insertions(+), 1 deletion(-)\n";
    let all = commits(&lines(log));
    let seen: Vec<(&str, bool, &str, &str, u64)> =
        all.iter().map(|c| (c.hash, c.merge, c.author, c.subject, c.changed)).collect();
    assert_eq!(
        seen,
        vec![
            ("aaa", false, "Ann Lee", "fix: one", 3),
            ("bbb", true, "Bo Ng", "Merge pull request #1", 0),
            ("ccc", false, "Ann Lee", "feat: two", 42)
        ]
    );
    let qs: Vec<Question> = git_log_questions(&lines(log)).into_iter().flatten().collect();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "ccc".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Ann Lee".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["ccc".into()])), "{c:?}");
}
