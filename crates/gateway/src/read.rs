//! `result_read`: toolshape's own tool for reading more of a stored result.
//!
//! Its arguments are a `cursor` (from `next`) or a `handle` (from a reference result), and
//! optionally a `query`, a `pattern`, an `offset` and a `limit`. Without the optional
//! arguments it reads the page the cursor points at. With any of them it makes a *view* of
//! the whole stored result: the query picks values, the pattern keeps matching lines or
//! records, offset and limit slice what is left; the view is then shaped from its start
//! like any result (and stored in turn when it does not fit).
//!
//! The query language is RFC 9535 JSONPath (`$[?@.state == 'open'].title`), run with
//! `serde_json_path`: it has no way to reach the environment, the clock or the file system,
//! and its cost is bounded by the size of the stored result. (A jq-like filter language may
//! be added later; JSONPath was chosen for this first version because it is safe by
//! construction and about 15 times faster than jaq on selections.)
//!
//! Everything here is pure: bytes in, bytes out.

use regex::RegexBuilder;
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The tool's name.
pub(crate) const TOOL_NAME: &str = "result_read";

/// Longest `query` accepted, in characters.
pub(crate) const MAX_QUERY_CHARS: usize = 500;
/// Longest `pattern` accepted, in characters.
pub(crate) const MAX_PATTERN_CHARS: usize = 200;
/// Most bytes a view may have, as a multiple of the stored result (plus a floor): a query
/// like `$..*` repeats nested values, and this keeps it bounded.
const VIEW_GROWTH: usize = 4;
const VIEW_FLOOR: usize = 1 << 20;

/// The arguments of `result_read`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReadArgs {
    /// A cursor from a `next`.
    #[serde(default)]
    pub(crate) cursor: Option<String>,
    /// A handle from a reference result (same format as a cursor).
    #[serde(default)]
    pub(crate) handle: Option<String>,
    /// An RFC 9535 JSONPath query over the stored result.
    #[serde(default)]
    pub(crate) query: Option<String>,
    /// A regular expression; keeps matching lines (text) or records (JSON).
    #[serde(default)]
    pub(crate) pattern: Option<String>,
    /// Skip this many lines or records of the view.
    #[serde(default)]
    pub(crate) offset: Option<u64>,
    /// Keep at most this many lines or records of the view.
    #[serde(default)]
    pub(crate) limit: Option<u64>,
    /// Read the original of this media item (the number in a listing's `next`).
    #[serde(default)]
    pub(crate) media: Option<u32>,
    /// With `media`: only this rectangle of the original image, in its pixels, fitted to the
    /// media budget again.
    #[serde(default)]
    pub(crate) region: Option<toolshape_media::Region>,
}

impl ReadArgs {
    /// Parse the model's arguments; the error says what to fix.
    pub(crate) fn parse(args: Option<&Map<String, Value>>) -> Result<ReadArgs, ReadArgsError> {
        let v = Value::Object(args.cloned().unwrap_or_default());
        let parsed: ReadArgs = serde_json::from_value(v).map_err(|e| ReadArgsError::Malformed(e.to_string()))?;
        match (&parsed.cursor, &parsed.handle) {
            (None, None) => Err(ReadArgsError::NoToken),
            (Some(_), Some(_)) => Err(ReadArgsError::BothTokens),
            _ if parsed.region.is_some() && parsed.media.is_none() => Err(ReadArgsError::RegionWithoutMedia),
            _ if parsed.media.is_some() && parsed.wants_view() => Err(ReadArgsError::ViewOfMedia),
            _ => Ok(parsed),
        }
    }

    /// The cursor or handle text.
    pub(crate) fn token(&self) -> &str {
        self.cursor.as_deref().or(self.handle.as_deref()).unwrap_or_default()
    }

    /// Whether a view must be made (anything beyond reading the cursor's page).
    pub(crate) fn wants_view(&self) -> bool {
        self.query.is_some() || self.pattern.is_some() || self.offset.is_some() || self.limit.is_some()
    }
}

/// Why `result_read`'s arguments were refused; each message says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ReadArgsError {
    /// Unknown arguments or values of the wrong type, as the parser put it.
    #[error(
        "{0} (result_read takes cursor or handle, and optionally query, pattern, offset, limit; or media and region)"
    )]
    Malformed(String),
    /// Neither a cursor nor a handle.
    #[error("give `cursor` (from a result's `next`) or `handle`")]
    NoToken,
    /// Both a cursor and a handle.
    #[error("give either `cursor` or `handle`, not both")]
    BothTokens,
    /// A region without the media item it is a region of.
    #[error("`region` needs `media`: copy the `next` of the image and add `region`")]
    RegionWithoutMedia,
    /// A view of a media item.
    #[error("`query`, `pattern`, `offset` and `limit` read records and text, not media: leave them out with `media`")]
    ViewOfMedia,
}

/// The input schema `result_read` is listed with.
pub(crate) fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "cursor": {"type": "string", "description": "The cursor from a result's `next`."},
            "handle": {"type": "string", "description": "A handle from a stored (reference) result."},
            "query": {"type": "string", "description": "Optional RFC 9535 JSONPath over the stored JSON, e.g. `$[?@.state == 'open'].title`; `$` is the list of records."},
            "pattern": {"type": "string", "description": "Optional regular expression: keep only matching lines (text) or records (JSON)."},
            "offset": {"type": "integer", "minimum": 0, "description": "Optional: skip this many lines or records."},
            "limit": {"type": "integer", "minimum": 1, "description": "Optional: at most this many lines or records."},
            "media": {"type": "integer", "minimum": 1, "description": "The media item a listing's `next` names: returns its original."},
            "region": {
                "type": "object",
                "description": "With `media`: only this rectangle of the original image, in its pixels, fitted to the media budget again.",
                "properties": {
                    "x": {"type": "integer", "minimum": 0},
                    "y": {"type": "integer", "minimum": 0},
                    "width": {"type": "integer", "minimum": 1},
                    "height": {"type": "integer", "minimum": 1}
                },
                "required": ["x", "y", "width", "height"],
                "additionalProperties": false
            }
        },
        "additionalProperties": false
    })
}

/// The description `result_read` is listed with.
pub(crate) const DESCRIPTION: &str = "Read more of a result that did not fit: pass the `cursor` from its `next` (or a `handle`). \
Optionally narrow the stored result with `query` (JSONPath), `pattern` (regex over lines or records), `offset` and `limit`. \
For an image that was downscaled or left out, its `next` (with `media`) returns the original; add `region` ({x, y, width, height} in the original's pixels) to see part of it in detail.";

/// Why a view could not be made; each message says what to do instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ViewError {
    /// The query is not valid JSONPath, or too long.
    #[error("invalid query: {0}")]
    Query(String),
    /// The pattern is not a valid regular expression, or too long or complex.
    #[error("invalid pattern: {0}")]
    Pattern(String),
    /// A query was given for a text result.
    #[error("`query` works on JSON results; this one is text: use `pattern`, `offset` and `limit`")]
    QueryOnText,
    /// The view would be too large.
    #[error("the view would exceed {limit} bytes; narrow the query or pattern")]
    TooLarge {
        /// The bound that was hit.
        limit: usize,
    },
}

/// Make the view `args` asks for over a stored result (a JSON value or text).
pub(crate) fn make_view(stored: &[u8], args: &ReadArgs) -> Result<Vec<u8>, ViewError> {
    let limit_bytes = stored.len().saturating_mul(VIEW_GROWTH).max(VIEW_FLOOR);
    let pattern = match &args.pattern {
        Some(p) => Some(compile_pattern(p)?),
        None => None,
    };
    match serde_json::from_slice::<Value>(stored) {
        Ok(mut value) => {
            if let Some(q) = &args.query {
                value = Value::Array(run_query(q, &value, limit_bytes)?);
            }
            let mut units: Vec<Unit> = match value {
                Value::Array(items) => items.into_iter().map(Unit::Item).collect(),
                Value::Object(m) => m.into_iter().map(|(k, v)| Unit::Member(k, v)).collect(),
                other => vec![Unit::Item(other)],
            };
            let was_object = units.iter().any(|u| matches!(u, Unit::Member(..)));
            if let Some(re) = &pattern {
                units.retain(|u| re.is_match(&u.text()));
            }
            let units = slice(units, args.offset, args.limit);
            let out = if was_object {
                let mut m = Map::new();
                for u in units {
                    if let Unit::Member(k, v) = u {
                        m.insert(k, v);
                    }
                }
                Value::Object(m)
            } else {
                Value::Array(units.into_iter().map(Unit::into_value).collect())
            };
            let bytes = serde_json::to_vec(&out).unwrap_or_default();
            if bytes.len() > limit_bytes {
                return Err(ViewError::TooLarge { limit: limit_bytes });
            }
            Ok(bytes)
        }
        Err(_) => {
            if args.query.is_some() {
                return Err(ViewError::QueryOnText);
            }
            let text = String::from_utf8_lossy(stored);
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let kept: Vec<&str> = match &pattern {
                Some(re) => lines.into_iter().filter(|l| re.is_match(l.trim_end_matches(['\n', '\r']))).collect(),
                None => lines,
            };
            let kept = slice(kept, args.offset, args.limit);
            Ok(kept.concat().into_bytes())
        }
    }
}

enum Unit {
    Item(Value),
    Member(String, Value),
}

impl Unit {
    fn text(&self) -> String {
        match self {
            Unit::Item(v) => v.to_string(),
            Unit::Member(k, v) => format!("{}:{v}", Value::String(k.clone())),
        }
    }

    fn into_value(self) -> Value {
        match self {
            Unit::Item(v) => v,
            Unit::Member(k, v) => json!({ k: v }),
        }
    }
}

fn slice<T>(items: Vec<T>, offset: Option<u64>, limit: Option<u64>) -> Vec<T> {
    let skip = usize::try_from(offset.unwrap_or(0)).unwrap_or(usize::MAX);
    let take = limit.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
    items.into_iter().skip(skip).take(take).collect()
}

fn compile_pattern(p: &str) -> Result<regex::Regex, ViewError> {
    if p.chars().count() > MAX_PATTERN_CHARS {
        return Err(ViewError::Pattern(format!("at most {MAX_PATTERN_CHARS} characters")));
    }
    // Bounded compiled size: a hostile pattern cannot make the regex engine take much memory.
    RegexBuilder::new(p)
        .case_insensitive(true)
        .size_limit(1 << 20)
        .dfa_size_limit(1 << 20)
        .build()
        .map_err(|e| ViewError::Pattern(e.to_string().lines().last().unwrap_or("not a regular expression").to_owned()))
}

fn run_query(q: &str, value: &Value, limit_bytes: usize) -> Result<Vec<Value>, ViewError> {
    if q.chars().count() > MAX_QUERY_CHARS {
        return Err(ViewError::Query(format!("at most {MAX_QUERY_CHARS} characters")));
    }
    let path = serde_json_path::JsonPath::parse(q.trim()).map_err(|e| {
        ViewError::Query(format!("{e} (write RFC 9535 JSONPath starting with `$`, like `$[?@.state == 'open'].title`)"))
    })?;
    let nodes = path.query(value);
    let mut out = Vec::new();
    let mut size = 0usize;
    for v in nodes.all() {
        // Counted before cloning, so a query that repeats huge subtrees stops early.
        size = size.saturating_add(approx_size(v, limit_bytes));
        if size > limit_bytes {
            return Err(ViewError::TooLarge { limit: limit_bytes });
        }
        out.push(v.clone());
    }
    Ok(out)
}

/// The serialized size of `v`, counted only up to `cap`.
fn approx_size(v: &Value, cap: usize) -> usize {
    struct Counter {
        n: usize,
        cap: usize,
    }
    impl std::io::Write for Counter {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.n += b.len();
            if self.n > self.cap { Err(std::io::Error::other("over")) } else { Ok(b.len()) }
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Counter { n: 0, cap };
    let _ = serde_json::to_writer(&mut c, v);
    c.n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> ReadArgs {
        ReadArgs::parse(v.as_object()).unwrap()
    }

    #[test]
    fn parses_and_refuses_arguments() {
        assert!(ReadArgs::parse(json!({}).as_object()).is_err());
        assert!(ReadArgs::parse(json!({"cursor": "a", "handle": "b"}).as_object()).is_err());
        let e = ReadArgs::parse(json!({"cursor": "a", "bogus": 1}).as_object()).unwrap_err().to_string();
        assert!(e.contains("bogus"), "{e}");
        assert!(!args(json!({"cursor": "a"})).wants_view());
        assert!(args(json!({"handle": "a", "limit": 3})).wants_view());
    }

    #[test]
    fn queries_patterns_and_slices_records() {
        let stored = serde_json::to_vec(&json!([
            {"n": 1, "state": "open", "title": "Crash on save"},
            {"n": 2, "state": "closed", "title": "Typo"},
            {"n": 3, "state": "open", "title": "crash on load"},
        ]))
        .unwrap();
        let v = make_view(&stored, &args(json!({"cursor": "c", "query": "$[?@.state == 'open'].n"}))).unwrap();
        assert_eq!(v, b"[1,3]");
        let v = make_view(&stored, &args(json!({"cursor": "c", "pattern": "CRASH", "offset": 1}))).unwrap();
        assert_eq!(serde_json::from_slice::<Value>(&v).unwrap()[0]["n"], 3);
        let v = make_view(&stored, &args(json!({"cursor": "c", "limit": 1}))).unwrap();
        assert_eq!(serde_json::from_slice::<Value>(&v).unwrap().as_array().unwrap().len(), 1);
        assert!(matches!(
            make_view(&stored, &args(json!({"cursor": "c", "query": "state"}))),
            Err(ViewError::Query(_))
        ));
        assert!(matches!(
            make_view(&stored, &args(json!({"cursor": "c", "pattern": "("}))),
            Err(ViewError::Pattern(_))
        ));
    }

    #[test]
    fn text_views_keep_whole_lines() {
        let stored = b"INFO a\nERROR b\nINFO c\nERROR d";
        let v = make_view(stored, &args(json!({"cursor": "c", "pattern": "^error"}))).unwrap();
        assert_eq!(v, b"ERROR b\nERROR d");
        let v = make_view(stored, &args(json!({"cursor": "c", "offset": 1, "limit": 2}))).unwrap();
        assert_eq!(v, b"ERROR b\nINFO c\n");
        assert_eq!(make_view(stored, &args(json!({"cursor": "c", "query": "$"}))), Err(ViewError::QueryOnText));
    }

    #[test]
    fn object_members_are_units() {
        let stored = br#"{"a":1,"b":"x","c":3}"#;
        let v = make_view(stored, &args(json!({"cursor": "c", "pattern": "\"x\""}))).unwrap();
        assert_eq!(v, br#"{"b":"x"}"#);
    }
}
