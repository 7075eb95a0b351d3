//! A first read's index of the records it has no room to show whole: each by its key and
//! the few short columns that name it, so a lookup anywhere in a long list finds its record
//! in the first read, and a read by `pattern` or `next` finds the rest of it.
//!
//! Which columns, decided from the records: the key, then the label (the readable name
//! beside a machine's id), then the other columns in the records' own order, leaving out
//! free text, random-looking ids, columns the key spells out and any column whose values
//! are long; as many as let every record after the
//! rows fit the index's share of the budget, and at least two (a key alone says nothing
//! about its record). When even two do not fit for every record, the index holds as many
//! records as fit, in order. An index that would keep every column is no index: the rows
//! are then as narrow, and the page shows them instead.

use std::cell::{Cell, OnceCell};

use serde_json::Value;
use toolshape_redact::RedactionCounts;
use toolshape_tokens::Tokenizer;

use crate::compact::Compactor;
use crate::envelope::{RecordIndex, to_neutral_json};

/// The share of a first read's budget (percent) set aside for the index before the rows
/// take the rest of the room (at most half of it); what the rows leave unused goes to the
/// index too. Over the evaluation catalog's seventeen parts, first-read answers rise with
/// the share up to a half and level off (20%: +7, 35%: +17, 50%: +21, 65%: +23, 80%: +21);
/// a half loses one answer each on two parts, where a record the rows had shown whole
/// asked for a column the index leaves out.
pub(crate) const INDEX_PERCENT: usize = 50;
/// A column whose values take more tokens than this on average is not indexed: it is
/// text to read, not a value to find a record by. Over the evaluation catalog's seventeen
/// parts, first-read answers by this width: 5: 704, 8: 706, 10: 708, 12: 710, 14: 710,
/// 16: 708, 20: 705 (of 1,335); 12 gains on three parts and loses one answer on one.
const SHORT_CELL_TOKENS: usize = 12;
/// The fewest columns an index keeps.
const MIN_COLUMNS: usize = 2;
/// Rows of the sample the columns' widths are measured on, at most.
pub(crate) const WIDTH_SAMPLE: usize = 50;

/// The columns an index keeps, and what one of its rows takes on average.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct IndexColumns {
    /// Positions in the table's columns, ascending.
    pub(crate) picks: Vec<usize>,
    /// Their names.
    pub(crate) names: Vec<String>,
    /// Tokens of one row, on average over the sample (brackets and separators included).
    pub(crate) row_tokens: usize,
}

/// Choose the index's columns for `rest` records after the rows, within `room` tokens.
/// `columns` are the table's (the compactor's columns, in order), `sample` rows of the
/// table as shown. `None` when no index helps: too few columns to choose from, or a choice
/// that keeps them all.
pub(crate) fn choose_columns(
    compactor: &Compactor,
    columns: &[String],
    sample: &[Value],
    tok: &Tokenizer,
    rest: usize,
    room: usize,
) -> Option<IndexColumns> {
    let rows: Vec<&Value> = sample.iter().take(WIDTH_SAMPLE).collect();
    if rows.is_empty() || columns.len() <= MIN_COLUMNS || rest == 0 {
        return None;
    }
    // Tokens a cell takes, on average, with its separator.
    let width = |j: usize| -> usize {
        let total: usize = rows.iter().map(|r| tok.count(&to_neutral_json(&cell(r, j, &columns[j]))) + 1).sum();
        total.div_ceil(rows.len())
    };
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    // A column the key already spells out (a model's `author` in its id `author/name`, a
    // `modelId` equal to the `id`) names nothing more: the index's room goes to another.
    let spelled_by_key = |label: usize| {
        compactor.key.is_some_and(|k| {
            k < columns.len()
                && rows.iter().all(|r| match (cell(r, k, &columns[k]), cell(r, label, &columns[label])) {
                    (Value::String(key), Value::String(l)) => !l.is_empty() && key.contains(l.as_str()),
                    _ => false,
                })
        })
    };
    let label = compactor.label.filter(|&l| l < columns.len() && !spelled_by_key(l));
    let named = [compactor.key, label];
    for j in named.into_iter().flatten() {
        if j < columns.len() && !candidates.iter().any(|(c, _)| *c == j) {
            candidates.push((j, width(j)));
        }
    }
    for j in 0..columns.len() {
        if candidates.iter().any(|(c, _)| *c == j) || spelled_by_key(j) {
            continue;
        }
        // Free text is to be read, and a random-looking id other than the key is not
        // what anyone looks a record up by.
        if compactor.column_at(j).is_some_and(|c| c.is_text() || c.is_opaque()) {
            continue;
        }
        let w = width(j);
        if w <= SHORT_CELL_TOKENS {
            candidates.push((j, w));
        }
    }
    if candidates.len() < MIN_COLUMNS {
        return None;
    }
    let row_tokens = |n: usize| 2 + candidates[..n].iter().map(|(_, w)| w).sum::<usize>();
    // The most columns that let every record fit; else the fewest, for as many as fit.
    let n = (MIN_COLUMNS..=candidates.len()).rev().find(|n| row_tokens(*n) * rest <= room).unwrap_or(MIN_COLUMNS);
    if n >= columns.len() {
        return None;
    }
    let mut picks: Vec<usize> = candidates[..n].iter().map(|(j, _)| *j).collect();
    picks.sort_unstable();
    let names = picks.iter().map(|j| columns[*j].clone()).collect();
    Some(IndexColumns { picks, names, row_tokens: row_tokens(n) })
}

/// One record of the index: its cells, their tokens, and what redaction replaced in the
/// record they come from.
struct IndexRow {
    cells: Vec<Value>,
    tokens: usize,
    redactions: RedactionCounts,
}

/// Rows kept for the end of the run, at most: the records just before the last, as the
/// first rows after the head are the records just after it. Questions about a list's end
/// count back from it ("the third to last"), as questions about its start count on.
pub(crate) const BEFORE_LAST_ROWS: usize = 5;

/// The index rows a first read may show, made before the page is fitted: the records from
/// `first` on, narrowed, each with its tokens, and the few just before the end of the run.
/// The room is set while fitting (what the rows leave) and read when the envelope is built.
pub(crate) struct IndexRows {
    columns: Vec<String>,
    /// The position of `rows[0]` in the result's order.
    first: u64,
    rows: Vec<IndexRow>,
    /// The records just before the end of the run, from position `end_first` on (empty
    /// when the rows reach the end).
    end_rows: Vec<IndexRow>,
    end_first: u64,
    /// Tokens the index may take on the page being fitted.
    pub(crate) room: Cell<usize>,
    /// The rows the last envelope built showed: from which, how many, and how many of the
    /// records just before `shown_before`.
    shown: Cell<(usize, usize, usize)>,
    shown_before: Cell<u64>,
}

impl IndexRows {
    /// Narrow `units` (records as shown, from position `first` on, each with what redaction
    /// replaced in it) to `columns`' picks.
    pub(crate) fn new(
        columns: &IndexColumns,
        first: u64,
        units: Vec<(Value, RedactionCounts)>,
        tok: &Tokenizer,
    ) -> IndexRows {
        IndexRows {
            columns: columns.names.clone(),
            first,
            rows: narrow(columns, units, tok),
            end_rows: Vec::new(),
            end_first: 0,
            room: Cell::new(0),
            shown: Cell::new((0, 0, 0)),
            shown_before: Cell::new(0),
        }
    }

    /// The same, with `units` the records from position `first` on that end the run: what
    /// [`IndexRows::part`] shows before the end when its rows cannot reach it.
    pub(crate) fn with_end(
        mut self,
        columns: &IndexColumns,
        first: u64,
        units: Vec<(Value, RedactionCounts)>,
        tok: &Tokenizer,
    ) -> IndexRows {
        self.end_rows = narrow(columns, units, tok);
        self.end_first = first;
        self
    }

    /// The index of the records from position `from` up to `before`, as many as the room
    /// holds, or `None` when it holds none. When the rows from `from` cannot reach `before`,
    /// up to a third of what the room holds (at most `end_wanted` and [`BEFORE_LAST_ROWS`],
    /// as many as were made) goes to the records just before `before`.
    pub(crate) fn part(&self, from: u64, before: u64, end_wanted: usize) -> Option<RecordIndex> {
        self.shown.set((0, 0, 0));
        let skip = usize::try_from(from.checked_sub(self.first)?).ok()?;
        let count = usize::try_from(before.saturating_sub(from)).unwrap_or(usize::MAX);
        let run = || self.rows.iter().skip(skip).take(count);
        let room = self.room.get();
        let reach = fitting(run(), room);
        // The records just before `before`, as many as were made, nearest last.
        let end_made = (1..=end_wanted.min(BEFORE_LAST_ROWS) as u64)
            .take_while(|back| before.checked_sub(*back).is_some_and(|pos| pos > from && self.row_at(pos).is_some()))
            .count();
        let (head, end) = if reach < count {
            let end = (reach / 3).min(end_made);
            let end_tokens: usize =
                (before - end as u64..before).filter_map(|pos| self.row_at(pos)).map(|r| r.tokens).sum();
            // The rows from `from` stop where the end rows begin.
            let gap_at = usize::try_from((before - end as u64).saturating_sub(from)).unwrap_or(usize::MAX);
            (fitting(run().take(gap_at), room.saturating_sub(end_tokens)), end)
        } else {
            (reach, 0)
        };
        self.shown.set((skip, head, end));
        self.shown_before.set(before);
        let rows: Vec<Vec<Value>> = run().take(head).map(|r| r.cells.clone()).collect();
        let before_last: Vec<Vec<Value>> =
            (before - end as u64..before).filter_map(|pos| self.row_at(pos)).map(|r| r.cells.clone()).collect();
        (!rows.is_empty() || !before_last.is_empty()).then(|| RecordIndex {
            columns: self.columns.clone(),
            rows,
            before_last,
        })
    }

    /// The row of the record at `pos`, if it was made.
    fn row_at(&self, pos: u64) -> Option<&IndexRow> {
        let in_run = pos.checked_sub(self.first).and_then(|i| self.rows.get(usize::try_from(i).ok()?));
        in_run.or_else(|| pos.checked_sub(self.end_first).and_then(|i| self.end_rows.get(usize::try_from(i).ok()?)))
    }

    /// Tokens of the rows made, in order: how much the index could take.
    pub(crate) fn costs(&self) -> impl Iterator<Item = usize> + '_ {
        self.rows.iter().chain(&self.end_rows).map(|r| r.tokens)
    }

    /// How many rows the last envelope built showed.
    pub(crate) fn shown_rows(&self) -> usize {
        let (_, head, end) = self.shown.get();
        head + end
    }

    /// What redaction replaced in the records of the rows the last envelope built showed.
    pub(crate) fn redactions_shown(&self) -> RedactionCounts {
        let (skip, head, end) = self.shown.get();
        let before = self.shown_before.get();
        let mut all = RedactionCounts::default();
        let end_shown = (before.saturating_sub(end as u64)..before).filter_map(|pos| self.row_at(pos));
        for row in self.rows.iter().skip(skip).take(head).chain(end_shown) {
            all.merge(&row.redactions);
        }
        all
    }
}

/// How many of `rows`, from the first, fit in `room` tokens.
fn fitting<'r>(rows: impl Iterator<Item = &'r IndexRow>, room: usize) -> usize {
    let mut left = room;
    let mut n = 0;
    for row in rows {
        if row.tokens > left {
            break;
        }
        left -= row.tokens;
        n += 1;
    }
    n
}

/// `units` narrowed to `columns`' picks, each with its tokens.
fn narrow(columns: &IndexColumns, units: Vec<(Value, RedactionCounts)>, tok: &Tokenizer) -> Vec<IndexRow> {
    units
        .into_iter()
        .map(|(unit, redactions)| {
            let cells: Vec<Value> =
                columns.picks.iter().zip(&columns.names).map(|(j, name)| cell(&unit, *j, name)).collect();
            let tokens = tok.count(&to_neutral_json(&cells)) + 1;
            IndexRow { cells, tokens, redactions }
        })
        .collect()
}

/// An index made on first use: a result that fits whole never needs one, so a small
/// answer does not pay for it.
pub(crate) struct LazyIndex<'a> {
    make: Box<dyn Fn() -> Option<IndexRows> + 'a>,
    made: OnceCell<Option<IndexRows>>,
}

impl<'a> LazyIndex<'a> {
    pub(crate) fn new(make: impl Fn() -> Option<IndexRows> + 'a) -> LazyIndex<'a> {
        LazyIndex { make: Box::new(make), made: OnceCell::new() }
    }

    /// The index, made now if it was not yet (`None` when no index helps).
    pub(crate) fn get(&self) -> Option<&IndexRows> {
        self.made.get_or_init(|| (self.make)()).as_ref()
    }

    /// The index, if it was made.
    pub(crate) fn made(&self) -> Option<&IndexRows> {
        self.made.get().and_then(Option::as_ref)
    }
}

/// The value of column `j`, named `name`, in a record as shown: a table's row, or a compact
/// record (an object); `null` where it has none.
fn cell(unit: &Value, j: usize, name: &str) -> Value {
    match unit {
        Value::Array(cells) => cells.get(j).cloned(),
        Value::Object(m) => m.get(name).cloned(),
        _ => None,
    }
    .unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests;
