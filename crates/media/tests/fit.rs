//! Fitting the images of one result into the budget, by example: what is sent, at what size,
//! in what format, for each mode; and regions.

#![allow(clippy::unwrap_used)]

mod support;

use image::GenericImageView;
use toolshape_media::{
    DecodeLimits, Delivery, Formula, ImageInput, ImageKind, ImageOutcome, MediaMode, MediaNote, MediaPolicy, Region,
    RegionError, fit_images, fit_region,
};

fn policy(budget_tokens: u32, formula: Formula) -> MediaPolicy {
    MediaPolicy { budget_tokens, formula, ..MediaPolicy::default() }
}

fn run(images: &[(Vec<u8>, &str)], policy: &MediaPolicy) -> Vec<ImageOutcome> {
    let inputs: Vec<ImageInput<'_>> = images.iter().map(|(bytes, mime_type)| ImageInput { bytes, mime_type }).collect();
    fit_images(&inputs, policy, &DecodeLimits::default())
}

/// Decodes what was sent and checks that it is the size the outcome declares.
fn sent_pixels(outcome: &ImageOutcome, original: &[u8]) -> (u32, u32) {
    let bytes = match &outcome.delivery {
        Delivery::Unchanged => original,
        Delivery::Fitted(image) => &image.bytes,
        Delivery::Omitted => panic!("nothing was sent"),
    };
    let decoded = image::load_from_memory(bytes).unwrap();
    assert_eq!(Some(decoded.dimensions()), outcome.sent_size());
    decoded.dimensions()
}

#[test]
fn a_large_screenshot_is_downscaled_to_the_budget() {
    let png = support::encoded(ImageKind::Png, 2400, 1800, 1);
    for formula in Formula::ALL {
        let out = run(&[(png.clone(), "image/png")], &policy(600, formula));
        let Delivery::Fitted(image) = &out[0].delivery else { panic!("{formula:?}: {:?}", out[0]) };
        assert_eq!(image.kind, ImageKind::Png);
        let (w, h) = sent_pixels(&out[0], &png);
        assert!(out[0].tokens <= 600 && out[0].tokens == formula.tokens(w, h), "{formula:?} {w}x{h}");
        assert_eq!(h, (w * 3 + 2) / 4, "aspect kept: {w}x{h}");
        assert_eq!(out[0].original_tokens, Some(formula.tokens(2400, 1800)));
    }
}

#[test]
fn an_image_larger_than_the_provider_keeps_is_sent_at_the_size_it_keeps() {
    // Under the budget in tokens, but the provider would scale it down itself: sending fewer
    // pixels costs the same tokens and far fewer bytes.
    let jpeg = support::encoded(ImageKind::Jpeg, 2400, 1600, 2);
    let out = run(&[(jpeg.clone(), "image/jpeg")], &policy(1600, Formula::OpenAi));
    let Delivery::Fitted(image) = &out[0].delivery else { panic!("{:?}", out[0]) };
    assert_eq!(image.kind, ImageKind::Jpeg);
    assert_eq!(sent_pixels(&out[0], &jpeg), Formula::OpenAi.effective_size(2400, 1600));
    assert_eq!(out[0].tokens, out[0].original_tokens.unwrap());
    assert!(image.bytes.len() < jpeg.len());
}

#[test]
fn a_small_image_passes_byte_for_byte() {
    for kind in [ImageKind::Png, ImageKind::Jpeg, ImageKind::Webp, ImageKind::Gif] {
        let small = support::encoded(kind, 300, 200, 3);
        let out = run(&[(small.clone(), kind.mime_type())], &MediaPolicy::default());
        assert_eq!(out[0].delivery, Delivery::Unchanged, "{kind:?}: {:?}", out[0].notes);
        assert_eq!(out[0].sent_mime(kind.mime_type()), Some(kind.mime_type()));
        assert_eq!(out[0].tokens, Formula::Anthropic.tokens(300, 200));
        assert!(!out[0].is_cut());
    }
}

#[test]
fn webp_and_gif_are_fitted_as_png_and_transparency_is_kept() {
    for kind in [ImageKind::Webp, ImageKind::Gif] {
        let big = support::encoded(kind, 1200, 900, 4);
        let out = run(&[(big.clone(), kind.mime_type())], &policy(300, Formula::Anthropic));
        let Delivery::Fitted(image) = &out[0].delivery else { panic!("{kind:?}: {:?}", out[0]) };
        assert_eq!(image.kind, ImageKind::Png);
        sent_pixels(&out[0], &big);
    }
    let rgba = support::transparent_png(1000, 1000);
    let out = run(&[(rgba, "image/png")], &policy(200, Formula::Anthropic));
    let Delivery::Fitted(image) = &out[0].delivery else { panic!("{:?}", out[0]) };
    assert!(image::load_from_memory(&image.bytes).unwrap().color().has_alpha());
}

#[test]
fn several_images_share_the_budget_and_small_ones_keep_their_size() {
    let small = support::encoded(ImageKind::Png, 100, 100, 5); // 14 tokens
    let big = support::encoded(ImageKind::Png, 2000, 1500, 6);
    let images = vec![(big.clone(), "image/png"), (small.clone(), "image/png"), (big.clone(), "image/png")];
    let out = run(&images, &policy(1000, Formula::Anthropic));
    assert_eq!(out[1].delivery, Delivery::Unchanged);
    assert!(matches!(out[0].delivery, Delivery::Fitted(_)) && matches!(out[2].delivery, Delivery::Fitted(_)));
    let total: u32 = out.iter().map(|o| o.tokens).sum();
    assert!(total <= 1000, "{total}");
    // What the small image leaves goes to the large ones: together they use nearly all of it.
    assert!(total >= 950, "{total}");
    // Equal images get (nearly) equal shares: the second fitted takes what rounding left.
    let (w0, _) = out[0].sent_size().unwrap();
    let (w2, _) = out[2].sent_size().unwrap();
    assert!(w0.abs_diff(w2) <= w0 / 100, "{w0} vs {w2}");
}

#[test]
fn when_not_every_image_can_be_sent_the_first_ones_are() {
    // OpenAI's cheapest image is 255 tokens: 600 tokens buy two images, not three.
    let img = support::encoded(ImageKind::Png, 800, 800, 7);
    let images = vec![(img.clone(), "image/png"), (img.clone(), "image/png"), (img.clone(), "image/png")];
    let out = run(&images, &policy(600, Formula::OpenAi));
    assert!(out[0].tokens > 0 && out[1].tokens > 0);
    assert_eq!(out[2].delivery, Delivery::Omitted);
    assert!(matches!(out[2].notes[..], [MediaNote::OverBudget { .. }]));
    assert!(out.iter().map(|o| o.tokens).sum::<u32>() <= 600);
    // A budget under the cheapest image sends nothing, and says why.
    let none = run(&images[..1], &policy(100, Formula::OpenAi));
    assert_eq!(none[0].delivery, Delivery::Omitted);
    assert_eq!(none[0].tokens, 0);
}

#[test]
fn pass_sends_everything_unchanged_and_counts_it() {
    let big = support::encoded(ImageKind::Png, 2000, 1500, 8);
    let out = run(&[(big, "image/png")], &MediaPolicy { mode: MediaMode::Pass, ..policy(10, Formula::Anthropic) });
    assert_eq!(out[0].delivery, Delivery::Unchanged);
    assert_eq!(out[0].tokens, Formula::Anthropic.tokens(2000, 1500));
    // Even an image that cannot be read is passed; the note says what is wrong with it.
    let out = run(&[(b"junk".to_vec(), "image/png")], &MediaPolicy { mode: MediaMode::Pass, ..MediaPolicy::default() });
    assert_eq!(out[0].delivery, Delivery::Unchanged);
    assert_eq!(out[0].tokens, 0);
    assert_eq!(out[0].notes.len(), 1);
}

#[test]
fn drop_lists_the_images_and_sends_none() {
    let img = support::encoded(ImageKind::Jpeg, 640, 480, 9);
    let out = run(&[(img, "image/jpeg")], &MediaPolicy { mode: MediaMode::Drop, ..MediaPolicy::default() });
    assert_eq!(out[0].delivery, Delivery::Omitted);
    assert_eq!(out[0].original.map(|i| (i.width, i.height)), Some((640, 480)));
    assert_eq!(out[0].notes, vec![MediaNote::Dropped]);
    assert_eq!(out[0].tokens, 0);
}

#[test]
fn a_region_is_cut_in_original_pixels_and_fitted_again() {
    let png = support::encoded(ImageKind::Png, 2000, 1500, 10);
    let input = ImageInput { bytes: &png, mime_type: "image/png" };
    let limits = DecodeLimits::default();
    // A small region comes back at full resolution.
    let small = Region { x: 100, y: 200, width: 300, height: 150 };
    let out = fit_region(input, small, &MediaPolicy::default(), &limits).unwrap();
    assert_eq!(out.sent_size(), Some((300, 150)));
    let Delivery::Fitted(image) = &out.delivery else { panic!() };
    let got = image::load_from_memory(&image.bytes).unwrap().to_rgb8();
    let want = support::picture(2000, 1500, 10);
    assert_eq!(got.get_pixel(0, 0), want.get_pixel(100, 200));
    assert_eq!(got.get_pixel(299, 149), want.get_pixel(399, 349));
    // A large one is downscaled into the budget.
    let large = Region { x: 0, y: 0, width: 1500, height: 1500 };
    let out = fit_region(input, large, &policy(400, Formula::Anthropic), &limits).unwrap();
    let (w, h) = out.sent_size().unwrap();
    assert!(w == h && out.tokens <= 400, "{w}x{h}");
}

#[test]
fn a_bad_region_is_a_clear_error() {
    let png = support::encoded(ImageKind::Png, 200, 100, 11);
    let input = ImageInput { bytes: &png, mime_type: "image/png" };
    let (p, l) = (MediaPolicy::default(), DecodeLimits::default());
    let outside = fit_region(input, Region { x: 150, y: 0, width: 100, height: 10 }, &p, &l).unwrap_err();
    assert!(matches!(outside, RegionError::Outside { width: 200, height: 100, .. }));
    assert!(outside.to_string().contains("x + width ≤ 200"), "{outside}");
    let overflow = fit_region(input, Region { x: u32::MAX, y: 0, width: 2, height: 1 }, &p, &l).unwrap_err();
    assert!(matches!(overflow, RegionError::Outside { .. }));
    let empty = fit_region(input, Region { x: 0, y: 0, width: 0, height: 5 }, &p, &l).unwrap_err();
    assert!(matches!(empty, RegionError::Empty(_)));
    let broke = fit_region(input, Region { x: 0, y: 0, width: 10, height: 10 }, &policy(10, Formula::OpenAi), &l);
    assert!(matches!(broke, Err(RegionError::OverBudget { budget: 10 })));
    let junk = ImageInput { bytes: b"junk", mime_type: "image/png" };
    assert!(matches!(fit_region(junk, Region { x: 0, y: 0, width: 1, height: 1 }, &p, &l), Err(RegionError::Image(_))));
}

/// A 16-bit PNG (a scientific plot, a medical scan) is brought to 8 bits before it is
/// resized, as the encoders would write it anyway: it is fitted like any other, its alpha
/// channel kept, and its picture too (a left half dark, a right half light).
#[test]
fn sixteen_bit_images_are_fitted_with_their_channels() {
    let (width, height) = (1600u32, 1200u32);
    let shade = |x: u32| if x < width / 2 { 4_000u16 } else { 60_000u16 };
    let rgb = image::ImageBuffer::from_fn(width, height, |x, _| image::Rgb([shade(x), shade(x), shade(x)]));
    let gray_alpha = image::ImageBuffer::from_fn(width, height, |x, _| image::LumaA([shade(x), 65_535u16]));
    for (picture, has_alpha) in
        [(image::DynamicImage::ImageRgb16(rgb), false), (image::DynamicImage::ImageLumaA16(gray_alpha), true)]
    {
        let mut png = Vec::new();
        picture.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).unwrap();
        let out = run(&[(png.clone(), "image/png")], &policy(300, Formula::Anthropic));
        let Delivery::Fitted(fitted) = &out[0].delivery else { panic!("{:?}", out[0]) };
        let (w, h) = sent_pixels(&out[0], &png);
        assert!(w < width && h < height, "downscaled: {w}×{h}");
        let sent = image::load_from_memory(&fitted.bytes).unwrap();
        assert_eq!(sent.color().has_alpha(), has_alpha);
        let luma = sent.to_luma8();
        assert!(luma.get_pixel(w / 8, h / 2)[0] < 40, "the dark half stays dark");
        assert!(luma.get_pixel(w - w / 8, h / 2)[0] > 215, "the light half stays light");
    }
}
