//! The built-in text detectors, except phone numbers ([`crate::phone`]), private-key blocks
//! ([`crate::pem`]) and secret assignments ([`crate::assign`]).
//!
//! Each detector is a regular expression for candidates plus the checks a regex cannot express
//! (the `regex` crate has no look-around): what may stand right before and after a match, check
//! digits, character mixes. Regexes are compiled once, on first use.
//!
//! Detectors do not run over the whole text: [`crate::scan`] finds the places where each could
//! match, and the detector runs on a window around each place. A window is chosen so that
//! running the detector on it gives exactly what running it on the whole text would give there:
//! either the maximal run of the characters the detector's matches are made of (no match can
//! cross its edges, so the search starts fresh at its start, as it would in the whole text), or
//! for prefix-anchored tokens the run from the prefix on. Context checks (what stands right
//! before or after a match) always look at the whole text.

use regex::Regex;

use crate::chars::{LazyRegex, char_after, char_at, char_before, lazy_regex};
use crate::checksum::{card_length_fits, iban_length, iban_valid, luhn_valid};
use crate::kinds::Kind;
use crate::scan::{self, Candidates};
use crate::text::{Finding, Rule};

lazy_regex!(
    EMAIL,
    r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}"
);
// What `scan` finds as card runs, by hand: maximal runs of digits joined by single separators,
// with 13 digits or more. Kept to check the scan against.
#[cfg(test)]
lazy_regex!(CARD_RUN, r"[0-9](?:[ \-]?[0-9]){12,}");
// Where `scan` finds IBAN starts, by hand. Kept to check the scan against.
#[cfg(test)]
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
    regex: &'static LazyRegex,
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

/// Bytes of a token or of the text right around it: every prefix-anchored token regex matches
/// only these, so the run of them from a prefix holds every match that starts there.
fn token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/' | b':')
}

/// Bytes an email match can contain.
fn email_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-' | b'@')
}

/// Bytes an `aws_secret_key` match can contain: the name (whose `(?i)` also matches the
/// non-ASCII `ſ` and Kelvin sign, hence every non-ASCII byte), quotes, blanks, the operator and
/// the base64 value.
fn aws_secret_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || !b.is_ascii() || b"_-. \t\"'=>:/+".contains(&b)
}

/// Bytes a URL scheme can be made of (`[A-Za-z][A-Za-z0-9+.\-]{0,30}`).
fn scheme_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-')
}

/// Runs `each` on every maximal run (of bytes for which `member` holds) that holds one of the
/// sorted `positions`, once per run.
fn each_run(
    text: &str,
    positions: impl Iterator<Item = usize>,
    member: impl Fn(u8) -> bool + Copy,
    mut each: impl FnMut(usize, usize),
) {
    let bytes = text.as_bytes();
    let mut done = 0;
    for pos in positions {
        if pos < done {
            continue;
        }
        let (start, end) = scan::run_around(bytes, pos, member);
        done = end.max(pos + 1);
        each(start, end);
    }
}

/// Runs one built-in text detector over the candidate windows of `text`.
pub(crate) fn find(kind: Kind, text: &str, candidates: &Candidates, out: &mut Vec<Finding>) {
    match kind {
        Kind::Email => {
            each_run(text, candidates.at.iter().copied(), email_byte, |s, e| find_emails(text, s, e, out));
        }
        Kind::Phone => {
            each_run(text, candidates.phones.iter().copied(), crate::phone::phone_byte, |s, e| {
                crate::phone::find(text, s, e, out);
            });
        }
        Kind::PaymentCard => {
            for &(start, end) in &candidates.cards {
                find_cards_in_run(text, start, end, out);
            }
        }
        Kind::Iban => {
            for &start in &candidates.ibans {
                if let Some(end) = iban_at(text, start) {
                    out.push(Finding::whole(start, end, Rule::Builtin(Kind::Iban)));
                }
            }
        }
        Kind::PrivateKey => {
            if candidates.pem {
                crate::pem::find(text, out);
            }
        }
        Kind::UrlCredentials => find_url_credentials(text, &candidates.at, out),
        Kind::AwsSecretKey => {
            let secrets = candidates.words.iter().filter(|(_, secret)| *secret).map(|(pos, _)| *pos);
            each_run(text, secrets, aws_secret_byte, |s, e| find_aws_secret_keys(text, s, e, out));
        }
        Kind::SecretAssignment => {
            crate::assign::find(text, candidates.words.iter().map(|(pos, _)| *pos), out);
        }
        Kind::SecretField => {}
        other => {
            if let Some(rule) = token_rule(other) {
                find_tokens(&rule, text, candidates.tokens_of(other), out);
            }
        }
    }
}

/// Runs a token rule from each of its prefixes to the end of the token-like run there; prefixes
/// inside an earlier window are already covered by it.
fn find_tokens(rule: &TokenRule, text: &str, prefixes: impl Iterator<Item = usize>, out: &mut Vec<Finding>) {
    let Some(re) = rule.regex.as_ref() else {
        return;
    };
    let bytes = text.as_bytes();
    let mut done = 0;
    for start in prefixes {
        if start < done {
            continue;
        }
        let end = scan::run_end(bytes, start, token_byte);
        done = end.max(start + 1);
        find_tokens_in(rule, re, text, start, end, out);
    }
}

/// Matches of a token rule in `start..end`, as a search of the whole text would find them there
/// (`end` must not cut a match short).
fn find_tokens_in(rule: &TokenRule, re: &Regex, text: &str, start: usize, end: usize, out: &mut Vec<Finding>) {
    let Some(haystack) = text.get(..end) else {
        return;
    };
    let mut pos = start;
    while let Some(m) = re.find_at(haystack, pos) {
        pos = m.end().max(m.start() + 1);
        if char_before(text, m.start()).is_some_and(rule.left)
            || char_at(text, m.end()).is_some_and(rule.right)
            || !(rule.check)(m.as_str())
        {
            continue;
        }
        out.push(Finding::whole(m.start(), m.end(), Rule::Builtin(rule.kind)));
    }
}

/// Whether `tld`, the last label of an email-shaped match's domain, is one mail can be sent
/// to: a top-level domain of IANA's root zone (the `tld` crate's copy of it), or a name set
/// aside for private and test networks (IANA's special-use domain names, and `internal`,
/// which ICANN reserved for private use), where internal mail lives. Anything else is the
/// suffix of some other kind of name that happens to hold an `@`: `logo@2x.png` (a retina
/// image), `getty@tty1.service` (a systemd template unit), `celery@worker-3.celery.pidbox`
/// (a message queue). A delegated brand domain (`a@b.target`) is still an address.
fn is_mail_tld(tld: &str) -> bool {
    const SPECIAL_USE: &[&str] = &["example", "test", "invalid", "local", "localhost", "onion", "alt", "internal"];
    tld::exist_case_insensitive(tld) || SPECIAL_USE.iter().any(|name| tld.eq_ignore_ascii_case(name))
}

/// Emails in the run `start..end` of email bytes.
fn find_emails(text: &str, start: usize, end: usize, out: &mut Vec<Finding>) {
    let (Some(re), Some(haystack)) = (EMAIL.as_ref(), text.get(..end)) else {
        return;
    };
    let mut pos = start;
    while let Some(m) = re.find_at(haystack, pos) {
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
    if !is_mail_tld(tld) {
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

/// URL passwords. A match holds exactly one `://` (scheme and userinfo cannot contain `/`),
/// starts at most 31 scheme bytes before it and ends at the first `@` after it, with no
/// `/?#`, whitespace or quote in between. So from each `@` the text is read back to the
/// nearest such byte; when a `:` was passed and that byte is the second `/` of `://`, the
/// window runs from the scheme bytes before the `://` to the `@`.
fn find_url_credentials(text: &str, at: &[usize], out: &mut Vec<Finding>) {
    let Some(re) = URL_CREDENTIALS.as_ref() else {
        return;
    };
    let bytes = text.as_bytes();
    // Linear: reading back from one `@` stops at the latest at the previous `@`.
    for &end in at {
        let mut userinfo = end;
        let mut colon = false;
        while userinfo > 0 {
            let b = bytes[userinfo - 1];
            if b.is_ascii_whitespace() || b"/?#@\"'<>`".contains(&b) {
                break;
            }
            colon |= b == b':';
            userinfo -= 1;
        }
        if !colon || userinfo < 3 || bytes.get(userinfo - 3..userinfo) != Some(b"://") {
            continue;
        }
        let sep = userinfo - 3;
        let mut start = sep;
        while start > 0 && sep - start < 31 && scheme_byte(bytes[start - 1]) {
            start -= 1;
        }
        find_url_credentials_in(re, text, start, end + 1, out);
    }
}

/// URL passwords in `start..end`, as a search of the whole text would find them there.
fn find_url_credentials_in(re: &Regex, text: &str, start: usize, end: usize, out: &mut Vec<Finding>) {
    let Some(haystack) = text.get(..end) else {
        return;
    };
    let mut pos = start;
    while let Some(caps) = re.captures_at(haystack, pos) {
        let (Some(whole), Some(password)) = (caps.get(0), caps.get(1)) else {
            break;
        };
        pos = whole.end().max(whole.start() + 1);
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

/// AWS secret keys in the run `start..end` of bytes such a match can contain.
fn find_aws_secret_keys(text: &str, start: usize, end: usize, out: &mut Vec<Finding>) {
    let (Some(re), Some(haystack)) = (AWS_SECRET_KEY.as_ref(), text.get(..end)) else {
        return;
    };
    let mut pos = start;
    while let Some(caps) = re.captures_at(haystack, pos) {
        let (Some(whole), Some(value)) = (caps.get(0), caps.get(1)) else {
            break;
        };
        pos = whole.end().max(whole.start() + 1);
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
/// (the same separator throughout, the first group of four digits), first digit 2–6 (the issuer ranges of the card networks),
/// Luhn-valid, and as long as a card of the network its first digits name can be.
///
/// Candidates are maximal runs of digit groups with 13 digits or more (found by
/// [`crate::scan`]); inside a run every start group is tried, longest window first, so a card
/// next to other numbers is still found.
fn find_cards_in_run(text: &str, run_start: usize, run_end: usize, out: &mut Vec<Finding>) {
    let Some(run) = text.get(run_start..run_end) else {
        return;
    };
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for (i, b) in run.bytes().enumerate() {
        if !b.is_ascii_digit() {
            groups.push((run_start + start, run_start + i));
            start = i + 1;
        }
    }
    groups.push((run_start + start, run_end));
    // A group glued to a word or a decimal point belongs to something else (`x123`, `1.5`);
    // drop it but keep looking at the rest of the run.
    let mut window = groups.as_slice();
    if char_before(text, run_start).is_some_and(|c| word(c) || c == '.') {
        window = window.get(1..).unwrap_or_default();
    }
    let glued_right = char_at(text, run_end).is_some_and(word)
        || (char_at(text, run_end) == Some('.') && char_after(text, run_end).is_some_and(|c| c.is_ascii_digit()));
    if glued_right {
        window = window.split_last().map_or(&[], |(_, rest)| rest);
    }
    find_cards_in_groups(text, window, out);
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
        let mut sizes: Vec<usize> = Vec::new();
        for j in i..groups.len() {
            let Some(&(s, e)) = groups.get(j) else {
                break;
            };
            digits += e - s;
            sizes.push(e - s);
            if digits > 19 {
                break;
            }
            if j > i {
                // Uniform separators and card-like group sizes; `1 2 3 4 …` is not a card.
                if separator(j - 1) != separator(i) || !(3..=6).contains(&(e - s)) {
                    break;
                }
                // Every network prints its cards with four digits first (4-4-4-4, 4-6-5,
                // 4-6-4, 4-4-4-4-3): three numbers of six digits side by side are a table's
                // columns (`top`'s memory sizes), not a card.
                if j == i + 1 && first_end - first_start != 4 {
                    break;
                }
            }
            if digits >= 13
                && card_layout(&sizes)
                && luhn_valid(&text[first_start..e])
                && card_length_fits(&text[first_start..e])
            {
                best = Some(e);
            }
        }
        if let Some(end) = best {
            out.push(Finding::whole(first_start, end, Rule::Builtin(Kind::PaymentCard)));
        }
    }
}

/// Whether digit groups of these sizes are laid out as cards are printed: one unbroken
/// run, fours (the last group may be shorter: 4-4-4-4-3, 4-4-4-1), or the 4-6-5 and 4-6-4
/// of American Express and Diners Club. A table's numbers that happen to stand one space
/// apart (`vmstat`'s `6945 21764 47897 80610`) are not.
fn card_layout(sizes: &[usize]) -> bool {
    match sizes {
        [_] => true,
        [4, 6, 4 | 5] => true,
        [4, middle @ .., last] => middle.iter().all(|&g| g == 4) && (1..=4).contains(last),
        _ => false,
    }
}

/// IBANs: a listed country code, two check digits and exactly as many characters as that
/// country's IBANs have, written compact or in groups of four, mod-97 valid. `start` is where
/// `[A-Z]{2}[0-9]{2}` stands; returns the end of the IBAN starting there, if one does.
fn iban_at(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let head = text.get(start..start + 4)?;
    if char_before(text, start).is_some_and(word) {
        return None;
    }
    let len = iban_length(head.get(..2)?)?;
    let mut compact = String::with_capacity(34);
    compact.push_str(head);
    let spaced = bytes.get(start + 4) == Some(&b' ');
    let mut pos = start + 4;
    while compact.len() < len {
        if spaced && (compact.len() - 4).is_multiple_of(4) {
            if bytes.get(pos) != Some(&b' ') {
                return None;
            }
            pos += 1;
        }
        match bytes.get(pos) {
            Some(&b) if b.is_ascii_uppercase() || b.is_ascii_digit() => {
                compact.push(char::from(b));
                pos += 1;
            }
            _ => return None,
        }
    }
    if char_at(text, pos).is_some_and(word) || !iban_valid(&compact) {
        return None;
    }
    Some(pos)
}

#[cfg(test)]
#[path = "detectors_tests.rs"]
mod tests;
