//! Readers of the cli half's text results, each making records of what a tool printed: the
//! suites and test cases of a JUnit XML report (attributes as written, escapes and all,
//! so an answer reads as it does in the file), the entries of `journalctl -o json` (one
//! JSON object a line), and the lines of `gh run view --log` split into job, step,
//! timestamp and text.

use serde_json::{Map, Value, json};

/// The value of attribute `name` in one XML start tag, as written (not unescaped).
pub(crate) fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = start + tag[start..].find('"')?;
    Some(&tag[start..end])
}

/// The attributes `names` of a start tag as a record, those present.
fn record(tag: &str, names: &[&str]) -> Map<String, Value> {
    names.iter().filter_map(|n| Some(((*n).to_owned(), json!(attr(tag, n)?)))).collect()
}

/// A JUnit report read back: the `<testsuites>` summary, every suite, every test case.
pub(crate) struct Junit {
    pub(crate) root: Value,
    pub(crate) suites: Vec<Value>,
    pub(crate) cases: Vec<Value>,
}

/// The report's suites (with their `module` property) and test cases, each case with its
/// suite, its outcome (`passed`, `failed`, `error`, `skipped`), and for the others the
/// message and type of the failure or error, or why it was skipped.
pub(crate) fn junit(ls: &[&str]) -> Junit {
    let mut root = Value::Null;
    let mut suites: Vec<Value> = Vec::new();
    let mut cases: Vec<Value> = Vec::new();
    for l in ls {
        let t = l.trim_start();
        if t.starts_with("<testsuites ") {
            root = Value::Object(record(t, &["name", "tests", "failures", "errors", "skipped", "time", "timestamp"]));
        } else if t.starts_with("<testsuite ") {
            let names = ["name", "tests", "skipped", "failures", "errors", "timestamp", "hostname", "time"];
            suites.push(Value::Object(record(t, &names)));
        } else if t.starts_with("<property name=\"module\"") {
            if let (Some(s), Some(m)) = (suites.last_mut(), attr(t, "value")) {
                s["module"] = json!(m);
            }
        } else if t.starts_with("<testcase ") {
            let mut c = record(t, &["name", "classname", "time", "file", "line"]);
            c.insert("suite".into(), suites.last().map_or(Value::Null, |s| s["name"].clone()));
            c.insert("outcome".into(), json!("passed"));
            cases.push(Value::Object(c));
        } else if let Some(c) = cases.last_mut() {
            for (tag, outcome) in [("<failure ", "failed"), ("<error ", "error"), ("<skipped ", "skipped")] {
                if t.starts_with(tag) {
                    c["outcome"] = json!(outcome);
                    c["message"] = json!(attr(t, "message"));
                    c["type"] = json!(attr(t, "type"));
                }
            }
        }
    }
    Junit { root, suites, cases }
}

/// The entries of `journalctl -o json`, one object a line, every value kept as the line
/// writes it (quotes, backslashes and newlines escaped), so that a message asked about
/// reads as it does in the output.
pub(crate) fn journal(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| serde_json::from_str::<Map<String, Value>>(l).ok())
        .map(|m| {
            let written = m.into_iter().map(|(k, v)| {
                let v = match v {
                    Value::String(s) => {
                        let quoted = serde_json::to_string(&s).unwrap_or_default();
                        json!(quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or_default())
                    }
                    other => other,
                };
                (k, v)
            });
            Value::Object(written.collect())
        })
        .collect()
}

/// The lines of `gh run view --log`: per `job\tstep\ttimestamp text` its job, step,
/// timestamp and text (the text without the space after the timestamp).
pub(crate) fn run_log(t: &str) -> Vec<Value> {
    t.lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, '\t');
            let (job, step, rest) = (parts.next()?, parts.next()?, parts.next()?);
            let (ts, text) = rest.split_once(' ').unwrap_or((rest, ""));
            ts.ends_with('Z').then(|| json!({"job": job, "step": step, "ts": ts, "text": text}))
        })
        .collect()
}

/// Seconds between two log timestamps (`2025-12-31T08:44:43.1160291Z`) of the same day.
pub(crate) fn seconds_between(a: &str, b: &str) -> Option<f64> {
    Some(clock(b)? - clock(a)?)
}

/// Seconds since midnight of a log timestamp.
fn clock(ts: &str) -> Option<f64> {
    let time = ts.get(11..)?.trim_end_matches('Z');
    let mut parts = time.split(':');
    let h: f64 = parts.next()?.parse().ok()?;
    let m: f64 = parts.next()?.parse().ok()?;
    let s: f64 = parts.next()?.parse().ok()?;
    Some(h * 3600.0 + m * 60.0 + s)
}
