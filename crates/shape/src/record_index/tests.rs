//! Unit tests of the index's column choice and its rows.

use serde_json::{Value, json};
use toolshape_redact::RedactionCounts;
use toolshape_tokens::Tokenizer;

use super::*;
use crate::compact::Compactor;

fn issues(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({
                "id": 9_000_000 + i * 7,
                "number": 100 + i,
                "title": format!("Fix the parser when input {i} is empty"),
                "state": if i % 3 == 0 { "closed" } else { "open" },
                "body": format!("A long description of problem {i}, with steps to reproduce it, what was expected, what happened instead, and the logs that were printed when it failed on the build machine."),
                "comments": i % 5,
            })
        })
        .collect()
}

/// The compactor learned from `sample`, its columns, and the sample's rows as the table
/// shows them.
fn as_table(sample: &[Value]) -> (Compactor, Vec<String>, Vec<Value>) {
    let c = Compactor::learn(sample);
    let columns: Vec<String> = c.columns.iter().map(|c| c.name.clone()).collect();
    let rows: Vec<Value> = sample
        .iter()
        .map(|r| match c.apply(r) {
            Value::Object(mut m) => Value::Array(columns.iter().map(|k| m.remove(k).unwrap_or(Value::Null)).collect()),
            other => other,
        })
        .collect();
    (c, columns, rows)
}

#[test]
fn columns_are_the_key_and_short_ones_never_free_text() {
    let sample = issues(30);
    let (c, columns, rows) = as_table(&sample);
    let tok = Tokenizer::default();
    let chosen = choose_columns(&c, &columns, &rows, &tok, 100, 2_000).expect("an index");
    assert!(!chosen.names.contains(&"body".to_owned()), "{chosen:?}");
    assert!(chosen.names.len() >= MIN_COLUMNS && chosen.names.len() < columns.len(), "{chosen:?}");
    let key = &columns[c.key.expect("a key")];
    assert!(chosen.names.contains(key), "{chosen:?} lacks the key {key}");
    // Less room: fewer columns, never fewer than two.
    let narrow = choose_columns(&c, &columns, &rows, &tok, 100, 300).expect("an index");
    assert!(narrow.names.len() <= chosen.names.len());
    assert_eq!(narrow.names.len(), MIN_COLUMNS, "{narrow:?}");
}

#[test]
fn a_column_the_key_spells_out_is_not_indexed() {
    // A model search: `author` and `modelId` repeat what the id `author/name` says.
    let sample: Vec<Value> = (0..40)
        .map(|i| {
            let author = ["meta-llama", "unsloth", "mlx-community", "TheBloke"][i % 4];
            let id = format!("{author}/Llama-3.1-8B-variant-{i}");
            let gated = ["false", "manual"][i % 2];
            json!({"id": id, "modelId": id, "author": author, "gated": gated, "downloads": 1_000 + i * 37})
        })
        .collect();
    let (c, columns, rows) = as_table(&sample);
    let chosen = choose_columns(&c, &columns, &rows, &Tokenizer::default(), 100, 1_000).expect("an index");
    assert_eq!(columns[c.key.expect("a key")], "id", "{columns:?}");
    assert!(chosen.names.contains(&"id".to_owned()), "{chosen:?}");
    assert!(!chosen.names.iter().any(|n| n == "author" || n == "modelId"), "{chosen:?}");
}

#[test]
fn rows_stop_at_the_room_and_start_where_asked() {
    let tok = Tokenizer::default();
    let columns = IndexColumns { picks: vec![0, 2], names: vec!["a".into(), "c".into()], row_tokens: 6 };
    let units: Vec<(Value, RedactionCounts)> =
        (0..10).map(|i| (json!([i, "x", format!("name {i}")]), RedactionCounts::default())).collect();
    let index = IndexRows::new(&columns, 5, units, &tok);
    assert!(index.part(5, 15, 0).is_none(), "no room, no index");
    index.room.set(1_000);
    let all = index.part(5, 15, 0).expect("rows");
    assert_eq!(all.columns, vec!["a", "c"]);
    assert_eq!(all.rows.len(), 10);
    assert_eq!(all.rows[0], vec![json!(0), json!("name 0")]);
    let from_eight = index.part(8, 12, 0).expect("rows");
    assert_eq!(from_eight.rows.len(), 4, "stops before `before`");
    assert_eq!(from_eight.rows[0][0], json!(3));
    assert!(index.part(2, 15, 0).is_none(), "before the first row made");
    let one: usize = index.costs().next().expect("a cost");
    index.room.set(one * 3 + one / 2);
    assert_eq!(index.part(5, 15, 0).expect("rows").rows.len(), 3);
}

#[test]
fn rows_that_cannot_reach_the_end_leave_a_third_to_the_records_before_it() {
    let tok = Tokenizer::default();
    let columns = IndexColumns { picks: vec![0, 2], names: vec!["a".into(), "c".into()], row_tokens: 6 };
    let units = |range: std::ops::Range<u64>| -> Vec<(Value, RedactionCounts)> {
        range.map(|i| (json!([i, "x", "name"]), RedactionCounts::default())).collect()
    };
    // Positions 5 to 34 made in one run.
    let index = IndexRows::new(&columns, 5, units(5..35), &tok);
    let one: usize = index.costs().next().expect("a cost");
    assert!(index.costs().all(|c| c == one), "rows of one size");
    let firsts = |rows: &[Vec<Value>]| rows.iter().map(|r| r[0].as_u64().unwrap_or(0)).collect::<Vec<_>>();
    index.room.set(one * 12 + one / 2);
    let part = index.part(5, 35, 5).expect("rows");
    assert_eq!(firsts(&part.before_last), vec![31, 32, 33, 34], "a third of the twelve that fit");
    assert_eq!(firsts(&part.rows), (5..13).collect::<Vec<_>>());
    index.room.set(one * 24 + one / 2);
    let part = index.part(5, 35, 5).expect("rows");
    assert_eq!(firsts(&part.before_last), vec![30, 31, 32, 33, 34], "five at most");
    assert_eq!(part.rows.len(), 19);
    index.room.set(one * 30);
    let all = index.part(5, 35, 5).expect("rows");
    assert!(all.before_last.is_empty() && all.rows.len() == 30, "rows that reach the end need no others");
    // A first run that stops early, and the records before the end made apart.
    let apart = IndexRows::new(&columns, 5, units(5..15), &tok).with_end(&columns, 40, units(40..45), &tok);
    apart.room.set(one * 6 + one / 2);
    let part = apart.part(5, 45, 5).expect("rows");
    assert_eq!((firsts(&part.rows), firsts(&part.before_last)), (vec![5, 6, 7, 8], vec![43, 44]));
    assert_eq!(apart.shown_rows(), 6);
    // No more than wanted (the last records shown already hold the others).
    assert_eq!(firsts(&apart.part(5, 45, 1).expect("rows").before_last), vec![44]);
    assert!(apart.part(5, 45, 0).expect("rows").before_last.is_empty());
    // Records before the end that were not made are not shown.
    assert!(apart.part(5, 50, 5).expect("rows").before_last.is_empty());
}
