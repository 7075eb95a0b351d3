//! How a read counts as answering a question.
//!
//! What the model read (one rendered envelope) is cut into units: each record of `data`,
//! each row of a table, each line of text, a whole text no larger than [`UNIT_CHARS`] (one
//! stanza a `pattern` read found, say), each part of a JSON object no larger than
//! [`UNIT_CHARS`] (written with the keys that lead to it), and each clause of the summary
//! (split at `;` and at top-level `,`). Numbers lose their thousands separators. Then:
//!
//! - `Together`: one unit holds every string, each as a whole token (not inside a longer
//!   word or number);
//! - `Count`: one unit states the count right next to its label (`bug 31`, `"bug":31`,
//!   `bug: 31`, `31 bugs`, a quoted value holding the label as a word and then its count:
//!   `"…Googlebot/2.1; +http://…" 67`), or, for a yes-or-no field, states it as the count of `true`
//!   in that field's value counts (`explicit: false 37, true 13`);
//! - `Extreme`: one unit names the holder after a word for the direction (`max`,
//!   `largest`, `highest`, `most`, `top`; `min`, `smallest`, `lowest`, `least`) within 80
//!   characters;
//! - and a count or an extreme is also answered by a read that shows every record with the
//!   field the question is about, since the model can then work it out itself.

use regex::Regex;
use serde_json::Value;

use crate::question::{Check, Question};

/// The largest part of a JSON object judged as one unit.
pub(crate) const UNIT_CHARS: usize = 2000;

/// One rendered read, taken apart.
pub(crate) struct Read {
    /// The envelope (the JSON between the delimiters), when it parses.
    pub(crate) envelope: Option<Value>,
    pub(crate) units: Vec<String>,
    /// The whole summary, for value counts that clauses cut apart.
    summary: String,
    /// Whether the read shows every record of the result (nothing left for `next`).
    pub(crate) complete_records: bool,
    /// The data as text, for the complete-records rule.
    pub(crate) data_text: String,
}

impl Read {
    pub(crate) fn new(rendered: &str) -> Read {
        let inner =
            rendered.split_once('\n').map_or("", |(_, rest)| rest.rsplit_once('\n').map_or(rest, |(body, _)| body));
        let envelope: Option<Value> = serde_json::from_str(inner).ok();
        let mut units = Vec::new();
        let mut complete_records = false;
        let mut data_text = String::new();
        if let Some(env) = &envelope {
            if let Some(summary) = env.get("summary").and_then(Value::as_str) {
                units.extend(clauses(&plain_numbers(summary)));
            }
            let data = env.get("data").unwrap_or(&Value::Null);
            data_text = data.to_string();
            let mut rows = 0usize;
            match data {
                Value::String(t) => {
                    units.extend(t.lines().map(str::to_owned));
                    // A small text is read as one piece, like a small JSON object: a commit
                    // stanza a `pattern` read returned answers "who wrote it".
                    if t.len() <= UNIT_CHARS && t.lines().nth(1).is_some() {
                        units.push(t.clone());
                    }
                }
                Value::Array(items) => {
                    rows = items.len();
                    units.extend(items.iter().map(Value::to_string));
                }
                Value::Object(m) if m.contains_key("columns") && m.contains_key("rows") => {
                    let rows_v = m.get("rows").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
                    rows = rows_v.len();
                    units.extend(rows_v.iter().map(Value::to_string));
                    for (k, v) in m.iter().filter(|(k, _)| *k != "rows" && *k != "columns") {
                        data_member_units(k, v, &mut units);
                    }
                }
                Value::Object(m) => {
                    for (k, v) in m {
                        data_member_units(k, v, &mut units);
                    }
                }
                _ => {}
            }
            let omitted = env.get("omitted").unwrap_or(&Value::Null);
            let total = omitted.pointer("/original/records").and_then(Value::as_u64);
            let records_left = omitted.get("unit").and_then(Value::as_str) == Some("records")
                && omitted.get("count").and_then(Value::as_u64).unwrap_or(0) > 0;
            complete_records = rows > 0 && !records_left && total.is_none_or(|t| t == rows as u64);
        }
        let units = units.iter().map(|u| plain_numbers(u)).collect();
        let summary = envelope.as_ref().and_then(|e| e.get("summary")).and_then(Value::as_str).map(plain_numbers);
        Read { envelope, units, summary: summary.unwrap_or_default(), complete_records, data_text }
    }

    /// Whether this read answers `q`.
    pub(crate) fn answers(&self, q: &Question) -> bool {
        let stated = match &q.check {
            Check::Together(must) => {
                // A value with quotes or backslashes is written escaped inside JSON: the
                // model reads `\"Inspired\"` as `"Inspired"`, so either form answers.
                let pats: Vec<(Regex, Option<Regex>)> = must
                    .iter()
                    .map(|m| {
                        let escaped = serde_json::to_string(m).ok().map(|e| e[1..e.len() - 1].to_owned());
                        let escaped = escaped.filter(|e| e != m).map(|e| token(&plain_numbers(&e)));
                        (token(&plain_numbers(m)), escaped)
                    })
                    .collect();
                self.units.iter().any(|u| {
                    pats.iter().all(|(p, escaped)| p.is_match(u) || escaped.as_ref().is_some_and(|e| e.is_match(u)))
                })
            }
            Check::Count { labels, value } => {
                let v = regex::escape(&plain_numbers(value));
                labels.iter().any(|label| {
                    let l = regex::escape(label);
                    let re = Regex::new(&format!(
                        r#"(?i)(^|[^\w]){l}s?["']?\s*[:=]?\s*\(?{v}([^\w.]|$)|(^|[^\w.]){v}\s+{l}s?([^\w]|$)"#
                    ))
                    .ok();
                    // A yes-or-no field's value counts: `label: false 37, true 13` (or `0 37,
                    // 1 13`), one facet
                    // (no `;` and no other `label:` between the label and its `true`).
                    let yes = Regex::new(&format!(
                        r"(?i)(^|[^\w]){l}:\s*((false\s+\d+,\s*)?true|(0\s+\d+,\s*)?1)\s+{v}([^\w.]|$)"
                    ))
                    .ok();
                    // A quoted value that holds the label as a word, then its count:
                    // `"…Googlebot/2.1; +http://…" 67`.
                    // Quotes inside it are escaped (`"… for user \"metabase\"" 41`).
                    let within =
                        Regex::new(&format!(r#"(?i)"(?:[^"\\]|\\.)*\b{l}\b(?:[^"\\]|\\.)*"\s+{v}([^\w.]|$)"#)).ok();
                    // A pattern listed with its count (a `*` among its words) that holds the
                    // label as a word: `Rollback to * 11`.
                    let pattern = Regex::new(&format!(r#"(?i)(^|:\s)[^:"]*\b{l}\b[^:"]*\s{v}(\s\([^)]*\))?\s*$"#)).ok();
                    let listed_pattern = |u: &String| {
                        u.split_whitespace().any(|w| w == "*") && pattern.as_ref().is_some_and(|re| re.is_match(u))
                    };
                    re.is_some_and(|re| self.units.iter().any(|u| re.is_match(u)))
                        || yes.is_some_and(|re| re.is_match(&self.summary))
                        || within.is_some_and(|re| self.units.iter().any(|u| re.is_match(u)))
                        || self.units.iter().any(listed_pattern)
                })
            }
            Check::Extreme { id, max } => {
                let (words, opposite) = if *max { (MAX_WORDS, MIN_WORDS) } else { (MIN_WORDS, MAX_WORDS) };
                let id = regex::escape(&plain_numbers(id));
                let holder = Regex::new(&format!(r"(^|[^\w]){id}([^\w]|$)")).ok();
                let toward = Regex::new(&format!(r"(?i)\b({words})\b")).ok();
                let away = Regex::new(&format!(r"(?i)\b({opposite})\b")).ok();
                match (holder, toward, away) {
                    (Some(h), Some(t), Some(a)) => self.units.iter().any(|u| follows_its_word(u, &h, &t, &a)),
                    _ => false,
                }
            }
        };
        let worked_out = matches!(q.check, Check::Count { .. } | Check::Extreme { .. })
            && self.complete_records
            && q.field
                .as_ref()
                .is_some_and(|f| self.data_text.contains(&format!("\"{f}\"")) || self.data_text.contains(f.as_str()));
        stated || worked_out
    }
}

/// Words that point to the largest and to the smallest.
const MAX_WORDS: &str = "max|maximum|largest|highest|most|top|peak|latest|slowest";
const MIN_WORDS: &str = "min|minimum|smallest|lowest|least|fewest|earliest";

/// Whether `unit` names a holder (`holder`) within 80 characters after a word for the
/// asked direction (`toward`), with no word for the other direction (`away`) nearer
/// before it: `max 9 a, min 1 b` names `a` as the largest, not `b`.
fn follows_its_word(unit: &str, holder: &Regex, toward: &Regex, away: &Regex) -> bool {
    holder.find_iter(unit).any(|h| {
        let window = &unit[unit.floor_char_boundary(h.start().saturating_sub(80))..h.start()];
        // `6 min 57 s` is a duration, not a direction.
        let unit = |at: usize| window[..at].trim_end().ends_with(|c: char| c.is_ascii_digit());
        let last = |re: &Regex| re.find_iter(window).filter(|m| !unit(m.start())).last().map(|m| m.start());
        match (last(toward), last(away)) {
            (Some(t), Some(a)) => t > a,
            (Some(_), None) => true,
            _ => false,
        }
    })
}

/// A pattern matching `s` as a whole token: not preceded or followed by a word character
/// where `s` itself starts or ends with one.
fn token(s: &str) -> Regex {
    let starts = s.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_');
    let ends = s.chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_');
    let pat = format!(
        "{}{}{}",
        if starts { r"(^|[^\w])" } else { "" },
        regex::escape(s),
        if ends { r"([^\w]|$)" } else { "" }
    );
    Regex::new(&pat).unwrap_or_else(|_| Regex::new("$^").expect("a valid pattern"))
}

/// `1,234,567` as `1234567`.
fn plain_numbers(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        if c == ','
            && i > 0
            && b[i - 1].is_ascii_digit()
            && b.len() >= i + 4
            && b[i + 1..i + 4].iter().all(u8::is_ascii_digit)
            && b.get(i + 4).is_none_or(|n| !n.is_ascii_digit())
        {
            continue;
        }
        out.push(c);
    }
    out
}

/// The clauses of a summary: split at `;` and at `,` outside brackets and quotes.
fn clauses(summary: &str) -> Vec<String> {
    let mut out = vec![summary.to_owned()];
    let mut depth = 0i32;
    let mut quoted = false;
    let mut cur = String::new();
    for c in summary.chars() {
        match c {
            '"' => quoted = !quoted,
            '(' | '[' | '{' if !quoted => depth += 1,
            ')' | ']' | '}' if !quoted => depth -= 1,
            _ => {}
        }
        if (c == ';' || (c == ',' && depth <= 0)) && !quoted {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    out.push(cur);
    // The whole summary is a unit only for the count and extreme rules; for `Together`
    // it would join unrelated clauses, so it is kept out when it has several.
    if out.len() > 2 {
        out.remove(0);
    }
    out.into_iter().map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect()
}

/// Units of a member of the data: an index's rows (those after the first rows and those
/// before the last) are records too, each a unit of its own (so a key in one row never
/// joins a value in another); any other member as [`object_units`] takes it apart.
fn data_member_units(key: &str, v: &Value, out: &mut Vec<String>) {
    match (key, v.get("rows").and_then(Value::as_array)) {
        ("index", Some(rows)) => {
            let before_last = v.get("before_last").and_then(Value::as_array).into_iter().flatten();
            out.extend(rows.iter().chain(before_last).map(Value::to_string));
        }
        _ => object_units("", key, v, out),
    }
}

/// Units of a JSON object member: itself when small, else its members (or elements),
/// each written after the keys that lead to it.
fn object_units(prefix: &str, key: &str, v: &Value, out: &mut Vec<String>) {
    let path = if prefix.is_empty() { key.to_owned() } else { format!("{prefix}/{key}") };
    let text = v.to_string();
    if text.len() <= UNIT_CHARS {
        out.push(format!("{path}: {text}"));
        return;
    }
    match v {
        Value::Object(m) => m.iter().for_each(|(k, v)| object_units(&path, k, v, out)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, v)| object_units(&path, &i.to_string(), v, out)),
        _ => out.push(format!("{path}: {text}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::question::Kind;

    fn q(check: Check) -> Question {
        Question { kind: Kind::Aggregate, text: String::new(), needle: None, check, field: None }
    }

    fn read(summary: &str, data: Value) -> Read {
        let env = serde_json::json!({"status": "ok", "summary": summary, "data": data, "omitted": null, "next": null});
        Read::new(&format!("<<<x>>>\n{env}\n<<<end x>>>"))
    }

    #[test]
    fn an_index_row_is_a_unit_of_its_own() {
        let index = serde_json::json!({
            "columns": ["number", "title"],
            "rows": [[11, "Alpha"], [12, "Beta"]],
            "before_last": [[38, "Gamma"], [39, "Delta"]]
        });
        let together = |a: &str, b: &str| q(Check::Together(vec![a.into(), b.into()]));
        for data in [
            serde_json::json!({"columns": ["number"], "rows": [[10]], "index": index}),
            serde_json::json!({"records": [{"number": 10}], "index": index}),
        ] {
            let r = read("", data);
            assert!(r.answers(&together("12", "Beta")), "a key and its title in one row");
            assert!(!r.answers(&together("11", "Beta")), "a key and another row's title");
            assert!(r.answers(&together("39", "Delta")), "a row before the last");
            assert!(!r.answers(&together("38", "Delta")), "and another row's title");
        }
    }

    #[test]
    fn a_quoted_value_inside_json_answers_in_its_escaped_form() {
        let needle = q(Check::Together(vec!["Finish chapter 9 of \"Inspired\"".into()]));
        let data = serde_json::json!([{"content": "Finish chapter 9 of \"Inspired\""}]);
        assert!(read("", data).answers(&needle), "written escaped inside the JSON");
        let other = serde_json::json!([{"content": "Finish chapter 9 of \"Team Topologies\""}]);
        assert!(!read("", other).answers(&needle), "another title");
        assert!(read("Finish chapter 9 of \"Inspired\" 1", Value::Null).answers(&needle), "plain in a summary");
    }

    #[test]
    fn counts_must_sit_next_to_their_label() {
        let r = read("100 issues; labels: bug 31, ui 12", Value::Null);
        assert!(r.answers(&q(Check::Count { labels: vec!["bug".into()], value: "31".into() })));
        assert!(!r.answers(&q(Check::Count { labels: vec!["bug".into()], value: "12".into() })));
        let r = read("", serde_json::json!([{"labels": ["bug"], "comments": 31}]));
        assert!(
            !r.answers(&q(Check::Count { labels: vec!["bug".into()], value: "31".into() })),
            "a record is not a count"
        );
        assert!(
            read("1,412 records", Value::Null)
                .answers(&q(Check::Count { labels: vec!["records".into()], value: "1412".into() }))
        );
    }

    #[test]
    fn a_yes_or_no_field_counts_its_true_values() {
        let flags = read("properties.tsunami: 0 279, 1 11; other: 1 5", Value::Null);
        assert!(flags.answers(&q(Check::Count { labels: vec!["tsunami".into()], value: "11".into() })));
        assert!(!flags.answers(&q(Check::Count { labels: vec!["tsunami".into()], value: "5".into() })));
        let r = read("50 records; explicit: false 37, true 13; popular: true 5, false 45", Value::Null);
        let count = |label: &str, value: &str| q(Check::Count { labels: vec![label.into()], value: value.into() });
        assert!(r.answers(&count("explicit", "13")));
        assert!(!r.answers(&count("explicit", "37")), "false is not the count asked for");
        assert!(r.answers(&count("popular", "5")));
        assert!(!r.answers(&count("popular", "45")));
        assert!(!r.answers(&count("records", "13")));
    }

    #[test]
    fn a_quoted_value_holding_the_label_counts() {
        let r = read(r#"agent, most first: "…Googlebot/2.1; +http://…" 67, "…bingbot/2.0; …" 12"#, Value::Null);
        let count = |label: &str, value: &str| q(Check::Count { labels: vec![label.into()], value: value.into() });
        assert!(r.answers(&count("Googlebot", "67")));
        assert!(!r.answers(&count("Googlebot", "12")));
        assert!(!r.answers(&count("bot", "67")), "a label must be a whole word of the value");
        let escaped = read(
            r#"patterns: "* FATAL: password authentication failed for user \"metabase\"" 41, "* LOG: x" 9"#,
            Value::Null,
        );
        assert!(escaped.answers(&count("password authentication failed", "41")));
        assert!(!escaped.answers(&count("password authentication failed", "9")));
    }

    #[test]
    fn a_listed_pattern_holding_the_label_counts() {
        let r = read(
            "description (digits as *), most first: Deploy * 121, Rollback to * 11, Set CDN config 3",
            Value::Null,
        );
        let count = |label: &str, value: &str| q(Check::Count { labels: vec![label.into()], value: value.into() });
        assert!(r.answers(&count("Rollback", "11")));
        assert!(r.answers(&count("deploy", "121")));
        assert!(!r.answers(&count("Rollback", "121")), "the count is the pattern's own");
        assert!(!r.answers(&count("CDN", "3")), "a value without `*` is no pattern");
        assert!(!r.answers(&count("roll", "11")), "a label must be a whole word of the pattern");
    }

    #[test]
    fn a_small_text_is_one_unit_and_a_large_one_is_not() {
        let stanza = "commit 6f3b\nAuthor: Ada Berg\n\n    feat: a change\n";
        let r = read("4 lines", Value::String(stanza.into()));
        assert!(r.answers(&q(Check::Together(vec!["6f3b".into(), "Ada Berg".into()]))));
        let long = format!("{stanza}{}", "filler line\n".repeat(UNIT_CHARS / 10));
        let r = read("many lines", Value::String(long));
        assert!(!r.answers(&q(Check::Together(vec!["6f3b".into(), "Ada Berg".into()]))));
    }

    #[test]
    fn together_needs_one_unit_and_whole_tokens() {
        let r = read("", serde_json::json!([{"number": 1347, "user": "ada"}, {"number": 13, "user": "bo"}]));
        assert!(r.answers(&q(Check::Together(vec!["1347".into(), "ada".into()]))));
        assert!(!r.answers(&q(Check::Together(vec!["1347".into(), "bo".into()]))));
        assert!(!r.answers(&q(Check::Together(vec!["134".into()]))));
    }

    #[test]
    fn extremes_follow_their_word() {
        let r = read("amount: min 500 (ch_1), max 99,500 (ch_9)", Value::Null);
        assert!(r.answers(&q(Check::Extreme { id: "ch_9".into(), max: true })));
        assert!(!r.answers(&q(Check::Extreme { id: "ch_1".into(), max: true })));
        // In one unit, the nearest word before the holder decides.
        let r = read(r#""--- PASS: * *" 9 (max 2.1s TestA, min 0.0s TestB)"#, Value::Null);
        assert!(r.answers(&q(Check::Extreme { id: "TestA".into(), max: true })));
        assert!(!r.answers(&q(Check::Extreme { id: "TestB".into(), max: true })));
        assert!(r.answers(&q(Check::Extreme { id: "TestB".into(), max: false })));
        let r = read("ready − buildingAt: max 6 min 57 s (url a.app), min 27 s (url b.app)", Value::Null);
        assert!(r.answers(&q(Check::Extreme { id: "a.app".into(), max: true })));
    }
}
