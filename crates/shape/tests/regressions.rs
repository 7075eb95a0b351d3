//! Regression tests, each named after the problem it pins.

use std::collections::BTreeMap;

use toolshape_shape::{Data, Form, OffsetContinuation, ShapeContext, ShapePlan, Shaper, Status};
use toolshape_tokens::Tokenizer;

fn shape(plan: ShapePlan, payload: &[u8]) -> toolshape_shape::Shaped {
    let shaper = Shaper::new(plan).expect("a valid plan");
    let next = OffsetContinuation { tool: "result_read".into(), base: Default::default() };
    let ctx = ShapeContext {
        tool: "issue",
        tokenizer: Tokenizer::default(),
        nonce: "0123456789abcdef",
        now_unix: None,
        resume: None,
        continuation: &next,
    };
    shaper.shape(payload, &ctx).expect("shaping succeeds")
}

/// An object that is mostly one long string used to be read as text before projection and
/// field caps, so upstream data alone could put a whole body where the plan capped it.
#[test]
fn a_mostly_one_string_object_cannot_step_around_field_caps() {
    let body = "attacker text ".repeat(600);
    let payload = serde_json::json!({"number": 7, "title": "t", "body": body}).to_string();
    let plan = ShapePlan { field_tokens: BTreeMap::from([("body".to_owned(), 50)]), ..ShapePlan::default() };
    let shaped = shape(plan, payload.as_bytes());
    let Data::Value(value) = &shaped.envelope.data else {
        panic!("expected the object, got {:?}", shaped.envelope.data)
    };
    let shown = value["body"].as_str().unwrap();
    let tokens = Tokenizer::default().count(shown);
    assert!(tokens <= 60, "body shown with {tokens} tokens despite a cap of 50");
    assert_eq!(value["number"], 7);

    // Without any declared structure, the same object still reads as text (a file's content).
    let shaped = shape(ShapePlan::default(), payload.as_bytes());
    assert!(matches!(shaped.envelope.data, Data::Text(_)), "{:?}", shaped.envelope.status);
}

/// `form: reference` used to apply to lists of records only: a text or a single value came
/// back whole (up to the budget) instead of as a handle.
#[test]
fn reference_form_stores_text_and_single_values_too() {
    let plan = ShapePlan { form: Form::Reference, ..ShapePlan::default() };
    let text = "line one\nline two\nline three\n".repeat(200);
    let shaped = shape(plan.clone(), text.as_bytes());
    assert_eq!(shaped.envelope.status, Status::Ok);
    assert!(matches!(shaped.envelope.data, Data::Null));
    assert!(shaped.envelope.next.is_some() && shaped.report.needs_snapshot);
    let omitted = shaped.envelope.omitted.as_ref().unwrap();
    assert_eq!((omitted.unit.as_str(), omitted.count), ("lines", 600));
    assert!(shaped.envelope.summary.contains("600 lines"), "{}", shaped.envelope.summary);

    let value = serde_json::json!({"tree": {"a": 1}}).to_string();
    let shaped = shape(plan, value.as_bytes());
    assert!(matches!(shaped.envelope.data, Data::Null) && shaped.envelope.next.is_some());
}
