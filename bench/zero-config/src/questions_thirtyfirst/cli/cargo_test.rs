//! The questions asked of `cargo test --workspace`: what someone reading a red CI job asks
//! (did a test pass, why is one ignored, where did a failing one panic, did a doc-test
//! pass, which binary runs an integration test file; how many tests passed, failed or were
//! ignored, how many binaries and targets there were and which failed, which binary ran
//! the most tests or took the longest, how many tests ran past a minute; the build time,
//! the first binary and its first tests; the last doc-tests and the failed targets).

use super::readers::{CargoRun, TestBinary, TestLine, ask, cargo_run, pick_at};
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, together};

/// Every question about the output `t`.
pub(crate) fn cargo_test_questions(t: &str) -> Vec<Option<Question>> {
    let run = cargo_run(t);
    let mut qs = lookups(t, &run);
    qs.extend(aggregates(&run));
    qs.extend(heads(&run));
    qs.extend(tails(&run));
    qs
}

/// The test lines of the binaries `doc` picks out (doc-tests or the others).
fn tests_of(run: &CargoRun, doc: bool) -> Vec<&TestLine> {
    run.binaries.iter().filter(|b| b.doc == doc).flat_map(|b| &b.tests).collect()
}

fn lookups(t: &str, run: &CargoRun) -> Vec<Option<Question>> {
    let tests = tests_of(run, false);
    let docs = tests_of(run, true);
    // A name asked about must name one test only, not be part of a longer name.
    let once = |name: &str| t.matches(name).count() == 1;
    let names: Vec<&str> = tests.iter().map(|x| x.name.as_str()).collect();
    let alone = |name: &str| names.iter().filter(|n| n.contains(name)).count() == 1;
    let mut qs = Vec::new();
    for f in [0.15, 0.4, 0.65, 0.9] {
        qs.push(
            pick_at(&tests, f, |x| once(&x.name))
                .and_then(|x| ask(format!("Did the test {} pass?", x.name), &x.name, &[&x.status])),
        );
    }
    for f in [0.3, 0.7] {
        qs.push(
            pick_at(&tests, f, |x| !x.reason.is_empty() && once(&x.name))
                .and_then(|x| ask(format!("Why is the test {} ignored?", x.name), &x.name, &[&x.reason])),
        );
    }
    let failed: Vec<&TestLine> = tests.iter().copied().filter(|x| !x.panicked_at.is_empty()).collect();
    for f in [0.2, 0.8] {
        qs.push(
            pick_at(&failed, f, |x| alone(&x.name))
                .and_then(|x| ask(format!("Where did the failing test {} panic?", x.name), &x.name, &[&x.panicked_at])),
        );
    }
    for f in [0.3, 0.8] {
        qs.push(
            pick_at(&docs, f, |x| once(&x.name))
                .and_then(|x| ask(format!("Did the doc-test {} pass?", x.name), &x.name, &[&x.status])),
        );
    }
    let files: Vec<&TestBinary> = run.binaries.iter().filter(|b| b.source.contains("/tests/")).collect();
    qs.push(pick_at(&files, 0.5, |_| true).and_then(|b| {
        let text = format!("Which test executable runs {}?", b.source);
        ask(text, &b.source, &[&b.deps])
    }));
    qs
}

fn aggregates(run: &CargoRun) -> Vec<Option<Question>> {
    let sum = |f: fn(&TestBinary) -> usize| run.binaries.iter().map(f).sum::<usize>();
    let binaries: Vec<&TestBinary> = run.binaries.iter().filter(|b| !b.doc).collect();
    let doc_suites = run.binaries.len() - binaries.len();
    let doc_tests: usize = run.binaries.iter().filter(|b| b.doc).map(|b| b.tests.len()).sum();
    let slow: usize = run.binaries.iter().map(|b| b.slow.len()).sum();
    let by = |score: fn(&TestBinary) -> f64| -> Vec<(f64, String)> {
        binaries.iter().map(|b| (score(b), b.deps.clone())).collect()
    };
    vec![
        Some(count("How many tests failed in all?", &["failed"], sum(|b| b.failed), Some("failed"))),
        Some(count("How many tests were ignored in all?", &["ignored"], sum(|b| b.ignored), Some("ignored"))),
        Some(count("How many tests passed in all?", &["passed"], sum(|b| b.passed), Some("passed"))),
        Some(count(
            "How many test binaries did cargo run, not counting doc-tests?",
            &["binaries", "Running"],
            binaries.len(),
            None,
        )),
        Some(count("How many crates had their doc-tests run?", &["Doc-tests", "crates"], doc_suites, None)),
        Some(count("How many doc-tests ran in all?", &["doc-tests", "tests"], doc_tests, None)),
        Some(count("How many targets failed?", &["targets failed", "targets"], run.failed_targets.len(), None)),
        Some(count("How many tests ran for over 60 seconds?", &["over 60 seconds", "tests"], slow, None)),
        Some(count(
            "How many test binaries ran no tests at all?",
            &["running 0 tests", "binaries"],
            run.binaries.iter().filter(|b| b.tests.is_empty()).count(),
            None,
        )),
        extreme("Which test binary ran the most tests?", by(|b| b.tests.len() as f64), true, Some("running")),
        extreme(
            "Which test binary took the longest?",
            by(|b| b.seconds.trim_end_matches('s').parse().unwrap_or(0.0)),
            true,
            Some("finished in"),
        ),
        extreme("Which test binary has the most ignored tests?", by(|b| b.ignored as f64), true, Some("ignored")),
        extreme("Which test binary had the most failures?", by(|b| b.failed as f64), true, Some("failed")),
    ]
}

fn heads(run: &CargoRun) -> Vec<Option<Question>> {
    let head = |text: &str, must: &[&str]| Some(together(Kind::Head, text.to_owned(), None, must));
    let mut qs = Vec::new();
    if !run.build_time.is_empty() {
        qs.push(head("How long did the test build take before the tests ran?", &[&run.build_time]));
    }
    if let Some(c) = run.compiled.first() {
        qs.push(head("Which crate was compiled first?", &[c]));
    }
    if let Some(b) = run.binaries.first() {
        qs.push(head("Which test binary ran first?", &[&b.source, &b.deps]));
        qs.push(head("How many tests did the first binary run?", &[&b.running]));
        for (k, ordinal) in ORDINALS.iter().enumerate().take(6) {
            let Some(x) = b.tests.get(k) else { continue };
            let text = format!("Which test is reported {ordinal}, and did it pass?");
            qs.push(head(&text, &[&x.name, &x.status]));
        }
    }
    qs
}

fn tails(run: &CargoRun) -> Vec<Option<Question>> {
    let tail = |text: &str, must: &[&str]| Some(together(Kind::Tail, text.to_owned(), None, must));
    let mut qs = Vec::new();
    if !run.failed_targets.is_empty() {
        let targets: Vec<&str> = run.failed_targets.iter().map(String::as_str).collect();
        qs.push(tail("Which targets failed, as cargo lists them at the end?", &targets));
    }
    if let Some(b) = run.binaries.last() {
        let suite = if b.doc { format!("Doc-tests {}", b.source) } else { b.source.clone() };
        qs.push(tail("Which crate's doc-tests ran last?", &[&suite]));
        let passed = format!("{} passed", b.passed);
        let took = format!("finished in {}", b.seconds);
        qs.push(tail("How many of the last doc-tests passed, and how long did they take?", &[&passed, &took]));
    }
    let all: Vec<&TestLine> = run.binaries.iter().flat_map(|b| &b.tests).collect();
    for back in 0..7 {
        let Some(x) = all.len().checked_sub(back + 1).and_then(|i| all.get(i)) else { continue };
        let text = format!("Which test is reported {}, and did it pass?", to_last(back));
        qs.push(tail(&text, &[&x.name, &x.status]));
    }
    qs
}
