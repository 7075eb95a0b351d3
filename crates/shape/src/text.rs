//! Text results: files, command output, logs.
//!
//! Whole lines are kept from the head (or head and tail) while they fit; one giant line is
//! cut at a character boundary. Pages resume at a byte offset of the redacted text, so
//! reading every page gives back that text exactly. Logs get a level count in the summary.

use serde_json::Value;
use toolshape_redact::RedactionCounts;

use crate::envelope::{Data, Envelope, Omitted, Original, Status, render, to_neutral_json};
use crate::logs::level_counts;
use crate::numfmt::{bytes as fmt_bytes, thousands};
use crate::plan::{RenderMode, ShapePlan, TextKeep};
use crate::shaper::{Resume, ShapeContext, ShapeError, ShapeReport, Shaped};

/// Shape `text` (already redacted) under `plan`.
pub(crate) fn shape_text(
    plan: &ShapePlan,
    text: &str,
    lossy: bool,
    bytes_in: u64,
    counts: RedactionCounts,
    ctx: &ShapeContext<'_>,
) -> Result<Shaped, ShapeError> {
    let tok = &ctx.tokenizer;
    let budget = plan.budget_tokens;
    let (begin, end) = match ctx.resume {
        Some(Resume::Text { offset, end }) => {
            let end = end.map_or(text.len(), |e| text.floor_char_boundary(e as usize));
            (text.floor_char_boundary(offset as usize).min(end), end)
        }
        _ => (0, text.len()),
    };
    let total_lines = count_lines(text);
    let line_of = |byte: usize| memchr::memchr_iter(b'\n', &text.as_bytes()[..byte]).count() as u64;
    let first_line = line_of(begin);
    // Level counts describe the whole text once, on the first call; pages do not repeat them.
    let levels = if plan.text.log_levels && ctx.resume.is_none() {
        let c = level_counts(text);
        if c.looks_like_log() { c.phrase() } else { None }
    } else {
        None
    };
    let head_tail = plan.text.keep == TextKeep::HeadTail && ctx.resume.is_none();

    let describe = |kept_end: usize, tail_start: usize| -> Envelope {
        let whole = begin == 0 && kept_end >= tail_start && tail_start >= end && end == text.len();
        let shown_lines = count_lines(&text[begin..kept_end]);
        let left_bytes = &text[kept_end..tail_start.max(kept_end)];
        let left_lines = count_lines(left_bytes);
        let mut summary = if whole {
            format!("{} lines ({})", thousands(total_lines), fmt_bytes(bytes_in))
        } else if shown_lines == 0 {
            format!("no lines shown of {} ({})", thousands(total_lines), fmt_bytes(bytes_in))
        } else {
            format!(
                "lines {}-{} of {} ({})",
                thousands(first_line + 1),
                thousands(first_line + shown_lines),
                thousands(total_lines),
                fmt_bytes(bytes_in)
            )
        };
        if tail_start < end {
            summary.push_str(&format!(" and the last {} lines", thousands(count_lines(&text[tail_start..end]))));
        }
        // A line too long for the budget is cut inside: say so, or the page reads as whole.
        if kept_end > begin && kept_end < end && text.as_bytes()[kept_end - 1] != b'\n' {
            let line_start = text[..kept_end].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[kept_end..].find('\n').map_or(text.len(), |i| kept_end + i);
            summary.push_str(&format!(
                "; line {} cut after {} of its {} characters",
                thousands(first_line + shown_lines),
                thousands(count_chars(&text[line_start..kept_end])),
                thousands(count_chars(&text[line_start..line_end]))
            ));
        }
        if let Some(l) = &levels {
            summary.push_str(&format!("; log levels: {l}"));
        }
        if lossy {
            summary.push_str("; invalid UTF-8 replaced with U+FFFD");
        }
        let data_text = if tail_start < end {
            let head = &text[begin..kept_end];
            // The marker gets a line of its own without adding a blank line to the text.
            let gap = if head.is_empty() || head.ends_with('\n') { "" } else { "\n" };
            format!("{head}{gap}[… {} lines omitted …]\n{}", thousands(left_lines), &text[tail_start..end])
        } else {
            text[begin..kept_end].to_owned()
        };
        let stop = if tail_start < end {
            Some(tail_start as u64)
        } else if end < text.len() {
            Some(end as u64)
        } else {
            None
        };
        let remaining = kept_end < tail_start.min(end);
        if remaining {
            summary.push_str("; more with next");
        }
        Envelope {
            status: if remaining {
                Status::Partial
            } else if text.is_empty() {
                Status::Empty
            } else {
                Status::Ok
            },
            summary,
            data: if text.is_empty() { Data::Null } else { Data::Text(data_text) },
            omitted: remaining.then(|| Omitted {
                count: left_lines.max(1),
                unit: "lines".into(),
                reason: "budget".into(),
                chars: Some(count_chars(left_bytes)),
                fields_cut: None,
                original: Original { bytes: bytes_in, records: None, lines: Some(total_lines) },
            }),
            next: remaining.then(|| ctx.continuation.next(&Resume::Text { offset: kept_end as u64, end: stop })),
        }
    };

    let skeleton = render(&describe(begin, end), plan.render, ctx.nonce);
    let overhead = tok.count(&skeleton) + 8;
    if overhead >= budget {
        return Err(ShapeError::BudgetTooSmall { budget, minimum: overhead + 1 });
    }
    let room = budget - overhead;
    let (head_room, tail_room) = if head_tail { (room * 2 / 3, room - room * 2 / 3) } else { (room, 0) };

    let piece_cost = |s: &str, limit: usize| -> Option<usize> {
        match plan.render {
            // Inside a JSON string, escapes change the count; count the escaped form.
            RenderMode::Json => tok
                .count_till_limit(&to_neutral_json(&Value::String(s.to_owned())), limit + 1)
                .map(|n| n.saturating_sub(1)),
            RenderMode::Prose => tok.count_till_limit(s, limit),
        }
    };

    // Everything fits: one count of the whole rendering settles it, instead of a count per
    // line and another of the result. Only tried when the text could fit at all (a token is
    // rarely over 32 bytes), so a huge text is never copied or escaped whole.
    let everything = (end - begin <= budget.saturating_mul(32)).then(|| {
        let env = describe(end, end);
        let text = render(&env, plan.render, ctx.nonce);
        (env, text)
    });
    let fits_whole = everything.and_then(|(env, text)| tok.count_till_limit(&text, budget).map(|n| (env, text, n)));
    let (env, rendered, tokens, kept_end) = if let Some((env, text, tokens)) = fits_whole {
        (env, text, tokens, end)
    } else {
        // Head: whole lines while they fit; a first line too long for the room is cut.
        let mut kept_end = begin;
        let mut used = 0usize;
        for line in text[begin..end].split_inclusive('\n') {
            match piece_cost(line, head_room.saturating_sub(used)) {
                Some(c) => {
                    used += c;
                    kept_end += line.len();
                }
                None => {
                    if kept_end == begin {
                        kept_end += cut_line(line, head_room, &piece_cost);
                    }
                    break;
                }
            }
        }
        // Tail: whole lines from the end, never overlapping the head.
        let mut tail_start = end;
        if head_tail && kept_end < end {
            let mut used_tail = 0usize;
            let region = &text[kept_end..end];
            for line in region.split_inclusive('\n').rev() {
                match piece_cost(line, tail_room.saturating_sub(used_tail)) {
                    Some(c) => {
                        used_tail += c;
                        tail_start -= line.len();
                    }
                    None => break,
                }
            }
            if tail_start <= kept_end {
                kept_end = end;
                tail_start = end;
            }
        }

        let (env, rendered, tokens, kept_end) = loop {
            let env = describe(kept_end, tail_start);
            let rendered = render(&env, plan.render, ctx.nonce);
            if let Some(tokens) = tok.count_till_limit(&rendered, budget) {
                break (env, rendered, tokens, kept_end);
            }
            // Over by a little: give back the tail first, then head lines, keeping progress.
            if tail_start < end {
                tail_start = end;
                continue;
            }
            let shown = &text[begin..kept_end];
            let shorter = match shown.trim_end_matches('\n').rfind('\n') {
                Some(i) => begin + i + 1,
                None => begin + shown.floor_char_boundary(shown.len() * 3 / 4),
            };
            if shorter <= begin {
                return Err(ShapeError::BudgetTooSmall { budget, minimum: tok.count(&rendered) });
            }
            kept_end = shorter;
        };
        (env, rendered, tokens, kept_end)
    };
    let report = ShapeReport {
        bytes_in,
        bytes_out: rendered.len() as u64,
        tokens_out: tokens as u64,
        records_total: None,
        records_kept: 0,
        records_omitted: 0,
        cut_at: env.next.as_ref().map(|_| format!("byte {kept_end}")),
        redactions: counts,
        fields_cut: 0,
        needs_snapshot: env.next.is_some(),
    };
    Ok(Shaped { envelope: env, text: rendered, report })
}

/// How many bytes of `line` fit `room`, at a character boundary; at least one character so
/// that paging always moves on.
fn cut_line(line: &str, room: usize, cost: &dyn Fn(&str, usize) -> Option<usize>) -> usize {
    let (mut lo, mut hi) = (0usize, line.len().min(room.saturating_mul(16)));
    hi = line.floor_char_boundary(hi);
    while lo < hi {
        let mid = line.ceil_char_boundary(lo + (hi - lo).div_ceil(2));
        if mid > hi {
            break;
        }
        if cost(&line[..mid], room).is_some() {
            lo = mid;
        } else {
            hi = line.floor_char_boundary(mid - 1);
        }
    }
    if lo == 0 { line.chars().next().map_or(0, char::len_utf8) } else { lo }
}

/// Lines in `s`: newlines, plus one for a last line without a newline.
pub(crate) fn count_lines(s: &str) -> u64 {
    let newlines = memchr::memchr_iter(b'\n', s.as_bytes()).count() as u64;
    newlines + u64::from(!s.is_empty() && !s.ends_with('\n'))
}

/// Characters in `s`, counted from bytes that start a character.
fn count_chars(s: &str) -> u64 {
    s.as_bytes().iter().filter(|b| (**b as i8) >= -0x40).count() as u64
}
