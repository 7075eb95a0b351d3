//! The shaping pipeline: one upstream result in, one envelope under the budget out.
//!
//! [`Shaper`] holds a compiled [`ShapePlan`]. [`Shaper::shape`] runs locate → redact →
//! project → filter → sort → aggregate → fit → render. Fitting walks records from the
//! resume point and stops once the budget is spent, counting each candidate with a limit,
//! so its cost follows the budget. The rendered text is then counted exactly, delimiters
//! included, and records are dropped from the end until it fits: the budget is a guarantee.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use toolshape_redact::{RedactError, RedactionCounts, Redactor};
use toolshape_tokens::Tokenizer;

use crate::aggregate::{Aggregate, Aggregator};
use crate::envelope::{Data, Envelope, Next, Omitted, Original, Status, render, to_neutral_json, widest_nonce};
use crate::failure::Failure;
use crate::input::{Located, Wrapper, decode, locate};
use crate::numfmt::{bytes as fmt_bytes, thousands};
use crate::plan::{Form, ShapePlan, SortOrder};
use crate::records::{Caps, RecordShaper, SortKey, cap_strings, parse};
use crate::text;

/// Where reading starts or resumes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Resume {
    /// From record (or object member) `offset`, counted after filter and sort.
    Records {
        /// Zero-based position.
        offset: u64,
    },
    /// From byte `offset` of the (redacted) text, up to `end` when a tail was already shown.
    Text {
        /// Byte offset, at a line start or character boundary.
        offset: u64,
        /// Where to stop (exclusive), if not at the end.
        end: Option<u64>,
    },
    /// The same records from `offset` again, without field caps.
    Fields {
        /// Zero-based position of the first record whose fields were cut.
        offset: u64,
    },
    /// The whole stored result (reference form).
    Handle,
}

/// Turns a resume point into the call the model should make. The gateway's version stores
/// a snapshot and signs a cursor; the CLI's names a command line.
pub trait Continuation {
    /// The call that reads from `resume`.
    fn next(&self, resume: &Resume) -> Next;
}

/// A continuation that re-calls a tool with the resume point as arguments
/// (`{"offset": 20}`, `{"byte": 8192, "end": 9000}`, `{"offset": 3, "full_fields": true}`).
#[derive(Debug, Clone)]
pub struct OffsetContinuation {
    /// The tool (or command) to call.
    pub tool: String,
    /// Arguments added to every call.
    pub base: Map<String, Value>,
}

impl Continuation for OffsetContinuation {
    fn next(&self, resume: &Resume) -> Next {
        let mut arguments = self.base.clone();
        match resume {
            Resume::Records { offset } => {
                arguments.insert("offset".into(), (*offset).into());
            }
            Resume::Text { offset, end } => {
                arguments.insert("byte".into(), (*offset).into());
                if let Some(end) = end {
                    arguments.insert("end".into(), (*end).into());
                }
            }
            Resume::Fields { offset } => {
                arguments.insert("offset".into(), (*offset).into());
                arguments.insert("full_fields".into(), true.into());
            }
            Resume::Handle => {}
        }
        Next { tool: self.tool.clone(), arguments }
    }
}

/// What one call to [`Shaper::shape`] needs besides the input.
pub struct ShapeContext<'a> {
    /// The tool name the model called (used in summaries).
    pub tool: &'a str,
    /// Counts what the model reads.
    pub tokenizer: Tokenizer,
    /// The per-response nonce of the delimiters (random in the gateway).
    pub nonce: &'a str,
    /// The current time, for recent-window aggregates; `None` measures from the data.
    pub now_unix: Option<i64>,
    /// Where to start; `None` for a first call.
    pub resume: Option<Resume>,
    /// How `next` is written.
    pub continuation: &'a dyn Continuation,
}

/// Why shaping could not produce an envelope.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// Even the smallest envelope does not fit.
    #[error("budget of {budget} tokens is too small: this result needs at least {minimum} (raise `budget_tokens`)")]
    BudgetTooSmall {
        /// The budget given.
        budget: usize,
        /// The least that would have worked.
        minimum: usize,
    },
}

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

/// What shaping measured, for telemetry and reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ShapeReport {
    /// Bytes received from upstream.
    pub bytes_in: u64,
    /// Bytes of the rendered text.
    pub bytes_out: u64,
    /// Exact tokens of the rendered text.
    pub tokens_out: u64,
    /// Records located (after the filter), when the result had records.
    pub records_total: Option<u64>,
    /// Records shown.
    pub records_kept: u64,
    /// Records left for `next`.
    pub records_omitted: u64,
    /// Where the cut fell (`records 20`, `byte 81234`), if anything was cut.
    pub cut_at: Option<String>,
    /// Redactions by kind.
    pub redactions: RedactionCounts,
    /// How many records had a field cut by a cap.
    pub fields_cut: u64,
    /// Whether `next` refers to data that must be kept in a snapshot.
    pub needs_snapshot: bool,
}

/// A shaped result.
#[derive(Debug, Clone)]
pub struct Shaped {
    /// The envelope.
    pub envelope: Envelope,
    /// Exactly what the model reads (delimiters included).
    pub text: String,
    /// Measurements.
    pub report: ShapeReport,
}

/// The stored form of a result that did not fit: read it with [`Shaper::for_pages`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// A compact JSON array of processed records, a JSON value, or redacted text.
    pub bytes: Vec<u8>,
}

/// A compiled plan.
#[derive(Debug, Clone)]
pub struct Shaper {
    plan: ShapePlan,
    redactor: Redactor,
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
        Ok(Shaper { plan, redactor })
    }

    /// The plan this shaper runs.
    pub fn plan(&self) -> &ShapePlan {
        &self.plan
    }

    /// The shaper that reads pages of snapshots made by this one.
    pub fn for_pages(&self) -> Shaper {
        Shaper { plan: self.plan.for_pages(), redactor: Redactor::none() }
    }

    /// The same plan without field caps (for [`Resume::Fields`]).
    pub fn without_caps(&self) -> Shaper {
        let mut plan = self.plan.clone();
        plan.field_tokens.clear();
        plan.default_field_tokens = None;
        Shaper { plan, redactor: self.redactor.clone() }
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
    /// token is at least one byte), `report.tokens_out` is left at 0 instead of being
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
            if shaped.report.tokens_out == UNCOUNTED {
                shaped.report.tokens_out =
                    if fits_by_bytes(&shaped.text) { 0 } else { ctx.tokenizer.count(&shaped.text) as u64 };
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
            shaped.report.tokens_out = 0;
            shaped.text = text;
            return Ok(shaped);
        }
        match ctx.tokenizer.count_till_limit(&text, budget) {
            Some(tokens) => {
                shaped.report.bytes_out = text.len() as u64;
                shaped.report.tokens_out = tokens as u64;
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
        let located = locate(&text, self.plan.records.as_ref(), self.text_objects());
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
                let mut counts = RedactionCounts::default();
                let redacted = self.redactor.redact_text(&t, &mut counts);
                text::shape_text(&self.plan, &redacted, lossy, bytes_in, counts, ctx)
            }
        }
    }

    fn text_objects(&self) -> bool {
        self.plan.reads_objects_as_text()
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
        let (text, _) = decode(input);
        let mut counts = RedactionCounts::default();
        match locate(&text, self.plan.records.as_ref(), self.text_objects()) {
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

    fn record_shaper(&self) -> RecordShaper<'_> {
        RecordShaper { redactor: &self.redactor, redact_fields: &self.plan.redact_fields, project: &self.plan.project }
    }

    fn caps(&self) -> Caps<'_> {
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
            Some(Resume::Records { offset }) | Some(Resume::Fields { offset }) => offset.min(total),
            _ => 0,
        };
        let describe = Describe { plan, wrapper, aggregate: aggregate.as_ref(), total, before_filter, start };

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
        let units = if ambiguous { (total - start).min(MAX_CANDIDATES) } else { total - start };
        let fetch = |pos: u64, counts: &mut RedactionCounts| -> Value {
            let raw = items[order[pos as usize]];
            let mut rec = parse(raw);
            let redact_first = plan.filter.is_some();
            if redact_first {
                self.record_shaper().redact_all(&mut rec, counts);
            }
            self.record_shaper().shape(rec, redact_first, counts)
        };
        let build = |kept: &[Value], fields_cut: &BTreeMap<String, u64>| -> Envelope {
            describe.records_envelope(kept, fields_cut, ambiguous, bytes_in, ctx)
        };
        let mut shaped = self.fit(units, start, fetch, build, bytes_in, counts, ctx)?;
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
        let total = members.len() as u64;
        let start = match ctx.resume {
            Some(Resume::Records { offset }) | Some(Resume::Fields { offset }) => offset.min(total),
            _ => 0,
        };
        let fetch = |pos: u64, _: &mut RedactionCounts| -> Value {
            let (k, v) = &members[pos as usize];
            let mut m = Map::new();
            m.insert(k.clone(), v.clone());
            Value::Object(m)
        };
        let build = |kept: &[Value], fields_cut: &BTreeMap<String, u64>| -> Envelope {
            let mut merged = Map::new();
            for one in kept {
                if let Value::Object(m) = one {
                    for (k, v) in m {
                        merged.insert(k.clone(), v.clone());
                    }
                }
            }
            let shown = kept.len() as u64;
            let left = total - start - shown;
            let partial = left > 0 || !fields_cut.is_empty();
            let summary = if partial || start > 0 {
                format!("object with {} fields; {} shown", thousands(total), member_range(start, shown))
            } else {
                format!("object with {} fields", thousands(total))
            };
            let omitted = partial.then(|| Omitted {
                count: if left > 0 { left } else { fields_cut.values().sum() },
                unit: "fields".into(),
                reason: if left > 0 { "budget".into() } else { "field_caps".into() },
                chars: None,
                fields_cut: (!fields_cut.is_empty()).then(|| fields_cut.clone()),
                original: Original { bytes: bytes_in, records: None, lines: None },
            });
            let full = matches!(ctx.resume, Some(Resume::Fields { .. }));
            let next = if left > 0 {
                Some(ctx.continuation.next(&Resume::Records { offset: start + shown }))
            } else if partial && !full {
                Some(ctx.continuation.next(&Resume::Fields { offset: start }))
            } else {
                None
            };
            let omitted = omitted.map(|mut o| {
                if left == 0 && full {
                    o.reason = "too_large".into();
                }
                o
            });
            Envelope {
                status: if partial { Status::Partial } else { Status::Ok },
                summary,
                data: Data::Value(Value::Object(merged)),
                omitted,
                next,
            }
        };
        let mut shaped = self.fit(total - start, start, fetch, build, bytes_in, counts, ctx)?;
        shaped.report.records_total = None;
        Ok(shaped)
    }

    /// Keep the longest prefix of units (records or object members) from `start` whose
    /// rendering fits the budget.
    #[allow(clippy::too_many_arguments)]
    fn fit(
        &self,
        available_units: u64,
        start: u64,
        mut fetch: impl FnMut(u64, &mut RedactionCounts) -> Value,
        build: impl Fn(&[Value], &BTreeMap<String, u64>) -> Envelope,
        bytes_in: u64,
        mut counts: RedactionCounts,
        ctx: &ShapeContext<'_>,
    ) -> Result<Shaped, ShapeError> {
        let tok = &ctx.tokenizer;
        let budget = self.plan.budget_tokens;
        let caps = self.caps();
        // A small result, the common case, is tried whole first: a token is at least one
        // byte, so a rendering no longer in bytes than the budget in tokens fits without
        // being counted at all. Byte lengths do not depend on the nonce's letters, so the
        // choice is the same for every nonce of a length, and re-reads stay deterministic.
        if bytes_in <= budget as u64 {
            let before = counts.clone();
            let mut kept = Vec::with_capacity(available_units as usize);
            let mut cut_by_field: BTreeMap<String, u64> = BTreeMap::new();
            let mut fields_cut = 0u64;
            for i in 0..available_units {
                let mut rec = fetch(start + i, &mut counts);
                let cut = if caps.is_empty() { Vec::new() } else { caps.apply(&mut rec, tok) };
                fields_cut += u64::from(!cut.is_empty());
                for f in cut {
                    *cut_by_field.entry(f).or_default() += 1;
                }
                kept.push(rec);
            }
            let env = build(&kept, &cut_by_field);
            let text = render(&env, self.plan.render, ctx.nonce);
            if text.len() <= budget {
                let report = ShapeReport {
                    bytes_in,
                    bytes_out: text.len() as u64,
                    // Counted once, on the text the model reads: see `with_fitting_nonce`.
                    tokens_out: UNCOUNTED,
                    records_total: Some(start + available_units),
                    records_kept: available_units,
                    records_omitted: 0,
                    cut_at: None,
                    redactions: counts,
                    fields_cut,
                    needs_snapshot: env.next.is_some(),
                };
                return Ok(Shaped { envelope: env, text, report });
            }
            // Escapes or the envelope made it longer than the budget: measure it properly,
            // counting each redaction once.
            counts = before;
        }
        // The envelope around the records, drawn with the longest numbers it can carry.
        let skeleton = render(&build(&[], &worst_case_cuts(&self.plan)), self.plan.render, ctx.nonce);
        let overhead = tok.count(&skeleton) + SLACK_TOKENS;
        if overhead >= budget {
            return self.minimal(build(&[], &BTreeMap::new()), bytes_in, counts, ctx, overhead);
        }
        let room = budget - overhead;
        let mut used = 0usize;
        let mut kept: Vec<Value> = Vec::new();
        let mut cut_by_field: BTreeMap<String, u64> = BTreeMap::new();
        let mut cut_per_record: Vec<Vec<String>> = Vec::new();
        for i in 0..available_units {
            let mut rec = fetch(start + i, &mut counts);
            let cut = if caps.is_empty() { Vec::new() } else { caps.apply(&mut rec, tok) };
            let piece = to_neutral_json(&rec);
            let separator = usize::from(!kept.is_empty());
            match tok.count_till_limit(&piece, room.saturating_sub(used + separator)) {
                Some(cost) => {
                    used += cost + separator;
                    kept.push(rec);
                    cut_per_record.push(cut);
                }
                None if kept.is_empty() => {
                    // One unit larger than the whole room: it is shrunk below, against the
                    // whole envelope, so the page still makes progress.
                    kept.push(rec);
                    cut_per_record.push(cut);
                    break;
                }
                None => break,
            }
            if used >= room {
                break;
            }
        }
        loop {
            cut_by_field.clear();
            for cuts in &cut_per_record[..kept.len()] {
                for f in cuts {
                    *cut_by_field.entry(f.clone()).or_default() += 1;
                }
            }
            let env = build(&kept, &cut_by_field);
            let text = render(&env, self.plan.render, ctx.nonce);
            if let Some(tokens) = tok.count_till_limit(&text, budget) {
                let kept_n = kept.len() as u64;
                let omitted = available_units - kept_n;
                let fields_cut = cut_per_record[..kept.len()].iter().filter(|c| !c.is_empty()).count() as u64;
                let report = ShapeReport {
                    bytes_in,
                    bytes_out: text.len() as u64,
                    tokens_out: tokens as u64,
                    records_total: Some(start + available_units),
                    records_kept: kept_n,
                    records_omitted: omitted,
                    cut_at: (omitted > 0).then(|| format!("record {}", start + kept_n)),
                    redactions: counts,
                    fields_cut,
                    needs_snapshot: env.next.is_some(),
                };
                return Ok(Shaped { envelope: env, text, report });
            }
            if kept.len() > 1 {
                kept.pop();
                continue;
            }
            // One unit that does not fit, even alone: shrink it until the whole envelope,
            // cut notes included, fits. Checked against the rendered text, so it is exact.
            let (Some(one), Some(prior_cuts)) = (kept.pop(), cut_per_record.first().cloned()) else {
                return self.minimal(build(&[], &BTreeMap::new()), bytes_in, counts, ctx, overhead);
            };
            let envelope_fits = |candidate: &Value, cuts: &[String]| -> bool {
                let mut by_field: BTreeMap<String, u64> = BTreeMap::new();
                for f in prior_cuts.iter().chain(cuts) {
                    by_field.insert(f.clone(), 1);
                }
                let env = build(std::slice::from_ref(candidate), &by_field);
                tok.fits(&render(&env, self.plan.render, ctx.nonce), budget)
            };
            match shrink_to_fit(&one, tok, &envelope_fits) {
                Some((small, fields)) => {
                    kept.push(small);
                    let cuts = &mut cut_per_record[0];
                    for f in fields {
                        if !cuts.contains(&f) {
                            cuts.push(f);
                        }
                    }
                }
                None => return self.minimal(build(&[], &BTreeMap::new()), bytes_in, counts, ctx, overhead),
            }
        }
    }

    /// Render an envelope whose data does not shrink; cut its summary if that is what it takes.
    fn finish_fixed(
        &self,
        mut env: Envelope,
        bytes_in: u64,
        counts: RedactionCounts,
        ctx: &ShapeContext<'_>,
    ) -> Result<Shaped, ShapeError> {
        let tok = &ctx.tokenizer;
        let budget = self.plan.budget_tokens;
        let mut text = render(&env, self.plan.render, ctx.nonce);
        // The summary is the one part that may give way; escapes make its rendered cost
        // differ from its own count, so shorten until the whole fits or nothing is left.
        let mut keep = tok.count(&env.summary);
        while !tok.fits(&text, budget) && keep > 0 {
            let overflow = tok.count(&text).saturating_sub(budget);
            keep = keep.saturating_sub(overflow.max(1) + 4);
            let (prefix, _) = tok.prefix_within(&env.summary, keep);
            env.summary = format!("{prefix}…");
            text = render(&env, self.plan.render, ctx.nonce);
        }
        match tok.count_till_limit(&text, budget) {
            Some(tokens) => Ok(Shaped {
                report: ShapeReport {
                    bytes_in,
                    bytes_out: text.len() as u64,
                    tokens_out: tokens as u64,
                    redactions: counts,
                    needs_snapshot: env.next.is_some(),
                    ..ShapeReport::default()
                },
                envelope: env,
                text,
            }),
            None => Err(ShapeError::BudgetTooSmall { budget, minimum: tok.count(&text) }),
        }
    }

    /// When not even one unit fits: say so, with the way to read on.
    fn minimal(
        &self,
        mut env: Envelope,
        bytes_in: u64,
        counts: RedactionCounts,
        ctx: &ShapeContext<'_>,
        needed: usize,
    ) -> Result<Shaped, ShapeError> {
        if env.omitted.is_none() && env.next.is_none() {
            return Err(ShapeError::BudgetTooSmall { budget: self.plan.budget_tokens, minimum: needed });
        }
        env.status = Status::Partial;
        env.data = Data::Null;
        let omitted = env.omitted.as_ref().filter(|o| o.unit == "records").map(|o| o.count);
        let mut shaped = self.finish_fixed(env, bytes_in, counts, ctx)?;
        if let Some(n) = omitted {
            shaped.report.records_omitted = n;
            shaped.report.records_total = Some(n);
        }
        Ok(shaped)
    }
}

/// How many candidates an ambiguous `expect_one` result shows.
const MAX_CANDIDATES: u64 = 5;

/// Tokens kept aside for the few digits a final summary may have beyond the skeleton's.
const SLACK_TOKENS: usize = 6;

/// Whether [`Shaper::with_fitting_nonce`] counts the tokens of a text that fits by its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Count {
    /// Always: `tokens_out` is exact.
    Exact,
    /// Only when the budget needs it: a text that fits by its bytes reports 0.
    IfNeeded,
}

/// `tokens_out` of a page known to fit without being counted (the byte bound of `fit`);
/// [`Shaper::with_fitting_nonce`] counts the text the model reads, once, in its place.
const UNCOUNTED: u64 = u64::MAX;

struct Ordered {
    order: Vec<usize>,
    aggregate: Option<Aggregate>,
}

fn worst_case_cuts(plan: &ShapePlan) -> BTreeMap<String, u64> {
    let mut m: BTreeMap<String, u64> = plan.field_tokens.keys().map(|k| (k.clone(), u64::from(u32::MAX))).collect();
    if plan.default_field_tokens.is_some() {
        m.insert("(value)".into(), u64::from(u32::MAX));
    }
    m
}

/// The noun for a count of one: `issues` → `issue`, `entries` → `entry`, `matches` →
/// `match`, `boxes` → `box`. Nouns that do not end in `s`, or end in `ss`, are kept.
fn singular(noun: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    if noun.ends_with("ss") || noun.len() < 2 {
        return Cow::Borrowed(noun);
    }
    if let Some(stem) = noun.strip_suffix("ies").filter(|s| !s.is_empty()) {
        return Cow::Owned(format!("{stem}y"));
    }
    for suffix in ["sses", "shes", "ches", "xes", "zes"] {
        if noun.ends_with(suffix) {
            return Cow::Borrowed(&noun[..noun.len() - 2]);
        }
    }
    Cow::Borrowed(noun.strip_suffix('s').filter(|n| !n.is_empty()).unwrap_or(noun))
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}

fn member_range(start: u64, shown: u64) -> String {
    if shown == 0 { "none".into() } else { format!("{}-{}", thousands(start + 1), thousands(start + shown)) }
}

/// The richest reduced form of one oversized unit that `fits` accepts: first every string
/// cut to the largest common cap, then, when that is not enough, only its leading members
/// (strings capped short). Returns it with the names of the fields cut or dropped; `None`
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
        let (mut lo, mut hi) = (MIN_CAP, MAX_CAP);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if accept(&capped(mid)) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let best = capped(lo);
        let fields = changed_fields(&best);
        return Some((best, fields));
    }
    let len = match rec {
        Value::Object(m) => m.len(),
        Value::Array(a) => a.len(),
        _ => 0,
    };
    let leading = |k: usize| -> Value {
        let mut v = match rec {
            Value::Object(m) => Value::Object(m.iter().take(k).map(|(a, b)| (a.clone(), b.clone())).collect()),
            Value::Array(a) => Value::Array(a.iter().take(k).cloned().collect()),
            _ => Value::Null,
        };
        cap_strings(&mut v, MIN_CAP, tok);
        v
    };
    if len == 0 || !accept(&leading(0)) {
        return None;
    }
    let (mut lo, mut hi) = (0usize, len);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if accept(&leading(mid)) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let best = leading(lo);
    let fields = changed_fields(&best);
    Some((best, fields))
}

/// Writes summaries and envelopes for a list of records.
struct Describe<'a> {
    plan: &'a ShapePlan,
    wrapper: &'a Wrapper,
    aggregate: Option<&'a Aggregate>,
    total: u64,
    before_filter: u64,
    start: u64,
}

impl Describe<'_> {
    fn qualifiers(&self) -> String {
        let mut q = String::new();
        if let Some(f) = &self.plan.filter {
            q.push_str(&format!(" matching `{}` (of {})", f.as_str(), thousands(self.before_filter)));
        }
        if let Some(s) = &self.plan.sort {
            let dir = match s.order {
                SortOrder::Asc => "ascending",
                SortOrder::Desc => "descending",
            };
            q.push_str(&format!(", by {} {dir}", s.by));
        }
        if let Some(a) = self.aggregate {
            let details = a.details();
            if !details.is_empty() {
                q.push_str("; ");
                q.push_str(&details);
            }
        }
        if !self.wrapper.notes.is_empty() {
            q.push_str(&format!(" ({})", self.wrapper.notes.join(", ")));
        }
        if let Some(p) = &self.wrapper.path_missing {
            q.push_str(&format!(" [records path `{p}` not found; records located automatically]"));
        }
        q
    }

    fn complete(&self, shown: u64) -> String {
        let noun =
            if self.total == 1 { singular(self.plan.noun()) } else { std::borrow::Cow::Borrowed(self.plan.noun()) };
        if self.start > 0 {
            format!("{noun} {} of {}{}", member_range(self.start, shown), thousands(self.total), self.qualifiers())
        } else {
            format!("{} {noun}{}", thousands(self.total), self.qualifiers())
        }
    }

    fn empty(&self) -> String {
        let noun = self.plan.noun();
        match &self.plan.filter {
            Some(f) => format!(
                "no {noun} match `{}` ({} before the filter); loosen the criteria",
                f.as_str(),
                thousands(self.before_filter)
            ),
            None => format!("no {noun}{}", self.qualifiers()),
        }
    }

    fn reference(&self, bytes_in: u64) -> String {
        format!(
            "{} {} stored ({}){}; open them with next, adding a query to pick what you need",
            thousands(self.total),
            self.plan.noun(),
            fmt_bytes(bytes_in),
            self.qualifiers()
        )
    }

    fn records_envelope(
        &self,
        kept: &[Value],
        fields_cut: &BTreeMap<String, u64>,
        ambiguous: bool,
        bytes_in: u64,
        ctx: &ShapeContext<'_>,
    ) -> Envelope {
        let shown = kept.len() as u64;
        let left = self.total - self.start - shown;
        let noun = self.plan.noun();
        let original = Original { bytes: bytes_in, records: Some(self.total), lines: None };
        if ambiguous {
            let narrow = self
                .plan
                .narrow_by
                .as_ref()
                .map_or_else(|| "add an argument that picks one".to_owned(), |a| format!("narrow with `{a}`"));
            return Envelope {
                status: Status::Ambiguous,
                summary: format!(
                    "{} {noun} matched where one was expected; {narrow}; {} candidates shown",
                    thousands(self.total),
                    thousands(shown)
                ),
                data: Data::Records(kept.to_vec()),
                omitted: (left > 0).then(|| Omitted {
                    count: left,
                    unit: "records".into(),
                    reason: "ambiguous".into(),
                    chars: None,
                    fields_cut: None,
                    original: original.clone(),
                }),
                next: (left > 0).then(|| ctx.continuation.next(&Resume::Records { offset: self.start + shown })),
            };
        }
        let partial = left > 0 || !fields_cut.is_empty();
        let summary = if left > 0 {
            let range = if self.start > 0 {
                format!("{noun} {} of {}", member_range(self.start, shown), thousands(self.total))
            } else {
                format!("{} of {} {noun}", thousands(shown), thousands(self.total))
            };
            format!("{range}{}; more with next", self.qualifiers())
        } else if !fields_cut.is_empty() {
            format!("{}; long fields cut, full text with next", self.complete(shown))
        } else {
            self.complete(shown)
        };
        let omitted = partial.then(|| Omitted {
            count: if left > 0 { left } else { fields_cut.values().copied().max().unwrap_or(0) },
            unit: if left > 0 { "records".into() } else { "fields".into() },
            reason: if left > 0 { "budget".into() } else { "field_caps".into() },
            chars: None,
            fields_cut: (!fields_cut.is_empty()).then(|| fields_cut.clone()),
            original,
        });
        // Reading without caps already: a field still too large for the whole budget is not
        // offered again (that would loop); `omitted` says it stayed too large.
        let full = matches!(ctx.resume, Some(Resume::Fields { .. }));
        let next = if left > 0 {
            Some(ctx.continuation.next(&Resume::Records { offset: self.start + shown }))
        } else if partial && !full {
            Some(ctx.continuation.next(&Resume::Fields { offset: self.start }))
        } else {
            None
        };
        let omitted = omitted.map(|mut o| {
            if left == 0 && full {
                o.reason = "too_large".into();
            }
            o
        });
        Envelope {
            status: if partial { Status::Partial } else { Status::Ok },
            summary,
            data: Data::Records(kept.to_vec()),
            omitted,
            next,
        }
    }
}

#[cfg(test)]
mod singular_tests {
    use super::singular;

    #[test]
    fn plural_nouns_become_singular() {
        for (plural, one) in [
            ("issues", "issue"),
            ("entries", "entry"),
            ("matches", "match"),
            ("boxes", "box"),
            ("addresses", "address"),
            ("records", "record"),
            ("lines", "line"),
            ("class", "class"),
            ("data", "data"),
            ("s", "s"),
        ] {
            assert_eq!(singular(plural), one, "{plural}");
        }
    }
}
