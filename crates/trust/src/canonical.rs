//! Canonical JSON: one spelling per value, so that a hash of it changes only when the value
//! does.
//!
//! Two JSON texts that differ only in object key order, whitespace or the spelling of an
//! integral number (`1.0`, `1`, `1e0`) have the same canonical form. The rules, close to
//! RFC 8785 but simpler because only equality matters here, not interchange:
//! - object members sorted by key, byte-wise (which is code point order in UTF-8);
//! - no whitespace in the compact form; two-space indentation in the pretty form;
//! - a floating-point number with no fractional part, within the range where every integer
//!   is exact (±2^53), written as an integer; other numbers as `serde_json` writes them;
//! - strings escaped as `serde_json` escapes them (quotes, backslashes, control characters).
//!
//! Strings are compared as written: no Unicode normalization, because a change of form is a
//! change a reviewer should see.

use serde_json::{Map, Number, Value};
use sha2::{Digest, Sha256};

/// The largest integer a 64-bit float represents exactly, and every integer below it.
const EXACT_INTEGER_LIMIT: f64 = 9_007_199_254_740_992.0;

/// The canonical value: members sorted by key, integral floats as integers.
///
/// Recursive: values parsed by `serde_json` are at most 128 levels deep.
pub fn canonicalize(value: &Value) -> Value {
    match value {
        Value::Object(members) => {
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort_unstable();
            let mut sorted = Map::with_capacity(members.len());
            for key in keys {
                if let Some(member) = members.get(key) {
                    sorted.insert(key.clone(), canonicalize(member));
                }
            }
            Value::Object(sorted)
        }
        Value::Array(items) => Value::Array(items.iter().map(canonicalize).collect()),
        Value::Number(n) => Value::Number(canonical_number(n)),
        Value::Null | Value::Bool(_) | Value::String(_) => value.clone(),
    }
}

/// `n`, with an integral float inside the exact range turned into an integer.
fn canonical_number(n: &Number) -> Number {
    if n.is_f64()
        && let Some(f) = n.as_f64()
        && f.fract() == 0.0
        && f.abs() <= EXACT_INTEGER_LIMIT
    {
        // In range and integral, so the conversion is exact. `-0.0` becomes `0`.
        #[allow(clippy::cast_possible_truncation)]
        let int = f as i64;
        return Number::from(int);
    }
    n.clone()
}

/// The compact canonical text of `value`.
pub fn canonical_text(value: &Value) -> String {
    // Serializing a `Value` cannot fail: its keys are strings and its numbers finite.
    serde_json::to_string(&canonicalize(value)).unwrap_or_default()
}

/// The canonical text of `value`, indented by two spaces per level: what a reviewer reads.
pub fn canonical_pretty(value: &Value) -> String {
    serde_json::to_string_pretty(&canonicalize(value)).unwrap_or_default()
}

/// `json` without whitespace outside strings: the compact form of a pretty-printed text,
/// found without parsing numbers (see `CanonicalParts` for why that matters).
pub(crate) fn strip_json_whitespace(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in json.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            out.push(c);
            in_string = c == '"';
        }
    }
    out
}

/// The SHA-256 digest of `bytes`.
pub(crate) fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_and_whitespace_do_not_matter() {
        let a: Value = serde_json::from_str(r#"{"b": 1, "a": {"y": [1, 2], "x": null}}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"a":{"x":null,"y":[1,2]},"b":1}"#).unwrap();
        assert_eq!(canonical_text(&a), canonical_text(&b));
        assert_eq!(canonical_text(&a), r#"{"a":{"x":null,"y":[1,2]},"b":1}"#);
    }

    #[test]
    fn integral_floats_are_integers() {
        let a: Value = serde_json::from_str(r#"[1.0, 1e0, -0.0, 2.5, 1e300, 12]"#).unwrap();
        assert_eq!(canonical_text(&a), "[1,1,0,2.5,1e+300,12]");
    }

    #[test]
    fn array_order_matters() {
        assert_ne!(canonical_text(&json!([1, 2])), canonical_text(&json!([2, 1])));
    }

    #[test]
    fn pretty_is_sorted_and_indented() {
        assert_eq!(canonical_pretty(&json!({"b": 1, "a": [true]})), "{\n  \"a\": [\n    true\n  ],\n  \"b\": 1\n}");
    }

    #[test]
    fn stripping_the_pretty_form_gives_the_compact_form() {
        let v = json!({"a b": "x \" y\\", "n": [1, 2.5, {"k": " "}], "e": {}});
        assert_eq!(strip_json_whitespace(&canonical_pretty(&v)), canonical_text(&v));
    }

    #[test]
    fn sha256_of_nothing() {
        assert_eq!(
            toolshape_util::hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
