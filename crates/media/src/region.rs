//! A region of an image, in the original's pixels, cut out and fitted to the budget again:
//! what a `result_read` with `region` returns, so that a model that saw a downscaled
//! screenshot can look closely at one part of it.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::decode::{DecodeLimits, decode, probe};
use crate::fit::{Delivery, ImageInput, ImageOutcome, shrink_and_encode};
use crate::note::MediaNote;
use crate::policy::MediaPolicy;

/// A rectangle in the original image's pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Region {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// Why a region could not be returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegionError {
    /// The region has no area.
    Empty(Region),
    /// The region reaches outside the image.
    Outside {
        /// The region asked for.
        region: Region,
        /// The image's width.
        width: u32,
        /// The image's height.
        height: u32,
    },
    /// The image itself could not be read.
    Image(MediaNote),
    /// Even a 1 × 1 version of the region costs more than the budget.
    OverBudget {
        /// The budget.
        budget: u32,
    },
}

impl fmt::Display for RegionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegionError::Empty(r) => {
                write!(f, "`region` has no area ({}×{}): give a width and a height of at least 1", r.width, r.height)
            }
            RegionError::Outside { region: r, width, height } => write!(
                f,
                "`region` {{x: {}, y: {}, width: {}, height: {}}} reaches outside the {width}×{height} image: keep x + width ≤ {width} and y + height ≤ {height}",
                r.x, r.y, r.width, r.height
            ),
            RegionError::Image(note) => write!(f, "the image cannot be read: {note}"),
            RegionError::OverBudget { budget } => {
                write!(f, "no part of an image fits in a media budget of {budget} tokens: raise `budget_tokens`")
            }
        }
    }
}

impl std::error::Error for RegionError {}

/// Cuts `region` out of `image` and fits it into the whole of `policy.budget_tokens`
/// (whatever the policy's mode: a region is asked for to be seen).
///
/// # Errors
/// A [`RegionError`] for a region with no area or outside the image, an unreadable image,
/// or a budget too small for any image.
pub fn fit_region(
    image: ImageInput<'_>,
    region: Region,
    policy: &MediaPolicy,
    limits: &DecodeLimits,
) -> Result<ImageOutcome, RegionError> {
    if region.width == 0 || region.height == 0 {
        return Err(RegionError::Empty(region));
    }
    let probe = probe(image.bytes, image.mime_type, limits).map_err(RegionError::Image)?;
    let info = probe.info;
    let inside = |start: u32, len: u32, max: u32| start.checked_add(len).is_some_and(|end| end <= max);
    if !inside(region.x, region.width, info.width) || !inside(region.y, region.height, info.height) {
        return Err(RegionError::Outside { region, width: info.width, height: info.height });
    }
    let formula = policy.formula;
    let target = formula
        .largest_within(region.width, region.height, policy.budget_tokens)
        .ok_or(RegionError::OverBudget { budget: policy.budget_tokens })?;
    let decoded = decode(image.bytes, &info, limits).map_err(RegionError::Image)?;
    let cut = decoded.crop_imm(region.x, region.y, region.width, region.height);
    let fitted = shrink_and_encode(&cut, info.kind, target).map_err(RegionError::Image)?;
    Ok(ImageOutcome {
        original: Some(info),
        original_tokens: Some(formula.tokens(info.width, info.height)),
        tokens: formula.tokens(fitted.width, fitted.height),
        delivery: Delivery::Fitted(fitted),
        notes: probe.notes,
    })
}
