//! Records whose left-out field names are long or many still fit the budget: the list of
//! names in `omitted.fields` is bounded like every other part of the summary.
#![allow(clippy::unwrap_used)]

use serde_json::{Map, Value, json};
use toolshape_shape::{OffsetContinuation, RenderMode, ShapeContext, ShapePlan, Shaper};
use toolshape_tokens::Tokenizer;

#[test]
fn long_names_of_left_out_fields_do_not_push_the_result_over_budget() {
    // Forty fields, each always null (so left out), each named by 300 characters.
    let records: Vec<Value> = (0..3)
        .map(|i| {
            let mut m = Map::new();
            m.insert("id".into(), json!(i));
            for k in 0..40 {
                m.insert(format!("{k:02}-{}", "é中🙂x".repeat(75)), Value::Null);
            }
            Value::Object(m)
        })
        .collect();
    let input = serde_json::to_vec(&records).unwrap();
    let next = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    for render in [RenderMode::Json, RenderMode::Prose] {
        let shaper = Shaper::new(ShapePlan { budget_tokens: 963, render, ..ShapePlan::default() }).unwrap();
        let ctx = ShapeContext {
            tool: "t",
            tokenizer: Tokenizer::default(),
            nonce: "0123456789abcdef",
            now_unix: None,
            resume: None,
            continuation: &next,
        };
        let shaped = shaper.shape(&input, &ctx).unwrap();
        assert!(Tokenizer::default().count(&shaped.text) <= 963, "{}", shaped.text);
        if render == RenderMode::Json {
            let fields = shaped.envelope.omitted.as_ref().and_then(|o| o.fields.clone()).unwrap();
            assert!(fields.last().unwrap().starts_with('+'), "the names past the room are counted: {fields:?}");
            assert!(fields.iter().all(|f| f.chars().count() <= 60), "{fields:?}");
        }
    }
}
