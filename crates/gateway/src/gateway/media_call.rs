//! The media step of a call: an upstream result with images, audio, embedded resources or
//! links is converted on the blocking pool (`media::convert`), its cut originals are stored
//! (`media_store`), and what is left to shape is the listing, under the text budget less
//! what embedded text resources sent as blocks took.
//!
//! Decoding an image can take hundreds of milliseconds and tens of megabytes: at most
//! [`MEDIA_SLOTS`] results are converted at once, so a burst of screenshots cannot take the
//! gateway's memory with it.

use rmcp::model::ContentBlock;
use tokio::sync::Semaphore;
use toolshape_mask::PreparedCall;
use toolshape_media::{DecodeLimits, MediaPolicy};
use toolshape_shape::{AutoSpec, Failure, MIN_BUDGET_TOKENS, Shaper};

use super::finish::{Attached, Payload, Produced, Source};
use super::media::{convert, render_listing};
use super::{Caller, Gateway};

/// Results converted at once.
const MEDIA_SLOTS: usize = 2;

static SLOTS: Semaphore = Semaphore::const_new(MEDIA_SLOTS);

impl Gateway {
    /// The media policy of a prepared call: its mask's `result.media`, else `defaults.media`.
    pub(super) fn media_policy(&self, prepared: &PreparedCall<'_>) -> MediaPolicy {
        prepared.media
    }

    /// What a result with media comes to: the listing to shape and the blocks to attach.
    pub(super) async fn with_media(
        &self,
        blocks: Vec<ContentBlock>,
        shaper: Shaper,
        policy: MediaPolicy,
        tool: &str,
        caller: &Caller,
    ) -> Produced {
        let budget = shaper.plan().budget_tokens;
        let tokenizer = self.loaded().tokenizer;
        let Ok(_slot) = SLOTS.acquire().await else {
            let failure =
                Failure::Unavailable { upstream: "media".into(), detail: "the gateway is shutting down".into() };
            return Produced::Failed { failure, shaper };
        };
        let job =
            tokio::task::spawn_blocking(move || convert(blocks, &policy, budget, tokenizer, &DecodeLimits::default()));
        let converted = match job.await {
            Ok(c) => c,
            Err(_) => {
                let failure = Failure::InvalidResponse {
                    upstream: tool.to_owned(),
                    detail: "its media could not be read".into(),
                };
                return Produced::Failed { failure, shaper };
            }
        };
        drop(_slot);
        let mut nexts = self.keep_media(converted.keep, tool, caller, &policy).await;
        let texts = converted.records.iter().filter(|(r, _)| r.get("text").is_some()).count();
        let listing = render_listing(converted.records, |item| {
            nexts.remove(&item).unwrap_or_else(|| Err("the original was not kept".to_owned()))
        });
        let shaper = listing_shaper(&shaper, converted.passed_text_tokens, texts);
        Produced::Data {
            payload: Payload::new(listing),
            shaper,
            resume: None,
            source: Source::Upstream,
            label: tool.to_owned(),
            attached: Attached { blocks: converted.blocks, stats: Some(converted.stats) },
        }
    }
}

/// The shaper of a listing: `shaper` with `used` tokens less to spend (never under the least
/// budget a plan may have), and, unless the plan caps strings itself, each of the `texts`
/// records with text (text blocks, embedded text too large to pass) capped to an equal share
/// of half the budget. A long text is then cut in place with a marker, and every item after
/// it is still listed on the first page, next to the block it names. The default view's
/// compaction is off: a listing is the gateway's own records, each naming a block and the
/// handle its original is read back with, and none of it may be cut or folded away.
fn listing_shaper(shaper: &Shaper, used: usize, texts: usize) -> Shaper {
    let mut plan = shaper.plan().clone();
    plan.auto = AutoSpec::OFF;
    plan.budget_tokens = plan.budget_tokens.saturating_sub(used).max(MIN_BUDGET_TOKENS);
    if texts > 0 && plan.default_field_tokens.is_none() {
        let share = (plan.budget_tokens / 2 / texts).max(TEXT_SHARE_FLOOR);
        plan.field_tokens.entry("text".to_owned()).or_insert(share);
    }
    Shaper::new(plan).unwrap_or_else(|_| shaper.clone())
}

/// The fewest tokens a text of a listing is cut to.
const TEXT_SHARE_FLOOR: usize = 32;
