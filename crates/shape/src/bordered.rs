//! Tables drawn with borders, as database clients and scanners print them: the `mysql`
//! client's `+----+` and `|` cells, `psql`'s `|` columns over a `----+----` rule, a
//! Markdown table's `| a | b |` over `|---|---|`, and box-drawn tables (`┌───┬───┐`, `│`)
//! from `trivy`, DuckDB or `rich`. The rows are read as records named by the header and
//! counted like any list of records, so the first read answers "how many queries are in
//! state Sleep" or "how many vulnerabilities are CRITICAL".
//!
//! A table is a row of cells directly over a rule (a line of dashes, with `+`, `|`, `:`
//! or box-drawing corners), then rows with as many cells, rules between them allowed. A row
//! most of whose cells are blank continues the cells of the row above (a long title on a
//! second line); a row whose first cells are blank belongs to the group the row above
//! names (a package's further vulnerabilities), so those cells are taken from it. Tables
//! under the same header are one table; the map lists every table with its line, and
//! counts the rows of the largest. Recognised by layout alone, never by the tool that
//! printed it.

use serde_json::{Map, Value};

use crate::aligned::{cell_value, rows_map};
use crate::line_fields::MAX_LINES;
use crate::numfmt::thousands;

/// Rows a table needs, at least, to be counted.
const MIN_ROWS: usize = 5;
/// Tables listed by their line at most.
const MAX_LISTED: usize = 6;
/// The longest title said for a table (the line above it).
const TITLE_CHARS: usize = 60;

/// Whether `c` separates cells.
fn is_separator(c: char) -> bool {
    matches!(c, '|' | '│' | '┃' | '║')
}

/// Whether `line` only draws a table's rules (`------+-----`, `+----+`, `|---|:--:|`,
/// `├────┼────┤`, `sacct`'s `------- ----` under an aligned header, `===  ===`): three
/// characters at least, a dash or an equals sign among them, the rest corners, joints, `:`
/// and blanks. CSV reading and aligned tables skip such lines too ([`crate::outline`],
/// [`crate::aligned`]).
pub(crate) fn is_rule(line: &str) -> bool {
    let t = line.trim();
    t.chars().nth(2).is_some()
        && t.contains(['-', '=', '─', '━', '═'])
        && t.chars().all(|c| {
            matches!(c, '+' | '-' | '=' | ':' | ' ' | '\t') || is_separator(c) || ('\u{2500}'..='\u{257f}').contains(&c)
        })
}

/// The cells of `line` (outer borders dropped, each trimmed), or `None` when it has no
/// separator or is a rule.
fn cells(line: &str) -> Option<Vec<&str>> {
    let t = line.trim();
    if !t.contains(is_separator) || is_rule(t) {
        return None;
    }
    let inner = t.strip_prefix(is_separator).unwrap_or(t);
    let inner = inner.strip_suffix(is_separator).unwrap_or(inner);
    let cells: Vec<&str> = inner.split(is_separator).map(str::trim).collect();
    (cells.len() >= 2).then_some(cells)
}

/// One table: where its header is (0-based line), its names, its title and its records.
struct Table {
    line: usize,
    names: Vec<String>,
    title: Option<String>,
    records: Vec<Value>,
}

/// The rows under `names` from `lines[from..]`, up to the first line that is neither a row
/// of as many cells nor a rule; and the line after the table.
fn rows(lines: &[&str], from: usize, names: &[String]) -> (Vec<Value>, usize) {
    let mut records: Vec<Map<String, Value>> = Vec::new();
    // The last row's cells as written, for the groups and continuations below.
    let mut last: Vec<String> = Vec::new();
    let mut i = from;
    while i < lines.len() {
        let line = lines[i];
        if is_rule(line) {
            i += 1;
            continue;
        }
        let Some(row) = cells(line).filter(|c| c.len() == names.len()) else { break };
        i += 1;
        let blank = row.iter().filter(|c| c.is_empty()).count();
        if blank * 2 > row.len()
            && let Some(prev) = records.last_mut()
        {
            // A second line of the row above's cells.
            for (k, cell) in row.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
                let joined = match prev.get(&names[k]).and_then(Value::as_str) {
                    Some(before) => format!("{before} {cell}"),
                    None => (*cell).to_owned(),
                };
                prev.insert(names[k].clone(), Value::from(joined));
            }
            continue;
        }
        // Leading blank cells belong to the group the row above names.
        let lead = row.iter().take_while(|c| c.is_empty()).count();
        let mut written: Vec<String> = row.iter().map(|c| (*c).to_owned()).collect();
        for (k, cell) in written.iter_mut().enumerate().take(lead) {
            if let Some(above) = last.get(k) {
                cell.clone_from(above);
            }
        }
        let mut m = Map::new();
        for (name, cell) in names.iter().zip(&written) {
            if !cell.is_empty() && cell != "-" {
                m.insert(name.clone(), cell_value(cell));
            }
        }
        last = written;
        records.push(m);
    }
    (records.into_iter().map(Value::Object).collect(), i)
}

/// The line above line `at` that is not blank, a rule or a table's, as a title.
fn title(lines: &[&str], at: usize) -> Option<String> {
    let above = lines[..at].iter().rev().take(3).map(|l| l.trim()).find(|l| !l.is_empty() && !is_rule(l))?;
    let plain = cells(above).is_none() && !above.chars().all(|c| c == '=' || c == '-');
    (plain && above.chars().count() <= TITLE_CHARS).then(|| above.to_owned())
}

/// A map of the bordered tables in `text`, at most `room` characters, when they make up
/// most of its lines.
pub(crate) fn bordered_table(text: &str, room: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().take(MAX_LINES).collect();
    let mut tables: Vec<Table> = Vec::new();
    let mut in_tables = 0usize;
    let mut i = 0;
    while i + 1 < lines.len() {
        let header = cells(lines[i]).filter(|c| c.iter().all(|n| !n.is_empty()) && is_rule(lines[i + 1]));
        let Some(header) = header else {
            i += 1;
            continue;
        };
        let names: Vec<String> = header.iter().map(|n| (*n).to_owned()).collect();
        let (records, end) = rows(&lines, i + 2, &names);
        // The rule above the header (a top border) is the table's too.
        let top = usize::from(i > 0 && is_rule(lines[i - 1]));
        in_tables += end - i + top;
        let t = title(&lines, i - top);
        tables.push(Table { line: i, names, title: t, records });
        i = end.max(i + 1);
    }
    let non_blank = lines.iter().filter(|l| !l.trim().is_empty()).count();
    // Most of the text is tables: a document with a small table keeps its own map.
    if in_tables * 2 < non_blank {
        return None;
    }
    // The rows of every table under the largest table's header, counted together.
    let largest = tables.iter().max_by_key(|t| t.records.len())?;
    let names = largest.names.clone();
    let records: Vec<Value> =
        tables.iter().filter(|t| t.names == names).flat_map(|t| t.records.iter().cloned()).collect();
    if records.len() < MIN_ROWS {
        return None;
    }
    let read = if lines.len() < text.lines().count() {
        format!(" in the first {} lines", thousands(lines.len() as u64))
    } else {
        String::new()
    };
    let listed: Vec<String> = tables
        .iter()
        .take(MAX_LISTED)
        .map(|t| {
            let title = t.title.as_ref().map(|s| format!(" {}", Value::String(s.clone()))).unwrap_or_default();
            format!("line {}{title} {} rows", t.line + 1, thousands(t.records.len() as u64))
        })
        .collect();
    let more = tables.len().saturating_sub(MAX_LISTED);
    let more = if more > 0 { format!(" (+{more} more)") } else { String::new() };
    let head = if tables.len() == 1 {
        format!(
            "bordered table of {} rows × {} columns{read}, header on line {}: {}",
            thousands(records.len() as u64),
            names.len(),
            largest.line + 1,
            names.join(", ")
        )
    } else {
        format!(
            "{} bordered tables{read}: {}{more}; {} rows under {}",
            tables.len(),
            listed.join(", "),
            thousands(records.len() as u64),
            names.join(", ")
        )
    };
    rows_map(&records, head, room)
}

#[cfg(test)]
#[path = "bordered_tests.rs"]
mod tests;
