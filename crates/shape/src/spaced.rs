//! Tables with no header whose cells are separated by spaces, as `ls -l`, `apt list`,
//! `du`, `find -ls` or `git ls-files -s` print them: the rows are read as records of
//! numbered columns and counted like any record's fields, so the first read answers
//! "which file is the largest" or "how many packages are for all architectures".
//!
//! Recognised by layout alone: at least [`MIN_ROWS`] lines, nine in ten with at least as
//! many words as the table has columns (three or more), and half with at most two more;
//! the words past the last column belong to it (a file name with spaces, a symbolic
//! link's target). Two
//! columns or more must read as a table's (numbers, or few values repeated), so prose
//! whose lines happen to have as many words is not one. A log with levels is left to its
//! own map.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::aligned::{cell_value, rows_map};
use crate::line_fields::MAX_LINES;
use crate::numfmt::thousands;

/// Rows a table needs, at least.
const MIN_ROWS: usize = 10;
/// The most columns read.
const MAX_COLUMNS: usize = 16;

/// The map of the table of `text`, at most `room` characters, or `None` when its lines are
/// not one.
pub(crate) fn spaced_table(text: &str, room: usize) -> Option<String> {
    let lines: Vec<(usize, &str)> =
        text.lines().take(MAX_LINES).enumerate().filter(|(_, l)| !l.trim().is_empty()).collect();
    if lines.len() < MIN_ROWS {
        return None;
    }
    let mut widths = [0usize; MAX_COLUMNS + 2];
    for (_, l) in &lines {
        widths[l.split_whitespace().count().min(MAX_COLUMNS + 1)] += 1;
    }
    // As many columns as nine lines in ten have words, and half the lines no more than
    // two words past them: a last cell with a few words (a name with spaces, a link's
    // target), not lines of any length.
    let at_least = |k: usize| widths[k..].iter().sum::<usize>();
    let columns = (3..=MAX_COLUMNS).rev().find(|&k| at_least(k) * 10 >= lines.len() * 9)?;
    let near: usize = widths[columns..=(columns + 2).min(MAX_COLUMNS + 1)].iter().sum();
    if near * 2 < lines.len() {
        return None;
    }
    let cells: Vec<(usize, Vec<&str>)> = lines
        .iter()
        .filter_map(|&(i, l)| Some((i, split_cells(l, columns).or_else(|| short_row(l, columns))?)))
        .collect();
    if cells.len() < MIN_ROWS || !reads_as_table(&cells, columns) {
        return None;
    }
    let names: Vec<String> = (1..=columns).map(|k| format!("column {k}")).collect();
    let rows: Vec<Value> = cells
        .iter()
        .map(|(_, row)| {
            let m: Map<String, Value> = names.iter().cloned().zip(row.iter().map(|c| cell_value(c))).collect();
            Value::Object(m)
        })
        .collect();
    let total = text.lines().count();
    let read = if total > MAX_LINES {
        format!(" (in the first {} lines)", thousands(MAX_LINES as u64))
    } else {
        String::new()
    };
    let head = format!(
        "table of {} rows × {columns} columns split at spaces, no header{read}, first row on line {}",
        thousands(rows.len() as u64),
        cells[0].0 + 1
    );
    rows_map(&rows, head, room)
}

/// The first `columns - 1` words of `line` and the rest of it as the last cell; `None`
/// when it has fewer words.
fn split_cells(line: &str, columns: usize) -> Option<Vec<&str>> {
    let mut cells = Vec::with_capacity(columns);
    let mut rest = line.trim();
    for _ in 1..columns {
        let end = rest.find(char::is_whitespace)?;
        // Punctuation that parts items (`Flags [R.], seq 1`, `10.0.0.2.80: tcp`) is not the
        // value's: `[R.]` counts with `[R.]` wherever it stands.
        let cell = &rest[..end];
        let bare = unpaired_bracket_trimmed(cell.trim_end_matches([',', ';', ':']));
        cells.push(if bare.is_empty() { cell } else { bare });
        rest = rest[end..].trim_start();
    }
    (!rest.is_empty()).then(|| {
        let last = unpaired_bracket_trimmed(rest);
        cells.push(if last.is_empty() { rest } else { last });
        cells
    })
}

/// A line with fewer words than the table has columns, but half as many at least, as a
/// row of its words in the first columns: `last`'s session still logged in ends in three
/// words where a closed one has seven, and left out it would go uncounted. A shorter line
/// (`total 4120` above `ls -l`'s rows) is no row.
fn short_row(line: &str, columns: usize) -> Option<Vec<&str>> {
    let words = line.split_whitespace().count();
    (words >= 3 && words < columns && words * 2 >= columns).then(|| split_cells(line, words)).flatten()
}

/// `cell` without a bracket it opens and does not close, or closes and did not open: a
/// group written across cells (`[failed - 404]`, `(pid 12)`) brackets the group, not its
/// first and last values, so `404]` counts with `404`.
fn unpaired_bracket_trimmed(cell: &str) -> &str {
    let mut cell = cell;
    for (open, close) in [('[', ']'), ('(', ')'), ('{', '}')] {
        let opens = cell.matches(open).count();
        let closes = cell.matches(close).count();
        if opens > closes && cell.starts_with(open) {
            cell = &cell[1..];
        } else if closes > opens && cell.ends_with(close) {
            cell = &cell[..cell.len() - 1];
        }
    }
    cell
}

/// Whether at least two columns hold what a table's do: numbers in nine rows in ten, or
/// values repeated (at most one distinct value per four rows), and not one value in every
/// row: lines written from one template with a counter (`line 7: the service handles
/// request 7`) have many columns of one value and say nothing as a table, and a column that
/// repeats another counts once.
fn reads_as_table(cells: &[(usize, Vec<&str>)], columns: usize) -> bool {
    let rows = cells.len();
    let tabular: Vec<usize> = (0..columns)
        .filter(|&k| {
            let numbers = cells
                .iter()
                .filter(|(_, r)| r.get(k).is_some_and(|c| c.parse::<f64>().is_ok_and(f64::is_finite)))
                .count();
            let distinct = cells.iter().map(|(_, r)| r.get(k)).collect::<HashSet<_>>().len();
            distinct >= 2 && (numbers * 10 >= rows * 9 || distinct * 4 <= rows)
        })
        .collect();
    // A column equal to an earlier one in every row (the template's counter, written twice)
    // tells nothing more.
    let same = |a: usize, b: usize| cells.iter().all(|(_, r)| r.get(a) == r.get(b));
    let own = tabular.iter().enumerate().filter(|&(i, &k)| !tabular[..i].iter().any(|&j| same(j, k))).count();
    own >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing() -> String {
        let mut t = String::from("total 4120\n");
        for i in 0..30 {
            let (mode, name) = match i % 10 {
                0 => ("drwxr-xr-x", format!("dir-{i}")),
                1 => ("lrwxrwxrwx", format!("latest-{i} -> report-{}.csv", i - 1)),
                _ => ("-rw-r--r--", format!("report {i}.csv")),
            };
            t.push_str(&format!(
                "{mode} 1 ada staff {:>8} Dec {:>2} 10:{i:02} {name}\n",
                1000 + i * 37 % 11 * 100,
                1 + i % 28
            ));
        }
        t
    }

    #[test]
    fn a_long_listing_is_read_as_columns() {
        let map = spaced_table(&listing(), 2_000).unwrap();
        assert!(
            map.starts_with("table of 30 rows × 9 columns split at spaces, no header, first row on line 2"),
            "{map}"
        );
        assert!(map.contains("column 1, most first: -rw-r--r-- 24, drwxr-xr-x 3, lrwxrwxrwx 3"), "{map}");
        // The largest file is named by the last column, which keeps its spaces and links.
        assert!(map.contains("column 5: max 2000 (column 9 report 8.csv)"), "{map}");
    }

    #[test]
    fn rows_shorter_by_less_than_half_are_counted_too() {
        // `last -F`: a session still logged in has three words where a closed one has seven.
        let mut t = String::new();
        for i in 0..30 {
            let user = ["ada", "bob", "cy"][i % 3];
            let start = format!("Fri Nov 20 1{}:0{}:00 2026", i % 10, i % 6);
            let end = if i % 15 == 0 {
                "  still logged in".to_owned()
            } else {
                format!(" - Fri Nov 20 2{}:00:00 2026  (0{}:00)", i % 4, i % 9)
            };
            t.push_str(&format!("{user:<8} pts/{:<8} 10.0.0.{:<10} {start}{end}\n", i % 5, 10 + i % 4));
        }
        t.push_str("\nwtmp begins Sun Nov  1 00:02:11 2026\n");
        let map = spaced_table(&t, 2_000).unwrap();
        assert!(map.starts_with("table of 30 rows × 15 columns"), "{map}");
        assert!(map.contains("column 1, most first: ada 10, bob 10, cy 10"), "every session is counted: {map}");
    }

    #[test]
    fn a_last_cell_keeps_the_words_past_it() {
        assert_eq!(split_cells("a  b c d", 3), Some(vec!["a", "b", "c d"]));
        assert_eq!(split_cells("  a b", 3), None);
        assert_eq!(split_cells("a b c", 3), Some(vec!["a", "b", "c"]));
        // Punctuation between items is not part of a cell, unless it is all the cell holds.
        assert_eq!(
            split_cells("10.0.0.2.80: Flags [R.], seq 1, win 0", 6),
            Some(vec!["10.0.0.2.80", "Flags", "[R.]", "seq", "1", "win 0"])
        );
        assert_eq!(split_cells("a , b", 3), Some(vec!["a", ",", "b"]));
    }

    #[test]
    fn a_bracketed_group_across_cells_counts_its_values() {
        assert_eq!(split_cells("7 GET /a [failed - 404]", 5), Some(vec!["7", "GET", "/a", "failed", "- 404"]));
        assert_eq!(split_cells("7 GET /a [failed - 404]", 6), Some(vec!["7", "GET", "/a", "failed", "-", "404"]));
        assert_eq!(unpaired_bracket_trimmed("[pending]"), "[pending]", "a whole group is kept");
        assert_eq!(unpaired_bracket_trimmed("f(x)"), "f(x)");
        assert_eq!(unpaired_bracket_trimmed("(pid"), "pid");
        assert_eq!(unpaired_bracket_trimmed("12)"), "12");
    }

    #[test]
    fn prose_and_short_texts_are_not_tables() {
        let words = ["quick", "brown", "fox", "jumps", "over", "slow", "green", "turtle", "walks", "under", "them"];
        let prose: String = (0..40)
            .map(|i| {
                let n = 4 + i * 7 % 9;
                let line: Vec<&str> = (0..n).map(|w| words[(i * 5 + w * 3) % words.len()]).collect();
                format!("{}.\n", line.join(" "))
            })
            .collect();
        assert_eq!(spaced_table(&prose, 2_000), None, "{prose}");
        let short: String = listing().lines().take(6).map(|l| format!("{l}\n")).collect();
        assert_eq!(spaced_table(&short, 2_000), None);
        let ragged: String = (0..30).map(|i| format!("{}\n", "word ".repeat(1 + i % 9))).collect();
        assert_eq!(spaced_table(&ragged, 2_000), None);
        let counted: String = (1..=60).map(|i| format!("line {i}: the service handles request {i}\n")).collect();
        assert_eq!(spaced_table(&counted, 2_000), None, "one template with a counter is not a table");
    }

    proptest::proptest! {
        #[test]
        fn any_text_gets_a_map_within_its_room_or_none(
            lines in proptest::collection::vec("[a-z0-9 .:/-]{0,40}", 0..60),
            room in 0usize..3_000,
        ) {
            let text = lines.join("\n");
            if let Some(m) = spaced_table(&text, room) {
                proptest::prop_assert!(m.len() <= room, "{} bytes in {room}: {m}", m.len());
            }
        }
    }
}
