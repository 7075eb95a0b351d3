//! Splitting an object into parts and nesting a run of them again.

use serde_json::json;

use super::{PART_BYTES, rebuild, split};
use crate::path::Segment;

fn members(v: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    v.as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

#[test]
fn an_object_of_small_members_is_not_split() {
    assert!(split(&members(&json!({"a": 1, "b": [1, 2, 3], "c": {"d": "e"}}))).is_none());
}

#[test]
fn a_large_member_is_read_as_its_members_and_its_large_list_as_items() {
    let big = "x".repeat(PART_BYTES);
    let doc = json!({"id": 7, "report": {"name": "r", "items": [big.clone(), big.clone(), 3]}, "tail": true});
    let parts = split(&members(&doc)).unwrap();
    let paths: Vec<String> = parts.iter().map(super::Part::path_text).collect();
    assert_eq!(paths, ["id", "report.name", "report.items[0]", "report.items[1]", "report.items[2]", "tail"]);
    assert_eq!(parts.iter().map(|p| p.member).collect::<Vec<_>>(), [0, 1, 1, 1, 1, 2]);
    assert_eq!(parts[2].path.last(), Some(&Segment::Index(0)));
}

#[test]
fn a_run_of_parts_is_nested_as_in_the_object() {
    let big = "y".repeat(PART_BYTES);
    let doc = json!({"a": {"list": [{"k": big.clone(), "n": 1}, {"k": "short", "n": 2}], "z": 0}});
    let parts = split(&members(&doc)).unwrap();
    let members = members(&doc);
    let units: Vec<serde_json::Value> = parts.iter().map(|p| p.unit(&members)).collect();
    // All of them give the object back.
    assert_eq!(rebuild(&parts, &units), doc);
    // A run that starts inside the first item's members.
    let from = parts.iter().position(|p| p.path_text() == "a.list[0].n").unwrap();
    assert_eq!(
        rebuild(&parts[from..], &units[from..]),
        json!({"a": {"list": [{"n": 1}, {"k": "short", "n": 2}], "z": 0}})
    );
}
