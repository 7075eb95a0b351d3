//! Helpers shared by the integration tests: redaction shortcuts and generators of valid
//! (checksummed) fake card numbers and IBANs.

#![allow(dead_code, unreachable_pub)]

use toolshape_redact::{RedactSpec, RedactStyle, RedactionCounts, Redactor};

/// The default redactor (all built-ins, placeholders).
pub fn default_redactor() -> Redactor {
    Redactor::new(&RedactSpec::default()).expect("default spec compiles")
}

/// The default built-ins with partial masks.
pub fn partial_redactor() -> Redactor {
    Redactor::new(&RedactSpec { style: RedactStyle::Partial, ..RedactSpec::default() }).expect("partial spec compiles")
}

/// Redacts with `r`, returning the text and the counts.
pub fn redact_with(r: &Redactor, text: &str) -> (String, RedactionCounts) {
    let mut counts = RedactionCounts::default();
    let out = r.redact_text(text, &mut counts).into_owned();
    (out, counts)
}

/// Redacts with the default redactor.
pub fn redact(text: &str) -> (String, RedactionCounts) {
    redact_with(&default_redactor(), text)
}

/// Appends the Luhn check digit to `body` (digits only).
pub fn with_luhn_digit(body: &str) -> String {
    let mut sum = 0;
    for (i, b) in body.bytes().rev().enumerate() {
        let mut d = u32::from(b - b'0');
        if i % 2 == 0 {
            d *= 2;
            if d > 9 {
                d -= 9;
            }
        }
        sum += d;
    }
    format!("{body}{}", (10 - sum % 10) % 10)
}

/// A valid IBAN for `country` with `bban` (uppercase alphanumerics), check digits computed.
pub fn iban(country: &str, bban: &str) -> String {
    let rearranged = format!("{bban}{country}00");
    let mut rem = 0u32;
    for c in rearranged.chars() {
        let v = c.to_digit(36).expect("alphanumeric");
        rem = if v >= 10 { (rem * 100 + v) % 97 } else { (rem * 10 + v) % 97 };
    }
    format!("{country}{:02}{bban}", 98 - rem)
}

/// `iban` written in groups of four.
pub fn spaced(compact: &str) -> String {
    let chars: Vec<char> = compact.chars().collect();
    chars.chunks(4).map(|c| c.iter().collect::<String>()).collect::<Vec<_>>().join(" ")
}
