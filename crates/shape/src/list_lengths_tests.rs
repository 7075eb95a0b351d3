//! Tests of the longest and shortest lists per record.

use serde_json::{Value, json};

use super::*;

fn formulae() -> Vec<Value> {
    (0..30)
        .map(|i| {
            let deps: Vec<String> = (0..(i * 7) % 13).map(|d| format!("dep{d}")).collect();
            json!({"name": format!("formula{i:02}"), "version": "1.0", "dependencies": deps,
                   "installed": {"runtime_dependencies": deps.iter().take(2).collect::<Vec<_>>()}})
        })
        .collect()
}

fn lengths(records: &[Value]) -> ListLengths {
    let compactor = Compactor::learn(records);
    let mut lengths = ListLengths::default();
    for r in records {
        lengths.add(&compactor, r);
    }
    lengths
}

#[test]
fn the_records_with_the_longest_and_shortest_list_are_named() {
    let phrase = lengths(&formulae()).phrase(1_000).expect("the dependencies are said");
    // 7·i mod 13 is 12 first at i = 11, and 0 at i = 0.
    assert!(
        phrase.starts_with("dependencies per record: most 12 (name formula11), least 0 (name formula00)"),
        "{phrase}"
    );
    // Lists of at most two values say nothing worth the room.
    assert!(!phrase.contains("runtime_dependencies"), "{phrase}");
}

#[test]
fn lists_of_one_length_or_few_holders_or_no_room_are_not_said() {
    let same: Vec<Value> = (0..20).map(|i| json!({"name": format!("n{i}"), "tags": ["a", "b", "c"]})).collect();
    assert_eq!(lengths(&same).phrase(1_000), None);
    let rare: Vec<Value> = (0..20)
        .map(|i| {
            if i < 5 {
                json!({"name": format!("n{i}"), "tags": vec!["a"; i]})
            } else {
                json!({"name": format!("n{i}")})
            }
        })
        .collect();
    assert_eq!(lengths(&rare).phrase(1_000), None);
    assert_eq!(lengths(&formulae()).phrase(20), None);
}
