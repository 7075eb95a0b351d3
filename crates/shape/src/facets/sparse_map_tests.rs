//! A map written as a list of `{key, value}` pairs with too many names for a column each
//! (a trace's span tags) is shown as one object per record; the names whose values repeat
//! are still counted over every record.

use serde_json::json;

use super::*;

/// Spans of three kinds, each with the few tags of its kind: 30 tag names in all.
fn spans() -> Vec<Value> {
    (0..300)
        .map(|i| {
            let tag = |k: &str, v: Value| json!({"key": k, "type": "string", "value": v});
            let mut tags = match i % 3 {
                0 => vec![tag("span.kind", json!("client")), tag("db.system", json!("postgresql"))],
                1 => vec![tag("span.kind", json!("client")), tag("db.system", json!("redis"))],
                _ => vec![
                    tag("span.kind", json!("server")),
                    tag("http.status_code", json!(if i % 5 == 0 { 409 } else { 200 })),
                ],
            };
            // One rare tag per span, of 27 names: too many for columns.
            tags.push(tag(&format!("custom.{}", i % 27), json!(format!("v{i}"))));
            json!({"spanID": format!("{i:016x}"), "operationName": format!("op {}", i % 7), "tags": tags})
        })
        .collect()
}

#[test]
fn the_repeating_names_of_a_sparse_map_are_counted() {
    let recs = spans();
    let c = Compactor::learn(&recs);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    let phrase = f.phrase(4_000).unwrap_or_default();
    assert!(phrase.contains("tags.span.kind: client 200, server 100"), "{phrase}");
    assert!(phrase.contains("tags.db.system: postgresql 100, redis 100"), "{phrase}");
    assert!(phrase.contains("tags.http.status_code: 200 80, 409 20"), "{phrase}");
    // A name whose values all differ is not counted.
    assert!(!phrase.contains("tags.custom.1"), "{phrase}");
    // The view still shows one object of tags per record, not a column per name.
    let shown = c.apply(&recs[0]);
    assert_eq!(shown["tags"]["span.kind"], "client", "{shown}");
}
