//! A small answer stays small: the envelope around a result that fits whole costs what the
//! contract needs and no more (docs/shaping.md, "Small answers"): two delimiter lines with a
//! nonce of five words, the five keys, a short summary. And a result that fits whole is shown
//! whole at any budget, the least a plan may declare included.
#![allow(clippy::unwrap_used)]

use serde_json::{Map, Value};
use toolshape_shape::{MIN_BUDGET_TOKENS, OffsetContinuation, ShapeContext, ShapePlan, Shaper, Status};
use toolshape_tokens::{Encoding, Tokenizer};
use toolshape_util::nonce::from_bits;

fn shape(input: &str, budget: usize) -> (Status, usize, String) {
    shape_with(input, budget, &from_bits(u128::MAX), Tokenizer::default())
}

/// Shape `input` as the gateway would with this nonce (one it makes: [`from_bits`]).
fn shape_with(input: &str, budget: usize, nonce: &str, tokenizer: Tokenizer) -> (Status, usize, String) {
    let shaper = Shaper::new(ShapePlan { budget_tokens: budget, ..ShapePlan::default() }).unwrap();
    let next = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let ctx =
        ShapeContext { tool: "list_directory", tokenizer, nonce, now_unix: None, resume: None, continuation: &next };
    let s = shaper.shape(input.as_bytes(), &ctx).unwrap();
    (s.envelope.status, tokenizer.count(&s.text), s.text)
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

/// The tokens around a small answer beside its data and its summary's text, at most, per
/// encoding: the two delimiter lines (each nonce word one token) and the five keys; one
/// more where the data's first or last characters join a key's token. With nonces of 20
/// digits and the longer delimiters before (`<<<tool-result nonce=…>>>`, `<<<end
/// tool-result nonce=…>>>`) this was 45 in o200k_base.
const FLOOR: [(Encoding, usize); 2] = [(Encoding::O200kBase, 35), (Encoding::Cl100kBase, 34)];

#[test]
fn the_envelope_around_a_small_answer_costs_at_most_its_contract_floor() {
    for (encoding, floor) in FLOOR {
        let tok = Tokenizer::new(encoding);
        for (i, input) in SMALL.iter().enumerate() {
            // Nonces of every word position's extremes and in between.
            let nonce = from_bits([0, u128::MAX, 0x0123_4567_89ab_cdef_0123][i % 3]);
            let (status, tokens, text) = shape_with(input, 4000, &nonce, tok);
            assert_eq!(status, Status::Ok, "{text}");
            let inner = text.lines().nth(1).unwrap();
            let envelope: Value = serde_json::from_str(inner).unwrap();
            let data = tok.count(&envelope["data"].to_string());
            // The summary's words without the quotes around them, which the floor counts.
            let summary = tok.count(envelope["summary"].as_str().unwrap());
            let overhead = tokens - data - summary;
            assert!(overhead <= floor, "{encoding}, {input}: {overhead} tokens around the data:\n{text}");
            assert!(summary <= 8, "{input}: a summary of {summary} tokens for a small answer:\n{text}");
        }
    }
}

#[test]
fn a_two_byte_result_is_shaped_whole_at_the_least_budget() {
    let (status, tokens, text) = shape("42", MIN_BUDGET_TOKENS);
    assert_eq!(status, Status::Ok, "{text}");
    assert!(tokens <= MIN_BUDGET_TOKENS, "{tokens}: {text}");
    assert!(text.contains(r#""data":"42""#), "{text}");
}
