//! Per-record steps: parse, redact, project, cap free-text fields, and sort keys.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{Map, Value};
use toolshape_redact::{RedactionCounts, Redactor};
use toolshape_tokens::Tokenizer;

use crate::numfmt::thousands;
use crate::path::FieldPath;
use crate::plan::{Projection, SortOrder};

/// Parse one raw record. A record nested past the parser's depth limit is kept as its text,
/// so it is still shown (and cut) rather than dropped.
pub(crate) fn parse(raw: &RawValue) -> Value {
    serde_json::from_str(raw.get()).unwrap_or_else(|_| Value::String(raw.get().to_owned()))
}

/// Redact what is declared and detected, then project.
pub(crate) struct RecordShaper<'p> {
    pub(crate) redactor: &'p Redactor,
    pub(crate) redact_fields: &'p [FieldPath],
    pub(crate) project: &'p [Projection],
}

impl RecordShaper<'_> {
    /// Redact a whole record (used before a filter looks at it).
    pub(crate) fn redact_all(&self, record: &mut Value, counts: &mut RedactionCounts) {
        for path in self.redact_fields {
            path.for_each_mut(record, &mut |v| self.redactor.mask_whole("field", v, counts));
        }
        if !self.redactor.is_noop() {
            self.redactor.redact_value(record, counts);
        }
    }

    /// Project `record`, redacting each kept value as if it sat under its source key.
    /// `already_redacted` skips the second pass when [`RecordShaper::redact_all`] ran.
    pub(crate) fn shape(&self, mut record: Value, already_redacted: bool, counts: &mut RedactionCounts) -> Value {
        if !already_redacted {
            for path in self.redact_fields {
                path.for_each_mut(&mut record, &mut |v| self.redactor.mask_whole("field", v, counts));
            }
        }
        if self.project.is_empty() {
            if !already_redacted && !self.redactor.is_noop() {
                self.redactor.redact_value(&mut record, counts);
            }
            return record;
        }
        let mut out = Map::new();
        for p in self.project {
            if let Some(mut v) = p.path.select(&record) {
                if !already_redacted && !self.redactor.is_noop() {
                    match p.path.last_key() {
                        Some(key) => self.redactor.redact_field(key, &mut v, counts),
                        None => self.redactor.redact_value(&mut v, counts),
                    }
                }
                out.insert(p.name.clone(), v);
            }
        }
        Value::Object(out)
    }
}

/// Token caps for string fields.
pub(crate) struct Caps<'p> {
    pub(crate) named: &'p BTreeMap<String, usize>,
    pub(crate) default: Option<usize>,
}

impl Caps<'_> {
    pub(crate) fn is_empty(&self) -> bool {
        self.named.is_empty() && self.default.is_none()
    }

    /// Cut over-long strings of `record` in place; returns the names of the fields cut.
    pub(crate) fn apply(&self, record: &mut Value, tok: &Tokenizer) -> Vec<String> {
        let mut cut = Vec::new();
        if let Value::Object(map) = record {
            for (name, v) in map.iter_mut() {
                let cap = self.named.get(name).copied().or(self.default);
                if let Some(cap) = cap
                    && cap_strings(v, cap, tok)
                {
                    cut.push(name.clone());
                }
            }
        } else if let Some(cap) = self.default
            && cap_strings(record, cap, tok)
        {
            cut.push("(value)".to_owned());
        }
        cut
    }
}

/// Cut every string inside `v` to at most `cap` tokens plus a marker. Iterative, so a deep
/// value cannot exhaust the stack. Returns whether anything was cut.
pub(crate) fn cap_strings(v: &mut Value, cap: usize, tok: &Tokenizer) -> bool {
    let mut any = false;
    let mut stack = vec![v];
    while let Some(cur) = stack.pop() {
        match cur {
            Value::String(s) => {
                if let Some(cut) = cut_string(s, cap, tok) {
                    *s = cut;
                    any = true;
                }
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            Value::Object(m) => stack.extend(m.values_mut()),
            _ => {}
        }
    }
    any
}

/// Cut every string inside `v` to at most `cap` tokens plus a marker, but a string of one
/// word (no white space: a hash, an id, a path) within `word_cap` tokens: cut, it says
/// nothing, where prose cut still reads. Iterative, as [`cap_strings`].
pub(crate) fn cap_strings_keeping_words(v: &mut Value, cap: usize, word_cap: usize, tok: &Tokenizer) {
    let mut stack = vec![v];
    while let Some(cur) = stack.pop() {
        match cur {
            Value::String(s) if !s.contains(char::is_whitespace) && tok.fits(s, word_cap) => {}
            Value::String(s) => {
                if let Some(cut) = cut_string(s, cap, tok) {
                    *s = cut;
                }
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            Value::Object(m) => stack.extend(m.values_mut()),
            _ => {}
        }
    }
}

/// `s` cut to `cap` tokens with a marker naming how much was left, or `None` if it fits.
/// The marker is counted in the cap: it is not free.
pub(crate) fn cut_string(s: &str, cap: usize, tok: &Tokenizer) -> Option<String> {
    if tok.fits(s, cap) {
        return None;
    }
    // The marker costs a few tokens; reserve them from the cap.
    let probe = format!(" …[+{} chars]", thousands(s.chars().count() as u64));
    let reserve = tok.count(&probe);
    let (prefix, _) = tok.prefix_within(s, cap.saturating_sub(reserve));
    let left = s[prefix.len()..].chars().count() as u64;
    Some(format!("{prefix} …[+{} chars]", thousands(left)))
}

/// A sort key pulled out of one record.
#[derive(Debug, Clone)]
pub(crate) enum SortKey {
    Missing,
    Bool(bool),
    Number(f64),
    Text(String),
    Other(String),
}

impl SortKey {
    pub(crate) fn of(record: &Value, by: &FieldPath) -> SortKey {
        match by.get(record) {
            None | Some(Value::Null) => SortKey::Missing,
            Some(Value::Bool(b)) => SortKey::Bool(*b),
            Some(Value::Number(n)) => n.as_f64().map_or(SortKey::Missing, SortKey::Number),
            Some(Value::String(s)) => SortKey::Text(s.clone()),
            Some(other) => SortKey::Other(other.to_string()),
        }
    }

    fn rank(&self) -> u8 {
        match self {
            SortKey::Bool(_) => 0,
            SortKey::Number(_) => 1,
            SortKey::Text(_) => 2,
            SortKey::Other(_) => 3,
            SortKey::Missing => 4,
        }
    }

    /// Order under `order`, with missing keys last either way.
    pub(crate) fn compare(&self, other: &SortKey, order: SortOrder) -> Ordering {
        let (a_missing, b_missing) = (matches!(self, SortKey::Missing), matches!(other, SortKey::Missing));
        if a_missing || b_missing {
            return a_missing.cmp(&b_missing);
        }
        let natural = match (self, other) {
            (SortKey::Bool(a), SortKey::Bool(b)) => a.cmp(b),
            (SortKey::Number(a), SortKey::Number(b)) => a.total_cmp(b),
            (SortKey::Text(a), SortKey::Text(b)) | (SortKey::Other(a), SortKey::Other(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        };
        match order {
            SortOrder::Asc => natural,
            SortOrder::Desc => natural.reverse(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cut_marks_what_was_left() {
        let tok = Tokenizer::default();
        let long = "word ".repeat(200);
        let cut = cut_string(&long, 20, &tok).unwrap();
        assert!(tok.count(&cut) <= 20, "{cut}");
        assert!(cut.ends_with("chars]"));
        assert!(cut_string("short", 20, &tok).is_none());
    }

    #[test]
    fn one_word_strings_within_their_cap_are_kept_and_the_rest_cut() {
        let tok = Tokenizer::default();
        let hash = "5ff66bf460819a3c0a7d2f1b9e84c6d3a1b2c3d4";
        let mut v = json!({"sha1": hash, "note": "word ".repeat(40), "blob": "x".repeat(2000)});
        cap_strings_keeping_words(&mut v, 12, 64, &tok);
        assert_eq!(v["sha1"], hash);
        assert!(v["note"].as_str().unwrap().ends_with("chars]"), "{v}");
        assert!(v["blob"].as_str().unwrap().ends_with("chars]"), "a word beyond the cap is cut: {v}");
    }

    #[test]
    fn missing_keys_sort_last_both_ways() {
        let by = FieldPath::parse("n").unwrap();
        let keys: Vec<SortKey> =
            [json!({"n": 2}), json!({}), json!({"n": 1})].iter().map(|r| SortKey::of(r, &by)).collect();
        for order in [SortOrder::Asc, SortOrder::Desc] {
            let mut idx = [0, 1, 2];
            idx.sort_by(|a, b| keys[*a].compare(&keys[*b], order));
            assert_eq!(idx[2], 1);
        }
    }
}
