//! Kinds in the records' names: where the records' key holds a kind (`light.kitchen`,
//! `nginx.service`, `logs/…`), the first read counts the kinds over every record, and the
//! counts, and those of another field within each kind, are the counts over the input.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolshape_redact::RedactSpec;
use toolshape_shape::{OffsetContinuation, ShapeContext, ShapePlan, Shaper};
use toolshape_tokens::Tokenizer;

const DOMAINS: [&str; 5] = ["light", "sensor", "binary_sensor", "switch", "automation"];

/// The summary of the first read of `records` at a budget too small for all of them.
fn summary(records: &[Value]) -> String {
    let plan = ShapePlan {
        budget_tokens: 1500,
        redact: RedactSpec { builtins: false, ..RedactSpec::default() },
        ..ShapePlan::default()
    };
    let next = OffsetContinuation { tool: "read".into(), base: Map::new() };
    let ctx = ShapeContext {
        tool: "t",
        tokenizer: Tokenizer::default(),
        nonce: "0123456789abcdef",
        now_unix: None,
        resume: None,
        continuation: &next,
    };
    let input = serde_json::to_vec(records).unwrap();
    Shaper::new(plan).unwrap().shape(&input, &ctx).unwrap().envelope.summary
}

/// Entities named `domain.room_n`, with a state and a reading.
fn entities(domains: &[usize]) -> Vec<Value> {
    domains
        .iter()
        .enumerate()
        .map(|(i, d)| {
            json!({
                "entity_id": format!("{}.room_{i}", DOMAINS[*d]),
                "state": (["on", "off", "unavailable"][i % 3]),
                "last_changed": format!("2025-12-{:02}T10:{:02}:00Z", 1 + i % 28, i % 60),
                "reading": (i * 37) % 101,
            })
        })
        .collect()
}

/// Counts by value.
type Counts = BTreeMap<String, u64>;

/// The counts a clause states, by value, each with the counts within it if any
/// (`light 7 (on 4, off 3)`).
fn stated(summary: &str, label: &str) -> Option<BTreeMap<String, (u64, Counts)>> {
    let clause = summary.split("; ").find_map(|c| c.strip_prefix(label))?;
    let (_, list) = clause.split_once(": ")?;
    // Items are separated by ", " outside parentheses.
    let mut items = Vec::new();
    let (mut depth, mut cur) = (0i32, String::new());
    for c in list.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        cur.push(c);
        if depth == 0 && cur.ends_with(", ") {
            items.push(cur.trim_end_matches(", ").to_owned());
            cur.clear();
        }
    }
    items.push(cur);
    let pair = |kv: &str| {
        let (k, n) = kv.trim().rsplit_once(' ').unwrap();
        (k.to_owned(), n.parse::<u64>().unwrap())
    };
    Some(
        items
            .iter()
            .filter(|item| !item.starts_with('('))
            .map(|item| match item.split_once(" (") {
                Some((head, within)) => {
                    let (k, n) = pair(head);
                    (k, (n, within.trim_end_matches(')').split(", ").map(pair).collect()))
                }
                None => {
                    let (k, n) = pair(item);
                    (k, (n, BTreeMap::new()))
                }
            })
            .collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// The kinds are counted over every record, not over the records shown.
    #[test]
    fn kind_counts_equal_counts_over_the_input(domains in prop::collection::vec(0usize..5, 40..160)) {
        let records = entities(&domains);
        let mut want: BTreeMap<String, u64> = BTreeMap::new();
        for d in &domains {
            *want.entry(DOMAINS[*d].to_owned()).or_default() += 1;
        }
        let s = summary(&records);
        let label = "kinds of entity_id (before \".\")";
        let Some(got) = stated(&s, label) else {
            // One domain alone sorts nothing.
            prop_assert!(want.len() < 2, "kinds are not counted: {}", s);
            return Ok(());
        };
        let counts: BTreeMap<String, u64> = got.iter().map(|(k, (n, _))| (k.clone(), *n)).collect();
        prop_assert_eq!(counts, want, "in: {}", s);
        // Counts within a kind are those of the records of that kind.
        for (kind, (_, within)) in &got {
            if within.is_empty() {
                continue;
            }
            let mut states: BTreeMap<String, u64> = BTreeMap::new();
            for r in records.iter().filter(|r| r["entity_id"].as_str().unwrap().starts_with(&format!("{kind}."))) {
                *states.entry(r["state"].as_str().unwrap().to_owned()).or_default() += 1;
            }
            prop_assert_eq!(within, &states, "{} in: {}", kind, s);
        }
    }
}

#[test]
fn a_part_every_record_holds_differently_or_a_title_is_not_a_kind() {
    // Names unique in every part: nothing to count.
    let unique: Vec<Value> =
        (0..80).map(|i| json!({"name": format!("host{i}.zone{i}"), "state": (["up", "down"][i % 2])})).collect();
    let s = summary(&unique);
    assert!(!s.contains("kinds of"), "{s}");
    // Titles with a colon are words, not names.
    let titles: Vec<Value> = (0..80)
        .map(|i| json!({"title": format!("Part {}: chapter {i}", i % 3), "state": (["up", "down"][i % 2])}))
        .collect();
    let s = summary(&titles);
    assert!(!s.contains("kinds of"), "{s}");
}

#[test]
fn an_object_key_is_counted_by_folder_and_by_type() {
    let folders = ["logs", "exports", "raw"];
    let types = ["gz", "pdf", "parquet", "csv"];
    let records: Vec<Value> = (0..120)
        .map(|i| {
            json!({"Key": format!("{}/2025/{:02}/part-{i:05}-c000.{}", folders[i % 3], 1 + i % 12, types[i % 4]), "Size": 1000 + i * 77})
        })
        .collect();
    let s = summary(&records);
    let by_folder = stated(&s, "kinds of Key (before \"/\")").unwrap_or_default();
    assert_eq!(by_folder.get("logs").map(|k| k.0), Some(40), "{s}");
    let by_type = stated(&s, "kinds of Key (after the last \".\")").unwrap_or_default();
    assert_eq!(by_type.get(".parquet").map(|k| k.0), Some(30), "{s}");
}

/// A tree of files and their folders: the folders have no type, the files' types are
/// counted all the same, each written with its dot (`.go 40`), so "how many Go files"
/// finds `.go` next to its count.
#[test]
fn files_among_their_folders_are_counted_by_type() {
    let types = ["go", "md", "yaml"];
    let mut records: Vec<Value> = Vec::new();
    for f in 0..40 {
        records.push(json!({"path": format!("services/svc{f}"), "type": "tree"}));
        for (t, kind) in types.iter().enumerate().take(1 + f % 3) {
            records.push(
                json!({"path": format!("services/svc{f}/file{t}.{kind}"), "type": "blob", "size": 100 + f * 7 + t}),
            );
        }
    }
    let s = summary(&records);
    let by_type = stated(&s, "kinds of path (after the last \".\")").unwrap_or_default();
    assert_eq!(by_type.get(".go").map(|k| k.0), Some(40), "{s}");
    assert_eq!(by_type.get(".yaml").map(|k| k.0), Some(13), "{s}");
}

/// Findings in files of a tree, named by relative paths (`./src/auth/token.rs`): the top of
/// the tree is `src`, not `.`, and the folders are counted as well, most first, although
/// there are more of them than kinds are usually said for (the first few, without counts
/// within each).
#[test]
fn relative_paths_are_counted_by_their_top_and_by_their_folder() {
    let mut records: Vec<Value> = Vec::new();
    // Forty folders under `src`, one of them holding the most files, and a `tests` folder.
    for f in 0..40 {
        let files = if f == 7 { 9 } else { 2 + f % 3 };
        for n in 0..files {
            records.push(json!({"path": format!("./src/mod{f}/file{n}.rs"), "severity": (["low", "high"][n % 2])}));
        }
    }
    for n in 0..5 {
        records.push(json!({"path": format!("./tests/case{n}.rs"), "severity": "low"}));
    }
    let s = summary(&records);
    let top = stated(&s, "kinds of path (before \"/\")").unwrap_or_default();
    assert_eq!(top.get("src").map(|k| k.0), Some(records.len() as u64 - 5), "{s}");
    assert!(!top.contains_key("."), "{s}");
    // Most first: the folder with the most files leads; more folders than are listed.
    let clause = s.split("; ").find(|c| c.starts_with("folders of path")).unwrap_or_default();
    let list = clause.split_once(": ").map(|(_, list)| list).unwrap_or_default();
    assert!(list.starts_with("src/mod7 9, tests 5, "), "{clause}");
    assert!(list.ends_with(" more values)"), "{clause}");
}
