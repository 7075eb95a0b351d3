//! Values the same in every record: learned from the sample, said once in the summary, and
//! checked against the records the sample did not hold.
//!
//! A field the first records all share (`status: open`) is left out of the records and said
//! once. The sample is only the first records, so a later record may hold another value (the
//! closed indices at the end of a listing): said once, that value would be lost from every
//! page. Later records are therefore read against the constants
//! ([`Compactor::contradicted_constants`]), and a constant one of them contradicts becomes a
//! field of every record again ([`Compactor::demote_constants`]), counted by facets like any
//! field of few values.

use serde_json::Value;

use super::{CONSTANTS_CHARS, Compactor, Holds};

impl Compactor {
    /// Constants were pushed as columns to keep their place; now take them out, with the
    /// value every record of the sample shares.
    pub(super) fn settle_constants(&mut self, sample: &[Value]) {
        let names: Vec<String> = self.constants.iter().map(|(n, _)| n.clone()).collect();
        let mut constants = Vec::new();
        let mut columns = Vec::new();
        self.columns.retain(|c| {
            if names.contains(&c.name) {
                let v = sample.iter().find_map(|r| c.read(r)).unwrap_or(Value::Null);
                constants.push((c.name.clone(), v));
                columns.push(c.clone());
                false
            } else {
                true
            }
        });
        self.constants = constants;
        self.constant_columns = columns;
    }

    /// Marks in `out` (one flag per constant) the constants `record` holds another value
    /// of. `also_same` holds, per constant, the value as the upstream sent it in the sample
    /// (before redaction and caps changed it), which is not another value either. Records
    /// as the upstream sent them are read here, so a value the sample's shaping changed is
    /// compared with both forms.
    pub(crate) fn contradicted_constants(&self, record: &Value, also_same: &[Option<Value>], out: &mut [bool]) {
        if self.constant_columns.is_empty() {
            return;
        }
        let record = self.as_record(record);
        for (j, column) in self.constant_columns.iter().enumerate() {
            if out.get(j).copied().unwrap_or(true) {
                continue;
            }
            let Some((v, _)) = column.read_with(&record, false) else { continue };
            let said = self.constants.get(j).map(|(_, c)| c);
            let differs =
                !v.is_null() && said != Some(&v) && also_same.get(j).is_none_or(|raw| raw.as_ref() != Some(&v));
            if differs {
                out[j] = true;
            }
        }
    }

    /// Each constant's value in the first of `records` (as the upstream sent them) that
    /// holds it: what [`Compactor::contradicted_constants`] also takes as the same value.
    pub(crate) fn constants_as_sent(&self, records: &[Value]) -> Vec<Option<Value>> {
        self.constant_columns
            .iter()
            .map(|c| records.iter().find_map(|r| c.read_with(&self.as_record(r), false).map(|(v, _)| v)))
            .collect()
    }

    /// How many constants there are to check.
    pub(crate) fn constants_len(&self) -> usize {
        self.constant_columns.len()
    }

    /// Turns the constants flagged in `which` back into fields of every record, after the
    /// other columns (whose places facets and the key already refer to), counted as fields
    /// of few values.
    pub(crate) fn demote_constants(&mut self, which: &[bool]) {
        let mut kept = Vec::new();
        let mut kept_columns = Vec::new();
        let pairs = std::mem::take(&mut self.constants).into_iter().zip(std::mem::take(&mut self.constant_columns));
        for (j, (constant, mut column)) in pairs.enumerate() {
            if which.get(j).copied().unwrap_or(false) {
                column.holds = Holds::Categories;
                self.columns.push(column);
            } else {
                kept.push(constant);
                kept_columns.push(column);
            }
        }
        self.constants = kept;
        self.constant_columns = kept_columns;
    }

    /// The constants said once, as one phrase (`kind=calendar#event, locked=false`): those
    /// whose value is short, while the phrase stays within `room` characters (at most
    /// [`CONSTANTS_CHARS`]).
    pub(crate) fn constants_phrase(&self, room: usize) -> Option<String> {
        let parts: Vec<String> = self.said_constants(room).map(|(k, v)| format!("{k}={v}")).collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    fn said_constants(&self, room: usize) -> impl Iterator<Item = (&str, String)> {
        let mut room = room.min(CONSTANTS_CHARS);
        self.constants.iter().filter_map(move |(k, v)| {
            let v = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let cost = k.len() + v.len() + 3;
            // Values redacted alike (`[EMAIL]` in every record) may have differed before:
            // not said to be the same, but listed with the fields left out.
            let redacted = toolshape_redact::holds_redaction(&v);
            (v.len() <= 40 && cost <= room && !redacted).then(|| {
                room -= cost;
                (k.as_str(), v)
            })
        })
    }

    /// Constants not said once (too long, or past the room), to be listed with the fields
    /// left out.
    pub(crate) fn unsaid_constants(&self, room: usize) -> Vec<&str> {
        let said: Vec<&str> = self.said_constants(room).map(|(k, _)| k).collect();
        self.constants.iter().map(|(k, _)| k.as_str()).filter(|k| !said.contains(k)).collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::Compactor;

    fn indices(n: usize) -> Vec<Value> {
        (0..n)
            .map(|i| {
                let health = ["green", "yellow"][i % 2];
                json!({"index": format!("logs-{i:03}"), "status": "open", "docs": i * 7, "health": health})
            })
            .collect()
    }

    #[test]
    fn a_later_record_with_another_value_is_a_contradiction_and_its_field_comes_back() {
        let sample = indices(20);
        let mut c = Compactor::learn(&sample);
        assert_eq!(c.constants, [("status".to_owned(), json!("open"))]);
        let same = c.constants_as_sent(&sample);
        let mut out = vec![false; c.constants_len()];
        // The same value, a missing field and a null are no contradiction.
        for later in
            [json!({"index": "x", "status": "open"}), json!({"index": "y"}), json!({"index": "z", "status": null})]
        {
            c.contradicted_constants(&later, &same, &mut out);
        }
        assert_eq!(out, [false]);
        c.contradicted_constants(&json!({"index": "logs-900", "status": "close"}), &same, &mut out);
        assert_eq!(out, [true]);
        c.demote_constants(&out);
        assert!(c.constants.is_empty());
        assert_eq!(c.columns.last().map(|col| col.name.as_str()), Some("status"));
        let shown = c.apply_noting_cuts(&json!({"index": "logs-900", "status": "close", "docs": 1})).0;
        assert_eq!(shown["status"], "close", "{shown}");
    }

    #[test]
    fn the_value_as_the_upstream_sent_it_is_not_another_value() {
        let sample = indices(20);
        let mut c = Compactor::learn(&sample);
        // As if shaping had changed the sample's value (a redaction, a cap).
        c.constants[0].1 = json!("[REDACTED]");
        let same = c.constants_as_sent(&sample);
        let mut out = vec![false; c.constants_len()];
        c.contradicted_constants(&json!({"index": "logs-500", "status": "open"}), &same, &mut out);
        assert_eq!(out, [false]);
    }
}
