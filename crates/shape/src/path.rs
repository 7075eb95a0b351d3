//! Field paths: the small language masks use to name parts of a record.
//!
//! Grammar: segments separated by `.`; a segment is a key, a key followed by `[]` (every
//! element of an array) or `[N]` (one element), or a bracketed quoted key `["a.b"]` for keys
//! that contain dots. A leading `$` or `$.` is accepted so `$.items` reads like JSONPath.
//! Examples: `title`, `user.login`, `labels[].name`, `assets[0].url`, `["x.y"].z`.
//!
//! Paths are parsed once (at config load) and evaluated many times, so evaluation never
//! allocates for lookups that do not fan out over arrays.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// One step of a [`FieldPath`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// An object member.
    Key(String),
    /// Every element of an array; the rest of the path applies to each.
    Each,
    /// One element of an array.
    Index(usize),
}

/// A parsed field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldPath {
    text: String,
    segments: Vec<Segment>,
}

/// Why a path did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid field path `{path}`: {reason} (write paths like `user.login`, `labels[].name` or `items[0].id`)")]
pub struct PathError {
    /// The text that was given.
    pub path: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FieldPath {
    /// Parse a path.
    pub fn parse(text: &str) -> Result<Self, PathError> {
        let err = |reason: &str| PathError { path: text.to_owned(), reason: reason.to_owned() };
        let mut rest = text.trim();
        if let Some(r) = rest.strip_prefix('$') {
            rest = r.strip_prefix('.').unwrap_or(r);
        }
        let mut segments = Vec::new();
        let bytes = rest.as_bytes();
        let mut i = 0;
        let mut expect_key = true;
        while i < bytes.len() {
            match bytes[i] {
                b'[' => {
                    let close = rest[i..].find(']').ok_or_else(|| err("`[` without `]`"))? + i;
                    let inner = rest[i + 1..close].trim();
                    if inner.is_empty() || inner == "*" {
                        segments.push(Segment::Each);
                    } else if let Some(q) = inner
                        .strip_prefix('"')
                        .and_then(|s| s.strip_suffix('"'))
                        .or_else(|| inner.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))
                    {
                        segments.push(Segment::Key(q.to_owned()));
                    } else {
                        let n: usize =
                            inner.parse().map_err(|_| err("inside `[]` write nothing, a number, or a quoted key"))?;
                        segments.push(Segment::Index(n));
                    }
                    i = close + 1;
                    expect_key = false;
                }
                b'.' => {
                    if expect_key {
                        return Err(err("empty segment"));
                    }
                    i += 1;
                    expect_key = true;
                    if i == bytes.len() {
                        return Err(err("ends with `.`"));
                    }
                }
                _ => {
                    if !expect_key {
                        return Err(err("expected `.` or `[` between segments"));
                    }
                    let end = rest[i..].find(['.', '[']).map_or(rest.len(), |e| e + i);
                    let key = rest[i..end].trim();
                    if key.is_empty() {
                        return Err(err("empty segment"));
                    }
                    if key.contains(char::is_whitespace) {
                        return Err(err("keys with spaces must be quoted: `[\"my key\"]`"));
                    }
                    segments.push(Segment::Key(key.to_owned()));
                    i = end;
                    expect_key = false;
                }
            }
        }
        if segments.is_empty() && !text.trim().starts_with('$') {
            return Err(err("empty path"));
        }
        Ok(FieldPath { text: text.trim().to_owned(), segments })
    }

    /// The path as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The parsed segments.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Whether the path fans out over an array (`[]`).
    pub fn fans_out(&self) -> bool {
        self.segments.iter().any(|s| matches!(s, Segment::Each))
    }

    /// The last key of the path, if it ends with one.
    pub fn last_key(&self) -> Option<&str> {
        self.segments.iter().rev().find_map(|s| match s {
            Segment::Key(k) => Some(k.as_str()),
            _ => None,
        })
    }

    /// The single value at this path, following only keys and indexes. A path that fans out
    /// returns `None`; use [`FieldPath::select`] for those.
    pub fn get<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        let mut cur = value;
        for seg in &self.segments {
            cur = match (seg, cur) {
                (Segment::Key(k), Value::Object(m)) => m.get(k)?,
                (Segment::Index(i), Value::Array(a)) => a.get(*i)?,
                _ => return None,
            };
        }
        Some(cur)
    }

    /// Mutable access to the single value at this path (keys and indexes only).
    pub fn get_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        let mut cur = value;
        for seg in &self.segments {
            cur = match (seg, cur) {
                (Segment::Key(k), Value::Object(m)) => m.get_mut(k)?,
                (Segment::Index(i), Value::Array(a)) => a.get_mut(*i)?,
                _ => return None,
            };
        }
        Some(cur)
    }

    /// The value at this path, with `[]` segments collecting into arrays. Missing parts give
    /// `None` (or are skipped inside a fan-out).
    pub fn select(&self, value: &Value) -> Option<Value> {
        select_from(&self.segments, value)
    }

    /// Apply `f` to every value this path reaches, fan-outs included.
    pub fn for_each_mut(&self, value: &mut Value, f: &mut dyn FnMut(&mut Value)) {
        for_each_mut_from(&self.segments, value, f);
    }
}

fn select_from(segments: &[Segment], value: &Value) -> Option<Value> {
    let Some((first, rest)) = segments.split_first() else {
        return Some(value.clone());
    };
    match (first, value) {
        (Segment::Key(k), Value::Object(m)) => select_from(rest, m.get(k)?),
        (Segment::Index(i), Value::Array(a)) => select_from(rest, a.get(*i)?),
        (Segment::Each, Value::Array(a)) => Some(Value::Array(a.iter().filter_map(|v| select_from(rest, v)).collect())),
        _ => None,
    }
}

fn for_each_mut_from(segments: &[Segment], value: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    let Some((first, rest)) = segments.split_first() else {
        f(value);
        return;
    };
    match (first, value) {
        (Segment::Key(k), Value::Object(m)) => {
            if let Some(v) = m.get_mut(k) {
                for_each_mut_from(rest, v, f);
            }
        }
        (Segment::Index(i), Value::Array(a)) => {
            if let Some(v) = a.get_mut(*i) {
                for_each_mut_from(rest, v, f);
            }
        }
        (Segment::Each, Value::Array(a)) => {
            for v in a {
                for_each_mut_from(rest, v, f);
            }
        }
        _ => {}
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Append `key` to the path written in `out`, as a mask's field path writes it: after a
/// `.` (none at the start) where it is letters, digits, `_` and `-`, else quoted in
/// brackets (`["a.b"]`, `["Kaspersky Lab"]`), so that a path the model reads back in a
/// summary can be given as it is.
pub(crate) fn push_key(out: &mut String, key: &str) {
    if !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(key);
    } else {
        out.push('[');
        out.push_str(&Value::String(key.to_owned()).to_string());
        out.push(']');
    }
}

/// `segments` written as a path (see [`push_key`]): `data.attributes["pe info"].list[12]`.
pub(crate) fn path_text(segments: &[Segment]) -> String {
    let mut out = String::new();
    for segment in segments {
        match segment {
            Segment::Key(k) => push_key(&mut out, k),
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
            Segment::Each => out.push_str("[]"),
        }
    }
    out
}

impl FromStr for FieldPath {
    type Err = PathError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        FieldPath::parse(s)
    }
}

impl Serialize for FieldPath {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for FieldPath {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        FieldPath::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_and_selects() {
        let v = json!({"user": {"login": "octo"}, "labels": [{"name": "bug"}, {"name": "ui"}, {}], "x.y": {"z": 1}});
        assert_eq!(FieldPath::parse("user.login").unwrap().select(&v), Some(json!("octo")));
        assert_eq!(FieldPath::parse("labels[].name").unwrap().select(&v), Some(json!(["bug", "ui"])));
        assert_eq!(FieldPath::parse("labels[1].name").unwrap().get(&v), Some(&json!("ui")));
        assert_eq!(FieldPath::parse("[\"x.y\"].z").unwrap().get(&v), Some(&json!(1)));
        assert_eq!(FieldPath::parse("$.user").unwrap().get(&v), Some(&json!({"login": "octo"})));
        assert_eq!(FieldPath::parse("$").unwrap().get(&v), Some(&v));
        assert_eq!(FieldPath::parse("user.missing").unwrap().get(&v), None);
    }

    /// A path the summaries write (where `next` goes on, where records sit) parses back to
    /// the same segments, keys with dots or spaces quoted.
    #[test]
    fn written_paths_parse_back_to_their_segments() {
        let segments = vec![
            Segment::Key("data".into()),
            Segment::Key("pe info".into()),
            Segment::Key("x.y".into()),
            Segment::Index(12),
            Segment::Key("import-list_2".into()),
        ];
        let text = path_text(&segments);
        assert_eq!(text, r#"data["pe info"]["x.y"][12].import-list_2"#);
        assert_eq!(FieldPath::parse(&text).unwrap().segments(), segments.as_slice());
        let mut key_first = String::new();
        push_key(&mut key_first, "Kaspersky Lab");
        assert_eq!(key_first, r#"["Kaspersky Lab"]"#);
    }

    #[test]
    fn rejects_malformed_paths_with_reasons() {
        for bad in ["", "a..b", "a.", "a[", "a[x]", "a b", ".a", "a[]b"] {
            let e = FieldPath::parse(bad).unwrap_err();
            assert!(!e.reason.is_empty(), "{bad}");
        }
    }
}
