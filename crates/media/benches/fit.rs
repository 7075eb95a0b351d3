//! Time to fit one 4000 × 3000 image (a screenshot as PNG, a photograph as JPEG) to a
//! 1,600-token budget, per formula: decode, downscale, re-encode. Memory and tokens saved
//! are measured by the `fit_memory` bench.

#![allow(missing_docs, clippy::unwrap_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use toolshape_media::{DecodeLimits, Formula, ImageInput, ImageKind, MediaPolicy, fit_images};

fn fit_4000x3000(c: &mut Criterion) {
    let png = support::encode_as(&support::screenshot(4000, 3000), ImageKind::Png);
    let jpeg = support::encode_as(&support::photo(4000, 3000), ImageKind::Jpeg);
    let mut group = c.benchmark_group("fit_4000x3000_to_1600_tokens");
    group.sample_size(10);
    for formula in Formula::ALL {
        let policy = MediaPolicy { budget_tokens: 1600, formula, ..MediaPolicy::default() };
        for (name, bytes, mime_type) in [("png_screenshot", &png, "image/png"), ("jpeg_photo", &jpeg, "image/jpeg")] {
            group.bench_function(format!("{name}/{}", formula.name()), |b| {
                b.iter(|| fit_images(&[ImageInput { bytes, mime_type }], &policy, &DecodeLimits::default()));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, fit_4000x3000);
criterion_main!(benches);
