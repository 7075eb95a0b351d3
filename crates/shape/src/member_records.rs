//! Records inside a document's members: a report's `audits` keyed by id, its `entities`
//! list, a spec's `components`. A document is shown member by member, and its large members
//! do not fit the first read: they were named with their sizes only, so "how many audits
//! are not applicable" or "which entity transferred the most bytes" needed every member
//! paged whole. So the first read says the largest of them as records, with their count
//! and facets over every one of them, after the list of members not shown.
//!
//! Judged from the values alone: a list of objects, or an object whose members are objects
//! sharing a field ([`is_keyed`]). Each note is bounded ([`NOTE_CHARS`]) and so is their
//! number ([`MAX_NOTES`]); a member larger than [`MAX_ITEMS`] records is not read.

use std::borrow::Cow;

use serde_json::Value;

use crate::keyed::{is_keyed, member_records, name_field, named_records};
use crate::numfmt::thousands;
use crate::path::push_key;
use crate::sibling_lists::records_phrase;

/// Records a member needs, at least, to be said this way.
const MIN_RECORDS: usize = 5;
/// Records a member may hold, at most: past that, its note is left out, so the cost of a
/// first read stays bounded whatever a document holds.
const MAX_ITEMS: usize = 20_000;
/// Members said as records, at most: those with the most records.
const MAX_NOTES: usize = 3;
/// Characters of one member's note, at most.
const NOTE_CHARS: usize = 480;

/// For each of `members` (in order), the notes that say the records inside it, for at
/// most [`MAX_NOTES`] lists or maps of records in all (those holding the most records),
/// joined; `None` for a member holding none of them.
pub(crate) fn member_notes(members: &[(String, Value)]) -> Vec<Option<String>> {
    let mut found = Vec::new();
    for (member, (name, value)) in members.iter().enumerate() {
        find_records(member, &mut vec![name.as_str()], value, &mut found);
    }
    // Most records first; in document order among equals.
    found.sort_by_key(|c| std::cmp::Reverse(c.count));
    let mut notes: Vec<Vec<String>> = vec![Vec::new(); members.len()];
    for largest in found.iter().take(MAX_NOTES) {
        // Written only for those said, as a mask's field path is.
        let mut path = String::new();
        for key in &largest.keys {
            push_key(&mut path, key);
        }
        if let Some(note) = records_note(&path, largest.value) {
            notes[largest.member].push(note);
        }
    }
    notes.into_iter().map(|n| (!n.is_empty()).then(|| n.join("; "))).collect()
}

/// Objects a member's records may sit inside, at most: Ansible's `_meta: {hostvars: {…}}`,
/// a file report's `data.attributes.pe_info.import_list`.
const MAX_DEPTH: usize = 4;

/// A list or map of records found inside a member.
struct Found<'v> {
    member: usize,
    /// The keys that lead to it, the member's name first.
    keys: Vec<&'v str>,
    value: &'v Value,
    count: usize,
}

/// Every list or map of records in `value` (at `keys`, inside `member`), in document order:
/// `value` itself when it is one, else those inside its members, down to [`MAX_DEPTH`]
/// objects deep. A list of records is not searched further: its records are the facets'.
fn find_records<'v>(member: usize, keys: &mut Vec<&'v str>, value: &'v Value, out: &mut Vec<Found<'v>>) {
    if let Some(count) = records_in(value) {
        if (MIN_RECORDS..=MAX_ITEMS).contains(&count) {
            out.push(Found { member, keys: keys.clone(), value, count });
        }
        return;
    }
    if let Value::Object(m) = value
        && keys.len() <= MAX_DEPTH
    {
        for (k, v) in m {
            keys.push(k);
            find_records(member, keys, v, out);
            keys.pop();
        }
    }
}

/// How many records `v` holds when it is a list of objects or a map of records.
fn records_in(v: &Value) -> Option<usize> {
    match v {
        Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object) => Some(items.len()),
        Value::Object(m) if is_keyed(m) => Some(m.values().map(|v| member_records(v).map_or(1, <[Value]>::len)).sum()),
        _ => None,
    }
}

/// `audits: 154 records, each named in `key`; scoreDisplayMode, most first: binary 70, …`
/// for the member `name` holding `value`, or `None` when it holds no records or nothing
/// fits.
fn records_note(name: &str, value: &Value) -> Option<String> {
    let (items, head) = match value {
        Value::Array(items) => (Cow::Borrowed(items), format!("{name}: {} records", thousands(items.len() as u64))),
        Value::Object(m) => {
            // Each member a record with its name, as a map of records is read where it is
            // the whole result.
            let field = name_field(m);
            let items: Vec<Value> = m.iter().flat_map(|(k, v)| named_records(field, k.clone(), v.clone())).collect();
            let head = format!("{name}: {} records, each named in `{field}`", thousands(items.len() as u64));
            (Cow::Owned(items), head)
        }
        _ => return None,
    };
    let phrase = records_phrase(&items, NOTE_CHARS.saturating_sub(head.len() + 2))?;
    Some(format!("{head}; {phrase}"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn report() -> Vec<(String, Value)> {
        let modes = ["binary", "binary", "notApplicable", "informative", "manual"];
        let audits: serde_json::Map<String, Value> = (0..40)
            .map(|i| {
                let mode = modes[i % 5];
                (format!("audit-{i}"), json!({"id": format!("audit-{i}"), "title": format!("Audit number {i}"), "scoreDisplayMode": mode, "numericValue": (i * 37) % 101}))
            })
            .collect();
        let entities: Vec<Value> =
            (0..8).map(|i| json!({"name": format!("Site {i}"), "category": (["ad", "cdn"][i % 2])})).collect();
        vec![
            ("lighthouseVersion".to_owned(), json!("12.2.1")),
            ("audits".to_owned(), Value::Object(audits)),
            ("entities".to_owned(), Value::from(entities)),
            ("tags".to_owned(), json!(["a", "b", "c", "d", "e", "f"])),
        ]
    }

    #[test]
    fn a_map_of_records_and_a_list_of_records_are_said_with_their_counts() {
        let members = report();
        let notes = member_notes(&members);
        assert_eq!(notes[0], None);
        assert_eq!(notes[3], None, "a list of plain values holds no records");
        let audits = notes[1].as_deref().expect("the audits are records");
        assert!(audits.starts_with("audits: 40 records, each named in `key`"), "{audits}");
        let mode = |m: &str| {
            (0..40).filter(|i| ["binary", "binary", "notApplicable", "informative", "manual"][i % 5] == m).count()
        };
        assert!(audits.contains(&format!("binary {}", mode("binary"))), "{audits}");
        assert!(audits.contains(&format!("notApplicable {}", mode("notApplicable"))), "{audits}");
        let entities = notes[2].as_deref().expect("the entities are records");
        assert!(entities.starts_with("entities: 8 records"), "{entities}");
        assert!(notes.iter().flatten().all(|n| n.len() <= NOTE_CHARS), "{notes:?}");
    }

    /// Records with a `key` of their own keep it: the member's name goes in `_key`, as where
    /// such a map is the whole result (an earlier form dropped the records' own `key`).
    #[test]
    fn records_with_a_key_of_their_own_keep_it() {
        let map: serde_json::Map<String, Value> =
            (0..12).map(|i| (format!("m{i}"), json!({"key": (["a", "b", "c"][i % 3]), "n": i}))).collect();
        let notes = member_notes(&[("items".to_owned(), Value::Object(map))]);
        let note = notes[0].as_deref().expect("a map of records");
        assert!(note.starts_with("items: 12 records, each named in `_key`"), "{note}");
        assert!(note.contains("a 4") && note.contains("b 4") && note.contains("c 4"), "{note}");
    }

    #[test]
    fn only_the_members_with_the_most_records_are_said() {
        let members: Vec<(String, Value)> = (0..6)
            .map(|m| {
                let list: Vec<Value> = (0..(10 + m)).map(|i| json!({"n": i, "kind": (["x", "y"][i % 2])})).collect();
                (format!("list{m}"), Value::from(list))
            })
            .collect();
        let notes = member_notes(&members);
        let said: Vec<usize> = notes.iter().enumerate().filter(|(_, n)| n.is_some()).map(|(i, _)| i).collect();
        assert_eq!(said, vec![3, 4, 5], "{notes:?}");
    }

    /// A file report holds its records two and three objects down, beside other members:
    /// the scan results by engine and the imports by library were said with their sizes
    /// only, so "how many engines call it malicious" needed every page.
    #[test]
    fn records_deeper_inside_a_member_are_said_with_their_path() {
        let engines: serde_json::Map<String, Value> = (0..20)
            .map(|i| {
                (
                    format!("Engine{i}"),
                    json!({"category": (["malicious", "undetected"][i % 4 / 3]), "engine_version": "1.0"}),
                )
            })
            .collect();
        let imports: Vec<Value> = (0..12).map(|i| json!({"library_name": format!("LIB{i}.dll"), "count": i})).collect();
        let members = vec![(
            "data".to_owned(),
            json!({"id": "dc25", "attributes": {"md5": "4bce", "last_analysis_results": engines, "pe_info": {"entry_point": 4096, "import_list": imports}}}),
        )];
        let note = member_notes(&members)[0].clone().expect("the records are said");
        assert!(note.starts_with("data.attributes.last_analysis_results: 20 records, each named in `key`"), "{note}");
        assert!(note.contains("category: malicious 15, undetected 5"), "{note}");
        assert!(note.contains("; data.attributes.pe_info.import_list: 12 records"), "{note}");
    }

    #[test]
    fn records_inside_objects_of_one_member_are_said_with_their_path() {
        // An inventory's groups beside `_meta: {hostvars: {host: {…}}}`.
        let hosts: serde_json::Map<String, Value> = (0..30)
            .map(|i| {
                (format!("web-{i:02}"), json!({"datacenter": (["ams3", "fra1", "fra1"][i % 3]), "cpu_cores": 4 + i}))
            })
            .collect();
        let members = vec![
            ("webservers".to_owned(), json!({"hosts": ["web-00", "web-01"]})),
            ("_meta".to_owned(), json!({"hostvars": hosts})),
        ];
        let notes = member_notes(&members);
        assert_eq!(notes[0], None);
        let note = notes[1].as_deref().expect("the hosts are said");
        assert!(note.starts_with("_meta.hostvars: 30 records, each named in `key`"), "{note}");
        assert!(note.contains("fra1 20, ams3 10"), "{note}");
    }
}
