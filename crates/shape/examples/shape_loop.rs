//! Shape one file many times with the default plan and print the mean time per shape: a
//! harness for profiling the core alone (`perf record`) and for before/after pairs of a
//! change, without the gateway or the tokenizer's one-time table load (one untimed shape
//! comes first).
//!
//! `cargo run --profile bench -p toolshape-shape --example shape_loop -- FILE [TIMES] [BUDGET]`

// A measuring harness talks to the person running it.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;
use std::time::Instant;

use toolshape_shape::{OffsetContinuation, ShapeContext, ShapePlan, Shaper};
use toolshape_tokens::Tokenizer;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: shape_loop FILE [TIMES] [BUDGET]");
        return ExitCode::from(2);
    };
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100).max(1);
    let budget = args.next().and_then(|b| b.parse().ok()).unwrap_or(4000);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::from(3);
        }
    };
    let Ok(shaper) = Shaper::new(ShapePlan { budget_tokens: budget, ..ShapePlan::default() }) else {
        eprintln!("budget {budget} is too small");
        return ExitCode::from(4);
    };
    let next = OffsetContinuation { tool: "result_read".into(), base: Default::default() };
    let ctx = ShapeContext {
        tool: "t",
        tokenizer: Tokenizer::default(),
        // The gateway's kind of nonce: 20 decimal digits.
        nonce: "01234567890123456789",
        now_unix: None,
        resume: None,
        continuation: &next,
    };
    let first = match shaper.shape(&bytes, &ctx) {
        Ok(shaped) => shaped,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(4);
        }
    };
    let start = Instant::now();
    for _ in 0..times {
        let _ = shaper.shape(&bytes, &ctx);
    }
    let per_shape = start.elapsed().as_secs_f64() * 1000.0 / times as f64;
    println!("{per_shape:.3} ms per shape ({times} shapes), {} characters out", first.text.len());
    ExitCode::SUCCESS
}
