//! A record keeps one random-looking id: a second one (`node_id` beside `id`, a record's
//! path built from its id) tells a reader nothing more.

use serde_json::Value;

use super::{Column, Compactor, Extract, Holds};

/// The id a record keeps is shown whole up to this many characters, though random-looking
/// strings are otherwise cut: it is what names the record, and a reader who asks for the
/// record (or searches for it) needs all of it. Longer ones (a signed token) stay cut.
const WHOLE_ID_CHARS: usize = 100;

impl Compactor {
    /// Keep one random-looking id per record: the first, unless a readable unique field
    /// comes before it, or unless the others are built from a later one (a record's path
    /// `/sobjects/Opportunity/006…` next to its `Id`): then that one, the id itself.
    pub(super) fn drop_second_ids(&mut self, opaque_names: &[String], sample: &[Value]) {
        // A time is unique too, but it does not name a record.
        let first_readable =
            self.columns.iter().position(|c| c.unique && !opaque_names.contains(&c.name) && c.holds != Holds::Times);
        let ids: Vec<&Column> = self.columns.iter().filter(|c| opaque_names.contains(&c.name)).collect();
        let base = ids
            .iter()
            .find(|id| ids.iter().filter(|o| o.name != id.name).all(|other| builds_on(other, id, sample)))
            .filter(|_| ids.len() > 1)
            .map(|c| c.name.clone());
        let mut kept_one = false;
        let mut dropped = Vec::new();
        let mut index = 0;
        self.columns.retain_mut(|c| {
            let here = index;
            index += 1;
            if !opaque_names.contains(&c.name) {
                return true;
            }
            let readable_before = first_readable.is_some_and(|r| r < here);
            let chosen = match &base {
                Some(b) => *b == c.name,
                None => !kept_one,
            };
            if chosen && !readable_before {
                kept_one = true;
                c.whole = c.extract == Extract::Opaque && fits_whole(c, sample);
                return true;
            }
            dropped.push(c.name.clone());
            false
        });
        self.dropped.extend(dropped);
    }
}

/// Whether every value of `id` in the sample is short enough to show whole.
fn fits_whole(id: &Column, sample: &[Value]) -> bool {
    sample.iter().all(|r| match id.read_with(r, false).map(|v| v.0) {
        Some(Value::String(s)) => s.chars().count() <= WHOLE_ID_CHARS,
        _ => true,
    })
}

/// Whether `other`'s values are built from `id`'s: in (nearly) every record of the sample
/// that has both, `other` holds `id`'s value and more.
fn builds_on(other: &Column, id: &Column, sample: &[Value]) -> bool {
    let (mut both, mut holding) = (0usize, 0usize);
    for r in sample {
        let (Some(Value::String(o)), Some(Value::String(i))) =
            (other.read_with(r, false).map(|v| v.0), id.read_with(r, false).map(|v| v.0))
        else {
            continue;
        };
        both += 1;
        holding += usize::from(o.len() > i.len() && o.contains(i.as_str()));
    }
    both > 0 && holding * 10 >= both * 9
}
