//! Tests of the thirteenth part's questions: every shape asked every kind, at least nine
//! questions each, every answer found in the raw result, the JSON answers computed from
//! the records, and the readers of kernel logs, blames, builds and certificate lists
//! computing their answers from the lines.

use toolshape_fixtures::apis::Split;

use serde_json::json;

use super::readers::{blame_rows, cargo_output, certificates, dmesg_lines};
use super::*;
use crate::question::Check;
use crate::questions::tests::checks;

#[test]
fn the_thirteenth_part_asks_at_least_nine_questions_of_every_shape_and_kind() {
    crate::questions::tests::asks_nine_of_every_shape(Split::Thirteenth, &[1, 2, 5]);
}

#[test]
fn every_answer_is_in_the_raw_result() {
    crate::questions::tests::answers_are_in_the_raw_result(Split::Thirteenth);
}

#[test]
fn json_answers_come_from_the_records() {
    let card = |name: &str, due: Option<&str>, done: bool, comments: u64, active: &str, members: &[&str]| {
        json!({"name": name, "due": due, "dueComplete": done, "badges": {"comments": comments}, "dateLastActivity": active,
               "labels": [], "shortUrl": format!("https://trello.com/c/{}", name.len()),
               "members": members.iter().map(|m| json!({"fullName": m})).collect::<Vec<_>>()})
    };
    let v = json!([
        card("Fix footer links", Some("2026-01-09T17:00:00.000Z"), false, 2, "2025-12-30T10:00:00.000Z", &["Ada Berg"]),
        card("Audit 404 page", Some("2026-01-05T12:00:00.000Z"), false, 9, "2025-12-01T10:00:00.000Z", &[]),
        card(
            "Add wishlist sharing",
            Some("2025-11-05T12:00:00.000Z"),
            true,
            1,
            "2025-12-31T09:00:00.000Z",
            &["Ada Berg"]
        ),
    ]);
    let qs = json_questions("trello_cards", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["Fix footer links".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Audit 404 page".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Add wishlist sharing".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Audit 404 page".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["dueComplete".into()], value: "1".into() }), "{c:?}");

    let person = |name: &str, join: &str, leave: &str, duration: i64, status: &str| {
        json!({"name": name, "user_email": format!("{}@northwind.example", name.to_lowercase().replace(' ', ".")),
               "join_time": join, "leave_time": leave, "duration": duration, "status": status})
    };
    let v = json!({"participants": [
        person("Ada Berg", "2025-12-27T15:58:00Z", "2025-12-27T17:00:00Z", 3720, "in_meeting"),
        person("Kofi Li", "2025-12-27T16:01:00Z", "2025-12-27T16:10:00Z", 540, "in_meeting"),
        person("Mei Xu", "2025-12-27T16:02:00Z", "2025-12-27T16:03:00Z", 60, "in_waiting_room"),
        person("Mei Xu", "2025-12-27T16:03:00Z", "2025-12-27T16:50:00Z", 2820, "in_meeting"),
        person("Kofi Li", "2025-12-27T16:12:00Z", "2025-12-27T16:20:00Z", 480, "in_meeting"),
    ]});
    let qs = json_questions("zoom_participants", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "Ada Berg".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Kofi Li".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["rejoined".into(), "rejoins".into()], value: "1".into() }));
    assert!(
        c.contains(&&Check::Count { labels: vec!["in_waiting_room".into(), "waiting room".into()], value: "1".into() })
    );

    let droplet = |name: &str, ip: &str, price: u64, created: &str, status: &str| {
        json!({"name": name, "status": status, "created_at": created, "size_slug": "s-2vcpu-4gb", "volume_ids": [],
               "size": {"price_monthly": price}, "region": {"slug": "fra1"}, "tags": ["web"],
               "networks": {"v4": [{"ip_address": "10.110.0.2", "type": "private"}, {"ip_address": ip, "type": "public"}]}})
    };
    let v = json!({"droplets": [
        droplet("legacy-ftp", "164.90.1.2", 6, "2022-01-01T00:00:00Z", "off"),
        droplet("pg-main-01", "164.90.1.3", 336, "2024-01-01T00:00:00Z", "active"),
        droplet("web-fra1-01", "164.90.1.4", 24, "2025-01-01T00:00:00Z", "active"),
    ]});
    let qs = json_questions("digitalocean_droplets", &v).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["legacy-ftp".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["pg-main-01".into(), "164.90.1.3".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "pg-main-01".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "web-fra1-01".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["off".into()], value: "1".into() }), "{c:?}");
}

#[test]
fn kernel_logs_and_blames_are_read_by_their_lines() {
    let dmesg = "[Sat Dec 13 05:39:23 2025] Linux version 6.8.0-52-generic (buildd@lcy02-amd64-46) #52-Ubuntu SMP\n\
                 [Sat Dec 13 09:02:52 2025] Memory cgroup out of memory: Killed process 313683 (java) total-vm:12925700kB, anon-rss:4241900kB, file-rss:7487kB\n\
                 [Sat Dec 13 10:02:49 2025] [UFW BLOCK] IN=eno1np0 OUT= SRC=91.203.177.49 DST=203.0.113.140 LEN=52 PROTO=TCP SPT=3464 DPT=23 WINDOW=29200\n\
                 [Sat Dec 13 10:12:49 2025] [UFW BLOCK] IN=eno1np0 OUT= SRC=91.203.177.49 DST=203.0.113.140 LEN=52 PROTO=TCP SPT=3465 DPT=445 WINDOW=29200\n\
                 [Sat Dec 13 10:22:49 2025] [UFW BLOCK] IN=eno1np0 OUT= SRC=45.1.2.3 DST=203.0.113.140 LEN=52 PROTO=TCP SPT=3466 DPT=23 WINDOW=29200\n\
                 [Sat Dec 13 22:38:05 2025] node[2221758]: segfault at 6a ip 00007f021490f0c0 sp 00007ffce0673426 error 15 in node[7f02106da000+4a20000]\n\
                 [Sun Dec 14 02:00:00 2025] Memory cgroup out of memory: Killed process 652576 (node) total-vm:6492272kB, anon-rss:2097424kB, file-rss:32kB\n\
                 [Sun Dec 14 18:31:15 2025] ice 0000:31:00.1 eno2np1: NIC Link is Down\n";
    let rows = dmesg_lines(&lines(dmesg));
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[1]["time"], "Sat Dec 13 09:02:52 2025");
    let qs = text_questions("dmesg_t", dmesg).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["6.8.0-52-generic".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["ice 0000:31:00.1 eno2np1: NIC Link is Down".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "DPT=23".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "91.203.177.49".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "313683".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["SRC=45.1.2.3".into(), "DPT=23".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["Sat Dec 13 22:38:05 2025".into(), "node[".into()])), "{c:?}");

    let blame = "^ec4b355 billing/invoice.py      (Uma Fischer  2021-09-18 20:14:58 +0000 1) \"\"\"Invoices.\"\"\"\n\
                 ^ec4b355 billing/invoice.py      (Uma Fischer  2021-09-18 20:14:58 +0000 2) \n\
                 6e7c661a src/billing/invoices.py (Bjorn Dubois 2022-08-05 18:54:07 +0100 3) def round_tax(invoice: Invoice) -> Decimal:\n\
                 6e7c661a src/billing/invoices.py (Bjorn Dubois 2022-08-05 18:54:07 +0100 4)     total = lookup_tax_rate(invoice, total)\n\
                 8edacaef src/billing/invoices.py (Bjorn Dubois 2024-12-15 05:26:18 +0100 5)     return total\n";
    let rows = blame_rows(&lines(blame));
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[1]["code"], "");
    assert_eq!(rows[3]["code"], "    total = lookup_tax_rate(invoice, total)");
    assert_eq!(rows[2]["author"], "Bjorn Dubois");
    let qs = text_questions("git_blame", blame).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["^ec4b355".into(), "Uma Fischer".into(), "1)".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["8edacaef".into(), "Bjorn Dubois".into(), "5)".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "Bjorn Dubois".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "8edacaef".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["ec4b355".into()], value: "2".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["billing/invoice.py".into()], value: "2".into() }), "{c:?}");
}

#[test]
fn builds_and_certificate_lists_are_read_by_their_diagnostics_and_stanzas() {
    let build = "   Compiling proc-macro2 v1.0.92\n   Compiling ledger-core v0.7.3 (/builds/ledgerd/crates/ledger-core)\n\
                 warning: unused import: `chrono::Utc`\n --> crates/ledger-core/src/lib.rs:4:5\n  |\n4 | use chrono::Utc;\n  |     ^^^^^^^^^^^\n\n\
                 warning: function `warm_cache` is never used\n  --> crates/ledger-core/src/lib.rs:40:15\n   |\n\n\
                 warning: unused import: `uuid::Uuid`\n --> crates/ledger-core/src/pg.rs:2:5\n  |\n\n\
                 warning: `ledger-core` (lib) generated 3 warnings (run `cargo fix --lib -p ledger-core` to apply 2 suggestions)\n\
                 \x20  Compiling ledger-cli v0.7.3 (/builds/ledgerd/crates/ledger-cli)\n\
                 warning: unused import: `std::sync::Arc`\n --> crates/ledger-cli/src/main.rs:3:5\n  |\n\n\
                 error[E0425]: cannot find value `cfg` in this scope\n  --> crates/ledger-cli/src/close.rs:58:35\n   |\n\n\
                 warning: `ledger-cli` (bin \"ledger\") generated 1 warning\n\
                 error: could not compile `ledger-cli` (bin \"ledger\") due to 1 previous error; 1 warning emitted\n";
    let b = cargo_output(&lines(build));
    assert_eq!(b.compiled.len(), 3);
    assert_eq!(b.diagnostics.len(), 5);
    assert_eq!(b.diagnostics[1]["at"], "crates/ledger-core/src/lib.rs:40:15");
    assert_eq!(b.counts[0]["line"], "warning: `ledger-core` (lib) generated 3 warnings");
    let qs = text_questions("cargo_build", build).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Together(vec!["proc-macro2".into(), "v1.0.92".into()])), "{c:?}");
    assert!(c.contains(&&Check::Together(vec!["`ledger-cli`".into(), "1 previous error".into()])), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "ledger-core".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "unused import".into(), max: true }), "{c:?}");
    assert!(
        c.contains(&&Check::Count { labels: vec!["unused import".into(), "unused imports".into()], value: "3".into() })
    );

    let certs = "Found the following certs:\n  Certificate Name: alpen-law.de\n    Serial Number: 3a1f\n    Key Type: RSA\n\
                 \x20   Domains: alpen-law.de www.alpen-law.de shop.alpen-law.de\n    Expiry Date: 2026-03-26 14:07:39+00:00 (VALID: 84 days)\n\
                 \x20 Certificate Name: oak-vet.nl\n    Serial Number: 4b2e\n    Key Type: ECDSA\n    Domains: oak-vet.nl www.oak-vet.nl\n\
                 \x20   Expiry Date: 2025-11-02 10:00:01+00:00 (INVALID: EXPIRED)\n\
                 \x20 Certificate Name: sun-yoga.eu\n    Serial Number: 5c3d\n    Key Type: ECDSA\n    Domains: sun-yoga.eu www.sun-yoga.eu\n\
                 \x20   Expiry Date: 2026-01-09 14:50:43+00:00 (VALID: 8 days)\n\
                 The following renewal configurations were invalid:\n  /etc/letsencrypt/renewal/old.example.conf\n";
    let (list, invalid) = certificates(&lines(certs));
    assert_eq!(list.len(), 3);
    assert_eq!(list[1]["status"], "INVALID: EXPIRED");
    assert_eq!(list[0]["domain_count"], 3);
    assert_eq!(invalid, vec!["/etc/letsencrypt/renewal/old.example.conf".to_owned()]);
    let qs = text_questions("certbot_certificates", certs).unwrap_or_default();
    let c = checks(&qs);
    assert!(c.contains(&&Check::Extreme { id: "sun-yoga.eu".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "alpen-law.de".into(), max: true }), "{c:?}");
    assert!(c.contains(&&Check::Extreme { id: "oak-vet.nl".into(), max: false }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["RSA".into()], value: "1".into() }), "{c:?}");
    assert!(c.contains(&&Check::Count { labels: vec!["EXPIRED".into(), "expired".into()], value: "1".into() }));
}
