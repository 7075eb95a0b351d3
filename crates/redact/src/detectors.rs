//! The built-in text detectors, except phone numbers ([`crate::phone`]) and private-key blocks
//! ([`crate::pem`]).
//!
//! Each detector is a regular expression for candidates plus the checks a regex cannot express
//! (the `regex` crate has no look-around): what may stand right before and after a match, check
//! digits, character mixes. Regexes are compiled once, on first use.

use std::sync::LazyLock;

use regex::Regex;

use crate::checksum::{iban_length, iban_valid, luhn_valid};
use crate::kinds::Kind;
use crate::text::{Finding, Rule};

/// Declares a lazily compiled regex. A pattern that fails to compile disables its detector
/// instead of panicking; a unit test makes sure every pattern compiles.
macro_rules! lazy_regex {
    ($name:ident, $pattern:expr) => {
        pub(crate) static $name: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new($pattern).ok());
    };
}
pub(crate) use lazy_regex;

lazy_regex!(
    EMAIL,
    r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}"
);
// Maximal runs of digits joined by single separators, only those with 13 digits or more: the
// engine skips the many shorter numbers of ordinary text without stopping at each.
lazy_regex!(CARD_RUN, r"[0-9](?:[ \-]?[0-9]){12,}");
lazy_regex!(IBAN_START, r"[A-Z]{2}[0-9]{2}");
lazy_regex!(JWT, r"eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*");
lazy_regex!(URL_CREDENTIALS, r#"[A-Za-z][A-Za-z0-9+.\-]{0,30}://[^\s:/?#@"'<>`]*:([^\s/?#@"'<>`]+)@"#);
lazy_regex!(AWS_ACCESS_KEY, r"(?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}");
lazy_regex!(
    AWS_SECRET_KEY,
    r#"(?i:(?:aws[_\-. ]?)?secret[_\-. ]?access[_\-. ]?key|aws[_\-. ]?secret[_\-. ]?key)["']?[ \t]{0,3}(?:=>|[:=])[ \t]{0,3}["']?([A-Za-z0-9/+]{40})"#
);
lazy_regex!(GITHUB_TOKEN, r"gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255}");
lazy_regex!(GITLAB_TOKEN, r"gl(?:pat|ptt|dt|rt|cbt|soat)-[A-Za-z0-9_\-]{20,}");
lazy_regex!(SLACK_TOKEN, r"xox[abprse]-[A-Za-z0-9][A-Za-z0-9\-]{8,}[A-Za-z0-9]");
lazy_regex!(SLACK_WEBHOOK, r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{8,}");
lazy_regex!(STRIPE_KEY, r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,}");
lazy_regex!(OPENAI_KEY, r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{32,}|sk-[A-Za-z0-9]{48}");
lazy_regex!(ANTHROPIC_KEY, r"sk-ant-[A-Za-z0-9_\-]{32,}");
lazy_regex!(GOOGLE_API_KEY, r"AIza[0-9A-Za-z_\-]{35}");
lazy_regex!(GOOGLE_OAUTH_TOKEN, r"ya29\.[0-9A-Za-z_\-]{20,}");

/// The character right before byte offset `i`.
pub(crate) fn char_before(text: &str, i: usize) -> Option<char> {
    text.get(..i).and_then(|s| s.chars().next_back())
}

/// The character starting at byte offset `i`.
pub(crate) fn char_at(text: &str, i: usize) -> Option<char> {
    text.get(i..).and_then(|s| s.chars().next())
}

/// The character after the one starting at byte offset `i`.
pub(crate) fn char_after(text: &str, i: usize) -> Option<char> {
    text.get(i..).and_then(|s| s.chars().nth(1))
}

fn alnum(c: char) -> bool {
    c.is_alphanumeric()
}

fn word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn token_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

fn nothing(_: char) -> bool {
    false
}

fn any_text(_: &str) -> bool {
    true
}

/// Random keys mix cases and digits; words and identifiers that happen to follow a key prefix
/// (`sk-proj-management-dashboard`) rarely have all three.
fn mixed_case_and_digit(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit())
        && s.bytes().any(|b| b.is_ascii_uppercase())
        && s.bytes().any(|b| b.is_ascii_lowercase())
}

/// A prefix-anchored token: a regex plus what may not touch it on either side.
struct TokenRule {
    kind: Kind,
    regex: &'static LazyLock<Option<Regex>>,
    /// A character for which this is true, right before the match, means the match is the tail
    /// of a longer word (`task-…` is not an OpenAI key).
    left: CharTest,
    /// The same for the character right after: fixed-length tokens cut from a longer run.
    right: CharTest,
    check: fn(&str) -> bool,
}

type CharTest = fn(char) -> bool;

fn token_rule(kind: Kind) -> Option<TokenRule> {
    let rule =
        |regex, left: CharTest, right: CharTest, check: fn(&str) -> bool| TokenRule { kind, regex, left, right, check };
    Some(match kind {
        Kind::Jwt => rule(&JWT, token_char, nothing, any_text),
        Kind::AwsAccessKey => rule(&AWS_ACCESS_KEY, alnum, alnum, any_text),
        Kind::GithubToken => rule(&GITHUB_TOKEN, alnum, word, any_text),
        Kind::GitlabToken => rule(&GITLAB_TOKEN, alnum, nothing, any_text),
        Kind::SlackToken => rule(&SLACK_TOKEN, alnum, nothing, any_text),
        Kind::SlackWebhook => rule(&SLACK_WEBHOOK, alnum, nothing, any_text),
        Kind::StripeKey => rule(&STRIPE_KEY, word, nothing, any_text),
        Kind::OpenaiKey => rule(&OPENAI_KEY, alnum, alnum, mixed_case_and_digit),
        Kind::AnthropicKey => rule(&ANTHROPIC_KEY, alnum, nothing, mixed_case_and_digit),
        Kind::GoogleApiKey => rule(&GOOGLE_API_KEY, alnum, token_char, any_text),
        Kind::GoogleOauthToken => rule(&GOOGLE_OAUTH_TOKEN, alnum, nothing, any_text),
        _ => return None,
    })
}

/// Cheap facts about a text, computed once, that let detectors skip texts they cannot match.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Gates {
    pub(crate) digit: bool,
    pub(crate) at: bool,
    pub(crate) scheme: bool,
}

impl Gates {
    pub(crate) fn of(text: &str) -> Gates {
        Gates { digit: text.bytes().any(|b| b.is_ascii_digit()), at: text.contains('@'), scheme: text.contains("://") }
    }
}

/// Runs one built-in text detector over `text`.
pub(crate) fn find(kind: Kind, text: &str, gates: Gates, out: &mut Vec<Finding>) {
    match kind {
        Kind::Email if gates.at => find_emails(text, out),
        Kind::Phone if gates.digit => crate::phone::find(text, out),
        Kind::PaymentCard if gates.digit => find_cards(text, out),
        Kind::Iban if gates.digit => find_ibans(text, out),
        Kind::PrivateKey => crate::pem::find(text, out),
        Kind::UrlCredentials if gates.scheme && gates.at => find_url_credentials(text, out),
        Kind::AwsSecretKey => find_aws_secret_keys(text, out),
        Kind::SecretField => {}
        other => {
            if let Some(rule) = token_rule(other) {
                find_tokens(&rule, text, out);
            }
        }
    }
}

fn find_tokens(rule: &TokenRule, text: &str, out: &mut Vec<Finding>) {
    let Some(re) = rule.regex.as_ref() else {
        return;
    };
    for m in re.find_iter(text) {
        if char_before(text, m.start()).is_some_and(rule.left)
            || char_at(text, m.end()).is_some_and(rule.right)
            || !(rule.check)(m.as_str())
        {
            continue;
        }
        out.push(Finding::whole(m.start(), m.end(), Rule::Builtin(rule.kind)));
    }
}

/// Top-level domains that are really file extensions: `logo@2x.png` is an image, not a person.
const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "ico"];

fn find_emails(text: &str, out: &mut Vec<Finding>) {
    let Some(re) = EMAIL.as_ref() else {
        return;
    };
    let mut pos = 0;
    while let Some(m) = re.find_at(text, pos) {
        let s = m.as_str();
        let Some(at) = s.rfind('@') else {
            break;
        };
        pos = m.end();
        if email_accepted(text, m.start(), m.end(), &s[..at], &s[at + 1..]) {
            out.push(Finding::whole(m.start(), m.end(), Rule::Builtin(Kind::Email)));
        } else {
            // The domain of a rejected candidate can be the mailbox of the next address
            // (`id@host@example.com`), so look again right after its `@`.
            pos = m.start() + at + 1;
        }
    }
}

fn email_accepted(text: &str, start: usize, end: usize, local: &str, domain: &str) -> bool {
    // `git@github.com:org/repo` is the SSH convention for a host, not anyone's address.
    if local == "git" {
        return false;
    }
    let tld = domain.rsplit('.').next().unwrap_or_default();
    if IMAGE_EXTENSIONS.iter().any(|ext| tld.eq_ignore_ascii_case(ext)) {
        return false;
    }
    if char_at(text, end).is_some_and(|c| token_char(c) || c == '@') {
        return false;
    }
    !in_url_userinfo(text, start)
}

/// Whether an email-shaped match starting at `start` is really the `user@host` or
/// `user:password@host` part of a URL, which `url_credentials` handles (keeping the host): the
/// word it sits in has a `://` with no `/`, `?` or `#` between it and the match.
fn in_url_userinfo(text: &str, start: usize) -> bool {
    let before = text.get(..start).unwrap_or_default();
    let word_start = before
        .char_indices()
        .rev()
        .take(512)
        .find(|(_, c)| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`'))
        .map_or(before.len().saturating_sub(2048), |(i, c)| i + c.len_utf8());
    let Some(word) = before.get(word_start..) else {
        return false;
    };
    match word.rfind("://") {
        Some(i) => !word[i + 3..].contains(['/', '?', '#']),
        None => false,
    }
}

fn find_url_credentials(text: &str, out: &mut Vec<Finding>) {
    let Some(re) = URL_CREDENTIALS.as_ref() else {
        return;
    };
    for caps in re.captures_iter(text) {
        let (Some(whole), Some(password)) = (caps.get(0), caps.get(1)) else {
            continue;
        };
        // A host must follow, or this is not a URL.
        if !char_at(text, whole.end()).is_some_and(|c| c.is_alphanumeric() || c == '[') {
            continue;
        }
        if crate::mask::is_placeholder_shaped(password.as_str()) {
            continue;
        }
        out.push(Finding::part(
            (whole.start(), whole.end()),
            password.start(),
            password.end(),
            Rule::Builtin(Kind::UrlCredentials),
        ));
    }
}

fn find_aws_secret_keys(text: &str, out: &mut Vec<Finding>) {
    let Some(re) = AWS_SECRET_KEY.as_ref() else {
        return;
    };
    for caps in re.captures_iter(text) {
        let (Some(whole), Some(value)) = (caps.get(0), caps.get(1)) else {
            continue;
        };
        if char_at(text, value.end()).is_some_and(|c| c.is_alphanumeric() || "/+=".contains(c)) {
            continue;
        }
        out.push(Finding::part(
            (whole.start(), whole.end()),
            value.start(),
            value.end(),
            Rule::Builtin(Kind::AwsSecretKey),
        ));
    }
}

/// Payment cards: 13–19 digits, optionally in groups separated by single spaces or dashes
/// (the same separator throughout), first digit 2–6 (the issuer ranges of the card networks),
/// Luhn-valid.
///
/// Candidates are maximal runs of digit groups; inside a run every start group is tried, longest
/// window first, so a card next to other numbers is still found.
fn find_cards(text: &str, out: &mut Vec<Finding>) {
    let Some(re) = CARD_RUN.as_ref() else {
        return;
    };
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for m in re.find_iter(text) {
        if m.len() < 13 {
            continue;
        }
        groups.clear();
        let bytes = m.as_str().as_bytes();
        let mut start = 0;
        for (i, b) in bytes.iter().enumerate() {
            if !b.is_ascii_digit() {
                groups.push((m.start() + start, m.start() + i));
                start = i + 1;
            }
        }
        groups.push((m.start() + start, m.end()));
        // A group glued to a word or a decimal point belongs to something else (`x123`,
        // `1.5`); drop it but keep looking at the rest of the run.
        let mut window = groups.as_slice();
        if char_before(text, m.start()).is_some_and(|c| word(c) || c == '.') {
            window = window.get(1..).unwrap_or_default();
        }
        let glued_right = char_at(text, m.end()).is_some_and(word)
            || (char_at(text, m.end()) == Some('.') && char_after(text, m.end()).is_some_and(|c| c.is_ascii_digit()));
        if glued_right {
            window = window.split_last().map_or(&[], |(_, rest)| rest);
        }
        find_cards_in_groups(text, window, out);
    }
}

fn find_cards_in_groups(text: &str, groups: &[(usize, usize)], out: &mut Vec<Finding>) {
    let bytes = text.as_bytes();
    let separator = |g: usize| groups.get(g).and_then(|&(_, end)| bytes.get(end)).copied();
    for i in 0..groups.len() {
        let Some(&(first_start, first_end)) = groups.get(i) else {
            break;
        };
        if !matches!(bytes.get(first_start), Some(b'2'..=b'6')) {
            continue;
        }
        let mut digits = 0;
        let mut best = None;
        for j in i..groups.len() {
            let Some(&(s, e)) = groups.get(j) else {
                break;
            };
            digits += e - s;
            if digits > 19 {
                break;
            }
            if j > i {
                // Uniform separators and card-like group sizes; `1 2 3 4 …` is not a card.
                if separator(j - 1) != separator(i) || !(3..=6).contains(&(e - s)) {
                    break;
                }
                if j == i + 1 && !(3..=6).contains(&(first_end - first_start)) {
                    break;
                }
            }
            if digits >= 13 && luhn_valid(&text[first_start..e]) {
                best = Some(e);
            }
        }
        if let Some(end) = best {
            out.push(Finding::whole(first_start, end, Rule::Builtin(Kind::PaymentCard)));
        }
    }
}

/// IBANs: a listed country code, two check digits and exactly as many characters as that
/// country's IBANs have, written compact or in groups of four, mod-97 valid.
fn find_ibans(text: &str, out: &mut Vec<Finding>) {
    let Some(re) = IBAN_START.as_ref() else {
        return;
    };
    let bytes = text.as_bytes();
    let mut compact = String::with_capacity(34);
    for m in re.find_iter(text) {
        if char_before(text, m.start()).is_some_and(word) {
            continue;
        }
        let Some(len) = iban_length(&m.as_str()[..2]) else {
            continue;
        };
        compact.clear();
        compact.push_str(m.as_str());
        let spaced = bytes.get(m.end()) == Some(&b' ');
        let mut pos = m.end();
        let mut ok = true;
        while compact.len() < len {
            if spaced && (compact.len() - 4).is_multiple_of(4) {
                if bytes.get(pos) != Some(&b' ') {
                    ok = false;
                    break;
                }
                pos += 1;
            }
            match bytes.get(pos) {
                Some(&b) if b.is_ascii_uppercase() || b.is_ascii_digit() => {
                    compact.push(char::from(b));
                    pos += 1;
                }
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok || char_at(text, pos).is_some_and(word) || !iban_valid(&compact) {
            continue;
        }
        out.push(Finding::whole(m.start(), pos, Rule::Builtin(Kind::Iban)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        let all: [&LazyLock<Option<Regex>>; 17] = [
            &EMAIL,
            &CARD_RUN,
            &IBAN_START,
            &JWT,
            &URL_CREDENTIALS,
            &AWS_ACCESS_KEY,
            &AWS_SECRET_KEY,
            &GITHUB_TOKEN,
            &GITLAB_TOKEN,
            &SLACK_TOKEN,
            &SLACK_WEBHOOK,
            &STRIPE_KEY,
            &OPENAI_KEY,
            &ANTHROPIC_KEY,
            &GOOGLE_API_KEY,
            &GOOGLE_OAUTH_TOKEN,
            &crate::pem::BEGIN,
        ];
        for re in all {
            assert!(re.is_some());
        }
        for re in crate::phone::ALL {
            assert!(re.is_some());
        }
    }

    #[test]
    fn every_text_kind_has_a_detector() {
        let gates = Gates { digit: true, at: true, scheme: true };
        for kind in Kind::ALL {
            let handled = matches!(
                kind,
                Kind::Email
                    | Kind::Phone
                    | Kind::PaymentCard
                    | Kind::Iban
                    | Kind::PrivateKey
                    | Kind::UrlCredentials
                    | Kind::AwsSecretKey
                    | Kind::SecretField
            ) || token_rule(kind).is_some();
            assert!(handled, "{kind:?}");
        }
        let mut out = Vec::new();
        find(Kind::SecretField, "password=x", gates, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn card_windows_inside_a_run() {
        let mut out = Vec::new();
        find_cards("ref 512 4111 1111 1111 1111 end", &mut out);
        assert!(out.iter().any(|f| &"ref 512 4111 1111 1111 1111 end"[f.start..f.end] == "4111 1111 1111 1111"));
    }
}
