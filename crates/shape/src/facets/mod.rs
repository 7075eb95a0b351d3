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

mod counter;
mod extremes;
mod facets_part;
mod part;
mod state_counts;
mod totals;
mod within;
mod written;

use serde_json::Value;

use self::counter::Counter;
use self::extremes::Extremes;
pub(crate) use self::facets_part::FacetsPart;
use self::part::Part;
use self::state_counts::StateCounts;
use self::totals::{MAX_GROUP_FIELDS, MAX_NUMBERS, Totals};
use self::within::{MAX_STATES, Within};
use self::written::{KEY_CHARS, LABEL_CHARS, iso_time, quoted_if_ambiguous, scalar_text, short_key};
use crate::aggregate::timestamp_millis;
use crate::compact::{
    Compactor, Holds, MAX_GROUPS, Span, decimal_value, duration_millis, duration_text, names_an_id, quantity,
};
use crate::numfmt::thousands;
use crate::words::name_words;

/// Distinct values counted per field; later new values are counted together.
pub(crate) const MAX_DISTINCT: usize = 1_000;
/// Records read for facets at most; past it the summary says over how many.
pub(crate) const MAX_RECORDS: u64 = 1_000_000;
/// Fields of few values followed as states for [`StateCounts`], at most: the first.
const MAX_STATE_CANDIDATES: usize = 4;
/// Values shown per counted field.
const TOP: usize = 6;
/// Records named beside a field few records hold, at most.
const MAX_NAMED: usize = 3;
/// Fields of links whose hosts and file types are counted, at most (the first).
const MAX_LINK_FIELDS: usize = 4;

/// One facet being computed.
enum Acc {
    Counts(Counter),
    Range {
        column: usize,
        /// What of the column's value is ranged.
        reading: Reading,
        times: bool,
        extremes: Extremes,
        /// Records that had a value.
        present: u64,
        /// Its extremes within each value of a few fields of few values ([`within`]).
        within: Vec<Within>,
    },
    /// The time between two fields of each record ([`Span`]): longest and shortest.
    Span {
        span: Span,
        min: Option<(i64, Holder)>,
        max: Option<(i64, Holder)>,
    },
    /// How many records have a field that is not otherwise counted (its values all
    /// differ): said when fewer than half do ("how many merge commits").
    Presence {
        column: usize,
        present: u64,
        /// The first records that hold it, named when they are few ([`MAX_NAMED`]).
        holders: Vec<Holder>,
    },
    /// A number's totals per value of a field of names ([`totals`]).
    Totals(Totals),
    /// A field's value counts within each value of a state ([`state_counts`]).
    StateCounts(StateCounts),
}

/// What a range reads of its column's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// The value itself: a number or a time.
    Value,
    /// The number at this place of a short list of numbers ([`crate::compact::Place`]).
    Place(usize),
    /// A field of numbers among words ([`crate::compact::Measure`]): only its extremes
    /// within each kind are said, the whole field's mixing kinds.
    Measure,
}

impl Acc {
    /// A range of `column` read as `reading`, with the extremes followed `within` states.
    fn range(column: usize, reading: Reading, times: bool, within: Vec<Within>) -> Acc {
        Acc::Range { column, reading, times, extremes: Extremes::default(), present: 0, within }
    }
}

/// Where a clause goes in the phrase, first first (the sort is stable: within each, the
/// order the facets were made in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Order {
    Common,
    Rare,
    Members,
    Patterns,
    Within,
    /// Value counts within a state's values ([`StateCounts`]): after the extremes within.
    StateCounts,
}

/// Facets over a stream of records.
pub(crate) struct Facets<'c> {
    compactor: &'c Compactor,
    accs: Vec<Acc>,
    records: u64,
    skipped: u64,
    /// The fields' values of the record being added ([`read`]).
    values: Vec<Option<Option<Value>>>,
}

impl<'c> Facets<'c> {
    /// Facets of the compact view's fields worth them.
    pub(crate) fn new(compactor: &'c Compactor) -> Facets<'c> {
        Facets::build(compactor, false)
    }

    /// Facets as [`Facets::new`] makes them, with the extremes of numbers and times within
    /// the values of the first fields of few values too ([`within`]): for a page of records,
    /// whose facets go on with `next`. A text's map has a fixed room shared with its other
    /// parts, where these would crowd out what says more.
    pub(crate) fn with_states(compactor: &'c Compactor) -> Facets<'c> {
        Facets::build(compactor, true)
    }

    fn build(compactor: &'c Compactor, within_states: bool) -> Facets<'c> {
        // Counts the sample showed worth it first, then numbers, then counts of the other
        // fields (kept only where every record shows their values repeat), then times,
        // then numbers named as ids and unique to each record (a unique number not named
        // as one, a deal's value, is a measure like the rest): when the room runs out, the
        // facets a question most often needs are kept.
        let mut accs: Vec<Acc> = Vec::new();
        // The fields of few values a number's or a time's extremes are also found within.
        let state_columns: Vec<usize> = compactor
            .columns
            .iter()
            .enumerate()
            .filter(|(i, c)| Some(*i) != compactor.key && c.holds == Holds::Categories && !c.unique)
            .map(|(i, _)| i)
            .take(if within_states { MAX_STATES } else { 0 })
            .collect();
        let states = |i: usize| state_columns.iter().filter(|&&s| s != i).map(|&s| Within::new(s)).collect::<Vec<_>>();
        // The key names each record and is not counted, unless its values repeat (a table's
        // rows named by their device, once in every report): then how often each comes is
        // worth a count too.
        let columns = || compactor.columns.iter().enumerate().filter(|(i, c)| Some(*i) != compactor.key || !c.unique);
        for (i, c) in columns() {
            if c.holds == Holds::Categories {
                accs.push(Acc::Counts(Counter::new(i, true)));
            }
        }
        // The kinds the records' names hold ([`part`]).
        if let Some(key) = compactor.key.filter(|&k| compactor.columns[k].holds == Holds::Other) {
            let within: Vec<(usize, &str)> = columns()
                .filter(|(_, c)| c.countable() && !c.unique)
                .take(part::MAX_WITHIN_FIELDS)
                .map(|(i, c)| (i, c.name.as_str()))
                .collect();
            // Folders are many, each holding few records: counts within each would be
            // noise, and would crowd out the folders themselves.
            let within_of = |p: Part| if p == Part::Folder { &[][..] } else { &within[..] };
            accs.extend(part::PARTS.iter().map(|&p| Acc::Counts(Counter::of_part(key, p, within_of(p)))));
        }
        // The hosts and file types of the links in fields of links: which site most
        // requests went to, how many scripts a page loaded.
        for (i, _) in columns().filter(|&(i, _)| compactor.holds_links(i)).take(MAX_LINK_FIELDS) {
            accs.extend(part::LINK_PARTS.iter().map(|&p| Acc::Counts(Counter::of_part(i, p, &[]))));
        }
        // A number's or a time's extremes (with those within each state).
        let range = |column: usize, times: bool| Acc::range(column, Reading::Value, times, states(column));
        for (i, c) in columns() {
            if c.holds == Holds::Numbers && (!c.unique || !names_an_id(&c.name)) {
                accs.push(range(i, false));
            }
        }
        // Numbers among words, within each of their kinds, beside the fields of numbers.
        accs.extend(
            compactor
                .measures
                .iter()
                .map(|m| Acc::range(m.column, Reading::Measure, false, vec![Within::of_values(m.by, MAX_GROUPS)])),
        );
        for (i, c) in columns() {
            if c.holds != Holds::Categories && c.countable() {
                accs.push(Acc::Counts(Counter::new(i, false)));
            }
        }
        // Each counted field's values within the values of a state, said after the rest:
        // every field of few values is followed, and the one whose uncommon values are
        // rarest is said ([`StateCounts::rarity`]).
        if within_states {
            let candidates: Vec<usize> = columns()
                .filter(|(_, c)| c.holds == Holds::Categories && !c.unique)
                .map(|(i, _)| i)
                .take(MAX_STATE_CANDIDATES)
                .collect();
            for &s in &candidates {
                let counted = columns()
                    .filter(|&(i, c)| i != s && !c.unique && (c.holds == Holds::Categories || c.countable()))
                    .map(|(i, _)| Acc::StateCounts(StateCounts::new(i, s)));
                accs.extend(counted.collect::<Vec<_>>());
            }
        }
        accs.extend(compactor.spans.iter().map(|&span| Acc::Span { span, min: None, max: None }));
        for (i, c) in columns() {
            if c.holds == Holds::Times {
                accs.push(range(i, true));
            }
        }
        for (i, c) in columns() {
            if c.holds == Holds::Numbers && c.unique && names_an_id(&c.name) {
                accs.push(range(i, false));
            }
        }
        // Each place of a short list of numbers (a point's depth), after the fields' own.
        accs.extend(compactor.places.iter().map(|p| Acc::range(p.column, Reading::Place(p.place), false, Vec::new())));
        for (i, c) in columns() {
            if c.holds == Holds::Other {
                accs.push(Acc::Presence { column: i, present: 0, holders: Vec::new() });
            }
        }
        // Numbers totalled per name, for a few fields of names that repeat. A number whose
        // name says it is an identifier (`customer_id`) has no meaningful sum.
        let groups: Vec<usize> = columns()
            .filter(|(_, c)| (c.holds == Holds::Categories || (c.holds == Holds::Other && c.countable())) && !c.unique)
            .map(|(i, _)| i)
            .take(MAX_GROUP_FIELDS)
            .collect();
        let numbers =
            columns().filter(|(_, c)| c.holds == Holds::Numbers && !c.unique && !names_an_id(&c.name)).map(|(i, _)| i);
        for n in numbers.take(MAX_NUMBERS) {
            accs.extend(groups.iter().filter(|&&g| g != n).map(|&g| Acc::Totals(Totals::new(g, n))));
        }
        // Members of objects the view collapsed to their names (a package's ecosystem):
        // counted, after the fields shown.
        let shown = compactor.columns.len();
        accs.extend((0..compactor.members.len()).map(|j| Acc::Counts(Counter::new(shown + j, true))));
        Facets { compactor, accs, records: 0, skipped: 0, values: Vec::new() }
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
        // The record's readable name, read only for a record that holds an extreme so far.
        let holder = || Holder {
            key: key.clone().unwrap_or_default(),
            label: self.compactor.label.and_then(|l| self.compactor.full_value(l, record)).map(|v| scalar_text(&v)),
        };
        // The key, where it may hold kinds ([`part`]): checked once for all its parts.
        let name = key.as_deref().filter(|k| part::reads_as_name(k));
        // Each field's whole value, read once for all the counts that need it (the buffer is
        // kept from record to record).
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        values.resize(self.compactor.columns.len() + self.compactor.members.len(), None);
        for acc in &mut self.accs {
            match acc {
                Acc::Presence { column, present, holders } => {
                    let held = self.compactor.value(*column, record).is_some_and(|v| !v.is_null());
                    *present += u64::from(held);
                    if held && holders.len() < MAX_NAMED {
                        holders.push(holder());
                    }
                }
                Acc::StateCounts(counts) => {
                    // Both read into the kept values first, then borrowed together: no copy
                    // of the state per record and field.
                    read(&mut values, self.compactor, counts.state, record);
                    read(&mut values, self.compactor, counts.column, record);
                    let kept = |i: usize| values.get(i).and_then(|v| v.as_ref()).and_then(Option::as_ref);
                    counts.add(kept(counts.state), kept(counts.column), self.records);
                }
                Acc::Totals(totals) => {
                    let Some(v) = read(&mut values, self.compactor, totals.number, record) else { continue };
                    // A sum of only the values written as plain numbers (a size `1.2G` among
                    // `512`) would be wrong: such a field is not totalled.
                    match v.as_f64().or_else(|| v.as_str().and_then(decimal_value)) {
                        Some(x) => totals.add(read(&mut values, self.compactor, totals.group, record), x),
                        None => totals.give_up(),
                    }
                }
                Acc::Span { span, min, max } => {
                    let time = |i| self.compactor.value(i, record).as_ref().and_then(timestamp_millis);
                    let (Some(start), Some(end)) = (time(span.start), time(span.end)) else { continue };
                    let d = end - start;
                    if d < 0 {
                        continue;
                    }
                    if min.as_ref().is_none_or(|m| d < m.0) {
                        *min = Some((d, holder()));
                    }
                    if max.as_ref().is_none_or(|m| d > m.0) {
                        *max = Some((d, holder()));
                    }
                }
                Acc::Counts(counter) => {
                    let Some(part) = counter.part else {
                        let Some(v) = read(&mut values, self.compactor, counter.column, record) else { continue };
                        counter.add(v, self.records);
                        continue;
                    };
                    if part.of_links() {
                        let Some(link) = read(&mut values, self.compactor, counter.column, record) else { continue };
                        if let Some(kind) = link.as_str().and_then(|l| part.of(l)) {
                            counter.add_text(kind, self.records);
                        }
                        continue;
                    }
                    // Parts of names are of the key, read above.
                    let Some(kind) = name.and_then(|name| part.of(name)) else { continue };
                    // A part every record holds differently is given up: not broken down.
                    if !counter.given_up {
                        for within in &mut counter.within {
                            if let Some(value) = read(&mut values, self.compactor, within.column, record) {
                                within.add(kind, value);
                            }
                        }
                    }
                    counter.add_text(kind, self.records);
                }
                Acc::Range { column, reading: Reading::Place(place), extremes, present, .. } => {
                    let Some(number) = self.compactor.value(*column, record).and_then(|v| v.get(*place).cloned())
                    else {
                        continue;
                    };
                    let Some(x) = number.as_f64() else { continue };
                    *present += 1;
                    extremes.add(x, || scalar_text(&number), holder);
                }
                Acc::Range { column, times, extremes, present, within, .. } => {
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
                    // A time written as a number is given in words too.
                    let shown = || match (&v, *times) {
                        (Value::Number(_), true) => format!("{} ({})", scalar_text(&v), iso_time(x as i64)),
                        _ => scalar_text(&v),
                    };
                    for w in within.iter_mut() {
                        let state = read(&mut values, self.compactor, w.column, record);
                        w.add(state, x, shown, holder);
                    }
                    extremes.add(x, shown, holder);
                }
            }
        }
        self.values = values;
    }

    /// The facets as clauses of a summary, at most `max_chars` in all (whole clauses),
    /// with a note of how many did not fit. Counts show their [`TOP`] values, or more
    /// where the room holds every clause anyway: the room a short phrase leaves is used
    /// for the values a question about a less frequent one needs.
    pub(crate) fn phrase(&self, max_chars: usize) -> Option<String> {
        Some(self.phrase_from(0, max_chars)?.with_note("a larger budget"))
    }

    /// The facets from the `skip`-th clause on (those an earlier page did not hold), at most
    /// `max_chars` with room kept for a note of what is left, which the caller writes: a
    /// page of records says the rest come with `next`, a text says a larger budget shows them.
    pub(crate) fn phrase_from(&self, skip: usize, max_chars: usize) -> Option<FacetsPart> {
        let base = self.phrase_with(max_chars, TOP, skip)?;
        for top in [TOP * 3, TOP * 2] {
            if let Some(wider) = self.phrase_with(max_chars, top, skip)
                && wider.shown == base.shown
            {
                return Some(wider);
            }
        }
        Some(base)
    }

    /// The phrase of the clauses from the `skip`-th on, with at most `top` values per count.
    fn phrase_with(&self, max_chars: usize, top: usize, skip: usize) -> Option<FacetsPart> {
        let key_name = self.compactor.key.and_then(|k| self.compactor.columns.get(k)).map(|c| c.name.as_str());
        // The label is named by its own last step (`Name`, `title`): its path is in the view.
        let label_name = self
            .compactor
            .label
            .and_then(|l| self.compactor.columns.get(l))
            .map(|c| c.name.rsplit('.').next().unwrap_or(&c.name));
        let mut clauses: Vec<String> = Vec::new();
        // Where each clause goes: first those of fields most records have, then those of
        // fields fewer than half have, then those of members the view does not show, then
        // counts by pattern ([`Counter::by_pattern`]), which tell less than any value does.
        let mut sparse: Vec<Order> = Vec::new();
        // Fields that split the records the same way as one said before (a project, its
        // folder and its network): named with it, not counted again.
        let mut splits: Vec<Alike> = Vec::new();
        let mut spans_said: Vec<String> = Vec::new();
        // Which records lacked a field said so far, by hash ([`Counter::holders`]).
        let mut withouts_said: Vec<u64> = Vec::new();
        // Columns whose values were counted: their presence goes without saying.
        let mut counted: Vec<usize> = Vec::new();
        let mut parts_said = 0;
        // A record as its key (and label) name it: `number 206246, title …`, or nothing.
        let named = |h: &Holder| match (key_name, h.key.is_empty()) {
            (Some(k), false) => match (label_name, &h.label) {
                (Some(l), Some(label)) if !label.is_empty() => {
                    format!("{k} {}, {l} {}", short_key(&h.key, KEY_CHARS), short_key(label, LABEL_CHARS))
                }
                _ => format!("{k} {}", short_key(&h.key, KEY_CHARS)),
            },
            _ => String::new(),
        };
        // The same in brackets after a value: ` (number 206246, …)`.
        let holder = |h: &Holder| {
            let n = named(h);
            if n.is_empty() { n } else { format!(" ({n})") }
        };
        // Of a number's totals, those by the first field of names whose names repeat: the
        // records' first field of names is most often what they are about.
        let column_names: Vec<String> = self.compactor.columns.iter().map(|c| c.name.clone()).collect();
        let mut best_totals: Vec<(usize, usize)> = Vec::new();
        for acc in &self.accs {
            if let Acc::Totals(t) = acc
                && t.repeating_names() > 0
                && !best_totals.iter().any(|b| b.0 == t.number)
            {
                best_totals.push((t.number, t.group));
            }
        }
        let state = self
            .accs
            .iter()
            .filter_map(|a| match a {
                Acc::StateCounts(c) => c.rarity(self.records).map(|r| (c.state, r)),
                _ => None,
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(state, _)| state);
        for acc in &self.accs {
            let clause = match acc {
                Acc::Totals(t) if best_totals.contains(&(t.number, t.group)) => {
                    let name = |i: usize| self.compactor.column_at(i).map_or("", |c| c.name.as_str());
                    let Some(clause) = t.clause(name(t.number), name(t.group)) else { continue };
                    sparse.push(Order::Within);
                    clause
                }
                Acc::Totals(_) => continue,
                Acc::StateCounts(counts) if Some(counts.state) == state => {
                    let name = |i: usize| self.compactor.column_at(i).map_or("", |c| c.name.as_str());
                    for clause in counts.clauses(name(counts.column), name(counts.state), self.records, TOP) {
                        clauses.push(clause);
                        sparse.push(Order::StateCounts);
                    }
                    continue;
                }
                Acc::StateCounts(_) => continue,
                Acc::Counts(counter) => {
                    let Some(field) = self.compactor.column_at(counter.column).map(|c| &c.name) else { continue };
                    let name = match counter.part {
                        Some(part) if part.of_links() && counter.held_by_most(self.records) => part.label(field),
                        Some(part) if parts_said < part::MAX_SAID && counter.sorts(self.records) => part.label(field),
                        Some(_) => continue,
                        None => field.clone(),
                    };
                    let top = if counter.part.is_none() && counter.tags_kinds(field, &column_names) {
                        top.max(counter::TAG_VALUES)
                    } else if counter.part == Some(Part::Folder) {
                        // "Which folder has the most" needs the first few; the rest of the
                        // room tells more elsewhere.
                        TOP
                    } else {
                        top
                    };
                    let Some((c, by_pattern)) = counter.clause(&name, self.records, top) else {
                        continue;
                    };
                    let without = counter.without_note(&name, self.records, &mut withouts_said);
                    match counter.part {
                        Some(part) if part.of_links() => {}
                        Some(_) => parts_said += 1,
                        None => counted.push(counter.column),
                    }
                    // Two values split nearly anything alike (a flag and its inverse).
                    let split = counter.split.filter(|_| counter.counts.len() >= 3);
                    let member = counter.column >= self.compactor.columns.len();
                    // A member the view does not show that splits the records as a field
                    // said before (the user's id beside `user.login`) tells nothing more.
                    // Whether its values are names matters only to a field that splits the
                    // records (reading every counted value costs, on every first read).
                    let words = split.is_some() && counter.reads_as_words();
                    if member
                        && split.is_some_and(|split| splits.iter().any(|a| a.split == split && (a.words || !words)))
                    {
                        continue;
                    }
                    if let Some(split) = split
                        && let Some(alike) = splits.iter_mut().find(|a| a.split == split)
                    {
                        // The values a reader asks about are names, not ids: a list's name is
                        // counted, with its id said alike, whichever came first.
                        if words && !alike.words {
                            let shown = std::mem::replace(&mut alike.name, name);
                            alike.others.insert(0, shown);
                            alike.base = c;
                            alike.words = true;
                            alike.counter = counter;
                            alike.without = without;
                        } else {
                            // A code and a name for one split (a country's `GB` and `United
                            // Kingdom`): the first's values are written with the second's.
                            if words
                                && alike.words
                                && !alike.beside
                                && counter.holds_codes() != alike.counter.holds_codes()
                                && name_the_same_thing(&name, &alike.name)
                            {
                                let names = counter.names_by_first_record();
                                if let Some((base, _)) = names.as_ref().and_then(|names| {
                                    alike.counter.clause_beside(&alike.name, self.records, top, Some(names))
                                }) {
                                    alike.base = base;
                                    alike.beside = true;
                                }
                            }
                            alike.others.push(name);
                        }
                        clauses[alike.at] = alike.clause();
                        continue;
                    }
                    if let Some(split) = split {
                        splits.push(Alike {
                            split,
                            at: clauses.len(),
                            name,
                            base: c.clone(),
                            words,
                            counter,
                            beside: false,
                            others: Vec::new(),
                            without: without.clone(),
                        });
                    }
                    sparse.push(match (by_pattern, member, counter.present * 2 < self.records) {
                        (true, _, _) => Order::Patterns,
                        (false, true, _) => Order::Members,
                        (false, false, true) => Order::Rare,
                        (false, false, false) => Order::Common,
                    });
                    format!("{c}{without}")
                }
                Acc::Span { span, min: Some(min), max: Some(max) } if max.0 > min.0 => {
                    let name = |i: usize| self.compactor.column_at(i).map_or("", |c| c.name.as_str());
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
                    sparse.push(Order::Common);
                    format!("{} − {}: {body}", name(span.end), name(span.start))
                }
                Acc::Span { .. } => continue,
                Acc::Presence { column, present, holders }
                    if *present > 0 && *present * 2 < self.records && !counted.contains(column) =>
                {
                    sparse.push(Order::Rare);
                    // The few records that hold it are named: "which job failed" is then
                    // answered where the count is.
                    let names: Vec<String> = if *present as usize <= MAX_NAMED {
                        holders.iter().map(named).filter(|n| !n.is_empty()).collect()
                    } else {
                        Vec::new()
                    };
                    let of = format!("{} of {} records", thousands(*present), thousands(self.records));
                    let field = self.compactor.column_at(*column).map_or("", |c| c.name.as_str());
                    if names.is_empty() {
                        format!("{field} ({of})")
                    } else {
                        format!("{field} ({of}: {})", names.join("; "))
                    }
                }
                Acc::Presence { .. } => continue,
                Acc::Range { column, reading, times, extremes, present, within } => {
                    let Some((min, max)) = extremes.spread() else { continue };
                    let field = self.compactor.column_at(*column).map_or("", |c| c.name.as_str());
                    let name = match reading {
                        Reading::Place(p) => format!("{field}[{p}]"),
                        Reading::Value | Reading::Measure => field.to_owned(),
                    };
                    let measure = *reading == Reading::Measure;
                    let name = name.as_str();
                    let (hi, lo) = if *times { ("latest", "earliest") } else { ("max", "min") };
                    for w in within {
                        let state = self.compactor.column_at(w.column).map_or("", |c| c.name.as_str());
                        for clause in w.clauses(name, state, (hi, lo), *present, holder) {
                            clauses.push(clause);
                            // A measure's kinds are all there is to say of it.
                            sparse.push(if measure { Order::Common } else { Order::Within });
                        }
                    }
                    if measure {
                        continue;
                    }
                    let rare = *present * 2 < self.records;
                    sparse.push(if rare { Order::Rare } else { Order::Common });
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
        if clauses.len() <= skip {
            return None;
        }
        let clauses: Vec<String> = {
            let mut ordered: Vec<(String, Order)> = clauses.into_iter().zip(sparse).collect();
            ordered.sort_by_key(|(_, order)| *order);
            ordered.into_iter().skip(skip).map(|(c, _)| c).collect()
        };
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
        let mut text = String::new();
        let mut left = clauses.len();
        for c in &clauses {
            let sep = if text.is_empty() { 0 } else { 2 };
            if text.len() + sep + c.len() > limit {
                break;
            }
            if sep > 0 {
                text.push_str("; ");
            }
            text.push_str(c);
            left -= 1;
        }
        // A page that goes on from an earlier one moves on even when its first clause is
        // larger than its room: that clause is shown cut, marked, rather than offered again
        // and again.
        if skip > 0
            && left == clauses.len()
            && let Some(first) = clauses.first()
        {
            let mut end = limit.saturating_sub(CUT_MARK.len()).min(first.len());
            while !first.is_char_boundary(end) {
                end -= 1;
            }
            text = format!("{}{CUT_MARK}", &first[..end]);
            left -= 1;
        }
        Some(FacetsPart { text, shown: clauses.len() - left, next: skip + clauses.len() - left, left, over })
    }
}

/// The record holding an extreme: its key, and its readable name where the key names it
/// only to a machine ([`Compactor::label`]).
#[derive(Debug, Clone, Default)]
struct Holder {
    key: String,
    label: Option<String>,
}

/// Fields that split the records alike, said in one clause.
struct Alike<'a> {
    /// The split's hash.
    split: u64,
    /// Where the clause sits among the clauses.
    at: usize,
    /// The field whose values are counted, and its clause.
    name: String,
    base: String,
    /// Whether its values read as words (names) rather than ids.
    words: bool,
    /// The counts of that field.
    counter: &'a Counter,
    /// Whether the clause writes each value with another field's name for it.
    beside: bool,
    /// The other fields, named after it.
    others: Vec<String>,
    /// The count of records holding none of its values ([`Counter::without_note`]).
    without: String,
}

impl Alike<'_> {
    fn clause(&self) -> String {
        if self.others.is_empty() {
            format!("{}{}", self.base, self.without)
        } else {
            format!("{} (split alike: {}){}", self.base, self.others.join(", "), self.without)
        }
    }
}

/// What ends a clause cut to its page's room.
const CUT_MARK: &str = " …";

/// The whole value of column `i` of `record`, read on first use and kept in `values`.
fn read<'v>(
    values: &'v mut [Option<Option<Value>>],
    compactor: &Compactor,
    i: usize,
    record: &Value,
) -> Option<&'v Value> {
    values.get_mut(i)?.get_or_insert_with(|| compactor.full_value(i, record)).as_ref()
}

/// Whether two fields' names say they hold the same thing written two ways: the same
/// words but for the last (`country_code`, `country_name`; `region.slug`, `region.name`;
/// `countryCode`, `countryName`).
fn name_the_same_thing(a: &str, b: &str) -> bool {
    let (a, b) = (name_words(a), name_words(b));
    a.len() == b.len() && a.len() >= 2 && a[..a.len() - 1] == b[..b.len() - 1]
}

/// A 64-bit mixing step (SplitMix64's finaliser): spreads a record's group over the hash.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod id_totals_tests;
#[cfg(test)]
mod link_tests;
#[cfg(test)]
mod listed_tests;
#[cfg(test)]
mod sparse_map_tests;
#[cfg(test)]
mod tag_tests;
#[cfg(test)]
mod tests;
