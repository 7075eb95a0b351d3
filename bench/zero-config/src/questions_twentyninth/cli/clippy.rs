//! The questions asked of `cargo clippy --message-format=json`: what a developer cleaning
//! up a workspace asks (which lint fires at a file and line and what it says, where a
//! message comes from, what clippy suggests, which version of a dependency is built; how
//! many warnings a crate or a lint has, how many errors, which file, lint and crate have
//! the most; the first lines of the output and the last diagnostics and result).

use serde_json::Value;

use super::readers::{cargo_lines, name_version};
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, together};
use crate::record_questions::{end, lookup_by};

/// One diagnostic with a code, as the questions use it.
struct Diagnostic {
    package: String,
    file: String,
    /// `file:line:column`, as the rendered text points at it.
    at: String,
    code: String,
    level: String,
    message: String,
    /// The replacement a suggestion offers, when it offers one.
    replacement: String,
}

/// The package name of a cargo package id.
fn package_name(id: &str) -> String {
    name_version(id).split('@').next().unwrap_or_default().to_owned()
}

fn diagnostics(lines: &[Value]) -> Vec<Diagnostic> {
    lines
        .iter()
        .filter(|l| l["reason"] == "compiler-message")
        .filter_map(|l| {
            let m = &l["message"];
            let code = m["code"]["code"].as_str()?;
            let span = &m["spans"][0];
            let file = span["file_name"].as_str()?;
            let at = format!("{file}:{}:{}", span["line_start"], span["column_start"]);
            let replacement = m["children"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|c| c["spans"].as_array().into_iter().flatten())
                .find_map(|s| s["suggested_replacement"].as_str())
                .unwrap_or_default();
            Some(Diagnostic {
                package: package_name(l["package_id"].as_str()?),
                file: file.to_owned(),
                at,
                code: code.to_owned(),
                level: m["level"].as_str()?.to_owned(),
                message: m["message"].as_str()?.to_owned(),
                replacement: replacement.to_owned(),
            })
        })
        .collect()
}

/// Every question about the output `t`.
pub(crate) fn clippy_questions(t: &str) -> Vec<Option<Question>> {
    let lines = cargo_lines(t);
    let all = diagnostics(&lines);
    let mut qs = lookups(&lines, &all);
    qs.extend(aggregates(&lines, &all));
    qs.extend(heads_and_tails(&lines, &all));
    qs
}

/// A string a raw line holds as it is (no JSON escapes).
fn plain(s: &str) -> bool {
    !s.is_empty() && !s.contains(['"', '\\'])
}

fn lookups(lines: &[Value], all: &[Diagnostic]) -> Vec<Option<Question>> {
    let at_q = "What does clippy report at {key}: which lint, and what is the message?";
    let mut qs: Vec<Option<Question>> = [0.1, 0.3, 0.5, 0.7, 0.9]
        .iter()
        .map(|f| {
            lookup_by(all, *f, at_q, |d| Some(vec![d.at.clone()]), |d| Some(vec![d.code.clone(), d.message.clone()]))
        })
        .collect();
    let unique: Vec<&Diagnostic> = all
        .iter()
        .filter(|d| plain(&d.message) && all.iter().filter(|o| o.message == d.message).count() == 1)
        .collect();
    for f in [0.2, 0.6, 0.85] {
        qs.push(lookup_by(
            &unique,
            f,
            "Which file raises the diagnostic \"{key}\", and which lint is it?",
            |d| Some(vec![d.message.clone()]),
            |d| Some(vec![d.file.clone(), d.code.clone()]),
        ));
    }
    let suggested: Vec<&Diagnostic> = all.iter().filter(|d| plain(&d.replacement)).collect();
    for f in [0.35, 0.75] {
        qs.push(lookup_by(
            &suggested,
            f,
            "What replacement does clippy suggest for the diagnostic at {key}?",
            |d| Some(vec![d.at.clone()]),
            |d| Some(vec![d.replacement.clone()]),
        ));
    }
    // Dependencies built once, by name.
    let deps: Vec<(String, String)> = lines
        .iter()
        .filter(|l| l["reason"] == "compiler-artifact")
        .filter_map(|l| {
            let id = l["package_id"].as_str()?;
            id.starts_with("registry+").then(|| (package_name(id), name_version(id).to_owned()))
        })
        .collect();
    let once: Vec<&(String, String)> =
        deps.iter().filter(|d| deps.iter().filter(|o| o.0 == d.0).count() == 1).collect();
    for f in [0.4, 0.8] {
        qs.push(lookup_by(
            &once,
            f,
            "Which version of the {key} crate does the build use?",
            |d| Some(vec![d.0.clone()]),
            |d| Some(vec![d.1.clone()]),
        ));
    }
    qs
}

fn aggregates(lines: &[Value], all: &[Diagnostic]) -> Vec<Option<Question>> {
    let warnings: Vec<&Diagnostic> = all.iter().filter(|d| d.level == "warning").collect();
    let errors = all.iter().filter(|d| d.level == "error").count();
    let by_package = most_frequent(warnings.iter().map(|d| d.package.as_str()));
    let mut qs = Vec::new();
    let mut ranked = by_package.clone();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for i in [0, ranked.len() / 2, ranked.len().saturating_sub(1)] {
        if let Some((n, package)) = ranked.get(i) {
            let q = format!("How many warnings does clippy report for the {package} crate (all its targets)?");
            qs.push(Some(count(&q, &["warnings", "warning"], *n, Some("package_id"))));
        }
    }
    qs.dedup_by(|a, b| a.as_ref().map(|q| &q.text) == b.as_ref().map(|q| &q.text));
    let mut lints = most_frequent(warnings.iter().map(|d| d.code.as_str()));
    lints.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for i in [1, lints.len() / 2] {
        if let Some((n, code)) = lints.get(i) {
            qs.push(Some(count(&format!("How many times does {code} fire?"), &[code], *n, Some("code"))));
        }
    }
    qs.push(Some(count("How many errors does the run report?", &["errors", "error"], errors, Some("level"))));
    qs.push(Some(count(
        "How many warnings are there in all (not counting the `N warnings emitted` summaries)?",
        &["warnings", "warning"],
        warnings.len(),
        Some("level"),
    )));
    let reason = |r: &str| lines.iter().filter(|l| l["reason"] == r).count();
    qs.push(Some(count(
        "How many compiler-artifact lines does the output hold?",
        &["compiler-artifact", "artifacts"],
        reason("compiler-artifact"),
        Some("reason"),
    )));
    qs.push(Some(count(
        "How many build scripts were run (build-script-executed)?",
        &["build-script-executed", "build scripts"],
        reason("build-script-executed"),
        Some("reason"),
    )));
    qs.push(Some(count(
        "How many artifacts are fresh (reused from an earlier build)?",
        &["fresh"],
        lines.iter().filter(|l| l["fresh"] == true).count(),
        Some("fresh"),
    )));
    qs.push(extreme(
        "Which file has the most warnings?",
        most_frequent(warnings.iter().map(|d| d.file.as_str())),
        true,
        Some("file_name"),
    ));
    qs.push(extreme(
        "Which lint fires most often?",
        most_frequent(warnings.iter().map(|d| d.code.as_str())),
        true,
        Some("code"),
    ));
    qs.push(extreme("Which crate has the most warnings?", by_package, true, Some("package_id")));
    qs
}

fn heads_and_tails(lines: &[Value], all: &[Diagnostic]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().enumerate() {
        let text =
            format!("What is the {ordinal} line of the output about: its reason and the package (name and version)?");
        qs.push(end(lines, k, false, &text, |l| {
            Some(vec![l["reason"].as_str()?.to_owned(), name_version(l["package_id"].as_str()?).to_owned()])
        }));
    }
    let finished = lines.iter().rev().find(|l| l["reason"] == "build-finished");
    if let Some(success) = finished.and_then(|l| l["success"].as_bool()) {
        let text = "Did the build succeed, according to the build-finished line?".to_owned();
        qs.push(Some(together(Kind::Tail, text, None, &["build-finished", &success.to_string()])));
    }
    for back in 0..8 {
        let text = format!("Which lint is the {} diagnostic of the output, and where does it point?", to_last(back));
        qs.push(end(all, back, true, &text, |d| Some(vec![d.code.clone(), d.at.clone()])));
    }
    let artifacts: Vec<&Value> = lines.iter().filter(|l| l["reason"] == "compiler-artifact").collect();
    qs.push(end(
        &artifacts,
        0,
        true,
        "Which target is the last compiler artifact of the run (target name and package)?",
        |l| Some(vec![l["target"]["name"].as_str()?.to_owned(), name_version(l["package_id"].as_str()?).to_owned()]),
    ));
    qs
}
