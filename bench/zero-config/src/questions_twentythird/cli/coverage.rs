//! The questions asked of a coverage.py report: what a developer asks of it before a
//! release (the coverage, missing lines, statements or partial branches of one file; how
//! many files are fully covered, untested or below half; which file misses most, is
//! largest, has most partial branches; which app misses most; the first files at the top,
//! the `TOTAL` row and the last files at the bottom).

use std::collections::BTreeMap;

use serde_json::Value;

use super::readers::{coverage, num};
use super::{about_record, before_last, lookup};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, only, scored_by, together};

/// The app a file belongs to: `app/billing` for `app/billing/services/invoices.py`, the
/// top directory for files outside `app/`.
fn app_of(name: &str) -> &str {
    let mut cut = name.match_indices('/').map(|(i, _)| i);
    let first = cut.next();
    match (name.starts_with("app/"), first, cut.next()) {
        (true, _, Some(second)) => &name[..second],
        (false, Some(first), _) => &name[..first],
        _ => name,
    }
}

/// Every question about the report `t`.
pub(crate) fn coverage_questions(t: &str) -> Vec<Option<Question>> {
    let (files, total) = coverage(t);
    let mut qs = lookups(&files);
    qs.extend(aggregates(&files));
    qs.extend(heads_and_tails(t, &files, total.as_ref()));
    qs
}

/// One file's coverage, missing lines, statements, misses, branches, partial branches.
fn lookups(files: &[Value]) -> Vec<Option<Question>> {
    let missing = only(files, |x| x["missing"] != "");
    let partial = only(files, |x| num(x, "brpart").is_some_and(|n| n > 0.0));
    let billing = only(files, |x| x["name"].as_str().is_some_and(|n| n.starts_with("app/billing/")));
    let branching = only(files, |x| num(x, "branch").is_some_and(|n| n > 0.0));
    let measured = only(files, |x| num(x, "stmts").is_some_and(|n| n > 0.0));
    // Files missing ten statements or more: a count that reads as itself in the row.
    let missing_many = only(&missing, |x| num(x, "miss").is_some_and(|n| n >= 10.0));
    vec![
        lookup(&measured, 0.1, "What is the coverage of {key}?", "name", &["cover"]),
        lookup(&missing, 0.3, "What is the coverage of {key}?", "name", &["cover"]),
        lookup(&missing, 0.5, "Which lines of {key} are not covered?", "name", &["missing"]),
        lookup(files, 0.7, "How many statements does {key} have?", "name", &["stmts"]),
        lookup(&missing_many, 0.9, "How many statements of {key} are missed?", "name", &["miss"]),
        lookup(&partial, 0.6, "How many partially covered branches does {key} have?", "name", &["brpart"]),
        lookup(&branching, 0.4, "How many branches does {key} have?", "name", &["branch"]),
        lookup(
            &missing,
            0.8,
            "What is the coverage of {key}, and which lines are missing?",
            "name",
            &["cover", "missing"],
        ),
        lookup(&billing, 0.5, "What is the coverage of {key}?", "name", &["cover"]),
        lookup(
            &missing,
            0.2,
            "How many statements does {key} have, and how many are missed?",
            "name",
            &["stmts", "miss"],
        ),
    ]
}

/// How many files are fully covered, untested, below half, listed, in billing, with
/// partial branches; which file misses most, is largest, has most branches or partial
/// ones, covers least of a large module; which app misses most.
fn aggregates(files: &[Value]) -> Vec<Option<Question>> {
    let with = |keep: &dyn Fn(&Value) -> bool| files.iter().filter(|x| keep(x)).count();
    let cover = |x: &Value| num(x, "cover").unwrap_or(0.0);
    let full = with(&|x| x["cover"] == "100%");
    let none = with(&|x| x["cover"] == "0%");
    let below_half = with(&|x| cover(x) < 50.0);
    let billing = with(&|x| x["name"].as_str().is_some_and(|n| n.starts_with("app/billing/")));
    let partial = with(&|x| num(x, "brpart").is_some_and(|n| n > 0.0));
    let migrations = with(&|x| x["name"].as_str().is_some_and(|n| n.contains("/migrations/")));
    let empty = with(&|x| x["stmts"] == "0");
    let large = only(files, |x| num(x, "stmts").is_some_and(|n| n >= 100.0));
    let billing_files = only(files, |x| x["name"].as_str().is_some_and(|n| n.starts_with("app/billing/")));
    // Per app: statements missed, statements in all.
    let mut by_app: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for x in files {
        if let Some(name) = x["name"].as_str() {
            let app = by_app.entry(app_of(name)).or_default();
            app.0 += num(x, "miss").unwrap_or(0.0);
            app.1 += num(x, "stmts").unwrap_or(0.0);
        }
    }
    let missed_by_app: Vec<(f64, String)> = by_app.iter().map(|(a, m)| (m.0, (*a).to_owned())).collect();
    let size_by_app: Vec<(f64, String)> = by_app.iter().map(|(a, m)| (m.1, (*a).to_owned())).collect();
    let apps = files.iter().filter_map(|x| x["name"].as_str()).map(app_of);
    vec![
        Some(count("How many files are fully covered (100%)?", &["100%"], full, Some("Cover"))),
        Some(count("How many files have no coverage at all (0%)?", &["0%"], none, Some("Cover"))),
        Some(count("How many files are covered less than 50%?", &["50%", "below half"], below_half, Some("Cover"))),
        Some(count("How many files does the report list?", &["files"], files.len(), Some("Name"))),
        Some(count("How many files are under app/billing/?", &["app/billing"], billing, Some("Name"))),
        Some(count("How many files have partially covered branches?", &["BrPart", "partial"], partial, Some("BrPart"))),
        Some(count("How many migration files does the report list?", &["migrations"], migrations, Some("Name"))),
        Some(count(
            "How many files have no statements?",
            &["0 statements", "empty", "no statements"],
            empty,
            Some("Stmts"),
        )),
        extreme(
            "Which file has the most missed statements?",
            scored_by(files, |x| num(x, "miss"), "name"),
            true,
            Some("Miss"),
        ),
        extreme(
            "Which file has the most statements?",
            scored_by(files, |x| num(x, "stmts"), "name"),
            true,
            Some("Stmts"),
        ),
        extreme(
            "Which file has the most branches?",
            scored_by(files, |x| num(x, "branch"), "name"),
            true,
            Some("Branch"),
        ),
        extreme(
            "Which file has the most partially covered branches?",
            scored_by(files, |x| num(x, "brpart"), "name"),
            true,
            Some("BrPart"),
        ),
        extreme(
            "Which file of at least 100 statements has the lowest coverage?",
            scored_by(&large, |x| num(x, "cover"), "name"),
            false,
            Some("Cover"),
        ),
        extreme(
            "Which file under app/billing/ has the most missed statements?",
            scored_by(&billing_files, |x| num(x, "miss"), "name"),
            true,
            Some("Miss"),
        ),
        extreme("Which app has the most missed statements in all?", missed_by_app, true, Some("Miss")),
        extreme("Which app has the most statements in all?", size_by_app, true, Some("Stmts")),
        extreme("Which app has the most files?", most_frequent(apps), true, Some("Name")),
    ]
}

/// The header and the first files at the top; `TOTAL` and the last files at the bottom.
fn heads_and_tails(t: &str, files: &[Value], total: Option<&Value>) -> Vec<Option<Question>> {
    let header: Vec<&str> = t.lines().next().map(|l| l.split_whitespace().collect()).unwrap_or_default();
    let (first, last) = (files.first(), files.last());
    vec![
        (!header.is_empty()).then(|| together(Kind::Head, "Which columns does the report have?".into(), None, &header)),
        about_record(first, Kind::Head, "Which file is listed first, and what is its coverage?", &["name", "cover"]),
        about_record(first, Kind::Head, "How many statements does the first file listed have?", &["name", "stmts"]),
        about_record(
            files.get(1),
            Kind::Head,
            "Which file is listed second, and what is its coverage?",
            &["name", "cover"],
        ),
        about_record(files.get(2), Kind::Head, "Which file is listed third?", &["name"]),
        about_record(
            files.get(3),
            Kind::Head,
            "How many statements does the fourth file listed have?",
            &["name", "stmts"],
        ),
        about_record(total, Kind::Tail, "What is the total coverage?", &["name", "cover"]),
        about_record(
            total,
            Kind::Tail,
            "How many statements are there in all, and how many are missed?",
            &["name", "stmts", "miss"],
        ),
        about_record(
            total,
            Kind::Tail,
            "How many branches are there in all, and how many are partial?",
            &["name", "branch", "brpart"],
        ),
        about_record(last, Kind::Tail, "Which file is listed last, and what is its coverage?", &["name", "cover"]),
        about_record(before_last(files), Kind::Tail, "Which file is listed second to last?", &["name", "cover"]),
        about_record(last, Kind::Tail, "How many statements does the last file listed have?", &["name", "stmts"]),
    ]
}
