//! Fuzz target `shape`: arbitrary bytes as an upstream result, under a budget and a plan
//! chosen by the first bytes, must always give an envelope whose rendered text fits the
//! budget (SPEC invariant 1) or a clear `BudgetTooSmall` error, and never panic (invariant 7).
//!
//! Input layout: bytes 0-1 pick the budget (little-endian, folded into
//! `MIN_BUDGET_TOKENS..MIN_BUDGET_TOKENS + 4096`), byte 2 picks plan options, the rest is
//! the payload. Run with `cargo +nightly fuzz run shape` from the repository root.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Map;
use toolshape_shape::{
    MIN_BUDGET_TOKENS, OffsetContinuation, RenderMode, ShapeContext, ShapeError, ShapePlan, Shaper, TextKeep,
};
use toolshape_tokens::Tokenizer;

fuzz_target!(|data: &[u8]| {
    let [lo, hi, options, payload @ ..] = data else {
        return;
    };
    let budget = MIN_BUDGET_TOKENS + usize::from(u16::from_le_bytes([*lo, *hi])) % 4096;
    let mut plan = ShapePlan { budget_tokens: budget, ..ShapePlan::default() };
    // One byte of plan choices lets the fuzzer reach the prose renderer and the head-and-tail
    // text cut as well as the defaults.
    if options & 1 != 0 {
        plan.render = RenderMode::Prose;
    }
    if options & 2 != 0 {
        plan.text.keep = TextKeep::HeadTail;
    }
    if options & 4 != 0 {
        plan.default_field_tokens = Some(1 + usize::from(options >> 3));
    }
    let shaper = Shaper::new(plan).expect("budgets at or above MIN_BUDGET_TOKENS compile");
    let continuation = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let ctx = ShapeContext {
        tool: "fuzz",
        tokenizer: Tokenizer::default(),
        nonce: "0123456789abcdef",
        now_unix: Some(1_767_225_600),
        resume: None,
        continuation: &continuation,
    };
    match shaper.shape(payload, &ctx) {
        Ok(shaped) => {
            let tokens = ctx.tokenizer.count(&shaped.text);
            assert!(tokens <= budget, "{tokens} tokens over a budget of {budget}");
            assert_eq!(Some(tokens as u64), shaped.report.tokens_out, "the report's count is not exact");
        }
        // A budget that cannot hold even the smallest envelope is refused, not exceeded.
        Err(ShapeError::BudgetTooSmall { budget: b, minimum }) => assert!(b == budget && minimum > budget),
    }
});
