//! Redaction of JSON values: every string, plus the whole value of members whose key names a
//! secret.
//!
//! The walk is iterative: upstream JSON may nest thousands of levels deep and must not overflow
//! the stack.

use serde_json::Value;

use crate::RedactionCounts;
use crate::fields::{KeyClass, classify_key, looks_secret};
use crate::kinds::Kind;
use crate::redactor::Redactor;

/// Whether a value has anything to hide: null, booleans and empty strings, arrays and objects
/// do not.
pub(crate) fn has_content(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(_) => false,
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        Value::Number(_) => true,
    }
}

/// Whether the member `key: value` is a secret field whose whole value must be replaced.
pub(crate) fn is_secret_member(key: &str, value: &Value) -> bool {
    if !has_content(value) {
        return false;
    }
    // Already a placeholder (ours, or one `mask_whole` wrote for a declared field path):
    // replacing it again would only count it twice.
    if let Value::String(s) = value
        && crate::mask::is_placeholder_shaped(s)
    {
        return false;
    }
    match classify_key(key) {
        KeyClass::Plain => false,
        KeyClass::Secret => true,
        KeyClass::SecretIfValueLooksSecret => matches!(value, Value::String(s) if looks_secret(s)),
    }
}

/// Replaces a secret field's value.
pub(crate) fn hide_secret(value: &mut Value, counts: &mut RedactionCounts) {
    *value = Value::String(Kind::SecretField.placeholder().to_owned());
    counts.add(Kind::SecretField.name(), 1);
}

/// Redacts `root` in place.
pub(crate) fn walk(redactor: &Redactor, root: &mut Value, counts: &mut RedactionCounts) {
    let fields = redactor.secret_fields_enabled();
    let text = redactor.has_text_detectors();
    if !fields && !text {
        return;
    }
    let mut stack: Vec<&mut Value> = vec![root];
    while let Some(value) = stack.pop() {
        match value {
            Value::String(s) => {
                if text {
                    redact_string(redactor, s, counts);
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(members) => {
                for (key, member) in members.iter_mut() {
                    if fields && is_secret_member(key, member) {
                        hide_secret(member, counts);
                    } else if matches!(member, Value::String(_) | Value::Array(_) | Value::Object(_)) {
                        stack.push(member);
                    }
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}

/// Redacts one string in place, reallocating only when something was found.
pub(crate) fn redact_string(redactor: &Redactor, s: &mut String, counts: &mut RedactionCounts) {
    let replaced = match redactor.redact_text(s, counts) {
        std::borrow::Cow::Borrowed(_) => None,
        std::borrow::Cow::Owned(new) => Some(new),
    };
    if let Some(new) = replaced {
        *s = new;
    }
}
