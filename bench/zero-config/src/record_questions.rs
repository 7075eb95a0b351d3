//! Questions about one record of a list, shared by the parts written blind: the values of
//! a record's fields, a question about a record at either end, a question about the record
//! `k` from either end (with the words for places from either end), and a lookup of a
//! record by a key no other record shares.

use serde_json::Value;

use crate::question::{Kind, Question, text, value};
use crate::questions_blind::{at, together};

/// Ordinal words for questions about the records at either end of a list.
pub(crate) const ORDINALS: [&str; 9] =
    ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"];

/// "last", "second to last", "third to last"… for `back` places before the last.
pub(crate) fn to_last(back: usize) -> String {
    if back == 0 { "last".to_owned() } else { format!("{} to last", ORDINALS[back]) }
}

/// The values of `fields` of a record, each present and not empty, or `None`.
pub(crate) fn fields_of(x: &Value, fields: &[&str]) -> Option<Vec<String>> {
    fields.iter().map(|f| value(x, f).map(text).filter(|s| !s.is_empty())).collect()
}

/// A question about one record (at an end of a list, for `kind` head or tail), answered by
/// the values of `fields` together.
pub(crate) fn about_record(x: Option<&Value>, kind: Kind, q: &str, fields: &[&str]) -> Option<Question> {
    let must = fields_of(x?, fields)?;
    let must: Vec<&str> = must.iter().map(String::as_str).collect();
    Some(together(kind, q.to_owned(), None, &must))
}

/// A question about the record `k` from the start of `items` (or from the end when
/// `from_end`), answered by every string `answer` gives, together; none when `answer`
/// gives nothing or an empty string.
pub(crate) fn end<T>(
    items: &[T],
    k: usize,
    from_end: bool,
    q: &str,
    answer: impl Fn(&T) -> Option<Vec<String>>,
) -> Option<Question> {
    let i = if from_end { items.len().checked_sub(k + 1)? } else { k };
    let must = answer(items.get(i)?)?;
    if must.is_empty() || must.iter().any(String::is_empty) {
        return None;
    }
    let must: Vec<&str> = must.iter().map(String::as_str).collect();
    Some(together(if from_end { Kind::Tail } else { Kind::Head }, q.to_owned(), None, &must))
}

/// A lookup of the record about `f` (0..1) of the way down `list` whose `key` no other
/// record shares: `q` with `{key}` replaced, answered by the key and the values of
/// `answers` together. Records lacking an answer are passed over.
pub(crate) fn lookup(list: &[Value], f: f64, q: &str, key: &str, answers: &[&str]) -> Option<Question> {
    let n = list.len();
    let start = at(n, f);
    let key_of = |x: &Value| value(x, key).map(text).filter(|s| !s.is_empty());
    (start..n).chain(0..start).find_map(|i| {
        let k = key_of(&list[i])?;
        if list.iter().filter(|x| key_of(x).as_deref() == Some(k.as_str())).count() != 1 {
            return None;
        }
        let mut must = vec![k.clone()];
        must.extend(fields_of(&list[i], answers)?);
        let must: Vec<&str> = must.iter().map(String::as_str).collect();
        Some(together(Kind::Lookup, q.replace("{key}", &k), Some(&k), &must))
    })
}

/// [`lookup_by`] with a key of one string: a lookup of the record `f` (0..1) of the way
/// down `items` by `key`, answered by the key and the answer's strings together.
pub(crate) fn lookup_one<T>(
    items: &[T],
    f: f64,
    q: &str,
    key: impl Fn(&T) -> String,
    answer: impl Fn(&T) -> Option<Vec<String>>,
) -> Option<Question> {
    lookup_by(items, f, q, |x| Some(vec![key(x)]), answer)
}

/// A lookup of the record `f` (0..1) of the way down `items`, or the next after it whose
/// key (what `key` gives) names no other record and that `answer` answers: "{q}" with
/// `{key}` replaced, answered by the key's strings and the answer's, together (`{key0}`, `{key1}`… are
/// replaced by each of them). The first of the key's strings is what a model searches for.
pub(crate) fn lookup_by<T>(
    items: &[T],
    f: f64,
    q: &str,
    key: impl Fn(&T) -> Option<Vec<String>>,
    answer: impl Fn(&T) -> Option<Vec<String>>,
) -> Option<Question> {
    ask_at(items, f, &key, |x| {
        let k = key(x)?;
        let mut text = q.to_owned();
        for (j, part) in k.iter().enumerate() {
            text = text.replace(&format!("{{key{j}}}"), part);
        }
        let text = text.replace("{key}", k.first()?);
        Some((text, answer(x)?))
    })
}

/// The array at `path` of `v` (the root for `""`), or nothing.
pub(crate) fn list<'v>(v: &'v Value, path: &str) -> &'v [Value] {
    value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice)
}

/// The string (or number, as JSON writes it) at `path` of `x`, or an empty string.
pub(crate) fn field(x: &Value, path: &str) -> String {
    value(x, path).map(text).unwrap_or_default()
}

/// The number at `path` of `x`, whether JSON writes it as a number or, as int64 values and
/// money amounts often are, as a string.
pub(crate) fn number(x: &Value, path: &str) -> Option<f64> {
    match value(x, path)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// A lookup of the item about `f` (0..1) of the way down `items`, or the next after it,
/// whose key (what `key` gives) names no other item and that `ask` can ask about. `ask`
/// writes the question in the user's own words (a time as they would say it, not as the
/// result stores it) and gives the strings that answer it; the key's strings answer it
/// too, and the first of them is what a model searches for.
pub(crate) fn ask_at<T>(
    items: &[T],
    f: f64,
    key: impl Fn(&T) -> Option<Vec<String>>,
    ask: impl Fn(&T) -> Option<(String, Vec<String>)>,
) -> Option<Question> {
    let n = items.len();
    let start = ((n as f64 * f) as usize).min(n.saturating_sub(1));
    (start..n).chain(0..start).find_map(|i| {
        let k = key(&items[i]).filter(|k| !k.is_empty() && k.iter().all(|s| !s.is_empty()))?;
        if items.iter().filter(|x| key(x).as_ref() == Some(&k)).count() != 1 {
            return None;
        }
        let (text, answer) = ask(&items[i])?;
        let must: Vec<String> = k.iter().cloned().chain(answer).collect();
        if must.iter().any(String::is_empty) {
            return None;
        }
        let must: Vec<&str> = must.iter().map(String::as_str).collect();
        Some(together(Kind::Lookup, text, Some(&k[0]), &must))
    })
}
