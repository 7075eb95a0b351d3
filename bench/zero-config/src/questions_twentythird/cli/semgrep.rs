//! The questions asked of Semgrep's JSON report: what someone triaging a scan asks of it
//! (which rule fired at a place, how severe it is, what code it flagged, which CWE it is
//! about; how many findings are errors, warnings or notes, how many a rule made, how many
//! files were scanned or failed to parse; which file, rule, CWE or technology has the
//! most findings; the version and first findings at the top, the last findings and
//! scanned paths at the bottom).

use serde_json::Value;

use super::{about_record, before_last, lookup};
use crate::question::{Kind, Question, Records, text, value, values};
use crate::questions_blind::{about, count, extreme, most_frequent, only, together};

/// A finding with the fields asked about pulled up: `place` (`path:line`), `line`, `cwe`
/// (its first CWE) and `code`, next to the finding's own fields.
fn flat(x: &Value) -> Value {
    let mut f = x.clone();
    let path = value(x, "path").map(text).unwrap_or_default();
    let line = value(x, "start.line").map(text).unwrap_or_default();
    f["place"] = format!("{path}:{line}").into();
    f["line"] = line.into();
    f["severity"] = x["extra"]["severity"].clone();
    f["cwe"] = x["extra"]["metadata"]["cwe"][0].clone();
    f["code"] = x["extra"]["lines"].clone();
    f
}

/// Every question about the report `v`.
pub(crate) fn semgrep_questions(v: &Value) -> Vec<Option<Question>> {
    let results: Vec<Value> = values(v, "results[]").into_iter().map(flat).collect();
    let mut qs = lookups(&results);
    qs.extend(aggregates(v, &results));
    qs.extend(heads_and_tails(v, &results));
    qs
}

/// Which rule fired in a file or at a line, how severe, what code, which CWE.
fn lookups(results: &[Value]) -> Vec<Option<Question>> {
    // A file with one finding is named by its path alone.
    let single = only(results, |x| results.iter().filter(|o| o["path"] == x["path"]).count() == 1);
    let by_path = |f: f64, q: &str, answers: &[&str]| lookup(&single, f, q, "path", answers);
    let mut qs = vec![
        by_path(0.1, "Which rule fired in {key}, and at which line?", &["check_id", "line"]),
        by_path(0.5, "Which rule fired in {key}, and at which line?", &["check_id", "line"]),
        by_path(0.9, "What severity is the finding in {key}?", &["severity", "check_id"]),
    ];
    for (f, q, answers) in [
        (0.2, "Which rule fired at {place}?", &["check_id"][..]),
        (0.35, "What severity is the finding at {place}?", &["check_id", "severity"][..]),
        (0.45, "Which code did Semgrep flag at {place}?", &["code"][..]),
        (0.6, "Which CWE is the finding at {place} about?", &["cwe"][..]),
        (0.7, "Which rule fired at {place}?", &["check_id"][..]),
        (0.8, "Which rule fired at {place}, and how severe is it?", &["check_id", "severity"][..]),
        (0.95, "Which code did Semgrep flag at {place}?", &["code"][..]),
    ] {
        // Asked by path and line; the path is what a reader searches for, and the path,
        // line and answer must be read together in the finding.
        let Some(x) = results.get(crate::questions_blind::at(results.len(), f)) else { continue };
        let (Some(path), Some(line), Some(place)) = (x["path"].as_str(), x["line"].as_str(), x["place"].as_str())
        else {
            continue;
        };
        let mut must = vec![path.to_owned(), line.to_owned()];
        for a in answers {
            must.extend(value(x, a).map(text).filter(|s| !s.is_empty()));
        }
        let must: Vec<&str> = must.iter().map(String::as_str).collect();
        qs.push(Some(together(Kind::Lookup, q.replace("{place}", place), Some(path), &must)));
    }
    qs
}

/// How many findings per severity, of a rule, in the front end, of high confidence,
/// ignored, about SQL injection; how many files were scanned or failed to parse; which
/// file, rule, CWE, technology or Go file has most findings, which file most errors.
fn aggregates(v: &Value, results: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: results };
    let with = |keep: &dyn Fn(&Value) -> bool| results.iter().filter(|x| keep(x)).count();
    let scanned = values(v, "paths.scanned[]").len();
    let errors = values(v, "errors[]").len();
    let severe = |s: &'static str| move |x: &Value| x["severity"] == s;
    let strs = |list: &[Value], field: &str| {
        list.iter().filter_map(|x| value(x, field)?.as_str().map(str::to_owned)).collect::<Vec<_>>()
    };
    let paths = strs(results, "path");
    let rules = strs(results, "check_id");
    let cwes = strs(results, "cwe");
    let error_paths = strs(&only(results, severe("ERROR")), "path");
    let go_paths: Vec<&String> = paths.iter().filter(|p| p.ends_with(".go")).collect();
    let technologies: Vec<String> = results
        .iter()
        .flat_map(|x| values(x, "extra.metadata.technology[]"))
        .filter_map(|t| t.as_str().map(str::to_owned))
        .collect();
    let mut qs = Vec::new();
    for s in ["ERROR", "WARNING", "INFO"] {
        qs.push(Some(count(&format!("How many {s} findings are there?"), &[s], with(&severe(s)), Some("severity"))));
    }
    qs.extend([
        about("check_id", r.count("How many findings did the rule {value} report?", "check_id", None)),
        Some(count("How many files were scanned?", &["scanned"], scanned, Some("scanned"))),
        Some(count("How many errors did the scan report?", &["errors"], errors, Some("errors"))),
        Some(count(
            "How many findings are in the web front end (web/)?",
            &["web/"],
            with(&|x| x["path"].as_str().is_some_and(|p| p.starts_with("web/"))),
            Some("path"),
        )),
        Some(count(
            "How many findings have HIGH confidence?",
            &["HIGH"],
            with(&|x| x["extra"]["metadata"]["confidence"] == "HIGH"),
            Some("confidence"),
        )),
        Some(count(
            "How many findings are marked as ignored?",
            &["is_ignored", "ignored"],
            with(&|x| x["extra"]["is_ignored"] == true),
            Some("is_ignored"),
        )),
        Some(count(
            "How many findings are about SQL injection (CWE-89)?",
            &["CWE-89"],
            with(&|x| x["cwe"].as_str().is_some_and(|c| c.starts_with("CWE-89:"))),
            Some("cwe"),
        )),
        extreme(
            "Which file has the most findings?",
            most_frequent(paths.iter().map(String::as_str)),
            true,
            Some("path"),
        ),
        extreme(
            "Which rule fired most often?",
            most_frequent(rules.iter().map(String::as_str)),
            true,
            Some("check_id"),
        ),
        extreme(
            "Which CWE do the most findings fall under?",
            most_frequent(cwes.iter().map(String::as_str)),
            true,
            Some("cwe"),
        ),
        extreme(
            "Which file has the most ERROR findings?",
            most_frequent(error_paths.iter().map(String::as_str)),
            true,
            Some("path"),
        ),
        extreme(
            "Which Go file has the most findings?",
            most_frequent(go_paths.into_iter().map(String::as_str)),
            true,
            Some("path"),
        ),
        extreme(
            "Which technology do the most findings concern?",
            most_frequent(technologies.iter().map(String::as_str)),
            true,
            Some("technology"),
        ),
    ]);
    qs
}

/// The version and first findings at the top; the last findings, the last error and the
/// last scanned paths at the bottom.
fn heads_and_tails(v: &Value, results: &[Value]) -> Vec<Option<Question>> {
    let (first, last) = (results.first(), results.last());
    let scanned: Vec<Value> =
        values(v, "paths.scanned[]").into_iter().map(|p| serde_json::json!({"path": p})).collect();
    let errors: Vec<Value> = values(v, "errors[]").into_iter().cloned().collect();
    vec![
        value(v, "version")
            .map(text)
            .map(|s| together(Kind::Head, "Which version of Semgrep ran the scan?".into(), None, &[&s])),
        about_record(
            first,
            Kind::Head,
            "Which rule fired first in the report, and in which file?",
            &["check_id", "path"],
        ),
        about_record(first, Kind::Head, "At which line is the first finding?", &["path", "line"]),
        about_record(first, Kind::Head, "How severe is the first finding?", &["path", "severity"]),
        about_record(
            results.get(1),
            Kind::Head,
            "Which rule fired second in the report, and in which file?",
            &["check_id", "path"],
        ),
        about_record(results.get(2), Kind::Head, "Which file is the third finding in?", &["path", "line"]),
        about_record(
            last,
            Kind::Tail,
            "Which rule fired last in the report, and in which file?",
            &["check_id", "path"],
        ),
        about_record(last, Kind::Tail, "At which line is the last finding?", &["path", "line"]),
        about_record(
            before_last(results),
            Kind::Tail,
            "Which rule fired second to last, and in which file?",
            &["check_id", "path"],
        ),
        about_record(errors.last(), Kind::Tail, "Which file does the last error of the scan concern?", &["path"]),
        about_record(scanned.last(), Kind::Tail, "Which path is the last one scanned?", &["path"]),
        about_record(before_last(&scanned), Kind::Tail, "Which path is the second to last one scanned?", &["path"]),
    ]
}
