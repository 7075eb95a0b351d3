//! A small answer stays small: the envelope around a result that fits whole costs what the
//! contract needs and no more (docs/shaping.md, "Small answers"): two delimiter lines with a
//! 20-digit nonce, the five keys, a short summary. And a result that fits whole is shown
//! whole at any budget, the least a plan may declare included.
#![allow(clippy::unwrap_used)]

use serde_json::{Map, Value};
use toolshape_shape::{MIN_BUDGET_TOKENS, OffsetContinuation, ShapeContext, ShapePlan, Shaper, Status};
use toolshape_tokens::Tokenizer;

/// A nonce as the gateway makes them: twenty decimal digits.
const NONCE: &str = "18446744073709551615";

fn shape(input: &str, budget: usize) -> (Status, usize, String) {
    let shaper = Shaper::new(ShapePlan { budget_tokens: budget, ..ShapePlan::default() }).unwrap();
    let next = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let ctx = ShapeContext {
        tool: "list_directory",
        tokenizer: Tokenizer::default(),
        nonce: NONCE,
        now_unix: None,
        resume: None,
        continuation: &next,
    };
    let s = shaper.shape(input.as_bytes(), &ctx).unwrap();
    (s.envelope.status, Tokenizer::default().count(&s.text), s.text)
}

/// Small results of each kind a tool gives: a scalar, a short list, a flag object, a line.
const SMALL: &[&str] = &[
    "42",
    "true",
    r#"["a.txt","b.txt","notes.md"]"#,
    r#"[{"name":"a.txt"},{"name":"b.txt"}]"#,
    r#"{"ok":true}"#,
    r#"{"time":"2026-12-01T17:25:16Z","zone":"UTC"}"#,
    "switched the light on",
];

#[test]
fn the_envelope_around_a_small_answer_costs_at_most_its_contract_floor() {
    let tok = Tokenizer::default();
    for input in SMALL {
        let (status, tokens, text) = shape(input, 4000);
        assert_eq!(status, Status::Ok, "{text}");
        let inner = text.lines().nth(1).unwrap();
        let data = match serde_json::from_str::<Value>(inner) {
            Ok(env) => tok.count(&env["data"].to_string()),
            Err(_) => tok.count(input),
        };
        let overhead = tokens - data;
        let summary = tok.count(&serde_json::from_str::<Value>(inner).unwrap()["summary"].to_string());
        // The two delimiter lines (a 20-digit nonce is 7 tokens) and the five keys measure
        // 45 tokens; a nonce of 16 hex characters would add about 12.
        assert!(overhead - summary <= 45, "{input}: {overhead} tokens around {data} of data:\n{text}");
        assert!(summary <= 8, "{input}: a summary of {summary} tokens for a small answer:\n{text}");
    }
}

#[test]
fn a_two_byte_result_is_shaped_whole_at_the_least_budget() {
    let (status, tokens, text) = shape("42", MIN_BUDGET_TOKENS);
    assert_eq!(status, Status::Ok, "{text}");
    assert!(tokens <= MIN_BUDGET_TOKENS, "{tokens}: {text}");
    assert!(text.contains(r#""data":"42""#), "{text}");
}
