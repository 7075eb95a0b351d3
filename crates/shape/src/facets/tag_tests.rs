//! A field that tags records of several kinds (each kind's own fields beside it) has all
//! its values listed, where another field of as many values shows its most common ones.

use serde_json::json;

use super::*;

/// The facets phrase of `recs`, learned from all of them.
fn phrase_of(recs: &[Value]) -> String {
    let c = Compactor::learn(recs);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    f.phrase(4_000).unwrap_or_default()
}

/// Blocks of twelve kinds, the rarest kinds last: each block holds a member named by its
/// kind, and a colour that is not a kind.
fn blocks() -> Vec<Value> {
    let kinds = [
        "paragraph",
        "bullet",
        "todo",
        "row",
        "heading",
        "quote",
        "callout",
        "toggle",
        "code",
        "divider",
        "table",
        "page",
    ];
    let colours =
        ["red", "blue", "green", "gray", "pink", "brown", "orange", "yellow", "purple", "black", "white", "teal"];
    let mut out = Vec::new();
    for (k, kind) in kinds.iter().enumerate() {
        for i in 0..(24 - 2 * k) {
            let mut block = json!({"id": format!("b{k}-{i}"), "type": kind, "colour": colours[(k + i) % 12]});
            block[*kind] = json!({"text": format!("{kind} {i}"), "level": i % 3});
            out.push(block);
        }
    }
    out
}

#[test]
fn every_kind_of_a_tagged_field_is_listed() {
    let phrase = phrase_of(&blocks());
    assert!(phrase.contains("page 2"), "the rarest kind is listed: {phrase}");
    assert!(phrase.contains("table 4"), "{phrase}");
    assert!(
        !phrase.contains("type, most first: paragraph 24, bullet 22, todo 20, row 18, heading 16, quote 14 (+"),
        "{phrase}"
    );
}

#[test]
fn a_field_that_names_no_fields_keeps_its_most_common_values() {
    let recs = blocks();
    let counter_of = |field: &str| {
        let c = Compactor::learn(&recs);
        let names: Vec<String> = c.columns.iter().map(|col| col.name.clone()).collect();
        let i = c.columns.iter().position(|col| col.name == field).unwrap_or(usize::MAX);
        let mut counter = counter::Counter::new(i, true);
        recs.iter().enumerate().for_each(|(n, r)| counter.add(&r[field], n as u64));
        counter.tags_kinds(field, &names)
    };
    assert!(counter_of("type"));
    assert!(!counter_of("colour"));
}
