//! Advice for a tool `audit` flags: the `result:` lines that bring its ceiling under the
//! threshold, each checked by auditing the plan with them before it is offered.
//!
//! In order: declare where the list is (`records`), so that a plain-text or single-object
//! answer is ruled out; cap each uncapped free-text field (`field_tokens`), at the largest
//! cap that keeps the ceiling under the threshold; project the fields the model needs when
//! nothing is projected; and, when caps alone are not enough, lower `budget_tokens`. What no
//! line can bound (a list inside a record whose length the upstream chooses, without an output
//! schema's `maxItems`) is said, with the way out.

use serde::Serialize;
use serde_json::Value;
use toolshape_shape::FieldPath;
use toolshape_shape::{ShapePlan, TextSpec};
use toolshape_tokens::Tokenizer;

use crate::audit::{Knowledge, PlanAudit, audit_plan};

/// The smallest cap offered for a free-text field, in tokens.
const MIN_CAP: usize = 8;
/// The largest cap tried for a free-text field, in tokens.
const MAX_CAP: usize = 400;
/// The cap offered when no cap is enough on its own (a title's worth).
const FALLBACK_CAP: usize = 40;

/// What to write for one flagged tool.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Advice {
    /// YAML lines to set under the mask's `result:` (each replaces a key already there).
    pub lines: Vec<String>,
    /// The ceiling with those lines, in tokens.
    pub attacker_tokens: usize,
    /// Whether the tool passes with them.
    pub passes: bool,
    /// What the lines cannot do, and what to do instead.
    pub remaining: Vec<String>,
}

/// Advice for `plan`, flagged at `threshold`; `None` when it is not flagged or nothing helps.
pub fn advise(
    plan: &ShapePlan,
    tool: &str,
    schema: Option<&Value>,
    tok: &Tokenizer,
    threshold: usize,
) -> Option<Advice> {
    let flagged = |a: &PlanAudit| a.budget_bound || a.attacker_tokens > threshold;
    let before = audit_plan(plan, tool, schema, tok);
    if !flagged(&before) {
        return None;
    }
    let budget_only = |why: String| {
        Some(Advice { lines: Vec::new(), attacker_tokens: before.attacker_tokens, passes: false, remaining: vec![why] })
    };
    // A mask that declares how its text is cut answers text by design: only the budget
    // bounds text, so it stays flagged, and says so.
    if plan.text != TextSpec::default() {
        return budget_only(format!(
            "it answers text by design (`text:` is set), which only `budget_tokens` ({}) bounds: flagged on purpose; \
             lower the budget to let less upstream text through",
            plan.budget_tokens
        ));
    }
    if plan.project.is_empty() && schema.is_none() {
        return budget_only(
            "nothing is projected: if it answers records, write `records:` (where the list is) and `project: [...]` \
             (the fields the model needs; `audit --live` reads them from the output schema); if it answers text (a \
             file, a page), only `budget_tokens` bounds it and it is flagged on purpose"
                .to_owned(),
        );
    }
    let mut plan = plan.clone();
    let mut lines = Vec::new();
    let mut remaining = Vec::new();

    // 1. Where the list is: rules out text and single-object answers.
    if plan.records.is_none() && before.cases.len() > 1 {
        let (path, exact) = schema.and_then(list_property).map_or(("items".to_owned(), false), |p| (p, true));
        if let Ok(parsed) = FieldPath::parse(&path) {
            plan.records = Some(parsed);
            lines.push(if exact {
                format!("records: {path}")
            } else {
                "records: items   # where the list is in the answer (`$` when the answer is the list)".to_owned()
            });
        }
    }

    // 2. A projection, when there is none: the item schema's fields when known.
    if plan.project.is_empty() {
        let fields = schema.and_then(|s| item_fields(s, plan.records.as_ref()));
        match fields {
            Some(fields) if !fields.is_empty() => {
                plan.project = fields.iter().filter_map(|f| f.parse().ok()).collect();
                lines.push(format!("project: [{}]", fields.join(", ")));
            }
            _ => {
                remaining.push(
                    "nothing is projected, so the upstream's keys pass through: add `project: [...]` with the \
                     fields the model needs (with `--live`, the output schema names them)"
                        .to_owned(),
                );
            }
        }
    }

    // 3. Caps on free-text fields, at the largest one that passes.
    let audited = audit_plan(&plan, tool, schema, tok);
    let uncapped: Vec<String> =
        audited.fields.iter().filter(|f| f.free_text && f.string_tokens.is_none()).map(|f| f.name.clone()).collect();
    // Fields that fan out cannot be bounded by a cap; the caps are sized for the others.
    let fan_names: Vec<String> =
        audited.fields.iter().filter(|f| f.free_text && f.strings.is_none()).map(|f| f.name.clone()).collect();
    if !uncapped.is_empty() {
        let with_cap = |cap: usize| {
            let mut p = plan.clone();
            for name in &uncapped {
                p.field_tokens.insert(name.clone(), cap);
            }
            p.project.retain(|f| !fan_names.contains(&f.name));
            p
        };
        let passes_at = |cap: usize| !flagged(&audit_plan(&with_cap(cap), tool, schema, tok));
        // When no cap is enough on its own, a title-sized one, and the budget below does the rest.
        let cap = largest(MIN_CAP, MAX_CAP, passes_at).unwrap_or(FALLBACK_CAP);
        for name in &uncapped {
            plan.field_tokens.insert(name.clone(), cap);
        }
        let caps: Vec<String> = uncapped.iter().map(|n| format!("{n}: {cap}")).collect();
        lines.push(format!("field_tokens: {{ {} }}", caps.join(", ")));
    }
    let fans: Vec<String> = audit_plan(&plan, tool, schema, tok)
        .fields
        .iter()
        .filter(|f| f.free_text && f.strings.is_none())
        .map(|f| format!("`{}` ({})", f.name, f.path))
        .collect();
    if !fans.is_empty() {
        remaining.push(format!(
            "{} {} a list whose length the upstream chooses: drop {} from `project`, or audit with --live against an \
             output schema that sets `maxItems`",
            fans.join(", "),
            if fans.len() == 1 { "is" } else { "are" },
            if fans.len() == 1 { "it" } else { "them" }
        ));
    }

    // 4. Still over, but bounded: a smaller budget.
    let audited = audit_plan(&plan, tool, schema, tok);
    if !audited.budget_bound && audited.attacker_tokens > threshold {
        let with_budget = |b: usize| {
            let mut p = plan.clone();
            p.budget_tokens = b;
            p
        };
        let floor = toolshape_shape::MIN_BUDGET_TOKENS;
        if let Some(budget) =
            largest(floor, plan.budget_tokens, |b| !flagged(&audit_plan(&with_budget(b), tool, schema, tok)))
        {
            plan = with_budget(budget);
            lines.push(format!("budget_tokens: {budget}"));
        }
    }
    let after = audit_plan(&plan, tool, schema, tok);
    if lines.is_empty() && remaining.is_empty() {
        return None;
    }
    if after.knowledge == Knowledge::Assumed && !flagged(&after) {
        remaining
            .push("figures assume the answer's shape; `audit --live` checks them against the output schema".to_owned());
    }
    Some(Advice { lines, attacker_tokens: after.attacker_tokens, passes: !flagged(&after), remaining })
}

/// The largest `x` in `low..=high` for which `ok` holds, when `ok` holds for smaller values
/// whenever it holds for a larger one.
fn largest(low: usize, high: usize, ok: impl Fn(usize) -> bool) -> Option<usize> {
    if high < low || !ok(low) {
        return None;
    }
    let (mut lo, mut hi) = (low, high);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if ok(mid) { lo = mid } else { hi = mid - 1 }
    }
    Some(lo)
}

/// The name of the answer's list property, from an output schema.
fn list_property(schema: &Value) -> Option<String> {
    let props = schema.get("properties")?.as_object()?;
    props.iter().find(|(_, v)| v.get("type").and_then(Value::as_str) == Some("array")).map(|(k, _)| k.clone())
}

/// The scalar fields of one list item, from an output schema (at most eight).
fn item_fields(schema: &Value, records: Option<&FieldPath>) -> Option<Vec<String>> {
    let mut node = schema;
    if let Some(path) = records {
        for segment in path.to_string().split('.').filter(|s| !s.is_empty() && *s != "$") {
            node = node.get("properties")?.get(segment)?;
        }
        node = node.get("items")?;
    }
    let props = node.get("properties")?.as_object()?;
    Some(
        props
            .iter()
            .filter(|(_, v)| {
                matches!(v.get("type").and_then(Value::as_str), Some("string" | "integer" | "number" | "boolean"))
            })
            .map(|(k, _)| k.clone())
            .take(8)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_finds_the_edge() {
        assert_eq!(largest(1, 100, |x| x <= 37), Some(37));
        assert_eq!(largest(1, 100, |_| true), Some(100));
        assert_eq!(largest(5, 100, |x| x < 5), None);
    }
}
