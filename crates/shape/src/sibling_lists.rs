//! Lists of records beside the records: a knowledge graph's `entities` beside its larger
//! `relations`, a search's `users` beside its `messages`. The larger list is what the
//! result is read as; a smaller one would otherwise be named only in `omitted`, and "how
//! many entities are services" could not be answered at all: `next` pages the records, and
//! the stored snapshot holds only them. So each is said in the summary with its count and
//! its facets, in a few hundred characters, and with the mask that would page it.

use serde_json::Value;
use serde_json::value::RawValue;

use crate::compact::Compactor;
use crate::facets::Facets;
use crate::numfmt::thousands;

/// Records a list needs, at least, to be said this way.
const MIN_RECORDS: usize = 5;
/// Its bytes, at most: a list larger than this is left to `omitted`, so the cost of a
/// summary stays bounded whatever the result holds beside its records.
const MAX_BYTES: usize = 2 << 20;
/// Records the view is learnt from.
const SAMPLE: usize = 100;
/// Characters of facets said of one list, at most.
pub(crate) const LIST_CHARS: usize = 480;

/// `entities: 114 records, counted here, not paged (a mask's records: $.entities pages
/// them); entityType, most first: person 45, …` for a member `name` whose value `raw` is a list of objects, at most `room`
/// characters; `None` for anything else, or when nothing fits.
pub(crate) fn list_note(at: &str, raw: &RawValue, room: usize) -> Option<String> {
    let text = raw.get();
    if !text.starts_with('[') || text.len() > MAX_BYTES {
        return None;
    }
    let items: Vec<Value> = serde_json::from_str(text).ok()?;
    if items.len() < MIN_RECORDS || !items.iter().all(Value::is_object) {
        return None;
    }
    let head = format!(
        "{at}: {} records, counted here, not paged (a mask's records: $.{at} pages them)",
        thousands(items.len() as u64)
    );
    let left = room.min(LIST_CHARS).saturating_sub(head.len() + 2);
    let note = match records_phrase(&items, left) {
        Some(phrase) => format!("{head}; {phrase}"),
        None => head,
    };
    (note.len() <= room).then_some(note)
}

/// The facets of `items` (records), learnt from the first [`SAMPLE`] and counted over all,
/// in at most `room` characters; `None` when nothing fits or the room is too small to say
/// anything.
pub(crate) fn records_phrase(items: &[Value], room: usize) -> Option<String> {
    if room <= 40 {
        return None;
    }
    let sample = &items[..items.len().min(SAMPLE)];
    let mut compactor = Compactor::learn(sample);
    compactor.learn_beyond(sample, &items[sample.len()..]);
    let mut facets = Facets::new(&compactor);
    for item in items {
        facets.add(item);
    }
    facets.phrase(room).filter(|p| !p.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(v: &Value) -> Box<RawValue> {
        RawValue::from_string(v.to_string()).unwrap()
    }

    #[test]
    fn a_list_of_entities_is_said_with_its_counts() {
        let kinds = ["person", "person", "service", "project"];
        let list: Vec<Value> =
            (0..40).map(|i| json_entity(&format!("Name {i}"), kinds[i % 4], &[&format!("note {i}")])).collect();
        let note = list_note("entities", &raw(&Value::from(list)), 600).unwrap();
        assert!(
            note.starts_with("entities: 40 records, counted here, not paged (a mask's records: $.entities"),
            "{note}"
        );
        assert!(
            note.contains("person 20, project 10, service 10") || note.contains("person 20, service 10, project 10"),
            "{note}"
        );
    }

    #[test]
    fn scalars_small_lists_and_huge_lists_are_not_said() {
        assert_eq!(list_note("tags", &raw(&serde_json::json!(["a", "b", "c", "d", "e", "f"])), 600), None);
        let few: Vec<Value> = (0..3).map(|i| json_entity(&format!("N{i}"), "person", &[])).collect();
        assert_eq!(list_note("entities", &raw(&Value::from(few)), 600), None);
        let note = "x".repeat(1_000);
        let huge: Vec<Value> = (0..2_200).map(|i| json_entity(&format!("N{i}"), "person", &[&note])).collect();
        assert_eq!(list_note("entities", &raw(&Value::from(huge)), 600), None);
    }

    fn json_entity(name: &str, kind: &str, observations: &[&str]) -> Value {
        serde_json::json!({"type": "entity", "name": name, "entityType": kind, "observations": observations})
    }
}
