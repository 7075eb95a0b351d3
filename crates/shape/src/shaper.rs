//! The shaping pipeline: one upstream result in, one envelope under the budget out.
//!
//! [`Shaper`] holds a compiled [`ShapePlan`]. [`Shaper::shape`] runs locate → redact →
//! project → filter → sort → aggregate → fit → render. Fitting walks records from the
//! resume point and stops once the budget is spent, counting each candidate with a limit,
//! so its cost follows the budget. The rendered text is then counted exactly, delimiters
//! included, and records are dropped from the end until it fits: the budget is a guarantee.

use std::cell::OnceCell;
use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{Map, Value};
use toolshape_redact::{RedactError, RedactionCounts, Redactor};

use crate::aggregate::{Aggregate, Aggregator};
use crate::auto::AutoView;
use crate::context::{Resume, ShapeContext};
use crate::describe::{Describe, Rest, kind_name, member_outline, object_envelope};
use crate::envelope::{Data, Envelope, Omitted, Original, Status, render, widest_nonce};
use crate::failure::Failure;
use crate::fit::{Fit, Units};
use crate::input::{Located, Locating, Wrapper, decode, keyed_records, locate, name_cells};
use crate::member_records::member_notes;
use crate::numfmt::{bytes as fmt_bytes, thousands};
use crate::plan::{Form, ShapePlan};
use crate::record_index::{BEFORE_LAST_ROWS, INDEX_PERCENT, IndexRows, LazyIndex};
use crate::records::{Caps, RecordShaper, SortKey, parse};
use crate::report::{ShapeError, Shaped, Snapshot, SnapshotHead};
use crate::{text, text_parts};

/// A plan that does not compile.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// A redaction pattern is wrong.
    #[error(transparent)]
    Redact(#[from] RedactError),
    /// Sorting by a path that fans out has no single key per record.
    #[error("sort key `{0}` fans out over an array (`[]`); sort by one value per record, like `labels[0].name`")]
    SortFansOut(String),
    /// The budget leaves no room for any result.
    #[error("budget_tokens is {0}; use at least {MIN_BUDGET_TOKENS}")]
    BudgetTooLow(usize),
}

/// The least budget a plan may declare: enough for the envelope, delimiters and a cursor.
pub const MIN_BUDGET_TOKENS: usize = 100;

/// A compiled plan.
#[derive(Debug, Clone)]
pub struct Shaper {
    plan: ShapePlan,
    redactor: Redactor,
    /// The size envelopes give as the original's, when it is not the input's: pages of a
    /// snapshot name the result the snapshot was made from.
    original_bytes: Option<u64>,
}

impl Shaper {
    /// Compile `plan`.
    pub fn new(plan: ShapePlan) -> Result<Shaper, PlanError> {
        if plan.budget_tokens < MIN_BUDGET_TOKENS {
            return Err(PlanError::BudgetTooLow(plan.budget_tokens));
        }
        if let Some(sort) = &plan.sort
            && sort.by.fans_out()
        {
            return Err(PlanError::SortFansOut(sort.by.to_string()));
        }
        let redactor = Redactor::new(&plan.redact)?;
        Ok(Shaper { plan, redactor, original_bytes: None })
    }

    /// The plan this shaper runs.
    pub fn plan(&self) -> &ShapePlan {
        &self.plan
    }

    /// The shaper that reads pages of snapshots made by this one.
    pub fn for_pages(&self) -> Shaper {
        Shaper { plan: self.plan.for_pages(), redactor: Redactor::none(), original_bytes: None }
    }

    /// This shaper, giving `bytes` as the original's size in the envelopes of records and
    /// objects it reads: a snapshot's pages then name the size of the upstream result, as its
    /// first read did, not the size of the processed snapshot. That keeps the first page read
    /// from a snapshot the page first shown (the size's digits count against the budget).
    /// Reports still count the bytes actually read.
    #[must_use]
    pub fn with_original_bytes(mut self, bytes: u64) -> Shaper {
        self.original_bytes = Some(bytes);
        self
    }

    /// The size the envelope names as the original's, for an input of `bytes_in` bytes.
    pub(crate) fn original_size(&self, bytes_in: u64) -> u64 {
        self.original_bytes.unwrap_or(bytes_in)
    }

    /// The same plan without field caps and without the compact view: full records (for
    /// [`Resume::Fields`]).
    pub fn without_caps(&self) -> Shaper {
        let mut plan = self.plan.clone();
        plan.field_tokens.clear();
        plan.default_field_tokens = None;
        plan.auto.compact = false;
        plan.auto.table = false;
        Shaper { plan, redactor: self.redactor.clone(), original_bytes: self.original_bytes }
    }

    /// Shape an upstream result (`isError: false`).
    ///
    /// Where the page ends depends on the input, the plan and the resume point only, not on
    /// the nonce: the fit is measured with [`widest_nonce`](crate::envelope::widest_nonce) in
    /// its place, then the page is rendered with the real nonce and counted again. So reading
    /// the same cursor twice gives the same page, and the budget still holds.
    pub fn shape(&self, input: &[u8], ctx: &ShapeContext<'_>) -> Result<Shaped, ShapeError> {
        self.with_fitting_nonce(ctx, Count::Exact, |fit_ctx| self.shape_measured(input, fit_ctx))
    }

    /// [`Shaper::shape`] for a caller that answers first and measures afterwards: when the
    /// text the model reads has no more bytes than the budget has tokens (it fits, since a
    /// token is at least one byte), `report.tokens_out` is left `None` instead of being
    /// counted, and the caller counts `text` when it needs the number. The text, the
    /// envelope and every other field of the report are those [`Shaper::shape`] gives.
    pub fn shape_uncounted(&self, input: &[u8], ctx: &ShapeContext<'_>) -> Result<Shaped, ShapeError> {
        self.with_fitting_nonce(ctx, Count::IfNeeded, |fit_ctx| self.shape_measured(input, fit_ctx))
    }

    /// Run `shape` measuring against the widest nonce of `ctx.nonce`'s length, then render
    /// the chosen envelope with the real nonce and count it again, exactly: the budget stays
    /// a guarantee. Should the real rendering not fit (only possible for a nonce with other
    /// characters than letters and digits, which are fitted as they are anyway), shaping is
    /// run again with the real nonce.
    fn with_fitting_nonce(
        &self,
        ctx: &ShapeContext<'_>,
        count: Count,
        shape: impl Fn(&ShapeContext<'_>) -> Result<Shaped, ShapeError>,
    ) -> Result<Shaped, ShapeError> {
        let budget = self.plan.budget_tokens;
        let fits_by_bytes = |text: &str| count == Count::IfNeeded && text.len() <= budget;
        let counted = |mut shaped: Shaped| {
            if shaped.report.tokens_out.is_none() && !fits_by_bytes(&shaped.text) {
                shaped.report.tokens_out = Some(ctx.tokenizer.count(&shaped.text) as u64);
            }
            shaped
        };
        let Some(widest) = widest_nonce(ctx.nonce).filter(|w| w.as_str() != ctx.nonce) else {
            return shape(ctx).map(counted);
        };
        let fit_ctx = ShapeContext {
            tool: ctx.tool,
            tokenizer: ctx.tokenizer,
            nonce: &widest,
            now_unix: ctx.now_unix,
            resume: ctx.resume.clone(),
            continuation: ctx.continuation,
        };
        let mut shaped = shape(&fit_ctx)?;
        let text = render(&shaped.envelope, self.plan.render, ctx.nonce);
        if fits_by_bytes(&text) {
            shaped.report.bytes_out = text.len() as u64;
            shaped.report.tokens_out = None;
            shaped.text = text;
            return Ok(shaped);
        }
        match ctx.tokenizer.count_till_limit(&text, budget) {
            Some(tokens) => {
                shaped.report.bytes_out = text.len() as u64;
                shaped.report.tokens_out = Some(tokens as u64);
                shaped.text = text;
                Ok(shaped)
            }
            None => shape(ctx).map(counted),
        }
    }

    /// [`Shaper::shape`] measuring with `ctx.nonce` as given.
    fn shape_measured(&self, input: &[u8], ctx: &ShapeContext<'_>) -> Result<Shaped, ShapeError> {
        let (text, lossy) = decode(input);
        let bytes_in = input.len() as u64;
        if self.plan.form == Form::Status {
            let env = Envelope {
                status: Status::Ok,
                summary: format!("{} succeeded", ctx.tool),
                data: Data::Null,
                omitted: None,
                next: None,
            };
            return self.finish_fixed(env, bytes_in, RedactionCounts::default(), ctx);
        }
        let (mut renamed, mut keyed) = (None, None);
        let located = keyed_records(
            name_cells(locate(&text, self.plan.records.as_ref(), self.locating()), &mut renamed),
            &mut keyed,
        );
        match located {
            Located::Records { items, wrapper } => self.shape_records(&items, &wrapper, bytes_in, ctx),
            // A reference stores whatever came back, text or one value alike.
            Located::Text(t) if self.plan.form == Form::Reference => {
                let lines = t.lines().count() as u64;
                self.shape_reference(bytes_in, "lines", lines, ctx)
            }
            Located::Value(_) if self.plan.form == Form::Reference => self.shape_reference(bytes_in, "values", 1, ctx),
            Located::Value(v) => self.shape_value(v, bytes_in, ctx),
            Located::Text(t) => {
                if let Some(shaped) = text_parts::shape_large(&self.plan, &self.redactor, &t, lossy, bytes_in, ctx) {
                    return shaped;
                }
                let mut counts = RedactionCounts::default();
                let redacted = self.redactor.redact_text(&t, &mut counts);
                text::shape_text(&self.plan, &redacted, lossy, bytes_in, counts, ctx)
            }
        }
    }

    fn text_objects(&self) -> bool {
        self.plan.reads_objects_as_text()
    }

    /// How this plan looks for records: a list of one object is entered when it could not
    /// be shown whole on one page (more bytes than any page of the budget holds).
    fn locating(&self) -> Locating {
        Locating {
            text_objects: self.text_objects(),
            enter_bytes: self.plan.budget_tokens.saturating_mul(crate::fit::WHOLE_BYTES_PER_TOKEN),
        }
    }

    /// A handle and a one-line summary for a result that is not a list of records.
    fn shape_reference(
        &self,
        bytes_in: u64,
        unit: &str,
        count: u64,
        ctx: &ShapeContext<'_>,
    ) -> Result<Shaped, ShapeError> {
        let stored = bytes_in > 0;
        let what = if unit == "lines" { format!("{} lines of text", thousands(count)) } else { "one value".to_owned() };
        let env = Envelope {
            status: if stored { Status::Ok } else { Status::Empty },
            summary: format!(
                "{what} stored ({}); open it with next, adding a query or pattern to pick what you need",
                fmt_bytes(bytes_in)
            ),
            data: Data::Null,
            omitted: stored.then(|| Omitted {
                count,
                unit: unit.to_owned(),
                reason: "reference".into(),
                chars: None,
                fields_cut: None,
                fields: None,
                original: Original { bytes: bytes_in, records: None, lines: (unit == "lines").then_some(count) },
            }),
            next: stored.then(|| ctx.continuation.next(&Resume::Handle)),
        };
        let mut shaped = self.finish_fixed(env, bytes_in, RedactionCounts::default(), ctx)?;
        shaped.report.needs_snapshot = stored;
        Ok(shaped)
    }

    /// Shape something that went wrong into an error envelope.
    pub fn shape_failure(&self, failure: &Failure, ctx: &ShapeContext<'_>) -> Result<Shaped, ShapeError> {
        self.with_fitting_nonce(ctx, Count::Exact, |fit_ctx| self.shape_failure_measured(failure, fit_ctx))
    }

    /// [`Shaper::shape_failure`] measuring with `ctx.nonce` as given.
    fn shape_failure_measured(&self, failure: &Failure, ctx: &ShapeContext<'_>) -> Result<Shaped, ShapeError> {
        let mut counts = RedactionCounts::default();
        let line = failure.line(ctx.tool);
        let line = self.redactor.redact_text(&line, &mut counts).into_owned();
        self.finish_fixed(Envelope::error(line), 0, counts, ctx)
    }

    /// The snapshot `next` reads from: every record after redact, project, filter and sort
    /// (caps not applied), or the redacted text. Costs a pass over the whole input, so the
    /// gateway makes it after the response is sent.
    pub fn snapshot(&self, input: &[u8], ctx: &ShapeContext<'_>) -> Snapshot {
        self.snapshot_after(input, ctx, &SnapshotHead::default())
    }

    /// [`Shaper::snapshot`] of the input whose first read gave `head`
    /// ([`Shaped::snapshot_head`]): its first records are written as the first read made
    /// them, the rest made as usual. The bytes are the same as [`Shaper::snapshot`]'s. A
    /// head made from an input of another length is not used.
    pub fn snapshot_after(&self, input: &[u8], ctx: &ShapeContext<'_>, head: &SnapshotHead) -> Snapshot {
        let (text, _) = decode(input);
        let mut counts = RedactionCounts::default();
        let (mut renamed, mut keyed) = (None, None);
        // A head made from another input is not this snapshot's.
        let head: &[Value] = if head.input_bytes == input.len() as u64 { &head.records } else { &[] };
        match keyed_records(
            name_cells(locate(&text, self.plan.records.as_ref(), self.locating()), &mut renamed),
            &mut keyed,
        ) {
            Located::Records { items, .. } => {
                let order = self.order(&items, ctx).order;
                let shaper = self.record_shaper();
                let redact_first = self.plan.filter.is_some();
                let mut out = Vec::with_capacity(input.len() / 2 + 2);
                out.push(b'[');
                for (n, idx) in order.iter().enumerate() {
                    if n > 0 {
                        out.push(b',');
                    }
                    if !redact_first && let Some(made) = head.get(n) {
                        out.extend_from_slice(serde_json::to_string(made).unwrap_or_default().as_bytes());
                        continue;
                    }
                    let mut rec = parse(items[*idx]);
                    if redact_first {
                        shaper.redact_all(&mut rec, &mut counts);
                    }
                    let rec = shaper.shape(rec, redact_first, &mut counts);
                    out.extend_from_slice(serde_json::to_string(&rec).unwrap_or_default().as_bytes());
                }
                out.push(b']');
                Snapshot { bytes: out }
            }
            Located::Value(mut v) => {
                self.redactor.redact_value(&mut v, &mut counts);
                Snapshot { bytes: serde_json::to_vec(&v).unwrap_or_default() }
            }
            Located::Text(t) => {
                Snapshot { bytes: self.redactor.redact_text(&t, &mut counts).into_owned().into_bytes() }
            }
        }
    }

    pub(crate) fn record_shaper(&self) -> RecordShaper<'_> {
        RecordShaper { redactor: &self.redactor, redact_fields: &self.plan.redact_fields, project: &self.plan.project }
    }

    pub(crate) fn caps(&self) -> Caps<'_> {
        Caps { named: &self.plan.field_tokens, default: self.plan.default_field_tokens }
    }

    /// Filter, sort and aggregate over every record; the only steps whose cost follows the
    /// payload, and only when the plan declares them.
    fn order(&self, items: &[&RawValue], ctx: &ShapeContext<'_>) -> Ordered {
        let plan = &self.plan;
        if plan.filter.is_none() && plan.sort.is_none() && plan.aggregate.is_none() {
            return Ordered { order: (0..items.len()).collect(), aggregate: None };
        }
        let shaper = self.record_shaper();
        let mut aggregator = plan.aggregate.as_ref().map(|spec| Aggregator::new(spec, ctx.now_unix));
        let mut keep = Vec::with_capacity(items.len());
        let mut keys = Vec::new();
        for (idx, raw) in items.iter().enumerate() {
            let mut rec = parse(raw);
            if let Some(filter) = &plan.filter {
                // Counted when shown (in `fetch`), so a record is never counted twice.
                shaper.redact_all(&mut rec, &mut RedactionCounts::default());
                let (hit, back) = filter.matches(rec);
                if !hit {
                    continue;
                }
                rec = back;
            }
            if let Some(agg) = aggregator.as_mut() {
                agg.add(&rec);
            }
            if let Some(sort) = &plan.sort {
                let mut key = SortKey::of(&rec, &sort.by);
                if plan.filter.is_none()
                    && !self.redactor.is_noop()
                    && let (SortKey::Text(s), Some(name)) = (&key, sort.by.last_key())
                {
                    let mut v = Value::String(s.clone());
                    self.redactor.redact_field(name, &mut v, &mut RedactionCounts::default());
                    if let Value::String(r) = v {
                        key = SortKey::Text(r);
                    }
                }
                keys.push(key);
            }
            keep.push(idx);
        }
        if let Some(sort) = &plan.sort {
            let mut positions: Vec<usize> = (0..keep.len()).collect();
            positions.sort_by(|a, b| keys[*a].compare(&keys[*b], sort.order));
            keep = positions.into_iter().map(|p| keep[p]).collect();
        }
        Ordered { order: keep, aggregate: aggregator.map(Aggregator::finish) }
    }

    fn shape_records(
        &self,
        items: &[&RawValue],
        wrapper: &Wrapper,
        bytes_in: u64,
        ctx: &ShapeContext<'_>,
    ) -> Result<Shaped, ShapeError> {
        let plan = &self.plan;
        let counts = RedactionCounts::default();
        let Ordered { order, aggregate } = self.order(items, ctx);
        let total = order.len() as u64;
        let before_filter = items.len() as u64;
        let start = match ctx.resume {
            Some(Resume::Records { offset, .. }) | Some(Resume::Fields { offset }) => offset.min(total),
            _ => 0,
        };
        // Records the first read already showed at the end are not read again.
        let end = match ctx.resume {
            Some(Resume::Records { end: Some(end), .. }) => end.clamp(start, total),
            _ => total,
        };
        // A first read says the facets from the first; a page goes on with those an earlier
        // page had no room for.
        let facets_from = match &ctx.resume {
            None => Some(0),
            Some(Resume::Records { facets, .. }) => facets.and_then(|f| usize::try_from(f).ok()),
            Some(_) => None,
        };
        let auto = AutoView::learn(
            plan,
            &self.record_shaper(),
            &self.redactor,
            items,
            &order,
            usize::try_from(start).unwrap_or(usize::MAX),
            facets_from,
        );
        let mut describe = Describe {
            plan,
            wrapper,
            aggregate: aggregate.as_ref(),
            total,
            before_filter,
            start,
            end,
            auto: auto.as_ref(),
            index: None,
        };

        match plan.form {
            Form::Reference => {
                let next = ctx.continuation.next(&Resume::Handle);
                let env = Envelope {
                    status: if total == 0 { Status::Empty } else { Status::Ok },
                    summary: describe.reference(bytes_in),
                    data: Data::Null,
                    omitted: (total > 0).then(|| Omitted {
                        count: total,
                        unit: "records".into(),
                        reason: "reference".into(),
                        chars: None,
                        fields_cut: None,
                        fields: None,
                        original: Original { bytes: bytes_in, records: Some(total), lines: None },
                    }),
                    next: (total > 0).then_some(next),
                };
                let mut shaped = self.finish_fixed(env, bytes_in, counts, ctx)?;
                shaped.report.records_total = Some(total);
                shaped.report.records_omitted = total;
                shaped.report.needs_snapshot = total > 0;
                return Ok(shaped);
            }
            Form::Records if plan.aggregate.as_ref().is_some_and(|a| a.only) => {
                let data =
                    aggregate.as_ref().and_then(|a| serde_json::to_value(a).ok()).map_or(Data::Null, Data::Value);
                let env = Envelope {
                    status: if total == 0 { Status::Empty } else { Status::Ok },
                    summary: describe.complete(0),
                    data,
                    omitted: None,
                    next: None,
                };
                let mut shaped = self.finish_fixed(env, bytes_in, counts, ctx)?;
                shaped.report.records_total = Some(total);
                return Ok(shaped);
            }
            _ => {}
        }
        if total == 0 {
            let env = Envelope {
                status: Status::Empty,
                summary: describe.empty(),
                data: Data::Null,
                omitted: None,
                next: None,
            };
            let mut shaped = self.finish_fixed(env, bytes_in, counts, ctx)?;
            shaped.report.records_total = Some(0);
            return Ok(shaped);
        }
        let ambiguous = plan.form == Form::ExpectOne && total > 1;
        // Several matches for an `expect_one` mask: a few candidates to tell apart, not a
        // page of full records to choose among.
        let units = if ambiguous { (total - start).min(MAX_CANDIDATES) } else { end - start };
        // A first read that cannot hold every record shows the last one too, so the end of
        // the result is in the first read; pages then stop before it.
        let tail = (!ambiguous && ctx.resume.is_none() && plan.decides_fields() && plan.auto.tail && total > 2)
            .then_some(total - 1);
        let fetch = |pos: u64, counts: &mut RedactionCounts| -> (Value, Vec<String>) {
            let redact_first = plan.filter.is_some();
            // The view's sample already shaped the first records the way a plan without a
            // filter does.
            if !redact_first
                && let Some(view) = &auto
                && let Some(unit) = view.shaped_unit(pos as usize, counts)
            {
                return unit;
            }
            let mut rec = parse(items[order[pos as usize]]);
            if redact_first {
                self.record_shaper().redact_all(&mut rec, counts);
            }
            let rec = self.record_shaper().shape(rec, redact_first, counts);
            match &auto {
                Some(view) => view.unit(rec),
                None => (rec, Vec::new()),
            }
        };
        // A first read that cannot show every record whole indexes those after its rows;
        // made only once the result is found not to fit whole.
        let wants_index = plan.auto.index && ctx.resume.is_none() && !ambiguous;
        let index = LazyIndex::new(|| {
            let view = auto.as_ref().filter(|_| wants_index)?;
            let before = tail.unwrap_or(end);
            let rest = usize::try_from(before.saturating_sub(start + 1)).unwrap_or(usize::MAX);
            let room = plan.budget_tokens * INDEX_PERCENT / 100;
            let columns = view.index_columns(&ctx.tokenizer, rest, room)?;
            // Rows for twice the share at most: the page's rows leave a little more room.
            let most = (2 * room / columns.row_tokens.max(1)).min(rest) as u64;
            let made = |positions: std::ops::Range<u64>| -> Vec<(Value, RedactionCounts)> {
                positions
                    .map(|pos| {
                        let mut replaced = RedactionCounts::default();
                        (fetch(pos, &mut replaced).0, replaced)
                    })
                    .collect()
            };
            let index = IndexRows::new(&columns, start + 1, made(start + 1..start + 1 + most), &ctx.tokenizer);
            // Rows that cannot reach the end of the run leave room for the records just
            // before it, made here too (those the rows above made are not made twice).
            let end_first = before.saturating_sub(BEFORE_LAST_ROWS as u64).max(start + 1 + most);
            Some(index.with_end(&columns, end_first, made(end_first..before), &ctx.tokenizer))
        });
        describe.index = Some(&index);
        let original = self.original_size(bytes_in);
        let build = |kept: &[Value], last: &[Value], fields_cut: &BTreeMap<String, u64>| -> Envelope {
            describe.records_envelope(kept, last, fields_cut, ambiguous, original, ctx)
        };
        let units = Units { available: units, start, tail, fetch: &fetch, build, index: Some(&index) };
        let mut shaped = Fit { shaper: self, ctx, bytes_in, units }.run(counts)?;
        if let Some(index) = index.made() {
            shaped.report.redactions.merge(&index.redactions_shown());
        }
        // Its maker borrows the records' view, which the snapshot's head takes next.
        drop(index);
        // The snapshot (made after the answer) starts with the records the sample already
        // shaped, in the same order, as a plan without a filter's redaction first makes them.
        if ctx.resume.is_none()
            && plan.filter.is_none()
            && shaped.report.needs_snapshot
            && let Some(view) = auto
        {
            shaped.snapshot_head = SnapshotHead { records: view.into_shaped(), input_bytes: bytes_in };
        }
        if ambiguous {
            shaped.report.records_total = Some(total);
            shaped.report.records_omitted = total - start - shaped.report.records_kept;
        }
        Ok(shaped)
    }

    fn shape_value(&self, mut value: Value, bytes_in: u64, ctx: &ShapeContext<'_>) -> Result<Shaped, ShapeError> {
        let mut counts = RedactionCounts::default();
        // A single object (`get_issue`) is one record: the mask's projection applies to it.
        let value = if self.plan.project.is_empty() || !value.is_object() {
            for path in &self.plan.redact_fields {
                path.for_each_mut(&mut value, &mut |v| self.redactor.mask_whole("field", v, &mut counts));
            }
            self.redactor.redact_value(&mut value, &mut counts);
            value
        } else {
            self.record_shaper().shape(value, false, &mut counts)
        };
        let Value::Object(members) = value else {
            let env = Envelope {
                status: Status::Ok,
                summary: format!("{} returned a {}", ctx.tool, kind_name(&value)),
                data: Data::Value(value),
                omitted: None,
                next: None,
            };
            return self.finish_fixed(env, bytes_in, counts, ctx);
        };
        let members: Vec<(String, Value)> = members.into_iter().collect();
        if let Some(parts) = crate::object_parts::split(&members) {
            return self.shape_parts(&members, &parts, counts, bytes_in, ctx);
        }
        let total = members.len() as u64;
        let start = match ctx.resume {
            Some(Resume::Records { offset, .. }) | Some(Resume::Fields { offset }) => offset.min(total),
            _ => 0,
        };
        let fetch = |pos: u64, _: &mut RedactionCounts| -> (Value, Vec<String>) {
            let (k, v) = &members[pos as usize];
            let mut m = Map::new();
            m.insert(k.clone(), v.clone());
            (Value::Object(m), Vec::new())
        };
        let outline: Vec<String> = members.iter().map(|(k, v)| member_outline(k, v, false)).collect();
        // Where the page stops before a member too large for a page, the members after it
        // are said with their short values: the next page is that member alone. Made once,
        // when a page first stops so.
        let valued: OnceCell<Vec<String>> = OnceCell::new();
        let large = |v: &Value| v.is_object() || v.is_array() || v.as_str().is_some_and(|t| t.len() > 200);
        // The first read of a document with no mask says its largest members of records as
        // records, with their facets.
        let notes = if ctx.resume.is_none() && self.plan.decides_fields() {
            member_notes(&members)
        } else {
            vec![None; members.len()]
        };
        let original = self.original_size(bytes_in);
        let build = |kept: &[Value], _: &[Value], fields_cut: &BTreeMap<String, u64>| -> Envelope {
            let after = (start as usize + kept.len()).min(outline.len());
            let blocked = members.get(after).is_some_and(|(_, v)| large(v));
            let outline = if blocked {
                &valued.get_or_init(|| members.iter().map(|(k, v)| member_outline(k, v, true)).collect())[after..]
            } else {
                &outline[after..]
            };
            // The notes of the members not shown, and of those shown cut (too large for the
            // page: their records are what the note says).
            let first = (start as usize).min(after);
            let cut =
                members[first..after].iter().zip(&notes[first..after]).filter(|((k, _), _)| fields_cut.contains_key(k));
            let said: Vec<Option<String>> =
                cut.map(|(_, note)| note.clone()).chain(notes[after..].iter().cloned()).collect();
            let rest = Rest { outline, notes: &said };
            object_envelope(kept, rest, fields_cut, total, start, original, ctx)
        };
        let units = Units { available: total - start, start, tail: None, fetch, build, index: None };
        let mut shaped = Fit { shaper: self, ctx, bytes_in, units }.run(counts)?;
        shaped.report.records_total = None;
        Ok(shaped)
    }
}

/// How many candidates an ambiguous `expect_one` result shows.
const MAX_CANDIDATES: u64 = 5;

/// Whether [`Shaper::with_fitting_nonce`] counts the tokens of a text that fits by its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Count {
    /// Always: `tokens_out` is exact.
    Exact,
    /// Only when the budget needs it: a text that fits by its bytes reports `None`.
    IfNeeded,
}

struct Ordered {
    order: Vec<usize>,
    aggregate: Option<Aggregate>,
}
