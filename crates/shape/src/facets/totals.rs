//! Totals of a number per value of a field of names: "which consumer group has the largest
//! total lag", "which customer owes the most", "which host was sent the most bytes" ask for
//! a sum over the records each name holds, which no single record's value says. A few
//! fields of names are followed for each number; the clause is said for the first of them
//! whose names repeat, largest total first.

use foldhash::HashMap;
use serde_json::Value;

use super::scalar_text;

/// Fields of names followed per number, at most: the first in the records' order.
pub(super) const MAX_GROUP_FIELDS: usize = 3;
/// Numbers followed, at most: the first fields of numbers.
pub(super) const MAX_NUMBERS: usize = 4;
/// Names followed per field; past it the field is given up (an id, not a name to group by).
const MAX_NAMES: usize = 256;
/// A field of at most this many values holds states (`paid`, `open`), not names.
const MAX_STATE_VALUES: usize = 5;
/// Names said per clause, largest total first.
const SHOWN: usize = 5;

/// The totals of one number per value of one field.
pub(super) struct Totals {
    /// The field of names.
    pub(super) group: usize,
    /// The field of numbers.
    pub(super) number: usize,
    /// Per name: the total, the records, and the first number added.
    sums: HashMap<String, (f64, u64, f64)>,
    /// Whether every number added was whole.
    whole: bool,
    /// Whether some name holds two different numbers: where each name holds one number only
    /// (a droplet size's memory, a netmask of 64 on every address), a total is that number
    /// times the name's count and says nothing the value counts do not.
    varies: bool,
    given_up: bool,
}

impl Totals {
    pub(super) fn new(group: usize, number: usize) -> Totals {
        Totals { group, number, sums: HashMap::default(), whole: true, varies: false, given_up: false }
    }

    /// Add a record holding `name` in the field of names and `x` in the field of numbers.
    pub(super) fn add(&mut self, name: Option<&Value>, x: f64) {
        if self.given_up || !x.is_finite() {
            return;
        }
        let Some(name) = name.filter(|v| !v.is_null() && !v.is_array() && !v.is_object()) else { return };
        // Looked up without a copy: a name is copied once, when first seen.
        let owned;
        let name = match name {
            Value::String(s) => s.as_str(),
            other => {
                owned = scalar_text(other);
                owned.as_str()
            }
        };
        let full = self.sums.len() >= MAX_NAMES;
        match self.sums.get_mut(name) {
            Some(entry) => {
                entry.0 += x;
                entry.1 += 1;
                self.varies |= entry.2 != x;
            }
            None if full => return self.give_up(),
            None => {
                self.sums.insert(name.to_owned(), (x, 1, x));
            }
        }
        self.whole &= x.fract() == 0.0;
    }

    /// Stop: the field of numbers holds a value that is not one, so no total is whole.
    pub(super) fn give_up(&mut self) {
        self.given_up = true;
        self.sums.clear();
    }

    /// How many names repeat (held by two records or more); 0 when the totals say nothing
    /// a record's own value or the value counts do not (given up, no name repeating, or one
    /// number per name), or when the field
    /// holds a few states rather than names (a state's extremes are said [`within`] it).
    ///
    /// [`within`]: super::within
    pub(super) fn repeating_names(&self) -> usize {
        if self.given_up || !self.varies || self.sums.len() <= MAX_STATE_VALUES {
            return 0;
        }
        self.sums.values().filter(|(_, n, _)| *n >= 2).count()
    }

    /// `{number} total by {group}, largest first: {name} {total}, …`.
    pub(super) fn clause(&self, number: &str, group: &str) -> Option<String> {
        if self.repeating_names() == 0 {
            return None;
        }
        let mut listed: Vec<(&String, f64)> = self.sums.iter().map(|(k, (sum, _, _))| (k, *sum)).collect();
        listed.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        // Totals that are all the same (a niceness of 0 for every user) rank nothing.
        if listed.first().map(|l| l.1) == listed.last().map(|l| l.1) {
            return None;
        }
        let shown: Vec<String> = listed
            .iter()
            .take(SHOWN)
            .map(|(name, sum)| format!("{} {}", super::quoted_if_ambiguous(name), self.number_text(*sum)))
            .collect();
        let more = listed.len().saturating_sub(SHOWN);
        let more = if more > 0 { format!(" (+{more} more)") } else { String::new() };
        Some(format!("{number} total by {group}, largest first: {}{more}", shown.join(", ")))
    }

    fn number_text(&self, x: f64) -> String {
        if self.whole && x.abs() < 1e15 { format!("{}", x as i64) } else { format!("{x:.2}") }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn totals_are_said_largest_first_for_names_that_repeat() {
        let mut t = Totals::new(0, 1);
        for (name, x) in
            [("a", 5.0), ("b", 7.0), ("a", 4.0), ("c", 1.0), ("b", 1.0), ("d", 0.5), ("e", 0.25), ("f", 0.0)]
        {
            t.add(Some(&json!(name)), x);
        }
        assert_eq!(t.repeating_names(), 2);
        assert_eq!(
            t.clause("lag", "group").unwrap(),
            "lag total by group, largest first: a 9.00, b 8.00, c 1.00, d 0.50, e 0.25 (+1 more)"
        );
    }

    #[test]
    fn names_that_never_repeat_or_too_many_names_say_nothing() {
        let mut once = Totals::new(0, 1);
        for (i, name) in ["a", "b", "c", "d", "e", "f", "g"].iter().enumerate() {
            once.add(Some(&json!(name)), i as f64);
        }
        assert_eq!(once.clause("x", "y"), None);
        let mut states = Totals::new(0, 1);
        for name in ["paid", "open", "void", "paid", "open"] {
            states.add(Some(&json!(name)), 1.0);
        }
        assert_eq!(states.clause("x", "status"), None);
        let mut same = Totals::new(0, 1);
        for name in ["a", "b", "c", "d", "e", "f", "a", "b"] {
            same.add(Some(&json!(name)), 0.0);
        }
        assert_eq!(same.clause("nice", "user"), None);
        let mut ids = Totals::new(0, 1);
        for i in 0..=MAX_NAMES {
            ids.add(Some(&json!(format!("id-{i}"))), 1.0);
            ids.add(Some(&json!(format!("id-{i}"))), 1.0);
        }
        assert_eq!(ids.repeating_names(), 0);
        let mut constant = Totals::new(0, 1);
        for name in ["a", "b", "c", "d", "e", "f", "a", "b", "a"] {
            constant.add(Some(&json!(name)), 64.0);
        }
        assert_eq!(constant.clause("netmask", "host"), None);
        let mut by_size = Totals::new(0, 1);
        for (name, x) in [("s", 1.0), ("m", 2.0), ("l", 4.0), ("xl", 8.0), ("2xl", 16.0), ("3xl", 32.0), ("s", 1.0)] {
            by_size.add(Some(&json!(name)), x);
        }
        assert_eq!(by_size.clause("memory", "size"), None);
    }

    #[test]
    fn whole_numbers_stay_whole_and_ties_go_by_name() {
        let mut t = Totals::new(0, 1);
        for (name, x) in [("a", 1.0), ("a", 2.0), ("b", 3.0), ("c", 2.0), ("d", 1.0), ("e", 1.0), ("f", 1.0)] {
            t.add(Some(&json!(name)), x);
        }
        assert_eq!(t.clause("n", "who").unwrap(), "n total by who, largest first: a 3, b 3, c 2, d 1, e 1 (+1 more)");
    }
}
