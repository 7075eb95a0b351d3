//! Audit: per tool, the most tokens one call can put into the model's context, and the most
//! of those that upstream-controlled free text can fill.
//!
//! The figures follow what the shaping core can emit for a plan, form by form:
//!
//! - **status**: a fixed line, `<tool> succeeded`; nothing from upstream.
//! - **records**: the projected records that fit the budget. Each free-text string is cut to
//!   its cap (`field_tokens`, else `default_field_tokens`), so upstream text per record is at
//!   most the sum of the caps of its free-text fields, and the records that fit are bounded
//!   by the room the budget leaves after the envelope and each record's own keys. A field
//!   without a cap, a path that fans out (`labels[].name`: the upstream chooses how many),
//!   or no projection at all (upstream keys and nesting pass through) leaves only the
//!   budget as the bound.
//! - **expect_one**: as records, at most five candidates.
//! - **reference**: no data; the summary may echo upstream values (wrapper notes, group-by
//!   values).
//! - **aggregate** (`aggregate.only`): counts, plus group-by values, each cut to 256 bytes in
//!   the data and 40 characters in the summary.
//!
//! Whatever the form, the shaper reads a single JSON object as one record (its projection
//! and caps apply) and reads a plain-text answer as text: whole lines up to the budget,
//! projection and caps not involved. An object that is mostly one long string is read as
//! text too, but only by a plan that declares no projection and no caps
//! ([`toolshape_shape::ShapePlan::reads_objects_as_text`]). Which of these
//! answers a tool can give is read from the upstream tool's `outputSchema` when one is known
//! (the attacker writes the data, not its structure); otherwise it is **assumed**: a declared
//! `records` path holds the list, and without one, any of the three may come back.
//!
//! Errors are counted apart: an upstream's own error text reaches the model as one line of at
//! most [`TOOL_ERROR_MAX`] characters, the same for every tool.
//!
//! Units: upstream text is counted in its own tokens, as the caps count it. A token is at
//! least one byte, so text of `n` characters is at most `4 n` tokens; JSON escapes
//! (quotes, newlines, control characters) make the rendered form longer than the count, and
//! the budget, checked on the rendered text, stays the hard bound.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};
use toolshape_shape::MAX_KEY_BYTES;
use toolshape_shape::Segment;
use toolshape_shape::TOOL_ERROR_MAX;
use toolshape_shape::to_neutral_json;
use toolshape_shape::{Data, Envelope, Form, Projection, ShapePlan, Status, render};
use toolshape_tokens::Tokenizer;

use crate::advice::{Advice, advise};
use crate::compile::{MaskSet, Route, namespaced};
use crate::surface::{Surface, Target};

/// The attacker ceiling above which a tool is flagged, unless told otherwise.
pub const DEFAULT_THRESHOLD_TOKENS: usize = 1000;

/// The most tokens one character can be: a token is at least one byte, a character at most
/// four.
pub const TOKENS_PER_CHAR_MAX: usize = 4;

/// Bytes of wrapper notes (`total_count=1412`) a summary may carry; mirrors the shaper's
/// record locator, which writes at most this much of the siblings of an auto-located list.
pub const NOTES_MAX_BYTES: usize = 300;

/// Characters of a group-by value a summary phrase shows (40 and `…`); mirrors the aggregate
/// phrase writer.
pub const PHRASE_VALUE_CHARS: usize = 41;

/// Candidates an ambiguous `expect_one` answer shows; mirrors the shaper.
pub const MAX_CANDIDATES: usize = 5;

/// The least size of a string member that makes the shaper read its object as text; mirrors
/// the record locator.
pub const TEXT_MEMBER_MIN_BYTES: usize = 4096;

/// A nonce for measuring delimiters, as the gateway makes them (five words, which cost the
/// same whatever the words), so the fixed cost is neither over- nor understated.
fn measure_nonce() -> String {
    toolshape_util::nonce::from_bits(0)
}

/// Output schemas of upstream tools, by `(upstream, tool)`.
pub type OutputSchemas = BTreeMap<(String, String), Value>;

/// Where the structure of a tool's answers comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Knowledge {
    /// The upstream tool's `outputSchema`.
    Schema,
    /// No schema: the worst structure the plan allows was assumed.
    Assumed,
}

impl Knowledge {
    /// `schema` or `assumed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Knowledge::Schema => "schema",
            Knowledge::Assumed => "assumed",
        }
    }
}

/// The kinds of upstream answer the shaper treats differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerKind {
    /// A list of records.
    List,
    /// One JSON object, read as one record.
    Object,
    /// Plain text, or an object that is mostly one long string.
    Text,
}

/// The attacker ceiling of one kind of answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaseAudit {
    /// Which answer.
    pub kind: AnswerKind,
    /// The most upstream-controlled tokens it can show.
    pub attacker_tokens: usize,
    /// What bounds that figure.
    pub bound_by: String,
    /// True when nothing but the budget bounds it.
    pub budget_bound: bool,
}

/// One projected field, as the audit sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldAudit {
    /// The output name.
    pub name: String,
    /// The path it is read from.
    pub path: String,
    /// Whether upstream-written text can fill it.
    pub free_text: bool,
    /// How many strings it can hold per record; `None` when the upstream decides.
    pub strings: Option<usize>,
    /// The most tokens one of its strings can show; `None` when uncapped.
    pub string_tokens: Option<usize>,
    /// Schema or assumption.
    pub knowledge: Knowledge,
}

impl FieldAudit {
    /// The most upstream-controlled tokens this field adds to one record; `None` when
    /// unbounded.
    pub fn tokens(&self) -> Option<usize> {
        if !self.free_text {
            return Some(0);
        }
        Some(self.strings?.saturating_mul(self.string_tokens?))
    }
}

/// The ceilings of one shaping plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanAudit {
    /// `records`, `status`, `reference`, `expect_one` or `aggregate`.
    pub form: &'static str,
    /// The plan's budget.
    pub budget_tokens: usize,
    /// The most tokens one answer can take, errors included.
    pub max_tokens: usize,
    /// The most of a successful answer's tokens upstream-controlled text can fill.
    pub attacker_tokens: usize,
    /// What bounds `attacker_tokens`.
    pub bound_by: String,
    /// True when nothing but the budget bounds `attacker_tokens`.
    pub budget_bound: bool,
    /// The most tokens of upstream error text an error answer can show.
    pub error_text_tokens: usize,
    /// Where the answer structure came from.
    pub knowledge: Knowledge,
    /// Each reachable kind of answer.
    pub cases: Vec<CaseAudit>,
    /// Each projected field.
    pub fields: Vec<FieldAudit>,
}

/// The audit of one tool on the surface.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolAudit {
    /// The tool name the model sees (`github_*` for the unmasked tools of an upstream whose
    /// list is not known).
    pub tool: String,
    /// The handler (`upstream/tool`), or `upstream/*`.
    pub handler: String,
    /// For a switch mask, the case with the highest ceiling.
    pub case: Option<String>,
    /// The figures.
    #[serde(flatten)]
    pub plan: PlanAudit,
    /// Whether the tool is flagged: only the budget bounds its free text, or the ceiling is
    /// above the threshold.
    pub flagged: bool,
    /// For a flagged tool: the `result:` lines that bring it under the threshold, checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<Box<Advice>>,
}

/// The audit of a whole surface.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuditReport {
    /// The tokenizer the figures are counted with.
    pub tokenizer: &'static str,
    /// The profile audited.
    pub profile: Option<String>,
    /// The flagging threshold.
    pub threshold_tokens: usize,
    /// One entry per tool, highest attacker ceiling first.
    pub tools: Vec<ToolAudit>,
}

impl AuditReport {
    /// How many tools are flagged.
    pub fn flagged(&self) -> usize {
        self.tools.iter().filter(|t| t.flagged).count()
    }
}

/// Audit every tool of `surface`: masks (each switch case, worst kept), unmasked upstream
/// tools listed on it (default shaping), and, for upstreams that expose unmasked tools but
/// whose lists are not in `surface`, one `prefix_*` entry with the default shaping.
pub fn audit(masks: &MaskSet, surface: &Surface, schemas: &OutputSchemas, threshold_tokens: usize) -> AuditReport {
    let tok = Tokenizer::new(masks.defaults.tokenizer);
    let mut tools = Vec::new();
    let mut listed_upstreams = std::collections::BTreeSet::new();
    for listed in &surface.tools {
        let name = &listed.definition.name;
        match &listed.target {
            Target::Mask(i) => {
                let Some(mask) = masks.masks.get(*i) else { continue };
                let routes: Vec<(Option<&str>, &str, &str, &ShapePlan)> = match &mask.route {
                    Route::One(h) => vec![(None, &h.upstream, &h.tool, mask.shaper.plan())],
                    Route::Switch { cases, .. } => cases
                        .iter()
                        .map(|(case, (h, shaper))| {
                            let plan = shaper.as_ref().unwrap_or(&mask.shaper).plan();
                            (Some(case.as_str()), h.upstream.as_str(), h.tool.as_str(), plan)
                        })
                        .collect(),
                };
                let worst = routes
                    .into_iter()
                    .map(|(case, upstream, tool, plan)| {
                        let schema = schemas.get(&(upstream.to_owned(), tool.to_owned()));
                        (case, format!("{upstream}/{tool}"), audit_plan(plan, name, schema, &tok), plan, schema)
                    })
                    .max_by_key(|(_, _, a, _, _)| (a.attacker_tokens, a.max_tokens));
                if let Some((case, handler, audited, plan, schema)) = worst {
                    let mut t = tool_audit(name, handler, case.map(str::to_owned), audited, threshold_tokens);
                    t.advice = advise(plan, name, schema, &tok, threshold_tokens).map(Box::new);
                    tools.push(t);
                }
            }
            Target::Upstream { upstream, tool } => {
                listed_upstreams.insert(upstream.clone());
                let schema = schemas.get(&(upstream.clone(), tool.clone()));
                let plan = audit_plan(masks.passthrough.plan(), name, schema, &tok);
                tools.push(tool_audit(name, format!("{upstream}/{tool}"), None, plan, threshold_tokens));
            }
        }
    }
    for (upstream, naming) in &masks.upstreams {
        if !naming.expose || listed_upstreams.contains(upstream) {
            continue;
        }
        let name = namespaced(masks.defaults.prefix, &masks.defaults.prefix_separator, &naming.prefix, "");
        let name = format!("{name}*");
        let plan = audit_plan(masks.passthrough.plan(), &name, None, &tok);
        tools.push(tool_audit(&name, format!("{upstream}/*"), None, plan, threshold_tokens));
    }
    tools.sort_by(|a, b| {
        b.plan
            .attacker_tokens
            .cmp(&a.plan.attacker_tokens)
            .then(b.plan.max_tokens.cmp(&a.plan.max_tokens))
            .then(a.tool.cmp(&b.tool))
    });
    AuditReport {
        tokenizer: masks.defaults.tokenizer.name(),
        profile: surface.profile().map(str::to_owned),
        threshold_tokens,
        tools,
    }
}

fn tool_audit(name: &str, handler: String, case: Option<String>, plan: PlanAudit, threshold: usize) -> ToolAudit {
    let flagged = plan.budget_bound || plan.attacker_tokens > threshold;
    let advice = (flagged && handler.ends_with("/*")).then(|| {
        let upstream = handler.trim_end_matches("/*");
        Box::new(Advice {
            lines: Vec::new(),
            attacker_tokens: plan.attacker_tokens,
            passes: false,
            remaining: vec![format!(
                "the unmasked tools of `{upstream}` get the default shaping, which no `result:` bounds: \
                 write masks for the ones the model needs and set `expose_unmasked: false` on upstream `{upstream}`"
            )],
        })
    });
    ToolAudit { tool: name.to_owned(), handler, case, plan, flagged, advice }
}

/// What the shaper can be handed, for one plan.
struct Answers<'s> {
    /// The schema of one list item, when a list can come back (`Some(None)`: unknown).
    list: Option<Option<&'s Value>>,
    /// The schema of a single object answer, when one can come back.
    object: Option<Option<&'s Value>>,
    /// Whether a text answer can come back.
    text: bool,
    /// Whether the list is auto-located (its siblings may become summary notes).
    auto_located: bool,
    knowledge: Knowledge,
}

fn answers<'s>(plan: &ShapePlan, schema: Option<&'s Value>) -> Answers<'s> {
    let Some(root) = schema else {
        // Without a schema, a declared records path is taken at its word; without one, the
        // upstream may answer with a list, one object or text.
        let open = plan.records.is_none();
        return Answers {
            list: Some(None),
            object: open.then_some(None),
            text: open,
            auto_located: open,
            knowledge: Knowledge::Assumed,
        };
    };
    if let Some(path) = &plan.records
        && let Some(node) = resolve(root, path.segments())
        && has_type(node, "array")
    {
        return Answers {
            list: Some(node.get("items")),
            object: None,
            text: false,
            auto_located: false,
            knowledge: Knowledge::Schema,
        };
    }
    let props = root.get("properties").and_then(Value::as_object);
    let list = props.and_then(|p| p.values().find(|v| has_type(v, "array"))).map(|a| a.get("items"));
    // An object whose longest member is a string of 4 KB or more, at least half its size, is
    // read as text: possible whenever a top-level string is not bounded below that.
    let long_string = props.is_some_and(|p| {
        p.values().any(|v| {
            has_type(v, "string")
                && v.get("maxLength")
                    .and_then(Value::as_u64)
                    .is_none_or(|n| (n as usize).saturating_mul(TOKENS_PER_CHAR_MAX) >= TEXT_MEMBER_MIN_BYTES)
        })
    });
    Answers {
        list,
        // The list may be empty: the object is then read as one record.
        object: Some(Some(root)),
        text: long_string && plan.reads_objects_as_text(),
        auto_located: true,
        knowledge: Knowledge::Schema,
    }
}

/// Audit one plan. `tool` is the name the model calls (it appears in status lines);
/// `output_schema` is the upstream tool's, when known.
pub fn audit_plan(plan: &ShapePlan, tool: &str, output_schema: Option<&Value>, tok: &Tokenizer) -> PlanAudit {
    let budget = plan.budget_tokens;
    let nonce = measure_nonce();
    let cost = |data: Data| {
        let env = Envelope { status: Status::Ok, summary: String::new(), data, omitted: None, next: None };
        tok.count(&render(&env, plan.render, &nonce))
    };
    let error_fixed = tok.count(&render(&Envelope::error(String::new()), plan.render, &nonce));
    let error_text_max = TOOL_ERROR_MAX * TOKENS_PER_CHAR_MAX;
    let error_text_tokens = budget.saturating_sub(error_fixed).min(error_text_max);
    let error_max = budget.min(error_fixed + error_text_max);

    let aggregate_only = plan.aggregate.as_ref().is_some_and(|a| a.only);
    let form = match plan.form {
        Form::Status => "status",
        Form::Reference => "reference",
        Form::ExpectOne => "expect_one",
        Form::Records if aggregate_only => "aggregate",
        Form::Records => "records",
    };
    if plan.form == Form::Status {
        let line = Envelope {
            status: Status::Ok,
            summary: format!("{tool} succeeded"),
            data: Data::Null,
            omitted: None,
            next: None,
        };
        let status_tokens = tok.count(&render(&line, plan.render, &nonce)).min(budget);
        return PlanAudit {
            form,
            budget_tokens: budget,
            max_tokens: status_tokens.max(error_max),
            attacker_tokens: 0,
            bound_by: "fixed text".into(),
            budget_bound: false,
            error_text_tokens,
            knowledge: if output_schema.is_some() { Knowledge::Schema } else { Knowledge::Assumed },
            cases: Vec::new(),
            fields: Vec::new(),
        };
    }

    let seen = answers(plan, output_schema);
    // The fields as one list item has them, and as a single object answer has them.
    let list_fields = seen.list.map(|schema| fields_of(plan, schema, tok));
    let object_fields = seen.object.map(|schema| fields_of(plan, schema, tok));

    let notes = if seen.auto_located { NOTES_MAX_BYTES } else { 0 };
    let (phrases, group_keys) = plan.aggregate.as_ref().map_or((0, 0), |a| {
        let values: usize = a.group_by.iter().map(|g| g.top).sum();
        (values * PHRASE_VALUE_CHARS * TOKENS_PER_CHAR_MAX, values * (MAX_KEY_BYTES + '…'.len_utf8()))
    });
    let summary_extra = notes + phrases;
    let extra_note = |n: usize| if n > 0 { format!(" + {n} in the summary") } else { String::new() };

    let mut cases = Vec::new();
    if seen.list.is_some() {
        let room = budget.saturating_sub(cost(Data::Records(Vec::new())));
        let null_room = budget.saturating_sub(cost(Data::Null));
        let (per_record, record_fixed) = list_fields.as_ref().map_or((None, 1), |f| (f.1, f.2));
        let case = match (plan.form, aggregate_only, per_record) {
            (Form::Reference, _, _) => {
                bounded(AnswerKind::List, null_room, summary_extra, format!("summary echoes ({summary_extra} max)"))
            }
            (Form::Records, true, _) => bounded(
                AnswerKind::List,
                null_room,
                summary_extra + group_keys,
                format!("group-by values ({group_keys} max){}", extra_note(summary_extra)),
            ),
            (_, _, None) => {
                let why = if plan.project.is_empty() { "budget (no projection)" } else { "budget (uncapped field)" };
                budget_case(AnswerKind::List, room, why)
            }
            (form, _, Some(text)) => {
                let limit = (form == Form::ExpectOne).then_some(MAX_CANDIDATES);
                let (records, tokens) = fit(room, record_fixed, text, limit);
                bounded(
                    AnswerKind::List,
                    room,
                    tokens + summary_extra,
                    format!("{records} records × {text} capped{}", extra_note(summary_extra)),
                )
            }
        };
        cases.push(case);
    }
    if seen.object.is_some() {
        let room = budget.saturating_sub(cost(Data::Value(Value::Object(Map::new()))));
        let per_record = object_fields.as_ref().and_then(|f| f.1);
        cases.push(match per_record {
            None if plan.project.is_empty() => budget_case(AnswerKind::Object, room, "budget (no projection)"),
            None => budget_case(AnswerKind::Object, room, "budget (uncapped field)"),
            Some(text) => bounded(AnswerKind::Object, room, text, format!("1 object × {text} capped")),
        });
    }
    if seen.text {
        let room = budget.saturating_sub(cost(Data::Text(String::new())));
        cases.push(budget_case(AnswerKind::Text, room, "budget (text answer)"));
    }
    let fields = list_fields.or(object_fields).map(|f| f.0).unwrap_or_default();
    let worst = cases.iter().max_by_key(|c| (c.attacker_tokens, c.budget_bound)).cloned();
    let (attacker_tokens, bound_by, budget_bound) =
        worst.map_or((0, "nothing reachable".to_owned(), false), |c| (c.attacker_tokens, c.bound_by, c.budget_bound));
    PlanAudit {
        form,
        budget_tokens: budget,
        // Records, objects and text can all be made to fill the budget; errors can as well.
        max_tokens: budget.max(error_max),
        attacker_tokens,
        bound_by,
        budget_bound,
        error_text_tokens,
        knowledge: if fields.iter().any(|f| f.knowledge == Knowledge::Assumed) {
            Knowledge::Assumed
        } else {
            seen.knowledge
        },
        cases,
        fields,
    }
}

/// The fields of one record under `schema`: each field's audit, the upstream text a record
/// can hold (`None`: uncapped), and a record's own cost besides that text (braces, keys,
/// quotes, and the comma before it).
fn fields_of(plan: &ShapePlan, schema: Option<&Value>, tok: &Tokenizer) -> (Vec<FieldAudit>, Option<usize>, usize) {
    let fields: Vec<FieldAudit> = plan.project.iter().map(|p| field_audit(plan, p, schema)).collect();
    let per_record = if plan.project.is_empty() {
        None
    } else {
        fields.iter().try_fold(0usize, |sum, f| f.tokens().map(|t| sum.saturating_add(t)))
    };
    let skeleton: Map<String, Value> =
        fields.iter().filter(|f| f.free_text).map(|f| (f.name.clone(), Value::String(String::new()))).collect();
    let record_fixed = tok.count(&to_neutral_json(&Value::Object(skeleton))) + 1;
    (fields, per_record, record_fixed)
}

fn bounded(kind: AnswerKind, room: usize, tokens: usize, why: String) -> CaseAudit {
    if tokens >= room {
        return budget_case(kind, room, "budget");
    }
    CaseAudit { kind, attacker_tokens: tokens, bound_by: why, budget_bound: false }
}

fn budget_case(kind: AnswerKind, room: usize, why: &str) -> CaseAudit {
    CaseAudit { kind, attacker_tokens: room, bound_by: why.to_owned(), budget_bound: true }
}

/// The records of `fixed + text` tokens each that fit `room`, and the upstream text they
/// hold: every whole record at its full `text`, then one more record with what is left
/// after its own fixed cost. The first record has no comma before it, hence one more token.
pub fn fit(room: usize, fixed: usize, text: usize, limit: Option<usize>) -> (usize, usize) {
    if text == 0 {
        return (0, 0);
    }
    let room = room + 1;
    let whole = room / (fixed + text);
    if let Some(limit) = limit
        && whole >= limit
    {
        return (limit, limit * text);
    }
    let rest = room - whole * (fixed + text);
    let partial = rest.saturating_sub(fixed);
    (whole + usize::from(partial > 0), whole * text + partial)
}

fn field_audit(plan: &ShapePlan, projection: &Projection, item_schema: Option<&Value>) -> FieldAudit {
    let cap = plan.field_tokens.get(&projection.name).copied().or(plan.default_field_tokens);
    let segments = projection.path.segments();
    let assumed = || FieldAudit {
        name: projection.name.clone(),
        path: projection.path.to_string(),
        free_text: true,
        strings: (!projection.path.fans_out()).then_some(1),
        string_tokens: cap,
        knowledge: Knowledge::Assumed,
    };
    let Some(schema) = item_schema else { return assumed() };
    // Walk the schema, multiplying the strings by each fan-out's `maxItems`.
    let mut node = schema;
    let mut strings: Option<usize> = Some(1);
    for seg in segments {
        let next = match seg {
            Segment::Key(k) => node.get("properties").and_then(|p| p.get(k)),
            Segment::Index(_) => node.get("items"),
            Segment::Each => {
                let max = node.get("maxItems").and_then(Value::as_u64).map(|n| n as usize);
                strings = strings.zip(max).map(|(a, b)| a.saturating_mul(b));
                node.get("items")
            }
        };
        match next {
            Some(n) => node = n,
            None => return assumed(),
        }
    }
    let (free_text, string_tokens, strings) = leaf(node, cap, strings);
    FieldAudit {
        name: projection.name.clone(),
        path: projection.path.to_string(),
        free_text,
        strings,
        string_tokens,
        knowledge: Knowledge::Schema,
    }
}

/// Whether a schema leaf is free text, how many tokens one of its strings can show, and how
/// many strings it holds.
fn leaf(node: &Value, cap: Option<usize>, strings: Option<usize>) -> (bool, Option<usize>, Option<usize>) {
    let constrained = ["enum", "const", "format", "pattern"].iter().any(|k| node.get(*k).is_some());
    let is_string = has_type(node, "string");
    if is_string && !has_type(node, "object") && !has_type(node, "array") {
        if constrained {
            return (false, Some(0), strings);
        }
        let by_length = node.get("maxLength").and_then(Value::as_u64).map(|n| (n as usize) * TOKENS_PER_CHAR_MAX);
        let tokens = match (cap, by_length) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        return (true, tokens, strings);
    }
    if has_type(node, "array") {
        // A list of strings: each capped, the count bounded by `maxItems` alone.
        let max = node.get("maxItems").and_then(Value::as_u64).map(|n| n as usize);
        return match node.get("items") {
            Some(items) => leaf(items, cap, strings.zip(max).map(|(a, b)| a.saturating_mul(b))),
            None => (true, cap, None),
        };
    }
    let typed = node.get("type").is_some();
    let scalar = ["integer", "number", "boolean", "null"].iter().any(|t| has_type(node, t));
    if typed && scalar && !has_type(node, "object") {
        return (false, Some(0), strings);
    }
    // An object (its keys and nesting are the upstream's), or a value of any type.
    (true, cap, None)
}

fn has_type(node: &Value, name: &str) -> bool {
    match node.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(ts)) => ts.iter().any(|t| t.as_str() == Some(name)),
        _ => false,
    }
}

/// The schema node at `segments` of `root`, following `properties` and `items`.
fn resolve<'s>(root: &'s Value, segments: &[Segment]) -> Option<&'s Value> {
    let mut node = root;
    for seg in segments {
        node = match seg {
            Segment::Key(k) => node.get("properties")?.get(k)?,
            Segment::Index(_) | Segment::Each => node.get("items")?,
        };
    }
    Some(node)
}
