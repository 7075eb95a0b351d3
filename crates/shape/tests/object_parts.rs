//! A document with a member larger than a page is read in parts: following `next` from the
//! first read through the stored snapshot shows every value of the document once, in order,
//! each page within the budget, and never ends while something is left.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolshape_redact::RedactSpec;
use toolshape_shape::{Data, OffsetContinuation, Resume, ShapeContext, ShapePlan, Shaped, Shaper, Status};
use toolshape_tokens::Tokenizer;

const NONCE: &str = "00112233aabbccdd";

/// The call's context: where to start, and how `next` is written.
fn context<'a>(resume: Option<Resume>, next: &'a OffsetContinuation) -> ShapeContext<'a> {
    ShapeContext {
        tool: "get_report",
        tokenizer: Tokenizer::default(),
        nonce: NONCE,
        now_unix: None,
        resume,
        continuation: next,
    }
}

fn read(shaper: &Shaper, input: &[u8], resume: Option<Resume>) -> Shaped {
    let next = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    shaper.shape(input, &context(resume, &next)).unwrap()
}

/// Every scalar (and empty container) of `v` in document order, with its path; items are
/// not numbered, since a page that starts inside a list shows its items from there.
fn leaves(v: &Value, path: &str, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, inner) in m {
                leaves(inner, &format!("{path}.{k}"), out);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for item in items {
                leaves(item, &format!("{path}[]"), out);
            }
        }
        other => out.push((path.to_owned(), other.clone())),
    }
}

/// Whether a first read shows a document read in parts.
fn read_in_parts(first: &Shaped) -> bool {
    matches!(first.envelope.data, Data::Value(_)) && first.envelope.summary.starts_with("object with")
}

/// The pages of `doc` at `budget`, first read included, following `next` (a first read
/// that is not of a document in parts alone).
fn pages(doc: &Value, budget: usize) -> Vec<Shaped> {
    let plan = ShapePlan {
        budget_tokens: budget,
        redact: RedactSpec { builtins: false, ..RedactSpec::default() },
        ..ShapePlan::default()
    };
    let shaper = Shaper::new(plan).unwrap();
    let input = serde_json::to_vec(doc).unwrap();
    let first = read(&shaper, &input, None);
    // Only a document read in parts is followed: a map of like objects is read as records,
    // whose `next` may rightly ask for their full fields.
    if !read_in_parts(&first) {
        return vec![first];
    }
    let next = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let ctx = context(None, &next);
    let snapshot = shaper.snapshot(&input, &ctx);
    let from_snapshot = shaper.for_pages().with_original_bytes(input.len() as u64);
    let mut out = vec![first];
    while let Some(next) = out.last().and_then(|s| s.envelope.next.clone()) {
        let offset = next.arguments["offset"].as_u64().unwrap();
        assert!(next.arguments.get("full_fields").is_none(), "a part was cut: {}", out.last().unwrap().text);
        let end = next.arguments.get("end").and_then(Value::as_u64);
        out.push(read(&from_snapshot, &snapshot.bytes, Some(Resume::Records { offset, end, facets: None })));
        assert!(out.len() < 400, "next never ended");
    }
    out
}

fn check(doc: &Value, budget: usize) -> Result<(), TestCaseError> {
    let mut want = Vec::new();
    leaves(doc, "", &mut want);
    let read = pages(doc, budget);
    // A map of like objects is read as records; only documents are read in parts.
    prop_assume!(read_in_parts(&read[0]));
    let mut per_page = Vec::new();
    for page in &read {
        prop_assert!(Tokenizer::default().count(&page.text) <= budget, "over budget: {}", page.text);
        let Data::Value(data) = &page.envelope.data else {
            return Err(TestCaseError::fail(format!("not a value: {}", page.text)));
        };
        let mut got = Vec::new();
        leaves(data, "", &mut got);
        per_page.push(got);
    }
    // The first read shows the start and the end; the pages after it, what lies between.
    let first = &per_page[0];
    let between: Vec<(String, Value)> = per_page[1..].concat();
    let fits = (0..=first.len()).any(|head| {
        let tail = first.len() - head;
        head + tail + between.len() == want.len()
            && first[..head] == want[..head]
            && first[head..] == want[want.len() - tail..]
            && between[..] == want[head..want.len() - tail]
    });
    prop_assert!(
        fits,
        "pages of {:?} values, {} wanted: {:?}",
        per_page.iter().map(Vec::len).collect::<Vec<_>>(),
        want.len(),
        read.iter().map(|p| (&p.envelope.summary, p.envelope.next.as_ref().map(|n| &n.arguments))).collect::<Vec<_>>()
    );
    prop_assert_eq!(
        read.last().map(|p| p.envelope.status),
        Some(if read.len() > 1 { Status::Ok } else { read[0].envelope.status })
    );
    Ok(())
}

fn arb_doc() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<i32>().prop_map(|n| json!(n)),
        "[a-z]{1,8}( [a-z]{1,8}){0,3}".prop_map(Value::String),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
    ];
    // Objects only: a list of records anywhere is read as the records, not as a document.
    let inner = leaf.prop_recursive(4, 8_000, 32, |inner| {
        prop::collection::btree_map("[a-z_]{1,10}", inner, 1..32).prop_map(|m| Value::Object(m.into_iter().collect()))
    });
    prop::collection::btree_map("[a-z_]{1,10}", inner, 1..5).prop_map(|m| Value::Object(m.into_iter().collect()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Every value of the document is shown once, in order, over the pages `next` leads to.
    #[test]
    fn pages_of_a_document_show_each_value_once_in_order(doc in arb_doc(), budget in 1_600usize..3_000) {
        check(&doc, budget)?;
    }
}

/// A file report: one member holding the whole report, whose engines and imports are far
/// larger than a page. Its first read stopped inside it with `next` offering the same
/// page again (no caps), then `too_large`: the imports were never reached.
fn file_report() -> Value {
    let engines: Map<String, Value> = (0..200)
        .map(|i| {
            (
                format!("Engine{i:02}"),
                json!({"category": "undetected", "engine_version": format!("1.{i}.0"), "result": null}),
            )
        })
        .collect();
    let imports: Vec<Value> = (0..12)
        .map(|i| json!({"library_name": format!("LIB{i:02}.dll"), "imported_functions": (0..60).map(|f| format!("Function{i}x{f}")).collect::<Vec<_>>()}))
        .collect();
    json!({"data": {"id": "dc25", "attributes": {"md5": "4bce97566b3272449a9c121585517b52", "last_analysis_results": engines, "pe_info": {"import_list": imports}}}})
}

#[test]
fn a_member_larger_than_a_page_is_read_on_to_its_end() {
    let doc = file_report();
    let read = pages(&doc, 1_500);
    assert!(read.len() > 2, "{} pages", read.len());
    let first = &read[0].envelope;
    assert!(first.summary.starts_with("object with 1 field, read in "), "{}", first.summary);
    assert!(first.summary.contains("; next from data.attributes.last_analysis_results.Engine"), "{}", first.summary);
    // The first read shows the end too: the last library and its last function.
    let first_data = serde_json::to_string(&read[0].envelope.data).unwrap();
    assert!(first_data.contains("LIB11.dll") && first_data.contains("Function11x59"), "{first_data}");
    // A page that starts inside a list says where.
    let inside =
        read.iter().skip(1).find(|p| p.envelope.summary.contains(", from data.attributes.pe_info.import_list["));
    assert!(inside.is_some(), "{:?}", read.iter().map(|p| &p.envelope.summary).collect::<Vec<_>>());
    check(&doc, 1_500).unwrap();
}

#[test]
fn a_document_of_small_members_is_read_member_by_member_as_before() {
    let doc = json!({"name": "x", "owner": {"login": "octo"}, "size": 3});
    let read = pages(&doc, 400);
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].envelope.summary, "object with 3 fields");
    assert_eq!(read[0].envelope.data, Data::Value(doc));
}
