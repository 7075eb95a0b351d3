//! The first read of a large text, redacting only what it shows: a head and a tail.
//!
//! A first read shows a few thousand tokens of a text that may be megabytes long, so
//! redacting all of it first would make its cost follow the payload. Instead the head and the
//! tail are cut at safe points ([`Cuts`]: whole lines, no private-key block across an edge, a
//! margin before the tail) and redacted on their own, which gives exactly the matching parts of
//! the whole redacted text. So offsets into the head are offsets into the whole redacted text,
//! and the tail's are known from its end ([`Resume::TextBefore`](crate::Resume::TextBefore)).
//!
//! What the page says of the whole text stays exact and costs a SIMD pass: its lines are its
//! line breaks less those inside private-key blocks (the only redaction that removes any).
//! Level counts and the map, which need every line looked at, describe the head and the tail,
//! and say so. When the page would take more than a part holds, that part is made four times
//! longer and the page fitted again. A text that is not much longer than its parts, or whose
//! redactor has a custom pattern that can match across lines, is redacted whole as before.

use toolshape_redact::{Cuts, RedactionCounts, Redactor};

use crate::context::ShapeContext;
use crate::logs::level_counts;
use crate::plan::{ShapePlan, TextKeep};
use crate::report::{ShapeError, Shaped};
use crate::text::{self, Gap, Paged};

/// Bytes redacted at each end per token of budget, to begin with: well over what a token
/// covers, so that one try is nearly always enough.
pub(crate) const BYTES_PER_TOKEN: usize = 32;

/// The least bytes redacted at each end.
const MIN_PART: usize = 16 * 1024;

/// A text is read in parts only when it is at least this many times longer than its parts
/// together; a shorter one is redacted whole.
const MIN_RATIO: usize = 4;

/// How long each part is to begin with, for `plan`.
pub(crate) fn first_part(plan: &ShapePlan) -> usize {
    plan.budget_tokens.saturating_mul(BYTES_PER_TOKEN).max(MIN_PART)
}

/// Shape the first read of `raw` (not yet redacted) from a redacted head and tail, or `None`
/// when it should be redacted whole.
pub(crate) fn shape_large(
    plan: &ShapePlan,
    redactor: &Redactor,
    raw: &str,
    lossy: bool,
    bytes_in: u64,
    ctx: &ShapeContext<'_>,
) -> Option<Result<Shaped, ShapeError>> {
    let first = first_part(plan);
    if ctx.resume.is_some() || raw.len() / MIN_RATIO < first * 2 {
        return None;
    }
    shape_in_parts(plan, redactor, raw, lossy, bytes_in, ctx, first, raw.len() / MIN_RATIO)
}

/// [`shape_large`] with parts of `first` bytes to begin with, growing to at most `limit`
/// bytes together.
#[allow(clippy::too_many_arguments)]
pub(crate) fn shape_in_parts(
    plan: &ShapePlan,
    redactor: &Redactor,
    raw: &str,
    lossy: bool,
    bytes_in: u64,
    ctx: &ShapeContext<'_>,
    first: usize,
    limit: usize,
) -> Option<Result<Shaped, ShapeError>> {
    let cuts = redactor.cuts(raw)?;
    let shows_tail = plan.text.keep == TextKeep::HeadTail || (plan.auto.tail && plan.decides_fields());
    let whole = Whole::of(raw, &cuts);
    // Asked for in so many words, the level counts are of every line: one pass over the
    // whole text, which a mask that wants them pays for. Raw and redacted lines have the
    // same levels (redaction replaces secrets, never a level's word).
    let whole_levels = (plan.text.log_levels == Some(true)).then(|| level_counts(raw));
    let (mut head, mut tail) = (first, if shows_tail { first } else { 0 });
    loop {
        if head.saturating_add(tail) > limit {
            return None;
        }
        let mut counts = RedactionCounts::default();
        let (text, mut gap) = whole.parts(redactor, head, tail, &mut counts)?;
        gap.whole_levels = whole_levels;
        match text::shape_parts(plan, &text, gap, lossy, bytes_in, counts, ctx) {
            Ok(Paged::Done(shaped)) => return Some(Ok(shaped)),
            Ok(Paged::MoreHead) => head = head.saturating_mul(4),
            Ok(Paged::MoreTail) => tail = tail.saturating_mul(4),
            Err(e) => return Some(Err(e)),
        }
    }
}

/// A raw text with what holds for all of it.
pub(crate) struct Whole<'a> {
    raw: &'a str,
    cuts: &'a Cuts,
    /// Its line breaks.
    newlines: u64,
}

impl<'a> Whole<'a> {
    pub(crate) fn of(raw: &'a str, cuts: &'a Cuts) -> Whole<'a> {
        Whole { raw, cuts, newlines: bytecount::count(raw.as_bytes(), b'\n') as u64 }
    }

    /// The redacted head (at least `head` bytes of whole lines) followed by the redacted tail
    /// (at least `tail` bytes), and the gap between them; `None` when they would meet.
    pub(crate) fn parts(
        &self,
        redactor: &Redactor,
        head: usize,
        tail: usize,
        counts: &mut RedactionCounts,
    ) -> Option<(String, Gap)> {
        let (raw, cuts) = (self.raw, self.cuts);
        let len = raw.len();
        let bytes = raw.as_bytes();
        let (head_part, _) = cuts.widen(raw, 0..head.min(len));
        let h = head_part.end;
        let (tail_part, margin) = if tail > 0 { cuts.widen(raw, len.saturating_sub(tail)..len) } else { (len..len, 0) };
        let t = tail_part.start + margin;
        if t <= h {
            return None;
        }
        let mut text = redactor.redact_text(&raw[head_part], counts).into_owned();
        let at = text.len();
        if tail > 0 {
            let redacted = redactor.redact_text(&raw[tail_part.clone()], counts);
            // The margin only gives the tail's first lines their context; it is not shown.
            let skip = newlines(&bytes[tail_part.start..t]) - cuts.newlines_removed(raw, tail_part.start..t);
            text.push_str(&redacted[line_start_after(&redacted, skip)..]);
        }
        let gap_raw = self.newlines - newlines(&bytes[..h]) - newlines(&bytes[t..]);
        let gap = Gap {
            at,
            newlines: gap_raw - cuts.newlines_removed(raw, h..t),
            total_lines: self.newlines - cuts.newlines_removed(raw, 0..len) + u64::from(!raw.ends_with('\n')),
            open_end: !raw.ends_with('\n'),
            whole_levels: None,
        };
        Some((text, gap))
    }
}

fn newlines(bytes: &[u8]) -> u64 {
    bytecount::count(bytes, b'\n') as u64
}

/// Where the line after the first `lines` line breaks of `s` starts.
fn line_start_after(s: &str, lines: u64) -> usize {
    if lines == 0 {
        return 0;
    }
    memchr::memchr_iter(b'\n', s.as_bytes()).nth((lines - 1) as usize).map_or(s.len(), |i| i + 1)
}

#[cfg(test)]
mod tests;
