//! What names a record to a reader: never an amount written for people, and the record's
//! own name before the name of what it belongs to.

use serde_json::{Value, json};

use super::Compactor;

/// Deals as a CRM lists them: a numeric id, an amount and its formatted twin, the
/// company's name (a few deals each) and the deal's title, which holds the company's name
/// (two deals share a title, so the title is no key).
fn deals() -> Vec<Value> {
    let companies = [
        "Driftwood Retail",
        "Oakridge Hospitality",
        "Nimbus Systems",
        "Kestrel Retail",
        "Juniper Health",
        "Redwood Logistics",
        "Ironbark Energy",
        "Evergreen Partners",
        "Granite Systems",
        "Bluepeak Health",
        "Tamarack Partners",
        "Northwind Media",
    ];
    let products = ["Renewal", "Learning suite", "Content library", "SSO add-on", "Analytics"];
    (0..20)
        .map(|i| {
            let company = companies[i % companies.len()];
            let value = 5_000 + i * 11_300;
            let product = if i == 19 { products[0] } else { products[i / companies.len()] };
            json!({
                "id": 317 + i * 3,
                // Some titles read as a phrase, not as a name.
                "title": if i % 5 == 1 { format!("{company} expansion ({} seats)", 10 + i) } else { format!("{company} - {product}") },
                "value": value,
                "formatted_value": format!("£{},{:03}", value / 1000, value % 1000),
                "org_name": company,
                "status": (["won", "lost", "open"][i % 3]),
            })
        })
        .collect()
}

fn named(c: &Compactor, column: Option<usize>) -> Option<&str> {
    column.map(|k| c.columns[k].name.as_str())
}

#[test]
fn an_amount_written_for_people_never_names_a_record() {
    // `£49,500` is unique in the page and shorter than the title, but it is a measure.
    let c = Compactor::learn(&deals());
    assert_ne!(named(&c, c.key), Some("formatted_value"));
    assert_eq!(named(&c, c.key), Some("id"));
    // Nor does a size or a span of time, however unique.
    let files: Vec<Value> = (0..12)
        .map(|i| json!({"size": format!("{}.{} MiB", 10 + i, i), "took": format!("{}ms", 300 + i * 7), "n": 40 + i}))
        .collect();
    let c = Compactor::learn(&files);
    assert!(!matches!(named(&c, c.key), Some("size" | "took")), "key: {:?}", named(&c, c.key));
}

#[test]
fn the_record_s_own_name_labels_it_before_the_name_of_what_it_belongs_to() {
    // The company's name is a name, and the title only reads as one; but every title holds
    // its company's name, and tells the deals apart where the company does not.
    let c = Compactor::learn(&deals());
    assert_eq!(named(&c, c.label), Some("title"));
}

#[test]
fn names_that_hold_no_other_name_are_ranked_as_before() {
    // A channel's slug beside an incident's name: neither holds the other, so the spaced
    // name labels the record.
    let incidents: Vec<Value> = (0..12)
        .map(|i| {
            let name = format!("Disk almost full on db-{i} after backup");
            json!({"reference": format!("INC-{}", 400 + i), "id": format!("01KCM4E7F0Q80H0PN7QZ346A{i:02}"),
                   "name": name, "slack_channel_name": format!("inc-{}-disk-almost-full-{i}", 400 + i)})
        })
        .collect();
    let c = Compactor::learn(&incidents);
    assert_eq!(named(&c, c.label), Some("name"), "key: {:?}", named(&c, c.key));
}
