//! Small helpers every toolshape crate shares, each written once: lowercase hex text
//! ([`hex`]), the words delimiter nonces are made of ([`nonce`]), random bytes and nonces
//! with a fallback when the system generator fails ([`random`], behind the `random`
//! feature, for the crates at the edge), and the phrase naming a JSON value's kind in
//! messages ([`json_kind`]).
//!
//! ```
//! assert_eq!(toolshape_util::hex(&[0x00, 0xab]), "00ab");
//! assert_eq!(toolshape_util::json_kind(&serde_json::json!([1])), "an array");
//! ```

pub mod nonce;
#[cfg(feature = "random")]
pub mod random;

use serde_json::Value;

/// `bytes` as lowercase hexadecimal, two characters a byte.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

/// A short phrase naming `value`'s kind, for messages: "null", "a boolean", "a number",
/// "a string", "an array" or "an object".
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_writes_two_lowercase_digits_a_byte() {
        assert_eq!(hex(&[]), "");
        assert_eq!(hex(&[0x00, 0x0f, 0xa0, 0xff]), "000fa0ff");
        for b in 0..=255u8 {
            assert_eq!(hex(&[b]), format!("{b:02x}"));
        }
    }

    #[test]
    fn every_kind_has_its_phrase() {
        let kinds: Vec<&str> = [
            Value::Null,
            Value::Bool(true),
            serde_json::json!(1.5),
            serde_json::json!("x"),
            serde_json::json!([]),
            serde_json::json!({}),
        ]
        .iter()
        .map(json_kind)
        .collect();
        assert_eq!(kinds, ["null", "a boolean", "a number", "a string", "an array", "an object"]);
    }
}
