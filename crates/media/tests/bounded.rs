//! Decoding is bounded: whatever size a header declares, the heap never grows past the
//! decode limits. Measured with a counting allocator over hundreds of lying headers in every
//! format; one test in this binary, because the allocator counts the whole process.

#![allow(clippy::unwrap_used)]

mod support;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use toolshape_media::{DecodeLimits, Delivery, ImageInput, ImageKind, MediaPolicy, fit_images};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

const MIB: u64 = 1024 * 1024;

fn lying_image(kind: ImageKind, width: u32, height: u32) -> Vec<u8> {
    match kind {
        ImageKind::Png => support::png_lying(width, height),
        ImageKind::Jpeg => support::jpeg_bomb(width.min(65_535) as u16, height.min(65_535) as u16),
        ImageKind::Gif => support::gif_bomb(width.min(65_535) as u16, height.min(65_535) as u16),
        ImageKind::Webp => support::webp_bomb(width.clamp(1, 16_384), height.clamp(1, 16_384)),
    }
}

#[test]
fn no_header_makes_the_decoder_allocate_past_the_limits() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let limits = DecodeLimits { max_pixels: 1_000_000, max_side: 4096, max_alloc: 8 * MIB };
    let policy = MediaPolicy::default();

    // The 100,000 × 100,000 PNG of the contract: refused from its header.
    let bomb = support::png_bomb(100_000, 100_000);
    let out = fit_images(&[ImageInput { bytes: &bomb, mime_type: "image/png" }], &policy, &limits);
    assert_eq!(out[0].delivery, Delivery::Omitted);
    assert!(dhat::HeapStats::get().max_bytes < (2 * MIB) as usize);

    let kind = prop_oneof![Just(ImageKind::Png), Just(ImageKind::Jpeg), Just(ImageKind::Webp), Just(ImageKind::Gif)];
    let side = prop_oneof![1u32..=2000, 1u32..=70_000, Just(65_535u32), Just(100_000u32)];
    let mut runner = TestRunner::new(Config { cases: 300, ..Config::default() });
    runner
        .run(&(kind, side.clone(), side), |(kind, w, h)| {
            let bytes = lying_image(kind, w, h);
            let out = fit_images(&[ImageInput { bytes: &bytes, mime_type: kind.mime_type() }], &policy, &limits);
            prop_assert_eq!(out.len(), 1);
            Ok(())
        })
        .unwrap();
    let peak = dhat::HeapStats::get().max_bytes as u64;
    // The limits plus what the tests themselves hold (tiny fixtures, the runner's state).
    assert!(peak <= limits.max_alloc + 4 * MIB, "peak heap {peak} bytes");
}
