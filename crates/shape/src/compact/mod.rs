//! Compact records: what a model needs to see of each record first, learned from the
//! records themselves.
//!
//! A sample of the records (the first [`SAMPLE_RECORDS`], at most [`SAMPLE_BYTES`]) is
//! measured field by field ([`stats`]), and each field gets a rule from what its values
//! look like, never from its name:
//!
//! - always null or empty: left out;
//! - the same in every record: left out of the records and said once;
//! - a link or a resource path made of the record's other values (`…/issues/{number}`,
//!   `…/resourceGroups/{group}/…/virtualMachines/{name}`), or a link to an image: left out; so is a link carrying a long random token (a proxied thumbnail, a
//!   signed download) when the record keeps a readable link of its own;
//! - a second random-looking id of a record that already has one (`node_id` next to `id`,
//!   a UUID next to a name; of two, the one the other is built from is kept): left out;
//! - a value in a type tag (`{"S": "PAID"}`, `{"$oid": …}`): the value, under the field's
//!   name; a list that always holds one value: that value;
//! - the same value as an earlier field in every record: left out;
//! - an object that recurs across records (a user, a status, a project): collapsed to the
//!   member that names it (`user.login`, `status.name`), chosen as the member whose values
//!   go one to one with the object's and read most like a name; the rest is left out as
//!   `user.*`, and the members whose values repeat are kept for facets alone
//!   ([`Compactor::members`]);
//! - an object of its own per record: its members become fields (`metadata.name`);
//! - a list holding one object: that object's members; a list of `{key, value}` pairs: an
//!   object; a list of objects: the names of its items; a list too long to read at once:
//!   its first items and a count;
//! - free text: its first characters and a marker; a long random-looking string: its
//!   start and a marker, unless words in it make it a path or a name.
//!
//! Null and empty values are left out of each record too. Everything left out is listed
//! ([`Compactor::dropped`]) and comes back with the full records.

mod key;
pub(crate) use key::numbers_name_records;
mod beyond;
pub(crate) use beyond::Beyond;
mod constants;
mod extract;
use self::extract::{Extract, Step};
mod label;
mod links;
mod looks;
mod measures;
mod member;
mod pairs;
mod paths;
mod quantity;
mod read;
mod rows;
mod scope;
mod second_ids;
mod series;
mod spans;
mod stats;
mod template;
mod tuples;

use std::borrow::Cow;

use serde_json::{Map, Value};

#[cfg(test)]
use self::key::holds_opaque_part;
pub(crate) use self::measures::{MAX_GROUPS, Measure};
pub(crate) use self::quantity::quantity;
use self::read::at_path;
#[cfg(test)]
use self::read::cut_text;
pub(crate) use self::spans::{Span, duration_text};
use self::stats::Node;
pub(crate) use self::stats::{decimal_value, duration_millis, is_opaque, is_url};
pub(crate) use self::tuples::Place;

/// Records the fields are learned from, at most.
pub(crate) const SAMPLE_RECORDS: usize = 200;
/// Bytes of records the fields are learned from, at most.
pub(crate) const SAMPLE_BYTES: usize = 2 << 20;
/// Free text longer than this many characters is cut.
const TEXT_CHARS: usize = 120;
/// A random-looking string longer than this is cut.
const OPAQUE_CHARS: usize = 40;
/// The most characters the values said once take in a summary.
pub(super) const CONSTANTS_CHARS: usize = 240;
/// A list longer than this keeps its first items and a count.
const LONG_LIST: usize = 12;
/// Items a long list keeps.
const LIST_HEAD: usize = 3;

/// How a value too long to show whole is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cut {
    /// Free text, to [`TEXT_CHARS`] at a word boundary.
    Text,
    /// A random-looking string, to half of [`OPAQUE_CHARS`].
    Opaque,
}

impl Cut {
    /// How the values `node` describes are cut: as text when they are long or spaced
    /// prose, as random strings when nearly all are long random-looking strings without
    /// words; `None` when they are shown whole.
    pub(crate) fn of(node: &stats::Node) -> Option<Cut> {
        if node.long_text * 4 >= node.present || (node.spaced * 2 >= node.present && node.avg_bytes() > TEXT_CHARS + 2)
        {
            return Some(Cut::Text);
        }
        let random = node.opaque * 10 >= node.present * 9 && node.worded * 2 < node.opaque;
        (random && node.avg_bytes() > OPAQUE_CHARS + 2).then_some(Cut::Opaque)
    }
}

/// What a field holds, for facets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holds {
    /// Few distinct values (or lists of them): worth counting.
    Categories,
    /// Numbers.
    Numbers,
    /// Timestamps.
    Times,
    /// Anything else.
    Other,
}

/// One field of the compact records.
#[derive(Debug, Clone)]
pub(crate) struct Column {
    /// The name it is shown under (`user.login`).
    pub(crate) name: String,
    path: Vec<Step>,
    extract: Extract,
    pub(crate) holds: Holds,
    /// Unique in every record of the sample.
    pub(crate) unique: bool,
    /// Where the path's members were found last (see [`member`]).
    hints: member::Hints,
    /// Shown whole though its values are random-looking strings the view otherwise cuts:
    /// the one id a record keeps ([`Compactor::drop_second_ids`]).
    whole: bool,
}

impl Column {
    /// The field path a mask's `project` writes for this column (`user.login`,
    /// `Instances[0].InstanceId`, `labels[].name`), keys quoted where they need it.
    pub(crate) fn projection(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            match step {
                Step::First => out.push_str("[0]"),
                Step::Place(i) => out.push_str(&format!("[{i}]")),
                Step::Key(k) | Step::Tag(k) => crate::path::push_key(&mut out, k),
            }
        }
        if let Extract::Names(child) | Extract::Total(child) = &self.extract {
            out.push_str(&format!("[].{child}"));
        }
        out
    }

    /// Whether the column is one name's value in a list of `{key, value}` items: its
    /// projection is the whole list, which its sibling columns share.
    pub(crate) fn is_pair_value(&self) -> bool {
        matches!(self.extract, Extract::PairValue { .. })
    }

    /// Whether the column holds free text the compact view cuts.
    pub(crate) fn is_text(&self) -> bool {
        matches!(self.extract, Extract::Text)
    }

    /// Whether the column holds random-looking strings the compact view cuts.
    pub(crate) fn is_opaque(&self) -> bool {
        matches!(self.extract, Extract::Opaque)
    }

    /// Whether its values can be counted: a scalar (or a list of names), not free text, a
    /// timestamp or a list cut to its head.
    pub(crate) fn countable(&self) -> bool {
        matches!(self.extract, Extract::Value | Extract::Opaque | Extract::Names(_) | Extract::PairValue { .. })
            && self.holds != Holds::Times
    }
}

/// The learned rules for one result's records.
#[derive(Debug, Clone, Default)]
pub(crate) struct Compactor {
    pub(crate) columns: Vec<Column>,
    /// Fields left out of every record, as paths (`*.url` when left out everywhere).
    pub(crate) dropped: Vec<String>,
    /// Fields with one value in every record of the sample that has them: said once,
    /// unless a later record holds another ([`Compactor::demote_constants`]).
    pub(crate) constants: Vec<(String, Value)>,
    /// The constants' columns, in the same order, to read later records' values with.
    constant_columns: Vec<Column>,
    /// The names of the records' own members that hold a value in the sample, sorted: a
    /// later record's member not among them is a field the sample did not teach
    /// ([`Beyond`]).
    sample_keys: Vec<String>,
    /// How many of the last columns were added for fields only later records hold; the
    /// sample has no value of theirs ([`Beyond`]).
    pub(crate) late_columns: usize,
    /// The column that names a record (unique, short), if any.
    pub(crate) key: Option<usize>,
    /// A column of readable names said beside a key that names records only to a machine.
    pub(crate) label: Option<usize>,
    /// Members that wrap the values of several fields, each alone in its object: type tags.
    tags: Vec<String>,
    /// The names of positional rows' values, from their header row ([`rows`]).
    header: Option<Vec<String>>,
    /// Pairs of time fields whose difference is worth a facet ([`spans`]).
    pub(crate) spans: Vec<Span>,
    /// Places of short lists of numbers worth extremes of their own ([`tuples`]).
    pub(crate) places: Vec<Place>,
    /// Fields of numbers among words, with the field that tells their kinds ([`measures`]).
    pub(crate) measures: Vec<Measure>,
    /// Columns of links, each with whether its links carry a long random token ([`links`]).
    links: Vec<(String, bool)>,
    /// Long random-looking columns with words in their values ([`paths`]).
    worded: Vec<String>,
    /// The other members of objects collapsed to their name (a package's `ecosystem`
    /// beside its `name`): never shown, but counted by facets where their values repeat,
    /// numbered after [`Compactor::columns`] ([`Compactor::column_at`]).
    pub(crate) members: Vec<Column>,
}

impl Compactor {
    /// Learn the rules from a sample of records (objects; anything else is kept as is).
    pub(crate) fn learn(sample: &[Value]) -> Compactor {
        if let Some(header) = rows::header(sample) {
            let records: Vec<Value> =
                sample[1..].iter().filter_map(Value::as_array).map(|r| rows::record(&header, r)).collect();
            let mut c = Compactor::learn(&records);
            if c.is_active() {
                c.header = Some(header);
            }
            return c;
        }
        let objects = sample.iter().filter(|v| v.is_object()).count();
        if sample.len() < 2 || objects * 10 < sample.len() * 9 {
            return Compactor::default();
        }
        let root = stats::learn(sample);
        // A member always null or empty in the sample is not known: a later value of it is
        // a field the sample did not teach.
        let mut sample_keys: Vec<String> =
            root.children.iter().filter(|(_, n)| n.present > 0).map(|(k, _)| k.clone()).collect();
        sample_keys.sort_unstable();
        let mut c = Compactor { tags: stats::wrapper_tags(&root), sample_keys, ..Compactor::default() };
        let mut opaque_keys: Vec<String> = Vec::new();
        c.object(&root, &[], "", sample.len(), &mut opaque_keys);
        c.read_lists_as_maps(sample);
        c.split_tuples(sample, &mut opaque_keys);
        c.read_series(sample);
        c.drop_duplicates(sample);
        c.drop_second_ids(&opaque_keys, sample);
        c.drop_token_links();
        c.settle_worded(sample);
        c.key = c.pick_key(sample);
        c.label = c.pick_label(sample);
        c.dropped = c.group_dropped();
        c.spans = spans::between_times(&c, sample);
        c.places = tuples::places(&c, sample);
        c.measures = measures::measures(&c, sample);
        c
    }

    /// Left-out paths; a key left out in several places and kept nowhere is written once,
    /// as `*.key`.
    fn group_dropped(&self) -> Vec<String> {
        let last = |p: &str| p.rsplit('.').next().unwrap_or(p).to_owned();
        let mut out: Vec<String> = Vec::new();
        for p in &self.dropped {
            let key = last(p);
            // `user.*` and `assignee.*` are two objects' other members, not one key.
            let everywhere = key != "*"
                && self.dropped.iter().filter(|q| last(q) == key).count() > 1
                && !self.columns.iter().any(|c| last(&c.name) == key);
            let entry = if everywhere { format!("*.{key}") } else { p.clone() };
            if !out.contains(&entry) {
                out.push(entry);
            }
        }
        out
    }

    /// Whether there is anything to compact with.
    pub(crate) fn is_active(&self) -> bool {
        !self.columns.is_empty()
    }

    fn object(&mut self, node: &Node, path: &[Step], prefix: &str, n: usize, opaque_keys: &mut Vec<String>) {
        for (key, child) in &node.children {
            let name = format!("{prefix}{key}");
            let mut p = path.to_vec();
            p.push(Step::Key(key.clone()));
            self.field(child, p, name, n, opaque_keys);
        }
    }

    fn field(&mut self, node: &Node, path: Vec<Step>, name: String, n: usize, opaque_keys: &mut Vec<String>) {
        if node.present == 0 {
            self.dropped.push(name);
            return;
        }
        let column = |extract: Extract, holds: Holds, unique: bool| Column {
            name: name.clone(),
            path: path.clone(),
            extract,
            holds,
            unique,
            hints: member::Hints::default(),
            whole: false,
        };
        // A value wrapped in an object of one member that wraps other fields' values too (a
        // type tag: `{"S": "PAID"}`, `{"$oid": "…"}`, `{"stringValue": "…"}`): the value,
        // under the field's own name.
        if node.objects * 10 >= node.present * 9
            && let [(tag, inner)] = node.children.as_slice()
            && inner.present * 10 >= node.present * 9
            && self.tags.contains(tag)
        {
            let mut p = path;
            p.push(Step::Tag(tag.clone()));
            return self.field(inner, p, name, n, opaque_keys);
        }
        // One value wherever the field is there (in at least half the records): said once.
        if node.distinct() == 1 && !node.many && node.present >= 3 && node.present * 2 >= n {
            self.columns.push(column(Extract::Value, Holds::Other, false));
            self.constants.push((name, Value::Null));
            return;
        }
        if node.objects * 10 >= node.present * 9 {
            if recurs(node)
                && let Some(id) = naming_member(node)
            {
                self.collapsed_members(node, &path, &name, &id, n);
                let mut p = path.clone();
                p.push(Step::Key(id.clone()));
                let holds = holds(node.child(&id).unwrap_or(node), n);
                self.columns.push(Column {
                    name: format!("{name}.{id}"),
                    path: p,
                    extract: Extract::Value,
                    holds,
                    unique: false,
                    hints: member::Hints::default(),
                    whole: false,
                });
                if let Some(title) = title_member(node, &id) {
                    let mut p = path.clone();
                    p.push(Step::Key(title.clone()));
                    self.columns.push(Column {
                        name: format!("{name}.{title}"),
                        path: p,
                        extract: Extract::Value,
                        holds: Holds::Other,
                        unique: false,
                        hints: member::Hints::default(),
                        whole: false,
                    });
                }
                return;
            }
            self.object(node, &path, &format!("{name}."), n, opaque_keys);
            return;
        }
        if node.arrays * 10 >= node.present * 9 {
            let Some(el) = node.elements.as_deref().filter(|e| e.present > 0) else {
                self.dropped.push(name);
                return;
            };
            if el.objects * 10 >= el.present * 9 {
                if node.max_len <= 1 {
                    let mut p = path;
                    p.push(Step::First);
                    return self.field(el, p, name, n, opaque_keys);
                }
                // A list that is a map becomes one in `read_lists_as_maps`, from the sample.
                if let Some(id) = naming_member(el) {
                    if el.child(&id).is_some_and(|c| counts_something(c, &id)) {
                        let total = Column {
                            name: format!("{name}.{id}"),
                            ..column(Extract::Total(id), Holds::Numbers, false)
                        };
                        self.columns.push(total);
                        return;
                    }
                    let holds = if el.child(&id).is_some_and(|c| holds(c, n) == Holds::Categories) {
                        Holds::Categories
                    } else {
                        Holds::Other
                    };
                    // The objects' other members are left out: listed, so the full records
                    // are offered (a tree's `contents` written as names keeps no sizes).
                    let others = el.children.iter().filter(|(k, c)| *k != id && c.present > 0);
                    self.dropped.extend(others.map(|(k, _)| format!("{name}[].{k}")));
                    self.columns.push(column(Extract::Names(id), holds, false));
                } else {
                    self.dropped.push(name);
                }
                return;
            }
            // A list that holds one value (a container's one name): that value.
            if node.max_len <= 1 && el.scalars == el.present && node.single * 10 >= node.present * 9 {
                let mut p = path;
                p.push(Step::First);
                return self.field(el, p, name, n, opaque_keys);
            }
            let extract =
                if node.nested_arrays > 0 || node.max_len > LONG_LIST { Extract::Head } else { Extract::Value };
            let holds = if extract == Extract::Value && holds(el, n) == Holds::Categories {
                Holds::Categories
            } else {
                Holds::Other
            };
            self.columns.push(column(extract, holds, false));
            return;
        }
        // Scalars.
        if node.urls * 10 >= node.present * 9 {
            let made_of_values = node.url_templates.len() <= 2 || node.url_templates.len() * 10 <= node.present;
            if made_of_values || node.images * 2 >= node.urls {
                self.dropped.push(name.clone());
                return;
            }
            self.links.push((name.clone(), node.token_links * 10 >= node.urls * 9));
        }
        let unique = node.distinct() == node.present && node.present == n && !node.many;
        // An id of the records that have it (a message id that bot messages lack).
        let unique_where_present = node.distinct() == node.present && node.present * 2 >= n && !node.many;
        if Cut::of(node) == Some(Cut::Text) {
            self.columns.push(column(Extract::Text, Holds::Other, false));
            return;
        }
        if node.opaque * 10 >= node.present * 9 {
            // A resource path made of the record's other values (`…/resourceGroups/{}/…/{}`).
            let templates = node.path_templates.len();
            if node.paths * 10 >= node.opaque * 9 && (templates <= 2 || templates * 10 <= node.paths) {
                self.dropped.push(name.clone());
                return;
            }
            if unique_where_present {
                opaque_keys.push(name.clone());
            }
            // A path with random parts (an object's key) may be a name: cut, it names
            // nothing ([`paths`]).
            let long = node.avg_bytes() > OPAQUE_CHARS + 2;
            if long && node.worded * 2 >= node.opaque {
                self.worded.push(name.clone());
            }
            let extract = if long && node.worded * 2 < node.opaque { Extract::Opaque } else { Extract::Value };
            self.columns.push(column(extract, Holds::Other, unique));
            return;
        }
        let mut kind = holds(node, n);
        // Numbers handed out in sequence can fall in the range of Unix times (a page of
        // ids near 1,500,000,000): a field named as an identifier holds ids.
        if kind == Holds::Times && node.numbers > 0 && names_an_id(&name) {
            kind = Holds::Numbers;
        }
        self.columns.push(column(Extract::Value, kind, unique));
    }

    /// Leave out a field whose value equals an earlier field's in every record.
    fn drop_duplicates(&mut self, sample: &[Value]) {
        self.settle_constants(sample);
        let values: Vec<Vec<Option<Value>>> =
            self.columns.iter().map(|c| sample.iter().map(|r| c.read(r)).collect()).collect();
        let mut keep = vec![true; self.columns.len()];
        for j in 0..self.columns.len() {
            let present = values[j].iter().filter(|v| v.is_some()).count();
            if present == 0 {
                continue;
            }
            // Of two fields that say the same, the shallower is kept: a record's own
            // `metadata.name` before the label that repeats it.
            if let Some(i) = (0..j).find(|&i| keep[i] && values[i] == values[j]) {
                let depth = |c: &Column| c.path.len();
                let deeper = if depth(&self.columns[j]) < depth(&self.columns[i]) { i } else { j };
                keep[deeper] = false;
            }
        }
        let mut i = 0;
        let mut dropped = Vec::new();
        self.columns.retain(|c| {
            let k = keep[i];
            i += 1;
            if !k {
                dropped.push(c.name.clone());
            }
            k
        });
        self.dropped.extend(dropped);
    }

    /// The compact form of `record`.
    pub(crate) fn apply(&self, record: &Value) -> Value {
        self.apply_noting_cuts(record).0
    }

    /// Whether records are positional rows under a header row, read by its names.
    pub(crate) fn reads_rows(&self) -> bool {
        self.header.is_some()
    }

    /// Whether `record` is the header row of positional rows.
    pub(crate) fn is_header(&self, record: &Value) -> bool {
        self.header.as_ref().is_some_and(|h| {
            record.as_array().is_some_and(|r| r.len() == h.len() && r.iter().zip(h).all(|(v, n)| v.as_str() == Some(n)))
        })
    }

    /// `record` as an object: a positional row under its header's names.
    pub(crate) fn as_record<'a>(&self, record: &'a Value) -> Cow<'a, Value> {
        match (&self.header, record) {
            (Some(h), Value::Array(row)) => Cow::Owned(rows::record(h, row)),
            _ => Cow::Borrowed(record),
        }
    }

    /// The compact form of `record`, with the names of the fields whose value was cut.
    pub(crate) fn apply_noting_cuts(&self, record: &Value) -> (Value, Vec<String>) {
        let record = &*self.as_record(record);
        if !self.is_active() || !record.is_object() {
            return (record.clone(), Vec::new());
        }
        let mut out = Map::new();
        let mut cut = Vec::new();
        for c in &self.columns {
            if let Some((v, was_cut)) = c.read_noting_cut(record) {
                if was_cut {
                    cut.push(c.name.clone());
                }
                out.insert(c.name.clone(), v);
            }
        }
        (Value::Object(out), cut)
    }

    /// [`Compactor::apply_noting_cuts`] as a row of the values of [`Compactor::columns`], in
    /// their order (null where one has none), without making the object first; `None` where
    /// that gives no object (`record` is not one). Read by their names, the object's values are
    /// this row only when the names are [distinct](Compactor::names_distinct).
    pub(crate) fn row_noting_cuts(&self, record: &Value) -> Option<(Vec<Value>, Vec<String>)> {
        let record = &*self.as_record(record);
        if !self.is_active() || !record.is_object() {
            return None;
        }
        let mut cut = Vec::new();
        let row = self
            .columns
            .iter()
            .map(|c| match c.read_noting_cut(record) {
                Some((v, was_cut)) => {
                    if was_cut {
                        cut.push(c.name.clone());
                    }
                    v
                }
                None => Value::Null,
            })
            .collect();
        Some((row, cut))
    }

    /// Whether no two columns share a name (the compact object then has one member per
    /// column that has a value).
    pub(crate) fn names_distinct(&self) -> bool {
        let mut names: Vec<&str> = self.columns.iter().map(|c| c.name.as_str()).collect();
        names.sort_unstable();
        names.windows(2).all(|w| w[0] != w[1])
    }

    /// Column `i`: a shown column, or past them one of the [`Compactor::members`].
    pub(crate) fn column_at(&self, i: usize) -> Option<&Column> {
        self.columns.get(i).or_else(|| self.members.get(i.checked_sub(self.columns.len())?))
    }

    /// The value of column `i` in `record` (compacted), if any.
    pub(crate) fn value(&self, i: usize, record: &Value) -> Option<Value> {
        self.column_at(i)?.read(&self.as_record(record))
    }

    /// The value of column `i` in `record` as the compact view reads it, but not cut: what
    /// facets count and name records by (two ids that share their first characters are
    /// still two values).
    pub(crate) fn full_value(&self, i: usize, record: &Value) -> Option<Value> {
        self.column_at(i)?.read_with(&self.as_record(record), false).map(|(v, _)| v)
    }

    /// Keep the members of an object collapsed to `id` whose values repeat, scalars of the
    /// object or of an object in it (a package's `ecosystem`), as [`Compactor::members`].
    fn collapsed_members(&mut self, node: &Node, path: &[Step], name: &str, id: &str, n: usize) {
        let mut found: Vec<(Vec<Step>, String, &Node)> = Vec::new();
        // The other members are left out of the view like any field, and listed so, at
        // once (`user.*`, beside the `user.login` shown): the full records have them.
        if node.children.iter().any(|(k, _)| k != id) {
            self.dropped.push(format!("{name}.*"));
        }
        for (key, child) in node.children.iter().filter(|(k, _)| k != id) {
            let mut p = path.to_vec();
            p.push(Step::Key(key.clone()));
            if child.objects * 10 >= child.present * 9 && child.present > 0 {
                for (inner, grandchild) in &child.children {
                    let mut q = p.clone();
                    q.push(Step::Key(inner.clone()));
                    found.push((q, format!("{name}.{key}.{inner}"), grandchild));
                }
            } else {
                found.push((p, format!("{name}.{key}"), child));
            }
        }
        for (path, name, child) in found {
            // Values a reader counts: no links, random ids or long text.
            let plain = child.is_plain();
            if plain && child.scalars * 10 >= child.present * 9 && holds(child, n) == Holds::Categories {
                self.members.push(Column {
                    name,
                    path,
                    extract: Extract::Value,
                    holds: Holds::Categories,
                    unique: false,
                    hints: member::Hints::default(),
                    whole: false,
                });
            }
        }
    }
}

/// Objects that recur across records (the same user, status or project in several).
fn recurs(node: &Node) -> bool {
    node.present >= 3 && node.distinct() * 10 < node.present * 9 && !node.many
}

/// The member that names an object: present in (nearly) every occurrence, a short scalar
/// that is not a link or a random id, whose values go one to one with the object's, and
/// that reads most like a name (letters rather than digits; shorter).
fn naming_member(node: &Node) -> Option<String> {
    let objects = node.distinct().max(1);
    node.children
        .iter()
        .filter(|(_, c)| c.present * 10 >= node.present * 9 && c.scalars * 10 >= c.present * 9)
        .filter(|(_, c)| c.is_plain())
        .filter(|(_, c)| c.distinct() > 1 || objects == 1)
        .max_by_key(|(k, c)| {
            let one_to_one = c.distinct() >= objects;
            (
                one_to_one,
                reads_as_words(c),
                c.distinct().min(objects),
                one_to_one && names_a_thing(k),
                std::cmp::Reverse(c.avg_bytes()),
            )
        })
        .map(|(k, _)| k.clone())
}

/// Whether the member that names a list's objects is a count of something rather than a
/// name: whole numbers, none below zero, repeating across the objects (ids differ), under a
/// name that is not an id's.
fn counts_something(c: &Node, member: &str) -> bool {
    c.numbers * 10 >= c.present * 9
        && c.strings == 0
        && c.least >= 0.0
        && c.greatest.fract() == 0.0
        && c.least.fract() == 0.0
        && c.distinct() < c.present
        && !names_an_id(member)
}

/// Whether a member's own name says it holds what its object is called (`name`,
/// `displayName`, `title`, `login`): between two members that both tell the objects apart
/// in words (a label's `name` and its `color`), the one the schema calls a name.
fn names_a_thing(key: &str) -> bool {
    let own = key.to_ascii_lowercase();
    own.ends_with("name") || own.ends_with("title") || own == "login" || own == "label"
}

/// Whether a field's values read as words: strings of letters rather than digits.
fn reads_as_words(c: &Node) -> bool {
    c.strings * 2 >= c.present && c.numbers == 0 && c.digity * 2 < c.present && c.letterless * 2 < c.present
}

/// A member that titles an object collapsed to `id` when `id` does not read as words (a
/// CVE number, a ticket key): words with spaces, short, different for most objects.
fn title_member(node: &Node, id: &str) -> Option<String> {
    let objects = node.distinct().max(1);
    if node.child(id).is_none_or(reads_as_words) {
        return None;
    }
    node.children
        .iter()
        .filter(|(k, _)| k.as_str() != id)
        .filter(|(_, c)| c.present * 10 >= node.present * 9 && c.strings * 10 >= c.present * 9)
        .filter(|(_, c)| c.urls == 0 && c.long_text == 0 && c.spaced * 2 >= c.present && c.avg_bytes() <= 120)
        .filter(|(_, c)| c.distinct() * 2 > objects)
        .min_by_key(|(_, c)| c.avg_bytes())
        .map(|(k, _)| k.clone())
}

/// Whether a field's own name says it is an identifier (`id`, `run_id`, `workflowId`,
/// `number`).
pub(crate) fn names_an_id(name: &str) -> bool {
    let own = name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase();
    own.ends_with("id") || own.ends_with("ids") || own.ends_with("number") || own == "no"
}

/// What a field holds, for facets.
fn holds(node: &Node, n: usize) -> Holds {
    // Unix times written as numbers (`"created": 1767225395`) are times: a latest and an
    // earliest, never a key.
    if node.holds_epochs() {
        return Holds::Times;
    }
    // Decimals written as text (money) are numbers too: they have a range and a largest.
    // So are whole numbers written as text beside them (`"215"` among `"89.5"`).
    let numerals = if node.decimals > 0 || node.holds_counted_text() { node.decimals + node.integers } else { 0 };
    if (node.numbers + numerals) * 10 >= node.present * 9 && node.present > 0 {
        return Holds::Numbers;
    }
    // Spans of time written with their unit (`2m30s`, `PT1H5M`) have a longest too, and so
    // do sizes and shares (`1023Mi`, `37.5%`).
    if node.measures * 10 >= node.present * 9 && node.present > 0 && node.distinct() > 1 {
        return Holds::Numbers;
    }
    if node.strings * 10 >= node.present * 9 && node.times * 10 >= node.present * 9 && node.present > 0 {
        return Holds::Times;
    }
    // Worth counting: values that repeat, over enough records to count.
    let few = node.distinct() <= 30
        && !node.many
        && node.distinct() < node.present
        && (node.distinct() * 2 <= node.present || node.distinct() <= 5)
        && node.present >= 4
        && n >= 4;
    if few && node.scalars * 10 >= node.present * 9 && node.spaced * 2 < node.present.max(1) {
        return Holds::Categories;
    }
    Holds::Other
}

#[cfg(test)]
mod label_tests;
#[cfg(test)]
mod second_id_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tuple_tests;
