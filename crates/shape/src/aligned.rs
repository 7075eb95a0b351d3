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
use crate::totals_row;

/// Rows a table needs, at least, to be counted.
const MIN_ROWS: usize = 5;
/// Records the compact view learns from.
const SAMPLE: usize = 200;

/// One header: its names and where each column starts (in bytes).
#[derive(Debug)]
struct Header {
    names: Vec<String>,
    starts: Vec<usize>,
    /// Cells are read as the row's words, not at the columns' positions: see
    /// [`by_words`].
    by_words: bool,
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
    // A gutter is blank in the header and in all but one row in twenty: `top` lets a
    // long CPU time push one character past its column, and those few rows are cut at
    // their own space ([`row`]).
    let mut filled = vec![0usize; width];
    for line in rows {
        for (p, c) in columns_of(line) {
            if c != ' ' {
                filled[p] += 1;
            }
        }
    }
    let mut gap: Vec<bool> = filled.iter().map(|&n| n * 20 <= rows.len()).collect();
    for (p, c) in columns_of(header_line) {
        if c != ' ' {
            gap[p] = false;
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
    if names.len() >= 3
        && names.len() < words.len()
        && let Some(h) = by_words(words, rows)
    {
        return Some(h);
    }
    (names.len() >= 3).then_some(Header { names, starts, by_words: false })
}

/// A header whose every word names a column, read by the rows' words. Taken when the
/// gutters found a table but merged some of its columns (`vmstat` right-aligns numbers
/// wider than their column into the next one) and nine rows in ten have one word per
/// header word, or up to two more that the last column takes (`vmstat -t`'s date and
/// time). A header with a name of two words (`IMAGE ID`, `Mounted on`: one space between
/// them) is never read so.
fn by_words(words: &[(usize, &str)], rows: &[&str]) -> Option<Header> {
    let n = words.len();
    if words.windows(2).any(|w| w[1].0 < w[0].0 + w[0].1.len() + 2) {
        return None;
    }
    let fits = rows.iter().filter(|r| (n..=n + 2).contains(&r.split_whitespace().count())).count();
    (n >= 3 && rows.len() >= MIN_ROWS && fits * 10 >= rows.len() * 9).then(|| Header {
        names: words.iter().map(|(_, w)| (*w).to_owned()).collect(),
        starts: words.iter().map(|(at, _)| *at).collect(),
        by_words: true,
    })
}

/// A row under a header read [`by_words`]: a cell per word, the last column taking the
/// words past it; `None` for a row with fewer words than the header has names.
fn row_by_words(h: &Header, line: &str) -> Option<Value> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < h.names.len() {
        return None;
    }
    let last = h.names.len() - 1;
    let mut m = Map::new();
    for (k, name) in h.names.iter().enumerate() {
        let cell = if k == last { words[last..].join(" ") } else { words[k].to_owned() };
        if cell != "-" {
            m.insert(name.clone(), cell_value(&cell));
        }
    }
    Some(Value::Object(m))
}

/// A row under `h` as a record: each column's cell, `-` and empty cells left out. `<none>`
/// is kept: a tool prints it in place of a name (a dangling image's repository, a service
/// without an external address), and how many rows have none is worth a count.
fn row(h: &Header, line: &str) -> Option<Value> {
    if h.by_words {
        return row_by_words(h, line);
    }
    let width = if line.is_ascii() { line.len() } else { line.chars().count() };
    if width <= h.starts[1] || crate::bordered::is_rule(line) {
        return None;
    }
    // Where this row's cells start: a value that runs over a gutter the row does not keep
    // (a left-aligned name past its column's end, a right-aligned number past its start)
    // is split at the space nearest to the gutter, which is the value's own edge.
    let filled = |p: usize| cut(line, p, p + 1).chars().next().is_some_and(|c| c != ' ');
    let mut starts = h.starts.clone();
    for k in 1..starts.len() {
        let s = starts[k].max(starts[k - 1]);
        if s > 0 && filled(s - 1) && filled(s) {
            let mut after = s;
            while after < width && filled(after) {
                after += 1;
            }
            let mut before = s;
            while before > starts[k - 1] && filled(before - 1) {
                before -= 1;
            }
            let backward = before > starts[k - 1] && s - before < after - s;
            starts[k] = if backward { before } else { after };
        } else {
            starts[k] = s;
        }
    }
    let mut m = Map::new();
    for (k, name) in h.names.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(width);
        let cell = cut(line, starts[k], end).trim();
        if !cell.is_empty() && cell != "-" {
            m.insert(name.clone(), cell_value(cell));
        }
    }
    Some(Value::Object(m))
}

/// The field an XML element's record holds its tag in ([`crate::line_fields`]).
pub(crate) const ELEMENT: &str = "element";

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
    // Samples taken one after another (`vmstat -t`, `iostat -t`) are named by their time
    // when every row has its own: a measure that only happens to differ from row to row
    // (the buffer cache's size) says nothing about which sample holds a peak.
    // Only a column of times is read, once.
    let sampled_at = (0..c.columns.len()).filter(|&i| c.columns[i].holds == Holds::Times).find(|&i| {
        let times: Vec<String> = rows.iter().filter_map(|r| c.value(i, r)).map(|v| v.to_string()).collect();
        times.len() == rows.len() && times.iter().collect::<std::collections::HashSet<_>>().len() == rows.len()
    });
    let measured = |i: usize| {
        !crate::compact::names_an_id(&c.columns[i].name)
            && rows.iter().filter_map(|r| c.value(i, r)).all(|v| v.is_number())
    };
    if let Some(t) = sampled_at
        && c.key.is_none_or(measured)
    {
        c.key = Some(t);
        c.label = None;
        return c;
    }
    if c.key.is_none() {
        // How many rows hold column `i`, and how many different values they hold.
        let spread = |i: usize| {
            let values: Vec<String> = rows.iter().filter_map(|r| c.value(i, r)).map(|v| v.to_string()).collect();
            let distinct = values.iter().collect::<std::collections::HashSet<&String>>().len();
            (values.len(), distinct)
        };
        let candidates: Vec<(usize, (usize, usize))> = (0..c.columns.len())
            // The kind of an XML element's record (`element`, read from its tag) names no
            // record: thousands are `testcase`.
            .filter(|&i| c.columns[i].holds != Holds::Times && !c.columns[i].is_text() && c.columns[i].name != ELEMENT)
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
/// an exponent: a hexadecimal id such as `7086201030e0` reads as one). A number with a note
/// in brackets after it is that number: `kubectl` writes a pod's restarts as
/// `327 (4m37s ago)`, and "which pod restarted most" compares the 327s. SQL clients
/// write a missing value as `NULL` (MySQL, SQLite's `.nullvalue`) or `\N` (`COPY`, dumps):
/// it is no value, so facets count the records that have one and never rank `NULL` as
/// the most common.
pub(crate) fn cell_value(v: &str) -> Value {
    if matches!(v, "NULL" | "\\N") {
        return Value::Null;
    }
    if let Some((number, note)) = v.split_once(" (")
        && note.ends_with(')')
        && !note[..note.len() - 1].contains(['(', ')'])
        && let n @ Value::Number(_) = plain_number(number)
    {
        return n;
    }
    plain_number(v)
}

/// `v` as a number when it is written as one alone, else as a string.
fn plain_number(v: &str) -> Value {
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

/// A header written as a comment, as `perf report` writes `# Overhead  Command  Shared
/// Object  Symbol` above its rows: the line with its `#` written as a space, so that every
/// column stays where it is. `None` for a line that does not start with `# `.
fn commented_header(line: &str) -> Option<String> {
    line.strip_prefix("# ").map(|rest| format!("  {rest}"))
}

/// The aligned table `lines` make, when most of them are one: of tables under headers
/// with the same names (one table), the one with the most rows, the first of equals.
fn main_table(lines: &[&str]) -> Option<Found> {
    let mut tables: Vec<Found> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let timed = timed_header(lines[i]);
        let uncommented = commented_header(lines[i]);
        let line = timed.as_deref().or(uncommented.as_deref()).unwrap_or(lines[i]);
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
        // A line of group names over the header (`vmstat`'s `--procs-- ---memory---`) reads
        // as a header of its own but makes no table: the next line is tried as the header.
        let mut taken = false;
        if let Some(h) = header(&words, line, block) {
            // Under a commented header, the other comment lines (`perf`'s `# ……  ……` rule)
            // are comments too, not rows.
            let rows: Vec<Value> = block
                .iter()
                .filter(|l| uncommented.is_none() || !l.starts_with('#'))
                .filter_map(|l| row(&h, l))
                .collect();
            if !loose || mostly_numbers(&rows) {
                taken = true;
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
        let over_header =
            lines.get(i + 1).is_some_and(|next| header_words(next).is_some() || loose_header_words(next).is_some());
        i = if taken || !over_header { end } else { i + 1 };
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
    table_map(text, room, |_| true)
}

/// [`aligned_table`], for a text whose table's header is written as a comment (`# Overhead
/// Command …`): read before Markdown headings, which its other comment lines would be
/// taken for.
pub(crate) fn commented_table(text: &str, room: usize) -> Option<String> {
    let commented =
        text.lines().take(MAX_LINES).any(|l| commented_header(l).is_some_and(|h| header_words(&h).is_some()));
    if !commented {
        return None;
    }
    table_map(text, room, |header| header.starts_with("# "))
}

/// The map of the main table of `text`, when its header line passes `wanted`.
fn table_map(text: &str, room: usize, wanted: impl Fn(&str) -> bool) -> Option<String> {
    let lines: Vec<&str> = text.lines().take(MAX_LINES).collect();
    let Found { names, first_line, records, .. } = main_table(&lines)?;
    if !wanted(lines.get(first_line - 1)?) {
        return None;
    }
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
///
/// A last row that totals the others ([`totals_row`]) is said with the head, whole, with
/// how many rows it totals (the head counted it among the rows), and left out of the
/// facets: it would hold every column's largest value.
pub(crate) fn rows_map(rows: &[Value], head: String, room: usize) -> Option<String> {
    let (rows, head) = match rows.split_last() {
        Some((Value::Object(last), above)) if totals_row::last_is_total(rows) => {
            let phrase = totals_row::cells_phrase(last);
            (above, format!("{head}; the last row totals the {} above it: {phrase}", thousands(above.len() as u64)))
        }
        _ => (rows, head),
    };
    let sample = &rows[..rows.len().min(SAMPLE)];
    let mut compactor = learn_rows(sample);
    if !compactor.is_active() {
        return None;
    }
    // A column the first rows share may differ further down, and one they leave empty may
    // fill: counted then, not skipped.
    compactor.learn_beyond(sample, &rows[sample.len()..]);
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
#[path = "aligned_tests.rs"]
mod tests;
