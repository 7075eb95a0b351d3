//! Records two lists down: a rule group's `rules`, a day's cost `Groups`, a pipeline's
//! `workflows`. The records a result is paged by are then only their holders, and the
//! compact view says each holder's list by its members' names: "how many rules are firing"
//! or "which rule took longest" would need every holder read whole. So while the facets'
//! pass reads every record, the lists of objects inside them are gathered, and the first
//! read says the largest of them as records of their own, with their count and their
//! facets (`412 rules inside the records; state, most first: inactive 371, …`).
//!
//! Judged from the values alone: a field whose values are lists of objects and that holds
//! more objects in all than there are records, and either two per record or most of them
//! different from each other (the records are then groups of them, not things with a label
//! or two from a small vocabulary). Objects under the same field inside those objects (a tree of
//! `children`) are gathered with them. What is gathered is bounded ([`MAX_ITEMS`]); a field past it
//! is not said, so the cost of a first read stays bounded whatever the records hold.

use serde_json::Value;

use crate::numfmt::thousands;
use crate::sibling_lists::records_phrase;

/// Objects a field's lists must hold in all, at least, to be said.
const MIN_ITEMS: usize = 20;
/// Objects gathered per field, at most: a field holding more is not said.
const MAX_ITEMS: usize = 20_000;
/// Objects a field's lists must hold per record, on average, unless most of them differ:
/// records that are groups of them hold several each, records with a label or two (a pull
/// request's `labels`, the same few objects again and again) do not.
const PER_RECORD: usize = 2;
/// Levels of a tree read under one field name, at most.
const MAX_DEPTH: usize = 8;
/// Characters of the note, at most.
pub(crate) const NOTE_CHARS: usize = 1_000;
/// Fewest characters worth a note: its head and one clause.
const MIN_ROOM: usize = 120;

/// One field's lists of objects, gathered over every record.
struct Field {
    name: String,
    items: Vec<Value>,
    /// More objects than [`MAX_ITEMS`] were found: the field is not said.
    overflowed: bool,
}

/// The lists of objects found in records' fields, in the order the fields were first met.
#[derive(Default)]
pub(crate) struct NestedLists {
    fields: Vec<Field>,
    records: usize,
}

impl NestedLists {
    /// Count `record` and gather the objects of its fields that hold lists of objects,
    /// taking them out of `record` (which is not read again).
    pub(crate) fn take(&mut self, record: &mut Value) {
        self.records += 1;
        let Value::Object(map) = record else { return };
        for (name, value) in map.iter_mut() {
            if let Value::Array(list) = value
                && list.first().is_some_and(Value::is_object)
            {
                self.push(name, std::mem::take(list));
            }
        }
    }

    /// As [`NestedLists::take`], for a record that is read again: its lists are copied.
    pub(crate) fn copy(&mut self, record: &Value) {
        self.records += 1;
        let Value::Object(map) = record else { return };
        for (name, value) in map {
            if let Value::Array(list) = value
                && list.first().is_some_and(Value::is_object)
            {
                self.push(name, list.clone());
            }
        }
    }

    fn push(&mut self, name: &str, list: Vec<Value>) {
        let at = match self.fields.iter().position(|f| f.name == name) {
            Some(at) => at,
            None => {
                self.fields.push(Field { name: name.to_owned(), items: Vec::new(), overflowed: false });
                self.fields.len() - 1
            }
        };
        let field = &mut self.fields[at];
        if field.overflowed {
            return;
        }
        if field.items.len() + list.len() > MAX_ITEMS {
            field.overflowed = true;
            field.items = Vec::new();
            return;
        }
        // A tree (lsblk's `children` holding `children`): the objects at every depth under
        // the same name are records of the same field.
        let mut pending = list;
        let mut depth = 0;
        while !pending.is_empty() && depth < MAX_DEPTH {
            let mut deeper = Vec::new();
            for mut item in pending {
                if let Some(Value::Array(inner)) = item.get_mut(name)
                    && inner.first().is_some_and(Value::is_object)
                {
                    deeper.append(inner);
                }
                if item.is_object() {
                    field.items.push(item);
                }
            }
            if field.items.len() + deeper.len() > MAX_ITEMS {
                field.overflowed = true;
                field.items = Vec::new();
                return;
            }
            pending = deeper;
            depth += 1;
        }
    }

    /// The note of the field whose lists hold the most objects, when they outnumber the
    /// records, in at most `room` characters; `None` when none qualifies or nothing fits.
    pub(crate) fn note(&self, room: usize) -> Option<String> {
        let room = room.min(NOTE_CHARS);
        if room < MIN_ROOM {
            return None;
        }
        let field = self
            .fields
            .iter()
            .filter(|f| !f.overflowed && f.items.len() >= MIN_ITEMS && f.items.len() > self.records)
            .filter(|f| f.items.len() >= PER_RECORD * self.records || mostly_distinct(&f.items))
            .max_by_key(|f| f.items.len())?;
        let head = format!("{} {} inside the records", thousands(field.items.len() as u64), field.name);
        let phrase = records_phrase(&field.items, room.saturating_sub(head.len() + 2))?;
        let note = format!("{head}; {phrase}");
        (note.len() <= room).then_some(note)
    }
}

/// Objects compared to tell records from a vocabulary, at most: the first ones.
const DISTINCT_SAMPLE: usize = 1_000;

/// Whether most of the first [`DISTINCT_SAMPLE`] objects differ from each other: records
/// each say something of their own (a pipeline's workflows), while labels repeat a few
/// objects (sixteen labels over four hundred uses), whose counts the records' facets give.
fn mostly_distinct(items: &[Value]) -> bool {
    let sample = &items[..items.len().min(DISTINCT_SAMPLE)];
    let distinct: std::collections::HashSet<String> = sample.iter().map(Value::to_string).collect();
    distinct.len() * 2 >= sample.len()
}

#[cfg(test)]
#[path = "nested_records_tests.rs"]
mod tests;
