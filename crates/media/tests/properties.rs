//! The media invariants, as property tests: for any images and any budget, the images sent
//! cost at most the budget, keep their aspect within one pixel, are never enlarged, are the
//! size they are declared to be, and an image sent unchanged is the original byte for byte;
//! for any bytes at all, nothing panics and every image left out says why.

#![allow(clippy::unwrap_used)]

mod support;

use image::GenericImageView;
use proptest::prelude::*;
use toolshape_media::{DecodeLimits, Delivery, Formula, ImageInput, ImageKind, MediaNote, MediaPolicy, fit_images};

fn kind() -> impl Strategy<Value = ImageKind> {
    prop_oneof![Just(ImageKind::Png), Just(ImageKind::Jpeg), Just(ImageKind::Webp), Just(ImageKind::Gif)]
}

fn formula() -> impl Strategy<Value = Formula> {
    prop_oneof![Just(Formula::Anthropic), Just(Formula::OpenAi)]
}

/// Sizes from tiny to beyond what either provider keeps, and thin strips.
fn size() -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![
        4 => (1u32..=1400, 1u32..=1400),
        1 => (1u32..=3000, 1u32..=6),
        1 => (1u32..=6, 1u32..=3000),
        1 => (1800u32..=2200, 1000u32..=1400),
    ]
}

fn image() -> impl Strategy<Value = (ImageKind, (u32, u32), u32)> {
    (kind(), size(), any::<u32>())
}

/// Checks one outcome against its original; returns the tokens it costs.
fn check_sent(outcome: &toolshape_media::ImageOutcome, original: &[u8], (w, h): (u32, u32), formula: Formula) -> u32 {
    match &outcome.delivery {
        Delivery::Unchanged => {
            assert_eq!(outcome.tokens, formula.tokens(w, h));
            // Sent byte for byte: the gateway sends `original` itself.
            assert_eq!(outcome.sent_size(), Some((w, h)));
        }
        Delivery::Fitted(image) => {
            let (sw, sh) = image::load_from_memory(&image.bytes).unwrap().dimensions();
            assert_eq!((sw, sh), (image.width, image.height), "declared size is the real size");
            assert!(sw <= w && sh <= h, "never enlarged: {w}x{h} -> {sw}x{sh}");
            assert!((sw, sh) != (w, h) || image.bytes != original);
            // Aspect within one pixel: the short side follows from the long one.
            let (long, short, slong, sshort) = if w >= h { (w, h, sw, sh) } else { (h, w, sh, sw) };
            let exact_num = u64::from(slong) * u64::from(short);
            let diff = (u64::from(sshort) * u64::from(long)).abs_diff(exact_num);
            assert!(diff <= u64::from(long), "aspect: {w}x{h} -> {sw}x{sh}");
            assert_eq!(outcome.tokens, formula.tokens(sw, sh));
        }
        Delivery::Omitted => {
            assert_eq!(outcome.tokens, 0);
            assert!(matches!(outcome.notes.last(), Some(MediaNote::OverBudget { .. })), "{:?}", outcome.notes);
        }
    }
    outcome.tokens
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn any_images_and_any_budget_fit(
        images in prop::collection::vec(image(), 1..=3),
        budget in 0u32..=4000,
        formula in formula(),
    ) {
        let encoded: Vec<(Vec<u8>, ImageKind, (u32, u32))> = images
            .iter()
            .map(|&(kind, (w, h), seed)| (support::encoded(kind, w, h, seed), kind, (w, h)))
            .collect();
        let inputs: Vec<ImageInput<'_>> =
            encoded.iter().map(|(bytes, kind, _)| ImageInput { bytes, mime_type: kind.mime_type() }).collect();
        let policy = MediaPolicy { budget_tokens: budget, formula, ..MediaPolicy::default() };
        let out = fit_images(&inputs, &policy, &DecodeLimits::default());
        prop_assert_eq!(out.len(), inputs.len());
        let mut total = 0;
        for (outcome, (bytes, _, size)) in out.iter().zip(&encoded) {
            total += check_sent(outcome, bytes, *size, formula);
        }
        prop_assert!(total <= budget, "{} tokens over a budget of {}", total, budget);
        // Enough budget for every image at its cheapest: none is left out.
        if budget >= formula.min_tokens() * u32::try_from(inputs.len()).unwrap() {
            prop_assert!(out.iter().all(|o| o.delivery != Delivery::Omitted));
        }
    }

    #[test]
    fn any_bytes_never_panic_and_every_omission_says_why(
        kind in kind(),
        (w, h) in (1u32..=64, 1u32..=64),
        cut in any::<prop::sample::Index>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
        budget in 0u32..=2000,
        formula in formula(),
        declared in prop_oneof![Just("image/png"), Just("image/jpeg"), Just("image/gif"), Just("image/webp"), Just("application/octet-stream")],
    ) {
        let mut bytes = support::encoded(kind, w, h, 7);
        for (at, value) in flips {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        let policy = MediaPolicy { budget_tokens: budget, formula, ..MediaPolicy::default() };
        let out = fit_images(&[ImageInput { bytes: &bytes, mime_type: declared }], &policy, &DecodeLimits::default());
        prop_assert!(out[0].tokens <= budget);
        if out[0].delivery == Delivery::Omitted {
            prop_assert!(out[0].notes.iter().any(|n| !n.is_warning()), "{:?}", out[0].notes);
        }
    }
}
