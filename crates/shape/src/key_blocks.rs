//! Text written as records of `Key: value` lines, one block per record: `kubectl describe`,
//! `git log` as some tools print it (`Commit: …`, `Author: …`), Debian's `apt show`, LDIF;
//! or of `key=value` lines (`ffprobe -show_frames`, INI-style sections).
//! The blocks are read as records and counted like a list of records' fields, so the first
//! read says how many records there are and answers "who wrote most of the commits".
//!
//! A record starts at each line with the key that opens most blocks between blank lines
//! (LDIF's `dn:`, though `objectClass:` recurs more), else the key that recurs most, the
//! first to appear among equals (`Name:`, `Commit:`, `Package:`); its fields are the
//! unindented `Key: value` lines up to the next such line. Indented lines (nested sections, wrapped values) are left to the
//! text itself, unless every record is indented. Recognised by layout alone, never by the tool that printed it.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::aligned::{cell_value, rows_map};
use crate::line_fields::MAX_LINES;
use crate::numfmt::thousands;

/// Records a text needs, at least.
const MIN_RECORDS: usize = 3;
/// A key held by at least this share of the most common key's lines (9 in 10) is one
/// nearly every record holds.
const NEARLY_EVERY: (usize, usize) = (9, 10);
/// Keys longer than this are prose before a colon, not keys.
const MAX_KEY: usize = 40;
/// Keys of more words than this are prose too.
const MAX_KEY_WORDS: usize = 4;
/// The same, for records that are all indented under the text's own headings: a nested
/// report names its figures at length (Cassandra's `Average live cells per slice (last
/// five minutes)`), where at the top level so long a key is more often a sentence.
const MAX_NESTED_KEY: usize = 56;
const MAX_NESTED_KEY_WORDS: usize = 8;

/// An unindented `Key: value` line's key and value (the value may be empty); also a word
/// and a hash, as git writes `commit 4918d63f…` (anything after the hash, such as branch
/// names, is left out).
fn key_value(line: &str) -> Option<(&str, &str)> {
    key_value_within(line, MAX_KEY, MAX_KEY_WORDS)
}

/// [`key_value`] with keys of at most `max_chars` characters and `max_words` words.
fn key_value_within(line: &str, max_chars: usize, max_words: usize) -> Option<(&str, &str)> {
    if let Some((word, rest)) = line.split_once(' ')
        && (3..=12).contains(&word.len())
        && word.bytes().all(|b| b.is_ascii_lowercase())
    {
        let hash = rest.split(' ').next().unwrap_or("");
        if (7..=64).contains(&hash.len()) && hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Some((word, hash));
        }
    }
    if let Some(pair) = key_equals_value(line) {
        return Some(pair);
    }
    let colon = line.find(':')?;
    // A key padded with spaces so that the colons line up (`Name        : bash`, as `rpm
    // -qi` writes its fields) is the key without them.
    let key = line[..colon].trim_end();
    let rest = &line[colon + 1..];
    let well_formed = (1..=max_chars).contains(&key.len())
        && key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.' | '/' | '(' | ')'))
        && key.split(' ').count() <= max_words
        && (rest.is_empty() || rest.starts_with([' ', '\t']));
    well_formed.then(|| (key, trim_quotes(rest.trim())))
}

/// A `key=value` line, as `ffprobe -show_frames`, INI sections and `udevadm info` write
/// records: the key one word of letters, digits, `_`, `-` and `.` starting with a letter,
/// the `=` before any `:`, and no second ` word=` pair after it (a `logfmt` line holds
/// several, and is a log line with fields, not a record's line).
fn key_equals_value(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once('=')?;
    let well_formed = (1..=MAX_KEY).contains(&key.len())
        && key.starts_with(|c: char| c.is_ascii_alphabetic())
        && is_word(key)
        && !value.split(' ').skip(1).any(|w| w.split_once('=').is_some_and(|(k, _)| is_word(k)));
    well_formed.then(|| (key, trim_quotes(value.trim())))
}

/// Whether `w` is one word a `key=` pair's key may be: letters, digits, `_`, `-`, `.`.
fn is_word(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// A name written with its address (`Ada Berg <ada@example.org>`, as git and mail headers
/// write people) as the name alone: people are counted by name.
fn without_address(v: &str) -> &str {
    match v.strip_suffix('>').and_then(|s| s.rsplit_once(" <")) {
        Some((name, _)) if !name.trim().is_empty() => name.trim(),
        _ => v,
    }
}

/// A value without the quotes some printers put around it.
fn trim_quotes(v: &str) -> &str {
    for q in ['\'', '"'] {
        if let Some(inner) = v.strip_prefix(q).and_then(|s| s.strip_suffix(q)) {
            return inner;
        }
    }
    v
}

/// The `Key: value` records of a text: the key each starts with, the zero-based line each
/// starts at, and their fields.
pub(crate) struct Blocks<'a> {
    pub(crate) start: &'a str,
    pub(crate) first_lines: Vec<usize>,
    pub(crate) records: Vec<Value>,
}

/// The `Key: value` records among `lines`, or `None` when they are not made of them. Read
/// first from the unindented lines; a text whose records are all indented (`certbot
/// certificates` lists each under a heading) is read again with every line's indentation
/// set aside.
pub(crate) fn blocks<'a>(lines: &[&'a str]) -> Option<Blocks<'a>> {
    blocks_at(lines, false).or_else(|| blocks_at(lines, true))
}

fn blocks_at<'a>(lines: &[&'a str], indented: bool) -> Option<Blocks<'a>> {
    let key_value = |l: &'a str| {
        if indented { key_value_within(l.trim_start(), MAX_NESTED_KEY, MAX_NESTED_KEY_WORDS) } else { key_value(l) }
    };
    // Keys with a value: how often each appears, and where it first does. A key said on
    // two lines in a row (smartctl's `SMART support is: Available`, then `… is: Enabled`)
    // would open records of one line: it is a field said twice, never a record's start.
    let mut keys: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut twice: Vec<&str> = Vec::new();
    let mut previous: Option<&str> = None;
    for (i, l) in lines.iter().enumerate() {
        let kv = key_value(l);
        if let Some((k, v)) = kv
            && !v.is_empty()
        {
            keys.entry(k).or_insert((0, i)).0 += 1;
            if previous == Some(k) && !twice.contains(&k) {
                twice.push(k);
            }
        }
        previous = kv.map(|(k, _)| k);
    }
    for k in &twice {
        keys.remove(k);
    }
    // Most unindented lines are `Key: value` lines (or section names, `Conditions:`): a log
    // whose stack traces begin `TypeError: …` is not made of records.
    let top = lines.iter().filter(|l| !l.trim().is_empty() && (indented || !l.starts_with([' ', '\t']))).count();
    let keyed = lines.iter().filter(|l| key_value(l).is_some()).count();
    if keyed * 2 < top {
        return None;
    }
    // With indentation set aside, nearly every line must be one: a query plan's nodes sit
    // between their `Key: value` details, and a plan is a tree, not records.
    if indented && keyed * 4 < top * 3 {
        return None;
    }
    let most = keys.values().map(|(n, _)| *n).max()?;
    // Of the keys nearly every record holds, the first to appear: a key that also turns up
    // now and then inside a record's free text (`Version:` in a key's armour, below a
    // package's own `Version :`) recurs a little more than the one records open with.
    let (start, _) = keys
        .iter()
        .filter(|(_, (n, _))| *n * NEARLY_EVERY.1 >= most * NEARLY_EVERY.0)
        .min_by_key(|(_, (_, first))| *first)?;
    // Blocks between blank lines that mostly open with one key say where records start,
    // even when another key recurs more (LDIF's `dn:` before several `objectClass:` lines).
    let start = leading_key(lines, &key_value).unwrap_or(*start);
    if most < MIN_RECORDS {
        return None;
    }
    let mut records: Vec<Value> = Vec::new();
    let mut first_lines: Vec<usize> = Vec::new();
    let mut current: Option<Map<String, Value>> = None;
    // Keys said again within one record: a tree's nodes (a query plan's `Buffers:` under
    // each node) rather than records.
    let mut repeated = 0usize;
    for (i, line) in lines.iter().enumerate() {
        let Some((k, v)) = key_value(line) else { continue };
        if k == start && !v.is_empty() {
            records.extend(current.take().map(Value::Object));
            current = Some(Map::new());
            first_lines.push(i);
        }
        if let Some(record) = current.as_mut()
            && !v.is_empty()
        {
            if record.contains_key(k) {
                repeated += 1;
            } else {
                record.insert(k.to_owned(), cell_value(without_address(v)));
            }
        }
    }
    if indented && repeated * 10 > keyed {
        return None;
    }
    records.extend(current.map(Value::Object));
    // Records of one field each are lines that happen to start alike (`WARNING: …`).
    let fields: usize = records.iter().filter_map(Value::as_object).map(Map::len).sum();
    if records.len() < MIN_RECORDS || fields * 2 < records.len() * 5 {
        return None;
    }
    Some(Blocks { start, first_lines, records })
}

/// The key that opens most runs of lines between blank lines (its first `Key: value` line;
/// comments and other lines before it are passed over), when it opens at least half of the
/// runs that hold such a line, and [`MIN_RECORDS`] of them.
fn leading_key<'a>(lines: &[&'a str], key_value: &dyn Fn(&'a str) -> Option<(&'a str, &'a str)>) -> Option<&'a str> {
    let mut opening: HashMap<&str, usize> = HashMap::new();
    let mut runs = 0usize;
    let mut looking = true;
    for line in lines {
        if line.trim().is_empty() {
            looking = true;
        } else if looking && let Some((k, v)) = key_value(line) {
            looking = false;
            if !v.is_empty() {
                runs += 1;
                *opening.entry(k).or_default() += 1;
            }
        }
    }
    let (key, n) = opening.into_iter().max_by_key(|(k, n)| (*n, std::cmp::Reverse(*k)))?;
    (n >= MIN_RECORDS && n * 2 >= runs).then_some(key)
}

/// A map of the `Key: value` records in `text`, at most `room` characters.
pub(crate) fn key_blocks(text: &str, room: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().take(MAX_LINES).collect();
    let Blocks { start, first_lines, records } = blocks(&lines)?;
    let (first, last) = (first_lines.first()? + 1, first_lines.last()? + 1);
    // Said as the text writes it: `key=value` records open at `key=`.
    let equals = lines[first - 1].trim_start().strip_prefix(start).is_some_and(|rest| rest.starts_with('='));
    let (form, opens) = if equals { ("key=value", format!("{start}=")) } else { ("Key: value", format!("{start}:")) };
    let head = format!(
        "{} records of `{form}` lines, each from a \"{opens}\" line (lines {}, {} … {})",
        thousands(records.len() as u64),
        thousands(first as u64),
        first_lines.get(1).map_or_else(String::new, |l| thousands(*l as u64 + 1)),
        thousands(last as u64)
    );
    rows_map(&records, head, room)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_key_value_lines_are_records() {
        let mut log = String::from("Commit history:\n");
        for i in 0..9 {
            log.push_str(&format!(
                "Commit: 'a{i:02}f3c'\nAuthor: {}\nDate: 2025-12-{:02} 10:00:00+00:00\nMessage: 'fix {i}'\n  wrapped: detail\n\n",
                ["Ada", "Lin", "Ada"][i % 3],
                20 + i
            ));
        }
        let map = key_blocks(&log, 2_000).unwrap();
        assert!(
            map.starts_with("9 records of `Key: value` lines, each from a \"Commit:\" line (lines 2, 8 … 50)"),
            "{map}"
        );
        assert!(map.contains("Author: Ada 6, Lin 3"), "{map}");
    }

    #[test]
    fn keys_padded_to_line_up_their_colons_are_read_and_records_open_at_the_first_key() {
        // `rpm -qai`: keys padded before the colon, no blank line between packages, and a
        // description's free text that now and then holds a line like a key (`Version:`
        // in a key's armour), which makes that key recur more than `Name`.
        let mut text = String::new();
        for i in 0..6 {
            text.push_str(&format!(
                "Name        : pkg{i}\nVersion     : 1.{i}\nArchitecture: {}\nSize        : {}\nDescription :\n",
                ["x86_64", "noarch"][usize::from(i % 3 == 0)],
                1000 * (i + 1)
            ));
            if i < 2 {
                text.push_str("-----BEGIN PGP PUBLIC KEY BLOCK-----\nVersion: rpm-4.19\n\nmQINBGA\n");
            } else {
                text.push_str("A package of tools.\n");
            }
        }
        let map = key_blocks(&text, 2_000).unwrap();
        assert!(map.starts_with("6 records of `Key: value` lines, each from a \"Name:\" line (lines 1, "), "{map}");
        assert!(map.contains("Architecture: x86_64 4, noarch 2"), "{map}");
    }

    #[test]
    fn records_start_at_the_key_that_opens_each_block() {
        // LDIF: `objectClass:` recurs more often than `dn:`, but every entry opens with `dn:`.
        let mut ldif = String::from("# extended LDIF\n#\n\n");
        for i in 0..5 {
            ldif.push_str(&format!(
                "# u{i}, People\ndn: uid=u{i},ou=People\nobjectClass: top\nobjectClass: person\nobjectClass: posixAccount\nuid: u{i}\ntitle: {}\n\n",
                ["Engineer", "Clerk"][i % 2]
            ));
        }
        let map = key_blocks(&ldif, 2_000).unwrap();
        assert!(map.starts_with("5 records of `Key: value` lines, each from a \"dn:\" line"), "{map}");
        assert!(map.contains("title: Engineer 3, Clerk 2"), "{map}");
    }

    #[test]
    fn git_logs_are_records_from_their_commit_lines() {
        let mut log = String::new();
        for i in 0..6 {
            log.push_str(&format!("commit {:040x}\n", i * 7919));
            if i % 3 == 0 {
                log.push_str(&format!("Merge: 1a2b3c{i} 5d6e7f{i}\n"));
            }
            log.push_str(&format!(
                "Author: {} <dev{i}@example.org>\nDate:   Wed Dec 31 1{i}:00:00 2025 +0000\n\n    fix {i}\n\n",
                ["Ada Berg", "Lin Wu"][i % 2]
            ));
        }
        let map = key_blocks(&log, 2_000).unwrap();
        assert!(map.starts_with("6 records of `Key: value` lines, each from a \"commit:\" line"), "{map}");
        assert!(map.contains("Author: Ada Berg 3, Lin Wu 3"), "{map}");
        assert!(map.contains("Merge (2 of 6 records: commit "), "the merges are named: {map}");
    }

    #[test]
    fn indented_records_are_read_when_no_record_is_at_the_margin() {
        let mut text = String::from("Found the following certs:\n");
        for i in 0..12 {
            text.push_str(&format!(
                "  Certificate Name: site-{i}.example\n    Key Type: {}\n    Expiry Date: 2026-0{}-01 (VALID: {} days)\n",
                ["RSA", "ECDSA", "RSA"][i % 3],
                1 + i % 9,
                10 + i
            ));
        }
        let map = key_blocks(&text, 2_000).unwrap();
        assert!(map.starts_with("12 records of `Key: value` lines, each from a \"Certificate Name:\" line"), "{map}");
        assert!(map.contains("Key Type: RSA 8, ECDSA 4"), "{map}");
        // A plan's nodes sit between their indented details: a tree, not records.
        let mut plan = String::new();
        for i in 0..12 {
            plan.push_str(&format!(
                "  ->  Seq Scan on part_{i}  (actual time=0.1..{i}.5 rows={i}0)\n        Filter: (x > {i})\n        Buffers: shared hit={i}\n"
            ));
        }
        assert_eq!(key_blocks(&plan, 2_000), None, "{plan}");
    }

    #[test]
    fn lines_that_only_start_alike_are_not_records() {
        let warnings = "WARNING: disk is slow\n".repeat(10);
        assert_eq!(key_blocks(&warnings, 2_000), None);
        // A log whose stack traces start with `Error: …` lines, among many log lines.
        let mut log = String::new();
        for i in 0..12 {
            log.push_str(&format!("2025-12-31T10:00:{i:02}Z INFO request done\n2025-12-31T10:00:{i:02}Z INFO next\n"));
            log.push_str(
                "TypeError: Cannot read properties of undefined\nCaused by: timeout\nCode: E42\n    at f (a.js:1)\n",
            );
            log.push_str(&"2025-12-31T10:00:00Z DEBUG tick\n".repeat(6));
        }
        assert_eq!(key_blocks(&log, 2_000), None);
        assert_eq!(key_blocks("The fix: restart it.\nNote: done.\n", 2_000), None);
    }

    #[test]
    fn a_nested_report_with_long_keys_is_read_as_its_inner_records() {
        // `nodetool tablestats`: a keyspace's own lines, then each table's lines indented
        // below it, some keys six words long.
        let mut t = String::from("Total number of tables: 8\n----------------\n");
        for ks in 0..2 {
            t.push_str(&format!("Keyspace : ks{ks}\n\tRead Count: {}\n", ks * 10));
            for table in 0..4 {
                t.push_str(&format!(
                    "\t\tTable: t{ks}{table}\n\t\tSSTable count: {}\n\t\tBloom filter off heap memory used: {}\n\t\tAverage live cells per slice (last five minutes): 1.5\n\n",
                    ks * 4 + table,
                    100 + table
                ));
            }
        }
        let map = key_blocks(&t, 2_000).unwrap();
        assert!(map.starts_with("8 records of `Key: value` lines, each from a \"Table:\" line"), "{map}");
        assert!(map.contains("SSTable count: max 7 (Table t13)"), "{map}");
    }

    #[test]
    fn blocks_of_key_equals_value_lines_are_records() {
        // `ffprobe -show_frames`: `[FRAME]` sections of `key=value` lines.
        let mut t = String::new();
        for i in 0..8 {
            t.push_str(&format!(
                "[FRAME]\nmedia_type=video\nkey_frame={}\npts={}\npkt_size={}\npict_type={}\n[/FRAME]\n",
                u8::from(i % 4 == 0),
                i * 1001,
                1000 + (i * 7919) % 5000,
                ["I", "B", "B", "P"][i % 4]
            ));
        }
        let map = key_blocks(&t, 2_000).unwrap();
        assert!(
            map.starts_with("8 records of `key=value` lines, each from a \"media_type=\" line (lines 2, 9 … 51)"),
            "{map}"
        );
        assert!(map.contains("pict_type, most first: B 4, I 2, P 2"), "{map}");
        // A `logfmt` log holds several pairs a line: log lines with fields, not records.
        let log: String = (0..20)
            .map(|i| format!("time=2025-12-31T10:00:{i:02}Z level=info msg=\"request done\" status={}\n", 200 + i % 3))
            .collect();
        assert_eq!(key_blocks(&log, 2_000), None, "{log}");
    }

    #[test]
    fn a_key_said_on_two_lines_in_a_row_opens_no_record() {
        // smartctl writes `SMART support is:` twice, one line after the other: the most
        // frequent key, but a record of one line is no record.
        let mut t = String::new();
        for i in 0..5 {
            t.push_str(&format!(
                "Name: disk{i}\nSupport is: Available\nSupport is: Enabled\nSize: {}\nKind: ssd\n",
                i * 2
            ));
        }
        let map = key_blocks(&t, 2_000).unwrap();
        assert!(map.starts_with("5 records of `Key: value` lines, each from a \"Name:\" line"), "{map}");
    }
}
