//! How long each record's lists are: the formula with the most dependencies, the group with
//! the most hosts, the issue with the most labels. A list's values are counted over every
//! record by the facets, but the record holding the longest list was named nowhere, so
//! "which package declares the most dependencies" needed every record read. While the
//! facets' pass reads every record, each list field's longest and shortest list is kept with
//! the record that holds it, and the first read names them (`dependencies per record: most
//! 14 (name ffmpeg), least 0 (name zlib)`).
//!
//! Judged from the values alone: a field (at the record's top or one object down) holding
//! a list in at least half the records, whose lengths differ and reach three. At most
//! [`MAX_FIELDS`] fields are followed, the first met.

use serde_json::Value;

use crate::compact::Compactor;
use crate::numfmt::thousands;

/// List fields followed, at most.
const MAX_FIELDS: usize = 32;
/// Fields said, at most: those whose lengths spread the most.
const MAX_SAID: usize = 3;
/// The longest list must hold at least this many values to be worth a clause.
const MIN_LONGEST: usize = 3;
/// Characters of a holder's name kept.
const NAME_CHARS: usize = 60;

/// One list field's extremes so far.
struct Field {
    path: String,
    /// Records holding a list there.
    held: u64,
    most: (usize, String),
    least: (usize, String),
}

/// The list fields of every record, with their longest and shortest lists.
#[derive(Default)]
pub(crate) struct ListLengths {
    fields: Vec<Field>,
    records: u64,
}

impl ListLengths {
    /// Read one record (as it came), named by `compactor`'s key when it holds an extreme.
    pub(crate) fn add(&mut self, compactor: &Compactor, record: &Value) {
        if compactor.is_header(record) {
            return;
        }
        self.records += 1;
        let record = compactor.as_record(record);
        let Some(key) = compactor.key else { return };
        let key_name = compactor.columns.get(key).map_or("", |c| c.name.as_str());
        let name = || {
            let v = compactor.full_value(key, &record).unwrap_or(Value::Null);
            let text = match v {
                Value::String(s) => s,
                other => other.to_string(),
            };
            let text: String = text.chars().take(NAME_CHARS).collect();
            format!("{key_name} {text}")
        };
        let Value::Object(map) = &*record else { return };
        let mut lists: Vec<(String, usize)> = Vec::new();
        for (k, v) in map {
            match v {
                Value::Array(items) => lists.push((k.clone(), items.len())),
                Value::Object(inner) => {
                    for (k2, v2) in inner {
                        if let Value::Array(items) = v2 {
                            lists.push((format!("{k}.{k2}"), items.len()));
                        }
                    }
                }
                _ => {}
            }
        }
        for (path, len) in lists {
            let at = match self.fields.iter().position(|f| f.path == path) {
                Some(at) => at,
                None if self.fields.len() < MAX_FIELDS => {
                    let n = name();
                    self.fields.push(Field { path, held: 0, most: (len, n.clone()), least: (len, n) });
                    self.fields.len() - 1
                }
                None => continue,
            };
            let field = &mut self.fields[at];
            field.held += 1;
            if len > field.most.0 {
                field.most = (len, name());
            }
            if len < field.least.0 {
                field.least = (len, name());
            }
        }
    }

    /// The clauses of the fields whose lengths spread the most, in at most `room`
    /// characters; `None` when none qualifies or none fits.
    pub(crate) fn phrase(&self, room: usize) -> Option<String> {
        let mut said: Vec<&Field> = self
            .fields
            .iter()
            .filter(|f| f.held * 2 >= self.records && f.most.0 >= MIN_LONGEST && f.most.0 > f.least.0)
            .collect();
        said.sort_by_key(|f| std::cmp::Reverse(f.most.0 - f.least.0));
        let mut out = String::new();
        for f in said.into_iter().take(MAX_SAID) {
            let clause = format!(
                "{} per record: most {} ({}), least {} ({})",
                f.path,
                thousands(f.most.0 as u64),
                f.most.1,
                thousands(f.least.0 as u64),
                f.least.1
            );
            let sep = if out.is_empty() { 0 } else { 2 };
            if out.len() + sep + clause.len() > room {
                break;
            }
            if sep > 0 {
                out.push_str("; ");
            }
            out.push_str(&clause);
        }
        (!out.is_empty()).then_some(out)
    }
}

#[cfg(test)]
#[path = "list_lengths_tests.rs"]
mod tests;
