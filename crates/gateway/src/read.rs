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

use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The tool's name.
pub(crate) const TOOL_NAME: &str = "result_read";

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
            "pattern": {"type": "string", "description": "Optional regular expression: keep only matching lines (text; a whole `Key: value` record such as a git commit) or records (JSON)."},
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

pub(crate) use toolshape_shape::{View, ViewError};

/// Make the view `args` asks for over a stored result (a JSON value or text): the shape
/// crate's views (a pattern narrows inside large members, and a record found deep inside
/// keeps the values that name it).
pub(crate) fn make_view(stored: &[u8], args: &ReadArgs) -> Result<View, ViewError> {
    let spec = toolshape_shape::ViewSpec {
        query: args.query.clone(),
        pattern: args.pattern.clone(),
        offset: args.offset,
        limit: args.limit,
    };
    toolshape_shape::make_view(stored, &spec)
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
        let v = make_view(&stored, &args(json!({"cursor": "c", "query": "$[?@.state == 'open'].n"}))).unwrap().bytes;
        assert_eq!(v, b"[1,3]");
        let v = make_view(&stored, &args(json!({"cursor": "c", "pattern": "CRASH", "offset": 1}))).unwrap().bytes;
        assert_eq!(serde_json::from_slice::<Value>(&v).unwrap()[0]["n"], 3);
        let v = make_view(&stored, &args(json!({"cursor": "c", "limit": 1}))).unwrap().bytes;
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
        let v = make_view(stored, &args(json!({"cursor": "c", "pattern": "^error"}))).unwrap().bytes;
        assert_eq!(v, b"ERROR b\nERROR d");
        let v = make_view(stored, &args(json!({"cursor": "c", "offset": 1, "limit": 2}))).unwrap().bytes;
        assert_eq!(v, b"ERROR b\nINFO c\n");
        assert_eq!(make_view(stored, &args(json!({"cursor": "c", "query": "$"}))), Err(ViewError::QueryOnText));
    }

    #[test]
    fn object_members_are_units() {
        let stored = br#"{"a":1,"b":"x","c":3}"#;
        let v = make_view(stored, &args(json!({"cursor": "c", "pattern": "\"x\""}))).unwrap().bytes;
        assert_eq!(v, br#"{"b":"x"}"#);
    }
}
