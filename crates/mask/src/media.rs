//! The media keys of the config: `defaults.media` and a mask's `result.media`.
//!
//! ```yaml
//! defaults:
//!   media: { budget_tokens: 1600, formula: anthropic, audio_max_bytes: 1048576, mode: fit }
//! masks:
//!   - name: screenshot
//!     result:
//!       media: { budget_tokens: 800 }     # the rest from defaults.media
//! ```
//!
//! Every key is optional: a mask's `result.media` fills in from `defaults.media`, which fills
//! in from the built-in policy (`toolshape_media::MediaPolicy::default()`). `result.media`
//! sits in the `result` block the shaping core reads, so it is taken out of that block here
//! before the rest is read as a shaping plan.

use serde::{Deserialize, Serialize};
use toolshape_media::{Formula, MediaMode, MediaPolicy};

use crate::yaml::{Node, Value};

/// Media settings as written; what is left out comes from the level above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MediaSettings {
    /// The most tokens all images of one result may cost together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_tokens: Option<u32>,
    /// Whose formula prices images: `anthropic` or `openai`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formula: Option<Formula>,
    /// Audio (and non-image embedded blobs) larger than this many bytes is left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audio_max_bytes: Option<u64>,
    /// `fit` (downscale images over their share), `pass` (send media unchanged) or `drop`
    /// (list media only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<MediaMode>,
}

impl MediaSettings {
    /// These settings over `base`: each key written replaces `base`'s.
    #[must_use]
    pub fn over(&self, base: MediaPolicy) -> MediaPolicy {
        MediaPolicy {
            budget_tokens: self.budget_tokens.unwrap_or(base.budget_tokens),
            formula: self.formula.unwrap_or(base.formula),
            audio_max_bytes: self.audio_max_bytes.unwrap_or(base.audio_max_bytes),
            mode: self.mode.unwrap_or(base.mode),
        }
    }
}

/// What is wrong with a resolved policy, and what to write instead: an image budget that no
/// image fits in (with `mode: fit`, every image would be left out).
pub(crate) fn problem(policy: &MediaPolicy) -> Option<(String, String)> {
    let cheapest = policy.formula.min_tokens();
    (policy.mode == MediaMode::Fit && policy.budget_tokens < cheapest).then(|| {
        (
            format!(
                "media budget_tokens is {}, under the cheapest {} image ({cheapest} tokens): every image would be left out",
                policy.budget_tokens,
                policy.formula.name()
            ),
            format!("write `budget_tokens: {cheapest}` or more, or `mode: drop` to list images without sending them"),
        )
    })
}

/// `item` (a mask) without `result.media`, and the `result.media` node if it had one.
pub(crate) fn split_result_media(item: &Node) -> (Node, Option<Node>) {
    let mut stripped = item.clone();
    let mut media = None;
    if let Value::Map(entries) = &mut stripped.value
        && let Some((_, result)) = entries.iter_mut().find(|(k, _)| k.as_str() == Some("result"))
        && let Value::Map(result_entries) = &mut result.value
        && let Some(at) = result_entries.iter().position(|(k, _)| k.as_str() == Some("media"))
    {
        media = Some(result_entries.remove(at).1);
    }
    (stripped, media)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_fill_in_from_the_level_above() {
        let base = MediaPolicy { budget_tokens: 900, ..MediaPolicy::default() };
        let written = MediaSettings { mode: Some(MediaMode::Drop), ..MediaSettings::default() };
        let policy = written.over(base);
        assert_eq!(policy.budget_tokens, 900);
        assert_eq!(policy.mode, MediaMode::Drop);
        assert_eq!(MediaSettings::default().over(base), base);
    }

    #[test]
    fn a_budget_no_image_fits_is_a_problem_only_when_fitting() {
        let tight = MediaPolicy { budget_tokens: 100, formula: Formula::OpenAi, ..MediaPolicy::default() };
        let (message, hint) = problem(&tight).unwrap();
        assert!(message.contains("255 tokens"), "{message}");
        assert!(hint.contains("budget_tokens: 255"), "{hint}");
        assert!(problem(&MediaPolicy { mode: MediaMode::Drop, ..tight }).is_none());
        assert!(problem(&MediaPolicy::default()).is_none());
    }
}
