//! Paths and names with random parts: whether words name what a value points at.
//!
//! An object's key (`athena-results/0062fb81-….csv`, `exports/invoices/2025/04/INV-36844.pdf`)
//! or a pod's name (`query-api-8bv5rskg7p-ddmj5`) reads as random as a whole, but its words
//! are what a reader names it by: cut to its start, or passed over for a hash, it names
//! nothing. A resource path whose start every record shares
//! (`projects/p/databases/(default)/documents/shipments/DsTWrvfT…`) is another matter: its
//! words name the collection, and the record is named by its random end.

use serde_json::Value;

use super::{Compactor, Extract, stats};

/// Whether most of `values` (strings) are named by words once the start they all share, up
/// to a `/`, is set aside.
pub(super) fn named_by_words(values: &[&str]) -> bool {
    let Some(first) = values.first() else { return false };
    let mut shared = first.len();
    for v in &values[1..] {
        shared = shared.min(first.bytes().zip(v.bytes()).take_while(|(a, b)| a == b).count());
    }
    // One value alone shares all of itself: nothing is set aside then.
    let shared = if values.len() < 2 { 0 } else { first[..shared].rfind('/').map_or(0, |i| i + 1) };
    let worded = values.iter().filter(|v| v.get(shared..).is_some_and(stats::is_worded)).count();
    worded * 2 > values.len()
}

impl Compactor {
    /// Random-looking columns kept whole for the words in their values: cut after all when
    /// the words are only the start every record shares.
    pub(super) fn settle_worded(&mut self, sample: &[Value]) {
        let worded = std::mem::take(&mut self.worded);
        for c in self.columns.iter_mut().filter(|c| worded.contains(&c.name)) {
            let values: Vec<Value> = sample.iter().filter_map(|r| c.read(r)).collect();
            let texts: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
            if !named_by_words(&texts) {
                c.extract = Extract::Opaque;
            }
        }
    }
}
