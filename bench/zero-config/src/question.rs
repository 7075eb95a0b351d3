//! Questions, and the builders that write them from the raw data: a lookup picks a record
//! and asks for one of its values by another, a count picks a value and counts it over
//! every record, an extreme finds the record holding the largest or smallest value, head
//! and tail ask for the first and last record. Answers are computed here, from the raw
//! result, never written by hand.

use std::collections::BTreeMap;

use serde_json::Value;

/// The four kinds of question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    /// A value of one record anywhere in the result, named by another value of it.
    Lookup,
    /// A count of records with a value, or the record holding an extreme.
    Aggregate,
    /// Something at the start of the result.
    Head,
    /// Something at the end of the result.
    Tail,
}

impl Kind {
    pub(crate) const ALL: [Kind; 4] = [Kind::Lookup, Kind::Aggregate, Kind::Head, Kind::Tail];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Lookup => "lookup",
            Kind::Aggregate => "count/extreme",
            Kind::Head => "head",
            Kind::Tail => "tail",
        }
    }
}

/// How a read is judged to answer (see `check.rs`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Check {
    /// Every string in one unit: a record, a table row, a line, a clause of the summary.
    Together(Vec<String>),
    /// A count stated next to its label in one unit: `bug 31`, `"bug":31`, `31 bugs`.
    Count { labels: Vec<String>, value: String },
    /// The holder of an extreme, named after a word for its direction (`max`, `largest`,
    /// `highest`, `most`, or `min`, `smallest`, `lowest`, `least`) in one unit.
    Extreme { id: String, max: bool },
}

/// One question about one result.
#[derive(Debug, Clone)]
pub(crate) struct Question {
    pub(crate) kind: Kind,
    pub(crate) text: String,
    /// What a model searches for when it looks something up (a name, an id).
    pub(crate) needle: Option<String>,
    pub(crate) check: Check,
    /// For counts and extremes: the field a model reads to work them out itself when a
    /// read shows every record.
    pub(crate) field: Option<String>,
}

/// The value(s) at a dotted path: `a.b`, `a[0].b`, `labels[].name` (every element).
pub(crate) fn values<'v>(v: &'v Value, path: &str) -> Vec<&'v Value> {
    let mut cur = vec![v];
    for seg in path.split('.').filter(|s| !s.is_empty()) {
        let (name, index) = match seg.find('[') {
            Some(i) => (&seg[..i], Some(&seg[i + 1..seg.len() - 1])),
            None => (seg, None),
        };
        let mut next = Vec::new();
        for c in cur {
            let c = if name.is_empty() { Some(c) } else { c.get(name) };
            let Some(c) = c else { continue };
            match index {
                None => next.push(c),
                Some("") => next.extend(c.as_array().into_iter().flatten()),
                Some(n) => next.extend(n.parse::<usize>().ok().and_then(|n| c.get(n))),
            }
        }
        cur = next;
    }
    cur
}

/// The one value at `path`, if there is exactly one and it is not null.
pub(crate) fn value<'v>(v: &'v Value, path: &str) -> Option<&'v Value> {
    match values(v, path).as_slice() {
        [one] if !one.is_null() => Some(one),
        _ => None,
    }
}

/// A value as a model reads it: strings bare, everything else as JSON.
pub(crate) fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Questions over one list of records.
pub(crate) struct Records<'a> {
    pub(crate) list: &'a [Value],
}

impl Records<'_> {
    /// The record about `at` (0..1) of the way down with a value at both paths: "{q}"
    /// with `{key}` replaced by its key.
    pub(crate) fn lookup(&self, q: &str, at: f64, key: &str, answer: &str) -> Option<Question> {
        let n = self.list.len();
        let start = ((n as f64 * at) as usize).min(n.saturating_sub(1));
        let (k, a) = (start..n).chain(0..start).find_map(|i| {
            let rec = &self.list[i];
            let k = value(rec, key).map(text).filter(|s| !s.is_empty())?;
            let a = value(rec, answer).map(text).filter(|s| !s.is_empty())?;
            // The key must name one record only.
            let unique =
                self.list.iter().filter(|r| value(r, key).map(text).as_deref() == Some(k.as_str())).count() == 1;
            unique.then_some((k, a))
        })?;
        Some(Question {
            kind: Kind::Lookup,
            text: q.replace("{key}", &k),
            needle: Some(k.clone()),
            check: Check::Together(vec![k, a]),
            field: None,
        })
    }

    /// How many records hold the second most frequent value of `field` (the most frequent
    /// when there is one value): "{q}" with `{value}` replaced.
    pub(crate) fn count(&self, q: &str, field: &str, label_word: Option<&str>) -> Option<Question> {
        let mut counts: BTreeMap<String, u64> = BTreeMap::new();
        for rec in self.list {
            let mut seen: Vec<String> =
                values(rec, field).into_iter().filter(|v| !v.is_null()).map(text).filter(|s| !s.is_empty()).collect();
            seen.sort();
            seen.dedup();
            for s in seen {
                *counts.entry(s).or_default() += 1;
            }
        }
        let mut ranked: Vec<(String, u64)> = counts.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        // The second most frequent value (the only one when there is one), or the next
        // whose count no other value shares, so the number next to the label is unambiguous.
        let unique = |c: u64| ranked.iter().filter(|(_, d)| *d == c).count() == 1;
        let (v, c) =
            (1..ranked.len()).chain(0..ranked.len().min(1)).map(|i| &ranked[i]).find(|(_, c)| unique(*c))?.clone();
        Some(self.count_question(q, field, v, c, label_word))
    }

    fn count_question(&self, q: &str, field: &str, v: String, count: u64, label_word: Option<&str>) -> Question {
        let label = label_word.map_or_else(|| v.clone(), str::to_owned);
        Question {
            kind: Kind::Aggregate,
            text: q.replace("{value}", &v),
            needle: None,
            check: Check::Count { labels: vec![label], value: count.to_string() },
            field: Some(last_key(field).to_owned()),
        }
    }

    /// The record with the largest (or smallest) number at `field`, named by `id`; `None`
    /// when two records share the extreme.
    pub(crate) fn extreme(&self, q: &str, field: &str, id: &str, max: bool) -> Option<Question> {
        let mut scored: Vec<(f64, String)> =
            self.list.iter().filter_map(|r| Some((number(value(r, field)?)?, value(r, id).map(text)?))).collect();
        scored.sort_by(|a, b| if max { b.0.total_cmp(&a.0) } else { a.0.total_cmp(&b.0) });
        let best = scored.first()?.clone();
        if scored.get(1).is_some_and(|s| s.0 == best.0) {
            return None;
        }
        Some(Question {
            kind: Kind::Aggregate,
            text: q.to_owned(),
            needle: None,
            check: Check::Extreme { id: best.1, max },
            field: Some(last_key(field).to_owned()),
        })
    }

    /// The value at `field` of the first record.
    pub(crate) fn head(&self, q: &str, field: &str) -> Option<Question> {
        let v = self.list.iter().find_map(|r| value(r, field).map(text).filter(|s| !s.is_empty()))?;
        Some(Question {
            kind: Kind::Head,
            text: q.to_owned(),
            needle: None,
            check: Check::Together(vec![v]),
            field: None,
        })
    }

    /// The value at `field` of the last record.
    pub(crate) fn tail(&self, q: &str, field: &str) -> Option<Question> {
        let v = self.list.iter().rev().find_map(|r| value(r, field).map(text).filter(|s| !s.is_empty()))?;
        Some(Question {
            kind: Kind::Tail,
            text: q.to_owned(),
            needle: None,
            check: Check::Together(vec![v]),
            field: None,
        })
    }
}

fn last_key(path: &str) -> &str {
    let last = path.rsplit('.').next().unwrap_or(path);
    last.split('[').next().unwrap_or(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_fan_out_and_index() {
        let v = json!({"a": [{"b": 1}, {"b": 2}], "c": {"d": "x"}});
        assert_eq!(values(&v, "a[].b"), vec![&json!(1), &json!(2)]);
        assert_eq!(value(&v, "a[1].b"), Some(&json!(2)));
        assert_eq!(value(&v, "c.d"), Some(&json!("x")));
        assert_eq!(value(&v, "a[].b"), None);
    }

    #[test]
    fn answers_come_from_the_records() {
        let list = vec![
            json!({"id": "a", "n": 3, "s": "open"}),
            json!({"id": "b", "n": 9, "s": "closed"}),
            json!({"id": "c", "n": 1, "s": "open"}),
        ];
        let r = Records { list: &list };
        let q = r.count("How many are {value}?", "s", None).unwrap();
        assert_eq!(q.check, Check::Count { labels: vec!["closed".into()], value: "1".into() });
        assert_eq!(r.extreme("max n", "n", "id", true).unwrap().check, Check::Extreme { id: "b".into(), max: true });
        assert_eq!(
            r.lookup("s of {key}", 0.5, "id", "s").unwrap().check,
            Check::Together(vec!["b".into(), "closed".into()])
        );
        assert_eq!(r.tail("last", "id").unwrap().check, Check::Together(vec!["c".into()]));
    }
}
