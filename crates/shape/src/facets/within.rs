//! Extremes within a state: the largest and smallest value of a number or a time among the
//! records that hold one value of a field of few values, so "which open pull request is the
//! oldest" or "which is the most recent release that failed" is answered without reading
//! every record. Said for the values fewer than half the records hold (the open ones among
//! the merged, the failed among the succeeded): the whole result's extremes already speak
//! for the most common value.

use serde_json::Value;

use super::extremes::Extremes;
use super::{Holder, scalar_text};

/// Fields of few values followed per number or time, at most: the first in the records'
/// order. Over the evaluation catalog, following two answered no more questions than one,
/// and their clauses took room on later pages that three answers had been found in.
pub(super) const MAX_STATES: usize = 1;
/// Values a field may hold to be followed: past it, it is not a state.
const MAX_VALUES: usize = 5;

/// The records of one value of a state field: how many, and their extremes.
struct Group {
    value: Value,
    count: u64,
    extremes: Extremes,
}

/// One state field followed for one number or time.
pub(super) struct Within {
    /// The state field's column.
    pub(super) column: usize,
    groups: Vec<Group>,
    /// Values followed at most; past them the field is given up.
    max_values: usize,
    /// The field held more values than a state does.
    given_up: bool,
}

impl Within {
    pub(super) fn new(column: usize) -> Within {
        Within::of_values(column, MAX_VALUES)
    }

    /// Following up to `max_values` values of the field: the kinds of a measure
    /// ([`crate::compact::Measure`]), where each kind's extremes are the only ones said.
    pub(super) fn of_values(column: usize, max_values: usize) -> Within {
        Within { column, groups: Vec::new(), max_values, given_up: false }
    }

    /// Add a record holding `state` in the state field and `x` (written as `shown` gives
    /// it) in the number or time; `shown` and `holder` (which names the record) are called
    /// only for a record that holds an extreme so far.
    pub(super) fn add(
        &mut self,
        state: Option<&Value>,
        x: f64,
        shown: impl Fn() -> String,
        holder: impl Fn() -> Holder,
    ) {
        if self.given_up {
            return;
        }
        let Some(state) = state.filter(|s| !s.is_null() && !s.is_array() && !s.is_object()) else { return };
        // Compared as values: no text is made for the records that hold no extreme.
        let at = match self.groups.iter().position(|g| g.value == *state) {
            Some(at) => at,
            None if self.groups.len() < self.max_values => {
                self.groups.push(Group { value: state.clone(), count: 0, extremes: Extremes::default() });
                self.groups.len() - 1
            }
            None => {
                self.given_up = true;
                self.groups.clear();
                return;
            }
        };
        let g = &mut self.groups[at];
        g.count += 1;
        g.extremes.add(x, shown, holder);
    }

    /// The clauses of the values fewer than half of `present` records hold (at least two of
    /// them, with different extremes): `{field} where {state} is {value} ({n} records): {hi}
    /// …, {lo} …`.
    pub(super) fn clauses(
        &self,
        field: &str,
        state: &str,
        (hi, lo): (&str, &str),
        present: u64,
        name: impl Fn(&Holder) -> String,
    ) -> Vec<String> {
        if self.given_up || self.groups.len() < 2 {
            return Vec::new();
        }
        self.groups
            .iter()
            .filter(|g| g.count >= 2 && g.count * 2 < present)
            .filter_map(|g| {
                let (min, max) = g.extremes.spread()?;
                Some(format!(
                    "{field} where {state} is {} ({} records): {hi} {}{}, {lo} {}{}",
                    scalar_text(&g.value),
                    g.count,
                    max.1,
                    name(&max.2),
                    min.1,
                    name(&min.2)
                ))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
