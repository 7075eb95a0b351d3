//! Questions about a SonarQube issue search: the totals (issues, effort, page) and the
//! first issues (key, rule, file, line, message, author), the last issues and the last
//! components; an issue's rule, severity and line, message, effort, author, status, file or
//! creation date by its key; and how many issues are BLOCKER bugs, critical,
//! vulnerabilities, code smells, confirmed, in test code or of one rule, how many files
//! have issues, and which file, author and rule have the most issues, which issue is the
//! oldest and which needs the most effort.

use serde_json::Value;

use super::{field, list, lookup};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, together};
use crate::record_questions::end;

/// An issue with what the questions read of it.
pub(super) struct Issue {
    pub(super) key: String,
    pub(super) rule: String,
    pub(super) severity: String,
    pub(super) component: String,
    pub(super) line: String,
    pub(super) message: String,
    pub(super) effort: String,
    pub(super) author: String,
    pub(super) status: String,
    pub(super) kind: String,
    pub(super) scope: String,
    pub(super) created: String,
}

/// The issues of the page, in order.
pub(super) fn issues(v: &Value) -> Vec<Issue> {
    list(v, "issues")
        .iter()
        .map(|i| Issue {
            key: field(i, "key"),
            rule: field(i, "rule"),
            severity: field(i, "severity"),
            component: field(i, "component"),
            line: field(i, "line"),
            message: field(i, "message"),
            effort: field(i, "effort"),
            author: field(i, "author"),
            status: field(i, "status"),
            kind: field(i, "type"),
            scope: field(i, "scope"),
            created: field(i, "creationDate"),
        })
        .collect()
}

/// An effort as SonarQube writes it (`1d2h30min`, 8-hour days), in minutes.
pub(super) fn effort_minutes(effort: &str) -> Option<u32> {
    let mut total = 0;
    let mut digits = String::new();
    let mut rest = effort;
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_digit() {
            digits.push(c);
            rest = &rest[1..];
            continue;
        }
        let n: u32 = digits.parse().ok()?;
        digits.clear();
        let (unit, len) = match rest {
            r if r.starts_with("min") => (1, 3),
            r if r.starts_with('h') => (60, 1),
            r if r.starts_with('d') => (480, 1),
            _ => return None,
        };
        total += n * unit;
        rest = &rest[len..];
    }
    digits.is_empty().then_some(total)
}

fn key_rule(i: &Issue) -> Option<Vec<String>> {
    Some(vec![i.key.clone(), i.rule.clone()])
}

pub(super) fn sonarqube_questions(v: &Value) -> Vec<Option<Question>> {
    let all = issues(v);
    let components = list(v, "components");
    let head = |q: &str, path: &str| {
        let t = field(v, path);
        (!t.is_empty()).then(|| together(Kind::Head, q.to_owned(), None, &["total", &t]))
    };
    let mut qs = vec![
        head("How many issues does the search report in total?", "total"),
        (!field(v, "effortTotal").is_empty()).then(|| {
            together(
                Kind::Head,
                "What is the total remediation effort, in minutes?".into(),
                None,
                &[&field(v, "effortTotal")],
            )
        }),
        end(&all, 0, false, "Which issue is listed first, and which rule raised it?", key_rule),
        end(&all, 0, false, "In which file and at which line is the first issue?", |i| {
            Some(vec![i.component.clone(), i.line.clone()])
        }),
        end(&all, 0, false, "What does the first issue say?", |i| Some(vec![i.key.clone(), i.message.clone()])),
        end(&all, 0, false, "Who is the first issue's author, and when was it created?", |i| {
            Some(vec![i.author.clone(), i.created.clone()])
        }),
        end(&all, 1, false, "Which issue is second, and how severe is it?", |i| {
            Some(vec![i.key.clone(), i.severity.clone()])
        }),
        end(&all, 2, false, "Which issue is third, and which rule raised it?", key_rule),
        end(&all, 3, false, "What is the fourth issue's message?", |i| Some(vec![i.key.clone(), i.message.clone()])),
        end(&all, 4, false, "What effort does the fifth issue need?", |i| Some(vec![i.key.clone(), i.effort.clone()])),
        end(&all, 0, true, "Which issue is listed last, and which rule raised it?", key_rule),
        end(&all, 0, true, "At which line is the last issue, and what does it say?", |i| {
            Some(vec![i.line.clone(), i.message.clone()])
        }),
        end(&all, 0, true, "Who is the last issue's author?", |i| Some(vec![i.key.clone(), i.author.clone()])),
        end(&all, 1, true, "Which issue is second to last, and how severe is it?", |i| {
            Some(vec![i.key.clone(), i.severity.clone()])
        }),
        end(&all, 2, true, "Which issue is third to last, and which rule raised it?", key_rule),
        end(components, 0, true, "Which component is listed last, and what is its path?", |c| {
            Some(vec![field(c, "key"), field(c, "path")])
        }),
        end(components, 1, true, "Which file is the second to last component?", |c| Some(vec![field(c, "longName")])),
        end(components, 2, true, "What is the name and qualifier of the third to last component?", |c| {
            Some(vec![field(c, "name"), field(c, "qualifier")])
        }),
        end(components, 3, true, "What is the key of the fourth to last component?", |c| Some(vec![field(c, "key")])),
    ];
    let key = |i: &Issue| i.key.clone();
    for at in [0.1, 0.3, 0.5, 0.7, 0.9] {
        qs.push(lookup(&all, at, "Which rule raised issue {key}, how severe is it, and at which line?", key, |i| {
            Some(vec![i.rule.clone(), i.severity.clone(), i.line.clone()])
        }));
    }
    qs.push(lookup(&all, 0.2, "What is the message of issue {key}?", key, |i| Some(vec![i.message.clone()])));
    qs.push(lookup(&all, 0.4, "How much effort does issue {key} need?", key, |i| Some(vec![i.effort.clone()])));
    qs.push(lookup(&all, 0.6, "Who is the author of issue {key}, and what is its status?", key, |i| {
        Some(vec![i.author.clone(), i.status.clone()])
    }));
    qs.push(lookup(&all, 0.8, "In which file is issue {key}?", key, |i| Some(vec![i.component.clone()])));
    qs.push(lookup(&all, 0.95, "When was issue {key} created?", key, |i| Some(vec![i.created.clone()])));
    // How many, and which has the most.
    let how_many = |keep: &dyn Fn(&Issue) -> bool| all.iter().filter(|i| keep(i)).count();
    let blocker_bugs = how_many(&|i| i.severity == "BLOCKER" && i.kind == "BUG");
    qs.push(Some(count("How many BLOCKER bugs are on this page?", &["BLOCKER"], blocker_bugs, Some("severity"))));
    qs.push(Some(count(
        "How many CRITICAL issues are on this page?",
        &["CRITICAL"],
        how_many(&|i| i.severity == "CRITICAL"),
        Some("severity"),
    )));
    qs.push(Some(count(
        "How many MINOR issues are on this page?",
        &["MINOR"],
        how_many(&|i| i.severity == "MINOR"),
        Some("severity"),
    )));
    qs.push(Some(count(
        "How many vulnerabilities are on this page?",
        &["VULNERABILITY"],
        how_many(&|i| i.kind == "VULNERABILITY"),
        Some("type"),
    )));
    qs.push(Some(count(
        "How many code smells are on this page?",
        &["CODE_SMELL"],
        how_many(&|i| i.kind == "CODE_SMELL"),
        Some("type"),
    )));
    qs.push(Some(count(
        "How many issues are CONFIRMED?",
        &["CONFIRMED"],
        how_many(&|i| i.status == "CONFIRMED"),
        Some("status"),
    )));
    qs.push(Some(count(
        "How many issues are in test code (scope TEST)?",
        &["TEST"],
        how_many(&|i| i.scope == "TEST"),
        Some("scope"),
    )));
    let rules = most_frequent(all.iter().map(|i| i.rule.as_str()));
    if let Some((n, rule)) = rules.iter().find(|(n, _)| *n > 1 && *n < all.len()) {
        qs.push(Some(count(&format!("How many issues did rule {rule} raise?"), &[rule], *n, Some("rule"))));
    }
    let files = components.iter().filter(|c| field(c, "qualifier") != "TRK").count();
    qs.push(Some(count(
        "How many files have issues on this page?",
        &["components", "files"],
        files,
        Some("component"),
    )));
    let by = |f: fn(&Issue) -> &str| most_frequent(all.iter().map(f));
    qs.push(extreme("Which file has the most issues?", by(|i| &i.component), true, Some("component")));
    qs.push(extreme("Which author has the most issues?", by(|i| &i.author), true, Some("author")));
    qs.push(extreme("Which rule raised the most issues?", by(|i| &i.rule), true, Some("rule")));
    let bugs: Vec<&Issue> = all.iter().filter(|i| i.kind == "BUG").collect();
    qs.push(extreme(
        "Which file has the most bugs?",
        most_frequent(bugs.iter().map(|i| i.component.as_str())),
        true,
        Some("component"),
    ));
    let created: Vec<(String, String)> = all.iter().map(|i| (i.created.clone(), i.key.clone())).collect();
    qs.push(extreme(
        "Which issue is the oldest (earliest creationDate)?",
        created.clone(),
        false,
        Some("creationDate"),
    ));
    qs.push(extreme("Which issue was created most recently?", created, true, Some("creationDate")));
    let efforts: Vec<(u32, String)> =
        all.iter().filter_map(|i| Some((effort_minutes(&i.effort)?, i.key.clone()))).collect();
    qs.push(extreme("Which issue needs the most effort?", efforts, true, Some("effort")));
    qs
}
