//! Tests of the cli half's questions: the readers of `go list -m -json` and `ethtool -S`,
//! the cargo metadata and tree walks, and the question builders, on small hand-made
//! outputs; and every shape of the half at several seeds (nine questions of every kind,
//! every answer in the raw result, head answers near the start and tail answers near the
//! end).

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::readers::{ethtool_counters, go_modules};
use super::*;
use crate::half_checks::check_half;
use crate::question::{Check, Question};

/// This half's shapes.
const SHAPES: [&str; 4] = ["cargo_metadata", "tree_json", "go_list_m_json", "ethtool_s"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentySeventh, &SEEDS);
}

/// The check of the question whose text is `text`.
fn check_of(qs: &[Question], text: &str) -> Option<Check> {
    qs.iter().find(|q| q.text == text).map(|q| q.check.clone())
}

const GO_LIST: &str = "{
\t\"Path\": \"github.com/acme/api\",
\t\"Main\": true,
\t\"Dir\": \"/home/dev/src/api\",
\t\"GoMod\": \"/home/dev/src/api/go.mod\",
\t\"GoVersion\": \"1.23.4\"
}
{
\t\"Path\": \"github.com/BurntSushi/toml\",
\t\"Version\": \"v1.4.0\",
\t\"Time\": \"2024-06-02T10:11:12Z\",
\t\"Indirect\": true,
\t\"GoMod\": \"/home/dev/go/pkg/mod/cache/download/github.com/!burnt!sushi/toml/@v/v1.4.0.mod\",
\t\"GoVersion\": \"1.18\"
}
{
\t\"Path\": \"golang.org/x/exp\",
\t\"Version\": \"v0.0.0-20241217172543-b2144cdd0a67\",
\t\"Replace\": {
\t\t\"Path\": \"golang.org/x/exp\",
\t\t\"Version\": \"v0.0.0-20240904232852-e7e105dedf7e\"
\t},
\t\"Time\": \"2024-12-17T17:25:43Z\",
\t\"Dir\": \"/home/dev/go/pkg/mod/golang.org/x/exp@v0.0.0-20240904232852-e7e105dedf7e\",
\t\"GoMod\": \"/home/dev/go/pkg/mod/cache/download/golang.org/x/exp/@v/v0.0.0-20240904232852-e7e105dedf7e.mod\"
}
";

#[test]
fn go_modules_are_read_one_object_after_another() {
    let all = go_modules(GO_LIST);
    assert_eq!(all.len(), 3);
    assert_eq!(all[0]["Main"], true);
    assert_eq!(all[2]["Replace"]["Version"], "v0.0.0-20240904232852-e7e105dedf7e");
    assert!(golist::is_pseudo("v0.0.0-20241217172543-b2144cdd0a67"));
    assert!(golist::is_pseudo("v1.1.2-0.20180830191138-d8f796af33cc"));
    assert!(!golist::is_pseudo("v1.0.0-rc.1"));
    let qs: Vec<Question> = golist::go_list_questions(GO_LIST).into_iter().flatten().collect();
    let newest = check_of(&qs, "Which module's selected version was published most recently?");
    assert_eq!(newest, Some(Check::Extreme { id: "golang.org/x/exp".into(), max: true }));
    let pseudo = check_of(&qs, "How many modules are at a pseudo-version?");
    assert_eq!(pseudo, Some(Check::Count { labels: vec!["pseudo".into()], value: "1".into() }));
    let indirect = check_of(&qs, "How many modules are marked indirect?");
    assert_eq!(indirect, Some(Check::Count { labels: vec!["Indirect".into()], value: "1".into() }));
}

const ETHTOOL: &str = "NIC statistics:
     rx_packets: 1500
     rx_prio0_bytes: 90000
     rx_prio3_bytes: 12000
     ch0_events: 40
     ch1_events: 70
     rx0_packets: 1000
     rx0_buff_alloc_err: 0
     rx1_packets: 500
     rx1_buff_alloc_err: 3
     tx0_bytes: 800
     tx0_stopped: 2
     tx1_bytes: 900
     tx1_stopped: 0
";

#[test]
fn ethtool_counters_are_read_and_queues_told_apart() {
    let all = ethtool_counters(ETHTOOL);
    assert_eq!(all.len(), 13);
    assert_eq!(all[0]["name"], "rx_packets");
    assert_eq!(all[0]["n"], 1500);
    assert_eq!(ethtool::queue_counters(&all, "rx", "packets").len(), 2, "rx_packets is not a queue's");
    let qs: Vec<Question> = ethtool::ethtool_questions(ETHTOOL).into_iter().flatten().collect();
    let most = check_of(&qs, "Which receive queue has received the most packets?");
    assert_eq!(most, Some(Check::Extreme { id: "rx0_packets".into(), max: true }));
    let stopped = check_of(&qs, "How many send queues were stopped at least once (txN_stopped above 0)?");
    assert_eq!(stopped, Some(Check::Count { labels: vec!["stopped".into()], value: "1".into() }));
    let prio = check_of(&qs, "Which priority has received the most bytes?");
    assert_eq!(prio, Some(Check::Extreme { id: "rx_prio0_bytes".into(), max: true }));
    let busiest = check_of(&qs, "Which channel has handled the most events?");
    assert_eq!(busiest, Some(Check::Extreme { id: "ch1_events".into(), max: true }));
}

#[test]
fn cargo_packages_know_their_dependents() {
    let reg = "registry+https://github.com/rust-lang/crates.io-index";
    let id = |n: &str, v: &str| format!("{reg}#{n}@{v}");
    let member = "path+file:///w/crates/core#w-core@0.1.0";
    let pkg = |name: &str, v: &str, source: Value, deps: Value, kind: &str| {
        json!({"name": name, "version": v, "id": if source.is_null() { member.to_owned() } else { id(name, v) },
               "license": "MIT", "source": source, "dependencies": deps, "features": {"default": [], "std": []},
               "targets": [{"kind": [kind]}], "edition": "2021"})
    };
    let v = json!({
        "packages": [
            pkg("serde", "1.0.219", json!(reg), json!([]), "lib"),
            pkg("serde_derive", "1.0.219", json!(reg), json!([]), "proc-macro"),
            pkg("w-core", "0.1.0", Value::Null, json!([{"name": "serde", "source": reg, "req": "^1", "kind": null},
                {"name": "insta", "source": reg, "req": "^1.43", "kind": "dev"}]), "lib"),
        ],
        "resolve": {"nodes": [
            {"id": id("serde", "1.0.219"), "dependencies": [id("serde_derive", "1.0.219")], "features": ["default"]},
            {"id": id("serde_derive", "1.0.219"), "dependencies": [], "features": []},
            {"id": member, "dependencies": [id("serde", "1.0.219")], "features": []},
        ], "root": null},
        "target_directory": "/w/target", "workspace_root": "/w",
    });
    assert_eq!(cargo::id_name(&id("serde_derive", "1.0.219")), "serde_derive");
    let all = cargo::packages(&v);
    assert_eq!(all[0]["dependents"], json!(["w-core"]));
    assert_eq!(all[1]["dependents"], json!(["serde"]));
    assert_eq!(all[2]["dev"], 1);
    let qs: Vec<Question> = cargo::cargo_questions(&v).into_iter().flatten().collect();
    let macros = check_of(&qs, "How many packages are procedural macros?");
    assert_eq!(macros, Some(Check::Count { labels: vec!["proc-macro".into()], value: "1".into() }));
    let dev = check_of(&qs, "How many dev-dependencies does w-core declare?");
    assert_eq!(dev, Some(Check::Count { labels: vec!["dev".into()], value: "1".into() }));
    let last = check_of(&qs, "Where is the workspace root?");
    assert_eq!(last, Some(Check::Together(vec!["/w".into()])));
}

#[test]
fn tree_entries_carry_their_paths_and_times_sort() {
    let file = |name: &str, size: u64, user: &str, time: &str| json!({"type": "file", "name": name, "mode": "0644", "prot": "-rw-r--r--", "user": user, "size": size, "time": time});
    let v = json!([
        {"type": "directory", "name": ".", "user": "maria", "size": 9000, "time": "Dec 30 10:00", "contents": [
            {"type": "directory", "name": "Documents", "user": "maria", "size": 5096, "time": "Dec 30 10:00", "contents": [
                file("a.pdf", 1000, "maria", "Mar  3  2023"), file("b.pdf", 3000, "root", "Dec 30 10:00")]},
            {"type": "directory", "name": "Pictures", "user": "maria", "size": 4896, "time": "Aug  1 09:00", "contents": [
                file("x.png", 800, "maria", "Aug  1 09:00")]},
        ]},
        {"type": "report", "size": 9000, "directories": 2, "files": 3},
    ]);
    let all = tree::entries(&v);
    assert_eq!(all.len(), 5);
    assert_eq!(all[2]["path"], "Documents/b.pdf");
    assert_eq!(all[4]["top"], "Pictures");
    assert!(tree::time_key("Dec 30 10:00", 2025) > tree::time_key("Aug  1 09:00", 2025));
    assert!(tree::time_key("Mar  3  2023", 2025) < tree::time_key("Aug  1 09:00", 2025));
    let qs: Vec<Question> = tree::tree_questions(&v).into_iter().flatten().collect();
    let pdfs = check_of(&qs, "How many PDF files are there?");
    assert_eq!(pdfs, Some(Check::Count { labels: vec!["pdf".into()], value: "2".into() }));
    let largest = check_of(&qs, "Which file is the largest?");
    assert_eq!(largest, Some(Check::Extreme { id: "b.pdf".into(), max: true }));
    let newest = check_of(&qs, "Which file was modified most recently?");
    assert_eq!(newest, Some(Check::Extreme { id: "b.pdf".into(), max: true }));
    let others =
        check_of(&qs, "How many entries (files and folders) belong to someone other than the home folder's owner?");
    assert_eq!(others, Some(Check::Count { labels: vec!["user".into()], value: "1".into() }));
}
