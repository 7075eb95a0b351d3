//! Facets: what every record of a result adds up to, computed before any cut, so "how many
//! are Blocked" and "which charge is largest" are answered without reading every page.
//!
//! The compact view's fields decide what is counted: a field whose values repeat (or
//! lists of them) gets value counts, judged over every record rather than the sample, so a
//! field the first records happen to spread out is still counted; a field of numbers or
//! timestamps gets its smallest and largest value with the record holding each, named by
//! the record's key field (a number of a few values gets its counts too). Records are added
//! one at a time, so memory is bounded by the distinct values kept per field
//! ([`MAX_DISTINCT`]; a field whose first values are all different stops being counted),
//! and at most [`MAX_RECORDS`] records are read.

use std::collections::HashMap;

use serde_json::Value;

use crate::aggregate::timestamp_millis;
use crate::compact::{Compactor, Holds, Span, decimal_value, duration_millis, duration_text, quantity};
use crate::distinct::{head_and_tail, shorten_together};
use crate::numfmt::thousands;

/// Distinct values counted per field; later new values are counted together.
pub(crate) const MAX_DISTINCT: usize = 1_000;
/// Records read for facets at most; past it the summary says over how many.
pub(crate) const MAX_RECORDS: u64 = 1_000_000;
/// Values shown per counted field.
const TOP: usize = 6;

/// One facet being computed.
enum Acc {
    Counts(Counter),
    Range {
        column: usize,
        times: bool,
        min: Option<(f64, String, String)>,
        max: Option<(f64, String, String)>,
        /// Records that had a value.
        present: u64,
    },
    /// The time between two fields of each record ([`Span`]): longest and shortest.
    Span {
        span: Span,
        min: Option<(i64, String)>,
        max: Option<(i64, String)>,
    },
    /// How many records have a field that is not otherwise counted (its values all
    /// differ): said when fewer than half do ("how many merge commits").
    Presence {
        column: usize,
        present: u64,
    },
}

/// Value counts of one column.
struct Counter {
    column: usize,
    /// Each value's count and the first record that held it.
    counts: HashMap<String, (u64, u64)>,
    /// Values past [`MAX_DISTINCT`], counted together.
    other: u64,
    /// Records that had a value.
    present: u64,
    /// The sample already showed the column's values repeat; otherwise the counts over
    /// every record decide whether they are worth a clause.
    learned: bool,
    /// Every value so far was new ([`UNIQUE_AFTER`] records or more): an id, not counted on.
    given_up: bool,
    /// How the records fall into groups of equal values, as a hash of each record's number
    /// and the number of the first record holding its value: two fields with the same
    /// split the records alike. `None` past [`MAX_DISTINCT`] values.
    split: Option<u64>,
    /// The first record holding each list of values (a single value's is in `counts`).
    first_holder: HashMap<String, u64>,
}

/// Records after which a column whose values were all different stops being counted.
const UNIQUE_AFTER: u64 = 64;

impl Counter {
    fn new(column: usize, learned: bool) -> Counter {
        Counter {
            column,
            counts: HashMap::new(),
            other: 0,
            present: 0,
            learned,
            given_up: false,
            split: Some(0),
            first_holder: HashMap::new(),
        }
    }

    fn add(&mut self, v: Value, record: u64) {
        if self.given_up {
            return;
        }
        self.present += 1;
        match v {
            Value::Array(items) => {
                let mut values: Vec<String> = items.iter().map(scalar_text).collect();
                values.sort();
                values.dedup();
                if self.split.is_some() {
                    let group = values.join("\u{1f}");
                    let first = match self.first_holder.get(&group) {
                        Some(first) => Some(*first),
                        None if self.first_holder.len() < MAX_DISTINCT => {
                            self.first_holder.insert(group, record);
                            Some(record)
                        }
                        None => None,
                    };
                    self.note_split(record, first);
                }
                for s in values {
                    self.count(s, record);
                }
            }
            one => {
                // One value: its own first holder is kept with its count.
                let first = match one {
                    Value::String(s) => self.count(s, record),
                    other => self.count(scalar_text(&other), record),
                };
                self.note_split(record, first);
            }
        }
        if !self.learned && self.present >= UNIQUE_AFTER && self.counts.len() as u64 >= self.present {
            self.given_up = true;
            self.counts = HashMap::new();
            self.first_holder = HashMap::new();
            self.split = None;
        }
    }

    /// Count one value; the first record that held it, when it is counted on its own.
    fn count(&mut self, s: String, record: u64) -> Option<u64> {
        if let Some((n, first)) = self.counts.get_mut(&s) {
            *n += 1;
            Some(*first)
        } else if self.counts.len() < MAX_DISTINCT {
            self.counts.insert(s, (1, record));
            Some(record)
        } else {
            self.other += 1;
            None
        }
    }

    /// Fold a record's group (the first record holding its value) into the split's hash.
    fn note_split(&mut self, record: u64, first: Option<u64>) {
        self.split = match (self.split, first) {
            (Some(split), Some(first)) => Some(mix(split ^ mix(record.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ first))),
            _ => None,
        };
    }

    /// Whether the counts say something a reader could not get otherwise: values repeat,
    /// in that at least half the records hold a value some other record holds too.
    fn worth_saying(&self) -> bool {
        if self.given_up || self.present < 4 {
            return false;
        }
        if self.learned {
            return true;
        }
        let repeated: u64 = self.counts.values().map(|(n, _)| *n).filter(|n| *n >= 2).sum();
        repeated * 2 >= self.present
    }

    fn clause(&self, name: &str, records: u64, top: usize) -> Option<String> {
        // One value in every record says nothing a constant would not; nor do values every
        // record holds (a list with the same items in each).
        if self.counts.values().all(|(n, _)| *n >= records) && self.other == 0 {
            return None;
        }
        if !self.worth_saying() {
            return None;
        }
        let mut ranked: Vec<(&String, &u64)> = self.counts.iter().map(|(v, (n, _))| (v, n)).collect();
        ranked.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        // A note of one or two more values costs about what they would: they are shown.
        let top = if ranked.len() <= top + 2 { ranked.len() } else { top };
        let listed: Vec<&str> = ranked.iter().take(top).map(|(v, _)| v.as_str()).collect();
        let shown: Vec<String> = shorten_together(&listed)
            .into_iter()
            .zip(&ranked)
            .map(|(v, (_, n))| format!("{} {}", quoted_if_ambiguous(&v), thousands(**n)))
            .collect();
        let more = ranked.len().saturating_sub(top);
        // Where three or more values are listed, the order is said: a reader asked which
        // value is the most common should not have to guess whether the list is ranked.
        let order = if shown.len() >= 3 { ", most first" } else { "" };
        let mut c = format!("{name}{order}: {}", shown.join(", "));
        if more > 0 || self.other > 0 {
            c.push_str(&format!(" (+{} more values)", thousands(more as u64 + u64::from(self.other > 0))));
        }
        Some(c)
    }
}

/// Facets over a stream of records.
pub(crate) struct Facets<'c> {
    compactor: &'c Compactor,
    accs: Vec<Acc>,
    records: u64,
    skipped: u64,
}

impl<'c> Facets<'c> {
    /// Facets of the compact view's fields worth them.
    pub(crate) fn new(compactor: &'c Compactor) -> Facets<'c> {
        // Counts the sample showed worth it first, then numbers, then counts of the other
        // fields (kept only where every record shows their values repeat), then times,
        // then numbers unique to each record (often ids): when the room runs out, the
        // facets a question most often needs are kept.
        let mut accs: Vec<Acc> = Vec::new();
        let columns = || compactor.columns.iter().enumerate().filter(|(i, _)| Some(*i) != compactor.key);
        for (i, c) in columns() {
            if c.holds == Holds::Categories {
                accs.push(Acc::Counts(Counter::new(i, true)));
            }
        }
        for (i, c) in columns() {
            if c.holds == Holds::Numbers && !c.unique {
                accs.push(Acc::Range { column: i, times: false, min: None, max: None, present: 0 });
            }
        }
        for (i, c) in columns() {
            if c.holds != Holds::Categories && c.countable() {
                accs.push(Acc::Counts(Counter::new(i, false)));
            }
        }
        accs.extend(compactor.spans.iter().map(|&span| Acc::Span { span, min: None, max: None }));
        for (i, c) in columns() {
            if c.holds == Holds::Times {
                accs.push(Acc::Range { column: i, times: true, min: None, max: None, present: 0 });
            }
        }
        for (i, c) in columns() {
            if c.holds == Holds::Numbers && c.unique {
                accs.push(Acc::Range { column: i, times: false, min: None, max: None, present: 0 });
            }
        }
        for (i, c) in columns() {
            if c.holds == Holds::Other {
                accs.push(Acc::Presence { column: i, present: 0 });
            }
        }
        Facets { compactor, accs, records: 0, skipped: 0 }
    }

    /// Whether anything is computed.
    pub(crate) fn is_empty(&self) -> bool {
        self.accs.is_empty()
    }

    /// Add one record (as it came, before compaction).
    pub(crate) fn add(&mut self, record: &Value) {
        if self.compactor.is_header(record) {
            return;
        }
        if self.records >= MAX_RECORDS {
            self.skipped += 1;
            return;
        }
        self.records += 1;
        // A positional row is read as an object once, not once per facet: every read below
        // finds an object and takes it as it is.
        let as_object = self.compactor.as_record(record);
        let record = &*as_object;
        let key = self.compactor.key.and_then(|k| self.compactor.full_value(k, record)).map(|v| scalar_text(&v));
        for acc in &mut self.accs {
            match acc {
                Acc::Presence { column, present } => {
                    *present += u64::from(self.compactor.value(*column, record).is_some_and(|v| !v.is_null()));
                }
                Acc::Span { span, min, max } => {
                    let time = |i| self.compactor.value(i, record).as_ref().and_then(timestamp_millis);
                    let (Some(start), Some(end)) = (time(span.start), time(span.end)) else { continue };
                    let d = end - start;
                    if d < 0 {
                        continue;
                    }
                    if min.as_ref().is_none_or(|m| d < m.0) {
                        *min = Some((d, key.clone().unwrap_or_default()));
                    }
                    if max.as_ref().is_none_or(|m| d > m.0) {
                        *max = Some((d, key.clone().unwrap_or_default()));
                    }
                }
                Acc::Counts(counter) => {
                    if let Some(v) = self.compactor.full_value(counter.column, record) {
                        counter.add(v, self.records);
                    }
                }
                Acc::Range { column, times, min, max, present } => {
                    let Some(v) = self.compactor.value(*column, record) else { continue };
                    *present += 1;
                    let x = if *times {
                        timestamp_millis(&v).map(|t| t as f64)
                    } else {
                        v.as_f64().or_else(|| {
                            v.as_str()
                                .and_then(|s| decimal_value(s).or_else(|| duration_millis(s)).or_else(|| quantity(s)))
                        })
                    };
                    let Some(x) = x else { continue };
                    let (lower, higher) = (min.as_ref().is_none_or(|m| x < m.0), max.as_ref().is_none_or(|m| x > m.0));
                    // Most records hold neither extreme: nothing to write for them.
                    if !(lower || higher) {
                        continue;
                    }
                    // A time written as a number is given in words too.
                    let shown = match (&v, *times) {
                        (Value::Number(_), true) => format!("{} ({})", scalar_text(&v), iso_time(x as i64)),
                        _ => scalar_text(&v),
                    };
                    let holder = key.clone().unwrap_or_default();
                    if lower {
                        *min = Some((x, shown.clone(), holder.clone()));
                    }
                    if higher {
                        *max = Some((x, shown, holder));
                    }
                }
            }
        }
    }

    /// The facets as clauses of a summary, at most `max_chars` in all (whole clauses),
    /// with a note of how many did not fit. Counts show their [`TOP`] values, or more
    /// where the room holds every clause anyway: the room a short phrase leaves is used
    /// for the values a question about a less frequent one needs.
    pub(crate) fn phrase(&self, max_chars: usize) -> Option<String> {
        let (base, shown) = self.phrase_with(max_chars, TOP)?;
        for top in [TOP * 3, TOP * 2] {
            if let Some((wider, n)) = self.phrase_with(max_chars, top)
                && n == shown
            {
                return Some(wider);
            }
        }
        Some(base)
    }

    /// The phrase with at most `top` values per count, and how many clauses it shows.
    fn phrase_with(&self, max_chars: usize, top: usize) -> Option<(String, usize)> {
        let key_name = self.compactor.key.and_then(|k| self.compactor.columns.get(k)).map(|c| c.name.as_str());
        let mut clauses: Vec<String> = Vec::new();
        // Whether each clause is of a field fewer than half the records have: said after
        // the others, which tell about most records.
        let mut sparse: Vec<bool> = Vec::new();
        // Fields that split the records the same way as one said before (a project, its
        // folder and its network): named with it, not counted again.
        let mut splits: Vec<(u64, usize)> = Vec::new();
        let mut spans_said: Vec<String> = Vec::new();
        // Columns whose values were counted: their presence goes without saying.
        let mut counted: Vec<usize> = Vec::new();
        let holder = |h: &str| match (key_name, h.is_empty()) {
            (Some(k), false) => format!(" ({k} {})", short_key(h)),
            _ => String::new(),
        };
        for acc in &self.accs {
            let clause = match acc {
                Acc::Counts(counter) => {
                    let name = &self.compactor.columns[counter.column].name;
                    let Some(c) = counter.clause(name, self.records, top) else {
                        continue;
                    };
                    counted.push(counter.column);
                    // Two values split nearly anything alike (a flag and its inverse).
                    let split = counter.split.filter(|_| counter.counts.len() >= 3);
                    if let Some(split) = split
                        && let Some((_, at)) = splits.iter().find(|(s, _)| *s == split)
                    {
                        let first: &mut String = &mut clauses[*at];
                        if !first.ends_with(')') || !first.contains(" (split alike: ") {
                            first.push_str(&format!(" (split alike: {name})"));
                        } else {
                            first.insert_str(first.len() - 1, &format!(", {name}"));
                        }
                        continue;
                    }
                    if let Some(split) = split {
                        splits.push((split, clauses.len()));
                    }
                    sparse.push(counter.present * 2 < self.records);
                    c
                }
                Acc::Span { span, min: Some(min), max: Some(max) } if max.0 > min.0 => {
                    let name = |i: usize| &self.compactor.columns[i].name;
                    let body = format!(
                        "max {}{}, min {}{}",
                        duration_text(max.0),
                        holder(&max.1),
                        duration_text(min.0),
                        holder(&min.1)
                    );
                    // Two fields written at nearly the same moment give the same span twice.
                    if spans_said.contains(&body) {
                        continue;
                    }
                    spans_said.push(body.clone());
                    sparse.push(false);
                    format!("{} − {}: {body}", name(span.end), name(span.start))
                }
                Acc::Span { .. } => continue,
                Acc::Presence { column, present }
                    if *present > 0 && *present * 2 < self.records && !counted.contains(column) =>
                {
                    sparse.push(true);
                    format!(
                        "{} ({} of {} records)",
                        self.compactor.columns[*column].name,
                        thousands(*present),
                        thousands(self.records)
                    )
                }
                Acc::Presence { .. } => continue,
                Acc::Range { column, times, min, max, present } => {
                    let (Some(min), Some(max)) = (min, max) else { continue };
                    if min.0 == max.0 {
                        continue;
                    }
                    let name = &self.compactor.columns[*column].name;
                    let (hi, lo) = if *times { ("latest", "earliest") } else { ("max", "min") };
                    let rare = *present * 2 < self.records;
                    sparse.push(rare);
                    // A field few records have is often the answer to "how many have it"
                    // (the requests that were cold starts, the runs that failed).
                    let held = if rare {
                        format!(" ({} of {} records)", thousands(*present), thousands(self.records))
                    } else {
                        String::new()
                    };
                    format!("{name}{held}: {hi} {}{}, {lo} {}{}", max.1, holder(&max.2), min.1, holder(&min.2))
                }
            };
            clauses.push(clause);
        }
        if clauses.is_empty() {
            return None;
        }
        let (mut clauses, rare): (Vec<String>, Vec<String>) = {
            let (common, rare): (Vec<_>, Vec<_>) = clauses.into_iter().zip(sparse).partition(|(_, rare)| !rare);
            (common.into_iter().map(|(c, _)| c).collect(), rare.into_iter().map(|(c, _)| c).collect())
        };
        clauses.extend(rare);
        let over = if self.skipped > 0 {
            format!(" (over the first {} records)", thousands(self.records))
        } else {
            String::new()
        };
        // The note of what did not fit is part of the phrase: its room is kept for it, so
        // the phrase stays within `max_chars` and a caller never drops it for running over.
        let whole: usize = clauses.iter().map(|c| c.len() + 2).sum::<usize>().saturating_sub(2);
        let note_room = format!("; {} more facets with a larger budget", clauses.len()).len();
        let limit =
            if whole + over.len() <= max_chars { max_chars } else { max_chars.saturating_sub(note_room + over.len()) };
        let mut out = String::new();
        let mut left = clauses.len();
        for c in &clauses {
            let sep = if out.is_empty() { 0 } else { 2 };
            if out.len() + sep + c.len() > limit {
                break;
            }
            if sep > 0 {
                out.push_str("; ");
            }
            out.push_str(c);
            left -= 1;
        }
        if left > 0 {
            out.push_str(&format!(
                "{}{} more facets with a larger budget",
                if out.is_empty() { "" } else { "; " },
                left
            ));
        }
        out.push_str(&over);
        Some((out, clauses.len() - left))
    }
}

/// A 64-bit mixing step (SplitMix64's finaliser): spreads a record's group over the hash.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A listed value as a summary shows it: quoted (JSON) where it holds what separates
/// clauses or values (`;`, `,`, a quote), is empty, or has spaces at an end, so that
/// `…Googlebot/2.1; +http://…` reads as one value and not as the end of a clause.
fn quoted_if_ambiguous(v: &str) -> String {
    let ambiguous = v.is_empty()
        || v.contains([';', ',', '"'])
        || v.starts_with(char::is_whitespace)
        || v.ends_with(char::is_whitespace);
    if ambiguous { Value::String(v.to_owned()).to_string() } else { v.to_owned() }
}

/// Milliseconds since 1970 as an RFC 3339 time in UTC, to the second.
fn iso_time(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms.div_euclid(1000) * 1000).map(|t| t.to_string()).unwrap_or_default()
}

/// A record's key for a summary: whole up to 80 characters, since it is what a reader
/// names the record by and looks it up with; a longer one is shortened as other values are.
fn short_key(s: &str) -> String {
    if s.chars().count() <= 80 { s.to_owned() } else { head_and_tail(s) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The facets phrase of `recs`, learned from the first `sample` of them.
    fn phrase_of(recs: &[Value], sample: usize, room: usize) -> Option<String> {
        let c = Compactor::learn(&recs[..sample]);
        let mut f = Facets::new(&c);
        recs.iter().for_each(|r| f.add(r));
        f.phrase(room)
    }

    fn records() -> Vec<Value> {
        (0..40)
            .map(|i| json!({"id": format!("ch_{i:03}"), "status": (["ok", "ok", "ok", "failed"][i % 4]), "amount": (i * 37) % 101, "created": format!("2025-12-{:02}T10:00:00Z", 1 + i % 28), "labels": [(["a", "b"][i % 2])]}))
            .collect()
    }

    #[test]
    fn counts_and_extremes_are_over_every_record() {
        let recs = records();
        let p = phrase_of(&recs, 10, 10_000).unwrap();
        assert!(p.contains("status: ok 30, failed 10"), "{p}");
        assert!(p.contains("labels: a 20, b 20"), "{p}");
        let (max, holder) = recs
            .iter()
            .map(|r| (r["amount"].as_u64().unwrap(), r["id"].as_str().unwrap()))
            .max_by_key(|(a, _)| *a)
            .unwrap();
        assert!(p.contains(&format!("amount: max {max} (id {holder})")), "{p}");
        assert!(p.contains("created: latest 2025-12-28T10:00:00Z"), "{p}");
    }

    #[test]
    fn the_phrase_keeps_whole_clauses_within_its_room() {
        let recs = records();
        let p = phrase_of(&recs, 10, 80).unwrap();
        assert!(p.starts_with("status: ok 30, failed 10; "), "{p}");
        assert!(p.ends_with("more facets with a larger budget"), "{p}");
        assert!(p.len() <= 80, "{} chars: {p}", p.len());
    }

    /// Regression: the note of facets left out was added after the room was filled, so a
    /// phrase ran past its room and the text maps that check their length dropped it whole
    /// at some budgets and showed it at smaller ones.
    #[test]
    fn a_larger_room_never_shows_fewer_facets_and_no_room_is_overrun() {
        let recs = records();
        let c = Compactor::learn(&recs[..10]);
        let mut f = Facets::new(&c);
        recs.iter().for_each(|r| f.add(r));
        let mut shown_before = 0;
        for room in 60..600 {
            let (p, shown) = f.phrase_with(room, TOP).expect("a phrase");
            assert!(p.len() <= room, "{} chars in a room of {room}: {p}", p.len());
            assert!(shown >= shown_before, "room {room} shows {shown} facets, a smaller one {shown_before}");
            shown_before = shown;
        }
        assert!(shown_before >= 4, "{shown_before}");
    }

    #[test]
    fn a_field_the_sample_spreads_out_is_counted_when_every_record_repeats_it() {
        // The first records each have their own location; over all of them, a few repeat.
        let recs: Vec<Value> = (0..60)
            .map(|i| {
                let location = if i < 8 { format!("Room {i}") } else { format!("Hall ({})", i % 3) };
                json!({"id": format!("ev{i:03}"), "location": location, "code": ([200, 201, 404][i % 3])})
            })
            .collect();
        let p = phrase_of(&recs, 8, 10_000).unwrap();
        let expected = recs.iter().filter(|r| r["location"] == "Hall (1)").count();
        assert!(p.contains(&format!("Hall (1) {expected}")), "{p}");
        // A number of few values gets its counts besides its range.
        assert!(p.contains("code, most first: 200 20, 201 20, 404 20"), "{p}");
    }

    #[test]
    fn long_values_keep_what_tells_them_apart_and_are_quoted_when_they_hold_separators() {
        let agents = [
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
            "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
        ];
        let recs: Vec<Value> =
            (0..60).map(|i| json!({"id": format!("r{i}"), "agent": agents[[0, 1, 2, 2][i % 4]]})).collect();
        let p = phrase_of(&recs, 10, 10_000).unwrap();
        let googlebot = p.split(", ").find(|entry| entry.contains("Googlebot")).unwrap_or_else(|| panic!("{p}"));
        assert!(googlebot.starts_with('"') && googlebot.ends_with("\" 15"), "{googlebot} in {p}");
        assert!(p.contains("bingbot"), "{p}");
    }

    #[test]
    fn values_that_never_repeat_get_no_counts() {
        let recs: Vec<Value> = (0..200)
            .map(|i| json!({"id": format!("r{i}"), "ref": format!("x-{}", i * 7919 % 1000), "kind": (["a", "b"][i % 2])}))
            .collect();
        let c = Compactor::learn(&recs[..10]);
        let mut f = Facets::new(&c);
        recs.iter().for_each(|r| f.add(r));
        let p = f.phrase(10_000).unwrap_or_default();
        assert!(!p.contains("ref:"), "{p}");
        for acc in &f.accs {
            if let Acc::Counts(counter) = acc
                && c.columns[counter.column].name == "ref"
            {
                assert!(counter.given_up && counter.counts.is_empty(), "an id's values are not kept");
            }
        }
    }

    #[test]
    fn money_written_as_text_has_a_largest() {
        let recs: Vec<Value> = (0..30)
            .map(|i| json!({"name": format!("#{}", 5100 + i), "total_price": format!("{}.{:02}", 10 + (i * 37) % 90, i), "status": (["paid", "pending"][i % 2])}))
            .collect();
        let c = Compactor::learn(&recs[..10]);
        assert_eq!(c.key.map(|k| c.columns[k].name.as_str()), Some("name"), "a price is not a key");
        let mut f = Facets::new(&c);
        recs.iter().for_each(|r| f.add(r));
        let p = f.phrase(10_000).unwrap();
        let top = recs
            .iter()
            .max_by(|a, b| {
                let price = |r: &Value| r["total_price"].as_str().unwrap().parse::<f64>().unwrap();
                price(a).total_cmp(&price(b))
            })
            .unwrap();
        let expected = format!(
            "total_price: max {} (name {})",
            top["total_price"].as_str().unwrap(),
            top["name"].as_str().unwrap()
        );
        assert!(p.contains(&expected), "{p}");
    }
    #[test]
    fn long_ids_are_counted_whole_and_keys_are_shown_whole() {
        // Resource ids share their first 60 characters: cut, they would all look alike.
        let prefix = "/subscriptions/0000-1111/resourceGroups/RG-PROD/providers/Microsoft.Compute/virtualMachines/";
        let recs: Vec<Value> = (0..80)
            .map(|i| json!({"id": format!("{prefix}vm-{i}"), "name": format!("Zhou Partners - Data Connectors ({i} seats)"), "size": (i * 13) % 97}))
            .collect();
        let c = Compactor::learn(&recs[..20]);
        let mut f = Facets::new(&c);
        recs.iter().for_each(|r| f.add(r));
        let p = f.phrase(10_000).unwrap();
        assert!(!p.contains("id: "), "unique ids are not counted: {p}");
        let max = recs.iter().max_by_key(|r| r["size"].as_u64()).unwrap();
        let key = &c.columns[c.key.unwrap()].name;
        assert!(
            p.contains(&format!("size: max {} ({key} {})", max["size"], max[key.as_str()].as_str().unwrap())),
            "{p}"
        );
    }

    #[test]
    fn fields_that_split_the_records_alike_are_said_once() {
        let project = |i: usize| ["shop", "shop", "ci", "analytics"][i % 4];
        let recs: Vec<Value> = (0..40)
            .map(|i| {
                json!({"id": format!("c{i}"), "project": project(i), "dir": format!("/srv/{}", project(i)),
                       // The same counts as `project` (20, 10, 10) but another split.
                       "tier": (if i < 20 { "a" } else if i < 30 { "b" } else { "c" })})
            })
            .collect();
        let p = phrase_of(&recs, recs.len(), 10_000).unwrap();
        assert!(p.contains("project, most first: shop 20, analytics 10, ci 10 (split alike: dir)"), "{p}");
        assert!(!p.contains("dir: "), "{p}");
        assert!(
            p.contains("tier, most first: a 20, b 10, c 10;") || p.ends_with("tier, most first: a 20, b 10, c 10"),
            "same counts, another split: {p}"
        );
    }

    #[test]
    fn counts_of_a_field_few_records_have_come_after_the_others() {
        let recs: Vec<Value> = (0..40)
            .map(|i| {
                let mut r = json!({"id": format!("c{i}"), "state": (["up", "down"][i % 2])});
                if i % 5 == 0 {
                    r["gateway"] = json!((["10.0.0.1", "10.0.0.2", "10.0.0.3"][i % 3]));
                }
                r
            })
            .collect();
        let p = phrase_of(&recs, 20, 10_000).unwrap();
        let (state, gateway) = (p.find("state: ").unwrap(), p.find("gateway, most first: ").unwrap());
        assert!(state < gateway, "{p}");
    }

    #[test]
    fn a_unix_time_is_given_in_words_too() {
        let recs: Vec<Value> =
            (0..20).map(|i| json!({"name": format!("c{i}"), "Created": 1_767_219_594u64 - i * 86_400})).collect();
        let p = phrase_of(&recs, recs.len(), 10_000).unwrap();
        assert!(p.contains("Created: latest 1767219594 (2025-12-31T22:19:54Z) (name c0)"), "{p}");
    }

    #[test]
    fn rows_under_a_header_row_are_counted_by_its_names() {
        let mut rows = vec![json!(["SKU", "Warehouse", "Stock Value"])];
        rows.extend((0..30).map(|i| {
            json!([
                format!("SKU-{i:03}"),
                (["Reno NV", "Columbus OH", "Reno NV"][i % 3]),
                format!("${},{:03}.50", 1 + i, i * 7)
            ])
        }));
        let c = Compactor::learn(&rows[..12]);
        let mut f = Facets::new(&c);
        rows.iter().for_each(|r| f.add(r));
        let p = f.phrase(10_000).unwrap();
        assert!(p.contains("Warehouse: Reno NV 20, Columbus OH 10"), "the header row is not a record: {p}");
        assert!(p.contains("Stock Value: max $30,203.50 (SKU SKU-029)"), "{p}");
    }

    #[test]
    fn the_time_between_two_fields_has_a_longest_and_a_shortest() {
        // Run 7 takes the longest, run 3 the shortest; only the first ten are the sample.
        let recs: Vec<Value> = (0..30)
            .map(|i| {
                let minutes = match i {
                    7 => 95,
                    3 => 1,
                    _ => 10 + i % 9,
                };
                json!({"run": format!("run-{i}"), "started": format!("2025-12-31T{:02}:00:00Z", i % 12), "ended": format!("2025-12-31T{:02}:{:02}:00Z", i % 12 + minutes / 60, minutes % 60)})
            })
            .collect();
        let p = phrase_of(&recs, 10, 10_000).unwrap();
        assert!(p.contains("ended − started: max 1 h 35 min (run run-7), min 1 min 0 s (run run-3)"), "{p}");
    }

    #[test]
    fn counts_show_more_values_where_the_room_holds_every_clause() {
        let recs: Vec<Value> =
            (0..60).map(|i| json!({"id": format!("p{i}"), "group": format!("group-{:02}", i % 12)})).collect();
        let c = Compactor::learn(&recs);
        let mut f = Facets::new(&c);
        recs.iter().for_each(|r| f.add(r));
        let wide = f.phrase(10_000).unwrap();
        assert!(wide.contains("group-11 5") && !wide.contains("more values"), "{wide}");
        let narrow = phrase_of(&recs, recs.len(), 120).unwrap();
        assert!(narrow.contains("(+6 more values)") && !narrow.contains("group-11"), "{narrow}");
    }

    #[test]
    fn spans_written_with_units_have_a_longest() {
        let recs: Vec<Value> = (0..20)
            .map(|i| json!({"job": format!("job-{i}"), "duration": if i == 13 { "1h2m".to_owned() } else { format!("{}m{}s", i % 5, i) }}))
            .collect();
        let p = phrase_of(&recs, 8, 10_000).unwrap();
        assert!(p.contains("duration: max 1h2m (job job-13), min 0m0s (job job-0)"), "{p}");
    }

    #[test]
    fn a_range_few_records_have_says_how_many_have_it() {
        let recs: Vec<Value> = (0..40)
            .map(|i| {
                let mut r = json!({"request": format!("r{i}"), "duration": 10 + i});
                if i % 8 == 0 {
                    r["init"] = json!(200 + i);
                }
                r
            })
            .collect();
        let p = phrase_of(&recs, recs.len(), 10_000).unwrap();
        assert!(p.contains("init (5 of 40 records): max 232 (request r32)"), "{p}");
        assert!(p.contains("duration: max 49"), "{p}");
    }
}
