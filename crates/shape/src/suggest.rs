//! A mask's `result:` block suggested from a saved result: what the default view learned
//! from the records, written down for a user to review and keep (`toolshape suggest`).
//!
//! - `project`: the fields the compact view keeps, as paths (each checked to resolve on
//!   most sampled records), renamed to the names the compact view shows;
//! - `field_tokens`: a cap on each field of free text;
//! - `sort`: a time field the records already come sorted by, newest first, when one is;
//! - `aggregate.group_by`: the fields of few repeating values the facets count.

use serde_json::Value;

use crate::compact::{Compactor, Holds, SAMPLE_RECORDS};
use crate::input::{Located, Locating, decode, keyed_records, locate};
use crate::path::FieldPath;
use crate::records::parse;

/// Token cap suggested for a field of free text.
const TEXT_TOKENS: usize = 40;
/// Fields grouped by, at most.
const MAX_GROUPS: usize = 3;
/// Share of adjacent sampled records, in percent, that must be in order for a sort.
const SORTED_PERCENT: usize = 90;

/// What `suggest` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// Records in the result.
    pub records: usize,
    /// Fields to keep: `(path, shown name)`.
    pub project: Vec<(String, String)>,
    /// Caps on fields of free text, by shown name.
    pub field_tokens: Vec<(String, usize)>,
    /// A time field to sort by, newest first.
    pub sort_desc: Option<String>,
    /// Fields to count values of.
    pub group_by: Vec<String>,
    /// Fields the records have that the projection leaves out.
    pub left_out: Vec<String>,
}

/// The suggestion for a saved result, or `None` when it holds no list of records.
pub fn suggest(input: &[u8]) -> Option<Suggestion> {
    let (text, _) = decode(input);
    let mut keyed = None;
    // Records are found as a mask with the default budget would find them.
    let how = Locating {
        text_objects: false,
        enter_bytes: crate::ShapePlan::default().budget_tokens.saturating_mul(crate::fit::WHOLE_BYTES_PER_TOKEN),
    };
    let Located::Records { items, .. } = keyed_records(locate(&text, None, how), &mut keyed) else { return None };
    let sample: Vec<Value> = items.iter().take(SAMPLE_RECORDS).map(|r| parse(r)).collect();
    let compactor = Compactor::learn(&sample);
    if !compactor.is_active() {
        return None;
    }
    let mut s = Suggestion {
        records: items.len(),
        project: Vec::new(),
        field_tokens: Vec::new(),
        sort_desc: None,
        group_by: Vec::new(),
        left_out: compactor.dropped.clone(),
    };
    let mut best_sorted = 0usize;
    for column in &compactor.columns {
        let path_text = column.projection();
        let Ok(path) = FieldPath::parse(&path_text) else { continue };
        let found = sample.iter().filter(|r| path.select(r).is_some_and(|v| !v.is_null())).count();
        if found * 2 < sample.len() {
            continue;
        }
        // One name of a list read as a map: the list is kept whole, once.
        if column.is_pair_value() {
            if !s.project.iter().any(|(p, _)| *p == path_text) {
                s.project.push((path_text.clone(), path_text));
            }
            continue;
        }
        let shown = column.name.clone();
        if column.is_text() {
            s.field_tokens.push((shown.clone(), TEXT_TOKENS));
        }
        if column.holds == Holds::Categories && !column.unique && s.group_by.len() < MAX_GROUPS {
            s.group_by.push(path_text.clone());
        }
        if column.holds == Holds::Times {
            let times: Vec<String> =
                sample.iter().filter_map(|r| path.select(r).and_then(|v| v.as_str().map(str::to_owned))).collect();
            let ordered = times.windows(2).filter(|w| w[0] >= w[1]).count();
            let pairs = times.len().saturating_sub(1);
            if pairs > 0 && ordered * 100 >= pairs * SORTED_PERCENT && ordered > best_sorted {
                best_sorted = ordered;
                s.sort_desc = Some(shown.clone());
            }
        }
        s.project.push((path_text, shown));
    }
    Some(s)
}

impl Suggestion {
    /// The suggestion as a mask's `result:` block (YAML), with comments saying why.
    pub fn to_yaml(&self) -> String {
        let quote = |t: &str| serde_json::to_string(t).unwrap_or_default();
        let mut out = String::from("result:\n");
        let fields: Vec<String> = self
            .project
            .iter()
            .map(|(path, shown)| if path == shown { quote(path) } else { quote(&format!("{path} as {shown}")) })
            .collect();
        out.push_str(&format!("  # the fields the default view kept, of {} records\n", self.records));
        out.push_str(&format!("  project: [{}]\n", fields.join(", ")));
        if !self.field_tokens.is_empty() {
            let caps: Vec<String> = self.field_tokens.iter().map(|(f, n)| format!("{}: {n}", quote(f))).collect();
            out.push_str("  # free text, capped\n");
            out.push_str(&format!("  field_tokens: {{ {} }}\n", caps.join(", ")));
        }
        if let Some(by) = &self.sort_desc {
            out.push_str("  # the records came newest first by this field\n");
            out.push_str(&format!("  sort: {{ by: {}, order: desc }}\n", quote(by)));
        }
        if !self.group_by.is_empty() {
            let groups: Vec<String> =
                self.group_by.iter().map(|g| format!("{{ field: {}, top: 5 }}", quote(g))).collect();
            out.push_str("  # fields of few repeating values: counted over every record\n");
            out.push_str(&format!("  aggregate:\n    group_by: [{}]\n", groups.join(", ")));
        }
        if !self.left_out.is_empty() {
            out.push_str(&format!("  # left out: {}\n", self.left_out.join(", ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issues_get_fields_caps_a_sort_and_groups() {
        let input = toolshape_fixtures::issues_json(60, 3);
        let s = suggest(&input).expect("a list of records");
        assert_eq!(s.records, 60);
        let paths: Vec<&str> = s.project.iter().map(|(p, _)| p.as_str()).collect();
        assert!(paths.contains(&"number") && paths.contains(&"title") && paths.contains(&"user.login"), "{paths:?}");
        assert!(paths.contains(&"labels[].name"), "{paths:?}");
        assert!(!paths.contains(&"url") && !paths.contains(&"node_id"), "{paths:?}");
        assert!(s.field_tokens.iter().any(|(f, _)| f == "body"), "{:?}", s.field_tokens);
        assert!(s.group_by.iter().any(|g| g == "state"), "{:?}", s.group_by);
        // Every suggested path parses and resolves.
        let records: Vec<Value> = serde_json::from_slice(&input).unwrap_or_default();
        for (p, _) in &s.project {
            let path = FieldPath::parse(p).unwrap_or_else(|e| panic!("{p}: {e}"));
            assert!(records.iter().any(|r| path.select(r).is_some()), "{p}");
        }
    }

    #[test]
    fn text_and_scalars_get_none() {
        assert_eq!(suggest(b"just a line of text\n"), None);
        assert_eq!(suggest(b"42"), None);
    }
}
