//! Value counts within a state: how a counted field's values fall among the records that
//! hold one value of a field of few values, so "which service logged the most errors",
//! "which workflow failed most often" or "how many failed logins came from this address"
//! is answered without reading every record.
//!
//! Said for the state's values fewer than half the records hold (the errors among the info
//! lines, the failures among the successes): the whole result's counts already speak for
//! the most common value. Memory is bounded as a field's own counts are: a few state values
//! ([`MAX_VALUES`]), each with a [`Counter`] of at most [`super::MAX_DISTINCT`] values.

use serde_json::Value;

use super::counter::Counter;
use super::scalar_text;
use crate::numfmt::thousands;

/// Values the state field may hold: past it, it is not a state and nothing is said.
const MAX_VALUES: usize = 5;
/// Records a state value must hold for its counts to be said: one record's field is a
/// lookup, not a count.
const MIN_RECORDS: u64 = 2;

/// One state value's records: how many, and the counted field's values among them.
struct Group {
    state: Value,
    records: u64,
    counts: Counter,
}

/// A counted field's values within each value of one state field.
pub(super) struct StateCounts {
    /// The counted field's column.
    pub(super) column: usize,
    /// The state field's column.
    pub(super) state: usize,
    groups: Vec<Group>,
    /// The state field held more values than a state does.
    given_up: bool,
}

impl StateCounts {
    pub(super) fn new(column: usize, state: usize) -> StateCounts {
        StateCounts { column, state, groups: Vec::new(), given_up: false }
    }

    /// Add the `record`-th record, holding `state` in the state field and `value` in the
    /// counted field (either may be missing).
    pub(super) fn add(&mut self, state: Option<&Value>, value: Option<&Value>, record: u64) {
        if self.given_up {
            return;
        }
        let Some(state) = state.filter(|s| !s.is_null() && !s.is_array() && !s.is_object()) else { return };
        let at = match self.groups.iter().position(|g| g.state == *state) {
            Some(at) => at,
            None if self.groups.len() < MAX_VALUES => {
                self.groups.push(Group { state: state.clone(), records: 0, counts: Counter::new(self.column, true) });
                self.groups.len() - 1
            }
            None => {
                self.given_up = true;
                self.groups.clear();
                return;
            }
        };
        let group = &mut self.groups[at];
        group.records += 1;
        if let Some(v) = value.filter(|v| !v.is_null()) {
            group.counts.add(v, record);
        }
    }

    /// How rare the state's uncommon values are: the share of records that hold a value
    /// other than the most common one, when the field is a state (two to [`MAX_VALUES`]
    /// values, one held by at least half the records, another by [`MIN_RECORDS`] or more).
    /// Of several fields of few values, the one whose uncommon values are rarest (the
    /// failures among the successes, not the pull requests among the pushes) is the one
    /// a question singles records out by.
    pub(super) fn rarity(&self, records: u64) -> Option<f64> {
        if self.given_up || self.groups.len() < 2 || records == 0 {
            return None;
        }
        let most = self.groups.iter().map(|g| g.records).max()?;
        let rare = self.groups.iter().any(|g| g.records >= MIN_RECORDS && g.records * 2 < records);
        (most * 2 >= records && rare).then(|| (records - most) as f64 / records as f64)
    }

    /// The clauses, one per state value held by fewer than half of `records` (and by at
    /// least [`MIN_RECORDS`]): `service where status is error (41 records), most first:
    /// checkout 20, cart 12, …`, each listing at most `top` values.
    pub(super) fn clauses(&self, field: &str, state: &str, records: u64, top: usize) -> Vec<String> {
        if self.given_up || self.groups.len() < 2 {
            return Vec::new();
        }
        self.groups
            .iter()
            .filter(|g| g.records >= MIN_RECORDS && g.records * 2 < records)
            .filter_map(|g| {
                let name =
                    format!("{field} where {state} is {} ({} records)", scalar_text(&g.state), thousands(g.records));
                // The group's own records are its whole: a value every one of them holds is
                // said as such (`checkout 41`), which the counts' own rule would leave out.
                let (clause, _) = g.counts.clause(&name, g.records + 1, top)?;
                Some(clause)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
