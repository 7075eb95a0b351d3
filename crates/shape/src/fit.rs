//! Fitting a page to the budget: keep the longest prefix of units (records, or members of
//! one object) whose rendering fits, shrink one unit that does not fit alone, and render an
//! envelope without units whose summary may give way.
//!
//! The steps of [`Fit::run`]: a small result is tried whole by its bytes (no count at all);
//! otherwise the envelope's own cost is measured once, units are added while a count with a
//! limit says they fit (so the cost follows the budget, not the payload), and the rendered
//! page is counted exactly, dropping units from the end until it fits.

use std::collections::BTreeMap;

use serde_json::Value;
use toolshape_redact::RedactionCounts;
use toolshape_tokens::Tokenizer;

use crate::context::ShapeContext;
use crate::envelope::{Envelope, Status, render, to_neutral_json};
use crate::plan::ShapePlan;
use crate::record_index::{INDEX_PERCENT, LazyIndex};
use crate::records::{cap_strings, cap_strings_keeping_words};
use crate::report::{ShapeError, ShapeReport, Shaped, SnapshotHead};
use crate::shaper::Shaper;

/// Tokens kept aside for the few digits a final summary may have beyond the skeleton's.
const SLACK_TOKENS: usize = 6;

/// Units of at most this many bytes (as shown) per token of the budget are tried whole
/// before they are fitted one by one (few texts have more bytes per token), so the whole
/// rendering and its count, which stops at the budget, cost a bounded multiple of it.
pub(crate) const WHOLE_BYTES_PER_TOKEN: usize = 8;

/// The records before the last that a first read shows at the end of the result take at
/// most this part of the room with it (one over the divisor): the end is read as often as
/// the start, and the start keeps most of the page.
const TAIL_SHARE_DIVISOR: usize = 4;

/// The units a page is fitted from.
pub(crate) struct Units<'i, F, B> {
    /// How many units there are from `start` on.
    pub(crate) available: u64,
    /// The position of the first unit of this page.
    pub(crate) start: u64,
    /// The last unit, to show after the others with a few before it (the end of the
    /// result), as far as they fit.
    pub(crate) tail: Option<u64>,
    /// Unit `pos`, redacted and projected, with the fields its view cut; redactions are
    /// added to the counts given.
    pub(crate) fetch: F,
    /// The envelope around the kept units and the tail units, with the count of units each
    /// field was cut in.
    pub(crate) build: B,
    /// An index of the units after the kept ones ([`IndexRows`]), which `build` shows in
    /// the room this sets: a share of the budget kept from the units, and what they leave.
    /// Made only when the units do not fit whole.
    pub(crate) index: Option<&'i LazyIndex<'i>>,
}

/// One page being fitted: the shaper, the call, and the units.
pub(crate) struct Fit<'a, 'c, F, B> {
    pub(crate) shaper: &'a Shaper,
    pub(crate) ctx: &'a ShapeContext<'c>,
    pub(crate) bytes_in: u64,
    pub(crate) units: Units<'a, F, B>,
}

/// Units that passed the first, limited count, with the fields each had cut by a cap.
struct Filled {
    /// Tokens the units take, as counted one by one.
    used: usize,
    kept: Vec<Value>,
    cut_per_unit: Vec<Vec<String>>,
    /// The tail units, in order, while they are still shown; the last is the tail position.
    tail: Vec<Value>,
    /// The fields each tail unit had cut.
    tail_cuts: Vec<Vec<String>>,
}

impl<F, B> Fit<'_, '_, F, B>
where
    F: FnMut(u64, &mut RedactionCounts) -> (Value, Vec<String>),
    B: Fn(&[Value], &[Value], &BTreeMap<String, u64>) -> Envelope,
{
    fn budget(&self) -> usize {
        self.shaper.plan().budget_tokens
    }

    fn render(&self, env: &Envelope) -> String {
        render(env, self.shaper.plan().render, self.ctx.nonce)
    }

    /// The tail position, when it lies in this page's range (it is then not read as a
    /// first unit).
    fn tail_in_range(&self) -> Option<u64> {
        let Units { available, start, tail, .. } = self.units;
        tail.filter(|t| *t >= start && *t < start + available)
    }

    /// Units the first units may take when `shown` tail units are shown: all, or all
    /// before the tail (before its last unit when none of it is shown).
    fn head_available(&self, shown: usize) -> u64 {
        self.tail_in_range()
            .map_or(self.units.available, |t| (t + 1).saturating_sub(shown.max(1) as u64) - self.units.start)
    }

    fn empty_envelope(&self) -> Envelope {
        (self.units.build)(&[], &[], &BTreeMap::new())
    }

    /// Keep the longest prefix of units from `start` whose rendering fits the budget.
    pub(crate) fn run(mut self, counts: RedactionCounts) -> Result<Shaped, ShapeError> {
        let mut counts = counts;
        if let Some(shaped) = self.whole(&counts) {
            return Ok(shaped);
        }
        // The envelope around the units, drawn with the longest numbers it can carry.
        let skeleton = self.render(&(self.units.build)(&[], &[], &worst_case_cuts(self.shaper.plan())));
        let overhead = self.ctx.tokenizer.count(&skeleton) + SLACK_TOKENS;
        if overhead >= self.budget() {
            return self.shaper.minimal(self.empty_envelope(), self.bytes_in, counts, self.ctx, overhead);
        }
        let room = self.budget() - overhead;
        let reserve = self.units.index.and_then(LazyIndex::get).map_or(0, |index| {
            let wanted: usize = index.costs().sum();
            wanted.min(self.budget() * INDEX_PERCENT / 100).min(room / 2)
        });
        let filled = self.fill(room, reserve, &mut counts);
        if let Some(index) = self.units.index.and_then(LazyIndex::made) {
            index.room.set(room.saturating_sub(filled.used));
        }
        self.settle(filled, counts, overhead)
    }

    /// A small result, the common case, is tried whole first: a token is at least one
    /// byte, so a rendering no longer in bytes than the budget in tokens fits without being
    /// counted at all; a longer one is counted, up to the budget. Either way a result that
    /// fits whole is shown whole, at any budget: the envelope of a cut page (with `omitted`
    /// and `next`, sized for the longest numbers) costs more than a short result does.
    /// Fitting measures the widest nonce of the real one's kind, so the choice is the same
    /// for every nonce, and re-reads stay deterministic. `None` when the whole does not fit;
    /// then it is measured unit by unit, each redaction counted once (these counts are
    /// dropped).
    fn whole(&mut self, counts: &RedactionCounts) -> Option<Shaped> {
        let mut counts = counts.clone();
        let tok = &self.ctx.tokenizer;
        let caps = self.shaper.caps();
        let Units { available, start, .. } = self.units;
        let mut kept = Vec::with_capacity(available as usize);
        let mut cut_by_field: BTreeMap<String, u64> = BTreeMap::new();
        let mut fields_cut = 0u64;
        let most_bytes = self.budget().saturating_mul(WHOLE_BYTES_PER_TOKEN);
        let mut bytes = 0usize;
        for i in 0..available {
            let (mut unit, mut cut) = (self.units.fetch)(start + i, &mut counts);
            if !caps.is_empty() {
                merge_cuts(&mut cut, caps.apply(&mut unit, tok));
            }
            // Decided on the units as shown, not on the input's size, so the first read and
            // the same page read from the snapshot agree.
            bytes += crate::view::approx_size(&unit, most_bytes - bytes) + 1;
            if bytes > most_bytes {
                return None;
            }
            fields_cut += u64::from(!cut.is_empty());
            for f in cut {
                *cut_by_field.entry(f).or_default() += 1;
            }
            kept.push(unit);
        }
        let env = (self.units.build)(&kept, &[], &cut_by_field);
        let text = self.render(&env);
        // Not counted when its bytes prove the fit: counted once, on the text the model reads
        // (see `Shaper::with_fitting_nonce`).
        let tokens_out = tok.fit(&text, self.budget())?.tokens().map(|t| t as u64);
        let report = ShapeReport {
            bytes_in: self.bytes_in,
            bytes_out: text.len() as u64,
            tokens_out,
            records_total: Some(start + available),
            records_kept: available,
            records_omitted: 0,
            cut_at: None,
            redactions: counts,
            fields_cut,
            needs_snapshot: env.next.is_some(),
        };
        Some(Shaped { envelope: env, text, report, snapshot_head: SnapshotHead::default() })
    }

    /// Add units while a count limited to what is left of `room`, less `reserve` (kept for
    /// the index), says each fits. A first unit larger than the whole room is kept anyway:
    /// [`Fit::settle`] shrinks it against the whole envelope, so the page still makes
    /// progress.
    fn fill(&mut self, room: usize, reserve: usize, counts: &mut RedactionCounts) -> Filled {
        let tok = &self.ctx.tokenizer;
        let caps = self.shaper.caps();
        let mut used = 0usize;
        let mut filled =
            Filled { used: 0, kept: Vec::new(), cut_per_unit: Vec::new(), tail: Vec::new(), tail_cuts: Vec::new() };
        // The tail is counted first, so the first units do not crowd it out: the last unit
        // within a third of the room, the ones before it while the tail takes no more than
        // its share; it is given back before any unit is shrunk.
        if let Some(last) = self.units.tail.filter(|t| *t > self.units.start) {
            let share = room / TAIL_SHARE_DIVISOR;
            let mut pos = last;
            while pos > self.units.start {
                let (mut unit, mut cut) = (self.units.fetch)(pos, counts);
                if !caps.is_empty() {
                    merge_cuts(&mut cut, caps.apply(&mut unit, tok));
                }
                let limit = if filled.tail.is_empty() { room / 3 } else { share.saturating_sub(used) };
                let Some(cost) = tok.count_till_limit(&to_neutral_json(&unit), limit) else { break };
                used += cost + 1;
                filled.tail.push(unit);
                filled.tail_cuts.push(cut);
                pos -= 1;
            }
            filled.tail.reverse();
            filled.tail_cuts.reverse();
        }
        // The tail's share is of the whole room: the index's reserve comes out of the rest.
        let room = room - reserve;
        for i in 0..self.head_available(filled.tail.len()) {
            let (mut unit, mut cut) = (self.units.fetch)(self.units.start + i, counts);
            if !caps.is_empty() {
                merge_cuts(&mut cut, caps.apply(&mut unit, tok));
            }
            let piece = to_neutral_json(&unit);
            let separator = usize::from(!filled.kept.is_empty());
            match tok.count_till_limit(&piece, room.saturating_sub(used + separator)) {
                Some(cost) => {
                    used += cost + separator;
                    filled.kept.push(unit);
                    filled.cut_per_unit.push(cut);
                }
                None if filled.kept.is_empty() => {
                    filled.kept.push(unit);
                    filled.cut_per_unit.push(cut);
                    break;
                }
                None => break,
            }
            if used >= room {
                break;
            }
        }
        filled.used = used;
        filled
    }

    /// Count the rendered page exactly and drop units from the end until it fits; a last
    /// unit that still does not fit is shrunk.
    fn settle(&self, mut filled: Filled, counts: RedactionCounts, overhead: usize) -> Result<Shaped, ShapeError> {
        let tok = &self.ctx.tokenizer;
        loop {
            let cuts = &filled.cut_per_unit[..filled.kept.len()];
            let mut all_cuts = cuts.to_vec();
            all_cuts.extend(filled.tail_cuts.iter().cloned());
            let env = (self.units.build)(&filled.kept, &filled.tail, &count_by_field(&all_cuts));
            let text = self.render(&env);
            if let Some(tokens) = tok.count_till_limit(&text, self.budget()) {
                return Ok(self.page(env, text, tokens, cuts, filled.tail.len(), counts));
            }
            // The index gives way first, by what the page is over (and a little more, so
            // the loop ends), before any unit does; an index that shows nothing has no room
            // to give, and the units give way as before.
            if let Some(index) = self.units.index.and_then(LazyIndex::made).filter(|i| i.room.get() > 0) {
                if index.shown_rows() > 0 {
                    let over = tok.count(&text).saturating_sub(self.budget());
                    index.room.set(index.room.get().saturating_sub(over + SLACK_TOKENS));
                    continue;
                }
                index.room.set(0);
            }
            if filled.kept.len() > 1 {
                filled.kept.pop();
                continue;
            }
            // The tail gives way from its first unit: the last is kept longest.
            if !filled.tail.is_empty() {
                filled.tail.remove(0);
                filled.tail_cuts.remove(0);
                continue;
            }
            match self.shrink_last(&mut filled) {
                Some(()) => {}
                None => return self.shaper.minimal(self.empty_envelope(), self.bytes_in, counts, self.ctx, overhead),
            }
        }
    }

    /// The report of a page that fits with `tokens`.
    fn page(
        &self,
        env: Envelope,
        text: String,
        tokens: usize,
        cuts: &[Vec<String>],
        tail_shown: usize,
        redactions: RedactionCounts,
    ) -> Shaped {
        let Units { available, start, .. } = self.units;
        let kept = cuts.len() as u64;
        let tail_left = self.tail_in_range().is_some() && tail_shown == 0;
        let omitted = self.head_available(tail_shown) - kept + u64::from(tail_left);
        let report = ShapeReport {
            bytes_in: self.bytes_in,
            bytes_out: text.len() as u64,
            tokens_out: Some(tokens as u64),
            records_total: Some(start + available),
            records_kept: kept + tail_shown as u64,
            records_omitted: omitted,
            cut_at: (omitted > 0).then(|| format!("record {}", start + kept)),
            redactions,
            fields_cut: cuts.iter().filter(|c| !c.is_empty()).count() as u64,
            needs_snapshot: env.next.is_some(),
        };
        Shaped { envelope: env, text, report, snapshot_head: SnapshotHead::default() }
    }

    /// Replace the one unit left, which does not fit even alone, by its richest reduced form
    /// that makes the whole envelope fit, cut notes included (checked against the rendered
    /// text, so it is exact). `None` when not even an empty container fits.
    fn shrink_last(&self, filled: &mut Filled) -> Option<()> {
        let one = filled.kept.pop()?;
        let prior_cuts = filled.cut_per_unit.first().cloned()?;
        let envelope_fits = |candidate: &Value, cuts: &[String]| -> bool {
            let mut by_field: BTreeMap<String, u64> = BTreeMap::new();
            for f in prior_cuts.iter().chain(cuts) {
                by_field.insert(f.clone(), 1);
            }
            let env = (self.units.build)(std::slice::from_ref(candidate), &[], &by_field);
            self.ctx.tokenizer.fits(&self.render(&env), self.budget())
        };
        let (small, fields) = shrink_to_fit(&one, &self.ctx.tokenizer, &envelope_fits)?;
        filled.kept.push(small);
        let cuts = &mut filled.cut_per_unit[0];
        for f in fields {
            if !cuts.contains(&f) {
                cuts.push(f);
            }
        }
        Some(())
    }
}

impl Shaper {
    /// Render an envelope whose data does not shrink; cut its summary if that is what it takes.
    pub(crate) fn finish_fixed(
        &self,
        mut env: Envelope,
        bytes_in: u64,
        counts: RedactionCounts,
        ctx: &ShapeContext<'_>,
    ) -> Result<Shaped, ShapeError> {
        let tok = &ctx.tokenizer;
        let plan = self.plan();
        let budget = plan.budget_tokens;
        let mut text = render(&env, plan.render, ctx.nonce);
        // The summary is the one part that may give way; escapes make its rendered cost
        // differ from its own count, so shorten until the whole fits or nothing is left.
        let mut keep = tok.count(&env.summary);
        while !tok.fits(&text, budget) && keep > 0 {
            let overflow = tok.count(&text).saturating_sub(budget);
            keep = keep.saturating_sub(overflow.max(1) + 4);
            let (prefix, _) = tok.prefix_within(&env.summary, keep);
            env.summary = format!("{prefix}…");
            text = render(&env, plan.render, ctx.nonce);
        }
        match tok.count_till_limit(&text, budget) {
            Some(tokens) => Ok(Shaped {
                report: ShapeReport {
                    bytes_in,
                    bytes_out: text.len() as u64,
                    tokens_out: Some(tokens as u64),
                    redactions: counts,
                    needs_snapshot: env.next.is_some(),
                    ..ShapeReport::default()
                },
                envelope: env,
                text,
                snapshot_head: SnapshotHead::default(),
            }),
            None => Err(ShapeError::BudgetTooSmall { budget, minimum: tok.count(&text) }),
        }
    }

    /// When not even one unit fits: say so, with the way to read on.
    pub(crate) fn minimal(
        &self,
        mut env: Envelope,
        bytes_in: u64,
        counts: RedactionCounts,
        ctx: &ShapeContext<'_>,
        needed: usize,
    ) -> Result<Shaped, ShapeError> {
        if env.omitted.is_none() && env.next.is_none() {
            return Err(ShapeError::BudgetTooSmall { budget: self.plan().budget_tokens, minimum: needed });
        }
        env.status = Status::Partial;
        env.data = crate::envelope::Data::Null;
        let omitted = env.omitted.as_ref().filter(|o| o.unit == "records").map(|o| o.count);
        let mut shaped = self.finish_fixed(env, bytes_in, counts, ctx)?;
        if let Some(n) = omitted {
            shaped.report.records_omitted = n;
            shaped.report.records_total = Some(n);
        }
        Ok(shaped)
    }
}

fn merge_cuts(into: &mut Vec<String>, more: Vec<String>) {
    for f in more {
        if !into.contains(&f) {
            into.push(f);
        }
    }
}

/// How many units had each field cut.
fn count_by_field(cuts: &[Vec<String>]) -> BTreeMap<String, u64> {
    let mut by_field: BTreeMap<String, u64> = BTreeMap::new();
    for f in cuts.iter().flatten() {
        *by_field.entry(f.clone()).or_default() += 1;
    }
    by_field
}

/// The cut notes an envelope may carry at most: every capped field, with the largest count.
fn worst_case_cuts(plan: &ShapePlan) -> BTreeMap<String, u64> {
    let mut m: BTreeMap<String, u64> = plan.field_tokens.keys().map(|k| (k.clone(), u64::from(u32::MAX))).collect();
    if plan.default_field_tokens.is_some() {
        m.insert("(value)".into(), u64::from(u32::MAX));
    }
    m
}

/// The richest reduced form of one oversized unit that `fits` accepts: first every string
/// cut to the largest common cap, then, when that is not enough, its longest prefix in
/// document order (strings capped short). Returns it with the names of the fields cut or dropped; `None`
/// only when not even an empty container fits.
fn shrink_to_fit(
    rec: &Value,
    tok: &Tokenizer,
    fits: &dyn Fn(&Value, &[String]) -> bool,
) -> Option<(Value, Vec<String>)> {
    // Strings cut below a dozen tokens carry little but their markers, so below that,
    // fewer members at a readable length beat all members as bare markers.
    const MIN_CAP: usize = 12;
    const MAX_CAP: usize = 4096;
    // A one-word string (a hash, an id) within this many tokens is kept whole in a prefix.
    const WORD_CAP: usize = 64;
    let capped = |cap: usize| -> Value {
        let mut v = rec.clone();
        cap_strings(&mut v, cap, tok);
        v
    };
    let changed_fields = |small: &Value| -> Vec<String> {
        match (small, rec) {
            (Value::Object(m), Value::Object(r)) => {
                r.iter().filter(|(k, v)| m.get(k.as_str()) != Some(*v)).map(|(k, _)| k.clone()).collect()
            }
            _ => vec!["(value)".to_owned()],
        }
    };
    let accept = |v: &Value| fits(v, &changed_fields(v));
    if accept(&capped(MIN_CAP)) {
        let best = capped(largest_accepted(MIN_CAP, MAX_CAP, &|cap| accept(&capped(cap))));
        let fields = changed_fields(&best);
        return Some((best, fields));
    }
    // Then the longest prefix of it in document order, nested members included: a member
    // too large for the page shows its first items rather than nothing, so the page
    // carries data however the record is built.
    let mut short = rec.clone();
    cap_strings_keeping_words(&mut short, MIN_CAP, WORD_CAP, tok);
    let len = to_neutral_json(&short).len();
    let leading = |bytes: usize| -> Value { json_prefix(&short, bytes) };
    if !matches!(rec, Value::Object(_) | Value::Array(_)) || !accept(&leading(0)) {
        return None;
    }
    let best = leading(largest_accepted(0, len, &|bytes| accept(&leading(bytes))));
    let fields = changed_fields(&best);
    Some((best, fields))
}

/// The longest prefix of `v` in document order whose compact JSON is at most about `bytes`
/// long past its own brackets: whole members and items while they fit, then the first one
/// that does not, cut the same way inside. Containers are always closed, so the prefix is
/// valid JSON; a scalar that does not fit is left out, and nothing after it is taken.
fn json_prefix(v: &Value, bytes: usize) -> Value {
    let mut room = bytes as isize + 2;
    let mut cut = false;
    prefix_within(v, &mut room, &mut cut).unwrap_or(Value::Null)
}

/// `v` cut to `room` bytes (spent as it goes); `None` when not even its brackets fit.
/// `cut` is set at the first thing left out, and nothing is taken after it. Each scalar is
/// measured once and the walk stops when the room is spent, so the cost follows `room`.
fn prefix_within(v: &Value, room: &mut isize, cut: &mut bool) -> Option<Value> {
    match v {
        Value::Array(items) => {
            *room -= 2;
            if *room < 0 {
                *cut = true;
                return None;
            }
            let mut out = Vec::new();
            for item in items {
                *room -= 1;
                if let Some(x) = prefix_within(item, room, cut) {
                    out.push(x);
                }
                if *cut {
                    break;
                }
            }
            Some(Value::Array(out))
        }
        Value::Object(members) => {
            *room -= 2;
            if *room < 0 {
                *cut = true;
                return None;
            }
            let mut out = serde_json::Map::new();
            for (k, member) in members {
                *room -= k.len() as isize + 4;
                if *room < 0 {
                    *cut = true;
                    break;
                }
                if let Some(x) = prefix_within(member, room, cut) {
                    out.insert(k.clone(), x);
                }
                if *cut {
                    break;
                }
            }
            Some(Value::Object(out))
        }
        scalar => {
            let cost = to_neutral_json(scalar).len() as isize;
            if cost > *room {
                *cut = true;
                return None;
            }
            *room -= cost;
            Some(scalar.clone())
        }
    }
}

/// The largest `n` in `lo..=hi` that `accept` takes, by bisection; `accept(lo)` must hold.
fn largest_accepted(mut lo: usize, mut hi: usize, accept: &dyn Fn(usize) -> bool) -> usize {
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if accept(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}
