//! Facets: what every record of a result adds up to, computed before any cut, so "how many
//! are Blocked" and "which charge is largest" are answered without reading every page.
//!
//! The compact view's fields decide what is counted: a field of few distinct values (or
//! lists of them) gets value counts; a field of numbers or timestamps gets its smallest
//! and largest value with the record holding each, named by the record's key field. Records
//! are added one at a time, so memory is bounded by the distinct values kept per field
//! ([`MAX_DISTINCT`]), and at most [`MAX_RECORDS`] records are read.

use std::collections::HashMap;

use serde_json::Value;

use crate::aggregate::timestamp_millis;
use crate::compact::{Compactor, Holds};
use crate::numfmt::thousands;

/// Distinct values counted per field; later new values are counted together.
pub(crate) const MAX_DISTINCT: usize = 1_000;
/// Records read for facets at most; past it the summary says over how many.
pub(crate) const MAX_RECORDS: u64 = 1_000_000;
/// Values shown per counted field.
const TOP: usize = 6;

/// One facet being computed.
enum Acc {
    Counts { column: usize, counts: HashMap<String, u64>, other: u64 },
    Range { column: usize, times: bool, min: Option<(f64, String, String)>, max: Option<(f64, String, String)> },
}

/// Facets over a stream of records.
pub(crate) struct Facets<'c> {
    compactor: &'c Compactor,
    accs: Vec<Acc>,
    records: u64,
    skipped: u64,
}

impl<'c> Facets<'c> {
    /// Facets of the compact view's fields worth them.
    pub(crate) fn new(compactor: &'c Compactor) -> Facets<'c> {
        // Counts first, then numbers, then times, then numbers unique to each record (often
        // ids): when the room runs out, the facets a question most often needs are kept.
        let mut accs: Vec<Acc> = Vec::new();
        let order = [
            (Holds::Categories, Some(false)),
            (Holds::Numbers, Some(false)),
            (Holds::Times, None),
            (Holds::Numbers, Some(true)),
        ];
        for (wanted, unique) in order {
            for (i, c) in compactor.columns.iter().enumerate() {
                if Some(i) == compactor.key || unique.is_some_and(|u| c.unique != u) || c.holds != wanted {
                    continue;
                }
                accs.push(match wanted {
                    Holds::Categories => Acc::Counts { column: i, counts: HashMap::new(), other: 0 },
                    _ => Acc::Range { column: i, times: wanted == Holds::Times, min: None, max: None },
                });
            }
        }
        Facets { compactor, accs, records: 0, skipped: 0 }
    }

    /// Whether anything is computed.
    pub(crate) fn is_empty(&self) -> bool {
        self.accs.is_empty()
    }

    /// Add one record (as it came, before compaction).
    pub(crate) fn add(&mut self, record: &Value) {
        if self.records >= MAX_RECORDS {
            self.skipped += 1;
            return;
        }
        self.records += 1;
        let key = self.compactor.key.and_then(|k| self.compactor.value(k, record)).map(|v| scalar_text(&v));
        for acc in &mut self.accs {
            match acc {
                Acc::Counts { column, counts, other } => {
                    let Some(v) = self.compactor.value(*column, record) else { continue };
                    let mut values: Vec<String> = match v {
                        Value::Array(items) => items.iter().map(scalar_text).collect(),
                        one => vec![scalar_text(&one)],
                    };
                    values.sort();
                    values.dedup();
                    for s in values {
                        if let Some(n) = counts.get_mut(&s) {
                            *n += 1;
                        } else if counts.len() < MAX_DISTINCT {
                            counts.insert(s, 1);
                        } else {
                            *other += 1;
                        }
                    }
                }
                Acc::Range { column, times, min, max } => {
                    let Some(v) = self.compactor.value(*column, record) else { continue };
                    let x = if *times { timestamp_millis(&v).map(|t| t as f64) } else { v.as_f64() };
                    let Some(x) = x else { continue };
                    let shown = scalar_text(&v);
                    let holder = key.clone().unwrap_or_default();
                    if min.as_ref().is_none_or(|m| x < m.0) {
                        *min = Some((x, shown.clone(), holder.clone()));
                    }
                    if max.as_ref().is_none_or(|m| x > m.0) {
                        *max = Some((x, shown, holder));
                    }
                }
            }
        }
    }

    /// The facets as clauses of a summary, at most `max_chars` in all (whole clauses),
    /// with a note of how many did not fit.
    pub(crate) fn phrase(&self, max_chars: usize) -> Option<String> {
        let key_name = self.compactor.key.and_then(|k| self.compactor.columns.get(k)).map(|c| c.name.as_str());
        let mut clauses: Vec<String> = Vec::new();
        for acc in &self.accs {
            let clause = match acc {
                Acc::Counts { column, counts, other } => {
                    let name = &self.compactor.columns[*column].name;
                    // One value in every record says nothing a constant would not.
                    if counts.len() < 2 && *other == 0 && counts.values().all(|n| *n >= self.records) {
                        continue;
                    }
                    let mut ranked: Vec<(&String, &u64)> = counts.iter().collect();
                    ranked.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
                    let shown: Vec<String> =
                        ranked.iter().take(TOP).map(|(v, n)| format!("{} {}", short(v), thousands(**n))).collect();
                    let more = ranked.len().saturating_sub(TOP);
                    let mut c = format!("{name}: {}", shown.join(", "));
                    if more > 0 || *other > 0 {
                        c.push_str(&format!(" (+{} more values)", thousands(more as u64 + u64::from(*other > 0))));
                    }
                    c
                }
                Acc::Range { column, times, min, max } => {
                    let (Some(min), Some(max)) = (min, max) else { continue };
                    if min.0 == max.0 {
                        continue;
                    }
                    let name = &self.compactor.columns[*column].name;
                    let (hi, lo) = if *times { ("latest", "earliest") } else { ("max", "min") };
                    let holder = |h: &str| match (key_name, h.is_empty()) {
                        (Some(k), false) => format!(" ({k} {})", short(h)),
                        _ => String::new(),
                    };
                    format!("{name}: {hi} {}{}, {lo} {}{}", max.1, holder(&max.2), min.1, holder(&min.2))
                }
            };
            clauses.push(clause);
        }
        if clauses.is_empty() {
            return None;
        }
        let mut out = String::new();
        let mut left = clauses.len();
        for c in &clauses {
            if out.len() + c.len() + 2 > max_chars {
                break;
            }
            if !out.is_empty() {
                out.push_str("; ");
            }
            out.push_str(c);
            left -= 1;
        }
        if left > 0 {
            out.push_str(&format!(
                "{}{} more facets with a larger budget",
                if out.is_empty() { "" } else { "; " },
                left
            ));
        }
        if self.skipped > 0 {
            out.push_str(&format!(" (over the first {} records)", thousands(self.records)));
        }
        Some(out)
    }
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A value for a summary, at most 40 characters: a longer one keeps its start and its
/// end, where values that share a long prefix (ARNs, paths, URLs) differ.
fn short(s: &str) -> String {
    let n = s.chars().count();
    if n <= 40 {
        return s.to_owned();
    }
    let head: String = s.chars().take(14).collect();
    let tail: String = s.chars().skip(n - 25).collect();
    format!("{head}…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn records() -> Vec<Value> {
        (0..40)
            .map(|i| json!({"id": format!("ch_{i:03}"), "status": (["ok", "ok", "ok", "failed"][i % 4]), "amount": (i * 37) % 101, "created": format!("2025-12-{:02}T10:00:00Z", 1 + i % 28), "labels": [(["a", "b"][i % 2])]}))
            .collect()
    }

    #[test]
    fn counts_and_extremes_are_over_every_record() {
        let recs = records();
        let c = Compactor::learn(&recs[..10]);
        let mut f = Facets::new(&c);
        recs.iter().for_each(|r| f.add(r));
        let p = f.phrase(10_000).unwrap();
        assert!(p.contains("status: ok 30, failed 10"), "{p}");
        assert!(p.contains("labels: a 20, b 20"), "{p}");
        let (max, holder) = recs
            .iter()
            .map(|r| (r["amount"].as_u64().unwrap(), r["id"].as_str().unwrap()))
            .max_by_key(|(a, _)| *a)
            .unwrap();
        assert!(p.contains(&format!("amount: max {max} (id {holder})")), "{p}");
        assert!(p.contains("created: latest 2025-12-28T10:00:00Z"), "{p}");
    }

    #[test]
    fn the_phrase_keeps_whole_clauses_within_its_room() {
        let recs = records();
        let c = Compactor::learn(&recs[..10]);
        let mut f = Facets::new(&c);
        recs.iter().for_each(|r| f.add(r));
        let p = f.phrase(40).unwrap();
        assert!(p.starts_with("status: ok 30, failed 10; "), "{p}");
        assert!(p.ends_with("more facets with a larger budget"), "{p}");
    }
}
