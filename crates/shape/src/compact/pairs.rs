//! Lists of objects that are maps written as lists: custom fields (`{"name": "Priority",
//! "display_value": "High", "type": "enum", …}`), tags (`{"Key": "env", "Value": "prod"}`),
//! conditions (`{"type": "Ready", "status": "True", …}`), environment variables.
//!
//! Such a list is told from a list of things by its values, in the sample: one member names
//! each item (a short string, different for each item of a list but for a few repeats, as a
//! mail's `Received` headers, from a few names that repeat across records), and another
//! member holds the item's value (a scalar that differs between records for the same name,
//! which an attribute of a named thing, such as a label's colour, does not). When the names
//! are few, or each record holds most of them (a mail's headers), each becomes a field of
//! its own (`custom_fields.Priority`, `payload.headers.Subject`), so that it is counted and
//! ranked like any other field, and its long values are cut as a field's would be.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::stats::{self, is_empty};
use super::{Column, Compactor, Cut, Extract, Holds, LONG_LIST, at_path, holds, naming_member};

/// Names a key member may take across the sample, at most.
const MAX_NAMES: usize = 64;
/// Characters of a name, at most: longer strings are text, not names.
const NAME_CHARS: usize = 64;
/// Items that repeat a name already given in their list: at most one in this many (a
/// mail passed on by a few relays has a `Received` header for each; a list of things in
/// which most items share a name is not a map).
const MAX_REPEATED_SHARE: usize = 4;

impl Compactor {
    /// Turn each list column that the sample shows to be a map into fields of their own
    /// (few names) or one object per record (many names).
    pub(super) fn read_lists_as_maps(&mut self, sample: &[Value]) {
        let n = sample.len();
        let mut out: Vec<Column> = Vec::with_capacity(self.columns.len());
        for column in std::mem::take(&mut self.columns) {
            if !matches!(column.extract, Extract::Names(_) | Extract::Pairs { .. }) {
                out.push(column);
                continue;
            }
            let lists: Vec<&[Value]> =
                sample.iter().filter_map(|r| at_path(r, &column.path)?.as_array().map(Vec::as_slice)).collect();
            let Some((key, value)) = detect(&lists) else {
                out.push(column);
                continue;
            };
            let names = names_in_order(&lists, &key);
            // Values wrapped in an object naming their type (OTLP's `{"stringValue": "GET"}`)
            // are read as the scalars they wrap, so they are counted and ranked as such.
            let typed = typed_values(&lists, &value);
            // Many names, each record holding few of them (environment variables across
            // services): one object per record, not a column per name, most of them empty.
            // A record that holds most of the names (a mail's headers) gets columns.
            let held: usize = lists.iter().map(|l| l.len()).sum();
            // What each name's values hold, measured as if they were fields of the record.
            let as_objects: Vec<Value> = lists
                .iter()
                .map(|list| {
                    let m: Map<String, Value> = list
                        .iter()
                        .filter_map(|item| {
                            let v = item.get(&value)?;
                            let v = if typed { typed_scalar(v).unwrap_or(v) } else { v };
                            Some((item.get(&key)?.as_str()?.to_owned(), v.clone()))
                        })
                        .collect();
                    Value::Object(m)
                })
                .collect();
            let measured = stats::learn(&as_objects);
            if names.len() > LONG_LIST && held * 2 < names.len() * lists.len() {
                // The names whose values repeat (a span's `span.kind`, `db.system`,
                // `error`) are still counted over every record, as members the view does
                // not show.
                self.members.extend(counted_names(&measured, &names, &column, &key, &value, typed, n));
                out.push(Column { extract: Extract::Pairs { key, value, typed }, holds: Holds::Other, ..column });
                continue;
            }
            for name in names {
                let node = measured.child(&name);
                // A value that is an object is written, counted and ranked as the member
                // that names it, as a field holding such objects would be.
                // So is a list of such objects (a field's versions), as its names.
                let objects = |node: &&stats::Node| node.objects * 2 > node.present;
                let listed = node.and_then(|node| node.elements.as_deref()).filter(objects);
                let inner = match listed {
                    Some(elements) => naming_member(elements),
                    None => node.filter(objects).and_then(naming_member),
                };
                let node = match (&inner, listed) {
                    (Some(inner), Some(elements)) => elements.child(inner),
                    (Some(inner), None) => node.and_then(|node| node.child(inner)),
                    (None, _) => node,
                };
                let kind = node.map_or(Holds::Other, |node| holds(node, n));
                // Long values are cut as a field's would be; a named object's name is short.
                let cut = if inner.is_some() { None } else { node.and_then(Cut::of) };
                let full_name = format!("{}.{name}", column.name);
                // One value wherever the name is there, in at least half the records: said
                // once, as a field's would be.
                if node.is_some_and(|c| c.distinct() == 1 && !c.many && c.present >= 3 && c.present * 2 >= n) {
                    self.constants.push((full_name.clone(), Value::Null));
                }
                out.push(Column {
                    name: full_name,
                    path: column.path.clone(),
                    extract: Extract::PairValue { key: key.clone(), name, value: value.clone(), typed, inner, cut },
                    holds: kind,
                    unique: false,
                    hints: column.hints.clone(),
                    whole: false,
                });
            }
        }
        self.columns = out;
    }
}

/// Names of a map too sparse for columns whose values a reader counts: in at least
/// [`MIN_HOLDERS`] records of the sample, a short scalar that is not a link, a random id or
/// text, taking few values that repeat (a flag's one value too). The most held first, at
/// most [`MAX_COUNTED_NAMES`].
fn counted_names(
    measured: &stats::Node,
    names: &[String],
    column: &Column,
    key: &str,
    value: &str,
    typed: bool,
    n: usize,
) -> Vec<Column> {
    let mut found: Vec<(usize, Column)> = Vec::new();
    for name in names {
        let Some(node) = measured.child(name) else { continue };
        let plain = node.is_plain();
        let repeats = node.distinct() <= 30 && !node.many && node.distinct() * 2 <= node.present;
        if !plain || !repeats || node.present < MIN_HOLDERS || node.scalars * 10 < node.present * 9 || n < 4 {
            continue;
        }
        let extract = Extract::PairValue {
            key: key.to_owned(),
            name: name.clone(),
            value: value.to_owned(),
            typed,
            inner: None,
            cut: None,
        };
        found.push((
            node.present,
            Column {
                name: format!("{}.{name}", column.name),
                path: column.path.clone(),
                extract,
                holds: Holds::Categories,
                unique: false,
                hints: column.hints.clone(),
                whole: false,
            },
        ));
    }
    found.sort_by_key(|(present, _)| std::cmp::Reverse(*present));
    found.into_iter().take(MAX_COUNTED_NAMES).map(|(_, c)| c).collect()
}

/// The scalar `v` wraps in an object of one member that names its type (OTLP's
/// `{"stringValue": "GET"}`, `{"intValue": "200"}`), if it is one.
pub(super) fn typed_scalar(v: &Value) -> Option<&Value> {
    let o = v.as_object()?;
    let (_, inner) = o.iter().next().filter(|_| o.len() == 1)?;
    (!inner.is_object() && !inner.is_array()).then_some(inner)
}

/// Whether the values of a map written as lists wrap scalars in objects of one member,
/// nine in ten of them at least: the wrapper only says the value's type.
fn typed_values(lists: &[&[Value]], value: &str) -> bool {
    let values = || lists.iter().flat_map(|l| l.iter()).filter_map(|item| item.get(value));
    let all = values().count();
    let typed = values().filter(|v| typed_scalar(v).is_some()).count();
    all > 0 && typed * 10 >= all * 9
}

/// Records of the sample that must hold a sparse map's name for its values to be counted.
const MIN_HOLDERS: usize = 4;
/// Names of one sparse map counted, at most.
const MAX_COUNTED_NAMES: usize = 12;

/// The member naming each item and the member holding its value, if the lists are maps.
///
/// A key member is a short string in every item (with a letter; not a link or a random
/// id), different for each item of a list, and takes few names that repeat (at most half
/// as many names as items); of several (a custom field's `name` and `type` both tell its
/// items apart), the first is the key. A value member is a scalar that takes at least two
/// values for one name somewhere in the sample, present in at least half the items; of
/// several, the most present wins, then the one with fewest distinct values (a condition's
/// `status` over its time). A random id can be a value (an advisory's identifiers).
pub(super) fn detect(lists: &[&[Value]]) -> Option<(String, String)> {
    let items: Vec<&Map<String, Value>> = lists.iter().flat_map(|l| l.iter()).filter_map(Value::as_object).collect();
    let total: usize = lists.iter().map(|l| l.len()).sum();
    if items.len() < 4 || items.len() != total {
        return None;
    }
    let mut members: Vec<&str> = Vec::new();
    for item in &items {
        for k in item.keys() {
            if !members.contains(&k.as_str()) {
                members.push(k);
            }
        }
    }
    // The first member that could name the items names them (a label's name before its
    // colour, which two labels may share); if its items hold no varying value, the list
    // is a list of things.
    let key = members.iter().copied().find(|m| key_member(lists, m, items.len()))?;
    // Scalars first: a value that is an object (a custom field's `{"name": "Major"}`) is
    // taken only where no member holds a scalar that varies, so a container's `image` stays
    // its value before its `resources`.
    [false, true].into_iter().find_map(|objects| {
        members
            .iter()
            .filter(|m| **m != key)
            .filter_map(|m| value_member(&items, key, m, objects).map(|score| (*m, score)))
            .max_by_key(|&(_, (present, distinct))| (present, std::cmp::Reverse(distinct)))
            .map(|(m, _)| (key.to_owned(), m.to_owned()))
    })
}

/// Whether `member` names the items of every list.
///
/// A name may come back within one list, as a mail's `Received` header or an HTTP
/// response's `Set-Cookie` does (such a map holds a name more than once, and the first
/// holds the value read), but only for a few items: a list whose names repeat within it
/// more often than that is a list of things that share names.
fn key_member(lists: &[&[Value]], member: &str, items: usize) -> bool {
    let mut names: HashSet<&str> = HashSet::new();
    let mut repeats = 0usize;
    for list in lists {
        let mut in_list: HashSet<&str> = HashSet::new();
        for item in *list {
            let Some(name) = item.get(member).and_then(Value::as_str) else { return false };
            // A name a reader knows has a letter (not an id written as digits) and is short.
            let plain =
                name.chars().any(char::is_alphabetic) && name.chars().count() <= NAME_CHARS && !name.contains('\n');
            if !plain || stats::is_opaque(name) || stats::is_url(name) {
                return false;
            }
            if !in_list.insert(name) {
                repeats += 1;
            }
            names.insert(name);
        }
    }
    let d = names.len();
    (2..=MAX_NAMES).contains(&d) && d * 2 <= items && repeats * MAX_REPEATED_SHARE <= items
}

/// `(items holding it, distinct values)` when `member` holds values that vary for one name;
/// with `objects`, objects count as values too (lists are left out either way).
fn value_member(items: &[&Map<String, Value>], key: &str, member: &str, objects: bool) -> Option<(usize, usize)> {
    let mut by_name: HashMap<&str, HashSet<String>> = HashMap::new();
    let mut all: HashSet<String> = HashSet::new();
    let mut present = 0usize;
    for item in items {
        let Some(v) = item.get(member).filter(|v| !is_empty(v)) else { continue };
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(_) | Value::Bool(_) => v.to_string(),
            Value::Object(_) if objects => v.to_string(),
            Value::Array(_) if objects => continue,
            _ => return None,
        };
        present += 1;
        if let Some(name) = item.get(key).and_then(Value::as_str) {
            by_name.entry(name).or_default().insert(text.clone());
        }
        all.insert(text);
    }
    let varies = by_name.values().any(|values| values.len() >= 2);
    (varies && present * 2 >= items.len()).then_some((present, all.len()))
}

/// The names the key member takes, in the order they are first seen.
fn names_in_order(lists: &[&[Value]], key: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in lists.iter().flat_map(|l| l.iter()) {
        if let Some(name) = item.get(key).and_then(Value::as_str)
            && !out.iter().any(|o| o == name)
        {
            out.push(name.to_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests;
