//! Shape one file with the default plan and print the measurements: a minimal harness for
//! measuring time and peak memory of the core alone (`/usr/bin/time -v`), without the CLI.
//! With TIMES, the file is then shaped that many times more and the mean time printed: for
//! profiling (`perf record`) and before/after pairs, without the tokenizer's one-time table
//! load, which the first shape pays.
//!
//! `cargo run --release -p toolshape-shape --example shape_file -- FILE [BUDGET] [TIMES]`
//!
//! With `--uncounted` after TIMES, the file is shaped as the gateway shapes it
//! (`Shaper::shape_uncounted`): a page whose bytes prove it fits is not counted on the
//! calling path, and `tokens_out` is `null`.
//!
//! `shape_file --make-log BYTES FILE` writes a generated application log of at least BYTES
//! bytes (levels, timestamps, stack traces) with a secret of every built-in detector kind
//! planted every 100 lines: the input of the text measurements in BENCHMARKS.md.

// A measuring harness talks to the person running it.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

/// The allocator of the `toolshape` binary, so that what is measured here is what it runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use toolshape_shape::{OffsetContinuation, ShapeContext, ShapePlan, Shaper};
use toolshape_tokens::Tokenizer;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: shape_file FILE [BUDGET] [TIMES [--uncounted]] | shape_file --make-log BYTES FILE");
        return ExitCode::from(2);
    };
    if path == "--make-log" {
        let (Some(bytes), Some(out)) = (args.next().and_then(|b| b.parse().ok()), args.next()) else {
            eprintln!("usage: shape_file --make-log BYTES FILE");
            return ExitCode::from(2);
        };
        let (log, planted) = toolshape_fixtures::logs::leaky_log_bytes(bytes, 100, 7);
        if let Err(e) = std::fs::write(&out, log) {
            eprintln!("cannot write {out}: {e}");
            return ExitCode::from(3);
        }
        println!("wrote {out}: {} secrets planted", planted.len());
        return ExitCode::SUCCESS;
    }
    let budget = args.next().and_then(|b| b.parse().ok()).unwrap_or(2000);
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(0);
    let uncounted = args.next().as_deref() == Some("--uncounted");
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
    let shape = |bytes: &[u8]| if uncounted { shaper.shape_uncounted(bytes, &ctx) } else { shaper.shape(bytes, &ctx) };
    let start = std::time::Instant::now();
    match shape(&bytes) {
        Ok(shaped) => {
            println!(
                "{} ms {}",
                start.elapsed().as_millis(),
                serde_json::to_string(&shaped.report).unwrap_or_default()
            );
            if times > 0 {
                let again = std::time::Instant::now();
                for _ in 0..times {
                    let _ = shape(&bytes);
                }
                let per_shape = again.elapsed().as_secs_f64() * 1000.0 / times as f64;
                println!("{per_shape:.3} ms per shape over {times} more, {} characters out", shaped.text.len());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(4)
        }
    }
}
