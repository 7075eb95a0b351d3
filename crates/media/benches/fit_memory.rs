//! Peak heap, time, bytes and tokens of fitting 4000 × 3000 images to 1,600 tokens, against
//! passing them whole: as native image blocks (priced by each provider's formula after its own
//! downscale) and as base64 text (what a gateway that stringifies content sends; counted
//! with o200k). Each case runs in a child process of its own so that the counting
//! allocator's peak is that case's alone. Prints a Markdown table.

#![allow(missing_docs, clippy::unwrap_used, clippy::print_stdout)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::process::Command;
use std::time::Instant;

use toolshape_media::{DecodeLimits, Delivery, Formula, ImageInput, ImageKind, MediaPolicy, encode_base64, fit_images};
use toolshape_tokens::{Encoding, Tokenizer};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

const CASES: [(&str, ImageKind, usize, Formula); 6] = [
    ("png_screenshot", ImageKind::Png, 1, Formula::Anthropic),
    ("jpeg_photo", ImageKind::Jpeg, 1, Formula::Anthropic),
    ("png_screenshot", ImageKind::Png, 1, Formula::OpenAi),
    ("jpeg_photo", ImageKind::Jpeg, 1, Formula::OpenAi),
    ("png_screenshot", ImageKind::Png, 4, Formula::Anthropic),
    ("png_screenshot", ImageKind::Png, 4, Formula::OpenAi),
];

fn image_bytes(kind: ImageKind) -> Vec<u8> {
    match kind {
        ImageKind::Jpeg => support::encode_as(&support::photo(4000, 3000), ImageKind::Jpeg),
        _ => support::encode_as(&support::screenshot(4000, 3000), ImageKind::Png),
    }
}

/// Runs one case in this process and prints its table row.
fn run_case(index: usize) {
    let (name, kind, count, formula) = CASES[index];
    let bytes = image_bytes(kind);
    let inputs: Vec<ImageInput<'_>> =
        (0..count).map(|_| ImageInput { bytes: &bytes, mime_type: kind.mime_type() }).collect();
    let policy = MediaPolicy { budget_tokens: 1600, formula, ..MediaPolicy::default() };
    // Only what is allocated while the profiler runs is counted: the fit's own heap.
    let profiler = dhat::Profiler::builder().testing().build();
    let before = dhat::HeapStats::get().curr_bytes;
    let start = Instant::now();
    let out = fit_images(&inputs, &policy, &DecodeLimits::default());
    let elapsed = start.elapsed();
    let peak = dhat::HeapStats::get().max_bytes.saturating_sub(before);
    drop(profiler);
    let fitted_tokens: u32 = out.iter().map(|o| o.tokens).sum();
    let fitted_bytes: usize = out
        .iter()
        .map(|o| match &o.delivery {
            Delivery::Fitted(image) => image.bytes.len(),
            Delivery::Unchanged => bytes.len(),
            Delivery::Omitted => 0,
        })
        .sum();
    let (w, h) = out[0].sent_size().unwrap_or((0, 0));
    let native: u32 = out.iter().filter_map(|o| o.original_tokens).sum();
    let text = encode_base64(&bytes);
    let as_text = Tokenizer::new(Encoding::O200kBase).count(&text) * count;
    println!(
        "| {count} × {name} | {} | {:.0} ms | {:.1} MiB | {:.2} MB → {:.2} MB | {w}×{h} | {fitted_tokens} | {native} | {as_text} |",
        formula.name(),
        elapsed.as_secs_f64() * 1000.0,
        peak as f64 / (1024.0 * 1024.0),
        (bytes.len() * count) as f64 / 1e6,
        fitted_bytes as f64 / 1e6,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(index) = args.iter().position(|a| a == "--case").and_then(|i| args.get(i + 1)) {
        run_case(index.parse().unwrap());
        return;
    }
    println!(
        "| images | formula | fit time | peak heap | bytes sent | sent size | tokens fitted | tokens passed whole (native) | tokens as base64 text |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let exe = std::env::current_exe().unwrap();
    for index in 0..CASES.len() {
        let out = Command::new(&exe).args(["--case", &index.to_string()]).output().unwrap();
        print!("{}", String::from_utf8_lossy(&out.stdout));
        if !out.status.success() {
            println!("case {index} failed: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
}
