//! The questions asked of the compiler's and the search tool's output: what someone
//! fixing a failed type check asks of `tsc` (where the errors are, which file and code
//! dominate, how many of a kind), and what someone triaging leftover markers asks of
//! `rg` (what one says, who owns the most, which file and directory are fullest).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::readers::{matches, tsc_errors, tsc_table};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, count, extreme, most_frequent, only, s, together};

/// The first or last record of a list, asked for by `fields` together.
pub(super) fn ends(x: Option<&Value>, kind: Kind, q: &str, fields: &[&str]) -> Option<Question> {
    let x = x?;
    let values: Vec<String> = fields.iter().map(|f| s(x, f)).collect::<Option<_>>()?;
    let must: Vec<&str> = values.iter().map(String::as_str).collect();
    Some(together(kind, q.into(), None, &must))
}

/// The string at `f` of a record, for picking one field of every record.
pub(super) fn field(f: &'static str) -> impl Fn(&Value) -> Option<&str> {
    move |x| x[f].as_str()
}

/// How many different values `field` takes over `list`.
pub(super) fn distinct(list: &[Value], field: &str) -> usize {
    let mut seen: Vec<&str> = list.iter().filter_map(|x| x[field].as_str()).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

/// `tsc --noEmit`: the first and last error (location and code) and the last file of the
/// summary table; the code, and the message, of an error at a location; a file's error
/// count and first error from the table; how many errors and files there are, how many
/// errors have a code, say a value is possibly undefined or are unresolved imports; the
/// file, code, directory and test file with the most errors.
pub(crate) fn tsc_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let errors = tsc_errors(ls);
    let table = tsc_table(ls);
    let r = Records { list: &errors };
    let files = Records { list: &table };
    let possibly = errors.iter().filter(|x| x["message"].as_str().is_some_and(|m| m.contains("possibly 'undefined'")));
    let unresolved = errors.iter().filter(|x| x["code"] == "TS2307").count();
    let directory = |x: &Value| x["file"].as_str().and_then(|f| f.rsplit_once('/')).map(|(d, _)| d.to_owned());
    let directories: Vec<String> = errors.iter().filter_map(directory).collect();
    let tests = only(&errors, |x| x["file"].as_str().is_some_and(|f| f.contains(".test.")));
    vec![
        ends(
            errors.first(),
            Kind::Head,
            "Where is the first error reported, and what is its code?",
            &["location", "code"],
        ),
        ends(
            errors.last(),
            Kind::Tail,
            "Where is the last error reported, and what is its code?",
            &["location", "code"],
        ),
        table.last().and_then(|x| {
            let (first, n) = (s(x, "first")?, x["count"].as_u64()?.to_string());
            Some(together(
                Kind::Tail,
                "Which file is listed last in the summary table, and how many errors does it have?".into(),
                None,
                &[&first, &n],
            ))
        }),
        r.lookup("Which error code does tsc report at {key}?", 0.3, "location", "code"),
        r.lookup("Which error code does tsc report at {key}?", 0.6, "location", "code"),
        r.lookup("Which error code does tsc report at {key}?", 0.9, "location", "code"),
        r.lookup("What does the error at {key} say?", 0.45, "location", "message"),
        files.lookup("How many errors does {key} have?", 0.5, "file", "count"),
        files.lookup("Where is the first error in {key}?", 0.8, "file", "first"),
        Some(count("How many errors did tsc report in total?", &["errors"], errors.len(), Some("code"))),
        Some(count("How many files have errors?", &["files"], distinct(&errors, "file"), Some("file"))),
        about("code", r.count("How many {value} errors are there?", "code", None)),
        Some(count(
            "How many errors say a value is possibly 'undefined'?",
            &["possibly 'undefined'", "possibly undefined"],
            possibly.count(),
            Some("message"),
        )),
        Some(count(
            "How many imports could not be resolved (TS2307)?",
            &["TS2307", "Cannot find module"],
            unresolved,
            Some("code"),
        )),
        extreme(
            "Which file has the most errors?",
            most_frequent(errors.iter().filter_map(|x| x["file"].as_str())),
            true,
            Some("file"),
        ),
        extreme(
            "Which error code is reported most often?",
            most_frequent(errors.iter().filter_map(|x| x["code"].as_str())),
            true,
            Some("code"),
        ),
        extreme(
            "Which directory has the most errors?",
            most_frequent(directories.iter().map(String::as_str)),
            true,
            Some("file"),
        ),
        extreme(
            "Which test file has the most errors?",
            most_frequent(tests.iter().filter_map(|x| x["file"].as_str())),
            true,
            Some("file"),
        ),
    ]
}

/// Each GitHub issue cited exactly once, with the match citing it, for asking which
/// file cites it.
fn cited_once(ms: &[Value]) -> Vec<Value> {
    let mut by_issue: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for m in ms {
        for i in m["issues"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            by_issue.entry(i).or_default().push(m);
        }
    }
    by_issue
        .into_iter()
        .filter(|(_, ms)| ms.len() == 1)
        .map(|(i, ms)| json!({"issue": i, "path": ms[0]["path"], "at": ms[0]["at"]}))
        .collect()
}

/// `rg -n 'TODO|FIXME|HACK|XXX'`: the first and last match; what a match says, who owns
/// one, which file cites an issue; how many matches and files, how many lines hold
/// FIXME, HACK or XXX, how many TODOs someone owns and how many matches are in Python;
/// the file, directory, extension, owner and issue with the most.
pub(crate) fn rg_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let ms = matches(ls);
    // A match is asked about by what it says when that reads as a sentence, not a
    // minified script.
    let short = only(&ms, |x| x["text"].as_str().is_some_and(|t| t.len() <= 200));
    let said = Records { list: &short };
    let owned = only(&ms, |x| x["owner"].is_string());
    let owners = Records { list: &owned };
    let cited = cited_once(&ms);
    let holding = |marker: &str| ms.iter().filter(|x| x["text"].as_str().is_some_and(|t| t.contains(marker))).count();
    let python = ms.iter().filter(|x| x["extension"] == ".py").count();
    let issues: Vec<&str> =
        ms.iter().flat_map(|x| x["issues"].as_array().into_iter().flatten().filter_map(Value::as_str)).collect();
    vec![
        ends(ms.first(), Kind::Head, "Which file and line is the first match in?", &["at"]),
        ends(ms.last(), Kind::Tail, "Which file and line is the last match in?", &["at"]),
        said.lookup("What does the line at {key} say?", 0.3, "at", "text"),
        said.lookup("What does the line at {key} say?", 0.6, "at", "text"),
        said.lookup("What does the line at {key} say?", 0.9, "at", "text"),
        owners.lookup("Who owns the TODO at {key}?", 0.45, "at", "owner"),
        Records { list: &cited }.lookup("Which file cites issue {key}?", 0.5, "issue", "path"),
        Some(count("How many matching lines did rg print?", &["matches", "lines"], ms.len(), Some("path"))),
        Some(count("How many files have matches?", &["files"], distinct(&ms, "path"), Some("path"))),
        Some(count("How many matching lines contain FIXME?", &["FIXME"], holding("FIXME"), Some("text"))),
        Some(count("How many matching lines contain HACK?", &["HACK"], holding("HACK"), Some("text"))),
        Some(count("How many matches are in Python files?", &[".py", "Python"], python, Some("path"))),
        about("owner", owners.count("How many TODOs are assigned to {value}?", "owner", None)),
        extreme(
            "Which file has the most matches?",
            most_frequent(ms.iter().filter_map(field("path"))),
            true,
            Some("path"),
        ),
        extreme(
            "Who owns the most TODOs (named in TODO(...))?",
            most_frequent(owned.iter().filter_map(field("owner"))),
            true,
            Some("owner"),
        ),
        extreme(
            "Which directory has the most matches?",
            most_frequent(ms.iter().filter_map(field("directory"))),
            true,
            Some("path"),
        ),
        extreme(
            "Which file extension has the most matches?",
            most_frequent(ms.iter().filter_map(field("extension"))),
            true,
            Some("path"),
        ),
        extreme("Which GitHub issue is cited most often?", most_frequent(issues.into_iter()), true, Some("text")),
    ]
}
