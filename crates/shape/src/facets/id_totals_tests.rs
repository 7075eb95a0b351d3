//! A number whose name says it is an identifier (`customer_id`, `issue_number`) is never
//! totalled per name: a sum of ids means nothing, and it took a place among the few
//! numbers totalled that an amount needs.

use serde_json::json;

use super::*;

/// The facets phrase of `recs`, learned from all of them.
fn phrase_of(recs: &[Value]) -> String {
    let c = Compactor::learn(recs);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    f.phrase(10_000).unwrap_or_default()
}

#[test]
fn numbers_named_as_ids_are_not_totalled_but_amounts_are() {
    let owners = ["Ada", "Lin", "Kofi", "Mia", "Noor", "Ravi", "Zoe"];
    let recs: Vec<Value> = (0..42)
        .map(|i| {
            json!({
                "owner": owners[i % owners.len()],
                "customer_id": 1000 + (i * 37) % 11,
                "amount": 5 + (i * 13) % 20,
            })
        })
        .collect();
    let p = phrase_of(&recs);
    assert!(!p.contains("customer_id total by"), "{p}");
    assert!(p.contains("amount total by owner, largest first:"), "{p}");
}
