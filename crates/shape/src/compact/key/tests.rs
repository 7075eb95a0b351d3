//! Which field names a record, on hand-made records.

use serde_json::{Value, json};

use super::super::Compactor;

/// The name of the field that names the records of `sample`.
fn key_of(sample: &[Value]) -> Option<String> {
    let c = Compactor::learn(sample);
    c.key.map(|k| c.columns[k].name.clone())
}

/// Invoices as an accounting API writes them: its own `Id` and the number people quote.
fn invoices(number_field: &str) -> Vec<Value> {
    (0..20)
        .map(|i| {
            let mut invoice = json!({
                "Id": (5100 + i * 7).to_string(),
                "TxnDate": format!("2025-12-{:02}", 1 + i % 28),
                "TotalAmt": 100.0 + (i * 37 % 900) as f64,
            });
            invoice[number_field] = json!((1900 + i).to_string());
            invoice
        })
        .collect()
}

#[test]
fn a_records_own_number_names_it_before_the_bare_id_of_digits() {
    let sample = invoices("DocNumber");
    let key = key_of(&sample);
    assert_eq!(key.as_deref(), Some("DocNumber"));
}

#[test]
fn a_field_not_named_as_a_number_leaves_the_id_the_key() {
    let sample = invoices("Reference");
    let key = key_of(&sample);
    assert_eq!(key.as_deref(), Some("Id"));
}

/// Questions as a Q&A site's search lists them: ids handed out over sixteen years, and
/// titles that read as sentences.
fn questions(id_field: &str) -> Vec<Value> {
    (0..20)
        .map(|i| {
            let mut q = json!({
                "title": format!("How do I group rows by the first value of column {i}?"),
                "score": (i * 13 % 40) as i64 - 5,
            });
            q[id_field] = json!(1_248_536 + i * i * 250_000);
            q
        })
        .collect()
}

#[test]
fn a_records_own_id_names_it_however_far_apart_its_numbers_are() {
    let sample = questions("question_id");
    let key = key_of(&sample);
    assert_eq!(key.as_deref(), Some("question_id"));
    // Numbers as far apart, not named as an id, are a measure: the title names the record.
    let sample = questions("views");
    let key = key_of(&sample);
    assert_eq!(key.as_deref(), Some("title"));
}
