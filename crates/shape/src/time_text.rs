//! Points in time written as text, in the forms tools and APIs print them: RFC 3339 and its
//! civil form with a space (`2025-12-05 22:10:11`, with `UTC` or an offset after it), the
//! form of mail and HTTP headers (RFC 2822: `Fri, 05 Dec 2025 22:10:11 +0000`), the access
//! log's (`05/Dec/2025:22:10:11 +0000`), and `ctime`'s as `date` and `git log` print it
//! (`Fri Dec  5 22:10:11 2025`, `Fri Dec 5 22:10:11 UTC 2025`, `… 2025 +0100`). A time with
//! no offset is read as UTC: values of one field are compared with each other, so a shared
//! zone does not change which is first or last. Strings of digits are epoch numbers.

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::fmt::rfc2822::DateTimeParser;
use jiff::fmt::strtime;
use jiff::tz::Offset;

/// The longest text read as a time.
const MAX_CHARS: usize = 64;

static RFC2822: DateTimeParser = DateTimeParser::new();

/// Milliseconds since the epoch for a time written as text, `None` for anything else.
pub(crate) fn time_text_millis(s: &str) -> Option<i64> {
    if s.is_empty() || s.len() > MAX_CHARS {
        return None;
    }
    if let Ok(ts) = s.parse::<Timestamp>() {
        return Some(ts.as_millisecond());
    }
    // Digits in a string ("1700000000") are epoch numbers; `2024-01-02` falls through.
    if let Ok(x) = s.parse::<f64>() {
        return crate::aggregate::epoch_millis(x);
    }
    if let Ok(civil) = s.parse::<DateTime>() {
        return utc(civil);
    }
    let first = s.as_bytes()[0];
    if first.is_ascii_digit() {
        iso_with_zone_apart(s).or_else(|| access_log(s)).or_else(|| rfc2822(s))
    } else if first.is_ascii_alphabetic() {
        rfc2822(s).or_else(|| ctime(s))
    } else {
        None
    }
}

fn utc(civil: DateTime) -> Option<i64> {
    Offset::UTC.to_timestamp(civil).ok().map(Timestamp::as_millisecond)
}

/// `2025-12-05 22:10:11 UTC`, `… GMT`, `… +0000`, `… +01:00`: a civil time, then its zone
/// after a space.
fn iso_with_zone_apart(s: &str) -> Option<i64> {
    if s.as_bytes().get(4) != Some(&b'-') {
        return None;
    }
    let (civil, zone) = s.rsplit_once(' ')?;
    let civil: DateTime = civil.parse().ok()?;
    if matches!(zone, "UTC" | "GMT" | "Z") {
        return utc(civil);
    }
    let ts = format!("{}{}", civil, colon_offset(zone)?).parse::<Timestamp>().ok()?;
    Some(ts.as_millisecond())
}

/// An offset as RFC 3339 writes it (`+01:00`) from `+0100` or `+01:00`.
fn colon_offset(zone: &str) -> Option<String> {
    let b = zone.as_bytes();
    let digits = |r: &[u8]| r.iter().all(u8::is_ascii_digit);
    match b {
        [sign @ (b'+' | b'-'), rest @ ..] if rest.len() == 4 && digits(rest) => {
            Some(format!("{}{}:{}", *sign as char, &zone[1..3], &zone[3..5]))
        }
        [b'+' | b'-', rest @ ..] if rest.len() == 5 && rest[2] == b':' && digits(&rest[..2]) && digits(&rest[3..]) => {
            Some(zone.to_owned())
        }
        _ => None,
    }
}

/// The common log format's time: `05/Dec/2025:22:10:11 +0000`.
fn access_log(s: &str) -> Option<i64> {
    if s.as_bytes().get(2) != Some(&b'/') {
        return None;
    }
    let parsed = strtime::parse("%d/%b/%Y:%H:%M:%S %z", s).ok()?;
    parsed.to_timestamp().ok().map(Timestamp::as_millisecond)
}

/// Mail and HTTP headers' time, with or without its weekday.
fn rfc2822(s: &str) -> Option<i64> {
    RFC2822.parse_timestamp(s).ok().map(|ts| ts.as_millisecond())
}

/// `ctime`'s form: weekday, month, day (padded with a space), clock and year, with a zone
/// name before the year (`date`) or an offset after it (`git log`).
fn ctime(s: &str) -> Option<i64> {
    let words: Vec<&str> = s.split_ascii_whitespace().take(7).collect();
    // The zone, where there is one, goes after the year: the form `strtime` reads.
    let (year, offset) = match words.as_slice() {
        [.., "UTC" | "GMT", year] if words.len() == 6 => (*year, None),
        [_, _, _, _, year] => (*year, None),
        [_, _, _, _, year, offset] => (*year, Some(*offset)),
        _ => return None,
    };
    if !words[3].contains(':') || year.len() != 4 {
        return None;
    }
    let day = format!("{} {} {} {} {year}", words[0], words[1], words[2], words[3]);
    match offset {
        Some(offset) => strtime::parse("%a %b %d %H:%M:%S %Y %z", format!("{day} {offset}"))
            .ok()?
            .to_timestamp()
            .ok()
            .map(Timestamp::as_millisecond),
        None => utc(strtime::parse("%a %b %d %H:%M:%S %Y", day).ok()?.to_datetime().ok()?),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iso(s: &str) -> String {
        Timestamp::from_millisecond(time_text_millis(s).unwrap_or_else(|| panic!("{s}"))).unwrap().to_string()
    }

    #[test]
    fn every_form_reads_as_the_same_time() {
        for s in [
            "2025-12-05T22:10:11Z",
            "2025-12-05T23:10:11+01:00",
            "2025-12-05 22:10:11",
            "2025-12-05 22:10:11 UTC",
            "2025-12-05 23:10:11 +0100",
            "2025-12-05 23:10:11 +01:00",
            "Fri, 05 Dec 2025 22:10:11 +0000",
            "Fri, 5 Dec 2025 17:10:11 -0500",
            "05 Dec 2025 22:10:11 GMT",
            "05/Dec/2025:22:10:11 +0000",
            "Fri Dec  5 22:10:11 2025",
            "Fri Dec 5 22:10:11 UTC 2025",
            "Fri Dec 5 23:10:11 2025 +0100",
        ] {
            assert_eq!(iso(s), "2025-12-05T22:10:11Z", "{s}");
        }
        assert_eq!(iso("1764972611"), "2025-12-05T22:10:11Z");
    }

    #[test]
    fn other_text_is_no_time() {
        for s in [
            "",
            "Fri",
            "hello world this is text",
            "10:11:49",
            "2025-12-05 22:10:11 soon",
            "05/Dec/2025",
            "Dec  5 22:10:11",
            "Fri Dec 5 22:10:11 nope 2025",
            "v1.2.3",
            "192.168.1.10",
        ] {
            assert_eq!(time_text_millis(s), None, "{s}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_without_panic(s in "\\PC{0,70}") {
            let _ = time_text_millis(&s);
        }
    }
}
