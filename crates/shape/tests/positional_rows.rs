//! Rows whose values sit in lists by position (BigQuery's `rows[].f[].v`, a sheet's
//! `values`), and records under their ids in one object, are read as records, in the first read and in the stored
//! result every later page reads, alike.
#![allow(clippy::unwrap_used)]

use serde_json::{Map, Value, json};
use toolshape_shape::{Data, OffsetContinuation, Resume, ShapeContext, ShapePlan, Shaper};
use toolshape_tokens::Tokenizer;

fn ctx<'a>(next: &'a OffsetContinuation, resume: Option<Resume>) -> ShapeContext<'a> {
    ShapeContext {
        tool: "query",
        tokenizer: Tokenizer::default(),
        nonce: "18446744073709551615",
        now_unix: None,
        resume,
        continuation: next,
    }
}

fn bigquery(rows: usize) -> Value {
    let rows: Vec<Value> = (0..rows)
        .map(|i| json!({"f": [{"v": format!("ord_{i:05}")}, {"v": (["organic", "email", "paid"][i % 3])}, {"v": format!("{}.5", i * 7 % 400)}]}))
        .collect();
    json!({
        "kind": "bigquery#getQueryResultsResponse",
        "schema": {"fields": [{"name": "order_id", "type": "STRING"}, {"name": "channel", "type": "STRING"}, {"name": "revenue", "type": "FLOAT"}]},
        "rows": rows,
        "totalRows": "600"
    })
}

#[test]
fn cells_are_named_by_the_schema_on_every_page() {
    let input = bigquery(600).to_string();
    let shaper = Shaper::new(ShapePlan { budget_tokens: 1500, ..ShapePlan::default() }).unwrap();
    let next = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let first = shaper.shape(input.as_bytes(), &ctx(&next, None)).unwrap();
    let summary = &first.envelope.summary;
    assert!(summary.contains("of 600 rows"), "rows, not cells, are the records: {summary}");
    assert!(summary.contains("channel, most first: email 200, organic 200, paid 200"), "{summary}");
    assert!(summary.contains("revenue: max 399.5 (order_id ord_00057)"), "{summary}");
    let Data::Table { columns, .. } = &first.envelope.data else { panic!("a table: {}", first.text) };
    assert_eq!(columns, &["order_id", "channel", "revenue"]);

    // The stored result every `next` reads holds the same named records.
    let stored = shaper.snapshot(input.as_bytes(), &ctx(&next, None)).bytes;
    let records: Vec<Value> = serde_json::from_slice(&stored).unwrap();
    assert_eq!(records.len(), 600);
    assert_eq!(records[1], json!({"order_id": "ord_00001", "channel": "email", "revenue": "7.5"}));
    let page = shaper
        .for_pages()
        .shape(&stored, &ctx(&next, Some(Resume::Records { offset: 300, end: None, facets: None })))
        .unwrap();
    assert!(page.text.contains("ord_00300"), "{}", page.text);
}

#[test]
fn a_sheet_is_read_under_its_header_row() {
    let mut values = vec![json!(["SKU", "Warehouse", "Stock Value"])];
    values.extend((0..300).map(|i| {
        json!([format!("SKU-{i:03}"), (["Reno NV", "Columbus OH"][i % 2]), format!("${},{:03}.25", 1 + i % 50, i)])
    }));
    let input = json!({"range": "Inventory!A1:C301", "majorDimension": "ROWS", "values": values}).to_string();
    let shaper = Shaper::new(ShapePlan { budget_tokens: 1500, ..ShapePlan::default() }).unwrap();
    let next = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let first = shaper.shape(input.as_bytes(), &ctx(&next, None)).unwrap();
    let summary = &first.envelope.summary;
    assert!(summary.contains("Warehouse: Columbus OH 150, Reno NV 150"), "{summary}");
    assert!(summary.contains("Stock Value: max $50,299.25 (SKU SKU-299)"), "{summary}");
}

#[test]
fn an_object_of_records_under_their_ids_is_read_as_records_on_every_page() {
    let bookings: Map<String, Value> = (0..200)
        .map(|i| {
            (
                format!("-OS{i:04}xq"),
                json!({"guest": format!("Guest {i}"), "status": (["confirmed", "checked_out"][i % 2]), "totalCents": i * 100}),
            )
        })
        .collect();
    let input = Value::Object(bookings).to_string();
    let shaper = Shaper::new(ShapePlan { budget_tokens: 1500, ..ShapePlan::default() }).unwrap();
    let next = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let first = shaper.shape(input.as_bytes(), &ctx(&next, None)).unwrap();
    let summary = &first.envelope.summary;
    assert!(summary.contains("of 200 records"), "{summary}");
    assert!(summary.contains("records from the 200 members, each named in `key`"), "{summary}");
    assert!(summary.contains("status: checked_out 100, confirmed 100"), "{summary}");
    assert!(summary.contains("totalCents: max 19900 (guest Guest 199)"), "{summary}");

    let stored = shaper.snapshot(input.as_bytes(), &ctx(&next, None)).bytes;
    let records: Vec<Value> = serde_json::from_slice(&stored).unwrap();
    assert_eq!(records.len(), 200);
    assert_eq!(records[3]["key"], json!("-OS0003xq"));
    let page = shaper
        .for_pages()
        .shape(&stored, &ctx(&next, Some(Resume::Records { offset: 150, end: None, facets: None })))
        .unwrap();
    assert!(page.text.contains("-OS0150xq"), "{}", page.text);

    // A document with a few object members of different kinds stays a document.
    let doc = json!({"metadata": {"name": "a"}, "spec": {"replicas": 3}, "status": {"ready": 2}}).to_string();
    let shaped = shaper.shape(doc.as_bytes(), &ctx(&next, None)).unwrap();
    assert!(!shaped.envelope.summary.contains("records from"), "{}", shaped.envelope.summary);
}
