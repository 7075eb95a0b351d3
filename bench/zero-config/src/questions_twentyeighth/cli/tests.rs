//! Tests of the cli half's questions: the readers of `rpm -qai` and `docker stats`, the
//! jest and npm walks, and the question builders, on small hand-made outputs; and every
//! shape of the half at several seeds (nine questions of every kind, every answer in the
//! raw result, head answers near the start and tail answers near the end).

use serde_json::json;
use toolshape_fixtures::apis::Split;

use super::readers::{docker_snapshots, rpm_packages, size_bytes};
use super::*;
use crate::half_checks::check_half;
use crate::question::{Check, Question};

/// This half's shapes.
const SHAPES: [&str; 4] = ["jest_json", "npm_outdated_json", "rpm_qai", "docker_stats"];

/// The seeds each shape's questions are checked at.
const SEEDS: [u64; 3] = [1, 2, 5];

#[test]
fn every_shape_of_the_half_asks_nine_questions_of_every_kind_answered_from_the_raw_result() {
    check_half(&SHAPES, Split::TwentyEighth, &SEEDS);
}

/// The check of the question whose text is `text`.
fn check_of(qs: &[Question], text: &str) -> Option<Check> {
    qs.iter().find(|q| q.text == text).map(|q| q.check.clone())
}

const RPM: &str = "Name        : bash
Version     : 5.2.26
Release     : 4.fc41
Architecture: x86_64
Install Date: Tue 14 May 2024 10:21:33 PM UTC
Size        : 8314880
Source RPM  : bash-5.2.26-4.fc41.src.rpm
Build Date  : Wed 17 Jul 2024 12:01:02 AM UTC
Summary     : The GNU Bourne Again shell
Description :
The GNU Bourne Again shell (Bash) is a shell or command language
interpreter that is compatible with the Bourne shell (sh).
Name        : tzdata
Version     : 2024b
Release     : 2.fc41
Architecture: noarch
Install Date: Tue 14 May 2024 10:21:40 PM UTC
Size        : 1730560
Source RPM  : tzdata-2024b-2.fc41.src.rpm
Build Date  : Mon 09 Sep 2024 11:40:00 AM UTC
Summary     : Timezone data
Description :
This package contains data files with rules for various timezones.
Name        : bash-doc
Version     : 5.2.26
Release     : 4.fc41
Architecture: noarch
Install Date: Fri 03 Jan 2025 09:00:00 AM UTC
Size        : 9000000
Source RPM  : bash-5.2.26-4.fc41.src.rpm
Build Date  : Wed 17 Jul 2024 12:01:02 AM UTC
Summary     : Documentation for bash
Description :
This package contains the documentation of bash.
";

#[test]
fn rpm_blocks_are_read_with_their_descriptions_and_times_sort() {
    let all = rpm_packages(RPM);
    assert_eq!(all.len(), 3);
    assert_eq!(all[0]["Install Date"], "Tue 14 May 2024 10:21:33 PM UTC");
    assert_eq!(all[0]["Description"].as_str().map(|d| d.lines().count()), Some(2));
    assert_eq!(all[2]["Name"], "bash-doc");
    assert_eq!(rpm::time_key("Wed 17 Jul 2024 12:01:02 AM UTC"), Some(20_240_717_000_102));
    assert_eq!(rpm::time_key("Tue 14 May 2024 10:21:33 PM UTC"), Some(20_240_514_222_133));
    let qs: Vec<Question> = rpm::rpm_questions(RPM).into_iter().flatten().collect();
    let noarch = check_of(&qs, "How many noarch packages are installed?");
    assert_eq!(noarch, Some(Check::Count { labels: vec!["noarch".into()], value: "2".into() }));
    let newest = check_of(&qs, "Which package was installed most recently?");
    assert_eq!(newest, Some(Check::Extreme { id: "bash-doc".into(), max: true }));
    let built = check_of(&qs, "Which package has the newest build (Build Date)?");
    assert_eq!(built, Some(Check::Extreme { id: "tzdata".into(), max: true }));
    let source = check_of(&qs, "How many installed packages were built from the bash source RPM?");
    assert_eq!(source, Some(Check::Count { labels: vec!["bash".into()], value: "2".into() }));
}

const DOCKER: &str = "Wed Dec 31 10:15:00 UTC 2025
CONTAINER ID   NAME         CPU %     MEM USAGE / LIMIT     MEM %     NET I/O           BLOCK I/O         PIDS
e14d36b86267   shop-api-1   8.53%     143.6MiB / 512MiB     28.04%    2.99GB / 8.73GB   219MB / 4.99GB    17
50d5ee1e8473   shop-db-1    11.36%    1.5GiB / 31.26GiB     4.80%     845MB / 1.64GB    0B / 7.78GB       11
Wed Dec 31 10:16:00 UTC 2025
CONTAINER ID   NAME         CPU %     MEM USAGE / LIMIT     MEM %     NET I/O           BLOCK I/O         PIDS
9a1b2c3d4e5f   ci-job       120.00%   300MiB / 31.26GiB     0.94%     1kB / 0B          0B / 0B           40
e14d36b86267   shop-api-1   2.10%     400MiB / 512MiB       78.13%    3.01GB / 8.80GB   219MB / 5.01GB    18
50d5ee1e8473   shop-db-1    9.00%     1.6GiB / 31.26GiB     5.12%     850MB / 1.70GB    0B / 7.90GB       11
";

#[test]
fn docker_snapshots_are_read_row_by_row_with_their_times() {
    assert_eq!(size_bytes("512MiB"), Some(536_870_912.0));
    assert_eq!(size_bytes("1.23GB"), Some(1.23e9));
    assert_eq!(size_bytes("0B"), Some(0.0));
    let snapshots = docker_snapshots(DOCKER);
    assert_eq!(snapshots.len(), 2);
    assert_eq!(snapshots[1].time, "Wed Dec 31 10:16:00 UTC 2025");
    assert_eq!(snapshots[1].rows.len(), 3);
    assert_eq!(snapshots[0].rows[1]["limit"], "31.26GiB");
    let qs: Vec<Question> = docker::docker_questions(DOCKER).into_iter().flatten().collect();
    let names = check_of(&qs, "How many different containers appear across all snapshots?");
    assert_eq!(names, Some(Check::Count { labels: vec!["containers".into()], value: "3".into() }));
    let cpu = check_of(&qs, "In the first snapshot, which container uses the most CPU?");
    assert_eq!(cpu, Some(Check::Extreme { id: "shop-db-1".into(), max: true }));
    let near = "In the last snapshot, how many containers use more than half of their memory limit (MEM % above 50)?";
    assert_eq!(check_of(&qs, near), Some(Check::Count { labels: vec!["MEM %".into()], value: "1".into() }));
    let unlimited = "In the last snapshot, how many containers run without a memory limit of their own (their limit is the host's memory)?";
    assert_eq!(check_of(&qs, unlimited), Some(Check::Count { labels: vec!["limit".into()], value: "2".into() }));
}

#[test]
fn npm_packages_lift_their_first_entry_and_count_workspaces() {
    let entry = |current: &str, wanted: &str, latest: &str, dependent: &str| {
        json!({"current": current, "wanted": wanted, "latest": latest, "dependent": dependent,
               "location": "/w/node_modules/x", "type": "dependencies"})
    };
    let v = json!({
        "@types/node": entry("20.11.5", "20.11.5", "24.10.1", "@acme/api"),
        "react": [entry("18.3.1", "18.3.1", "19.2.0", "@acme/web"), entry("18.2.0", "18.2.0", "19.2.0", "@acme/admin")],
        "zod": entry("4.0.1", "4.1.12", "4.1.12", "@acme/api"),
    });
    let all = npm::packages(&v);
    assert_eq!(all.len(), 3);
    assert_eq!(all[1]["dependents"], 2);
    assert_eq!(all[1]["current"], "18.3.1");
    assert_eq!(npm::major(&json!("19.2.0")), Some(19));
    let qs: Vec<Question> = npm::npm_questions(&v).into_iter().flatten().collect();
    let majors = check_of(
        &qs,
        "How many outdated packages are a major version behind (latest's major above the installed one)?",
    );
    assert_eq!(majors, Some(Check::Count { labels: vec!["major".into()], value: "2".into() }));
    let shared = check_of(&qs, "Which outdated package is depended on by the most workspaces?");
    assert_eq!(shared, Some(Check::Extreme { id: "react".into(), max: true }));
    let busiest = check_of(&qs, "Which workspace depends on the most outdated packages?");
    assert_eq!(busiest, Some(Check::Extreme { id: "@acme/api".into(), max: true }));
    let behind = check_of(&qs, "Which outdated package is the most major versions behind?");
    assert_eq!(behind, Some(Check::Extreme { id: "@types/node".into(), max: true }));
}

#[test]
fn jest_tests_know_their_file_and_reason() {
    let test = |title: &str, status: &str, duration: Value, failure: &[&str]| {
        json!({"ancestorTitles": ["money"], "title": title, "fullName": format!("money {title}"), "status": status,
               "duration": duration, "failureMessages": failure})
    };
    let v = json!({
        "numTotalTests": 3, "success": false,
        "testResults": [
            {"name": "/w/packages/shared/src/money.test.ts", "status": "failed", "startTime": 1000, "endTime": 1900,
             "assertionResults": [test("rounds", "passed", json!(12), &[]),
                                  test("formats", "failed", json!(30), &["Error: expect(received).toBe(expected)\n    at x"])]},
            {"name": "/w/packages/api/src/orders.test.ts", "status": "passed", "startTime": 1100, "endTime": 1400,
             "assertionResults": [test("lists", "pending", Value::Null, &[])]},
        ],
    });
    assert_eq!(jest::package_of("/w/packages/api/src/orders.test.ts"), Some("api"));
    let all = jest::tests(&v);
    assert_eq!(all.len(), 3);
    assert_eq!(all[1]["reason"], "Error: expect(received).toBe(expected)");
    assert_eq!(all[2]["file"], "/w/packages/api/src/orders.test.ts");
    let qs: Vec<Question> = jest::jest_questions(&v).into_iter().flatten().collect();
    let slowest = check_of(&qs, "Which test file took the longest from start to end?");
    assert_eq!(slowest, Some(Check::Extreme { id: "/w/packages/shared/src/money.test.ts".into(), max: true }));
    let pending = check_of(&qs, "How many tests were skipped (pending)?");
    assert_eq!(pending, Some(Check::Count { labels: vec!["pending".into()], value: "1".into() }));
    let total = check_of(&qs, "How many tests does jest count in total (numTotalTests)?");
    assert_eq!(total, Some(Check::Together(vec!["numTotalTests".into(), "3".into()])));
}
