//! A number whose name says it is an identifier (`customer_id`, `issue_number`) is never
//! totalled per name: a sum of ids means nothing, and it took a place among the few
//! numbers totalled that an amount needs. Names of several words (an ad group's) group
//! totals as names of one word do.

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

#[test]
fn numbers_are_totalled_by_names_of_several_words() {
    // A report of rows per ad group and day: which ad group got the most clicks over the
    // period is a sum over its rows. The names read as words, not as a few categories.
    let groups =
        ["Rain Jackets Men", "Rain Jackets Women", "Tents 2 Person", "Brand Core", "Camping Stoves", "Boots Wide Fit"];
    let recs: Vec<Value> = (0..60)
        .map(|i| {
            json!({
                "ad_group": groups[i % groups.len()],
                "date": format!("2025-12-{:02}", 1 + i / groups.len()),
                "clicks": (40 + (i * 7) % 50).to_string(),
            })
        })
        .collect();
    let p = phrase_of(&recs);
    assert!(p.contains("clicks total by ad_group, largest first:"), "{p}");
}

#[test]
fn an_amount_unique_to_each_record_is_ranged_with_the_other_numbers() {
    // A deal's value differs in every deal, like an id, but is what "which deal is worth
    // the most" asks for: it is ranged with the numbers, before the times, where a unique
    // number named as an id (`id`, beside the `ticket_number` that names the records)
    // stays last.
    let recs: Vec<Value> = (0..30)
        .map(|i| {
            json!({"id": 300 + i, "stage_id": 1 + i % 6, "value": 5_000 + i * 7_919 % 97_000,
                   "ticket_number": 9_000 + i * 13, "created": format!("2025-11-{:02}T08:00:00Z", 1 + i),
                   "status": (["won", "lost", "open"][i % 3])})
        })
        .collect();
    let p = phrase_of(&recs);
    let at = |s: &str| p.find(s).unwrap_or_else(|| panic!("{s} in {p}"));
    assert!(at("value: max") < at("created: latest"), "{p}");
    assert!(at("created: latest") < at("; id: max"), "{p}");
}
