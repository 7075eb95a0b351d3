//! Object keys that name a secret (`password`, `apiKey`, `X-Auth-Token`, …) and values that look
//! like one.
//!
//! Keys are split into lowercase words at `-`, `_`, `.`, spaces and camelCase humps, so
//! `client_secret`, `clientSecret` and `Client-Secret` are the same key. Counters and settings
//! that merely mention tokens or keys (`max_tokens`, `token_type`, `sort_key`, `next_page_token`)
//! are not secrets, and hiding them would break the data or the paging the model relies on.

use std::cell::RefCell;
use std::collections::HashMap;

/// What a key says about its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyClass {
    /// An ordinary key.
    Plain,
    /// The value is a secret, whatever it looks like.
    Secret,
    /// A `…_key`: a secret only when the value looks like one (long, random).
    SecretIfValueLooksSecret,
}

/// Whole keys (words joined) that always name a secret.
const SECRET_KEYS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "secret",
    "clientsecret",
    "token",
    "accesstoken",
    "refreshtoken",
    "idtoken",
    "authtoken",
    "apikey",
    "apitoken",
    "accesskey",
    "secretkey",
    "privatekey",
    "secretaccesskey",
    "authorization",
    "proxyauthorization",
    "cookie",
    "cookies",
    "setcookie",
    "sessionid",
    "credential",
    "credentials",
];

/// Last words that make any key a secret (`db_password`, `webhook_secret`).
const SECRET_LAST_WORDS: &[&str] = &["password", "passwd", "pwd", "passphrase", "secret", "apikey"];

/// Words that, before a final `token`, make it a counter, a paging cursor or a tokenizer
/// setting rather than a credential.
const NOT_SECRET_BEFORE_TOKEN: &[&str] = &[
    "next",
    "page",
    "continuation",
    "pagination",
    "cursor",
    "prev",
    "previous",
    "sync",
    "resume",
    "max",
    "min",
    "num",
    "count",
    "total",
    "input",
    "output",
    "prompt",
    "completion",
    "reasoning",
    "cached",
    "bos",
    "eos",
    "pad",
    "unk",
    "sep",
    "cls",
    "mask",
    "special",
    "start",
    "end",
    "stop",
];

/// Words that, before a final `key`, make it an identifier or a database key.
const NOT_SECRET_BEFORE_KEY: &[&str] = &[
    "public",
    "primary",
    "sort",
    "partition",
    "foreign",
    "hash",
    "range",
    "row",
    "cache",
    "idempotency",
    "dedup",
    "dedupe",
    "deduplication",
    "unique",
    "composite",
    "lookup",
    "group",
    "issue",
    "project",
    "object",
    "routing",
    "shard",
    "index",
    "translation",
    "i18n",
    "message",
    "label",
    "natural",
    "surrogate",
    "search",
];

/// Keys longer than this are data, not field names.
pub(crate) const MAX_KEY_LEN: usize = 96;

/// Splits a key into lowercase words, dropping trailing digits (`password2`, `api_key_2`).
pub(crate) fn key_words(key: &str) -> Vec<String> {
    let chars: Vec<char> = key.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if matches!(c, '-' | '_' | '.' | ' ' | ':' | '/') {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if c.is_uppercase() && !current.is_empty() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                words.push(std::mem::take(&mut current));
            }
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    while words.last().is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit())) {
        words.pop();
    }
    for word in &mut words {
        let trimmed = word.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        if trimmed > 0 {
            word.truncate(trimmed);
        }
    }
    words
}

/// Keys classified on one thread, at most this many at once (the memo starts over when full).
const KEY_MEMO_CAP: usize = 4096;

thread_local! {
    /// The class of each key met lately on this thread. The same few dozen keys come back in
    /// every record of a result, and classifying one splits it into words, which allocates;
    /// a lookup does not. Classifying is a pure function of the key, so the memo changes no
    /// answer.
    static KEY_MEMO: RefCell<HashMap<Box<str>, KeyClass>> = RefCell::new(HashMap::new());
}

/// Classifies an object key (memoized per thread: see [`KEY_MEMO`]).
pub(crate) fn classify_key(key: &str) -> KeyClass {
    if key.len() > MAX_KEY_LEN {
        return KeyClass::Plain;
    }
    let known = KEY_MEMO.with(|memo| memo.try_borrow().ok().and_then(|memo| memo.get(key).copied()));
    if let Some(class) = known {
        return class;
    }
    let class = classify_key_words(key);
    KEY_MEMO.with(|memo| {
        if let Ok(mut memo) = memo.try_borrow_mut() {
            if memo.len() >= KEY_MEMO_CAP {
                memo.clear();
            }
            memo.insert(key.into(), class);
        }
    });
    class
}

/// Classifies an object key from its words (no memo).
fn classify_key_words(key: &str) -> KeyClass {
    let words = key_words(key);
    let joined = words.concat();
    if SECRET_KEYS.contains(&joined.as_str()) {
        return KeyClass::Secret;
    }
    let Some((last, before)) = words.split_last() else {
        return KeyClass::Plain;
    };
    if before.is_empty() {
        return KeyClass::Plain;
    }
    let any_before = |list: &[&str]| before.iter().any(|w| list.contains(&w.as_str()));
    let second_last = before.last().map_or("", String::as_str);
    match last.as_str() {
        w if SECRET_LAST_WORDS.contains(&w) => KeyClass::Secret,
        "token" if any_before(NOT_SECRET_BEFORE_TOKEN) => KeyClass::Plain,
        "token" => KeyClass::Secret,
        "key" if matches!(second_last, "api" | "secret" | "private" | "access") => {
            if any_before(NOT_SECRET_BEFORE_KEY) { KeyClass::Plain } else { KeyClass::Secret }
        }
        "key" if any_before(NOT_SECRET_BEFORE_KEY) => KeyClass::Plain,
        "key" => KeyClass::SecretIfValueLooksSecret,
        _ => KeyClass::Plain,
    }
}

/// Whether a string looks like a random key: 16 characters or more from the alphabets keys are
/// written in (base64, base64url, hex), at least two of lowercase/uppercase/digits, and at least
/// 3 bits of entropy per character. URLs, paths, prose and earlier redaction output do not.
pub(crate) fn looks_secret(value: &str) -> bool {
    if !(16..=16_384).contains(&value.len())
        || !value.bytes().all(|b| b.is_ascii_alphanumeric() || b"+/=_-.~".contains(&b))
    {
        return false;
    }
    let classes = [
        value.bytes().any(|b| b.is_ascii_lowercase()),
        value.bytes().any(|b| b.is_ascii_uppercase()),
        value.bytes().any(|b| b.is_ascii_digit()),
    ];
    if classes.iter().filter(|c| **c).count() < 2 {
        return false;
    }
    entropy_bits_per_char(value) >= 3.0
}

fn entropy_bits_per_char(value: &str) -> f64 {
    let mut counts = std::collections::HashMap::<char, u32>::new();
    let mut total = 0u32;
    for c in value.chars() {
        *counts.entry(c).or_insert(0) += 1;
        total += 1;
    }
    if total == 0 {
        return 0.0;
    }
    let n = f64::from(total);
    counts
        .values()
        .map(|&k| {
            let p = f64::from(k) / n;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert_eq!(key_words("clientSecret"), ["client", "secret"]);
        assert_eq!(key_words("X-API-Key"), ["x", "api", "key"]);
        assert_eq!(key_words("APIKey"), ["api", "key"]);
        assert_eq!(key_words("AWS_SECRET_ACCESS_KEY"), ["aws", "secret", "access", "key"]);
        assert_eq!(key_words("password2"), ["password"]);
        assert_eq!(key_words("api_key_2"), ["api", "key"]);
        assert_eq!(key_words("nextPageToken"), ["next", "page", "token"]);
    }

    #[test]
    fn secret_keys() {
        for key in [
            "password",
            "Password",
            "db_password",
            "userPassword",
            "passwd",
            "pwd",
            "secret",
            "client_secret",
            "clientSecret",
            "token",
            "access_token",
            "refreshToken",
            "id_token",
            "auth_token",
            "X-Auth-Token",
            "csrf_token",
            "api_key",
            "apiKey",
            "apikey",
            "x-api-key",
            "api_token",
            "access_key",
            "secret_key",
            "private_key",
            "aws_secret_access_key",
            "Authorization",
            "cookie",
            "Set-Cookie",
            "session_id",
            "sessionId",
            "credentials",
            "stripe_api_key",
            "openai_apikey",
            "webhook_secret",
        ] {
            assert_eq!(classify_key(key), KeyClass::Secret, "{key}");
        }
    }

    #[test]
    fn conditional_keys() {
        for key in ["encryption_key", "signing_key", "license_key", "storageKey"] {
            assert_eq!(classify_key(key), KeyClass::SecretIfValueLooksSecret, "{key}");
        }
    }

    #[test]
    fn plain_keys() {
        for key in [
            "tokens",
            "token_count",
            "max_tokens",
            "prompt_tokens",
            "total_tokens",
            "completion_tokens",
            "token_type",
            "tokenizer",
            "key",
            "keys",
            "public_key",
            "publicKey",
            "primary_key",
            "sort_key",
            "partition_key",
            "next_token",
            "NextToken",
            "next_page_token",
            "pageToken",
            "bos_token",
            "eos_token",
            "key_id",
            "access_key_id",
            "secret_name",
            "password_hint",
            "name",
            "",
        ] {
            assert_eq!(classify_key(key), KeyClass::Plain, "{key}");
        }
        assert_eq!(classify_key(&"token".repeat(40)), KeyClass::Plain);
    }

    #[test]
    fn secret_looking_values() {
        assert!(looks_secret("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"));
        assert!(looks_secret("9f86d081884c7d659a2feaa0c55ad015"));
        assert!(!looks_secret("short1A"));
        assert!(!looks_secret("user-profile-cache"));
        assert!(!looks_secret("aaaaaaaaaaaaaaaaaaaa1"));
        assert!(!looks_secret("has some spaces in 123"));
        assert!(!looks_secret("https://a:[URL_CREDENTIALS]/x"));
        assert!(!looks_secret("ghp****abcdEFGH1234"));
    }

    /// The memo answers as the words do, the first time a key is met and every time after,
    /// including once it has started over.
    #[test]
    fn the_memo_answers_as_the_words_do() {
        let keys = [
            "password",
            "apiKey",
            "X-Auth-Token",
            "max_tokens",
            "token_type",
            "sort_key",
            "next_page_token",
            "client_secret",
            "id",
            "title",
            "access_key",
            "user.login",
            "",
        ];
        for round in 0..3 {
            for key in keys {
                assert_eq!(classify_key(key), classify_key_words(key), "{key} in round {round}");
            }
        }
        for n in 0..KEY_MEMO_CAP + 10 {
            let key = format!("field_{n}_token");
            assert_eq!(classify_key(&key), classify_key_words(&key), "{key}");
        }
        assert!(KEY_MEMO.with(|memo| memo.borrow().len()) <= KEY_MEMO_CAP);
        assert_eq!(classify_key("apiKey"), KeyClass::Secret);
    }
}
