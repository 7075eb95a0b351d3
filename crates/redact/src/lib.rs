//! Redaction of secrets and personal data, before anything is stored, counted or shown.
//!
//! A [`Redactor`] is compiled once from a [`RedactSpec`] and then applied to text
//! ([`Redactor::redact_text`]) or to JSON values ([`Redactor::redact_value`]). It replaces what
//! it finds with a typed placeholder (`[EMAIL]`) or a partial mask (`138****0000`) and counts
//! every replacement by kind in [`RedactionCounts`].
//!
//! Pure: no I/O, no global state besides lazily compiled regular expressions; never panics on
//! any input.
//!
//! Guarantees the rest of toolshape relies on:
//! - **Idempotent**: redacting redacted output changes nothing and counts nothing. Placeholders
//!   and partial masks are never matched again, and because a replacement can give its
//!   neighbours a new context, text is redacted repeatedly until nothing more is found.
//! - **Nothing found, nothing copied**: text without findings comes back borrowed.
//! - **Overlaps**: when findings overlap, the union of what they cover is replaced once, under
//!   the kind of the finding that starts earliest (the longest one on a tie), so no part of
//!   any finding stays visible. If any of them is of a kind never shown in part (a password,
//!   a key block), the placeholder is used even in partial style.
//! - **Valid UTF-8**: replacements only ever start and end on character boundaries.
//! - **Linear**: cost grows with the input; deep JSON is walked without recursion. The built-in
//!   detectors share one prefilter pass (SIMD literal searches and a scan of digit runs) and
//!   then look only at small windows around what it found, so text with nothing to find costs
//!   that pass alone (about 400 MiB/s on a digit-dense log, some ten times faster than running
//!   every detector over the whole text). Each window is chosen so that the result is exactly
//!   that of searching the whole text; a property test checks this against whole-text searches.

//!
//! Decisions on look-alikes (each backed by a test):
//! - Emails need a dotted domain whose top-level domain is in IANA's root zone or is a
//!   special-use name (`example`, `test`, `local`, `internal`, …): `user@localhost` and
//!   `root@host` stay, as do `git@github.com` (the SSH host convention), `icon@2x.png`-style file
//!   names, systemd template units (`getty@tty1.service`), queue and node names
//!   (`celery@worker-3.celery.pidbox`, `rabbit@node-1.cluster`), and the `user@` of a URL
//!   (`https://user@host`), whose password is `url_credentials`.
//! - Phones are `+<country code>` numbers of 8 to 15 digits, North American 3-3-4 numbers with
//!   parentheses, dashes or dots (not spaces alone), and Chinese mobiles `1[3-9]` + 9 digits,
//!   never glued to other digits, letters, `.` or `-`. Dates, times, versions, IPv4 addresses,
//!   UUIDs, hashes and 10- or 13-digit timestamps do not have these shapes. A country code
//!   never opens with `0`, nor is it a time-zone offset followed by more digits (`+0200 141`,
//!   `+1000 1410`: git blame's zone and line). Eleven unbroken digits that are a field's value
//!   (`calls=14158304207`, `rx_bytes: 14158304207`) are a counter unless the field's name
//!   says phone, mobile, tel, cell, fax, contact, SMS or MSISDN.
//! - Cards must start with 2–6 (the card networks' ranges) besides passing Luhn, so
//!   Luhn-valid order numbers and timestamps starting with 1, 7, 8 or 9 stay; written in
//!   groups, they must have a card's layout (fours with a shorter last group, 4-6-5, 4-6-4),
//!   so a table's numbers one space apart (`vmstat`'s `6945 21764 47897 80610`) stay.
//! - IBANs are recognised for the countries of the IBAN registry, at their exact length.
//! - Numbers in JSON are not searched (only strings are): a phone stored as a JSON number stays,
//!   unless its key names a secret.
//! - `_key` fields are secret only when the value looks random (see `secret_field` in
//!   [`BUILTIN_KINDS`]); `public_key`, `primary_key`, `sort_key` and the like never are, and
//!   neither are paging cursors (`next_page_token`) or tokenizer settings (`bos_token`).
//!
//! Decisions on secret assignments in text (`secret_assignment`; each backed by a test):
//! - Names mean what they mean as JSON keys (same classification, same exclusions:
//!   `max_tokens = 4096`, `token_count: 12`, `next_page_token=…`, `password_min_length = 8`
//!   stay). The name is the `[A-Za-z0-9_.-]` run right before `=`, `:`, `:=` or `=>` (quoted
//!   or not); names with spaces and spellings that split the secret word (`to_ken`) are not
//!   recognised. Comparisons (`==`, `!=`) are not assignments.
//! - Only the value goes; name, operator, quotes and an `Authorization` scheme word stay:
//!   `password = "[SECRET_ASSIGNMENT]"`, `Authorization: Bearer [SECRET_ASSIGNMENT]`. Always the
//!   placeholder, never a partial mask. When the value is itself a recognised token
//!   (`GH_TOKEN=ghp_…`), the token's kind names it.
//! - Not values: empty or quote-only (`password = ""`, `enter your password: `), null and
//!   booleans (`password: null`), integers of at most four digits (`token: 0`: counters,
//!   flags, lengths), references to a secret kept elsewhere (`${DB_PASSWORD}`, `$X`,
//!   `{{ … }}`, `<your-token>`), masks and placeholders (`****`, `[SECRET_ASSIGNMENT]`: so
//!   redaction stays idempotent), type names and code (`password: string`,
//!   `get_password()`, `self.token`, `password = password`), and `PWD` set to a path.
//! - Prose is left alone: no operator (`the password is required`), or after a colon a bare
//!   word followed by more words rather than by the end of the line or another pair
//!   (`Password: Your password must be …`; but `user: bob password: hunter status: ok` is an
//!   assignment).
//! - Bare values end at whitespace and `` ,;"'`<>()[]{}\ `` (in a query string also `&#`), so an
//!   unquoted password with a space is replaced only up to it; `Cookie` values run to the end
//!   of the line; quoted values to the closing quote.

mod assign;
mod chars;
mod checksum;
mod detectors;
mod error;
mod fields;
mod kinds;
mod mask;
mod pem;
mod phone;
mod redactor;
mod scan;
mod text;
mod value;
mod window;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use error::RedactError;
pub use kinds::BUILTIN_KINDS;
pub use mask::holds_redaction;
pub use redactor::Redactor;
pub use window::{Cuts, MARGIN};

/// How a found value is replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RedactStyle {
    /// `[EMAIL]`, `[AWS_ACCESS_KEY]`, …
    #[default]
    Placeholder,
    /// Keep a few leading and trailing characters: `138****0000`, `jo***@example.com`.
    Partial,
}

/// A user-defined pattern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomPattern {
    /// The kind name used in the placeholder and the counts (`[EMPLOYEE_ID]`).
    pub name: String,
    /// A regular expression (Rust `regex` syntax).
    pub pattern: String,
}

/// What to redact. Deserialized from the `redact:` key of a mask's `result`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RedactSpec {
    /// Run the built-in detectors (on by default).
    pub builtins: bool,
    /// Built-in detector kinds to switch off (for example `phone`).
    pub disable: Vec<String>,
    /// Extra patterns.
    pub patterns: Vec<CustomPattern>,
    /// Placeholder or partial mask.
    pub style: RedactStyle,
}

impl Default for RedactSpec {
    fn default() -> Self {
        RedactSpec { builtins: true, disable: Vec::new(), patterns: Vec::new(), style: RedactStyle::Placeholder }
    }
}

/// How many replacements were made, by kind (`email`, `aws_access_key`, …).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedactionCounts(pub BTreeMap<String, u64>);

impl RedactionCounts {
    /// Add `n` replacements of `kind`. Adding zero leaves no empty entry behind.
    pub fn add(&mut self, kind: &str, n: u64) {
        if n == 0 {
            return;
        }
        match self.0.get_mut(kind) {
            Some(count) => *count = count.saturating_add(n),
            None => {
                self.0.insert(kind.to_owned(), n);
            }
        }
    }

    /// Add every count of `other` to this one.
    pub fn merge(&mut self, other: &RedactionCounts) {
        for (kind, n) in &other.0 {
            self.add(kind, *n);
        }
    }

    /// All replacements, of every kind.
    pub fn total(&self) -> u64 {
        self.0.values().fold(0u64, |acc, n| acc.saturating_add(*n))
    }

    /// True when nothing was replaced.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Replacements of one kind (zero when there were none).
    pub fn get(&self, kind: &str) -> u64 {
        self.0.get(kind).copied().unwrap_or(0)
    }
}
