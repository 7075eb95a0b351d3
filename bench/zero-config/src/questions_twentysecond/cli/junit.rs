//! The questions asked of a JUnit XML report: what someone looking into a red test run
//! asks of it (why one test failed or was skipped, how long a test or suite took, where a
//! test is, which host ran a suite; how many tests failed, erred or were skipped, which
//! suite or test was slowest, which suite failed most and which exception is commonest;
//! the summary and the first suites at the top, the last suites and tests at the bottom).

use std::collections::BTreeMap;

use serde_json::Value;

use super::readers::junit;
use super::{before_last, ends, nth};
use crate::question::{Check, Kind, Question, Records};
use crate::questions_blind::{about, count, extreme, most_frequent, only, scored_by};

/// A number attribute (`time="1.284"`, `tests="12"`) of a record.
fn num(field: &'static str) -> impl Fn(&Value) -> Option<f64> {
    move |x| x[field].as_str()?.parse().ok()
}

/// `q` unless its extreme names a test that several test cases are called.
fn unique_holder(q: Option<Question>, cases: &[Value]) -> Option<Question> {
    let q = q?;
    let Check::Extreme { id, .. } = &q.check else { return Some(q) };
    (cases.iter().filter(|c| c["name"].as_str() == Some(id.as_str())).count() == 1).then_some(q)
}

/// Every question about the report's lines `ls`.
pub(crate) fn junit_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let report = junit(ls);
    let (suites, cases) = (&report.suites, &report.cases);
    let mut qs = lookups(suites, cases);
    qs.extend(aggregates(suites, cases));
    qs.extend(heads_and_tails(&report.root, suites, cases));
    qs
}

/// A test's duration, class and line; why a failed, erring or skipped test ended so; a
/// suite's size, duration, host, start and skips.
fn lookups(suites: &[Value], cases: &[Value]) -> Vec<Option<Question>> {
    let failed = only(cases, |c| c["outcome"] == "failed");
    let errored = only(cases, |c| c["outcome"] == "error");
    let skipped = only(cases, |c| c["outcome"] == "skipped");
    let r = Records { list: cases };
    let s = Records { list: suites };
    let skipping = only(suites, |x| x["skipped"].as_str().is_some_and(|n| n != "0"));
    vec![
        r.lookup("How long did the test {key} take?", 0.3, "name", "time"),
        r.lookup("Which test class does {key} belong to?", 0.55, "name", "classname"),
        r.lookup("At which line of its source file is the test {key}?", 0.8, "name", "line"),
        Records { list: &failed }.lookup("Which exception made {key} fail?", 0.5, "name", "type"),
        Records { list: &failed }.lookup("What was the failure message of {key}?", 0.9, "name", "message"),
        Records { list: &errored }.lookup("Which error did {key} end with?", 0.5, "name", "type"),
        Records { list: &skipped }.lookup("Why was {key} skipped?", 0.6, "name", "message"),
        s.lookup("How many tests does the suite {key} have?", 0.4, "name", "tests"),
        s.lookup("How long did the suite {key} take?", 0.75, "name", "time"),
        s.lookup("On which host did the suite {key} run?", 0.6, "name", "hostname"),
        s.lookup("When did the suite {key} start?", 0.9, "name", "timestamp"),
        Records { list: &skipping }.lookup("How many tests were skipped in the suite {key}?", 0.2, "name", "skipped"),
    ]
}

/// How many tests failed, erred, were skipped or were slow; suites per host; the slowest
/// and fastest suite, the largest, the slowest test; where failures and skips gather.
fn aggregates(suites: &[Value], cases: &[Value]) -> Vec<Option<Question>> {
    let failed = only(cases, |c| c["outcome"] == "failed");
    let errored = only(cases, |c| c["outcome"] == "error");
    let skipped = only(cases, |c| c["outcome"] == "skipped");
    let s = Records { list: suites };
    let modules: BTreeMap<&str, &str> =
        suites.iter().filter_map(|x| Some((x["name"].as_str()?, x["module"].as_str()?))).collect();
    let module_of = |c: &Value| c["suite"].as_str().and_then(|n| modules.get(n).copied());
    let broken: Vec<&Value> = failed.iter().chain(&errored).collect();
    let slow = cases.iter().filter(|c| num("time")(c).is_some_and(|t| t > 1.0)).count();
    let asserted =
        failed.iter().filter(|c| c["type"].as_str().is_some_and(|t| t.ends_with(".AssertionFailedError"))).count();
    vec![
        Some(count("How many tests failed?", &["failed", "failures"], failed.len(), Some("failure"))),
        Some(count("How many tests ended in an error?", &["errors", "error"], errored.len(), Some("error"))),
        Some(count("How many tests were skipped?", &["skipped"], skipped.len(), Some("skipped"))),
        Some(count(
            "How many test suites does the report hold?",
            &["suites", "testsuite"],
            suites.len(),
            Some("testsuite"),
        )),
        about("hostname", s.count("How many suites ran on {value}?", "hostname", None)),
        Some(count(
            "How many test cases took longer than one second?",
            &["one second", "1 second", "1s"],
            slow,
            Some("time"),
        )),
        Some(count(
            "How many tests failed with an AssertionFailedError?",
            &["AssertionFailedError"],
            asserted,
            Some("type"),
        )),
        extreme("Which test suite took the longest?", scored_by(suites, num("time"), "name"), true, Some("time")),
        extreme("Which test suite took the least time?", scored_by(suites, num("time"), "name"), false, Some("time")),
        extreme("Which test suite has the most tests?", scored_by(suites, num("tests"), "name"), true, Some("tests")),
        unique_holder(
            extreme("Which test case took the longest?", scored_by(cases, num("time"), "name"), true, Some("time")),
            cases,
        ),
        extreme(
            "Which suite has the most failing tests?",
            most_frequent(failed.iter().filter_map(|c| c["suite"].as_str())),
            true,
            Some("failures"),
        ),
        extreme(
            "Which exception type caused the most failures and errors?",
            most_frequent(broken.iter().filter_map(|c| c["type"].as_str())),
            true,
            Some("type"),
        ),
        extreme(
            "Which module has the most skipped tests?",
            most_frequent(skipped.iter().filter_map(module_of)),
            true,
            Some("skipped"),
        ),
        extreme(
            "Which host ran the most suites?",
            most_frequent(suites.iter().filter_map(|x| x["hostname"].as_str())),
            true,
            Some("hostname"),
        ),
    ]
}

/// The summary of `<testsuites>` and the first suites and test at the top; the last
/// suites and tests at the bottom.
fn heads_and_tails(root: &Value, suites: &[Value], cases: &[Value]) -> Vec<Option<Question>> {
    let root = Some(root);
    let (first, last) = (suites.first(), suites.last());
    vec![
        ends(root, Kind::Head, "How many tests does the report count in all, per its summary?", &["tests"]),
        ends(root, Kind::Head, "How many failures and errors does the report's summary give?", &["failures", "errors"]),
        ends(root, Kind::Head, "How many tests were skipped, per the report's summary?", &["skipped"]),
        ends(root, Kind::Head, "How long did the whole run take, per the report's summary?", &["time"]),
        ends(root, Kind::Head, "When did the run start, per the report's summary?", &["timestamp"]),
        ends(first, Kind::Head, "Which suite comes first in the report?", &["name"]),
        ends(first, Kind::Head, "How many tests does the first suite have?", &["name", "tests"]),
        ends(first, Kind::Head, "On which host did the first suite run?", &["name", "hostname"]),
        ends(first, Kind::Head, "When did the first suite start?", &["name", "timestamp"]),
        ends(
            cases.first(),
            Kind::Head,
            "Which test case comes first in the report, and how long did it take?",
            &["name", "time"],
        ),
        ends(nth(suites, 1), Kind::Head, "Which suite comes second in the report?", &["name"]),
        ends(last, Kind::Tail, "Which suite comes last in the report?", &["name"]),
        ends(last, Kind::Tail, "How many tests does the last suite have?", &["name", "tests"]),
        ends(last, Kind::Tail, "How long did the last suite take?", &["name", "time"]),
        ends(last, Kind::Tail, "On which host did the last suite run?", &["name", "hostname"]),
        ends(last, Kind::Tail, "When did the last suite start?", &["name", "timestamp"]),
        ends(last, Kind::Tail, "How many tests failed in the last suite?", &["name", "failures"]),
        ends(cases.last(), Kind::Tail, "Which test case is the last in the report?", &["name"]),
        ends(cases.last(), Kind::Tail, "How long did the last test case in the report take?", &["name", "time"]),
        ends(before_last(suites), Kind::Tail, "Which suite comes second to last?", &["name"]),
        ends(before_last(cases), Kind::Tail, "Which test case comes second to last?", &["name"]),
    ]
}
