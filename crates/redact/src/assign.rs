//! `secret_assignment`: the value of `name = value` in free text (logs, config dumps, `env`
//! output, code, JSON that is shown as text) when the name is secret-like.
//!
//! Forms: `name = value`, `name: value`, `name := value`, `name => value`, with the name bare,
//! quoted (`"client_secret": "…"`) or in escaped JSON (`\"password\":\"…\"`), and the value
//! quoted (single, double or back quotes; `\"…\"`) or bare. Only the value is replaced; the
//! name, the operator and the quotes stay: `password = "[SECRET_ASSIGNMENT]"`. In an
//! `Authorization` value with a scheme (`Bearer`, `Basic`, `Digest`, …) the scheme word stays too.
//!
//! Names mean what they mean as JSON keys: the name is the run of `[A-Za-z0-9_.-]` right before
//! the operator, classified by [`classify_key`] (so `db_password`, `API_KEY`, `X-Auth-Token`,
//! `spring.datasource.password` are secret; `max_tokens`, `token_count`, `next_page_token`,
//! `password_min_length`, `public_key` are not; `encryption_key`-like names only when the value
//! looks random). Names with spaces (`API Key: …`) are not recognised, nor spellings that split
//! the secret word (`to_ken`, `p_w_d`, which `classify_key` joins back); a name right after
//! `://` is a URL's user name (`url_credentials` handles that).
//!
//! Not values (nothing is replaced):
//! - nothing: `password =` at the end of a line, `password = ""`, `password: "  "`;
//! - no letter or digit at all (`****`, `|`, `-`), a run of `x`, a partial mask (`***`), a
//!   placeholder (`[SECRET_ASSIGNMENT]`, `[REDACTED]`): earlier redaction, so redacting again
//!   changes nothing;
//! - references to a secret kept elsewhere: `${DB_PASSWORD}`, `$DB_PASSWORD`, `$(cat file)`,
//!   `{{ .Values.password }}`, `#{password}`, `%(password)s`, `%PASSWORD%`, `<your-password>`,
//!   `{password}`;
//! - bare (unquoted) values only: `null`, `nil`, `none`, `undefined`, `true`, `false`, `yes`,
//!   `no`, `on`, `off`; status words (`required`, `invalid`, `missing`, …); integers of at most
//!   four digits (`token: 0`, `session_id: 42`: counters, flags and lengths, not secrets); type
//!   names (`password: string`, `token: &str`, `secret: Option<String>`); code (a call or index
//!   right after the value, `get_password()`, `os.environ["KEY"]`; a dotted path without
//!   digits, `self.token`, `process.env.SECRET`; an identifier that itself names a secret,
//!   `password = password`, `token = access_token`); YAML tags (`!vault`, `!Ref`); and `PWD` set
//!   to a path (the shell's working directory);
//! - prose after a colon: a bare value of letters only that is followed on its line by more
//!   words, not by another `name: value` pair (`Password: Your password must be …`).
//!
//! Comparisons (`==`, `!=`, `<=`, `>=`, `=~`) and paths (`::`, `:/`) are not assignments.
//!
//! A bare value ends at whitespace or at `` ,;"'`<>()[]{}\ ``, in a query string (name after `?` or
//! `&`) also at `&` and `#`; so an unquoted password with a space or a comma is only replaced up
//! to it. `Cookie`/`Set-Cookie` values run to the end of the line. A quoted value ends at its
//! closing quote (escapes skipped), or at the end of the line when there is none (output cut
//! short). Values longer than 4 KiB are not secrets.
//!
//! In escaped text (a JSON string shown as text) `\n`, `\r` and `\t` count as the blanks and
//! line breaks they stand for: in `…\npassword: \"s3cr3t\"\n…` the name is `password` and the
//! value `s3cr3t`.

use crate::fields::{KeyClass, MAX_KEY_LEN, classify_key, key_words, looks_secret};
use crate::kinds::Kind;
use crate::mask::is_placeholder_shaped;
use crate::scan::{has_secret_word, run_end};
use crate::text::{Finding, Rule};

/// Values longer than this are data, not credentials (and scanning further is wasted).
const MAX_VALUE_LEN: usize = 4096;

/// HTTP authentication schemes: the word stays, the credential after it goes.
const AUTH_SCHEMES: &[&str] = &[
    "bearer",
    "basic",
    "token",
    "bot",
    "digest",
    "negotiate",
    "ntlm",
    "dpop",
    "oauth",
    "apikey",
    "ssws",
    "hoba",
    "mutual",
    "splunk",
    "aws4-hmac-sha256",
];

/// Schemes whose credential is a list of parameters with spaces (`Digest username="…", …`):
/// it runs to the end of the line.
const PARAMETER_SCHEMES: &[&str] = &["digest", "oauth", "hoba", "mutual", "aws4-hmac-sha256"];

/// Bare words that are literals, not secrets.
const NON_VALUES: &[&str] =
    &["null", "nil", "none", "undefined", "true", "false", "yes", "no", "on", "off", "~", "n/a"];

/// Bare words that say something about a secret rather than being one.
const STATUS_WORDS: &[&str] = &[
    "required", "optional", "missing", "invalid", "empty", "expired", "hidden", "redacted", "masked", "unset",
    "unknown", "provided", "changed",
];

/// Type names after a colon (`password: string`).
const TYPE_NAMES: &[&str] = &[
    "string",
    "str",
    "number",
    "int",
    "integer",
    "bool",
    "boolean",
    "bytes",
    "byte",
    "char",
    "any",
    "unknown",
    "object",
    "text",
    "varchar",
    "secretstr",
    "secretstring",
];

/// Words that make an identifier used as a value a reference to a secret, not the secret.
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "secret",
    "secrets",
    "token",
    "tokens",
    "key",
    "keys",
    "apikey",
    "credential",
    "credentials",
    "cookie",
    "cookies",
    "auth",
    "authorization",
    "session",
    "sessionid",
];

fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

fn blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn line_end_byte(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

/// Whether the byte at `i` is the letter of an escape (`\n`, `\r`, `\t`): an odd number of
/// backslashes before it.
fn escape_letter_at(bytes: &[u8], i: usize) -> bool {
    if !matches!(bytes.get(i), Some(b'n' | b'r' | b't')) {
        return false;
    }
    let backslashes = bytes[..i].iter().rev().take_while(|b| **b == b'\\').count();
    backslashes % 2 == 1
}

/// Whether a line break, real or escaped (`\n`, `\r`), starts at `i`.
fn line_break_at(bytes: &[u8], i: usize) -> bool {
    match bytes.get(i) {
        Some(b) if line_end_byte(*b) => true,
        Some(b'\\') => matches!(bytes.get(i + 1), Some(b'n' | b'r')),
        _ => false,
    }
}

/// Finds secret assignments whose names hold one of the sorted word `hits` (from
/// [`crate::scan`]). Linear: each name run is looked at once, and a value once looked at is
/// not searched for names again.
pub(crate) fn find(text: &str, hits: impl Iterator<Item = usize>, out: &mut Vec<Finding>) {
    let bytes = text.as_bytes();
    let mut done = 0;
    for hit in hits {
        if hit < done {
            continue;
        }
        let end = run_end(bytes, hit, name_byte);
        // A name never reaches back into what was read already: the search over word hits
        // and the search over every position then find the same names.
        let floor = done;
        done = end.max(hit + 1);
        let mut start = hit;
        while start > floor && name_byte(bytes[start - 1]) && hit - start <= MAX_KEY_LEN {
            start -= 1;
        }
        if start > floor && name_byte(bytes[start - 1]) {
            continue; // longer than any key
        }
        // In escaped text (JSON shown as text) `\npassword` is a line break, then the name.
        if escape_letter_at(bytes, start) {
            start += 1;
        }
        let Some(found) = assignment(text, start, end) else {
            continue;
        };
        done = done.max(found.scanned);
        if let Some((s, e)) = found.value {
            out.push(Finding::whole(s, e, Rule::Builtin(Kind::SecretAssignment)));
        }
    }
}

/// What follows a name: the value to replace, if any, and how far the text was read.
struct Assignment {
    value: Option<(usize, usize)>,
    scanned: usize,
}

impl Assignment {
    fn none(scanned: usize) -> Option<Assignment> {
        Some(Assignment { value: None, scanned })
    }
}

/// The operator after a name ending at `i` (past a closing quote and blanks): its end and
/// whether it is a colon.
fn operator(bytes: &[u8], mut i: usize) -> Option<(usize, bool)> {
    if bytes.get(i) == Some(&b'\\') && bytes.get(i + 1) == Some(&b'"') {
        i += 2;
    } else if matches!(bytes.get(i), Some(b'"' | b'\'' | b'`')) {
        i += 1;
    }
    while bytes.get(i).copied().is_some_and(blank) {
        i += 1;
    }
    match (bytes.get(i), bytes.get(i + 1)) {
        (Some(b':'), Some(b'=')) | (Some(b'='), Some(b'>')) => Some((i + 2, false)),
        (Some(b'='), Some(b'=' | b'~')) | (Some(b':'), Some(b':' | b'/')) => None,
        (Some(b'='), _) => Some((i + 1, false)),
        (Some(b':'), _) => Some((i + 1, true)),
        _ => None,
    }
}

fn assignment(text: &str, start: usize, end: usize) -> Option<Assignment> {
    let bytes = text.as_bytes();
    let name = text.get(start..end)?;
    if start >= 3 && bytes.get(start - 3..start) == Some(b"://") {
        return None;
    }
    let (mut v, colon) = operator(bytes, end)?;
    let class = classify_key(name);
    if class == KeyClass::Plain || !has_secret_word(name) {
        return None;
    }
    while bytes.get(v).copied().is_some_and(blank) {
        v += 1;
    }
    let words = key_words(name);
    let ctx = Context {
        class,
        colon,
        pwd: words.concat() == "pwd",
        cookie: matches!(words.concat().as_str(), "cookie" | "cookies" | "setcookie"),
        query: start > 0 && matches!(bytes[start - 1], b'?' | b'&'),
    };
    match bytes.get(v) {
        None => Assignment::none(v),
        Some(b) if line_end_byte(*b) => Assignment::none(v),
        Some(b'"' | b'\'' | b'`') => quoted(text, v, 1, &ctx),
        Some(b'\\') if bytes.get(v + 1) == Some(&b'"') => quoted(text, v, 2, &ctx),
        Some(_) => bare(text, v, &ctx),
    }
}

/// What the name and the operator say about the value.
struct Context {
    class: KeyClass,
    colon: bool,
    pwd: bool,
    cookie: bool,
    query: bool,
}

/// A quoted value opening at `v` with a quote `open` bytes long (`"` or `\"`).
fn quoted(text: &str, v: usize, open: usize, ctx: &Context) -> Option<Assignment> {
    let bytes = text.as_bytes();
    let quote = bytes[v + open - 1];
    let inner = v + open;
    let mut j = inner;
    let (end, scanned) = loop {
        if j - inner > MAX_VALUE_LEN {
            return Assignment::none(j);
        }
        match bytes.get(j) {
            None => break (j, j),
            Some(b) if line_end_byte(*b) => break (j, j),
            Some(b'\\') if open == 2 && bytes.get(j + 1) == Some(&b'"') => break (j, j + 2),
            // Escaped text: an escaped line break ends the line the value is on.
            Some(b'\\') if open == 2 && line_break_at(bytes, j) => break (j, j),
            Some(b'\\') => j += 2,
            Some(&b) if open == 1 && b == quote => break (j, j + 1),
            Some(_) => j += 1,
        }
    };
    let end = trim_end(bytes, inner, end.min(bytes.len()));
    let (start, end) = match scheme(bytes, inner, end) {
        Some((credential, _)) => (credential, end),
        None if is_scheme_word(bytes.get(inner..end)?) => return Assignment::none(scanned),
        None => (inner, end),
    };
    let value = text.get(start..end)?;
    let secret = is_secret(value, ctx, true);
    Some(Assignment { value: secret.then_some((start, end)), scanned })
}

/// A bare value starting at `v`.
fn bare(text: &str, v: usize, ctx: &Context) -> Option<Assignment> {
    let bytes = text.as_bytes();
    for reference in ["${", "$(", "{{", "#{", "%("] {
        if bytes.get(v..v + 2) == Some(reference.as_bytes()) {
            return Assignment::none(v + 2);
        }
    }
    let Some(token_end) = bare_end(bytes, v, ctx.query) else {
        return Assignment::none(v + MAX_VALUE_LEN);
    };
    if token_end == v {
        return Assignment::none(v);
    }
    // A call, an index or a generic type: code, not a value.
    if matches!(bytes.get(token_end), Some(b'(' | b'[' | b'<')) {
        return Assignment::none(token_end);
    }
    if is_scheme_word(bytes.get(v..token_end)?) {
        let mut credential = token_end;
        while bytes.get(credential).copied().is_some_and(blank) {
            credential += 1;
        }
        let parameters = PARAMETER_SCHEMES.contains(&text.get(v..token_end)?.to_ascii_lowercase().as_str());
        let end = if credential == token_end {
            token_end // `Bearer` alone: no credential
        } else if parameters {
            trim_end(bytes, credential, line_end(bytes, credential, false))
        } else {
            match bare_end(bytes, credential, ctx.query) {
                Some(end) => end,
                None => return Assignment::none(credential + MAX_VALUE_LEN),
            }
        };
        let value = text.get(credential..end)?;
        let secret = is_secret(value, ctx, true) && !NON_VALUES.contains(&value.to_ascii_lowercase().as_str());
        return Some(Assignment { value: secret.then_some((credential, end)), scanned: end });
    }
    let end = if ctx.cookie { trim_end(bytes, v, line_end(bytes, v, true)) } else { token_end };
    if end - v > MAX_VALUE_LEN {
        return Assignment::none(end);
    }
    let token = text.get(v..token_end)?;
    let value = text.get(v..end)?;
    let prose = ctx.colon && token.chars().all(char::is_alphabetic) && !ends_clause(bytes, token_end);
    let secret = !prose && is_secret(token, ctx, false) && is_secret(value, ctx, false);
    // A word followed by an operator is also the next name (`password=password = x`): the
    // search reads it again as one. Only this word is read twice, so the search stays linear.
    let scanned = if operator(bytes, end).is_some() { v } else { end };
    Some(Assignment { value: secret.then_some((v, end)), scanned })
}

/// The end of a bare value starting at `v`; `None` when it is longer than a value can be.
fn bare_end(bytes: &[u8], v: usize, query: bool) -> Option<usize> {
    let mut j = v;
    while let Some(&b) = bytes.get(j) {
        if b.is_ascii_whitespace() || b",;\"'`<>()[]{}\\".contains(&b) || (query && (b == b'&' || b == b'#')) {
            break;
        }
        j += 1;
        if j - v > MAX_VALUE_LEN {
            return None;
        }
    }
    Some(j)
}

/// The end of the line (a real or an escaped line break) from `i`, or with `quoted` of the
/// quoted string the line is in (a header in `curl -H "Cookie: …"`); read at most a value's
/// length further.
fn line_end(bytes: &[u8], i: usize, quoted: bool) -> usize {
    let mut j = i;
    while j - i <= MAX_VALUE_LEN
        && bytes.get(j).is_some_and(|&b| !(quoted && (b == b'"' || b == b'\\')))
        && !line_break_at(bytes, j)
    {
        j += 1;
    }
    j
}

fn is_scheme_word(word: &[u8]) -> bool {
    std::str::from_utf8(word).is_ok_and(|w| AUTH_SCHEMES.contains(&w.to_ascii_lowercase().as_str()))
}

fn trim_end(bytes: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && bytes.get(end - 1).is_some_and(u8::is_ascii_whitespace) {
        end -= 1;
    }
    end
}

/// `Bearer <credential>` in the quoted value `start..end`: where the credential starts, and
/// whether it runs to the end (parameters) rather than being one word.
fn scheme(bytes: &[u8], start: usize, end: usize) -> Option<(usize, bool)> {
    let word_end = start + bytes.get(start..end)?.iter().position(|b| *b == b' ')?;
    let word = std::str::from_utf8(bytes.get(start..word_end)?).ok()?.to_ascii_lowercase();
    if !AUTH_SCHEMES.contains(&word.as_str()) {
        return None;
    }
    let mut credential = word_end;
    while credential < end && bytes.get(credential).copied().is_some_and(blank) {
        credential += 1;
    }
    Some((credential, PARAMETER_SCHEMES.contains(&word.as_str())))
}

/// Whether a bare value ending at `i` ends its clause: the line ends, punctuation or a comment
/// follows, or another `name: value` / `name=value` pair does.
fn ends_clause(bytes: &[u8], mut i: usize) -> bool {
    while bytes.get(i).copied().is_some_and(blank) {
        i += 1;
    }
    match bytes.get(i) {
        None => true,
        Some(b) if line_end_byte(*b) || b",;&)]}\"'#|\\".contains(b) => true,
        Some(_) => {
            let name_end = run_end(bytes, i, name_byte);
            name_end > i && operator(bytes, name_end).is_some()
        }
    }
}

/// Whether `value` (quoted or bare) is a secret to replace.
fn is_secret(value: &str, ctx: &Context, quoted: bool) -> bool {
    if value.is_empty()
        || !value.chars().any(char::is_alphanumeric)
        || value.contains("***")
        || value.bytes().all(|b| b == b'x' || b == b'X')
        || is_placeholder_shaped(value)
        || is_reference(value)
    {
        return false;
    }
    if !quoted {
        let lower = value.to_ascii_lowercase();
        let lower = lower.as_str();
        if NON_VALUES.contains(&lower)
            || STATUS_WORDS.contains(&lower)
            || TYPE_NAMES.contains(&lower.trim_start_matches('*'))
            || value.starts_with('&')
            || is_small_integer(value)
            || is_code_reference(value)
            || is_yaml_tag(value)
            || (ctx.pwd && (value.starts_with('/') || value.starts_with('~')))
        {
            return false;
        }
    }
    ctx.class != KeyClass::SecretIfValueLooksSecret || looks_secret(value)
}

fn is_small_integer(value: &str) -> bool {
    let digits = value.strip_prefix('-').unwrap_or(value);
    (1..=4).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
}

fn identifier(s: &str) -> bool {
    s.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `${X}`, `$X`, `$(…)`, `{{ … }}`, `#{…}`, `%(x)s`, `%X%`, `<…>`, `{x}`: a reference to a
/// secret kept elsewhere.
fn is_reference(value: &str) -> bool {
    if ["${", "$(", "{{", "#{", "%("].iter().any(|p| value.starts_with(p)) {
        return true;
    }
    if let Some(rest) = value.strip_prefix('$') {
        return identifier(rest);
    }
    let enclosed = |open: char, close: char| value.len() > 2 && value.starts_with(open) && value.ends_with(close);
    if enclosed('%', '%') {
        return identifier(&value[1..value.len() - 1]);
    }
    if enclosed('{', '}') {
        return value[1..value.len() - 1].split('.').all(|part| identifier(part.trim()));
    }
    enclosed('<', '>')
}

/// An identifier or dotted path used as a value: `self.token`, `access_token`, `API_KEY`.
fn is_code_reference(value: &str) -> bool {
    let parts: Vec<&str> = value.split('.').collect();
    if !parts.iter().all(|p| identifier(p)) {
        return false;
    }
    if parts.len() > 1 && !value.bytes().any(|b| b.is_ascii_digit()) {
        return true;
    }
    key_words(value).iter().any(|w| SECRET_WORDS.contains(&w.as_str()))
}

/// `!vault`, `!Ref`: a YAML tag, the value follows.
fn is_yaml_tag(value: &str) -> bool {
    value.strip_prefix('!').is_some_and(|tag| !tag.is_empty() && tag.bytes().all(|b| b.is_ascii_alphabetic()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The replaced values in `text`, every word position tried as a hit.
    fn values(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let hits: Vec<usize> = (0..text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        find(text, hits.into_iter(), &mut out);
        out.iter().map(|f| &text[f.start..f.end]).collect()
    }

    #[test]
    fn forms() {
        for (text, value) in [
            (r#"password = "correct-horse-battery-staple""#, "correct-horse-battery-staple"),
            (r#"password: "uJSvuEWtQWnCIKAA""#, "uJSvuEWtQWnCIKAA"),
            ("PASSWORD=hunter2", "hunter2"),
            ("export API_KEY=abc123def", "abc123def"),
            (r#"{"user":"bob","client_secret":"s3cr3t","n":1}"#, "s3cr3t"),
            (r#"{\"password\":\"hunter2\"}"#, "hunter2"),
            ("db_password: s3cr3t", "s3cr3t"),
            ("Authorization: Bearer abc.def-ghi", "abc.def-ghi"),
            ("Authorization: Basic dXNlcjpwYXNz", "dXNlcjpwYXNz"),
            (r#""Authorization": "Bearer abc123""#, "abc123"),
            (r#"Authorization: Digest username="a", response="b""#, r#"username="a", response="b""#),
            ("Authorization: abc123", "abc123"),
            ("GET /x?access_token=abc123&page=2#top", "abc123"),
            ("spring.datasource.password=Tr0ub4dor&3", "Tr0ub4dor&3"),
            ("token := 'abc123'", "abc123"),
            (r#""secret" => "abcXYZ""#, "abcXYZ"),
            ("--password=s3cr3t", "s3cr3t"),
            ("Cookie: session=abc123; theme=dark", "session=abc123; theme=dark"),
            ("user: bob password: hunter status: ok", "hunter"),
            ("password: hunter", "hunter"),
            ("encryption_key = 9f86d081884c7d659a2feaa0c55ad015", "9f86d081884c7d659a2feaa0c55ad015"),
            (r#"password: "abc"#, "abc"),
            ("password = '1234'", "1234"),
            ("password = 123456", "123456"),
            // A placeholder followed by an operator is a name, not the value.
            ("password=password = AA00", "AA00"),
            // JSON shown as text: escaped line breaks and quotes.
            (r#""body": "my .env:\n\npassword: \"Z9o78Pv1Vc7sJQ9C\"\n```""#, "Z9o78Pv1Vc7sJQ9C"),
            (r#""body": "DB_PASSWORD=hunter2\nNEXT=1""#, "hunter2"),
            (r#""body": "\tsecret: hunter\nmore words""#, "hunter"),
            (r#""text": "password: \"abc\ndef""#, "abc"),
            (r#""h": "Cookie: a=b; c=d\nHost: x""#, "a=b; c=d"),
        ] {
            assert_eq!(values(text), [value], "{text}");
        }
    }

    #[test]
    fn a_value_followed_by_an_operator_is_also_a_name() {
        assert_eq!(values("password=0Password = AA00"), ["0Password", "AA00"]);
        assert_eq!(values("token: s3cr3t_token = abc123 next"), ["abc123"]);
        // Only names: the value read again is not read back past the first name.
        assert_eq!(values("password=0Password"), ["0Password"]);
    }

    #[test]
    fn not_values() {
        for text in [
            "the password is required",
            "Enter your password: ",
            "password: null",
            "password = \"\"",
            "password=${DB_PASSWORD}",
            "password=$DB_PASSWORD",
            "token: {{ .Values.token }}",
            "api_key = \"<your-api-key>\"",
            "password: ********",
            "password: [SECRET_ASSIGNMENT]",
            "Authorization: Bearer [JWT]",
            "Authorization: Bearer",
            "Authorization: Bearer ${TOKEN}",
            "token: 0",
            "secret: true",
            "password = None",
            "password: required",
            "Password: Your password must be at least eight characters",
            "self.password = password",
            "password: string;",
            "password: *string",
            "token: &'a str",
            "secret: &mut String",
            "token: &str",
            "secret: Option<String>",
            "password = get_password()",
            "api_key = os.environ[\"API_KEY\"]",
            "token = self.token",
            "password: !vault |",
            "PWD=/home/user",
            "max_tokens = 4096",
            "token_count: 12",
            "next_page_token=CAoQAhgBIiQ",
            "password_min_length = 8",
            "encryption_key = default",
            "https://token:abc@example.com",
            "if password == \"x\"",
            "key: value",
            "Token::new()",
            "password=",
            "password: xxxx",
            "password: abc****wxyz",
            "to_ken=abc123",
            r"\token=abc123",
            r"C:\\npassword",
            "pw0D=abc123",
        ] {
            assert!(values(text).is_empty(), "{text}: {:?}", values(text));
        }
    }

    #[test]
    fn long_values_and_names_stay_linear() {
        let text = "password=".repeat(100_000);
        let start = std::time::Instant::now();
        let _ = values(&text);
        let text = "a".repeat(500_000) + "password=abc";
        assert!(values(&text).is_empty());
        let text = format!("password=\"{}", "a".repeat(500_000));
        assert!(values(&text).is_empty());
        assert!(start.elapsed() < std::time::Duration::from_secs(10));
    }
}
