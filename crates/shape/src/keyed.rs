//! Records keyed by their names: an object whose members are records under their ids
//! (Firebase's `{"-OSl5…": {…}}`, a map of users by name), read as a list of records, each
//! with its name as `key`, so they are counted, paged and found like a list's.
//!
//! Two places are read so. The whole result, when it is such a map. And the member of a
//! small wrapper that holds most of the result, when that member is such a map and every
//! other member can be said beside the records as a note: `npm audit --json`'s
//! `vulnerabilities` by package name beside its version and `metadata` totals, `npm ls
//! --json`'s `dependencies` beside the project's name. Shown as one object, such a result
//! was one field wide and said nothing of its records; read as records, each is a row,
//! counted by facets. A wrapper with more beside the map (a report's categories and
//! settings, a package's `time` by version) stays a document, read member by member: what
//! is left out of records is not in the stored result `next` reads.

use std::collections::HashMap;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::input::{Located, Wrapper};

/// Members an object needs, at least, to be read as records keyed by their names.
const KEYED_MIN: usize = 8;
/// The share of the whole result, in percent, a wrapper's member must hold to be read as
/// its records.
const DOMINANT_PERCENT: usize = 50;
/// Characters the wrapper's other members may take as notes.
const NOTES_CHARS: usize = 480;

/// Whether `m` is a map of records: at least [`KEYED_MIN`] members, nine in ten of them
/// records (an object, or a list of objects: `npm outdated --json` lists a package once per
/// workspace that depends on it), and one field that four in five of those objects share.
pub(crate) fn is_keyed(m: &Map<String, Value>) -> bool {
    let mut members = 0usize;
    let mut objects = 0usize;
    let mut field_counts: HashMap<&str, usize> = HashMap::new();
    for records in m.values().filter_map(member_records) {
        members += 1;
        for o in records.iter().filter_map(Value::as_object) {
            objects += 1;
            for k in o.keys() {
                *field_counts.entry(k.as_str()).or_insert(0) += 1;
            }
        }
    }
    let shared = field_counts.values().copied().max().unwrap_or(0);
    m.len() >= KEYED_MIN && members * 10 >= m.len() * 9 && shared * 5 >= objects * 4
}

/// The records a member of a map holds, each an object: itself when an object, its items
/// when a list of objects (not empty); `None` otherwise. Borrowed, not gathered: this is
/// asked of every member of every JSON object result.
pub(crate) fn member_records(v: &Value) -> Option<&[Value]> {
    match v {
        Value::Object(_) => Some(std::slice::from_ref(v)),
        Value::Array(items) if lists_records(items) => Some(items),
        _ => None,
    }
}

/// Whether a member's list holds records: objects, at least one.
fn lists_records(items: &[Value]) -> bool {
    !items.is_empty() && items.iter().all(Value::is_object)
}

/// The result read as records keyed by their names where it is a map of records, or a small
/// wrapper around one; anything else as it came. Judged from the values alone. A map inside
/// a document (an API spec's `paths`) is that document's part: only a member holding more
/// than half the result, beside members that are not maps of records themselves, is read.
pub(crate) fn keyed_records<'a>(located: Located<'a>, store: &'a mut Option<String>) -> Located<'a> {
    let Located::Value(Value::Object(m)) = located else { return located };
    if is_keyed(&m) {
        let members = m.len();
        return as_records(m, Wrapper::default(), store, |name| {
            format!("records from the {members} members, each named in `{name}`")
        });
    }
    let Some(at) = only_map(&m) else { return Located::Value(Value::Object(m)) };
    // Read so only when every other member can be said beside the records: what is left
    // out of records is not in the stored result `next` reads, and a report's own totals
    // (`metadata`) or a second map (a package's `time` by version) would be lost.
    let Some(notes) = sibling_notes(&m, &at) else { return Located::Value(Value::Object(m)) };
    if !holds_most(&m, &at) {
        return Located::Value(Value::Object(m));
    }
    let mut m = m;
    let Some(Value::Object(inner)) = m.shift_remove(&at) else { return Located::Value(Value::Object(m)) };
    let wrapper = Wrapper { notes, ..Wrapper::default() };
    let members = inner.len();
    as_records(inner, wrapper, store, |name| format!("records: the {members} {at}, each named in `{name}`"))
}

/// Every member of `m` but `at` said as a note (`auditReportVersion=2`, `metadata.dependencies:
/// prod 812, dev 1204`), within [`NOTES_CHARS`] in all; `None` when one cannot be (a list,
/// an object of objects deeper than that, text too long).
fn sibling_notes(m: &Map<String, Value>, at: &str) -> Option<Vec<String>> {
    let mut notes = Vec::new();
    let mut chars = 0;
    for (name, v) in m.iter().filter(|(k, _)| *k != at) {
        let before = notes.len();
        leaf_notes(name, v, 2, &mut notes)?;
        chars += notes[before..].iter().map(|n| n.len() + 2).sum::<usize>();
        if chars > NOTES_CHARS {
            return None;
        }
    }
    Some(notes)
}

/// `v` under `name` as notes: a scalar as `name=value`, an object of scalars as `name: k v,
/// …`, an object of such objects (up to `depth` levels) member by member.
fn leaf_notes(name: &str, v: &Value, depth: usize, notes: &mut Vec<String>) -> Option<()> {
    match v {
        Value::Array(_) => None,
        // Each pair takes four characters at least: a larger object is no note.
        Value::Object(o) if o.len() * 4 > NOTES_CHARS => None,
        Value::Object(o) if o.values().all(|x| !x.is_object() && !x.is_array()) => {
            let pairs: Vec<String> = o.iter().map(|(k, x)| format!("{k} {}", scalar(x))).collect();
            notes.push(format!("{name}: {}", pairs.join(", ")));
            Some(())
        }
        Value::Object(o) if depth > 1 => {
            for (k, x) in o {
                leaf_notes(&format!("{name}.{k}"), x, depth - 1, notes)?;
            }
            Some(())
        }
        Value::Object(_) => None,
        other => {
            let text = scalar(other);
            (text.len() <= 100).then(|| notes.push(format!("{name}={text}")))
        }
    }
}

/// A scalar as written in a note: a string without its quotes.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The one member of a small wrapper `m` that is a map of records, if only one is.
fn only_map(m: &Map<String, Value>) -> Option<String> {
    if m.len() >= KEYED_MIN * 4 {
        return None;
    }
    let mut maps = m.iter().filter(|(_, v)| v.as_object().is_some_and(is_keyed));
    let (name, _) = maps.next()?;
    maps.next().is_none().then(|| name.clone())
}

/// Whether member `at` holds more than [`DOMINANT_PERCENT`] of `m`'s bytes. Measured by
/// writing the members out, so asked last, once the others are known to be small notes:
/// this runs on every JSON document.
fn holds_most(m: &Map<String, Value>, at: &str) -> bool {
    let size = |v: &Value| v.to_string().len();
    let mine = m.get(at).map_or(0, size);
    let rest: usize = m.iter().filter(|(k, _)| *k != at).map(|(k, v)| k.len() + size(v)).sum();
    mine * 100 > (mine + rest) * DOMINANT_PERCENT
}

/// The members of `m` as records (moved, not copied), each with its name under `key`
/// (`_key` where the records have a `key` of their own), stored as text in `store` so the
/// records are borrowed slices like a list's.
fn as_records<'a>(
    m: Map<String, Value>,
    mut wrapper: Wrapper,
    store: &'a mut Option<String>,
    note: impl FnOnce(&str) -> String,
) -> Located<'a> {
    let name = name_field(&m);
    let records: Vec<Value> = m.into_iter().flat_map(|(k, v)| named_records(name, k, v)).collect();
    let Ok(text) = serde_json::to_string(&records) else { return Located::Value(Value::Array(records)) };
    let text: &'a str = store.insert(text);
    match serde_json::from_str::<Vec<&'a RawValue>>(text) {
        Ok(items) => {
            wrapper.notes.insert(0, note(name));
            Located::Records { items, wrapper }
        }
        Err(_) => Located::Value(Value::Array(records)),
    }
}

/// The field a map's records carry their names in: `key`, or `_key` where the records have
/// a `key` of their own.
pub(crate) fn name_field(m: &Map<String, Value>) -> &'static str {
    let has_key = m.values().filter_map(member_records).flatten().any(|o| o.get("key").is_some());
    if has_key { "_key" } else { "key" }
}

/// One member `k: v` of a map of records as its records: a list of objects gives one
/// record per item, each with the member's name; anything else one ([`named_record`]).
pub(crate) fn named_records(field: &str, k: String, v: Value) -> Vec<Value> {
    match v {
        Value::Array(items) if lists_records(&items) => {
            items.into_iter().map(|item| named_record(field, k.clone(), item)).collect()
        }
        other => vec![named_record(field, k, other)],
    }
}

/// One member `k: v` of a map of records as a record: its fields, with its name under
/// `field` (a member that is not an object is the record's `value`).
pub(crate) fn named_record(field: &str, k: String, v: Value) -> Value {
    let mut r = Map::new();
    r.insert(field.to_owned(), Value::String(k));
    match v {
        Value::Object(o) => r.extend(o),
        other => {
            r.insert("value".to_owned(), other);
        }
    }
    Value::Object(r)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn records_of(v: Value) -> Option<(Vec<Value>, Wrapper)> {
        let mut store = None;
        match keyed_records(Located::Value(v), &mut store) {
            Located::Records { items, wrapper } => {
                Some((items.iter().map(|r| serde_json::from_str(r.get()).unwrap()).collect(), wrapper))
            }
            _ => None,
        }
    }

    fn packages(n: usize) -> Value {
        let mut m = Map::new();
        for i in 0..n {
            let severity = ["low", "high"][i % 2];
            m.insert(
                format!("pkg-{i}"),
                json!({"name": format!("pkg-{i}"), "severity": severity, "isDirect": i % 3 == 0}),
            );
        }
        Value::Object(m)
    }

    #[test]
    fn a_wrappers_map_of_records_is_read_as_its_records() {
        let audit = json!({"auditReportVersion": 2, "vulnerabilities": packages(40), "metadata": {"vulnerabilities": {"low": 20, "high": 20}}});
        let (records, wrapper) = records_of(audit).expect("records");
        assert_eq!(records.len(), 40);
        assert_eq!(records[7]["key"], "pkg-7");
        assert_eq!(records[7]["severity"], "high");
        assert!(
            wrapper.notes[0].starts_with("records: the 40 vulnerabilities, each named in `key`"),
            "{:?}",
            wrapper.notes
        );
        assert!(wrapper.notes.contains(&"auditReportVersion=2".to_owned()), "{:?}", wrapper.notes);
        assert!(wrapper.notes.contains(&"metadata.vulnerabilities: low 20, high 20".to_owned()), "{:?}", wrapper.notes);
        assert!(wrapper.dropped.is_empty());
    }

    #[test]
    fn a_member_that_lists_several_records_gives_a_record_for_each() {
        // `npm outdated --json`: a package several workspaces depend on is a list.
        let mut m = Map::new();
        for i in 0..10 {
            let one = json!({"current": "1.0.0", "latest": "2.0.0", "dependent": "web"});
            let v = if i % 2 == 0 {
                json!([one, {"current": "0.9.0", "latest": "2.0.0", "dependent": "api"}])
            } else {
                one
            };
            m.insert(format!("pkg-{i}"), v);
        }
        let (records, _) = records_of(Value::Object(m)).expect("records");
        assert_eq!(records.len(), 15);
        assert_eq!(records[0]["key"], "pkg-0");
        assert_eq!(records[1]["key"], "pkg-0");
        assert_eq!(records[1]["dependent"], "api");
        assert_eq!(records[2]["key"], "pkg-1");
        // A map of lists of numbers is no map of records.
        let numbers: Map<String, Value> = (0..10).map(|i| (format!("s{i}"), json!([1, 2, 3]))).collect();
        assert!(records_of(Value::Object(numbers)).is_none());
    }

    #[test]
    fn a_map_holding_less_than_half_or_beside_another_map_stays_a_document() {
        // Members that are notes, but more of the result than the map.
        let tiny: Map<String, Value> = (0..8).map(|i| (format!("p{i}"), json!({"n": i}))).collect();
        let line = "x".repeat(90);
        let small = json!({"a": line, "b": line, "c": line, "tiny": tiny});
        assert!(records_of(small).is_none());
        // A member too long for a note keeps the document whole.
        let long = json!({"vulnerabilities": packages(40), "text": "x".repeat(4000)});
        assert!(records_of(long).is_none());
        let two = json!({"a": packages(40), "b": packages(30)});
        assert!(records_of(two).is_none());
        // A member that cannot be said beside the records keeps the document whole.
        let times: Map<String, Value> = (0..40).map(|i| (format!("pkg-{i}"), json!("2025-01-01T00:00:00Z"))).collect();
        let beside = json!({"versions": packages(40), "time": times});
        assert!(records_of(beside).is_none());
        // A whole map is read as before.
        let (records, wrapper) = records_of(packages(12)).expect("records");
        assert_eq!(records.len(), 12);
        assert!(wrapper.notes[0].starts_with("records from the 12 members, each named in `key`"));
    }
}
