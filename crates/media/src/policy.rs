//! The media policy of a result: `defaults.media` or a mask's `result.media` in the config.

use serde::{Deserialize, Serialize};

use crate::formula::Formula;

/// What happens to the media of a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MediaMode {
    /// Images over their share of the budget are downscaled until they fit (the default).
    #[default]
    Fit,
    /// Media are sent unchanged: counted, never cut.
    Pass,
    /// Media are left out; only their listing remains.
    Drop,
}

impl MediaMode {
    /// Every mode, for listings and tests.
    pub const ALL: [MediaMode; 3] = [MediaMode::Fit, MediaMode::Pass, MediaMode::Drop];

    /// The name used in configuration.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            MediaMode::Fit => "fit",
            MediaMode::Pass => "pass",
            MediaMode::Drop => "drop",
        }
    }

    /// The mode named `name` in configuration, if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<MediaMode> {
        MediaMode::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// The budget and rules for the media of one result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MediaPolicy {
    /// The most tokens all images of one result may cost together.
    pub budget_tokens: u32,
    /// Whose formula prices an image.
    pub formula: Formula,
    /// Audio larger than this is left out (with a `next` that reads it).
    pub audio_max_bytes: u64,
    /// Fit, pass or drop.
    pub mode: MediaMode,
}

/// The default image budget: about one full-size image for either family.
pub const DEFAULT_BUDGET_TOKENS: u32 = 1600;
/// The default audio limit: 1 MiB.
pub const DEFAULT_AUDIO_MAX_BYTES: u64 = 1_048_576;

impl Default for MediaPolicy {
    fn default() -> Self {
        MediaPolicy {
            budget_tokens: DEFAULT_BUDGET_TOKENS,
            formula: Formula::default(),
            audio_max_bytes: DEFAULT_AUDIO_MAX_BYTES,
            mode: MediaMode::default(),
        }
    }
}
