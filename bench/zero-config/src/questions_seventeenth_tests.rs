//! Tests of the seventeenth part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, the JSON answers computed from
//! the records, and the readers of release tables, GPU reports, transfer logs and psql
//! tables computing their answers from the lines.

use toolshape_fixtures::apis::Split;

use serde_json::{Value, json};

use super::readers::{gpus, psql_rows, releases, transfers};
use super::*;
use crate::question::Check;
use crate::questions::tests::checks;
use crate::questions_blind::lines;

#[test]
fn the_seventeenth_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Seventeenth, &[1, 2, 5]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Seventeenth);
}

#[test]
fn deploys_and_pull_requests_are_answered_from_their_records() {
    let deploy = |id: &str, state: &str, branch: &str, time: Value, published: Value| {
        json!({"id": id, "state": state, "branch": branch, "deploy_time": time, "published_at": published,
               "title": format!("deploy {id}"), "context": "production", "committer": "ada-li",
               "created_at": "2025-12-30T10:00:00.000Z", "commit_ref": "abc", "error_message": null})
    };
    let v = json!([
        deploy("d1", "building", "main", json!(null), json!(null)),
        deploy("d2", "ready", "staging", json!(300), json!("2025-12-30T09:00:00.000Z")),
        deploy("d3", "error", "staging", json!(40), json!(null)),
        deploy("d4", "ready", "main", json!(90), json!("2025-12-29T09:00:00.000Z")),
    ]);
    let c = json_questions("netlify_deploys", &v).unwrap_or_default();
    let c = checks(&c);
    assert!(c.contains(&&Check::Together(vec!["deploy d1".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["error".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "d2".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "staging".into(), max: true }), "{c:?}");

    let pr = |id: u64, title: &str, state: &str, author: &str, comments: u64, created: &str| {
        json!({"id": id, "title": title, "state": state, "comment_count": comments, "created_on": created,
               "author": {"display_name": author}, "source": {"branch": {"name": "feat/x"}},
               "destination": {"branch": {"name": "main"}}})
    };
    let v = json!({"values": [
        pr(9, "Fix cart", "OPEN", "Ada Li", 3, "2025-12-30T00:00:00.000000+00:00"),
        pr(8, "Add map", "OPEN", "Bo Chen", 12, "2025-12-20T00:00:00.000000+00:00"),
        pr(7, "Speed up search", "MERGED", "Ada Li", 1, "2025-12-10T00:00:00.000000+00:00"),
    ]});
    let qs = json_questions("bitbucket_pull_requests", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["7".into(), "Speed up search".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Add map".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Ada Li".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Add map".into(), max: false }), "{c:?}");
}

#[test]
fn release_tables_and_gpu_reports_are_read_by_their_lines() {
    let table = "NAME          \tNAMESPACE\tREVISION\tUPDATED                       \tSTATUS  \tCHART        \tAPP VERSION\n\
                 cart-api-prod \tshop-prod\t41      \t2025-12-30 10:00:00.1 +0000 UTC\tdeployed\tcart-api-1.2.0\t1.2.0\n\
                 redis-cache   \tshop-prod\t3       \t2025-11-01 10:00:00.1 +0000 UTC\tfailed  \tredis-20.4.0 \t7.4.1\n";
    let rows = releases(&lines(table));
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["STATUS"], "failed");
    assert_eq!(rows[0]["APP VERSION"], "1.2.0");
    let qs = text_questions("helm_list", table).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["cart-api-prod".into(), "shop-prod".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["failed".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "cart-api-prod".into(), max: true }), "{c:?}");

    let gpu = |bus: &str, serial: &str, temp: u32, pid: u32, mem: u32| {
        format!(
            "GPU {bus}\n    Serial Number                         : {serial}\n    Clocks Event Reasons\n        HW Slowdown                       : {}\n\
             \x20   Temperature\n        GPU Current Temp                  : {temp} C\n    Processes\n        Process ID                        : {pid}\n\
             \x20           Used GPU Memory               : {mem} MiB\n",
            if temp > 80 { "Active" } else { "Not Active" }
        )
    };
    let report = format!(
        "Driver Version                            : 550.127.05\n{}{}",
        gpu("00000000:18:00.0", "1323000000001", 61, 100, 70_000),
        gpu("00000000:2A:00.0", "1323000000002", 87, 101, 75_000)
    );
    let gs = gpus(&lines(&report));
    assert_eq!(gs.len(), 2);
    assert_eq!(gs[1]["Temperature/GPU Current Temp"], "87 C");
    assert_eq!(gs[1]["processes"][0]["pid"], "101");
    let qs = text_questions("nvidia_smi_q", &report).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["550.127.05".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["1323000000002".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["HW Slowdown".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "00000000:2A:00.0".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "101".into(), max: true }), "{c:?}");
}

#[test]
fn transfer_logs_and_psql_tables_are_read_by_their_lines() {
    let log = "sending incremental file list\n./\ndeleting old/a.jpg\nphotos/\nphotos/a.NEF\n\
               \x20    24,000,111 100%   80.00MB/s    0:00:00 (xfr#1, to-chk=9/12)\nvideo/b.MP4\n\
               \x20        32,768   0%    0.00kB/s    0:00:00  \r    900,000,222 100%  100.00MB/s    0:00:09 (xfr#2, to-chk=8/12)\n\
               \nNumber of regular files transferred: 2\n\ntotal size is 9,000,000,000  speedup is 9.52\n";
    let fs = transfers(&lines(log));
    assert_eq!(fs.len(), 2);
    assert_eq!(fs[1]["size"], "900,000,222");
    assert_eq!(fs[1]["dir"], "video");
    let qs = text_questions("rsync_progress", log).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["photos/a.NEF".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["9,000,000,000".into(), "9.52".into()])), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["deleted files".into(), "deleting".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "video/b.MP4".into(), max: true }), "{c:?}");

    let table = "  usename  | queryid | calls | mean_ms | hit_pct | temp_blks_written | query\n\
                 -----------+---------+-------+---------+---------+-------------------+------\n\
                 \x20shop_app  |      -7 |   900 |    1.50 |   99.00 |                 0 | SELECT a | b FROM t\n\
                 \x20analyst   |       8 |    12 |  900.00 |   61.00 |              4000 | SELECT count(*) FROM t\n\
                 (2 rows)\n";
    let rows = psql_rows(&lines(table));
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["query"], "SELECT a | b FROM t");
    let qs = text_questions("pg_stat_statements", table).unwrap_or_default();
    let c = checks(&qs);
    assert!(
        c.contains(&&Check::Count { labels: vec!["hit_pct".into(), "below 90".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "-7".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "8".into(), max: true }), "{c:?}");
}
