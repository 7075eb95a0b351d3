//! Hostile media: every bad image gets a typed note, the other images of the result are
//! fitted as usual, and nothing panics.

#![allow(clippy::unwrap_used)]

mod support;

use toolshape_media::{
    DecodeLimits, Delivery, ImageInput, ImageKind, MediaNote, MediaPolicy, decode_base64, fit_images, probe,
};

fn fit(images: &[(&[u8], &str)]) -> Vec<toolshape_media::ImageOutcome> {
    let inputs: Vec<ImageInput<'_>> =
        images.iter().map(|&(bytes, mime_type)| ImageInput { bytes, mime_type }).collect();
    fit_images(&inputs, &MediaPolicy::default(), &DecodeLimits::default())
}

#[test]
fn a_bad_crc_in_an_optional_chunk_is_tolerated_and_the_image_passes_byte_for_byte() {
    let png = support::png_with_bad_optional_crc(20, 20);
    let out = fit(&[(&png, "image/png")]);
    assert_eq!(out[0].delivery, Delivery::Unchanged, "{:?}", out[0].notes);
    assert!(out[0].notes.is_empty());
    assert_eq!(out[0].tokens, 1); // 400 pixels / 750, rounded up
}

#[test]
fn decompression_bombs_are_refused_from_the_header_in_every_format() {
    let good = support::encoded(ImageKind::Png, 64, 48, 3);
    let bombs: Vec<(Vec<u8>, &str)> = vec![
        (support::png_bomb(100_000, 100_000), "image/png"),
        (support::jpeg_bomb(65_000, 65_000), "image/jpeg"),
        (support::gif_bomb(65_000, 65_000), "image/gif"),
        (support::webp_bomb(16_000, 16_000), "image/webp"),
    ];
    for (bomb, mime) in &bombs {
        let out = fit(&[(bomb, mime), (&good, "image/png")]);
        assert_eq!(out[0].delivery, Delivery::Omitted, "{mime}");
        assert!(matches!(out[0].notes[..], [MediaNote::TooLarge { .. }]), "{mime}: {:?}", out[0].notes);
        assert!(out[0].notes[0].to_string().contains("decompression bomb"));
        // The rest of the result is intact.
        assert_eq!(out[1].delivery, Delivery::Unchanged, "{mime}");
    }
}

#[test]
fn a_truncated_image_is_noted_and_left_out() {
    for kind in [ImageKind::Png, ImageKind::Jpeg, ImageKind::Webp, ImageKind::Gif] {
        let whole = support::encoded(kind, 120, 90, 5);
        let cut = &whole[..whole.len() / 2];
        let out = fit(&[(cut, kind.mime_type())]);
        assert_eq!(out[0].delivery, Delivery::Omitted, "{kind:?}");
        assert!(
            matches!(out[0].notes[..], [MediaNote::Truncated { .. } | MediaNote::Corrupt { .. }]),
            "{kind:?}: {:?}",
            out[0].notes
        );
    }
}

#[test]
fn a_header_that_lies_about_the_size_is_noted() {
    // IHDR says 50 × 50, but the pixel data is that of a 10 × 10 image.
    let small = support::encoded(ImageKind::Png, 10, 10, 2);
    let mut lying = small.clone();
    lying[16..20].copy_from_slice(&50u32.to_be_bytes());
    lying[20..24].copy_from_slice(&50u32.to_be_bytes());
    let crc = crc32fast::hash(&lying[12..29]);
    lying[29..33].copy_from_slice(&crc.to_be_bytes());
    let out = fit(&[(&lying, "image/png")]);
    assert_eq!(out[0].delivery, Delivery::Omitted);
    assert!(
        matches!(out[0].notes[..], [MediaNote::Truncated { .. } | MediaNote::Corrupt { .. }]),
        "{:?}",
        out[0].notes
    );
}

#[test]
fn a_wrong_mime_type_is_corrected_and_noted() {
    let jpeg = support::encoded(ImageKind::Jpeg, 40, 30, 1);
    let out = fit(&[(&jpeg, "image/png")]);
    assert_eq!(out[0].delivery, Delivery::Unchanged);
    assert_eq!(out[0].sent_mime("image/png"), Some("image/jpeg"));
    assert_eq!(out[0].notes, vec![MediaNote::WrongMime { declared: "image/png".into(), actual: "image/jpeg" }]);
    assert!(out[0].notes[0].is_warning());
}

#[test]
fn bytes_that_are_no_image_are_noted() {
    let svg = b"<svg xmlns='http://www.w3.org/2000/svg'/>";
    let out = fit(&[(svg, "image/svg+xml"), (b"", "image/png")]);
    assert_eq!(out[0].delivery, Delivery::Omitted);
    assert_eq!(out[0].notes, vec![MediaNote::UnknownFormat { declared: "image/svg+xml".into() }]);
    assert_eq!(out[1].notes, vec![MediaNote::Empty]);
    assert_eq!(decode_base64("%%%"), Err(MediaNote::NotBase64));
}

#[test]
fn probing_a_bomb_reports_its_declared_size() {
    let bomb = support::png_bomb(100_000, 100_000);
    let note = probe(&bomb, "image/png", &DecodeLimits::default()).unwrap_err();
    assert_eq!(note, MediaNote::TooLarge { width: 100_000, height: 100_000, max_pixels: 40_000_000 });
}

#[test]
fn a_decode_that_needs_too_much_memory_is_refused() {
    let png = support::encoded(ImageKind::Png, 400, 300, 4);
    let limits = DecodeLimits { max_alloc: 64 * 1024, ..DecodeLimits::default() };
    let policy = MediaPolicy { budget_tokens: 10, ..MediaPolicy::default() };
    let out = fit_images(&[ImageInput { bytes: &png, mime_type: "image/png" }], &policy, &limits);
    assert_eq!(out[0].delivery, Delivery::Omitted);
    assert!(matches!(out[0].notes[..], [MediaNote::OverMemory { .. }]), "{:?}", out[0].notes);
}
