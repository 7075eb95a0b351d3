//! What an image costs a model, in tokens, from its pixel size: the documented formula of each
//! model family, applied after the provider's own downscale, and the one scaling rule every
//! size in this crate is computed with.
//!
//! Sources (see docs/media.md): Anthropic's vision guide ("Evaluate image size": tokens =
//! width × height / 750; an image whose long edge is over 1,568 pixels, or that costs more
//! than about 1,600 tokens, is first scaled down, aspect kept) and OpenAI's vision guide
//! ("Calculating costs", high detail: fit within 2,048 × 2,048, then scale so the short side
//! is 768 pixels, then 85 tokens plus 170 per 512-pixel tile).

use serde::{Deserialize, Serialize};

/// Anthropic: the long edge the provider scales an image down to.
const ANTHROPIC_MAX_LONG_EDGE: u32 = 1568;
/// Anthropic: pixels per token.
const ANTHROPIC_PIXELS_PER_TOKEN: u64 = 750;
/// Anthropic: an image costing more than about this many tokens is scaled down first.
const ANTHROPIC_MAX_TOKENS: u64 = 1600;
/// OpenAI: an image is first fitted within a square of this side.
const OPENAI_MAX_SIDE: u32 = 2048;
/// OpenAI: then scaled so that its short side is at most this long.
const OPENAI_MAX_SHORT_SIDE: u32 = 768;
/// OpenAI: tokens every high-detail image costs.
const OPENAI_BASE_TOKENS: u32 = 85;
/// OpenAI: tokens per tile.
const OPENAI_TILE_TOKENS: u32 = 170;
/// OpenAI: the side of a tile.
const OPENAI_TILE_SIDE: u32 = 512;

/// The model family whose documented formula prices images.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Formula {
    /// Anthropic (Claude): about width × height / 750 after the provider's downscale.
    #[default]
    #[serde(rename = "anthropic")]
    Anthropic,
    /// OpenAI (high detail): 85 + 170 per 512-pixel tile after the provider's fitting rules.
    #[serde(rename = "openai")]
    OpenAi,
}

impl Formula {
    /// Every formula, for listings and tests.
    pub const ALL: [Formula; 2] = [Formula::Anthropic, Formula::OpenAi];

    /// The name used in configuration (`anthropic`, `openai`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Formula::Anthropic => "anthropic",
            Formula::OpenAi => "openai",
        }
    }

    /// The formula named `name` in configuration, if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Formula> {
        Formula::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The size the provider itself scales a `width` × `height` image to before pricing it:
    /// never larger than the image, aspect kept by [`scale_to_long_side`].
    #[must_use]
    pub fn effective_size(self, width: u32, height: u32) -> (u32, u32) {
        let (width, height) = (width.max(1), height.max(1));
        let long = width.max(height);
        match self {
            Formula::Anthropic => {
                let max_pixels = ANTHROPIC_MAX_TOKENS * ANTHROPIC_PIXELS_PER_TOKEN;
                largest_fitting(width, height, long.min(ANTHROPIC_MAX_LONG_EDGE), |w, h| {
                    u64::from(w) * u64::from(h) <= max_pixels
                })
                .unwrap_or((1, 1))
            }
            Formula::OpenAi => {
                largest_fitting(width, height, long.min(OPENAI_MAX_SIDE), |w, h| w.min(h) <= OPENAI_MAX_SHORT_SIDE)
                    .unwrap_or((1, 1))
            }
        }
    }

    /// Tokens a `width` × `height` image costs when sent as it is (the provider's own
    /// downscale applied first).
    #[must_use]
    pub fn tokens(self, width: u32, height: u32) -> u32 {
        let (w, h) = self.effective_size(width, height);
        self.tokens_at_effective_size(w, h)
    }

    /// The cheapest any image can be: a 1 × 1 image.
    #[must_use]
    pub fn min_tokens(self) -> u32 {
        self.tokens(1, 1)
    }

    /// The formula proper, for a size the provider does not scale any further.
    fn tokens_at_effective_size(self, width: u32, height: u32) -> u32 {
        match self {
            Formula::Anthropic => {
                let pixels = u64::from(width) * u64::from(height);
                u32::try_from(pixels.div_ceil(ANTHROPIC_PIXELS_PER_TOKEN)).unwrap_or(u32::MAX)
            }
            Formula::OpenAi => {
                let tiles = width.div_ceil(OPENAI_TILE_SIDE) * height.div_ceil(OPENAI_TILE_SIDE);
                OPENAI_BASE_TOKENS.saturating_add(OPENAI_TILE_TOKENS.saturating_mul(tiles))
            }
        }
    }

    /// The largest size, aspect kept and never above what the provider would keep of the
    /// image, whose cost is at most `tokens`; `None` when even 1 × 1 costs more.
    #[must_use]
    pub fn largest_within(self, width: u32, height: u32, tokens: u32) -> Option<(u32, u32)> {
        let (ew, eh) = self.effective_size(width, height);
        largest_fitting(width, height, ew.max(eh), |w, h| self.tokens_at_effective_size(w, h) <= tokens)
    }
}

/// `width` × `height` scaled so that its long side is `long` (clamped to 1..=the original long
/// side): the short side is the exact scaled value rounded to the nearest pixel, never below
/// one. This is the one rule behind "aspect kept within one pixel".
#[must_use]
pub fn scale_to_long_side(width: u32, height: u32, long: u32) -> (u32, u32) {
    let (width, height) = (width.max(1), height.max(1));
    let original_long = width.max(height);
    let long = long.clamp(1, original_long);
    let short_of = |short: u32| -> u32 {
        // round(long × short / original_long), in integers.
        let num = 2 * u64::from(long) * u64::from(short) + u64::from(original_long);
        let den = 2 * u64::from(original_long);
        u32::try_from(num / den).unwrap_or(u32::MAX).max(1)
    };
    if width >= height { (long, short_of(height)) } else { (short_of(width), long) }
}

/// The largest long side in `1..=max_long` whose scaled size satisfies `fits` (a predicate
/// that only turns false as sizes grow), by binary search; `None` when none does.
fn largest_fitting(width: u32, height: u32, max_long: u32, fits: impl Fn(u32, u32) -> bool) -> Option<(u32, u32)> {
    let size = |long| scale_to_long_side(width, height, long);
    let (w1, h1) = size(1);
    if !fits(w1, h1) {
        return None;
    }
    // Invariant: `lo` fits; everything above `hi` does not (or is out of range).
    let (mut lo, mut hi) = (1u32, max_long.max(1));
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        let (w, h) = size(mid);
        if fits(w, h) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(size(lo))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anthropic_examples_from_the_guide() {
        // The guide's table: 1092 × 1092 is about 1,590 tokens and is not scaled.
        assert_eq!(Formula::Anthropic.effective_size(1092, 1092), (1092, 1092));
        assert_eq!(Formula::Anthropic.tokens(1092, 1092), 1590);
        // 200 × 200 costs about 54 tokens.
        assert_eq!(Formula::Anthropic.tokens(200, 200), 54);
        // A 4000 × 3000 photo is scaled to the long edge and the token ceiling first.
        let (w, h) = Formula::Anthropic.effective_size(4000, 3000);
        assert!(w <= 1568 && u64::from(w) * u64::from(h) <= 1_200_000, "{w}x{h}");
        assert!(Formula::Anthropic.tokens(4000, 3000) <= 1600);
        assert!(Formula::Anthropic.tokens(4000, 3000) > 1590);
    }

    #[test]
    fn openai_examples_from_the_guide() {
        // 1024 × 1024 → 768 × 768 → 4 tiles → 765 tokens.
        assert_eq!(Formula::OpenAi.effective_size(1024, 1024), (768, 768));
        assert_eq!(Formula::OpenAi.tokens(1024, 1024), 765);
        // 2048 × 4096 → 1024 × 2048 → 768 × 1536 → 6 tiles → 1,105 tokens.
        assert_eq!(Formula::OpenAi.effective_size(2048, 4096), (768, 1536));
        assert_eq!(Formula::OpenAi.tokens(2048, 4096), 1105);
        // Small images are not enlarged: 512 × 512 is one tile.
        assert_eq!(Formula::OpenAi.tokens(512, 512), 255);
        assert_eq!(Formula::OpenAi.min_tokens(), 255);
    }

    #[test]
    fn scaling_keeps_aspect_and_never_enlarges() {
        assert_eq!(scale_to_long_side(4000, 3000, 1000), (1000, 750));
        assert_eq!(scale_to_long_side(3000, 4000, 1000), (750, 1000));
        assert_eq!(scale_to_long_side(100, 50, 5000), (100, 50));
        assert_eq!(scale_to_long_side(10_000, 1, 10), (10, 1));
        assert_eq!(scale_to_long_side(0, 0, 10), (1, 1));
    }

    #[test]
    fn largest_within_respects_the_budget() {
        for formula in Formula::ALL {
            assert_eq!(formula.largest_within(4000, 3000, formula.min_tokens() - 1), None);
            let (w, h) = formula.largest_within(4000, 3000, 600).expect("fits");
            assert!(formula.tokens(w, h) <= 600);
            // One pixel more on the long side would not fit (or is already the ceiling).
            let (w2, h2) = scale_to_long_side(4000, 3000, w + 1);
            let (ew, _) = formula.effective_size(4000, 3000);
            assert!(w == ew || formula.tokens(w2, h2) > 600, "{formula:?} {w}x{h}");
        }
    }

    #[test]
    fn names_round_trip() {
        for formula in Formula::ALL {
            assert_eq!(Formula::from_name(formula.name()), Some(formula));
        }
        assert_eq!(Formula::from_name("gemini"), None);
    }
}
