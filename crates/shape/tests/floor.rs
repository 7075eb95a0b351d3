//! The smallest budget each kind of result is shaped at (docs/shaping.md, "Small budgets"):
//! at its floor every kind gives an envelope within the budget, and `next` to read on.
#![allow(clippy::unwrap_used)]

use serde_json::{Map, json};
use toolshape_shape::{OffsetContinuation, ShapeContext, ShapePlan, Shaper, Status};
use toolshape_tokens::Tokenizer;

fn shape(input: &[u8], budget: usize) -> Result<(Status, usize, String), String> {
    let shaper = Shaper::new(ShapePlan { budget_tokens: budget, ..ShapePlan::default() }).map_err(|e| e.to_string())?;
    let next = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let ctx = ShapeContext {
        tool: "t",
        tokenizer: Tokenizer::default(),
        nonce: "0123456789abcdef",
        now_unix: None,
        resume: None,
        continuation: &next,
    };
    let s = shaper.shape(input, &ctx).map_err(|e| e.to_string())?;
    Ok((s.envelope.status, Tokenizer::default().count(&s.text), s.text))
}

fn deep_object(depth: usize) -> String {
    format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth))
}

/// Each kind, a result of it, and its documented floor (docs/shaping.md, "Small budgets").
fn kinds() -> Vec<(&'static str, Vec<u8>, usize)> {
    let mut bad_utf8 = Vec::new();
    for i in 0..3000 {
        bad_utf8.extend_from_slice(format!("2026-01-01T00:00:{:02}Z ERROR worker {i} failed ", i % 60).as_bytes());
        bad_utf8.extend_from_slice(b"\xff\xfe\n");
    }
    let api = |name: &str| toolshape_fixtures::apis::by_name(name).unwrap().generate(1).bytes();
    vec![
        ("records", toolshape_fixtures::issues_json(300, 1), 150),
        ("JSON document", api("openapi_spec"), 150),
        ("one scalar", b"42".to_vec(), 150),
        ("plain text, one long line", "word ".repeat(100_000).into_bytes(), 150),
        ("one 2 MB string in JSON", json!({"doc": "x".repeat(2_000_000)}).to_string().into_bytes(), 150),
        ("log", toolshape_fixtures::logs::log_text(20_000, 1).into_bytes(), 200),
        ("log with invalid UTF-8", bad_utf8, 200),
        ("CSV", api("csv_table"), 200),
        ("diff", api("git_diff"), 200),
        ("Markdown", api("markdown_doc"), 200),
        ("JSON nested 5,000 deep", deep_object(5000).into_bytes(), 200),
    ]
}

#[test]
fn every_kind_is_shaped_at_its_floor_within_it() {
    for (name, input, floor) in kinds() {
        let (status, tokens, text) = shape(&input, floor).unwrap_or_else(|e| panic!("{name} at {floor}: {e}"));
        assert!(tokens <= floor, "{name}: {tokens} tokens at a budget of {floor}: {text}");
        assert!(matches!(status, Status::Ok | Status::Partial), "{name}: {text}");
        if status == Status::Partial {
            assert!(text.contains("\"next\":{"), "{name}: a partial read offers next: {text}");
        }
    }
}

#[test]
fn the_default_budget_floor_for_text_is_200_tokens() {
    // A small budget is what untrusted free text is given; every text kind fits it.
    for (name, input, floor) in kinds() {
        assert!(floor <= 200, "{name}");
        assert!(shape(&input, 200).is_ok(), "{name} at 200");
    }
}

#[test]
fn json_nested_deeper_than_the_parser_reads_says_so() {
    let (_, _, text) = shape(deep_object(5000).as_bytes(), 400).unwrap();
    assert!(text.contains("JSON nested deeper than 128 levels, shown as text"), "{text}");
    let (_, _, text) = shape(deep_object(100).as_bytes(), 400).unwrap();
    assert!(!text.contains("nested deeper"), "{text}");
}
