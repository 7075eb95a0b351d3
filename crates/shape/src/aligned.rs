//! Tables whose columns are aligned with spaces, as command-line tools print them
//! (`kubectl get`, `docker ps`, `kafka-consumer-groups --describe`): the rows are read as
//! records named by the header, and counted like a list of records' fields, so the first
//! read answers "how many pods are Pending" or "which partition lags the most".
//!
//! A header is a line of at least three names separated by two or more spaces, in capitals
//! (`NAME`, `CONTAINER ID`, `CURRENT-OFFSET`) or capitalised (`State`, `Recv-Q`, `Local
//! Address:Port`, `Mounted on`); each column runs from its name's first
//! character to the next name's. A row belongs to the table when a space stands before
//! every column's start. A text may hold several tables, each under its own header (one per
//! consumer group, say): rows under headers with the same names are counted together.
//! Recognised by layout alone, never by the tool that printed it.

use serde_json::{Map, Value};

use crate::compact::{Compactor, Holds};
use crate::facets::Facets;
use crate::line_fields::MAX_LINES;
use crate::numfmt::thousands;

/// Rows a table needs, at least, to be counted.
const MIN_ROWS: usize = 5;
/// Records the compact view learns from.
const SAMPLE: usize = 200;

/// One header: its names and where each column starts (in bytes).
#[derive(Debug)]
struct Header {
    names: Vec<String>,
    starts: Vec<usize>,
}

/// Spaces a header may be indented by (`systemctl list-units` indents by two, leaving
/// room for its `●` marker).
const MAX_INDENT: usize = 4;

/// The words of a line that could be a header (capitals, no lower case outside a
/// parenthesised unit: `CPU(cores)`; words of punctuation alone, such as the `%` and `/` of
/// `MEM USAGE / LIMIT`, between them), with where each starts; `None` when the line is not
/// one.
fn header_words(line: &str) -> Option<Vec<(usize, &str)>> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if !line.is_ascii() || indent > MAX_INDENT {
        return None;
    }
    let mut words = Vec::new();
    let mut named = 0;
    let mut at = 0;
    // Where the last name ended, for a lower-case word that continues it (`Mounted on`).
    let mut name_end: Option<usize> = None;
    for word in line.split(' ') {
        if !word.is_empty() {
            // `CPU(cores)`: the unit in brackets may be written in lower case.
            let name = match word.split_once('(') {
                Some((name, unit)) if unit.ends_with(')') && !name.is_empty() => name,
                _ => word,
            };
            let upper = name.bytes().any(|b| b.is_ascii_uppercase());
            let lower = name.bytes().any(|b| b.is_ascii_lowercase());
            // `State`, `Recv-Q`, `Address:Port` (`ss`, `netstat`, `df`): capitalised names.
            let capitalised = name.as_bytes().first().is_some_and(u8::is_ascii_uppercase);
            let continues = lower && !upper && name_end.is_some_and(|end| end + 1 == at);
            let punctuation = !word.bytes().any(|b| b.is_ascii_alphanumeric());
            if (lower && !capitalised && !continues) || !(upper || punctuation || continues) || word.len() > 40 {
                return None;
            }
            named += usize::from(upper);
            name_end = upper.then_some(at + word.len());
            words.push((at, word));
        }
        at += word.len() + 1;
    }
    (named >= 3).then_some(words)
}

/// A header that starts with the clock time of its report, as `sar`, `pidstat` and `mpstat`
/// print them (`00:10:01        IFACE   rxpck/s …`, `12:00:01 AM     CPU     %usr …`): the
/// time stands over the column of times its rows start with, so it is that column's name.
/// Gives the line with the time written as `TIME`, padded to the time's width so that every
/// column stays where it is; `None` for a line that does not start with a clock time and
/// two spaces.
fn timed_header(line: &str) -> Option<String> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = line.get(indent..)?;
    let clock = rest.get(..8)?.as_bytes();
    let digits = [0, 1, 3, 4, 6, 7].iter().all(|&k| clock[k].is_ascii_digit());
    if !digits || clock[2] != b':' || clock[5] != b':' {
        return None;
    }
    let width = if rest[8..].starts_with(" AM") || rest[8..].starts_with(" PM") { 11 } else { 8 };
    let after = rest.get(width..)?;
    after.starts_with("  ").then(|| format!("{}{:<width$}{after}", &line[..indent], "TIME"))
}

/// A line's characters with the column each starts at: its bytes for ASCII, else one
/// column per character (`●`), so positions match the header's.
fn columns_of(line: &str) -> Vec<(usize, char)> {
    line.chars().enumerate().collect()
}

/// The part of `line` from column `from` to column `end`.
fn cut(line: &str, from: usize, end: usize) -> &str {
    if line.is_ascii() {
        let (from, end) = (from.min(line.len()), end.min(line.len()));
        return &line[from..end.max(from)];
    }
    let offset = |col: usize| line.char_indices().nth(col).map_or(line.len(), |(b, _)| b);
    let (a, b) = (offset(from), offset(end));
    &line[a..b.max(a)]
}

/// The columns of a header, judged by the rows under it: the gutters are the positions
/// where the header and every row have a space, and each stretch between gutters is a
/// column named by the header words in it. So a left-aligned name (`NAME`), a right-aligned
/// number (`  PID`), a name of two words (`CONTAINER ID`) and single-spaced names over
/// columns the rows keep apart (`CONSUMER-ID HOST`) all read right; a stretch with no header
/// word (a last column's text with spaces in it) belongs to the column before it.
fn header(words: &[(usize, &str)], header_line: &str, rows: &[&str]) -> Option<Header> {
    let width = rows.iter().map(|r| r.chars().count()).chain([header_line.len()]).max()?;
    let mut gap = vec![true; width];
    for line in rows.iter().chain([&header_line]) {
        for (p, c) in columns_of(line) {
            if c != ' ' {
                gap[p] = false;
            }
        }
    }
    let (mut names, mut starts): (Vec<String>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut p = 0;
    while p < width {
        if gap[p] {
            p += 1;
            continue;
        }
        let from = p;
        while p < width && !gap[p] {
            p += 1;
        }
        let inside: Vec<&str> = words.iter().filter(|(at, _)| (from..p).contains(at)).map(|(_, w)| *w).collect();
        match (inside.is_empty(), names.is_empty()) {
            // A mark in the margin before the first column (`●` on a failed unit).
            (true, true) if p - from <= 2 => {}
            (true, true) => return None,
            (true, false) => {}
            (false, _) => {
                names.push(inside.join(" "));
                starts.push(from);
            }
        }
    }
    (names.len() >= 3).then_some(Header { names, starts })
}

/// A row under `h` as a record: each column's cell, `-` and empty cells left out. `<none>`
/// is kept: a tool prints it in place of a name (a dangling image's repository, a service
/// without an external address), and how many rows have none is worth a count.
fn row(h: &Header, line: &str) -> Option<Value> {
    let width = if line.is_ascii() { line.len() } else { line.chars().count() };
    if width <= h.starts[1] {
        return None;
    }
    let mut m = Map::new();
    for (k, name) in h.names.iter().enumerate() {
        let end = h.starts.get(k + 1).copied().unwrap_or(width);
        let cell = cut(line, h.starts[k], end).trim();
        if !cell.is_empty() && cell != "-" {
            m.insert(name.clone(), cell_value(cell));
        }
    }
    Some(Value::Object(m))
}

/// A table's rows learned for facets. A table with no field that names a row (`ps aux`:
/// the PID is a number spread wide, like a measure) names them by its first column whose
/// values are all different, so a largest value still says which row holds it; failing
/// that, by its first column whose values nearly all differ (`ss`: the peer's address,
/// shared only by the listening sockets' `0.0.0.0:*`); failing that, by its first column
/// of names (a device named once in every report).
pub(crate) fn learn_rows(rows: &[Value]) -> Compactor {
    let mut c = Compactor::learn(rows);
    // A text's fields are cut at spaces or by position: a column of numbers in some rows and
    // words in others is most often two fields that shifted (tcpdump's `seq` and `ack`), not
    // measures of several kinds.
    c.measures.clear();
    if c.key.is_none() {
        // How many rows hold column `i`, and how many different values they hold.
        let spread = |i: usize| {
            let values: Vec<String> = rows.iter().filter_map(|r| c.value(i, r)).map(|v| v.to_string()).collect();
            let distinct = values.iter().collect::<std::collections::HashSet<&String>>().len();
            (values.len(), distinct)
        };
        let candidates: Vec<(usize, (usize, usize))> = (0..c.columns.len())
            .filter(|&i| c.columns[i].holds != Holds::Times && !c.columns[i].is_text())
            .map(|i| (i, spread(i)))
            // Nine rows in ten hold it: a log's `request_id`, which the lines of another
            // kind among them lack.
            .filter(|(_, (held, _))| held * 10 >= rows.len() * 9)
            // Measures that happen to differ (a proxy's session totals) do not name rows:
            // numbers name rows when their header says so (`PID`, `queryid`) or as ids
            // handed out in sequence do, as in a record's key.
            .filter(|&(i, _)| {
                let values: Vec<Value> =
                    rows.iter().filter_map(|r| c.value(i, r)).filter(|v| v.as_str() != Some("")).collect();
                let held = values.len();
                let numeric: Vec<Value> = values.into_iter().filter(Value::is_number).collect();
                let numbers: Vec<f64> = numeric.iter().filter_map(Value::as_f64).collect();
                numeric.len() * 10 < held * 9
                    || crate::compact::names_an_id(&c.columns[i].name)
                    || crate::compact::numbers_name_records(&numeric, &numbers)
            })
            .collect();
        let unique = candidates.iter().find(|(i, (held, distinct))| c.columns[*i].unique || distinct == held);
        let nearly = || candidates.iter().find(|(_, (held, distinct))| distinct * 10 >= held * 9);
        // Failing both, rows repeated report after report (`iostat -x`: each device once
        // in every report) are named by their first column of names, which says at least
        // which device holds a largest value.
        let named = || {
            candidates.iter().find(|(i, (_, distinct))| {
                *distinct >= 2
                    && rows
                        .iter()
                        .filter_map(|r| c.value(*i, r))
                        .all(|v| v.as_str().is_some_and(|s| s.chars().any(char::is_alphabetic)))
            })
        };
        let by_name = unique.or_else(nearly).is_none();
        c.key = unique.or_else(nearly).or_else(named).map(|(i, _)| *i);
        if by_name && let Some(key) = c.key {
            c.label = report_column(&c, rows, key);
        }
    }
    c
}

/// For rows named by a name that recurs report after report (`sar -n DEV`: each interface
/// once in every report), the first column of words or times that tells the rows apart
/// together with that name (nine rows in ten): the report's time, so that a largest value
/// says which interface held it and when. Numbers are not taken: a measure that happens to
/// differ tells rows apart without saying which they are.
fn report_column(c: &Compactor, rows: &[Value], key: usize) -> Option<usize> {
    (0..c.columns.len()).filter(|&i| i != key).find(|&i| {
        let mut pairs = std::collections::HashSet::new();
        let mut held = 0;
        for r in rows {
            let (Some(name), Some(value)) = (c.value(key, r), c.value(i, r)) else { continue };
            if value.is_number() {
                return false;
            }
            held += 1;
            pairs.insert((name.to_string(), value.to_string()));
        }
        held * 10 >= rows.len() * 9 && pairs.len() * 10 >= held * 9
    })
}

/// A cell as a number when it is one (not a code written with a leading zero, and not
/// an exponent: a hexadecimal id such as `7086201030e0` reads as one).
pub(crate) fn cell_value(v: &str) -> Value {
    let decimal = v.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+'));
    let plain = decimal && (!v.starts_with('0') || v == "0" || v.starts_with("0."));
    match (v.parse::<i64>(), v.parse::<f64>()) {
        (Ok(n), _) if plain => Value::from(n),
        (_, Ok(x)) if plain && x.is_finite() => {
            serde_json::Number::from_f64(x).map_or_else(|| Value::from(v), Value::Number)
        }
        _ => Value::from(v),
    }
}

/// The words of a header in lower case (`iostat -x`'s `Device r/s rkB/s … %util`, `free`'s
/// `total used free`), with where each starts: at least three words, none a number. Only
/// taken when the rows under it are mostly numbers ([`mostly_numbers`]): a line of words
/// over other lines is too common otherwise.
fn loose_header_words(line: &str) -> Option<Vec<(usize, &str)>> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if !line.is_ascii() || indent > MAX_INDENT {
        return None;
    }
    let mut words = Vec::new();
    let mut at = 0;
    for word in line.split(' ') {
        if !word.is_empty() {
            let named = word.bytes().any(|b| b.is_ascii_alphabetic() || b == b'%');
            if !named || word.len() > 24 || cell_value(word).is_number() {
                return None;
            }
            words.push((at, word));
        }
        at += word.len() + 1;
    }
    (words.len() >= 3).then_some(words)
}

/// Whether at least half the cells of `rows` are numbers.
fn mostly_numbers(rows: &[Value]) -> bool {
    let (mut numbers, mut all) = (0usize, 0usize);
    for cell in rows.iter().filter_map(Value::as_object).flat_map(|m| m.values()) {
        all += 1;
        numbers += usize::from(cell.is_number());
    }
    all > 0 && numbers * 2 >= all
}

/// One table: its column names, the line of its first header, its rows, the lines it
/// takes (headers and blocks), and the lines of each header and its block (zero-based,
/// the end excluded).
struct Found {
    names: Vec<String>,
    first_line: usize,
    records: Vec<Value>,
    lines: usize,
    blocks: Vec<(usize, usize)>,
}

/// The aligned table `lines` make, when most of them are one: of tables under headers
/// with the same names (one table), the one with the most rows, the first of equals.
fn main_table(lines: &[&str]) -> Option<Found> {
    let mut tables: Vec<Found> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let timed = timed_header(lines[i]);
        let line = timed.as_deref().unwrap_or(lines[i]);
        let strict = header_words(line).map(|w| (w, false));
        let Some((words, loose)) = strict.or_else(|| loose_header_words(line).map(|w| (w, true))) else {
            i += 1;
            continue;
        };
        // The block under a header: its rows, up to a blank line or the next header (for a
        // header with a time, the same header at a later time).
        let mut end = i + 1;
        while end < lines.len()
            && !lines[end].trim().is_empty()
            && header_words(lines[end]).is_none()
            && (timed.is_none() || timed_header(lines[end]) != timed)
        {
            end += 1;
        }
        let block = &lines[i + 1..end];
        if let Some(h) = header(&words, line, block) {
            let rows: Vec<Value> = block.iter().filter_map(|l| row(&h, l)).collect();
            if !loose || mostly_numbers(&rows) {
                match tables.iter_mut().find(|t| t.names == h.names) {
                    Some(t) => {
                        t.records.extend(rows);
                        t.lines += block.len() + 1;
                        t.blocks.push((i, end));
                    }
                    None => tables.push(Found {
                        names: h.names,
                        first_line: i + 1,
                        records: rows,
                        lines: block.len() + 1,
                        blocks: vec![(i, end)],
                    }),
                }
            }
        }
        i = end;
    }
    let best = (0..tables.len()).max_by_key(|&k| (tables[k].records.len(), std::cmp::Reverse(k)))?;
    let found = tables.swap_remove(best);
    // Most of the text is the table: prose with a capitalised line is not one.
    let non_blank = lines.iter().filter(|l| !l.trim().is_empty()).count();
    let other = non_blank.saturating_sub(found.lines);
    (found.records.len() >= MIN_ROWS && found.records.len() >= other).then_some(found)
}

/// A map of the aligned tables in `text`, at most `room` characters. Tables under headers
/// with the same names are one table; of several, the one with the most rows is counted.
pub(crate) fn aligned_table(text: &str, room: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().take(MAX_LINES).collect();
    let Found { names, first_line, records, .. } = main_table(&lines)?;
    let total = text.lines().count();
    let read = if lines.len() < total {
        format!(" (in the first {} lines)", thousands(lines.len() as u64))
    } else {
        String::new()
    };
    let head = format!(
        "table of {} rows × {} columns{read}, header on line {first_line}: {}",
        thousands(records.len() as u64),
        names.len(),
        names.join(", ")
    );
    rows_map(&records, head, room)
}

/// The lines that `matches` keeps, each row under the header of its table (once per
/// header), when the text is an aligned table: a row alone does not say what its numbers
/// are. `bare` are the text's lines without their ends, `lines` the same lines as they are
/// given back. `None` when the text is not a table.
pub(crate) fn rows_under_headers<'a>(
    bare: &[&str],
    lines: &[&'a str],
    matches: &dyn Fn(&str) -> bool,
) -> Option<Vec<&'a str>> {
    let blocks = main_table(bare)?.blocks;
    let mut kept = Vec::new();
    let mut shown: Option<usize> = None;
    for (i, line) in lines.iter().enumerate() {
        if !bare.get(i).is_some_and(|l| matches(l)) {
            continue;
        }
        // Only a row of the table's blocks gets a header: a line before or after it is not
        // one of its rows.
        let above = blocks.iter().find(|(h, end)| (*h..*end).contains(&i)).map(|(h, _)| *h);
        if let Some(h) = above
            && shown != Some(h)
        {
            shown = Some(h);
            if h != i {
                kept.push(lines[h]);
            }
        }
        kept.push(*line);
    }
    Some(kept)
}

/// The map of a text's rows read as records: `head`, then the facets of every row within
/// `room`; `None` when the rows hold nothing to count.
pub(crate) fn rows_map(rows: &[Value], head: String, room: usize) -> Option<String> {
    let compactor = learn_rows(&rows[..rows.len().min(SAMPLE)]);
    if !compactor.is_active() {
        return None;
    }
    let mut facets = Facets::new(&compactor);
    rows.iter().for_each(|r| facets.add(r));
    let left = room.saturating_sub(head.len() + 2);
    let map = match facets.phrase(left) {
        Some(f) if left > 40 => format!("{head}; {f}"),
        _ => head,
    };
    (map.len() <= room).then_some(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pods() -> String {
        let mut t = String::from("NAME                     READY   STATUS             RESTARTS   AGE\n");
        for i in 0..20 {
            let status = match i % 5 {
                0 => "CrashLoopBackOff",
                1 => "Pending",
                _ => "Running",
            };
            t.push_str(&format!("api-{i:02}-7d9f              1/1     {status:<18} {:<10} {}d\n", i * 3, 1 + i % 4));
        }
        t
    }

    #[test]
    fn rows_under_an_aligned_header_are_counted() {
        let map = aligned_table(&pods(), 2_000).unwrap();
        assert!(map.starts_with("table of 20 rows × 5 columns, header on line 1: NAME, READY, STATUS"), "{map}");
        assert!(map.contains("STATUS, most first: Running 12, CrashLoopBackOff 4, Pending 4"), "{map}");
        assert!(map.contains("RESTARTS: max 57 (NAME api-19-7d9f)"), "{map}");
    }

    #[test]
    fn a_matching_row_comes_under_its_header() {
        let text = pods();
        let bare: Vec<&str> = text.lines().collect();
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let kept = rows_under_headers(&bare, &lines, &|l: &str| l.contains("api-07") || l.contains("api-12")).unwrap();
        assert_eq!(kept.len(), 3, "{kept:?}");
        assert!(kept[0].starts_with("NAME ") && kept[1].starts_with("api-07") && kept[2].starts_with("api-12"));
        // A line after the table is not one of its rows: no header comes with it.
        let mut text = pods();
        text.push_str("\nREADY totals: api-07 restarted\n");
        let bare: Vec<&str> = text.lines().collect();
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let kept = rows_under_headers(&bare, &lines, &|l: &str| l.contains("totals")).unwrap();
        assert_eq!(kept, ["READY totals: api-07 restarted\n"]);
        // Prose is not a table, and gets nothing added.
        let prose = ["Some Words Here", "a line of text", "another line"];
        assert!(rows_under_headers(&prose, &prose, &|_: &str| true).is_none());
    }

    /// Regression: a packet capture split at spaces put a SYN's sequence number and an ACK's
    /// `win` word in one column; the numbers were then ranged within each flag, as if they
    /// were measures of kinds, and took the room of the text's lines.
    #[test]
    fn a_text_column_of_numbers_among_words_is_not_a_measure() {
        let rows: Vec<Value> = (0..60)
            .map(|i| {
                let (flags, cell) = match i % 3 {
                    0 => ("[S]", Value::from(1_000_000_000 + i * 7_919)),
                    1 => ("[P.]", Value::from(400 + i)),
                    _ => ("[.]", Value::from("win")),
                };
                serde_json::json!({"column 1": format!("10:00:{i:02}"), "column 2": flags, "column 3": cell})
            })
            .collect();
        assert!(!Compactor::learn(&rows).measures.is_empty(), "records of JSON would be read as measures");
        assert!(learn_rows(&rows).measures.is_empty());
    }

    #[test]
    fn a_measure_that_happens_to_differ_does_not_name_rows_and_a_pid_does() {
        // A proxy's statistics: no column of names is unique, and the session totals differ
        // in every row; they are a measure, so the first column of names names the rows.
        let rows: Vec<Value> = (0..30_u64)
            .map(|i| {
                serde_json::json!({
                    "pxname": format!("be_{}", ["shop", "search", "admin"][(i % 3) as usize]),
                    "svname": if i % 3 == 0 { "BACKEND".to_owned() } else { format!("srv-{i:02}") },
                    "stot": 100 + i * i * 997,
                    "scur": i % 7,
                })
            })
            .collect();
        let c = learn_rows(&rows);
        let key = c.key.map(|k| c.columns[k].name.clone());
        assert_eq!(key.as_deref(), Some("pxname"));
        // Process ids spread as widely, but their header says they name the rows.
        let rows: Vec<Value> = (0..30_u64)
            .map(|i| serde_json::json!({"USER": (["root", "www"][(i % 2) as usize]), "PID": 1 + i * i * 37, "CPU": i % 5}))
            .collect();
        let c = learn_rows(&rows);
        assert_eq!(c.key.map(|k| c.columns[k].name.clone()).as_deref(), Some("PID"));
    }

    #[test]
    fn a_hexadecimal_id_with_an_e_stays_text() {
        assert_eq!(cell_value("7086201030e0"), Value::from("7086201030e0"));
        assert_eq!(cell_value("1e5"), Value::from("1e5"));
        assert_eq!(cell_value("inf"), Value::from("inf"));
        assert_eq!(cell_value("-12.5"), Value::from(-12.5));
        assert_eq!(cell_value("42"), Value::from(42));
        assert_eq!(cell_value("007"), Value::from("007"));
    }

    #[test]
    fn none_in_place_of_a_name_is_counted() {
        let mut images = String::from("REPOSITORY         TAG        IMAGE ID       SIZE\n");
        for i in 0..12 {
            let (repo, tag) = if i % 3 == 0 { ("<none>", "<none>") } else { ("ghcr.io/acme/api", "sha-1f2e") };
            images.push_str(&format!("{repo:<18} {tag:<10} 4946f30e09e{i:x}   {}MB\n", 100 + i));
        }
        let map = aligned_table(&images, 2_000).unwrap();
        assert!(map.contains("REPOSITORY: ghcr.io/acme/api 8, <none> 4"), "{map}");
    }

    #[test]
    fn tables_repeated_under_their_own_headers_are_one_table() {
        let mut text = String::new();
        for (group, width) in [("billing", 10), ("search-indexer", 16)] {
            text.push_str(&format!("\n{:<width$}  TOPIC   PARTITION  LAG\n", "GROUP"));
            for p in 0..4 {
                text.push_str(&format!("{group:<width$}  orders  {p:<9}  {}\n", p * 10));
            }
        }
        text.push_str("\nConsumer group 'audit' has no active members.\n");
        let map = aligned_table(&text, 2_000).unwrap();
        assert!(map.starts_with("table of 8 rows × 4 columns, header on line 2"), "{map}");
        assert!(map.contains("GROUP: billing 4, search-indexer 4"), "{map}");
    }

    #[test]
    fn reports_whose_headers_start_with_their_time_are_one_table() {
        // `sar -n DEV`: every report's header starts with the time it was taken, and so does
        // every row; the time heads a column, and the reports are one table.
        let mut text = String::from("Linux 6.8.0 (web-1) \t12/31/25 \t_x86_64_\t(8 CPU)\n");
        for (k, clock) in ["00:10:01", "00:20:01", "00:30:01"].iter().enumerate() {
            text.push_str(&format!("\n{clock}        IFACE   rxpck/s   %ifutil\n"));
            for (iface, load) in [("lo", 1.0), ("eno1", 40.0 + k as f64), ("eno2", 2.5)] {
                text.push_str(&format!("{clock}  {iface:>11}  {load:>8.2}  {:>8.2}\n", load / 10.0));
            }
        }
        text.push_str("\nAverage:        IFACE   rxpck/s   %ifutil\nAverage:           lo      1.00      0.10\n");
        let map = aligned_table(&text, 2_000).unwrap();
        assert!(
            map.starts_with("table of 9 rows × 4 columns, header on line 3: TIME, IFACE, rxpck/s, %ifutil"),
            "{map}"
        );
        assert!(map.contains("IFACE, most first: eno1 3, eno2 3, lo 3"), "{map}");
        // Each interface recurs in every report: the report's time says which row holds a
        // largest value.
        assert!(map.contains("rxpck/s: max 42.0 (IFACE eno1, TIME 00:30:01)"), "{map}");
        // The twelve-hour clock of `sar -u` in some locales: `12:00:01 AM`.
        let am: String = std::iter::once("12:00:01 AM     CPU     %user     %idle\n".to_owned())
            .chain((0..6).map(|m| format!("12:{m:02}:01 AM     all      {}.00     90.00\n", m + 1)))
            .collect();
        let map = aligned_table(&am, 2_000).unwrap();
        assert!(map.starts_with("table of 6 rows × 4 columns, header on line 1: TIME, CPU, %user, %idle"), "{map}");
        // Reports with no blank line between them: the next report's header ends the block.
        let packed = text.replace("\n\n00:", "\n00:");
        assert!(aligned_table(&packed, 2_000).unwrap().starts_with("table of 9 rows × 4 columns"));
        // A row is not a header, and log lines that start with a time are no table.
        assert_eq!(timed_header("00:10:01  eno1  40.00").map(|l| header_words(&l).is_some()), Some(false));
        let log: String = (0..20).map(|s| format!("00:10:{s:02}  INFO  worker started  pid={s}\n")).collect();
        assert_eq!(aligned_table(&log, 2_000), None);
    }

    #[test]
    fn a_name_of_two_words_is_one_column_and_single_spaced_names_split_where_rows_do() {
        let mut docker = String::from("CONTAINER ID   IMAGE          STATUS\n");
        for i in 0..6 {
            docker.push_str(&format!("a1b2c3d4e5f{i}   redis:7        {}\n", ["Up 2 hours", "Exited (1)"][i % 2]));
        }
        let map = aligned_table(&docker, 2_000).unwrap();
        assert!(map.contains("header on line 1: CONTAINER ID, IMAGE, STATUS"), "{map}");
        assert!(map.contains("STATUS: Exited (1) 3, Up 2 hours 3"), "{map}");
        let mut idle = String::from("GROUP  LAG  CONSUMER-ID HOST CLIENT-ID\n");
        for i in 0..6 {
            idle.push_str(&format!("audit  {i:<3}  -           -    -\n"));
        }
        let map = aligned_table(&idle, 2_000).unwrap();
        assert!(map.contains("GROUP, LAG, CONSUMER-ID, HOST, CLIENT-ID"), "{map}");
    }

    #[test]
    fn right_aligned_numbers_and_a_last_column_with_spaces_are_read() {
        let mut ps = String::from("USER         PID %CPU %MEM     RSS COMMAND\n");
        for i in 0..8 {
            let user = ["root", "app", "app", "postgres"][i % 4];
            let command =
                if i % 2 == 0 { "/usr/bin/worker --queue default".to_owned() } else { format!("[kworker/{i}]") };
            ps.push_str(&format!(
                "{user:<9} {:>6} {:>4.1} {:>4.1} {:>7} {command}\n",
                100 + i * 37,
                i as f64 * 1.5,
                0.5,
                1000 * (i + 1)
            ));
        }
        let map = aligned_table(&ps, 2_000).unwrap();
        assert!(map.contains("header on line 1: USER, PID, %CPU, %MEM, RSS, COMMAND"), "{map}");
        assert!(map.contains("USER, most first: app 4, postgres 2, root 2"), "{map}");
        assert!(map.contains("RSS: max 8000 (PID 359)"), "{map}");
        assert!(map.contains("COMMAND, most first: /usr/bin/worker --queue default 4"), "{map}");
    }

    #[test]
    fn units_in_brackets_and_sizes_are_read() {
        let mut top = String::from("NAMESPACE   NAME        CPU(cores)   MEMORY(bytes)\n");
        for i in 0..12 {
            let memory = if i == 7 { "2Gi".to_owned() } else { format!("{}Mi", 100 + i * 50) };
            top.push_str(&format!("shop        api-{i:02}      {:<10}   {memory}\n", format!("{}m", 5 + i)));
        }
        let map = aligned_table(&top, 2_000).unwrap();
        assert!(map.contains("header on line 1: NAMESPACE, NAME, CPU(cores), MEMORY(bytes)"), "{map}");
        // 2Gi is more than 650Mi: sizes compare by what they stand for, not as text.
        assert!(map.contains("MEMORY(bytes): max 2Gi (NAME api-07)"), "{map}");
        assert!(map.contains("CPU(cores): max 16m (NAME api-11)"), "{map}");
    }

    #[test]
    fn an_indented_header_with_marks_in_the_margin_is_read() {
        let mut units = String::from("  UNIT                 LOAD      ACTIVE   SUB       DESCRIPTION\n");
        for i in 0..10 {
            let (mark, active, sub) = if i % 4 == 3 { ("●", "failed", "failed") } else { (" ", "active", "running") };
            units.push_str(&format!("{mark} app-{i:02}.service       loaded    {active:<8} {sub:<9} App number {i}\n"));
        }
        units.push_str("\nLegend: LOAD   → Reflects whether the unit definition was properly loaded.\n");
        let map = aligned_table(&units, 2_000).unwrap();
        assert!(map.starts_with("table of 10 rows × 5 columns"), "{map}");
        assert!(map.contains("ACTIVE: active 8, failed 2"), "{map}");
    }

    proptest::proptest! {
        /// Rows of any characters (wide, combining, marks) under a header: no panic, and a
        /// map within its room.
        #[test]
        fn any_rows_under_a_header_give_a_map_within_its_room(
            rows in proptest::collection::vec("[a-z0-9 ●é中\u{301}-]{0,40}", 0..30),
            indent in 0usize..6,
            room in 0usize..600,
        ) {
            let mut text = format!("{}NAME      STATUS(now)   MEM %   AGE\n", " ".repeat(indent));
            for r in &rows {
                text.push_str(r);
                text.push('\n');
            }
            if let Some(m) = aligned_table(&text, room) {
                proptest::prop_assert!(m.len() <= room, "{} bytes in {room}: {m}", m.len());
            }
        }

        /// Reports under headers that start with their time, with or without blank lines
        /// between them and in either clock: one table of every row, each name counted
        /// once per report.
        #[test]
        fn timed_reports_are_one_table_of_all_their_rows(
            reports in 1usize..8,
            names in proptest::collection::btree_set("[a-z]{2,6}[0-9]?", 2..6),
            blank in proptest::bool::ANY,
            twelve_hour in proptest::bool::ANY,
        ) {
            let mut text = String::new();
            for k in 0..reports {
                let clock = format!("{:02}:{:02}:01{}", k / 6, k % 6 * 10, if twelve_hour { " AM" } else { "" });
                if blank {
                    text.push('\n');
                }
                text.push_str(&format!("{clock}        IFACE   rxpck/s   %ifutil\n"));
                for (n, name) in names.iter().enumerate() {
                    text.push_str(&format!("{clock}  {name:>11}  {:>8.2}  {:>8.2}\n", (n * 7 + k) as f64, n as f64));
                }
            }
            let rows = reports * names.len();
            if rows >= MIN_ROWS {
                let map = aligned_table(&text, 4_000).unwrap_or_default();
                let head = format!("table of {rows} rows × 4 columns, header on line {}: TIME, IFACE", 1 + usize::from(blank));
                proptest::prop_assert!(map.starts_with(&head), "{map}");
                if reports > 1 {
                    let first = names.iter().next().map(String::as_str).unwrap_or_default();
                    proptest::prop_assert!(map.contains(&format!(" {first} {reports}")), "{map}");
                }
            }
        }
    }

    #[test]
    fn reports_under_a_lower_case_header_are_one_table_named_by_their_device() {
        // `iostat -x`: a CPU line and a device table per report; the header is in lower case.
        let devices = ["nvme0n1", "sda", "sdb"];
        let mut text = String::new();
        let mut busiest = (0.0f64, "");
        for report in 0..6 {
            text.push_str(&format!(
                "12/31/2025 10:5{report}:00 PM\navg-cpu:  %user   %nice %system\n          10.54    0.03    3.92\n\n"
            ));
            text.push_str("Device               r/s     w/s   %util\n");
            for (d, name) in devices.iter().enumerate() {
                // Values repeat, as they do over many reports: no column tells the rows apart.
                let util = ((report * 7 + d * 13) % 5) as f64 * 10.0 + 0.5;
                if util > busiest.0 {
                    busiest = (util, name);
                }
                text.push_str(&format!(
                    "{name:<16} {:>7.2} {:>7.2} {util:>7.2}\n",
                    1.5 + ((report + d) % 4) as f64,
                    3.25
                ));
            }
            text.push('\n');
        }
        let map = aligned_table(&text, 2_000).unwrap();
        assert!(map.starts_with("table of 18 rows × 4 columns, header on line 5: Device, r/s, w/s, %util"), "{map}");
        assert!(map.contains(&format!("%util: max {} (Device {})", busiest.0, busiest.1)), "{map}");
        assert!(
            map.contains("Device, most first: nvme0n1 6, sda 6, sdb 6"),
            "a name that repeats is counted too: {map}"
        );
        // Words over lines of words are no table.
        let mut prose = String::from("the quick brown fox\n");
        prose.push_str(&"jumps over the lazy dog again\n".repeat(8));
        assert_eq!(aligned_table(&prose, 2_000), None);
    }

    #[test]
    fn prose_and_cells_out_of_line_are_not_a_table() {
        assert_eq!(aligned_table(&"Some prose here.\n".repeat(30), 2_000), None);
        let mut shifted = String::from("NAME   STATUS   AGE\n");
        for i in 0..10 {
            shifted.push_str(&format!("a-very-long-name-{i} Running 3d\n"));
        }
        assert_eq!(aligned_table(&shifted, 2_000), None);
        assert!(header_words("Name:               gke-node").is_none());
        // Capitalised words of a log line over the lines of a log: not a header.
        let mut log = String::new();
        for i in 0..30 {
            log.push_str(
                ["Reached Target Multi-User System.\n", "Started Daily Cleanup  Of Temporary Directories.\n"][i % 2],
            );
            log.push_str(&format!(
                "Dec 31 10:{i:02}:00 web-1 sshd[911]: Accepted publickey for deploy from 10.0.0.{i}\n"
            ));
        }
        assert_eq!(aligned_table(&log, 2_000), None);
    }

    #[test]
    fn rows_are_named_by_a_column_whose_values_nearly_all_differ() {
        let mut ss = String::from("State      Recv-Q Send-Q  Peer Address:Port\n");
        for i in 0..40 {
            let (state, peer) =
                if i < 3 { ("LISTEN", "0.0.0.0:*".to_owned()) } else { ("ESTAB", format!("74.40.89.{i}:48818")) };
            ss.push_str(&format!("{state:<10} 0      {:<7} {peer}\n", i % 8 * 10));
        }
        let map = aligned_table(&ss, 2_000).unwrap();
        assert!(map.contains("Send-Q: max 70 (Peer Address:Port 74.40.89.7:48818)"), "{map}");
    }

    #[test]
    fn capitalised_headers_with_names_of_two_words_are_read() {
        let mut ss = String::from("State      Recv-Q Send-Q      Local Address:Port  Peer Address:Port   Process\n");
        for i in 0..12 {
            let state = ["ESTAB", "ESTAB", "TIME-WAIT"][i % 3];
            ss.push_str(&format!(
                "{state:<10} 0      {:<5}       10.20.0.116:{:<5}  74.40.89.{i:<3}:48818  users:((\"haproxy\",pid=1187))\n",
                i * 10,
                [443, 80][i % 2]
            ));
        }
        let map = aligned_table(&ss, 2_000).unwrap();
        assert!(map.contains("State, Recv-Q, Send-Q, Local Address:Port, Peer Address:Port, Process"), "{map}");
        assert!(map.contains("State: ESTAB 8, TIME-WAIT 4"), "{map}");
        let df = "Filesystem      Size  Used Avail Use% Mounted on";
        let words: Vec<&str> = header_words(df).unwrap().into_iter().map(|(_, w)| w).collect();
        assert_eq!(words, ["Filesystem", "Size", "Used", "Avail", "Use%", "Mounted", "on"]);
    }
}
