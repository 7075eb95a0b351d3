//! Phone numbers: international `+<country code> …` forms, North American national forms and
//! Chinese mobile numbers.
//!
//! Phone numbers are digits with separators, and so are dates, times, versions, IP addresses,
//! ids and timestamps. The forms accepted here are the ones that rarely mean anything else: a
//! leading `+`, a parenthesised or dash/dot separated 3-3-4 North American shape with valid
//! area and exchange codes, or an 11-digit `1[3-9]…` Chinese mobile number standing alone.
//! Bare digit runs of other lengths are left alone.

use regex::Regex;

use crate::chars::{char_after, char_at, char_before, lazy_regex};
use crate::kinds::Kind;
use crate::text::{Finding, Rule};

lazy_regex!(INTERNATIONAL, r"\+[0-9]{1,15}(?:[ .\-]?\([0-9]{1,5}\)[ .\-]?[0-9]{1,12})?(?:[ .\-][0-9]{1,12}){0,6}");
lazy_regex!(NORTH_AMERICAN, r"(?:1[ .\-]?)?(?:\([2-9][0-9]{2}\)[ .\-]?|[2-9][0-9]{2}[.\-])[2-9][0-9]{2}[.\-][0-9]{4}");
lazy_regex!(CHINESE_MOBILE, r"1[3-9][0-9](?:[0-9]{8}|[ \-][0-9]{4}[ \-][0-9]{4})");

/// Every phone regex, for the compile test.
#[cfg(test)]
pub(crate) const ALL: [&crate::chars::LazyRegex; 3] = [&INTERNATIONAL, &NORTH_AMERICAN, &CHINESE_MOBILE];

/// Bytes a phone candidate can contain: every regex here matches only these, so a maximal run
/// of them is a window in which the search gives what it would give in the whole text.
pub(crate) fn phone_byte(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b' ' | b'.' | b'-' | b'(' | b')' | b'+')
}

/// Finds every phone number in the run `start..end` of [`phone_byte`]s of `text`.
///
/// After a rejected candidate the search resumes one character later rather than after the
/// candidate: `01 415-555-0100` is first seen as `1 415-555-0100` (glued to the `0`, rejected),
/// and the number inside must still be found. Candidates are short, so this stays linear.
pub(crate) fn find(text: &str, start: usize, end: usize, out: &mut Vec<Finding>) {
    let Some(haystack) = text.get(..end) else {
        return;
    };
    if let Some(re) = INTERNATIONAL.as_ref() {
        each_candidate(re, haystack, start, |at, s| {
            if char_before(text, at).is_some_and(|c| c.is_alphanumeric() || "_+".contains(c)) {
                return None;
            }
            if !country_code_first(s) {
                return None;
            }
            international_len(text, at, s)
        })
        .for_each(|(s, e)| push(out, s, e));
    }
    for (re, bare) in [(&NORTH_AMERICAN, false), (&CHINESE_MOBILE, true)] {
        let Some(re) = re.as_ref() else {
            continue;
        };
        each_candidate(re, haystack, start, |at, s| {
            let end = at + s.len();
            // Eleven bare digits are as often a counter (`calls=14158304207`,
            // `rx_bytes: 14158304207`): as a field's value they are a phone only where the
            // field's name says so.
            let unbroken = s.bytes().all(|b| b.is_ascii_digit());
            if bare && unbroken && field_name_before(text, at).is_some_and(|name| !names_a_phone(name)) {
                return None;
            }
            (national_bounded(text, at, end) && consistent_separators(s)).then_some(s.len())
        })
        .for_each(|(s, e)| push(out, s, e));
    }
}

/// The name of the field whose value starts at `at`, if the value follows one: `name=`,
/// `name:` or `name: ` (a name of letters, digits, `_`, `.` or `-`, at most 64 bytes).
fn field_name_before(text: &str, at: usize) -> Option<&str> {
    let before = text.get(..at)?;
    let before = before.strip_suffix(' ').unwrap_or(before);
    let before = before.strip_suffix(['=', ':'])?;
    let start = before
        .bytes()
        .rposition(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')))
        .map_or(0, |i| i + 1);
    let name = &before[start..];
    (!name.is_empty() && name.len() <= 64).then_some(name)
}

/// Whether a field's name says it holds a phone number (`phone`, `mobile`, `telephoneNumber`,
/// `tel`, `cell`, `fax`, `msisdn`).
fn names_a_phone(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if ["phone", "mobile", "msisdn", "fax"].iter().any(|w| lower.contains(w)) {
        return true;
    }
    lower.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| matches!(w, "tel" | "cell" | "contact" | "sms"))
}

/// Runs `accept` on each candidate of `re` in `haystack` from `start`; it returns the accepted
/// length, or `None` to resume the search one character after the candidate's start.
fn each_candidate<'a>(
    re: &'a Regex,
    haystack: &'a str,
    start: usize,
    mut accept: impl FnMut(usize, &str) -> Option<usize> + 'a,
) -> impl Iterator<Item = (usize, usize)> + 'a {
    let mut pos = start;
    std::iter::from_fn(move || {
        while pos <= haystack.len() {
            let m = re.find_at(haystack, pos)?;
            match accept(m.start(), m.as_str()) {
                Some(len) => {
                    pos = m.end().max(m.start() + 1);
                    return Some((m.start(), m.start() + len));
                }
                None => {
                    pos = m.start() + char_at(haystack, m.start()).map_or(1, char::len_utf8);
                }
            }
        }
        None
    })
}

fn push(out: &mut Vec<Finding>, start: usize, end: usize) {
    out.push(Finding::whole(start, end, Rule::Builtin(Kind::Phone)));
}

fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'.' | b'-')
}

/// Nothing glued on either side: not the middle of a longer number, a decimal, a version or
/// a word.
fn national_bounded(text: &str, start: usize, end: usize) -> bool {
    let left_ok = !char_before(text, start).is_some_and(|c| c.is_alphanumeric() || "_.-+".contains(c));
    let right_ok = match char_at(text, end) {
        None => true,
        Some(c) if c.is_alphanumeric() || c == '_' => false,
        Some('.' | '-') => !char_after(text, end).is_some_and(|c| c.is_ascii_digit()),
        Some(_) => true,
    };
    left_ok && right_ok
}

/// `415-555-0100` and `415.555.0100`, not `415-555.0100`.
fn consistent_separators(s: &str) -> bool {
    let mut seps = s.bytes().skip_while(|b| *b == b'(').filter(|b| matches!(b, b'.' | b'-'));
    match seps.next() {
        None => true,
        Some(first) => seps.all(|b| b == first),
    }
}

/// How much of an international candidate is a phone number, if any.
///
/// The regex is generous about trailing groups (`+1 415 555 0100 24 hours`), so the candidate is
/// shortened group by group at spaces until it has at most 15 digits (the E.164 maximum) and a
/// clean end; at least 8 digits are required.
fn international_len(text: &str, start: usize, s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut ends = vec![s.len()];
    for i in (1..bytes.len()).rev() {
        if bytes[i] == b' ' && bytes[i - 1].is_ascii_digit() && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            ends.push(i);
        }
    }
    for (n, &end) in ends.iter().enumerate() {
        let candidate = &s[..end];
        let digits = candidate.bytes().filter(u8::is_ascii_digit).count();
        if digits > 15 {
            continue;
        }
        if digits < 8 {
            return None;
        }
        if n == 0 && !clean_end(text, start + end) {
            continue;
        }
        if looks_like_date_or_address(candidate) {
            return None;
        }
        return Some(end);
    }
    None
}

/// Whether a `+` candidate opens as a country code can: never with `0` (E.164), and never as
/// a time-zone offset followed by more digits (`+1000 1410`, git blame's zone and line).
fn country_code_first(s: &str) -> bool {
    let body = s.trim_start_matches('+');
    if body.starts_with('0') {
        return false;
    }
    let first: &str = body.split(|c: char| !c.is_ascii_digit()).next().unwrap_or_default();
    let offset = first.len() == 4
        && first.get(..2).and_then(|h| h.parse::<u8>().ok()).is_some_and(|h| h <= 14)
        && matches!(first.get(2..), Some("00" | "15" | "30" | "45"))
        && body.len() > 4;
    !offset
}

fn clean_end(text: &str, end: usize) -> bool {
    match char_at(text, end) {
        None => true,
        Some(c) if c.is_alphanumeric() || c == '_' => false,
        Some('.' | '-') => !char_after(text, end).is_some_and(|c| c.is_ascii_digit()),
        Some(_) => true,
    }
}

/// `+2024-01-02` (a date in a diff), `+10.0.0.1`: digit groups that mean something else.
fn looks_like_date_or_address(candidate: &str) -> bool {
    let body = candidate.trim_start_matches('+');
    let mut groups: Vec<&str> = Vec::new();
    let mut seps: Vec<u8> = Vec::new();
    let mut start = 0;
    for (i, b) in body.bytes().enumerate() {
        if is_separator(b) || b == b'(' || b == b')' {
            if i > start {
                groups.push(&body[start..i]);
            }
            seps.push(b);
            start = i + 1;
        }
    }
    if start < body.len() {
        groups.push(&body[start..]);
    }
    let number = |g: &str| g.parse::<u32>().unwrap_or(0);
    let lens: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    let same_date_sep = seps.len() >= 2 && seps[0] == seps[1] && matches!(seps[0], b'-' | b'.');
    if same_date_sep && lens.len() >= 3 {
        let (a, b, c) = (groups[0], groups[1], groups[2]);
        if lens[..3] == [4, 2, 2] && (1..=12).contains(&number(b)) && (1..=31).contains(&number(c)) {
            return true;
        }
        if lens[..3] == [2, 2, 4] && (1..=31).contains(&number(a)) && (1..=12).contains(&number(b)) {
            return true;
        }
    }
    let all_dots = !seps.is_empty() && seps.iter().all(|b| *b == b'.');
    all_dots && lens.len() >= 4 && lens.iter().all(|l| *l <= 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        find(text, 0, text.len(), &mut out);
        out.iter().map(|f| &text[f.start..f.end]).collect()
    }

    #[test]
    fn trailing_numbers_are_trimmed_at_spaces() {
        assert_eq!(found("call +1 415 555 0100 24 hours"), ["+1 415 555 0100 24"]);
        // The national number inside is found too; overlapping findings merge into one.
        assert_eq!(found("+86 138 0000 0000 1234567 x")[0], "+86 138 0000 0000");
    }

    #[test]
    fn a_rejected_candidate_does_not_hide_the_number_inside() {
        assert_eq!(found("01 415-555-0100"), ["415-555-0100"]);
        assert_eq!(found("x+1 415-555-0100"), ["415-555-0100"]);
    }

    #[test]
    fn eleven_digits_as_a_field_s_value_are_a_phone_only_where_the_field_names_one() {
        // Counters of `redis-cli info`, `ethtool -S` and `virsh domstats`.
        assert!(found("cmdstat_sismember:calls=14158304207,usec=16870939019").is_empty());
        assert!(found("     rx_prio3_bytes: 14158304207").is_empty());
        assert!(found("net.0.tx.pkts=13911213004").is_empty());
        // Phones still are: named as one, or standing in prose.
        assert_eq!(found("mobile: 13812345678"), ["13812345678"]);
        assert_eq!(found("contact_tel=13812345678"), ["13812345678"]);
        assert_eq!(found("telephoneNumber: 13812345678"), ["13812345678"]);
        assert_eq!(found("call me at 13812345678 today"), ["13812345678"]);
        // Written in groups, it is a phone's layout, whatever field holds it.
        assert_eq!(found("owner: 138 1234 5678"), ["138 1234 5678"]);
    }

    #[test]
    fn a_time_zone_or_a_zero_is_no_country_code() {
        // git blame: the commit's zone, then the line number.
        assert!(found("(Uma Fischer  2021-09-18 20:14:58 +0000 1410) x").is_empty());
        assert!(found("(Uma Fischer  2021-09-18 20:14:58 +1000 1410) x").is_empty());
        assert!(found("+0044 20 7946 0958").is_empty());
        assert_eq!(found("+44 20 7946 0958"), ["+44 20 7946 0958"]);
        assert_eq!(found("+4930 1234567"), ["+4930 1234567"]);
    }

    #[test]
    fn dates_and_addresses_with_plus_are_not_phones() {
        assert!(found("+2024-01-02 10:11:12 started").is_empty());
        assert!(found("+192.168.100.200").is_empty());
        assert!(found("+31.12.2024").is_empty());
    }
}
