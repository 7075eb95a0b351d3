//! How the facets write values: a scalar without its quotes, a value quoted where it would
//! read as the end of a clause, a time in words, a record's key and label shortened only
//! past their limits.

use serde_json::Value;

use crate::distinct::head_and_tail;

/// A scalar as a summary writes it: a string without its quotes.
pub(super) fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A listed value as a summary shows it: quoted (JSON) where it holds what separates
/// clauses or values (`;`, `,`, a quote), is empty, or has spaces at an end, so that
/// `…Googlebot/2.1; +http://…` reads as one value and not as the end of a clause.
pub(super) fn quoted_if_ambiguous(v: &str) -> String {
    let ambiguous = v.is_empty()
        || v.contains([';', ',', '"'])
        || v.starts_with(char::is_whitespace)
        || v.ends_with(char::is_whitespace);
    if ambiguous { Value::String(v.to_owned()).to_string() } else { v.to_owned() }
}

/// Milliseconds since 1970 as an RFC 3339 time in UTC, to the second.
pub(super) fn iso_time(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms.div_euclid(1000) * 1000).map(|t| t.to_string()).unwrap_or_default()
}

/// The longest key a summary writes whole. A key is what a reader names the record by and
/// looks it up with, and one cut in the middle (an object's path) finds nothing; past this,
/// it is a document rather than a name.
pub(super) const KEY_CHARS: usize = 200;
/// The longest label written whole: a title said beside the key only to be read, which the
/// key already identifies.
pub(super) const LABEL_CHARS: usize = 80;

/// `s` whole up to `max` characters; a longer one is shortened as other values are.
pub(super) fn short_key(s: &str, max: usize) -> String {
    if s.chars().count() <= max { s.to_owned() } else { head_and_tail(s) }
}
