//! The view of records a plan gets when it names no fields: compact records (see
//! [`compact`](crate::compact)), shown as a table when they share their fields, with facets
//! of every record in the summary (see [`facets`](crate::facets)).
//!
//! Everything here is decided from the records: a sample of the first records teaches the
//! compact view, every record is read once for facets (on a first read; a page goes on with
//! the facets the first read had no room for, and others do not repeat them), and the same
//! sample gives the same view on every page, since pages are read from the stored records in
//! the same order.

use std::cell::OnceCell;

use serde_json::value::RawValue;
use serde_json::{Map, Value};
use toolshape_redact::{RedactionCounts, Redactor};
use toolshape_tokens::Tokenizer;

use crate::compact::{Beyond, Compactor, SAMPLE_BYTES, SAMPLE_RECORDS};
use crate::envelope::{Data, RecordIndex};
use crate::facets::{Facets, FacetsPart};
use crate::list_lengths::ListLengths;
use crate::nested_records::NestedLists;
use crate::record_index::{IndexColumns, WIDTH_SAMPLE, choose_columns};
use crate::records::{RecordShaper, parse};

/// Tables are used when at least this share of the cells of the sample hold a value.
const TABLE_FILL_PERCENT: usize = 60;
/// The share of the budget, in percent, the values every record shares may take in the
/// summary (as characters, at about four per token).
const CONSTANTS_BUDGET_PERCENT: usize = 5;
/// The share of the budget, in percent, facets may take in the summary (as characters,
/// at about four per token). A quarter: over the evaluation catalog's ten parts, 25% answers
/// three more counts in the first read than 15% and none fewer (20% two, 35% the same as
/// 25%: by then every facet fits); the records the page has less room for are a `next` or
/// a `pattern` read away, and facets left out go on in the next page's summary.
const FACET_BUDGET_PERCENT: usize = 25;

/// Characters the longest and shortest lists per record may take in the summary.
const LENGTHS_CHARS: usize = 400;

/// The learned view of one result's records.
pub(crate) struct AutoView {
    compactor: Compactor,
    /// Records are shown compact (else whole, with facets only).
    compact: bool,
    /// The table's columns, when records are shown as rows.
    table: Option<Vec<String>>,
    /// The facets this page holds: on a first read, and on the pages after it while some
    /// had no room.
    facets: Option<FacetsPart>,
    /// Characters the values every record shares may take in the summary.
    constants_room: usize,
    /// The values said once were checked against every record (else against this page's).
    constants_of_all: bool,
    /// The sample's records as shaped (projected, capped, redacted), with what redaction
    /// replaced in each: the first records of the order, which a page then shows without
    /// parsing and redacting them a second time.
    shaped: Vec<(Value, RedactionCounts)>,
    /// No two of the compactor's columns share a name ([`Compactor::names_distinct`]).
    distinct_names: bool,
    /// The first record's left-out strings, made once: the fit builds the first read's
    /// envelope several times.
    first_left_out: OnceCell<Option<Map<String, Value>>>,
}

impl AutoView {
    /// Learn the view of `items` (in `order`), or `None` when the plan names its fields or
    /// the records are not objects. `window_start` is where in `order` this page's records
    /// start. `facets_from` is the first facet this page says (0 on a first read), or `None`
    /// for a page that says none.
    pub(crate) fn learn(
        plan: &crate::plan::ShapePlan,
        shaper: &RecordShaper<'_>,
        redactor: &Redactor,
        items: &[&RawValue],
        order: &[usize],
        window_start: usize,
        facets_from: Option<usize>,
    ) -> Option<AutoView> {
        let auto = plan.auto;
        // A plan whose answer is its aggregate alone shows no records: nothing to view.
        let aggregate_only = plan.aggregate.as_ref().is_some_and(|a| a.only);
        if !plan.decides_fields() || aggregate_only || !(auto.compact || auto.table || auto.facets) {
            return None;
        }
        // A plan that declares its aggregate gets that one, not facets besides.
        let wants_facets = auto.facets && facets_from.is_some() && plan.aggregate.is_none();
        let mut sample = Vec::new();
        let mut sample_counts = Vec::new();
        // Facets count the records as they came, before redaction.
        let mut sample_as_sent = Vec::new();
        let mut bytes = 0usize;
        for idx in order.iter().take(SAMPLE_RECORDS) {
            let raw = items[*idx];
            bytes += raw.get().len();
            if bytes > SAMPLE_BYTES && !sample.is_empty() {
                break;
            }
            let record = parse(raw);
            if wants_facets {
                sample_as_sent.push(record.clone());
            }
            let mut counts = RedactionCounts::default();
            sample.push(shaper.shape(record, false, &mut counts));
            sample_counts.push(counts);
        }
        let mut compactor = Compactor::learn(&sample);
        if !compactor.is_active() {
            return None;
        }
        // The records past the sample are read for what it did not teach (a value said once
        // that a later record holds otherwise, a field only later records hold): on a first
        // read (and a page that counts facets) every record, in the facets' own pass where
        // there is one; on a later page the records it may show (each costs at least a
        // token), and its summary then speaks of this page only.
        let whole = wants_facets || facets_from == Some(0) || window_start == 0;
        if !wants_facets {
            // The sample as sent is only compared with values said once: parsed again only
            // when there are some.
            let as_sent: Vec<Value> = if compactor.constants_len() > 0 {
                order.iter().take(sample.len()).map(|i| parse(items[*i])).collect()
            } else {
                Vec::new()
            };
            let (from, window) = if whole { (0, order.len()) } else { (window_start, plan.budget_tokens.max(1)) };
            let later = order.iter().skip(from.max(sample.len())).take(window).map(|i| parse(items[*i]));
            compactor.learn_beyond(&as_sent, later);
        }
        let facets = wants_facets.then(|| {
            // Records two lists down are said on a first read only: later pages go on with
            // the records' own facets.
            let first_read = facets_from == Some(0);
            let mut beyond = Beyond::new(&compactor, &sample_as_sent);
            let (mut part, mut nested) =
                facet_pass(&compactor, auto.states, &sample_as_sent, items, order, Some(&mut beyond), first_read);
            if beyond.found() {
                drop(part);
                beyond.apply(&mut compactor);
                (part, nested) = facet_pass(&compactor, auto.states, &sample_as_sent, items, order, None, first_read);
            }
            let room = plan.budget_tokens * 4 * FACET_BUDGET_PERCENT / 100;
            // The records two lists down get their room first (a third at most): the
            // records' own facets left out go on in the next page's summary, theirs do not.
            let lists = nested.as_ref().filter(|_| first_read);
            let note = lists.and_then(|(n, _)| n.note(room / 3));
            let lengths = lists.and_then(|(_, l)| l.phrase(LENGTHS_CHARS));
            let note = match (note, lengths) {
                (Some(n), Some(l)) => Some(format!("{l}; {n}")),
                (n, l) => n.or(l),
            };
            let used = note.as_ref().map_or(0, |n| n.len() + 2);
            let mut part = match part {
                Some(f) => f.phrase_from(facets_from.unwrap_or(0), room.saturating_sub(used)),
                None => None,
            };
            if let Some(note) = note {
                match part.as_mut() {
                    Some(p) if !p.text.is_empty() => {
                        p.text.push_str("; ");
                        p.text.push_str(&note);
                    }
                    Some(p) => p.text = note,
                    None => part = Some(FacetsPart::alone(note)),
                }
            }
            let mut part = part?;
            // Facet values come from records before redaction: redact what is shown.
            part.text = redactor.redact_text(&part.text, &mut RedactionCounts::default()).into_owned();
            Some(part)
        });
        let compact = auto.compact;
        let caps = !plan.field_tokens.is_empty() || plan.default_field_tokens.is_some();
        let table = (auto.table && compact && !caps).then(|| table_columns(&compactor, &sample)).flatten();
        let constants_room = plan.budget_tokens * 4 * CONSTANTS_BUDGET_PERCENT / 100;
        let shaped = sample.into_iter().zip(sample_counts).collect();
        let distinct_names = compactor.names_distinct();
        Some(AutoView {
            compactor,
            compact,
            table,
            facets: facets.flatten(),
            constants_room,
            constants_of_all: whole,
            shaped,
            distinct_names,
            first_left_out: OnceCell::new(),
        })
    }

    /// The sample's shaped records, in order: the head of the result's snapshot.
    pub(crate) fn into_shaped(self) -> Vec<Value> {
        self.shaped.into_iter().map(|(record, _)| record).collect()
    }

    /// One record as shown, with the fields whose value was cut.
    pub(crate) fn unit(&self, record: Value) -> (Value, Vec<String>) {
        if !self.compact {
            return (record, Vec::new());
        }
        self.compact_unit(&record)
    }

    /// The record at `position` of the order as [`unit`](Self::unit) shows it, when the
    /// sample holds it shaped (for a plan without a filter's redaction first), adding what
    /// redaction replaced in it to `counts`.
    pub(crate) fn shaped_unit(&self, position: usize, counts: &mut RedactionCounts) -> Option<(Value, Vec<String>)> {
        let (record, replaced) = self.shaped.get(position)?;
        counts.merge(replaced);
        Some(if self.compact { self.compact_unit(record) } else { (record.clone(), Vec::new()) })
    }

    fn compact_unit(&self, record: &Value) -> (Value, Vec<String>) {
        // A table's columns are the compactor's, in its order: with distinct names, the row
        // is read straight from the record.
        if self.table.is_some()
            && self.distinct_names
            && let Some((row, cut)) = self.compactor.row_noting_cuts(record)
        {
            return (Value::Array(row), cut);
        }
        let (compact, cut) = self.compactor.apply_noting_cuts(record);
        match (&self.table, compact) {
            (Some(columns), Value::Object(mut m)) => {
                (Value::Array(columns.iter().map(|c| m.remove(c).unwrap_or(Value::Null)).collect()), cut)
            }
            (Some(columns), other) => {
                let mut row = vec![other];
                row.resize(columns.len(), Value::Null);
                (Value::Array(row), cut)
            }
            (None, other) => (other, cut),
        }
    }

    /// The columns of an index of `rest` records after the rows within `room` tokens, when
    /// records are shown as a table and an index of them helps ([`record_index`]).
    pub(crate) fn index_columns(&self, tok: &Tokenizer, rest: usize, room: usize) -> Option<IndexColumns> {
        if !self.compact {
            return None;
        }
        let columns: Vec<String> = self.compactor.columns.iter().map(|c| c.name.clone()).collect();
        let sample: Vec<Value> = self.shaped.iter().take(WIDTH_SAMPLE).map(|(r, _)| self.compact_unit(r).0).collect();
        choose_columns(&self.compactor, &columns, &sample, tok, rest, room)
    }

    /// The data of a page of units, with the index of the records after them and the last
    /// records when the page shows them.
    /// With `from_first`, `kept` starts at the result's first record, whose short values
    /// left out of every record are said beside the rows ([`first_left_out`]).
    pub(crate) fn data(&self, kept: &[Value], index: Option<RecordIndex>, last: &[Value], from_first: bool) -> Data {
        let row = |r: &Value| r.as_array().cloned().unwrap_or_else(|| vec![r.clone()]);
        let first_left_out = kept
            .first()
            .filter(|_| from_first)
            .and_then(|unit| self.first_left_out.get_or_init(|| self.left_out_of_first(unit)).clone());
        match &self.table {
            Some(columns) => Data::Table {
                columns: columns.clone(),
                rows: kept.iter().map(row).collect(),
                first_left_out,
                index,
                last: last.iter().map(row).collect(),
            },
            None if index.is_none() && last.is_empty() && first_left_out.is_none() => Data::Records(kept.to_vec()),
            None => {
                let mut m = Map::new();
                m.insert("records".into(), Value::Array(kept.to_vec()));
                if let Some(said) = first_left_out {
                    m.insert("first_left_out".into(), Value::Object(said));
                }
                if let Some(index) = index.and_then(|i| serde_json::to_value(i).ok()) {
                    m.insert("index".into(), index);
                }
                if !last.is_empty() {
                    m.insert("last".into(), Value::Array(last.to_vec()));
                }
                Data::Value(Value::Object(m))
            }
        }
    }

    /// The first record's short values the view leaves out, led by its key as `unit` (the
    /// first record as shown) has it; `None` when the view leaves nothing out.
    fn left_out_of_first(&self, unit: &Value) -> Option<Map<String, Value>> {
        if !self.compact || self.compactor.dropped.is_empty() {
            return None;
        }
        let (record, _) = self.shaped.first()?;
        let columns = &self.compactor.columns;
        let shown = |path: &str| {
            columns.iter().any(|c| c.name == path) || self.compactor.constants.iter().any(|(name, _)| name == path)
        };
        let key = self.compactor.key.and_then(|k| columns.get(k)).map(|c| c.name.as_str());
        let key_value = key.and_then(|name| match unit {
            Value::Array(cells) => self.table.as_ref()?.iter().position(|c| c == name).and_then(|i| cells.get(i)),
            Value::Object(m) => m.get(name),
            _ => None,
        });
        crate::first_left_out::first_left_out(record, &shown, key.zip(key_value))
    }

    /// Fields left out of every record (and constants too long to say).
    pub(crate) fn dropped(&self) -> Vec<String> {
        if !self.compact {
            return Vec::new();
        }
        let mut all = self.compactor.dropped.clone();
        all.extend(self.compactor.unsaid_constants(self.constants_room).into_iter().map(str::to_owned));
        // Bounded like the summary's parts: a result whose field names are long (or many)
        // must still leave room for its records. Long names keep their start; names past
        // the room are counted.
        let mut room = self.constants_room.max(FIELD_NAME_CHARS);
        let mut d = Vec::new();
        for (i, name) in all.iter().enumerate() {
            let shown = if name.chars().count() > FIELD_NAME_CHARS {
                format!("{}…", name.chars().take(FIELD_NAME_CHARS - 1).collect::<String>())
            } else {
                name.clone()
            };
            if shown.len() + 4 > room {
                d.push(format!("+{} more", all.len() - i));
                break;
            }
            room -= shown.len() + 4;
            d.push(shown);
        }
        d
    }

    /// Where the next page's facets start, when this page had no room for some.
    pub(crate) fn facets_next(&self) -> Option<usize> {
        self.facets.as_ref().filter(|f| f.left > 0).map(|f| f.next)
    }

    /// What the summary adds: the values every record shares, and the facets. `paging`: a
    /// next page of records follows, which goes on with the facets left out here.
    pub(crate) fn qualifiers(&self, paging: bool) -> String {
        let mut q = String::new();
        if self.compact
            && let Some(c) = self.compactor.constants_phrase(self.constants_room)
        {
            let scope = if self.constants_of_all { "every record" } else { "every record of this page" };
            q.push_str(&format!("; same in {scope} that has it: {c}"));
        }
        if let Some(f) = &self.facets {
            q.push_str("; ");
            q.push_str(&f.with_note(if paging { "next" } else { "a larger budget" }));
        }
        q
    }
}

/// Every record counted for facets, the sample's first (already parsed, as sent), each
/// parsed once; with `beyond`, each record past the sample is also read for what the
/// sample did not teach ([`Beyond`]). With `nested`, the lists of objects inside the
/// records are gathered too ([`NestedLists`]), and every list's longest and shortest
/// ([`ListLengths`]).
fn facet_pass<'c>(
    compactor: &'c Compactor,
    states: bool,
    sample_as_sent: &[Value],
    items: &[&RawValue],
    order: &[usize],
    mut beyond: Option<&mut Beyond>,
    nested: bool,
) -> (Option<Facets<'c>>, Option<(NestedLists, ListLengths)>) {
    let mut f = if states { Facets::with_states(compactor) } else { Facets::new(compactor) };
    if f.is_empty() && beyond.is_none() && !nested {
        return (None, None);
    }
    let mut lists = nested.then(|| (NestedLists::default(), ListLengths::default()));
    for record in sample_as_sent {
        f.add(record);
        if let Some((lists, lengths)) = lists.as_mut() {
            lengths.add(compactor, record);
            lists.copy(record);
        }
    }
    for idx in order.iter().skip(sample_as_sent.len()) {
        let mut record = parse(items[*idx]);
        if let Some(beyond) = beyond.as_deref_mut() {
            beyond.check(compactor, &record);
        }
        f.add(&record);
        if let Some((lists, lengths)) = lists.as_mut() {
            lengths.add(compactor, &record);
            lists.take(&mut record);
        }
    }
    ((!f.is_empty()).then_some(f), lists)
}

/// The longest field name listed as left out; a longer one keeps its start.
const FIELD_NAME_CHARS: usize = 60;

/// The columns of a table of the compact sample, when its records share their fields.
fn table_columns(compactor: &Compactor, sample: &[Value]) -> Option<Vec<String>> {
    let columns: Vec<String> = compactor.columns.iter().map(|c| c.name.clone()).collect();
    if columns.len() < 2 || sample.len() < 3 || !(compactor.reads_rows() || sample.iter().all(Value::is_object)) {
        return None;
    }
    let distinct = compactor.names_distinct();
    let filled: usize = sample
        .iter()
        .map(|r| {
            // A column's value is never null: the row's others are the object's members.
            if distinct && let Some((row, _)) = compactor.row_noting_cuts(r) {
                return row.iter().filter(|v| !v.is_null()).count();
            }
            match compactor.apply(r) {
                Value::Object(m) => m.len(),
                _ => 0,
            }
        })
        .sum();
    // Columns of fields only later records hold have no value in the sample: not counted.
    let learned = columns.len().saturating_sub(compactor.late_columns).max(1);
    (filled * 100 >= sample.len() * learned * TABLE_FILL_PERCENT).then_some(columns)
}

/// The records a table shows, as objects again: what the rows stand for.
pub fn table_records(columns: &[String], rows: &[Vec<Value>]) -> Vec<Value> {
    rows.iter()
        .map(|row| {
            let m: Map<String, Value> =
                columns.iter().zip(row).filter(|(_, v)| !v.is_null()).map(|(c, v)| (c.clone(), v.clone())).collect();
            Value::Object(m)
        })
        .collect()
}
