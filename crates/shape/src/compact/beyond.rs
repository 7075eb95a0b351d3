//! What the records past the sample hold that the sample did not teach.
//!
//! The compact view is learned from the first records. Two things a later record may hold
//! would then be lost from every page: a value other than one the first records all share
//! (said once in the summary as the same everywhere), and a field none of the first records
//! holds a value of (an `error` on one job of three thousand, a `closed_at` that is null in
//! every open issue the sample held).
//! [`Beyond`] reads later records for both; [`Beyond::apply`] turns a contradicted value
//! back into a field of every record and gives a late field a column of its own, learned
//! from the records that hold it, so it is shown where it is and counted by facets.

use std::borrow::Borrow;
use std::collections::HashSet;

use serde_json::{Map, Value};

use super::stats::{self, is_empty};
use super::{Column, Compactor};

/// Late fields that get a column, the most often held first; the rest are listed as left
/// out (they come back with the full records). Each costs a cell in every row of a table.
const MAX_LATE_COLUMNS: usize = 4;
/// Distinct late fields tracked at most: a list of records of many kinds (an event stream
/// whose kinds each have their own fields) stops adding names past it.
const MAX_LATE_TRACKED: usize = 64;
/// Records holding late fields kept to learn their columns from.
const MAX_EXAMPLES: usize = 64;

/// Later records read against the view the sample taught.
pub(crate) struct Beyond {
    /// Each constant's value as the upstream sent it in the sample.
    same: Vec<Option<Value>>,
    /// Constants a later record holds another value of.
    contradicted: Vec<bool>,
    /// Late fields: name and how many records hold a value of it, in the order found.
    late: Vec<(String, u64)>,
    /// Late fields' values, one object per record that holds some.
    examples: Vec<Value>,
}

impl Beyond {
    /// Ready to read records past `sample_as_sent` (the sample as the upstream sent it).
    pub(crate) fn new(c: &Compactor, sample_as_sent: &[Value]) -> Beyond {
        Beyond {
            same: c.constants_as_sent(sample_as_sent),
            contradicted: vec![false; c.constants_len()],
            late: Vec::new(),
            examples: Vec::new(),
        }
    }

    /// Reads one later record (as the upstream sent it).
    pub(crate) fn check(&mut self, c: &Compactor, record: &Value) {
        c.contradicted_constants(record, &self.same, &mut self.contradicted);
        if c.sample_keys.is_empty() {
            return;
        }
        let record = c.as_record(record);
        let Value::Object(members) = &*record else { return };
        // Values are copied only while examples are still wanted.
        let keep = self.examples.len() < MAX_EXAMPLES;
        let mut held = Map::new();
        for (key, value) in members {
            if is_empty(value) || c.sample_keys.binary_search(key).is_ok() {
                continue;
            }
            match self.late.iter().position(|(k, _)| k == key) {
                Some(at) => self.late[at].1 += 1,
                None if self.late.len() < MAX_LATE_TRACKED => self.late.push((key.clone(), 1)),
                None => continue,
            }
            if keep {
                held.insert(key.clone(), value.clone());
            }
        }
        if !held.is_empty() {
            self.examples.push(Value::Object(held));
        }
    }

    /// Whether the view must change.
    pub(crate) fn found(&self) -> bool {
        self.contradicted.contains(&true) || !self.late.is_empty()
    }

    /// Changes the view: contradicted constants become fields again, the most held late
    /// fields get columns (after every other), the rest are listed as left out.
    pub(crate) fn apply(self, c: &mut Compactor) {
        c.demote_constants(&self.contradicted);
        if self.late.is_empty() {
            return;
        }
        let mut late = self.late;
        // Most held first; equal counts keep the order they were found in.
        late.sort_by_key(|l| std::cmp::Reverse(l.1));
        let (shown, listed) = late.split_at(late.len().min(MAX_LATE_COLUMNS));
        let shown: HashSet<&str> = shown.iter().map(|(k, _)| k.as_str()).collect();
        let examples: Vec<Value> = self
            .examples
            .iter()
            .filter_map(|e| {
                let m: Map<String, Value> = e
                    .as_object()?
                    .iter()
                    .filter(|(k, _)| shown.contains(k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                (!m.is_empty()).then_some(Value::Object(m))
            })
            .collect();
        // Learned like the sample's fields, over the records that hold them: a late object
        // collapses to its name, late text is cut, a late number gets its extremes.
        let root = stats::learn(&examples);
        let mut learned = Compactor { tags: c.tags.clone(), ..Compactor::default() };
        let mut opaque_keys = Vec::new();
        learned.object(&root, &[], "", examples.len(), &mut opaque_keys);
        learned.settle_constants(&examples);
        // A value the records that hold it share is still a field: the others do not hold it.
        let columns: Vec<Column> = learned.columns.into_iter().chain(learned.constant_columns).collect();
        c.late_columns += columns.len();
        c.columns.extend(columns);
        // A field the sample held only empty was listed as left out; now it is shown.
        c.dropped.retain(|d| !shown.contains(d.as_str()));
        c.dropped.extend(learned.dropped);
        c.dropped.extend(listed.iter().map(|(k, _)| k.clone()));
        for (key, _) in &late {
            if let Err(at) = c.sample_keys.binary_search(key) {
                c.sample_keys.insert(at, key.clone());
            }
        }
    }
}

impl Compactor {
    /// Whether records whose members are all among `keys` can hold nothing the sample did
    /// not teach: no value is said once, and every one of `keys` was in the sample.
    pub(crate) fn nothing_beyond(&self, keys: &[String]) -> bool {
        self.constants.is_empty() && keys.iter().all(|k| self.sample_keys.binary_search(k).is_ok())
    }

    /// Reads `records` (those past `sample`, as the upstream sent them both) for what the
    /// sample did not teach, and changes the view to show it ([`Beyond`]).
    pub(crate) fn learn_beyond<R: Borrow<Value>>(&mut self, sample: &[Value], records: impl IntoIterator<Item = R>) {
        let mut beyond = Beyond::new(self, sample);
        for record in records {
            beyond.check(self, record.borrow());
        }
        if beyond.found() {
            beyond.apply(self);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::Compactor;
    use super::Beyond;

    fn jobs(n: usize) -> Vec<Value> {
        (0..n)
            .map(|i| {
                let state = ["ok", "slow"][i % 2];
                json!({"name": format!("job-{i:04}"), "state": state, "ms": i * 13 % 101})
            })
            .collect()
    }

    #[test]
    fn a_field_only_later_records_hold_gets_a_column_and_is_shown() {
        let sample = jobs(50);
        let mut c = Compactor::learn(&sample);
        let mut beyond = Beyond::new(&c, &sample);
        beyond.check(&c, &json!({"name": "job-0060", "state": "ok", "ms": 3}));
        assert!(!beyond.found(), "nothing new");
        // Null and empty values are no field.
        beyond.check(&c, &json!({"name": "job-0061", "state": "ok", "ms": 3, "error": null, "tags": []}));
        assert!(!beyond.found());
        let late = json!({"name": "job-2500", "state": "ok", "ms": 4, "error": "disk full on /var"});
        beyond.check(&c, &late);
        assert!(beyond.found());
        beyond.apply(&mut c);
        assert_eq!(c.columns.last().map(|col| col.name.as_str()), Some("error"));
        assert_eq!(c.late_columns, 1);
        let shown = c.apply_noting_cuts(&late).0;
        assert_eq!(shown["error"], "disk full on /var", "{shown}");
        // Read again, the field is known.
        let mut again = Beyond::new(&c, &sample);
        again.check(&c, &late);
        assert!(!again.found());
    }

    #[test]
    fn a_field_null_in_every_sampled_record_is_late_when_a_later_one_holds_it() {
        let sample: Vec<Value> = jobs(30)
            .into_iter()
            .map(|mut r| {
                r["closed_at"] = Value::Null;
                r
            })
            .collect();
        let mut c = Compactor::learn(&sample);
        assert!(c.dropped.iter().any(|d| d == "closed_at"), "{:?}", c.dropped);
        let later = json!({"name": "job-0400", "state": "ok", "ms": 2, "closed_at": "2026-01-02T03:04:05Z"});
        c.learn_beyond(&sample, [&later]);
        assert!(!c.dropped.iter().any(|d| d == "closed_at"), "shown, not listed as left out: {:?}", c.dropped);
        assert_eq!(c.apply_noting_cuts(&later).0["closed_at"], "2026-01-02T03:04:05Z");
    }

    #[test]
    fn past_the_columns_late_fields_are_listed_as_left_out() {
        let sample = jobs(20);
        let mut c = Compactor::learn(&sample);
        let mut beyond = Beyond::new(&c, &sample);
        for i in 0..6 {
            for _ in 0..=i {
                let mut record = json!({"name": "job-9", "state": "ok", "ms": 1});
                record[format!("extra{i}")] = json!(i);
                beyond.check(&c, &record);
            }
        }
        beyond.apply(&mut c);
        let names: Vec<&str> = c.columns.iter().map(|col| col.name.as_str()).collect();
        // The four held most often are columns; the two held least are listed.
        assert_eq!(&names[names.len() - 4..], ["extra2", "extra3", "extra4", "extra5"]);
        assert!(
            c.dropped.contains(&"extra0".to_owned()) && c.dropped.contains(&"extra1".to_owned()),
            "{:?}",
            c.dropped
        );
    }
}
