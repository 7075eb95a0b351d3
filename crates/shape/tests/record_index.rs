//! Properties of a first read's index of the records it has no room to show whole, over
//! arbitrary record lists and budgets:
//!
//! - the page still fits its budget;
//! - each index row is the record at its position, as the pages after the first read show
//!   it, narrowed to the index's columns: the records right after the rows, in order, and
//!   never one the read shows whole;
//! - `omitted` still counts the indexed records as not shown, so `next` reaches them;
//! - rows before the last are the records just before the last one shown, in order, after
//!   every other row.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolshape_redact::RedactSpec;
use toolshape_shape::{Data, OffsetContinuation, Resume, ShapeContext, ShapePlan, Shaped, Shaper, table_records};
use toolshape_tokens::Tokenizer;

/// Run `f` with the context of a call, resuming at `resume`.
fn in_call<T>(resume: Option<Resume>, f: impl FnOnce(&ShapeContext<'_>) -> T) -> T {
    let next = OffsetContinuation { tool: "read".into(), base: Map::new() };
    f(&ShapeContext {
        tool: "t",
        tokenizer: Tokenizer::default(),
        nonce: "0123456789abcdef",
        now_unix: None,
        resume,
        continuation: &next,
    })
}

fn shape(shaper: &Shaper, input: &[u8], resume: Option<Resume>) -> Shaped {
    in_call(resume, |ctx| shaper.shape(input, ctx).expect("a budget this size always fits an envelope"))
}

fn plan(budget: usize) -> ShapePlan {
    ShapePlan {
        budget_tokens: budget,
        redact: RedactSpec { builtins: false, ..RedactSpec::default() },
        ..ShapePlan::default()
    }
}

/// Tickets: a number, a title, a state of few values, an owner that recurs, a priority, a
/// long description, and sometimes a missing due date.
fn arb_tickets() -> impl Strategy<Value = Vec<Value>> {
    let row = (0usize..3, 0usize..7, 1u8..5, any::<bool>(), "[a-z]{3,9}( [a-z]{2,8}){1,5}", "[a-z ]{150,400}");
    prop::collection::vec(row, 12..160).prop_map(|rows| {
        rows.into_iter()
            .enumerate()
            .map(|(i, (state, owner, priority, due, title, body))| {
                json!({
                    "number": 5000 + i,
                    "title": title,
                    "state": (["open", "closed", "blocked"][state]),
                    "owner": {"login": format!("owner{owner}"), "id": 300 + owner},
                    "priority": priority,
                    "due": if due { json!(format!("2026-01-{:02}", 1 + i % 28)) } else { Value::Null },
                    "description": body,
                })
            })
            .collect()
    })
}

/// The records a page shows whole, as objects, in order (the last record apart).
fn whole(data: &Data) -> (Vec<Value>, Vec<Value>) {
    match data {
        Data::Table { columns, rows, last, .. } => (table_records(columns, rows), table_records(columns, last)),
        Data::Records(r) => (r.clone(), Vec::new()),
        Data::Value(Value::Object(m)) => {
            let list = |k: &str| m.get(k).and_then(Value::as_array).cloned().unwrap_or_default();
            (list("records"), list("last"))
        }
        _ => (Vec::new(), Vec::new()),
    }
}

/// The rows of a first read's index before its last record, as objects.
fn before_last_of(data: &Data) -> Vec<Value> {
    let index = match data {
        Data::Table { index: Some(index), .. } => Some(index.clone()),
        Data::Value(Value::Object(m)) => m.get("index").and_then(|i| serde_json::from_value(i.clone()).ok()),
        _ => None,
    };
    index.map(|i: toolshape_shape::RecordIndex| table_records(&i.columns, &i.before_last)).unwrap_or_default()
}

/// The index a first read shows, as objects, when it shows one.
fn index_of(data: &Data) -> Option<Vec<Value>> {
    match data {
        Data::Table { index: Some(index), .. } => Some(table_records(&index.columns, &index.rows)),
        Data::Value(Value::Object(m)) => {
            let index = m.get("index")?;
            let columns: Vec<String> = serde_json::from_value(index.get("columns")?.clone()).ok()?;
            let rows: Vec<Vec<Value>> = serde_json::from_value(index.get("rows")?.clone()).ok()?;
            Some(table_records(&columns, &rows))
        }
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn index_rows_are_the_next_records_narrowed(tickets in arb_tickets(), budget in 900usize..6000) {
        let shaper = Shaper::new(plan(budget)).unwrap();
        let input = serde_json::to_vec(&tickets).unwrap();
        let first = shape(&shaper, &input, None);
        prop_assert!(first.report.tokens_out.unwrap_or(0) <= budget as u64, "{}", first.text);
        let (head, last) = whole(&first.envelope.data);
        let Some(index) = index_of(&first.envelope.data) else { return Ok(()) };
        prop_assert!(!index.is_empty());
        // The rows before the last: the records right before the last shown, in order,
        // each with the record's own number, title and state.
        let before_last = before_last_of(&first.envelope.data);
        if !before_last.is_empty() {
            prop_assert!(!last.is_empty(), "rows before the last come with the last: {}", first.text);
            prop_assert!(last.len() + before_last.len() <= 6, "down to the sixth from the end: {}", first.text);
            let at = tickets.len() - last.len() - before_last.len();
            for (i, row) in before_last.iter().enumerate() {
                let record = &tickets[at + i];
                for column in ["number", "title", "state"] {
                    if let Some(cell) = row.get(column) {
                        prop_assert_eq!(Some(cell), record.get(column), "row {} before the last: {}", i, first.text);
                    }
                }
            }
            let numbers = |rows: &[Value]| rows.iter().filter_map(|r| r.get("number")?.as_u64()).collect::<Vec<_>>();
            let (after_head, ends) = (numbers(&index), numbers(&before_last));
            prop_assert!(after_head.iter().all(|n| ends.iter().all(|e| n < e)), "{}", first.text);
        }
        let omitted = first.envelope.omitted.as_ref().expect("an index means records were left out");
        prop_assert_eq!(omitted.unit.as_str(), "records");
        prop_assert_eq!(omitted.count as usize, tickets.len() - head.len() - last.len());
        // The records the pages after the first read show whole, from where its rows stop.
        let stored = in_call(None, |ctx| shaper.snapshot_after(&input, ctx, &first.snapshot_head).bytes);
        let pages = shaper.for_pages();
        let mut later: Vec<Value> = Vec::new();
        let mut next = first.envelope.next.clone();
        while let Some(n) = next.take() {
            let a = &n.arguments;
            let (Some(offset), true) = (a.get("offset").and_then(Value::as_u64), a.get("full_fields").is_none()) else { break };
            let end = a.get("end").and_then(Value::as_u64);
            let facets = a.get("facets").and_then(Value::as_u64);
            let page = shape(&pages, &stored, Some(Resume::Records { offset, end, facets }));
            later.extend(whole(&page.envelope.data).0);
            if later.len() >= index.len() {
                break;
            }
            next = page.envelope.next.clone();
        }
        prop_assert!(later.len() >= index.len(), "pages show fewer records than the index: {}", first.text);
        let key = |r: &Value| r.get("number").cloned();
        for (i, (narrow, full)) in index.iter().zip(&later).enumerate() {
            let Value::Object(cells) = narrow else { panic!("an object") };
            for (column, value) in cells {
                prop_assert_eq!(full.get(column), Some(value), "index row {} column {}: {}", i, column, first.text);
            }
            prop_assert!(!head.iter().chain(&last).any(|r| key(r).is_some() && key(r) == key(full)));
        }
    }
}

/// A list of 300 tickets at the default budget: the first read shows a few whole and the
/// rest by number and title, so a lookup by title finds its number in the first read.
#[test]
fn a_long_list_is_indexed_by_its_key_and_name() {
    let tickets: Vec<Value> = (0..300)
        .map(|i| {
            json!({
                "number": 7000 + i,
                "title": format!("Ticket about subsystem {i} failing"),
                "state": if i % 4 == 0 { "closed" } else { "open" },
                "description": "word ".repeat(120),
            })
        })
        .collect();
    let input = serde_json::to_vec(&tickets).unwrap();
    let first = shape(&Shaper::new(plan(4000)).unwrap(), &input, None);
    let index = index_of(&first.envelope.data).expect("an index");
    assert!(index.len() > 50, "{}", first.text);
    let row = &index[0];
    assert!(row.get("number").is_some() && row.get("title").is_some(), "{row}");
    assert!(row.get("description").is_none(), "free text is not indexed: {row}");
    assert!(first.envelope.summary.contains("in index, by"), "{}", first.envelope.summary);
}

/// A list of 300 wide tickets: the first read shows a few whole, the last ones whole and
/// the rest by key and name. Its rows cannot reach the end, so the five records before the
/// last are indexed too, and the summary says so: "the third to last" is in the first read
/// as "the third" is.
#[test]
fn a_long_list_indexes_the_records_before_its_last_too() {
    let tickets: Vec<Value> = (0..300)
        .map(|i| {
            let mut t = json!({
                "number": 7000 + i,
                "title": format!("Ticket about subsystem {i} failing"),
                "state": if i % 4 == 0 { "closed" } else { "open" },
            });
            for k in 0..40 {
                t[format!("field_{k}")] = json!(format!("value {} of field {k}", (i * 7 + k * 13) % 97));
            }
            t
        })
        .collect();
    let input = serde_json::to_vec(&tickets).unwrap();
    let first = shape(&Shaper::new(plan(4000)).unwrap(), &input, None);
    let (_, last) = whole(&first.envelope.data);
    let last_numbers: Vec<Value> = last.iter().filter_map(|r| r.get("number").cloned()).collect();
    assert_eq!(last_numbers.last(), Some(&json!(7299)), "{}", first.text);
    let numbers: Vec<Value> =
        before_last_of(&first.envelope.data).iter().filter_map(|r| r.get("number").cloned()).collect();
    // Down to the sixth record from the end, with the last ones shown whole.
    let from = 7300 - 6;
    let to = 7300 - last.len() as u64;
    assert!(to > from, "{}", first.text);
    assert_eq!(numbers, (from..to).map(|n| json!(n)).collect::<Vec<_>>(), "{}", first.text);
    let said = format!(" and the {} before the last in index, by", to - from);
    assert!(first.envelope.summary.contains(&said), "{}", first.envelope.summary);
}
