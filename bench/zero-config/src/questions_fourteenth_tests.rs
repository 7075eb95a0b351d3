//! Tests of the fourteenth part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, the JSON answers computed from
//! the records, and the readers of process lists, snapshot lists, system call traces and
//! packet captures computing their answers from the lines.

use toolshape_fixtures::apis::Split;

use serde_json::json;

use super::readers::{packets, processlist, snapshots, strace_lines, zfs_bytes};
use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_fourteenth_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Fourteenth, &[1, 2, 5]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Fourteenth);
}

#[test]
fn alerts_and_releases_are_answered_from_their_records() {
    let alert = |tiny: &str, status: &str, acked: bool, count: u64, ack: Option<u64>, last: &str| {
        let report = match ack {
            Some(t) => json!({"ackTime": t, "acknowledgedBy": "ada.berg@makerly.com"}),
            None => json!({}),
        };
        json!({"tinyId": tiny, "alias": format!("a-{tiny}"), "message": format!("alert {tiny}"), "status": status,
               "acknowledged": acked, "tags": ["env:prod"], "count": count, "lastOccurredAt": last,
               "source": "Datadog", "priority": "P3", "integration": {"name": "Datadog - production"}, "report": report})
    };
    let v = json!({"data": [
        alert("310", "open", false, 4, None, "2025-12-31T20:00:00.000Z"),
        alert("309", "open", true, 900, Some(60_000), "2025-12-31T23:00:00.000Z"),
        alert("308", "closed", true, 2, Some(900_000), "2025-12-30T10:00:00.000Z"),
    ]});
    let qs = json_questions("opsgenie_alerts", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["alert 310".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["308".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["open".into()], value: "2".into() }), "{c:?}");
    let waiting = Check::Count { labels: vec!["unacknowledged".into(), "not acknowledged".into()], value: "1".into() };
    assert!(c.contains(&&waiting), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "309".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "308".into(), max: true }), "{c:?}");

    let release = |version: u64, description: &str, email: &str, status: &str, at: &str| json!({"created_at": at, "description": description, "status": status, "user": {"email": email}, "version": version});
    let v = json!([
        release(1413, "Set LOG_LEVEL, CDN_HOST config vars", "ada@makerly.com", "succeeded", "2025-12-31T20:00:00Z"),
        release(1412, "Deploy f5ba806f", "deploy-bot@makerly.com", "failed", "2025-12-31T16:00:00Z"),
        release(1411, "Rollback to v1409", "ada@makerly.com", "succeeded", "2025-12-31T12:00:00Z"),
        release(1410, "Remove LOG_LEVEL config vars", "ada@makerly.com", "succeeded", "2025-12-31T09:00:00Z"),
        release(1409, "Deploy 522c5be5", "deploy-bot@makerly.com", "failed", "2025-12-31T04:00:00Z"),
    ]);
    let qs = json_questions("heroku_releases", &v).unwrap_or_default();
    let c = checks(&qs);
    let latest = Check::Together(vec!["1413".into(), "Set LOG_LEVEL, CDN_HOST config vars".into()]);
    assert!(c.contains(&&latest), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["1409".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["failed".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Rollback".into(), "rollbacks".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Extreme { id: "ada@makerly.com".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "1412".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "LOG_LEVEL".into(), max: true }), "{c:?}");
}

#[test]
fn emails_and_posts_are_answered_from_their_records() {
    let msg = |to: &str, subject: &str, status: &str, opens: u64| {
        json!({"from_email": "orders@makerly.com", "msg_id": format!("id-{to}"), "subject": subject, "to_email": to,
               "status": status, "opens_count": opens, "clicks_count": 0, "last_event_time": "2025-12-31T23:00:00Z"})
    };
    let v = json!({"messages": [
        msg("ada@gmail.com", "Reset your Makerly password", "delivered", 1),
        msg("bo@yahoo.com", "Your receipt", "not_delivered", 0),
        msg("ada@gmail.com", "Your receipt", "delivered", 12),
        msg("cy@yahoo.com", "Reset your Makerly password", "not_delivered", 0),
        msg("di@gmail.com", "Your receipt", "not_delivered", 0),
    ]});
    let qs = json_questions("sendgrid_messages", &v).unwrap_or_default();
    let c = checks(&qs);
    let failed = Check::Count { labels: vec!["not_delivered".into(), "not delivered".into()], value: "3".into() };
    assert!(c.contains(&&failed), "{c:?}");
    let resets =
        Check::Count { labels: vec!["Reset your Makerly password".into(), "password reset".into()], value: "2".into() };
    assert!(c.contains(&&resets), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "ada@gmail.com".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "yahoo.com".into(), max: true }), "{c:?}");

    let post = |title: &str, author: &str, updated: &str, body: &str| {
        json!({"sys": {"id": format!("id{}", title.len()), "updatedAt": updated, "revision": title.len()},
               "fields": {"title": title, "slug": title.to_lowercase(), "publishDate": "2025-12-01T08:00+01:00",
                          "tags": ["Tips"], "body": body, "author": {"sys": {"id": author}}}})
    };
    let v = json!({"total": 214, "items": [
        post("Packing mugs", "A1", "2025-12-20T10:00:00.000Z", "short"),
        post("Pricing candles well", "A1", "2025-12-30T10:00:00.000Z", "a much longer body than the others"),
        post("Meet the makers", "B2", "2025-12-10T10:00:00.000Z", "medium body"),
    ], "includes": {"Entry": [
        {"sys": {"id": "A1"}, "fields": {"name": "Noor Virtanen"}},
        {"sys": {"id": "B2"}, "fields": {"name": "Kofi Li"}},
    ]}});
    let qs = json_questions("contentful_entries", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Count { labels: vec!["total".into()], value: "214".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Kofi Li".into(), "B2".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Noor Virtanen".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Pricing candles well".into(), max: true }), "{c:?}");
}

#[test]
fn process_lists_and_snapshot_lists_are_read_by_their_rows() {
    let table = "--------------\nSHOW FULL PROCESSLIST\n--------------\n\n\
                 +-----+-----------------+------------------+---------+---------+-------+---------------------------------+-----------------------+\n\
                 | Id  | User            | Host             | db      | Command | Time  | State                           | Info                  |\n\
                 +-----+-----------------+------------------+---------+---------+-------+---------------------------------+-----------------------+\n\
                 |   5 | event_scheduler | localhost        | NULL    | Daemon  | 99999 | Waiting on empty queue          | NULL                  |\n\
                 | 810 | shop_app        | 10.20.4.11:43001 | makerly | Sleep   |     7 |                                 | NULL                  |\n\
                 | 811 | shop_app        | 10.20.4.11:43087 | makerly | Sleep   |    41 |                                 | NULL                  |\n\
                 | 812 | reporting       | 10.20.6.14:52648 | makerly | Query   |  4200 | Sending to client               | SELECT * FROM orders  |\n\
                 | 813 | shop_app        | 10.20.4.11:43090 | makerly | Query   |    12 | Waiting for table metadata lock | SELECT id FROM orders |\n\
                 | 814 | root            | localhost        | NULL    | Query   |     0 | init                            | SHOW FULL PROCESSLIST |\n\
                 +-----+-----------------+------------------+---------+---------+-------+---------------------------------+-----------------------+\n\
                 5 rows in set (0.00 sec)\n\nBye\n";
    let rows = processlist(&lines(table));
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[1]["ip"], "10.20.4.11");
    assert_eq!(rows[1]["State"], "");
    assert_eq!(rows[3]["Time"], 4200);
    let qs = text_questions("mysql_processlist", table).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["5".into(), "event_scheduler".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["814".into(), "root".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "812".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "10.20.4.11".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Sleep".into()], value: "2".into() }), "{c:?}");

    assert_eq!(zfs_bytes("0B"), Some(0.0));
    assert_eq!(zfs_bytes("96K"), Some(98_304.0));
    assert_eq!(zfs_bytes("1.5G"), Some(1_610_612_736.0));
    let list = "NAME                                          USED  AVAIL  REFER  MOUNTPOINT\n\
                tank/home/ada@autosnap_2025-12-01_00:00:04_monthly  1.21G      -  21.9G  -\n\
                tank/home/ada@autosnap_2025-12-31_00:00:05_daily     512M      -  22.4G  -\n\
                tank/home/ada@autosnap_2025-12-31_23:00:02_hourly      0B      -  22.5G  -\n\
                tank/media@autosnap_2025-12-01_00:00:04_monthly      980M      -  2.81T  -\n\
                tank/media@autosnap_2025-12-31_00:00:05_daily        900M      -  2.82T  -\n";
    let rows = snapshots(&lines(list));
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0]["dataset"], "tank/home/ada");
    assert_eq!(rows[2]["kind"], "hourly");
    let qs = text_questions("zfs_list_snapshots", list).unwrap_or_default();
    let c = checks(&qs);
    let first = Check::Together(vec!["tank/home/ada@autosnap_2025-12-01_00:00:04_monthly".into()]);
    assert!(c.contains(&&first), "{c:?}");
    let most = Check::Extreme { id: "tank/home/ada@autosnap_2025-12-01_00:00:04_monthly".into(), max: true };
    assert!(c.contains(&&most), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "tank/media".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["monthly".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["0B".into()], value: "1".into() }), "{c:?}");
}

#[test]
fn traces_and_captures_are_read_by_their_lines() {
    let trace = "14:02:11.957855 execve(\"/srv/app/bin/gunicorn\", [\"gunicorn\"], 0x7ffd /* 24 vars */) = 0 <0.000412>\n\
                 14:02:11.958342 access(\"/etc/ld.so.preload\", R_OK) = -1 ENOENT (No such file or directory) <0.000014>\n\
                 14:02:12.014676 clone(child_stack=NULL, flags=SIGCHLD) = 40094 <0.001096>\n\
                 strace: Process 40094 attached\n\
                 [pid 40088] 14:02:12.016000 openat(AT_FDCWD, \"/etc/hosts\", O_RDONLY|O_CLOEXEC) = 3 <0.000015>\n\
                 [pid 40094] 14:02:12.137651 accept4(5, {sa_family=AF_INET}, [16], SOCK_CLOEXEC) = 15 <0.000045>\n\
                 [pid 40094] 14:02:12.137700 recvfrom(15, \"GET /api/v1/listings/7 HTTP/1.1\\r\\nHost: api\"..., 8192, 0, NULL, NULL) = 652 <0.000045>\n\
                 [pid 40094] 14:02:12.137800 recvfrom(12,  <unfinished ...>\n\
                 [pid 40088] 14:02:12.138000 connect(14, {sa_family=AF_INET}, 16) = -1 ECONNREFUSED (Connection refused) <0.000570>\n\
                 [pid 40094] 14:02:42.789495 <... recvfrom resumed>0x55d4, 16384, 0, NULL, NULL) = ? ERESTARTSYS (To be restarted if SA_RESTART is set) <30.651648>\n\
                 [pid 40094] +++ exited with 1 +++\n\
                 14:02:50.000000 exit_group(0)           = ?\n\
                 +++ exited with 0 +++\n";
    let rows = strace_lines(&lines(trace));
    assert_eq!(rows[0]["pid"], "40088");
    assert_eq!(rows[0]["name"], "execve");
    assert_eq!(rows[1]["ret"], "-1 ENOENT (No such file or directory)");
    assert_eq!(rows[9]["name"], "recvfrom");
    assert_eq!(rows[9]["dur"], 30.651648);
    assert_eq!(rows[11]["ret"], "?");
    let qs = text_questions("strace_f", trace).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["/srv/app/bin/gunicorn".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["+++ exited with 0 +++".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["/etc/hosts".into(), "= 3".into()])), "{c:?}");
    let request = Check::Together(vec!["14:02:12.137700".into(), "GET /api/v1/listings/7 HTTP/1.1".into()]);
    assert!(c.contains(&&request), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "40094".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["ENOENT".into()], value: "1".into() }), "{c:?}");
    let attached = Check::Count { labels: vec!["attached".into(), "processes".into()], value: "1".into() };
    assert!(c.contains(&&attached), "{c:?}");

    let capture = "reading from file /tmp/app-17.pcap, link-type EN10MB (Ethernet), snapshot length 262144\n\
                   2025-12-31 14:31:10.563467 IP 10.20.0.13.42089 > 10.20.4.17.8000: Flags [S], seq 1226, win 62280, length 0\n\
                   2025-12-31 14:31:10.563908 IP 10.20.0.13.42089 > 10.20.4.17.8000: Flags [P.], seq 1:530, ack 1, win 470, length 529\n\
                   2025-12-31 14:31:10.564840 IP 10.20.4.17.52107 > 10.20.2.30.5432: Flags [P.], seq 912:1492, ack 5000, win 484, length 580\n\
                   2025-12-31 14:31:10.887910 IP 10.20.2.42.6379 > 10.20.4.17.58952: Flags [R.], seq 0, ack 2239170706, win 0, length 0\n\
                   2025-12-31 14:31:11.030471 IP 10.20.4.17.55216 > 10.20.0.2.53: 5761+ A? api.stripe.com. (32)\n\
                   2025-12-31 14:31:11.033073 IP 10.20.0.2.53 > 10.20.4.17.55216: 5761 3/0/0 A 54.187.205.235, A 54.187.216.72 (80)\n\
                   2025-12-31 14:31:11.117455 IP 10.20.9.3 > 10.20.4.17: ICMP echo request, id 60825, seq 28934, length 64\n\
                   2025-12-31 14:31:11.164124 IP 10.20.0.13.42089 > 10.20.4.17.8000: Flags [.], ack 1, win 491, length 0\n";
    let rows = packets(&lines(capture));
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[1]["length"], 529);
    assert_eq!(rows[4]["qname"], "api.stripe.com.");
    assert_eq!(rows[5]["answer"], "54.187.205.235");
    assert_eq!(rows[6]["src"], "10.20.9.3");
    let qs = text_questions("tcpdump_nn", capture).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["2025-12-31 14:31:10.563467".into()])), "{c:?}");
    let resolved = Check::Together(vec!["5761 3/0/0".into(), "A 54.187.205.235".into()]);
    assert!(c.contains(&&resolved), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["5761+".into(), "A? api.stripe.com.".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "10.20.0.13".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "10.20.2.30".into(), max: true }), "{c:?}");
    let resets = Check::Count { labels: vec!["RST".into(), "resets".into(), "[R.]".into()], value: "1".into() };
    assert!(c.contains(&&resets), "{c:?}");
}
