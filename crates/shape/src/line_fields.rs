//! Log lines that carry named fields: the combined access-log format (nginx, Apache) and
//! `key=value` lines (logfmt). Their fields are counted like a list of records' fields, so
//! the first read of a log answers "how many 404s" or "which status is most frequent".
//!
//! Recognised by syntax on most of the first lines, never by the tool that returned the
//! text. At most [`MAX_LINES`] lines are read, and a map built over fewer lines than the
//! text has says so.

use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value};

use crate::aligned::{ELEMENT, learn_rows};
use crate::facets::Facets;
use crate::numfmt::thousands;

/// Lines whose fields are counted, at most.
pub(crate) const MAX_LINES: usize = 50_000;
/// Lines looked at to recognise the format.
const PROBE: usize = 100;

/// The access log's fields, named as nginx's log variables name them.
const ACCESS_FIELDS: [&str; 10] = [
    "remote_addr",
    "remote_user",
    "time_local",
    "method",
    "path",
    "status",
    "body_bytes_sent",
    "http_referer",
    "http_user_agent",
    "request",
];

fn access_line() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"^(\S+) \S+ (\S+) \[([^\]]+)\] "(\S+) (\S+)[^"]*" (\d{3}) (\S+)(?: "([^"]*)" "([^"]*)")?"#).ok()
    })
    .as_ref()
}

/// One access-log line as a record.
fn access_record(line: &str) -> Option<Value> {
    let c = access_line()?.captures(line)?;
    let mut m = Map::new();
    for (i, name) in ACCESS_FIELDS[..9].iter().enumerate() {
        if let Some(v) = c.get(i + 1).map(|g| g.as_str()).filter(|v| *v != "-") {
            // A status is a code to count, the size a quantity with a range.
            let v = match *name {
                "body_bytes_sent" => v.parse::<u64>().map_or_else(|_| Value::from(v), Value::from),
                _ => Value::from(v),
            };
            m.insert((*name).to_owned(), v);
        }
    }
    Some(Value::Object(m))
}

/// One `key=value` line as a record (two pairs at least). Read by hand, not by a regular
/// expression with captures: this runs on every line of a log.
fn logfmt_record(line: &str) -> Option<Value> {
    let mut m = Map::new();
    // An XML element's attributes (`<testcase name="…" time="0.3">`) are pairs of an element
    // whose name is the record's kind: a report's suites and cases are counted apart.
    if let Some(tag) = line.trim_start().strip_prefix('<').filter(|t| t.starts_with(|c: char| c.is_ascii_alphabetic()))
    {
        let name: String =
            tag.chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.')).collect();
        m.insert(ELEMENT.to_owned(), Value::String(name));
    }
    let bytes = line.as_bytes();
    // `cmdstat_get:calls=648,usec=4996` (Redis `INFO`): a line named before its pairs, the
    // pairs apart by commas. The name is the record's, unless a pair is called `name`.
    let named = line_name(line);
    let mut i = named.map_or(0, |n| n.len() + 1);
    // Where the last pair's value ended: a comma there may start the next pair, a comma
    // elsewhere (`users:(("nginx",pid=2214,fd=3))`) does not.
    let mut value_end = None;
    while i < bytes.len() {
        // A key starts a word: at the line's start, after a space, after the line's name, or
        // after the comma that ended the value before it.
        let after_pair = i > 0 && bytes[i - 1] == b',' && value_end == Some(i - 1);
        let after_name = named.is_some_and(|n| i == n.len() + 1);
        if i > 0 && !bytes[i - 1].is_ascii_whitespace() && !after_pair && !after_name {
            i += 1;
            continue;
        }
        let key_start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'.' | b'-')) {
            i += 1;
        }
        let key = &line[key_start..i];
        let keyed = i < bytes.len()
            && bytes[i] == b'='
            && (1..=40).contains(&key.len())
            && key.as_bytes()[0].is_ascii_alphabetic();
        if !keyed {
            i = i.max(key_start + 1);
            continue;
        }
        i += 1;
        let value = if bytes.get(i) == Some(&b'"') {
            let start = i + 1;
            let mut j = start;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            line.get(start..j.min(bytes.len()))
        } else {
            let start = i;
            // A comma ends the value only where another `key=` follows it: `tags=a,b` is one
            // value.
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !(bytes[i] == b',' && key_follows(bytes, i + 1))
            {
                i += 1;
            }
            value_end = Some(i);
            line.get(start..i)
        };
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            // A key said again on the line (conntrack's reply `src=…` after the original's)
            // keeps its first value: the line is about what it says first.
            if !m.contains_key(key) {
                m.insert(key.to_owned(), Value::from(v));
            }
        }
    }
    let pairs = m.len() - usize::from(m.contains_key(ELEMENT));
    if let Some(name) = named
        && pairs >= 2
    {
        m.entry("name").or_insert_with(|| Value::from(name));
    }
    (pairs >= 2).then_some(Value::Object(m))
}

/// The name a line gives itself before its pairs: a word of letters, digits, `_`, `.`, `-`
/// or `|` at the line's start, then a colon and at once a `key=`.
fn line_name(line: &str) -> Option<&str> {
    let (name, rest) = line.split_once(':')?;
    let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '|');
    (!name.is_empty()
        && name.len() <= 80
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(word)
        && key_follows(rest.as_bytes(), 0))
    .then_some(name)
}

/// Whether a `key=` starts at byte `at`: a letter, then letters, digits, `_`, `.` or `-`, then `=`.
fn key_follows(bytes: &[u8], at: usize) -> bool {
    if !bytes.get(at).is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let end = bytes[at..]
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')))
        .map_or(bytes.len(), |p| at + p);
    bytes.get(end) == Some(&b'=') && end - at <= 40
}

/// A map of a log whose lines carry named fields: the format, and facets of its fields, at
/// most `room` characters.
pub(crate) fn line_fields(text: &str, room: usize) -> Option<String> {
    let probe: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(PROBE).collect();
    if probe.len() < 5 {
        return None;
    }
    let share = |f: fn(&str) -> Option<Value>| probe.iter().filter(|l| f(l).is_some()).count();
    let (read, what): (fn(&str) -> Option<Value>, &str) = if share(access_record) * 10 >= probe.len() * 9 {
        (access_record, "access log")
    } else if share(logfmt_record) * 10 >= probe.len() * 6 {
        (logfmt_record, "key=value fields")
    } else {
        return None;
    };
    let sample: Vec<Value> = probe.iter().filter_map(|l| read(l)).collect();
    fields_map(&sample, room, |facets| {
        let (mut read_lines, mut total) = (0usize, 0usize);
        for line in text.lines() {
            total += 1;
            if read_lines < MAX_LINES {
                read_lines += 1;
                if let Some(r) = read(line) {
                    facets.add(&r);
                }
            }
        }
        if read_lines < total {
            format!(
                "{what} (fields of the first {} of {} lines)",
                thousands(read_lines as u64),
                thousands(total as u64)
            )
        } else {
            what.to_owned()
        }
    })
}

/// The map of records read from lines: their fields learnt from `sample`, counted by
/// `feed` (which returns the map's head), said in whole clauses within `room`.
pub(crate) fn fields_map(sample: &[Value], room: usize, feed: impl FnOnce(&mut Facets) -> String) -> Option<String> {
    let mut compactor = learn_rows(sample);
    if !compactor.is_active() {
        return None;
    }
    // Records of several kinds (an XML report's suites and cases) have extremes within each
    // kind only: across kinds a suite's time would be compared with a case's.
    let kinds: std::collections::HashSet<&str> =
        sample.iter().filter_map(|r| r.get(ELEMENT).and_then(Value::as_str)).collect();
    if kinds.len() > 1 {
        compactor.measure_by(ELEMENT);
    }
    let mut facets = Facets::new(&compactor);
    let head = feed(&mut facets);
    let left = room.saturating_sub(head.len() + 2);
    // Only whole clauses, within the room: a note of facets that did not fit says nothing.
    let phrase = facets.phrase(left).filter(|p| left > 40 && !p.starts_with(|c: char| c.is_ascii_digit()))?;
    let map = format!("{head}: {phrase}");
    (map.len() <= room).then_some(map)
}

/// Share of all lines, in percent, that must carry `key=value` pairs for them to be
/// counted when the text's first lines do not (a kernel log's firewall lines among its
/// other messages).
const SOME_LINES_PERCENT: usize = 20;
/// Lines with pairs needed, at least, for that.
const SOME_LINES_MIN: usize = 20;

/// The fields of the lines that carry `key=value` pairs in a text whose other lines do
/// not, at most `room` characters: `key=value fields in 647 of 1,593 lines: SRC, most first:
/// …`. `None` when too few lines carry them.
pub(crate) fn some_lines_fields(text: &str, room: usize) -> Option<String> {
    let mut total = 0usize;
    let mut paired: Vec<&str> = Vec::new();
    for line in text.lines().take(MAX_LINES) {
        total += 1;
        if pairs_at_least_two(line) {
            paired.push(line);
        }
    }
    if paired.len() < SOME_LINES_MIN || paired.len() * 100 < total * SOME_LINES_PERCENT {
        return None;
    }
    let records: Vec<Value> = paired.iter().filter_map(|l| logfmt_record(l)).collect();
    fields_map(&records[..records.len().min(PROBE)], room, |facets| {
        for r in &records {
            facets.add(r);
        }
        format!("key=value fields in {} of {} lines", thousands(records.len() as u64), thousands(total as u64))
    })
}

/// Whether a line holds two `key=` words at least: a quick test before reading its pairs.
fn pairs_at_least_two(line: &str) -> bool {
    let bytes = line.as_bytes();
    let mut found = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'=' && i > 0 && bytes[i - 1].is_ascii_alphanumeric() {
            let start = bytes[..i].iter().rposition(u8::is_ascii_whitespace).map_or(0, |s| s + 1);
            if bytes[start].is_ascii_alphabetic() {
                found += 1;
                if found >= 2 {
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_access_log_counts_statuses_and_clients() {
        let text: String = (0..120)
            .map(|i| {
                let status = if i % 10 == 0 { 404 } else { 200 };
                format!(
                    "10.0.0.{} - - [31/Dec/2025:11:53:{:02} +0000] \"GET /p/{i} HTTP/1.1\" {status} {} \"-\" \"curl/8.{}\"\n",
                    i % 4,
                    i % 60,
                    100 + i,
                    i % 2
                )
            })
            .collect();
        let map = line_fields(&text, 2_000).unwrap();
        assert!(map.starts_with("access log: "), "{map}");
        assert!(map.contains("status: 200 108, 404 12"), "{map}");
        assert!(map.contains("remote_addr, most first: 10.0.0.0 30, 10.0.0.1 30, 10.0.0.2 30, 10.0.0.3 30"), "{map}");
    }

    #[test]
    fn xml_elements_are_counted_by_their_tag_which_names_no_record() {
        let mut text = String::from("<testsuites name=\"all\" tests=\"40\" time=\"99.5\">\n");
        for s in 0..4 {
            text.push_str(&format!("  <testsuite name=\"Suite{s}\" tests=\"10\" time=\"{s}.5\">\n"));
            for c in 0..10 {
                text.push_str(&format!("    <testcase name=\"case{s}_{c}\" classname=\"Suite{s}\" time=\"0.{c}\"/>\n"));
            }
            text.push_str("  </testsuite>\n");
        }
        let map = line_fields(&text, 2_000).unwrap();
        assert!(map.contains("element, most first: testcase 40, testsuite 4, testsuites 1"), "{map}");
        assert!(!map.contains("(element "), "a kind names no holder: {map}");
        // A suite's time is compared with the other suites', never with a case's.
        assert!(map.contains("time where element is testsuite (4 records): max 3.5 (name Suite3)"), "{map}");
        assert!(!map.contains("time: max"), "no extreme across kinds: {map}");
    }

    #[test]
    fn a_line_named_before_its_comma_separated_pairs_is_a_record_of_that_name() {
        let r = logfmt_record("cmdstat_get:calls=648,usec=4996,usec_per_call=7.71").unwrap();
        assert_eq!(
            r,
            serde_json::json!({"name": "cmdstat_get", "calls": "648", "usec": "4996", "usec_per_call": "7.71"})
        );
        // A pair called `name` keeps its own value.
        let r = logfmt_record("listener0:name=tcp,port=6379").unwrap();
        assert_eq!(r, serde_json::json!({"name": "tcp", "port": "6379"}));
        // A comma ends a value only before another pair.
        let r = logfmt_record("tags=a,b level=info").unwrap();
        assert_eq!(r, serde_json::json!({"tags": "a,b", "level": "info"}));
        // A line that starts with a comma is read without panicking (found by a property
        // test).
        assert_eq!(logfmt_record(",a=1 b=2 c=3"), Some(serde_json::json!({"b": "2", "c": "3"})));
        // Pairs inside a value that is not one (`ss -p`'s process) are not the line's.
        assert_eq!(logfmt_record("ESTAB 0 0 10.0.0.1:80 10.0.0.2:5100 users:((\"nginx\",pid=2214,fd=3))"), None);
        // Redis `INFO`'s command lines are counted under the section headings.
        let mut text = String::from("# Server\nredis_version:7.4.2\n\n# Commandstats\n");
        for i in 0..24 {
            let calls = 1_000 * (i + 1);
            text.push_str(&format!("cmdstat_c{i}:calls={calls},usec={},usec_per_call=1.50\n", calls * (30 - i)));
        }
        let map = some_lines_fields(&text, 2_000).unwrap();
        // The most called command is named by its line's name.
        assert!(map.contains("calls: max 24000 (name cmdstat_c23)"), "{map}");
    }

    #[test]
    fn key_value_lines_count_their_fields() {
        let text: String = (0..60)
            .map(|i| {
                format!(
                    "ts=2025-12-31T10:{:02}:00Z level={} msg=\"request done\" status={}\n",
                    i % 60,
                    ["info", "info", "error"][i % 3],
                    [200, 500][i % 2]
                )
            })
            .collect();
        let map = line_fields(&text, 2_000).unwrap();
        assert!(map.contains("level: info 40, error 20"), "{map}");
    }

    #[test]
    fn a_key_said_again_on_a_line_keeps_its_first_value() {
        // conntrack: the original direction, then the reply's addresses and ports.
        let text: String = (0..60)
            .map(|i| {
                let (to, port) = [("10.96.0.1", 443), ("10.96.0.10", 53), ("10.96.0.10", 53)][i % 3];
                format!("tcp 6 86400 ESTABLISHED src=10.244.1.{i} dst={to} sport={} dport={port} src=10.0.3.{i} dst=10.244.1.{i} sport={port} dport={} mark=0 use=1\n", 40_000 + i, 40_000 + i)
            })
            .collect();
        let map = line_fields(&text, 2_000).unwrap();
        assert!(map.contains("dport: 53 40, 443 20"), "{map}");
        assert!(map.contains("dst: 10.96.0.10 40, 10.96.0.1 20"), "{map}");
    }

    #[test]
    fn a_field_nearly_every_line_has_once_names_the_line_holding_a_largest() {
        let text: String = (0..60)
            .map(|i| {
                if i % 20 == 19 {
                    "systemd: unit=api code=exited\n".to_owned()
                } else {
                    format!("level=info request_id=r{i:03} duration_ms={}\n", if i == 33 { 9_000 } else { 100 + i })
                }
            })
            .collect();
        let map = line_fields(&text, 2_000).unwrap();
        assert!(map.contains("duration_ms: max 9000 (request_id r033)"), "{map}");
    }

    #[test]
    fn pairs_on_a_share_of_the_lines_are_counted() {
        let mut text = String::new();
        for i in 0..200 {
            if i % 4 == 0 {
                text.push_str(&format!("[{i}] [FW BLOCK] IN=eth0 SRC=10.0.0.{} DPT={}\n", i % 3, [22, 23, 443][i % 3]));
            } else {
                text.push_str(&format!("[{i}] docker0: port {} entered blocking state\n", i % 9));
            }
        }
        // The first lines decide against a log of fields; the share of all lines does not.
        assert_eq!(line_fields(&text, 2_000), None);
        let map = some_lines_fields(&text, 2_000).unwrap();
        assert!(map.starts_with("key=value fields in 50 of 200 lines: "), "{map}");
        // Source and port go together in every line: counted once, the other named.
        assert!(map.contains("SRC, most first: 10.0.0.0 17, 10.0.0.1 17, 10.0.0.2 16 (split alike: DPT)"), "{map}");
        let few: String = text.lines().filter(|l| !l.contains("BLOCK")).take(150).map(|l| format!("{l}\n")).collect();
        assert_eq!(some_lines_fields(&few, 2_000), None);
    }

    #[test]
    fn prose_and_short_texts_have_no_fields() {
        let prose = "The quick brown fox.\n".repeat(50);
        assert_eq!(line_fields(&prose, 2_000), None);
        assert_eq!(line_fields("a=1 b=2\n", 2_000), None);
    }
}
