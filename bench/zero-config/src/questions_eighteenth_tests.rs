//! Tests of the eighteenth part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, the JSON answers computed from
//! the records (YouTrack's custom fields read by name), and the readers of lsof listings,
//! shortlogs, Caddy's JSON lines and sacct tables computing their answers from the lines.

use toolshape_fixtures::apis::Split;

use serde_json::{Value, json};

use super::readers::{authors, kib, open_files, requests, sacct_rows, seconds};
use super::*;
use crate::question::Check;
use crate::questions::tests::checks;
use crate::questions_blind::lines;

#[test]
fn the_eighteenth_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Eighteenth, &[1, 2, 5]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Eighteenth);
}

#[test]
fn streams_and_issues_are_answered_from_their_records() {
    let stream = |name: &str, game: &str, lang: &str, viewers: u64, started: &str| {
        json!({"user_name": name, "game_name": game, "language": lang, "viewer_count": viewers,
               "started_at": started, "title": format!("{name} live"), "is_mature": name == "Rook"})
    };
    let v = json!({"data": [
        stream("Nova", "Just Chatting", "en", 9_000, "2025-12-31T10:00:00Z"),
        stream("Rook", "Dota 2", "es", 5_000, "2025-12-31T20:00:00Z"),
        stream("Echo", "Dota 2", "es", 4_000, "2025-12-31T08:00:00Z"),
        stream("Tofu", "Minecraft", "de", 3_000, "2025-12-31T12:00:00Z"),
    ]});
    let qs = json_questions("twitch_streams", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Nova".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Tofu".into(), "3000".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["is_mature".into(), "mature".into()], value: "1".into() }));
    assert!(c.contains(&&Check::Extreme { id: "Echo".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Rook".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Dota 2".into(), max: true }), "{c:?}");

    let field = |name: &str, value: Value| json!({"value": value, "name": name, "$type": "X"});
    let issue = |id: &str, state: &str, assignee: Option<&str>, minutes: Option<u64>, comments: u64| {
        json!({"idReadable": id, "summary": format!("{id} summary"), "commentsCount": comments,
        "created": 1_700_000_000_000u64 - comments, "tags": [{"name": "regression"}],
        "customFields": [
            field("State", json!({"name": state})),
            field("Assignee", assignee.map_or(Value::Null, |a| json!({"login": "x", "fullName": a}))),
            field("Estimation", minutes.map_or(Value::Null, |m| json!({"minutes": m, "presentation": format!("{m}m")}))),
            field("Fix versions", json!([{"name": "2026.1"}, {"name": "2026.2"}]))
        ]})
    };
    let list = vec![
        issue("MOB-1", "Open", Some("Anya Novak"), Some(30), 2),
        issue("MOB-7", "Fixed", None, Some(480), 9),
        issue("MOB-3", "Open", Some("Anya Novak"), None, 1),
    ];
    let records = issues(&list);
    assert_eq!(records[0]["Assignee"], "Anya Novak");
    assert_eq!(records[1]["Estimation minutes"], 480);
    assert_eq!(records[0]["Fix versions"], "2026.1, 2026.2");
    let qs = json_questions("youtrack_issues", &Value::Array(list)).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["MOB-3".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Fixed".into()], value: "1".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["unassigned".into(), "Assignee".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "MOB-7".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Anya Novak".into(), max: true }), "{c:?}");
}

#[test]
fn hits_and_activities_are_answered_from_their_records() {
    let hit = |name: &str, brand: &str, price: f64, popularity: u64, free: bool| {
        json!({"name": name, "brand": brand, "price": price, "popularity": popularity, "free_shipping": free,
               "type": "Road running shoes", "rating": 4, "objectID": format!("id-{name}")})
    };
    let v = json!({"hits": [
        hit("Pegasus", "Nike", 129.99, 900, true),
        hit("Ghost", "Brooks", 99.95, 3_000, false),
        hit("Vomero", "Nike", 179.99, 10, true),
    ]});
    let qs = json_questions("algolia_search", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["id-Vomero".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Ghost".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Vomero".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Nike".into(), max: true }), "{c:?}");

    let act = |id: u64, name: &str, kind: &str, distance: f64, watts: Option<f64>, hr: f64| {
        json!({"id": id, "name": name, "type": kind, "sport_type": kind, "distance": distance,
               "average_watts": watts, "average_heartrate": hr, "commute": name.starts_with("Commute"),
               "trainer": false, "start_date_local": format!("2025-12-{:02}T07:00:00Z", 30 - id)})
    };
    let v = json!([
        act(1, "Morning Run", "Run", 10_000.0, None, 150.5),
        act(2, "Commute home", "Ride", 12_000.0, Some(180.0), 120.0),
        act(3, "Long run", "Run", 30_000.0, None, 140.0),
        act(4, "Zwift", "VirtualRide", 25_000.0, Some(230.0), 150.0),
    ]);
    let qs = json_questions("strava_activities", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["2025-12-26T07:00:00Z".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "3".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "4".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "1".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["commute".into(), "commutes".into()], value: "1".into() }));
}

#[test]
fn lsof_listings_and_shortlogs_are_read_by_their_lines() {
    let listing = "COMMAND     PID USER     FD   TYPE DEVICE  SIZE/OFF    NODE NAME\n\
                   systemd       1 root    cwd   DIR  259,2      4096       2 /\n\
                   rsyslogd    906 syslog   7w   REG  259,2  88123456  300123 /var/log/syslog\n\
                   rsyslogd    906 syslog  11w   REG  259,2 167647450  300124 /var/log/syslog.1 (deleted)\n\
                   postgres   1212 postgres 6u  IPv4 317429       0t0     TCP 127.0.0.1:5432 (LISTEN)\n\
                   postgres  30066 postgres 9u  IPv4 317430       0t0     TCP 127.0.0.1:5432->127.0.0.1:41000 (ESTABLISHED)\n\
                   postgres  30066 postgres 10u  REG  259,2 900000000 1355987 /var/lib/postgresql/16/main/base/16401/16562\n";
    let rows = open_files(&lines(listing));
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[2]["NAME"], "/var/log/syslog.1 (deleted)");
    assert_eq!(rows[3]["NAME"], "127.0.0.1:5432 (LISTEN)");
    assert_eq!(rows[5]["SIZE/OFF"], "900000000");
    let qs = text_questions("lsof", listing).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["systemd".into(), "1".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["postgres".into(), "30066".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["ESTABLISHED".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["deleted".into()], value: "1".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Extreme { id: "/var/lib/postgresql/16/main/base/16401/16562".into(), max: true }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "postgres".into(), max: true }), "{c:?}");

    let log = "  4785\tAisha Hartmann <aisha@quokka-project.org>\n   293\tdependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>\n\
               \x20  196\tpre-commit-ci[bot] <66853113+pre-commit-ci[bot]@users.noreply.github.com>\n\
               \x20   40\tJulia Sato <julia.sato@gmail.com>\n     1\tben395 <5416499+ben395@users.noreply.github.com>\n\
               \x20    1\tTim Mills <tim.mills@gmail.com>\n";
    let rows = authors(&lines(log));
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[1]["name"], "dependabot[bot]");
    assert_eq!(rows[3]["domain"], "gmail.com");
    let qs = text_questions("git_shortlog", log).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Aisha Hartmann".into(), "4785".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Tim Mills".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["[bot]".into(), "bots".into()], value: "2".into() }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["one commit".into(), "1 commit".into()], value: "2".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "dependabot[bot]".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Julia Sato".into(), max: true }), "{c:?}");
}

#[test]
fn access_logs_and_sacct_tables_are_read_by_their_lines() {
    let req = |uri: &str, ip: &str, status: u16, duration: f64, size: u64| {
        json!({"level": "info", "ts": 1767225175.1, "request": {"client_ip": ip, "proto": "HTTP/2.0", "method": "GET",
               "host": "www.example.com", "uri": uri, "headers": {"User-Agent": ["curl/8.5.0"]}},
               "duration": duration, "size": size, "status": status})
        .to_string()
    };
    let log = [
        req("/", "203.0.113.5", 200, 0.0012, 22_000),
        req("/api/checkout?cart=c_1", "203.0.113.5", 502, 2.25, 120),
        req("/assets/app.js", "198.51.100.7", 200, 0.003, 358_969),
    ]
    .join("\n");
    let reqs = requests(&lines(&log));
    assert_eq!(reqs.len(), 3);
    assert_eq!(reqs[1]["status"], 502);
    assert_eq!(reqs[2]["user_agent"], "curl/8.5.0");
    let qs = text_questions("caddy_access_log", &log).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["GET".into(), "/".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["198.51.100.7".into(), "/assets/app.js".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["5xx".into(), "error".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "/api/checkout?cart=c_1".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "/assets/app.js".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "203.0.113.5".into(), max: true }), "{c:?}");

    let widths = [15, 12, 8, 9, 20, 8, 10, 10, 13];
    let row = |cells: [&str; 9]| {
        let padded: Vec<String> = cells.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        padded.join(" ")
    };
    let table = [
        row(["JobID", "JobName", "User", "Partition", "State", "ExitCode", "Elapsed", "MaxRSS", "NodeList"]),
        widths.map(|w| "-".repeat(w)).join(" "),
        row(["4860142", "md_nvt", "anakamur", "gpu", "COMPLETED", "0:0", "09:01:35", "", "gpu022"]),
        row(["4860142.batch", "batch", "", "", "COMPLETED", "0:0", "09:01:35", "10143398K", "gpu022"]),
        row(["4860176", "vasp_relax", "axu", "cpu", "CANCELLED by 61775", "0:0", "1-01:27:50", "", "cn094"]),
        row(["4860176.batch", "batch", "", "", "CANCELLED", "0:15", "1-01:27:50", "14.5G", "cn094"]),
        row(["4860177", "blast", "axu", "cpu", "PENDING", "0:0", "00:00:00", "", "None assigned"]),
    ]
    .join("\n");
    let table = table.as_str();
    let rows = sacct_rows(&lines(table));
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[2]["State"], "CANCELLED by 61775");
    assert_eq!(rows[4]["NodeList"], "None assigned");
    assert_eq!(rows[1]["job"], false);
    assert_eq!(seconds(&rows[2]["Elapsed"]), Some(91_670));
    assert_eq!(kib(&rows[3]["MaxRSS"]), Some(14.5 * 1_048_576.0));
    let qs = text_questions("sacct", table).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["4860142".into(), "md_nvt".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["4860177".into(), "PENDING".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["PENDING".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "4860176".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "4860176.batch".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "axu".into(), max: true }), "{c:?}");
}
