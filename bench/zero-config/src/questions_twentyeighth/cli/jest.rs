//! The questions asked of `jest --json`: what a developer reading a CI run asks (a test's
//! status and duration, why a failing test failed, a test file's status and when it ran;
//! how many tests failed, were skipped or left todo, how many test files failed or a
//! package has, the slowest test and test file, the file with the most tests; the run's
//! counts at the top, the first files and tests, the last files and tests).

use serde_json::{Value, json};

use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, only, scored_by, together};
use crate::record_questions::{about_record, lookup};

/// The package a test file belongs to: the folder after `packages/`.
pub(crate) fn package_of(file: &str) -> Option<&str> {
    file.split("/packages/").nth(1)?.split('/').next()
}

/// Every test of every file, in order, with `file` (the file's name) and `reason` (the
/// first line of its first failure message) added.
pub(crate) fn tests(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for file in v["testResults"].as_array().into_iter().flatten() {
        for t in file["assertionResults"].as_array().into_iter().flatten() {
            let mut x = t.clone();
            x["file"] = file["name"].clone();
            if let Some(first) = t["failureMessages"][0].as_str() {
                x["reason"] = json!(first.lines().next().unwrap_or_default());
            }
            out.push(x);
        }
    }
    out
}

/// Every test file with `took` (milliseconds from start to end), `tests` (how many) and
/// `package` added.
pub(crate) fn files(v: &Value) -> Vec<Value> {
    v["testResults"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            let mut x = f.clone();
            let took = f["endTime"].as_i64().zip(f["startTime"].as_i64()).map(|(e, s)| e - s);
            x["took"] = json!(took);
            x["tests"] = json!(f["assertionResults"].as_array().map_or(0, Vec::len));
            x["package"] = json!(f["name"].as_str().and_then(package_of));
            x
        })
        .collect()
}

/// Every question about the output `v`.
pub(crate) fn jest_questions(v: &Value) -> Vec<Option<Question>> {
    let all_tests = tests(v);
    let all_files = files(v);
    let mut qs = lookups(&all_tests, &all_files);
    qs.extend(aggregates(&all_tests, &all_files));
    qs.extend(heads_and_tails(v, &all_tests, &all_files));
    qs
}

/// A test's status, duration and failure; a file's status and times.
fn lookups(all: &[Value], files: &[Value]) -> Vec<Option<Question>> {
    let timed = only(all, |t| t["duration"].is_number());
    let failed = only(all, |t| t["status"] == "failed");
    let status_q = "What is the status of the test \"{key}\"?";
    let took_q = "How long did the test \"{key}\" take, in milliseconds?";
    vec![
        lookup(all, 0.2, status_q, "fullName", &["status"]),
        lookup(all, 0.5, status_q, "fullName", &["status"]),
        lookup(all, 0.8, status_q, "fullName", &["status"]),
        lookup(&timed, 0.35, took_q, "fullName", &["duration"]),
        lookup(&timed, 0.7, took_q, "fullName", &["duration"]),
        lookup(&failed, 0.0, "Why did the test \"{key}\" fail?", "fullName", &["reason"]),
        lookup(&failed, 0.6, "Why did the test \"{key}\" fail?", "fullName", &["reason"]),
        lookup(files, 0.3, "Did the test file {key} pass or fail?", "name", &["status"]),
        lookup(
            files,
            0.65,
            "When did the test file {key} start and end (epoch milliseconds)?",
            "name",
            &["startTime", "endTime"],
        ),
        lookup(files, 0.9, "Did the test file {key} pass or fail?", "name", &["status"]),
    ]
}

/// How many tests or files are in a state; the slowest and the largest.
fn aggregates(all: &[Value], files: &[Value]) -> Vec<Option<Question>> {
    let n = |status: &str| all.iter().filter(|t| t["status"] == status).count();
    let packages = most_frequent(files.iter().filter_map(|f| f["package"].as_str()));
    let top = packages.iter().max().cloned();
    let mut qs = vec![
        Some(count("How many tests failed?", &["failed"], n("failed"), Some("status"))),
        Some(count("How many tests were skipped (pending)?", &["pending"], n("pending"), Some("status"))),
        Some(count("How many tests are marked todo?", &["todo"], n("todo"), Some("status"))),
        Some(count("How many tests passed?", &["passed"], n("passed"), Some("status"))),
        Some(count("How many tests are in the run altogether?", &["tests"], all.len(), Some("status"))),
        Some(count(
            "How many test files failed?",
            &["failed"],
            files.iter().filter(|f| f["status"] == "failed").count(),
            Some("status"),
        )),
        Some(count("How many test files ran?", &["files"], files.len(), Some("name"))),
        extreme(
            "Which test took the longest?",
            scored_by(all, |t| t["duration"].as_u64(), "fullName"),
            true,
            Some("duration"),
        ),
        extreme(
            "Which test file took the longest from start to end?",
            scored_by(files, |f| f["took"].as_i64(), "name"),
            true,
            Some("endTime"),
        ),
        extreme(
            "Which test file has the most tests?",
            scored_by(files, |f| f["tests"].as_u64(), "name"),
            true,
            Some("assertionResults"),
        ),
        extreme("Which package has the most test files?", packages.clone(), true, Some("name")),
    ];
    if let Some((c, package)) = top {
        let text = format!("How many test files does the {package} package have?");
        qs.push(Some(count(&text, &[&package], c, Some("name"))));
    }
    qs
}

/// The run's counts and the first files and tests; the last files and tests.
fn heads_and_tails(v: &Value, all: &[Value], files: &[Value]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (field, text) in [
        ("numTotalTests", "How many tests does jest count in total (numTotalTests)?"),
        ("numFailedTests", "How many failed tests does jest report at the top of the output?"),
        ("numPassedTests", "How many passed tests does jest report at the top of the output?"),
        ("numPendingTests", "How many pending tests does jest report at the top of the output?"),
        ("numTotalTestSuites", "How many test suites does jest count in total?"),
        ("numFailedTestSuites", "How many failed test suites does jest report?"),
        ("numRuntimeErrorTestSuites", "How many test suites failed to run (runtime errors)?"),
        ("startTime", "When did the run start (startTime)?"),
        ("success", "Did the run succeed, per the success flag?"),
    ] {
        let value = v[field].to_string();
        qs.push(Some(together(Kind::Head, text.to_owned(), None, &[field, &value])));
    }
    for (k, ordinal) in ORDINALS.iter().take(3).enumerate() {
        let text = format!("Which test file's result is listed {ordinal}, and did it pass?");
        qs.push(about_record(files.get(k), Kind::Head, &text, &["name", "status"]));
    }
    qs.push(about_record(
        all.first(),
        Kind::Head,
        "What is the first test listed, and its status?",
        &["fullName", "status"],
    ));
    for back in 0..5 {
        let f = files.len().checked_sub(back + 1).and_then(|i| files.get(i));
        let text = format!("Which test file's result is listed {}, and did it pass?", to_last(back));
        qs.push(about_record(f, Kind::Tail, &text, &["name", "status"]));
    }
    for back in 0..4 {
        let t = all.len().checked_sub(back + 1).and_then(|i| all.get(i));
        let text = format!("Which test is listed {}, and what is its status?", to_last(back));
        qs.push(about_record(t, Kind::Tail, &text, &["fullName", "status"]));
    }
    qs
}
