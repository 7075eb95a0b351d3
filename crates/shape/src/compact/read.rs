//! Reading a column's value out of a record: the value at its path, extracted (names of a
//! list, pairs as an object) and, for the compact view, cut.

use serde_json::{Map, Value};

use super::member::member;
use super::pairs::typed_scalar;
use super::stats::is_empty;
use super::{Column, Cut, Extract, LIST_HEAD, LONG_LIST, OPAQUE_CHARS, Step, TEXT_CHARS};
use crate::numfmt::thousands;

impl Column {
    /// This column's value in a raw record, compacted; `None` when null or empty.
    pub(super) fn read(&self, record: &Value) -> Option<Value> {
        self.read_noting_cut(record).map(|(v, _)| v)
    }

    /// [`Column::read`], and whether the value was cut.
    pub(super) fn read_noting_cut(&self, record: &Value) -> Option<(Value, bool)> {
        self.read_with(record, true)
    }

    /// The value, with long text and long random-looking strings cut when `cut_long`.
    pub(super) fn read_with(&self, record: &Value, cut_long: bool) -> Option<(Value, bool)> {
        let cur = self.at_path_hinted(record)?;
        if is_empty(cur) {
            return None;
        }
        let mut cut = false;
        let v = match &self.extract {
            Extract::Value => cur.clone(),
            Extract::Names(child) => Value::Array(names_in(cur.as_array()?, child)),
            Extract::Total(child) => total_of(cur.as_array()?, child)?,
            Extract::Pairs { key, value, typed } => {
                let mut m = Map::new();
                for e in cur.as_array()? {
                    if let (Some(k), Some(v)) = (e.get(key), e.get(value)) {
                        let k = match k {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        };
                        let v = if *typed { typed_scalar(v).unwrap_or(v) } else { v };
                        m.insert(k, v.clone());
                    }
                }
                Value::Object(m)
            }
            Extract::PairValue { key, name, value, typed, inner, cut: how } => {
                let item = cur.as_array()?.iter().find(|e| e.get(key).and_then(Value::as_str) == Some(name))?;
                let v = item.get(value)?;
                let v = if *typed { typed_scalar(v).unwrap_or(v) } else { v };
                match (inner, v, how) {
                    (Some(inner), Value::Object(o), _) => o.get(inner).filter(|v| !is_empty(v))?.clone(),
                    (Some(inner), Value::Array(a), _) => {
                        let names = names_in(a, inner);
                        if names.is_empty() {
                            return None;
                        }
                        Value::Array(names)
                    }
                    (_, v, Some(how)) if cut_long => {
                        let (v, was_cut) = cut_value(v, *how);
                        cut = was_cut;
                        v
                    }
                    _ => v.clone(),
                }
            }
            Extract::Text | Extract::Opaque if !cut_long || self.whole => cur.clone(),
            Extract::Text | Extract::Opaque => {
                let how = if self.extract == Extract::Text { Cut::Text } else { Cut::Opaque };
                let (v, was_cut) = cut_value(cur, how);
                cut = was_cut;
                v
            }
            Extract::Series(times) if cut_long => match self.series_cell(record, times.as_deref()) {
                Some(cell) => {
                    cut = true;
                    cell
                }
                None => list_head(cur, &mut cut),
            },
            Extract::Series(_) | Extract::Head => list_head(cur, &mut cut),
        };
        (!is_empty(&v)).then_some((v, cut))
    }
}

/// A list longer than [`LONG_LIST`] cut to its first items and a count (noted in `cut`);
/// anything else as it is.
fn list_head(v: &Value, cut: &mut bool) -> Value {
    match v {
        Value::Array(a) if a.len() > LONG_LIST => {
            *cut = true;
            let mut head: Vec<Value> = a.iter().take(LIST_HEAD).cloned().collect();
            head.push(Value::String(format!("…[+{} items]", thousands((a.len() - LIST_HEAD) as u64))));
            Value::Array(head)
        }
        other => other.clone(),
    }
}

/// `v` cut as `how` says when it is a string longer than that allows, and whether it was.
fn cut_value(v: &Value, how: Cut) -> (Value, bool) {
    let Value::String(s) = v else {
        return (v.clone(), false);
    };
    let chars = s.chars().count();
    match how {
        Cut::Text if chars > TEXT_CHARS => (Value::String(cut_text(s, TEXT_CHARS)), true),
        Cut::Opaque if chars > OPAQUE_CHARS => {
            let head: String = s.chars().take(OPAQUE_CHARS / 2).collect();
            (Value::String(format!("{head}…[+{} chars]", thousands((chars - OPAQUE_CHARS / 2) as u64))), true)
        }
        _ => (v.clone(), false),
    }
}

/// `s` cut to about `max` characters at a word boundary, with the marker caps use.
pub(crate) fn cut_text(s: &str, max: usize) -> String {
    let total = s.chars().count();
    if total <= max {
        return s.to_owned();
    }
    // The first `max` characters, borrowed (there are more).
    let head = &s[..s.char_indices().nth(max).map_or(s.len(), |(i, _)| i)];
    let head = match head.rfind(char::is_whitespace) {
        Some(i) if i > max / 2 => &head[..i],
        _ => head,
    };
    let head = head.trim_end();
    format!("{head} …[+{} chars]", thousands((total - head.chars().count()) as u64))
}

impl Column {
    /// [`at_path`] for this column's path, each member tried first where the last record
    /// held it.
    fn at_path_hinted<'v>(&self, record: &'v Value) -> Option<&'v Value> {
        self.path.iter().enumerate().try_fold(record, |cur, (i, step)| match step {
            Step::Key(k) | Step::Tag(k) => member(cur, k, self.hints.at(i)),
            Step::First => cur.as_array()?.first(),
            Step::Place(p) => cur.as_array()?.get(*p),
        })
    }
}

/// The value at `path` in `record`, before any extraction.
pub(super) fn at_path<'v>(record: &'v Value, path: &[Step]) -> Option<&'v Value> {
    path.iter().try_fold(record, |cur, step| match step {
        Step::Key(k) | Step::Tag(k) => cur.get(k),
        Step::First => cur.as_array()?.first(),
        Step::Place(p) => cur.as_array()?.get(*p),
    })
}

/// The `member` of each object of `list` that has one, empty values left out: a list of
/// objects written as their names.
fn names_in(list: &[Value], member: &str) -> Vec<Value> {
    list.iter().filter_map(|e| e.get(member)).filter(|v| !is_empty(v)).cloned().collect()
}

/// The sum of `member` over the list's objects, whole where every one is and the sum fits;
/// `None` when no object holds a number there.
fn total_of(list: &[Value], member: &str) -> Option<Value> {
    let numbers: Vec<&serde_json::Number> = list.iter().filter_map(|e| e.get(member)?.as_number()).collect();
    if numbers.is_empty() {
        return None;
    }
    let whole = numbers.iter().try_fold(0i64, |sum, n| sum.checked_add(n.as_i64()?));
    if let Some(whole) = whole {
        return Some(Value::from(whole));
    }
    serde_json::Number::from_f64(numbers.iter().filter_map(|n| n.as_f64()).sum()).map(Value::Number)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::total_of;

    #[test]
    fn a_total_is_whole_where_it_fits_and_never_overflows() {
        assert_eq!(total_of(&[json!({"count": 2}), json!({"count": 3}), json!({})], "count"), Some(json!(5)));
        assert_eq!(total_of(&[json!({"count": 1.5}), json!({"count": 2})], "count"), Some(json!(3.5)));
        let huge = [json!({"count": i64::MAX}), json!({"count": i64::MAX})];
        assert_eq!(total_of(&huge, "count"), Some(json!(2.0 * i64::MAX as f64)));
        assert_eq!(total_of(&[json!({"name": "x"})], "count"), None);
    }
}
