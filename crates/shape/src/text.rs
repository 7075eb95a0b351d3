//! Text results: files, command output, logs.
//!
//! Whole lines are kept from the head (or head and tail) while they fit; one giant line is
//! cut at a character boundary. Pages resume at a byte offset of the redacted text, so
//! reading every page gives back that text exactly. Logs get a level count in the summary.

use serde_json::Value;
use toolshape_redact::RedactionCounts;

use crate::context::{Resume, ShapeContext};
use crate::envelope::{Data, Envelope, Omitted, Original, Status, render, to_neutral_json};
use crate::failure::exceptions_phrase;
use crate::framed::framed_body;
use crate::line_fields::some_lines_fields;
use crate::line_patterns::patterns_phrase;
use crate::line_terms::{WORDS_HEAD, first_words, terms_phrase, words_listed};
use crate::logs::{LevelCounts, level_counts};
use crate::numfmt::{bytes as fmt_bytes, thousands};
use crate::outline::{Outlined, markdown, outline, outline_of};
use crate::plan::{RenderMode, ShapePlan, TextKeep};
use crate::report::{ShapeError, ShapeReport, Shaped, SnapshotHead};
use crate::sections::sections_map;
use crate::spaced::spaced_table;

/// The share of the budget, in percent, a text's map may take in the summary (as
/// characters, at about four per token).
const OUTLINE_BUDGET_PERCENT: usize = 20;
/// The share of that room, in percent, the line patterns may take.
const PATTERN_ROOM_PERCENT: usize = 50;

/// The share of that room, in percent, the words counted by lines may take.
const WORDS_ROOM_PERCENT: usize = 30;

/// The least room worth counting the words for: the heading and a few entries.
const WORDS_MIN_ROOM: usize = 100;

/// The room of the line patterns: what the other parts of the map left, at most
/// [`PATTERN_ROOM_PERCENT`] of the map's room.
fn pattern_room(room: usize, left: usize, taken: Option<&str>) -> usize {
    let left = left.saturating_sub(taken.map_or(0, |s| s.len() + 2));
    left.min(room * PATTERN_ROOM_PERCENT / 100)
}

/// `map` cut after its last whole clause (`; `) that keeps it within `room` tokens as
/// `count` counts them, or `None` when not even its first clause fits. The cut is found by
/// halving, so a few counts suffice whatever the map's length.
fn fit_clauses(map: String, room: usize, count: impl Fn(&str) -> usize) -> Option<String> {
    if count(&map) <= room {
        return Some(map);
    }
    let ends: Vec<usize> = map.match_indices("; ").map(|(i, _)| i).collect();
    // The longest prefix that fits ends at `ends[fits - 1]`; prefixes grow with their end.
    let (mut fits, mut over) = (0usize, ends.len() + 1);
    while fits + 1 < over {
        let mid = (fits + over) / 2;
        if count(&map[..ends[mid - 1]]) <= room {
            fits = mid;
        } else {
            over = mid;
        }
    }
    (fits > 0).then(|| map[..ends[fits - 1]].to_owned())
}

/// `map` within `room` tokens: whole clauses, as [`fit_clauses`] keeps them, except the
/// words' clause, which comes last and keeps as many of its first entries as fit when
/// every clause before it does (a dense map would lose all its words otherwise).
fn fit_map(map: String, room: usize, count: impl Fn(&str) -> usize) -> Option<String> {
    if count(&map) <= room {
        return Some(map);
    }
    let Some(at) = map.find(WORDS_HEAD) else { return fit_clauses(map, room, count) };
    let (before, words) = map.split_at(at);
    // What comes before the words: other clauses (fitted whole, as any map's), or the
    // note of the lines the map covers, kept as it is.
    let before = match before.strip_suffix("; ") {
        Some(clauses) => match fit_clauses(clauses.to_owned(), room, &count) {
            Some(fitted) if fitted.len() == clauses.len() => format!("{fitted}; "),
            cut => return cut,
        },
        None if count(before) <= room => before.to_owned(),
        None => return None,
    };
    // The most entries that fit, found by halving: the clause grows with its entries.
    let with = |keep: usize| first_words(words, keep).map(|w| format!("{before}{w}"));
    let (mut fits, mut over) = (0usize, words_listed(words) + 1);
    while fits + 1 < over {
        let mid = (fits + over) / 2;
        if with(mid).is_some_and(|m| count(&m) <= room) {
            fits = mid;
        } else {
            over = mid;
        }
    }
    with(fits).or_else(|| before.strip_suffix("; ").map(str::to_owned)).filter(|m| !m.is_empty() && !m.ends_with(": "))
}

/// Shape `text` (already redacted) under `plan`.
pub(crate) fn shape_text(
    plan: &ShapePlan,
    text: &str,
    lossy: bool,
    bytes_in: u64,
    counts: RedactionCounts,
    ctx: &ShapeContext<'_>,
) -> Result<Shaped, ShapeError> {
    let page = TextPage::new(plan, text, None, lossy, bytes_in, ctx);
    match fit_or_plainer(page, counts)? {
        Paged::Done(shaped) => Ok(shaped),
        // Without a gap the head and the tail always have the whole text to take from.
        Paged::MoreHead | Paged::MoreTail => Err(ShapeError::BudgetTooSmall { budget: plan.budget_tokens, minimum: 0 }),
    }
}

/// The first read of a large text of which only a head and a tail were redacted: `text` is
/// the redacted head followed by the redacted tail, and `gap` says what lies between them.
/// [`Paged::MoreHead`] or [`Paged::MoreTail`] when the page would take more than the head
/// or the tail holds: the caller redacts a larger one and asks again.
pub(crate) fn shape_parts(
    plan: &ShapePlan,
    text: &str,
    gap: Gap,
    lossy: bool,
    bytes_in: u64,
    counts: RedactionCounts,
    ctx: &ShapeContext<'_>,
) -> Result<Paged, ShapeError> {
    let page = TextPage::new(plan, text, Some(gap), lossy, bytes_in, ctx);
    fit_or_plainer(page, counts)
}

/// Fit `page`; when the budget is too small for it, fit it again without the map, then
/// without the level counts too. They describe the text but are not part of it, so a tight
/// budget drops them before it refuses the text.
fn fit_or_plainer(mut page: TextPage<'_, '_>, counts: RedactionCounts) -> Result<Paged, ShapeError> {
    loop {
        match fit_page(&mut page, counts.clone()) {
            Err(ShapeError::BudgetTooSmall { .. }) if page.map.is_some() => page.map = None,
            Err(ShapeError::BudgetTooSmall { .. }) if page.levels.is_some() => page.levels = None,
            other => return other,
        }
    }
}

/// What lies between the redacted head and tail of a large text: its position in the
/// page's text, and its lines.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Gap {
    /// Where it sits in the page's text: the end of the head.
    pub(crate) at: usize,
    /// Line breaks in it, once redacted.
    pub(crate) newlines: u64,
    /// Lines of the whole redacted text.
    pub(crate) total_lines: u64,
    /// The whole text does not end with a line break (its last line is open).
    pub(crate) open_end: bool,
    /// The level counts of every line of the whole text, when the plan asks for them.
    pub(crate) whole_levels: Option<LevelCounts>,
}

/// A fitted page, or which part of a gapped text ran short.
pub(crate) enum Paged {
    /// The page.
    Done(Shaped),
    /// The head would show all the redacted head: more of it is needed.
    MoreHead,
    /// The tail would show all the redacted tail: more of it is needed.
    MoreTail,
}

fn fit_page(page: &mut TextPage<'_, '_>, counts: RedactionCounts) -> Result<Paged, ShapeError> {
    let plan = page.plan;
    let ctx = page.ctx;
    let bytes_in = page.bytes_in;
    let budget = plan.budget_tokens;
    // A text that fits whole is shown whole, however small the budget: the envelope of a
    // cut page (with `omitted` and `next`) costs more than a short text does.
    let (env, rendered, tokens, kept_end) = match page.whole() {
        Some(fitted) => fitted,
        None => {
            let skeleton = page.render(&page.envelope(page.begin, page.end));
            let mut overhead = ctx.tokenizer.count(&skeleton) + 8;
            // The map describes the text; it may not crowd it out. It takes at most a third of
            // what the page has after its fixed parts, or the page shows text without it.
            // A map of more tokens than that loses its last clauses (whole ones) until it
            // fits; one that cannot keep a clause goes.
            if let Some(map) = page.map.take() {
                let room = budget.saturating_sub(overhead) / 2;
                let before = ctx.tokenizer.count(&map);
                page.map = fit_map(map, room, |m| ctx.tokenizer.count(m));
                if page.map.is_none() || before > room {
                    overhead = ctx.tokenizer.count(&page.render(&page.envelope(page.begin, page.end))) + 8;
                }
            }
            if overhead >= budget {
                return Err(ShapeError::BudgetTooSmall { budget, minimum: overhead + 1 });
            }
            let room = budget - overhead;
            // Head and tail share the room equally: the end of a command's output or a log
            // holds its outcome and latest state as often as its start holds what it is
            // (BENCHMARKS.md, "Answers without a mask": a third for the tail found fewer).
            let (head_room, tail_room) = if page.head_tail { (room / 2, room - room / 2) } else { (room, 0) };
            let Some(mut kept_end) = page.head(head_room) else {
                return Ok(Paged::MoreHead);
            };
            let Some((head_end, tail_start)) = page.tail(kept_end, tail_room) else {
                return Ok(Paged::MoreTail);
            };
            kept_end = head_end;
            // A tail with nothing to show (the rest is one line longer than its room, as a
            // minified file is) leaves its room to the head.
            if tail_room > 0 && tail_start >= page.end && kept_end < page.end {
                let Some(longer) = page.head(room) else {
                    return Ok(Paged::MoreHead);
                };
                kept_end = longer;
            }
            page.settle(kept_end, tail_start)?
        }
    };
    let report = ShapeReport {
        bytes_in,
        bytes_out: rendered.len() as u64,
        tokens_out: tokens.map(|t| t as u64),
        records_total: None,
        records_kept: 0,
        records_omitted: 0,
        cut_at: env.next.as_ref().map(|_| format!("byte {kept_end}")),
        redactions: counts,
        fields_cut: 0,
        needs_snapshot: env.next.is_some(),
    };
    Ok(Paged::Done(Shaped { envelope: env, text: rendered, report, snapshot_head: SnapshotHead::default() }))
}

/// A page that fits: its envelope, the text the model reads, its tokens (`None` when its
/// bytes alone prove the fit), and where the head it shows ends.
type Fitted = (Envelope, String, Option<usize>, usize);

/// One page of a text being fitted: the bytes `begin..end` it may show, and what the
/// summary says of the whole text.
struct TextPage<'a, 'c> {
    plan: &'a ShapePlan,
    text: &'a str,
    lossy: bool,
    bytes_in: u64,
    ctx: &'a ShapeContext<'c>,
    /// Where this page starts (a resume point, or 0).
    begin: usize,
    /// Where this page must stop (a tail already shown, or the end).
    end: usize,
    total_lines: u64,
    /// The zero-based line `begin` falls in.
    first_line: u64,
    /// The level count phrase of a log, on a first read only.
    levels: Option<String>,
    /// The map of structured text, on a first read only.
    map: Option<String>,
    /// Whether the page shows a tail as well as a head.
    head_tail: bool,
    /// The text is JSON nested deeper than the parser reads, on a first read only.
    too_deep: bool,
    /// What lies between the head and the tail, when only they were redacted.
    gap: Option<Gap>,
}

impl<'a, 'c> TextPage<'a, 'c> {
    fn new(
        plan: &'a ShapePlan,
        text: &'a str,
        gap: Option<Gap>,
        lossy: bool,
        bytes_in: u64,
        ctx: &'a ShapeContext<'c>,
    ) -> Self {
        let (begin, end) = match ctx.resume {
            Some(Resume::Text { offset, end }) => {
                let end = end.map_or(text.len(), |e| text.floor_char_boundary(e as usize));
                (text.floor_char_boundary(offset as usize).min(end), end)
            }
            Some(Resume::TextBefore { offset, before_end }) => {
                let end = text.floor_char_boundary(text.len().saturating_sub(before_end as usize));
                (text.floor_char_boundary(offset as usize).min(end), end)
            }
            _ => (0, text.len()),
        };
        let first_line = bytecount::count(&text.as_bytes()[..begin], b'\n') as u64;
        // Level counts describe the whole text once, on the first call; pages do not repeat
        // them. Of a gapped text they describe the head and the tail, and say so.
        let (head, tail) = match gap {
            Some(g) => (&text[..g.at], &text[g.at..]),
            None => (text, ""),
        };
        let levels = if plan.text.log_levels != Some(false) && ctx.resume.is_none() {
            let whole = gap.and_then(|g| g.whole_levels);
            let c = whole.unwrap_or_else(|| {
                let mut c = level_counts(head);
                c.merge(&level_counts(tail));
                c
            });
            let phrase = if c.looks_like_log() { c.phrase() } else { None };
            // Counts of every line describe the whole text as an ungapped one's do.
            let gap = gap.filter(|_| whole.is_none());
            match (gap, phrase) {
                (Some(_), Some(p)) if tail.is_empty() => {
                    Some(format!("log levels in the first {} lines: {p}", thousands(count_lines(head))))
                }
                (Some(_), Some(p)) => Some(format!(
                    "log levels in the first {} and the last {} lines: {p}",
                    thousands(count_lines(head)),
                    thousands(count_lines(tail))
                )),
                (None, phrase) => phrase.map(|p| format!("log levels: {p}")),
                (Some(_), None) => None,
            }
        } else {
            None
        };
        // The map describes the whole text once, like the level counts; of a gapped text, its
        // head.
        let room = plan.budget_tokens * 4 * OUTLINE_BUDGET_PERCENT / 100;
        let mapped = plan.auto.outline && plan.decides_fields() && ctx.resume.is_none();
        // The exceptions the text's stack traces raised take at most a quarter of the room,
        // and the outline what they leave. The line patterns take what is left after that,
        // half the room at most.
        let exceptions = mapped.then(|| exceptions_phrase(head, room / 4)).flatten();
        let left = room.saturating_sub(exceptions.as_ref().map_or(0, |e| e.len() + 2));
        // A body under a few headings that frame it is read as if they were not there, its
        // map after the headings' list.
        let BodyMaps { outlined, sectioned, spaced, headings } =
            if mapped { maps(head, left, levels.is_some()) } else { BodyMaps::default() };
        let taken = outlined.as_deref().or(sectioned.as_deref()).or(spaced.as_deref());
        // The line patterns follow any other map, in the room it leaves: a journal's `key=value`
        // fields say nothing of its `systemd` lines, which the patterns count.
        let patterns =
            mapped.then(|| patterns_phrase(head, pattern_room(room, left, taken), levels.is_some())).flatten();
        // Lines that carry `key=value` pairs among lines that do not (a kernel log's firewall
        // lines) have their fields counted too, when no outline read the whole text (a list
        // of headings reads none of the lines under them: Redis `INFO`'s `# Commandstats`).
        let fields = (mapped && (outlined.is_none() || headings)).then(|| some_lines_fields(head, room / 4)).flatten();
        let outlined = outlined.or(spaced);
        let parts = [outlined, sectioned, patterns, exceptions, fields];
        // The words in most lines come last, in the room the rest left (a share of it at
        // most): they answer counts of what no other part of the map splits out.
        let used: usize = parts.iter().flatten().map(|p| p.len() + 2).sum();
        let words_room = room.saturating_sub(used).min(room * WORDS_ROOM_PERCENT / 100);
        let words = (mapped && plan.auto.words && words_room >= WORDS_MIN_ROOM)
            .then(|| {
                terms_phrase(
                    head,
                    words_room,
                    &parts.iter().flatten().map(String::as_str).collect::<Vec<_>>().join("; "),
                )
            })
            .flatten();
        let map = parts.into_iter().chain([words]).flatten().reduce(|a, b| format!("{a}; {b}")).map(|m| match gap {
            Some(_) => format!("in lines 1-{}: {m}", thousands(count_lines(head))),
            None => m,
        });
        let tail = plan.text.keep == TextKeep::HeadTail || (plan.auto.tail && plan.decides_fields());
        TextPage {
            plan,
            text,
            lossy,
            bytes_in,
            ctx,
            begin,
            end,
            total_lines: gap.map_or_else(|| count_lines(text), |g| g.total_lines),
            first_line,
            levels,
            map,
            head_tail: tail && ctx.resume.is_none(),
            too_deep: ctx.resume.is_none() && nested_too_deep(head),
            gap,
        }
    }

    fn render(&self, env: &Envelope) -> String {
        render(env, self.plan.render, self.ctx.nonce)
    }

    /// The summary of a page showing `begin..kept_end` and, when `tail_start < end`, the
    /// tail `tail_start..end`.
    fn summary(&self, kept_end: usize, tail_start: usize) -> String {
        let (text, begin, end) = (self.text, self.begin, self.end);
        let whole =
            begin == 0 && kept_end >= tail_start && tail_start >= end && end == text.len() && self.gap.is_none();
        let shown_lines = count_lines(&text[begin..kept_end]);
        let mut summary = if whole {
            let noun = if self.total_lines == 1 { "line" } else { "lines" };
            format!("{} {noun} ({})", thousands(self.total_lines), fmt_bytes(self.bytes_in))
        } else if shown_lines == 0 {
            format!("no lines shown of {} ({})", thousands(self.total_lines), fmt_bytes(self.bytes_in))
        } else {
            format!(
                "lines {}-{} of {} ({})",
                thousands(self.first_line + 1),
                thousands(self.first_line + shown_lines),
                thousands(self.total_lines),
                fmt_bytes(self.bytes_in)
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
                thousands(self.first_line + shown_lines),
                thousands(count_chars(&text[line_start..kept_end])),
                thousands(count_chars(&text[line_start..line_end]))
            ));
        }
        if let Some(l) = &self.levels {
            summary.push_str("; ");
            summary.push_str(l);
        }
        // A map helps find what a read leaves out; a read of the whole text needs none.
        if let Some(m) = self.map.as_ref().filter(|_| self.remaining(kept_end, tail_start) || begin > 0) {
            summary.push_str("; ");
            summary.push_str(m);
        }
        if self.lossy {
            summary.push_str("; invalid UTF-8 replaced with U+FFFD");
        }
        if self.too_deep {
            summary.push_str("; JSON nested deeper than 128 levels, shown as text");
        }
        if self.remaining(kept_end, tail_start) {
            summary.push_str("; more with next");
        }
        summary
    }

    /// Whether text is left between the head ending at `kept_end` and the tail from
    /// `tail_start`: always, when a gap was not redacted.
    fn remaining(&self, kept_end: usize, tail_start: usize) -> bool {
        kept_end < tail_start.min(self.end) || self.gap.is_some()
    }

    /// Lines and characters of what the page leaves out between `kept_end` and
    /// `tail_start`; characters are unknown when that holds an unredacted gap.
    fn left_out(&self, kept_end: usize, tail_start: usize) -> (u64, Option<u64>) {
        let left = &self.text[kept_end..tail_start.max(kept_end)];
        match self.gap {
            None => (count_lines(left), Some(count_chars(left))),
            Some(g) => {
                let newlines = bytecount::count(left.as_bytes(), b'\n') as u64 + g.newlines;
                // The last line is left out too when no tail is shown.
                (newlines + u64::from(g.open_end && tail_start >= self.end), None)
            }
        }
    }

    /// The envelope of a page showing `begin..kept_end` and the tail from `tail_start`.
    fn envelope(&self, kept_end: usize, tail_start: usize) -> Envelope {
        let (text, begin, end) = (self.text, self.begin, self.end);
        let (left_lines, left_chars) = self.left_out(kept_end, tail_start);
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
        let resume = match (self.gap, stop) {
            // Where the tail starts in the whole redacted text is known from its end only.
            (Some(_), Some(_)) => Resume::TextBefore { offset: kept_end as u64, before_end: (end - tail_start) as u64 },
            (_, stop) => Resume::Text { offset: kept_end as u64, end: stop },
        };
        let remaining = self.remaining(kept_end, tail_start);
        Envelope {
            status: if remaining {
                Status::Partial
            } else if text.is_empty() {
                Status::Empty
            } else {
                Status::Ok
            },
            summary: self.summary(kept_end, tail_start),
            data: if text.is_empty() { Data::Null } else { Data::Text(data_text) },
            omitted: remaining.then(|| Omitted {
                count: left_lines.max(1),
                unit: "lines".into(),
                reason: "budget".into(),
                chars: left_chars,
                fields_cut: None,
                fields: None,
                original: Original { bytes: self.bytes_in, records: None, lines: Some(self.total_lines) },
            }),
            next: remaining.then(|| self.ctx.continuation.next(&resume)),
        }
    }

    /// The tokens `s` adds to the rendering, if at most `limit`.
    fn piece_cost(&self, s: &str, limit: usize) -> Option<usize> {
        let tok = &self.ctx.tokenizer;
        match self.plan.render {
            // Inside a JSON string, escapes change the count; count the escaped form.
            RenderMode::Json => tok
                .count_till_limit(&to_neutral_json(&Value::String(s.to_owned())), limit + 1)
                .map(|n| n.saturating_sub(1)),
            RenderMode::Prose => tok.count_till_limit(s, limit),
        }
    }

    /// The whole page, when it fits: one count of the whole rendering settles it, instead
    /// of a count per line and another of the result. Only tried when the text could fit at
    /// all (a token is rarely over 32 bytes), so a huge text is never copied or escaped whole.
    fn whole(&self) -> Option<Fitted> {
        let budget = self.plan.budget_tokens;
        if self.end - self.begin > budget.saturating_mul(32) || self.gap.is_some() {
            return None;
        }
        let env = self.envelope(self.end, self.end);
        let rendered = self.render(&env);
        // Not counted when its bytes prove the fit: counted once, on the text the model
        // reads (see `Shaper::with_fitting_nonce`), or after the answer.
        let tokens = self.ctx.tokenizer.fit(&rendered, budget)?.tokens();
        Some((env, rendered, tokens, self.end))
    }

    /// Where the head ends: whole lines while they fit `room`; a first line too long for it
    /// is cut. `None` when it would take the whole redacted head of a gapped text.
    fn head(&self, room: usize) -> Option<usize> {
        let mut kept_end = self.begin;
        let mut used = 0usize;
        let limit = self.gap.map_or(self.end, |g| g.at);
        for line in self.text[self.begin..limit].split_inclusive('\n') {
            match self.piece_cost(line, room.saturating_sub(used)) {
                Some(c) => {
                    used += c;
                    kept_end += line.len();
                }
                None => {
                    if kept_end == self.begin {
                        kept_end += cut_line(line, room, &|s, limit| self.piece_cost(s, limit));
                    }
                    return Some(kept_end);
                }
            }
        }
        // Lines beyond the head were not redacted: the page needs a longer head.
        if self.gap.is_some() { None } else { Some(kept_end) }
    }

    /// Where the tail starts: whole lines from the end that fit `room`, never overlapping
    /// the head. Returns the head's end too, which is the end when head and tail meet.
    /// `None` when it would take the whole redacted tail of a gapped text.
    fn tail(&self, kept_end: usize, room: usize) -> Option<(usize, usize)> {
        let end = self.end;
        if !self.head_tail || kept_end >= end {
            return Some((kept_end, end));
        }
        let mut tail_start = end;
        let mut used = 0usize;
        let from = self.gap.map_or(kept_end, |g| g.at.max(kept_end));
        let mut short = true;
        for line in self.text[from..end].split_inclusive('\n').rev() {
            match self.piece_cost(line, room.saturating_sub(used)) {
                Some(c) => {
                    used += c;
                    tail_start -= line.len();
                }
                None => {
                    short = false;
                    break;
                }
            }
        }
        if self.gap.is_some() && short {
            return None;
        }
        Some(if tail_start <= kept_end { (end, end) } else { (kept_end, tail_start) })
    }

    /// Render the page and count it exactly; over by a little, give back a line of the
    /// longer of head and tail while each keeps one, then the tail, then head lines, keeping
    /// progress.
    fn settle(&self, mut kept_end: usize, mut tail_start: usize) -> Result<Fitted, ShapeError> {
        let budget = self.plan.budget_tokens;
        loop {
            let env = self.envelope(kept_end, tail_start);
            let rendered = self.render(&env);
            if let Some(tokens) = self.ctx.tokenizer.count_till_limit(&rendered, budget) {
                return Ok((env, rendered, Some(tokens), kept_end));
            }
            if tail_start < self.end {
                let tail = &self.text[tail_start..self.end];
                let head_has_more = self.text[self.begin..kept_end].trim_end_matches('\n').contains('\n');
                let before = tail_start;
                match tail.trim_end_matches('\n').find('\n') {
                    Some(i) if tail.len() >= kept_end - self.begin || !head_has_more => tail_start += i + 1,
                    None if !head_has_more => tail_start = self.end,
                    // The head is the longer and has lines to give: it gives one below.
                    _ => {}
                }
                if tail_start != before {
                    continue;
                }
            }
            let shown = &self.text[self.begin..kept_end];
            let shorter = match shown.trim_end_matches('\n').rfind('\n') {
                Some(i) => self.begin + i + 1,
                None => self.begin + shown.floor_char_boundary(shown.len() * 3 / 4),
            };
            if shorter <= self.begin {
                return Err(ShapeError::BudgetTooSmall { budget, minimum: self.ctx.tokenizer.count(&rendered) });
            }
            kept_end = shorter;
        }
    }
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
    let newlines = bytecount::count(s.as_bytes(), b'\n') as u64;
    newlines + u64::from(!s.is_empty() && !s.ends_with('\n'))
}

/// Characters in `s`, counted from bytes that start a character.
fn count_chars(s: &str) -> u64 {
    s.as_bytes().iter().filter(|b| (**b as i8) >= -0x40).count() as u64
}

/// Whether `text` is JSON that the parser stops reading only because it nests deeper than
/// its limit (128 levels). The parser gives up at that depth, so this costs at most the
/// bytes up to it, not the whole text.
fn nested_too_deep(text: &str) -> bool {
    let t = text.trim_start();
    if !t.starts_with(['{', '[']) {
        return false;
    }
    // `Value` counts depth (skipping does not): it stops at the limit, near the start.
    match serde_json::from_str::<serde_json::Value>(t) {
        Err(e) => e.to_string().starts_with("recursion limit exceeded"),
        Ok(_) => false,
    }
}

/// The maps of a text's body: one outline of its syntax, or its sections, or a table split
/// at spaces.
#[derive(Default)]
struct BodyMaps {
    outlined: Option<String>,
    sectioned: Option<String>,
    spaced: Option<String>,
    /// The outline is the text's headings alone: it reads none of the lines under them.
    headings: bool,
}

impl BodyMaps {
    fn is_empty(&self) -> bool {
        self.outlined.is_none() && self.sectioned.is_none() && self.spaced.is_none()
    }

    /// The maps with `head` said before the first of them.
    fn after(mut self, head: Option<String>) -> BodyMaps {
        if let Some(head) = head
            && let Some(first) = self.outlined.as_mut().or(self.sectioned.as_mut()).or(self.spaced.as_mut())
        {
            *first = format!("{head}; {first}");
        }
        self
    }
}

/// The maps of `text` in `room`, its outline already made. A table with no header is read
/// as one unless the text is a log (`leveled`): a log's lines are said by their levels and
/// patterns. Sections (a heading and the lines under it) come first: a scan's blocks split
/// at spaces too, but their first words are not a column. Sections leave room for the line
/// patterns, which count what they hold.
fn body_maps(text: &str, outlined: Option<String>, room: usize, leveled: bool) -> BodyMaps {
    let plain = outlined.is_none() && !leveled;
    let sectioned = plain.then(|| sections_map(text, room / 2)).flatten();
    let spaced = (plain && sectioned.is_none()).then(|| spaced_table(text, room)).flatten();
    BodyMaps { outlined, sectioned, spaced, headings: false }
}

/// The maps of `text` in `room`: its own, or when its outline is the list of a few headings
/// that frame one body, those headings (a quarter of the room at most) and the map of the
/// body read with its heading lines blanked; the headings' list alone where the body has no
/// map. A table under a commented header (`# Overhead  Command`) is read by its own reader.
fn maps(text: &str, room: usize, leveled: bool) -> BodyMaps {
    let outlined = outline_of(text, room);
    if let Some(Outlined::Headings(_)) = outlined
        && let Some(body) = framed_body(text)
    {
        let headings = markdown(text, room / 4);
        let left = room.saturating_sub(headings.as_ref().map_or(0, |h| h.len() + 2));
        let inner = body_maps(&body, outline(&body, left), left, leveled);
        if !inner.is_empty() {
            return inner.after(headings);
        }
    }
    let headings = matches!(outlined, Some(Outlined::Headings(_)));
    BodyMaps { headings, ..body_maps(text, outlined.map(Outlined::into_map), room, leveled) }
}

#[cfg(test)]
mod tests {
    use super::{fit_clauses, fit_map};

    /// Regression: a map over its share of the page went whole, so a kernel log whose
    /// firewall fields were long in tokens lost its line patterns with them.
    #[test]
    fn a_map_too_large_loses_its_last_clauses_not_all() {
        let map = "first: a 1, b 2; second: c 3; third: d 4; fourth: e 5".to_owned();
        let words = |m: &str| m.split_whitespace().count();
        assert_eq!(fit_clauses(map.clone(), 100, words).as_deref(), Some(map.as_str()));
        assert_eq!(fit_clauses(map.clone(), 8, words).as_deref(), Some("first: a 1, b 2; second: c 3"));
        assert_eq!(fit_clauses(map.clone(), 7, words).as_deref(), Some("first: a 1, b 2"));
        assert_eq!(fit_clauses(map, 2, words), None);
    }

    /// Regression: a dense map lost its words' clause whole when it did not fit, although
    /// its first entries did (a kernel log's `UFW BLOCK 647`).
    #[test]
    fn the_words_clause_keeps_the_entries_that_fit() {
        let words = |m: &str| m.split_whitespace().count();
        let map = "patterns: a 1, b 2; words by lines, most first: w 9, x 8, y 7, z 6 (+3 more words)".to_owned();
        assert_eq!(fit_map(map.clone(), 100, words).as_deref(), Some(map.as_str()));
        assert_eq!(
            fit_map(map.clone(), 17, words).as_deref(),
            Some("patterns: a 1, b 2; words by lines, most first: w 9, x 8 (+5 more words)")
        );
        assert_eq!(
            fit_map(map.clone(), 16, words).as_deref(),
            Some("patterns: a 1, b 2; words by lines, most first: w 9 (+6 more words)")
        );
        // No entry fits: the clause goes, the clauses before it stay.
        assert_eq!(fit_map(map.clone(), 10, words).as_deref(), Some("patterns: a 1, b 2"));
        // A clause before the words that does not fit whole takes the words with it.
        assert_eq!(fit_map(map, 3, words), None);
        let alone = "in lines 1-900: words by lines, most first: w 9, x 8, y 7".to_owned();
        assert_eq!(
            fit_map(alone.clone(), 13, words).as_deref(),
            Some("in lines 1-900: words by lines, most first: w 9 (+2 more words)")
        );
        assert_eq!(fit_map(alone, 12, words), None);
    }
}
