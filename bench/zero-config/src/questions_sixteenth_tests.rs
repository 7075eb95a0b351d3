//! Tests of the sixteenth part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, the JSON answers computed from
//! the records, and the readers of drive reports, device statistics, proxy counters and
//! auth logs computing their answers from the lines.

use toolshape_fixtures::apis::Split;

use serde_json::json;

use super::readers::{auth_lines, drives, iostat, stat_rows};
use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_sixteenth_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Sixteenth, &[1, 2, 5]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Sixteenth);
}

#[test]
fn board_items_and_transactions_are_answered_from_their_records() {
    let item = |name: &str, owner: &str, status: &str, hours: &str, updated: &str| {
        json!({"id": name.len().to_string(), "name": name, "updated_at": updated, "group": {"id": "g", "title": "Backlog"},
               "column_values": [
                   {"id": "person", "type": "people", "text": owner, "value": null},
                   {"id": "status", "type": "status", "text": status, "value": null},
                   {"id": "priority", "type": "status", "text": "High", "value": null},
                   {"id": "date4", "type": "date", "text": "2026-01-09", "value": null},
                   {"id": "numbers", "type": "numbers", "text": hours, "value": null}]})
    };
    let v = json!({"data": {"boards": [{"items_page": {"items": [
        item("Design footer", "Ada Li", "Stuck", "8", "2025-12-01T10:00:00Z"),
        item("Build gallery", "Ada Li", "Done", "40", "2025-12-03T10:00:00Z"),
        item("QA contact page", "Bo Chen", "Stuck", "", "2025-12-02T10:00:00Z"),
    ]}}]}});
    let qs = json_questions("monday_items", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Design footer".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["QA contact page".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Stuck".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Ada Li".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Build gallery".into(), max: true }), "{c:?}");

    let tx = |id: &str, name: &str, merchant: Value, amount: f64, pending: bool| {
        json!({"amount": amount, "date": "2025-12-30", "merchant_name": merchant, "name": name, "pending": pending,
               "payment_channel": "online", "personal_finance_category": {"primary": "FOOD_AND_DRINK"}, "transaction_id": id})
    };
    let v = json!({"transactions": [
        tx("t1", "STARBUCKS STORE #12", json!("Starbucks"), 5.5, true),
        tx("t2", "REI #88 PORTLAND", json!("REI"), 240.0, false),
        tx("t3", "NORTHWIND LABS PAYROLL", json!("Northwind Labs"), -3200.0, false),
        tx("t4", "STARBUCKS STORE #9", json!("Starbucks"), 7.25, false),
    ]});
    let qs = json_questions("plaid_transactions", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["STARBUCKS STORE #12".into(), "5.5".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["pending".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "REI #88 PORTLAND".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "NORTHWIND LABS PAYROLL".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Starbucks".into(), max: true }), "{c:?}");
}

#[test]
fn wiki_results_and_playlist_items_are_answered_from_their_records() {
    let res = |title: &str, kind: &str, version: u64, by: &str, created: &str, modified: &str| {
        json!({"content": {"id": title.len().to_string(), "type": kind, "title": title, "space": {"name": "Engineering"},
               "history": {"createdBy": {"displayName": by}, "createdDate": created}, "version": {"number": version}},
               "resultGlobalContainer": {"title": "Engineering"}, "lastModified": modified})
    };
    let v = json!({"results": [
        res("Runbook: deploy cart", "page", 3, "Ada Li", "2024-01-01T00:00:00.000Z", "2025-12-01T00:00:00.000Z"),
        res("Cart deploys in May", "blogpost", 1, "Bo Chen", "2023-05-01T00:00:00.000Z", "2023-05-01T00:00:00.000Z"),
        res("How to roll back cart", "page", 12, "Ada Li", "2024-06-01T00:00:00.000Z", "2025-12-20T00:00:00.000Z"),
    ]});
    let qs = json_questions("confluence_search", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Runbook: deploy cart".into()])), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["blogpost".into(), "blog posts".into()], value: "1".into() }),
        "{c:?}"
    );
    assert!(c.contains(&&Check::Extreme { id: "How to roll back cart".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Cart deploys in May".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Ada Li".into(), max: true }), "{c:?}");

    let vid = |title: &str, owner: &str, published: &str, id: &str| {
        json!({"snippet": {"title": title, "channelTitle": "Summit", "position": id.len(), "videoOwnerChannelTitle": owner,
               "resourceId": {"videoId": id}}, "contentDetails": {"videoId": id, "videoPublishedAt": published},
               "status": {"privacyStatus": "public"}})
    };
    let v = json!({"items": [
        vid("Talk A", "Summit", "2024-01-01T00:00:00Z", "aaaaaaaaaaa"),
        vid("Talk B", "Guest TV", "2025-01-01T00:00:00Z", "bbbbbbbbbbb"),
        {"snippet": {"title": "Private video", "channelTitle": "Summit", "resourceId": {"videoId": "ccccccccccc"}},
         "status": {"privacyStatus": "private"}},
        vid("Talk D", "Guest TV", "2023-01-01T00:00:00Z", "ddddddddddd"),
    ]});
    let qs = json_questions("youtube_playlist_items", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Talk A".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["ddddddddddd".into()])), "{c:?}");
    let private = Check::Count { labels: vec!["Private video".into(), "private".into()], value: "1".into() };
    assert!(c.contains(&&private), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Talk B".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Talk D".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Guest TV".into(), max: true }), "{c:?}");
}

#[test]
fn drive_reports_and_device_statistics_are_read_by_their_lines() {
    let attr = |id: u32, name: &str, raw: &str| {
        format!("{id:>3} {name:<23} 0x0032   100   100   000    Old_age   Always       -       {raw}")
    };
    let drive = |dev: &str, serial: &str, health: &str, hours: &str, temp: &str, realloc: &str| {
        [
            format!("##### {dev}"),
            "=== START OF INFORMATION SECTION ===".into(),
            "Model Family:     Seagate Exos X16".into(),
            format!("Serial Number:    {serial}"),
            format!("SMART overall-health self-assessment test result: {health}"),
            attr(5, "Reallocated_Sector_Ct", realloc),
            attr(9, "Power_On_Hours", hours),
            attr(194, "Temperature_Celsius", &format!("{temp} (0 20 0 0 0)")),
        ]
        .join("\n")
    };
    let text = [
        drive("/dev/sda", "ZL2AAAAA", "PASSED", "21001", "33", "0"),
        drive("/dev/sdb", "ZL2BBBBB", "FAILED!", "25002", "41", "2900"),
        "##### /dev/nvme0n1\nModel Number:                       Samsung SSD 980 PRO 1TB\nSerial Number:                      S5GXNF0R123456A\n\
         SMART overall-health self-assessment test result: PASSED\nTemperature:                        39 Celsius\n\
         Power On Hours:                     18,234\n"
            .into(),
    ]
    .join("\n");
    let ds = drives(&lines(&text));
    assert_eq!(ds.len(), 3);
    assert_eq!(ds[1]["health"], "FAILED");
    assert_eq!(ds[1]["realloc"], 2900);
    assert_eq!(ds[2]["hours"], 18_234);
    assert_eq!(ds[2]["temp"], 39);
    let qs = text_questions("smartctl_a", &text).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["ZL2AAAAA".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["S5GXNF0R123456A".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["18,234".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["FAILED".into(), "failed".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "/dev/sdb".into(), max: true }), "{c:?}");

    let report = |time: &str, iowait: &str, sdc: &str| {
        format!(
            "{time}\navg-cpu:  %user   %nice %system %iowait  %steal   %idle\n          10.00    0.00    3.00 {iowait:>7}    0.00   80.00\n\n\
             Device            r/s   w/s w_await   %util\nsda              1.00  5.00    6.10   12.00\nsdc              0.00 90.00   41.00 {sdc:>7}\n\n"
        )
    };
    let text = format!(
        "Linux 6.8.0-51-generic (pg-prod-02) \t12/31/2025 \t_x86_64_\t(32 CPU)\n\n{}{}{}",
        report("12/31/2025 10:00:00 PM", "1.50", "0.30"),
        report("12/31/2025 10:00:05 PM", "9.25", "93.10"),
        report("12/31/2025 10:00:10 PM", "6.00", "71.00")
    );
    let (reports, rows) = iostat(&lines(&text));
    assert_eq!(reports.len(), 3);
    assert_eq!(reports[1]["%iowait"], "9.25");
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[3]["dev"], "sdc");
    assert_eq!(rows[3]["%util"], "93.10");
    assert_eq!(rows[3]["time"], "12/31/2025 10:00:05 PM");
    let qs = text_questions("iostat_x", &text).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["12/31/2025 10:00:00 PM".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["sdc".into(), "71.00".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "12/31/2025 10:00:05 PM".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "sdc".into(), max: true }), "{c:?}");
    let busy = Check::Count { labels: vec!["sdc".into(), "reports".into()], value: "2".into() };
    assert!(c.contains(&&busy), "{c:?}");
}

#[test]
fn proxy_counters_and_auth_logs_are_read_by_their_rows_and_lines() {
    let csv = "# pxname,svname,scur,stot,status,type,rtime,hrsp_5xx,req_tot,addr,last_chk,\n\
               https-in,FRONTEND,900,500000,OPEN,0,,40,1500000,,,\n\
               be_cart,cart-01,12,4000,UP,2,40,1,4000,10.40.1.11:8080,HTTP status check returned code <3C>200<3E>,\n\
               be_cart,cart-02,0,3000,DOWN,2,90,30,3000,10.40.1.12:8080,Connection refused,\n\
               be_cart,BACKEND,12,7000,UP,1,65,31,7000,,,\n\
               be_search,search-01,30,9000,UP,2,400,0,9000,10.40.2.11:8080,HTTP status check returned code <3C>200<3E>,\n\
               be_search,BACKEND,30,9000,UP,1,400,0,9000,,,\n";
    let rows = stat_rows(&lines(csv));
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[2]["status"], "DOWN");
    assert!(rows[0].get("rtime").is_none());
    let qs = text_questions("haproxy_show_stat", csv).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["https-in".into(), "FRONTEND".into(), "500000".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["be_search".into(), "BACKEND".into(), "UP".into()])), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["DOWN".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "be_cart".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "search-01".into(), max: true }), "{c:?}");

    let log = "2025-12-31T21:00:01.000100+00:00 bastion-01 sshd[100]: Invalid user admin from 203.0.113.9 port 50000\n\
               2025-12-31T21:00:04.000100+00:00 bastion-01 sshd[100]: Failed password for invalid user admin from 203.0.113.9 port 50000 ssh2\n\
               2025-12-31T21:00:09.000100+00:00 bastion-01 sshd[104]: Failed password for root from 203.0.113.9 port 50002 ssh2\n\
               2025-12-31T21:01:00.000100+00:00 bastion-01 sshd[120]: Failed password for root from 198.51.100.7 port 40000 ssh2\n\
               2025-12-31T21:02:00.500000+00:00 bastion-01 sshd[130]: Accepted publickey for ali from 10.8.0.4 port 51000 ssh2: ED25519 SHA256:abc\n\
               2025-12-31T21:02:00.540000+00:00 bastion-01 systemd-logind[812]: New session 4100 of user ali.\n\
               2025-12-31T21:03:00.000000+00:00 bastion-01 sudo[140]:      ali : TTY=pts/0 ; PWD=/home/ali ; USER=root ; COMMAND=/usr/bin/docker ps -a\n\
               2025-12-31T21:05:00.000000+00:00 bastion-01 CRON[150]: pam_unix(cron:session): session closed for user root\n";
    let rows = auth_lines(&lines(log));
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[5]["prog"], "systemd-logind");
    assert_eq!(rows[6]["pid"], "140");
    let qs = text_questions("auth_log", log).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["2025-12-31T21:00:01.000100+00:00".into()])), "{c:?}");
    let cmd = Check::Together(vec!["2025-12-31T21:03:00.000000+00:00".into(), "COMMAND=/usr/bin/docker ps -a".into()]);
    assert!(c.contains(&&cmd), "{c:?}");
    let session = Check::Together(vec!["New session 4100".into(), "ali".into()]);
    assert!(c.contains(&&session), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["Failed password".into()], value: "3".into() }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "203.0.113.9".into(), max: true }), "{c:?}");
}
