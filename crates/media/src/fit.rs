//! Fitting the images of one result into the media budget.
//!
//! The budget is shared by water-filling: images are taken from the cheapest up, each is given
//! an equal share of what is left, an image cheaper than its share keeps its cost, and what
//! one image does not use goes to the next. An image over its share is downscaled (aspect
//! kept within one pixel, never enlarged) to the largest size whose cost fits, decoded under
//! the limits, resized with a Lanczos filter and re-encoded. An image that is already small is sent byte for byte. When not
//! even the cheapest image of each could fit (OpenAI's floor is 255 tokens), the first images
//! in the result's order are the ones sent.

use std::borrow::Cow;

use fast_image_resize::pixels::{U8, U8x2, U8x3, U8x4};
use fast_image_resize::{
    FilterType, IntoImageView, IntoImageViewMut, PixelTrait, ResizeAlg, ResizeError, ResizeOptions, Resizer,
};
use image::{ColorType, DynamicImage};

use crate::decode::{DecodeLimits, ImageInfo, Probe, decode, probe};
use crate::encode::{EncodedImage, encode};
use crate::format::ImageKind;
use crate::formula::Formula;
use crate::note::MediaNote;
use crate::policy::{MediaMode, MediaPolicy};

/// One image of a result, as the upstream sent it (base64 already decoded).
#[derive(Debug, Clone, Copy)]
pub struct ImageInput<'a> {
    /// The encoded image.
    pub bytes: &'a [u8],
    /// The MIME type the upstream declared.
    pub mime_type: &'a str,
}

/// What is sent for one image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// The original bytes, byte for byte (labelled by their real MIME type).
    Unchanged,
    /// A downscaled, re-encoded version.
    Fitted(EncodedImage),
    /// Nothing: the image is only listed.
    Omitted,
}

/// What became of one image, and everything the listing in the envelope needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageOutcome {
    /// What the original's header says; `None` when it could not be read.
    pub original: Option<ImageInfo>,
    /// What the original costs sent as it is; `None` when its size is unknown.
    pub original_tokens: Option<u32>,
    /// What is sent.
    pub delivery: Delivery,
    /// What the image sent costs (0 when omitted, or when its size is unknown).
    pub tokens: u32,
    /// Why it was changed or left out, or what was odd about it.
    pub notes: Vec<MediaNote>,
}

impl ImageOutcome {
    /// The pixel size of what is sent, when known.
    #[must_use]
    pub fn sent_size(&self) -> Option<(u32, u32)> {
        match &self.delivery {
            Delivery::Unchanged => self.original.map(|i| (i.width, i.height)),
            Delivery::Fitted(image) => Some((image.width, image.height)),
            Delivery::Omitted => None,
        }
    }

    /// The MIME type to label what is sent with: the real format of the bytes when known,
    /// else the one declared.
    #[must_use]
    pub fn sent_mime<'a>(&self, declared: &'a str) -> Option<&'a str> {
        match &self.delivery {
            Delivery::Unchanged => Some(self.original.map_or(declared, |i| i.kind.mime_type())),
            Delivery::Fitted(image) => Some(image.kind.mime_type()),
            Delivery::Omitted => None,
        }
    }

    /// Whether the image was changed or left out (so the listing says so and offers `next`).
    #[must_use]
    pub fn is_cut(&self) -> bool {
        !matches!(self.delivery, Delivery::Unchanged)
    }

    fn omitted(probe: Option<&Probe>, formula: Formula, notes: Vec<MediaNote>) -> ImageOutcome {
        let original = probe.map(|p| p.info);
        ImageOutcome {
            original,
            original_tokens: original.map(|i| formula.tokens(i.width, i.height)),
            delivery: Delivery::Omitted,
            tokens: 0,
            notes,
        }
    }
}

/// Fits the images of one result under `policy`. The outcomes are in the order of `images`;
/// in `fit` mode their `tokens` sum to at most `policy.budget_tokens`.
#[must_use]
pub fn fit_images(images: &[ImageInput<'_>], policy: &MediaPolicy, limits: &DecodeLimits) -> Vec<ImageOutcome> {
    let formula = policy.formula;
    let probes: Vec<Result<Probe, MediaNote>> =
        images.iter().map(|image| probe(image.bytes, image.mime_type, limits)).collect();
    match policy.mode {
        MediaMode::Drop => probes.iter().map(|p| dropped(p, formula)).collect(),
        MediaMode::Pass => probes.iter().map(|p| passed(p, formula)).collect(),
        MediaMode::Fit => fit_all(images, &probes, policy.budget_tokens, formula, limits),
    }
}

fn dropped(probe: &Result<Probe, MediaNote>, formula: Formula) -> ImageOutcome {
    let mut notes = match probe {
        Ok(p) => p.notes.clone(),
        Err(note) => vec![note.clone()],
    };
    notes.push(MediaNote::Dropped);
    ImageOutcome::omitted(probe.as_ref().ok(), formula, notes)
}

fn passed(probe: &Result<Probe, MediaNote>, formula: Formula) -> ImageOutcome {
    let (original, notes) = match probe {
        Ok(p) => (Some(p.info), p.notes.clone()),
        Err(note) => (None, vec![note.clone()]),
    };
    let original_tokens = original.map(|i| formula.tokens(i.width, i.height));
    ImageOutcome {
        original,
        original_tokens,
        delivery: Delivery::Unchanged,
        tokens: original_tokens.unwrap_or(0),
        notes,
    }
}

fn fit_all(
    images: &[ImageInput<'_>],
    probes: &[Result<Probe, MediaNote>],
    budget: u32,
    formula: Formula,
    limits: &DecodeLimits,
) -> Vec<ImageOutcome> {
    let mut outcomes: Vec<Option<ImageOutcome>> = vec![None; images.len()];
    let mut valid = Vec::new();
    for (i, p) in probes.iter().enumerate() {
        match p {
            Ok(p) => valid.push((i, formula.tokens(p.info.width, p.info.height))),
            Err(note) => outcomes[i] = Some(ImageOutcome::omitted(None, formula, vec![note.clone()])),
        }
    }
    // How many images can be sent at all; the first ones in the result's order are.
    let sendable = usize::try_from(budget / formula.min_tokens().max(1)).unwrap_or(usize::MAX);
    if valid.len() > sendable {
        for &(i, tokens) in &valid[sendable..] {
            let mut notes = probes[i].as_ref().map(|p| p.notes.clone()).unwrap_or_default();
            notes.push(MediaNote::OverBudget { tokens, share: 0 });
            outcomes[i] = Some(ImageOutcome::omitted(probes[i].as_ref().ok(), formula, notes));
        }
        valid.truncate(sendable);
    }
    valid.sort_by_key(|&(i, tokens)| (tokens, i));
    let mut remaining = budget;
    let mut left = u32::try_from(valid.len()).unwrap_or(u32::MAX);
    for &(i, _) in &valid {
        let share = remaining / left.max(1);
        if let Ok(p) = &probes[i] {
            let outcome = fit_one(images[i].bytes, p, share, formula, limits);
            remaining = remaining.saturating_sub(outcome.tokens);
            outcomes[i] = Some(outcome);
        }
        left = left.saturating_sub(1);
    }
    outcomes
        .into_iter()
        .map(|o| o.unwrap_or_else(|| ImageOutcome::omitted(None, formula, vec![MediaNote::Empty])))
        .collect()
}

/// Fits one image whose header was read into `share` tokens.
fn fit_one(bytes: &[u8], probe: &Probe, share: u32, formula: Formula, limits: &DecodeLimits) -> ImageOutcome {
    let info = probe.info;
    let cost = formula.tokens(info.width, info.height);
    let mut notes = probe.notes.clone();
    let Some(target) = formula.largest_within(info.width, info.height, share) else {
        notes.push(MediaNote::OverBudget { tokens: cost, share });
        return ImageOutcome::omitted(Some(probe), formula, notes);
    };
    // Decoding also validates an image sent unchanged: a truncated or corrupt one is not sent.
    let decoded = match decode(bytes, &info, limits) {
        Ok(image) => image,
        Err(note) => {
            notes.push(note);
            return ImageOutcome::omitted(Some(probe), formula, notes);
        }
    };
    if target == (info.width, info.height) {
        return ImageOutcome {
            original: Some(info),
            original_tokens: Some(cost),
            delivery: Delivery::Unchanged,
            tokens: cost,
            notes,
        };
    }
    match shrink_and_encode(&decoded, info.kind, target) {
        Ok(image) => ImageOutcome {
            original: Some(info),
            original_tokens: Some(cost),
            tokens: formula.tokens(image.width, image.height),
            delivery: Delivery::Fitted(image),
            notes,
        },
        Err(note) => {
            notes.push(note);
            ImageOutcome::omitted(Some(probe), formula, notes)
        }
    }
}

/// `image` downscaled to `target` (when smaller) and encoded in the output format for a
/// `source` image.
pub(crate) fn shrink_and_encode(
    image: &DynamicImage,
    source: ImageKind,
    target: (u32, u32),
) -> Result<EncodedImage, MediaNote> {
    if (image.width(), image.height()) == target {
        return encode(image, source);
    }
    encode(&downscale(image, target), source)
}

/// `image` resized to `target` with a Lanczos filter (text in screenshots stays legible),
/// alpha premultiplied while filtering.
///
/// The resizer is given 8-bit layouts only: each layout it takes is compiled for every
/// instruction set it dispatches to (2 MB of code for all thirteen), and the encoders write
/// 8 bits per channel anyway. A 16-bit or floating-point image (rare: a scientific PNG) is
/// brought to 8 bits first instead of after.
fn downscale(image: &DynamicImage, (width, height): (u32, u32)) -> DynamicImage {
    let image = eight_bit(image);
    let mut out = DynamicImage::new(width, height, image.color());
    let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3));
    let resized = match image.color() {
        ColorType::L8 => resize_as::<U8>(&image, &mut out, &options),
        ColorType::La8 => resize_as::<U8x2>(&image, &mut out, &options),
        ColorType::Rgb8 => resize_as::<U8x3>(&image, &mut out, &options),
        ColorType::Rgba8 => resize_as::<U8x4>(&image, &mut out, &options),
        _ => Err(ResizeError::PixelTypesAreDifferent),
    };
    match resized {
        Ok(()) => out,
        // A pixel layout the resizer does not take: the image crate's own area average.
        Err(_) => image.thumbnail_exact(width, height),
    }
}

/// `image` with 8 bits per channel: itself when it has them, else converted, keeping its
/// alpha channel if it has one.
fn eight_bit(image: &DynamicImage) -> Cow<'_, DynamicImage> {
    match image.color() {
        ColorType::L8 | ColorType::La8 | ColorType::Rgb8 | ColorType::Rgba8 => Cow::Borrowed(image),
        ColorType::L16 => Cow::Owned(DynamicImage::ImageLuma8(image.to_luma8())),
        ColorType::La16 => Cow::Owned(DynamicImage::ImageLumaA8(image.to_luma_alpha8())),
        color if color.has_alpha() => Cow::Owned(DynamicImage::ImageRgba8(image.to_rgba8())),
        _ => Cow::Owned(DynamicImage::ImageRgb8(image.to_rgb8())),
    }
}

/// Resize `src` into `dst` as pixels of type `P`, which both must hold.
fn resize_as<P: PixelTrait>(
    src: &DynamicImage,
    dst: &mut DynamicImage,
    options: &ResizeOptions,
) -> Result<(), ResizeError> {
    let (Some(from), Some(mut to)) = (src.image_view::<P>(), dst.image_view_mut::<P>()) else {
        return Err(ResizeError::PixelTypesAreDifferent);
    };
    Resizer::new().resize_typed(&from, &mut to, options)
}
