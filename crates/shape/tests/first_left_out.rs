//! The first record's short strings that the compact view leaves out, said in a first read
//! beside the rows (`data.first_left_out`):
//!
//! - each is the first record's own value at its path, and the list is led by the key;
//! - the read still fits its budget;
//! - later pages do not repeat them.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolshape_redact::RedactSpec;
use toolshape_shape::{Data, OffsetContinuation, Resume, ShapeContext, ShapePlan, Shaped, Shaper};
use toolshape_tokens::Tokenizer;

fn shape(records: &[Value], budget: usize, resume: Option<Resume>) -> Shaped {
    let plan = ShapePlan {
        budget_tokens: budget,
        redact: RedactSpec { builtins: false, ..RedactSpec::default() },
        ..ShapePlan::default()
    };
    let next = OffsetContinuation { tool: "read".into(), base: Map::new() };
    let ctx = ShapeContext {
        tool: "t",
        tokenizer: Tokenizer::default(),
        nonce: "0123456789abcdef",
        now_unix: None,
        resume,
        continuation: &next,
    };
    let input = serde_json::to_vec(records).expect("json");
    Shaper::new(plan).expect("a plan").shape(&input, &ctx).expect("a budget this size always fits")
}

/// What a read says of its first record's left-out values, in either form of the data.
fn first_left_out(data: &Data) -> Option<Map<String, Value>> {
    match data {
        Data::Table { first_left_out, .. } => first_left_out.clone(),
        Data::Value(Value::Object(m)) => m.get("first_left_out").and_then(Value::as_object).cloned(),
        _ => None,
    }
}

/// The value at a dotted `path` of `record` (the generated keys hold no dots).
fn at<'v>(record: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(record, |v, k| v.get(k))
}

/// A random-looking hex digest for `i`.
fn sha(i: usize) -> String {
    let mix = |x: u64| x.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29) ^ 0xd6e8_feb8_6659_fd93;
    let x = mix(i as u64 + 1);
    format!("{:016x}{:016x}{:08x}", x, mix(x), mix(x ^ 7) as u32)
}

/// Entries of a repository's tree: a path, a mode, a content hash and a link to it.
fn tree(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let sha = sha(i);
            json!({
                "path": format!("services/api/src/module_{i:04}.go"),
                "mode": "100644",
                "type": "blob",
                "sha": sha,
                "size": 1000 + i * 7,
                "url": format!("https://api.example.com/repos/acme/shop/git/blobs/{sha}"),
            })
        })
        .collect()
}

#[test]
fn a_tree_first_entry_comes_with_its_hash_and_later_pages_without() {
    let entries = tree(600);
    let first = shape(&entries, 4000, None);
    let said = first_left_out(&first.envelope.data).expect("the first entry's left-out values");
    assert_eq!(said.get("path"), entries[0].get("path"), "led by the key: {said:?}");
    assert_eq!(said.get("sha"), entries[0].get("sha"), "{said:?}");
    assert!(!said.contains_key("url"), "links stay left out: {said:?}");
    assert!(first.report.tokens_out.unwrap_or(0) <= 4000);
    let page = shape(&entries, 4000, Some(Resume::Records { offset: 5, end: None, facets: None }));
    assert!(first_left_out(&page.envelope.data).is_none(), "{}", page.text);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn left_out_values_are_the_first_records_own(
        n in 30usize..200,
        budget in 800usize..5000,
        hex in "[0-9a-f]{40}",
        setting in "[a-z]{2,12}",
    ) {
        let records: Vec<Value> = (0..n)
            .map(|i| {
                json!({
                    "id": i,
                    "name": format!("record {i}"),
                    "digest": if i == 0 { hex.clone() } else { sha(i) },
                    "link": format!("https://api.example.com/things/{}", sha(i)),
                    "settings": {"policy": if i == 0 { setting.clone() } else { format!("p{}", i % 3) }},
                    "note": "word ".repeat(40),
                })
            })
            .collect();
        let first = shape(&records, budget, None);
        prop_assert!(first.report.tokens_out.unwrap_or(0) <= budget as u64, "{}", first.text);
        if let Some(said) = first_left_out(&first.envelope.data) {
            for (path, value) in &said {
                prop_assert_eq!(at(&records[0], path), Some(value), "{} in {}", path, first.text);
            }
        }
    }
}
