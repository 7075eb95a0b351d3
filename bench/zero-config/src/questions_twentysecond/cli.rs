//! The questions asked of the twenty-second part's second half: the output of
//! command-line tools. The npm audit report is JSON and is asked about as it is
//! (`cli/audit.rs`); the JUnit report, the journal and the Actions log are text, read back
//! into records first (`cli/readers.rs`) and asked about as a user of each tool would ask
//! (`cli/junit.rs`, `cli/journal.rs`, `cli/runlog.rs`). Every answer is computed from the
//! result, and every kind of question is asked at least nine times of every shape.

mod audit;
mod journal;
mod junit;
mod readers;
mod runlog;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::{Kind, Question, text, value};
use crate::questions_blind::{lines, together};

/// Record `i` of a list, if there is one.
fn nth(list: &[Value], i: usize) -> Option<&Value> {
    list.get(i)
}

/// The record before the last of a list.
fn before_last(list: &[Value]) -> Option<&Value> {
    list.len().checked_sub(2).and_then(|i| list.get(i))
}

/// A question about a record at one end of a list (or anywhere, for `kind`), answered by
/// the values of `fields` together.
fn ends(x: Option<&Value>, kind: Kind, q: &str, fields: &[&str]) -> Option<Question> {
    let x = x?;
    let values: Vec<String> =
        fields.iter().map(|f| value(x, f).map(text).filter(|s| !s.is_empty())).collect::<Option<_>>()?;
    let must: Vec<&str> = values.iter().map(String::as_str).collect();
    Some(together(kind, q.into(), None, &must))
}

/// A lookup of the record about `at` (0..1) of the way down `list` whose `key` no other
/// record shares: "{q}" with `{key}` replaced, answered by the key and every `answers`
/// value of the record together.
fn lookup_many(list: &[Value], at: f64, q: &str, key: &str, answers: &[&str]) -> Option<Question> {
    let n = list.len();
    let start = ((n as f64 * at) as usize).min(n.saturating_sub(1));
    let get = |x: &Value, f: &str| value(x, f).map(text).filter(|s| !s.is_empty());
    (start..n).chain(0..start).find_map(|i| {
        let k = get(&list[i], key)?;
        let unique = list.iter().filter(|x| get(x, key).as_deref() == Some(k.as_str())).count() == 1;
        let mut must = vec![k.clone()];
        for a in answers {
            must.push(get(&list[i], a)?);
        }
        let must: Vec<&str> = must.iter().map(String::as_str).collect();
        unique.then(|| together(Kind::Lookup, q.replace("{key}", &k), Some(&k), &must))
    })
}

/// Every question about this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "npm_audit_json" => audit::audit_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let qs = match name {
        "junit_xml" => junit::junit_questions(&lines(t)),
        "journalctl_json" => journal::journal_questions(&lines(t)),
        "gh_run_log" => runlog::run_log_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
