//! Which of `toolshape shape`'s plan flags had nothing to act on, and why: a flag that
//! changes nothing must say so rather than let its user believe it worked.
//!
//! Record flags (`--records`, `--project`, `--sort`, `--filter`, `--field-tokens`) act on a
//! list of JSON records; on text none of them applies, on a single JSON object only
//! `--project` and `--field-tokens` do. `--keep` acts on text only. A `--sort` key that no
//! record has leaves the records in their original order.

use serde_json::Value;
use toolshape_shape::{Data, ShapeContext, ShapePlan, Shaped, Shaper, SortSpec};

/// The plan flags given on the command line, by name.
#[derive(Debug, Default)]
pub(crate) struct GivenFlags {
    pub(crate) records: bool,
    pub(crate) project: bool,
    pub(crate) sort: bool,
    pub(crate) filter: bool,
    pub(crate) field_tokens: bool,
    pub(crate) keep: bool,
}

/// What kind of result the shaper found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Records,
    Object,
    OtherValue,
    Text,
}

fn kind(shaped: &Shaped) -> Kind {
    if shaped.report.records_total.is_some() {
        return Kind::Records;
    }
    match &shaped.envelope.data {
        Data::Text(_) => Kind::Text,
        Data::Value(Value::Object(_)) => Kind::Object,
        Data::Records(_) => Kind::Records,
        Data::Value(_) | Data::Null => Kind::OtherValue,
    }
}

/// One line per flag (or group of flags) that changed nothing, saying why.
pub(crate) fn notes(
    given: &GivenFlags,
    plan: &ShapePlan,
    shaped: &Shaped,
    input: &[u8],
    ctx: &ShapeContext<'_>,
) -> Vec<String> {
    let kind = kind(shaped);
    let mut unused: Vec<&str> = Vec::new();
    let record_flags = [
        (given.records, "--records"),
        (given.project, "--project"),
        (given.sort, "--sort"),
        (given.filter, "--filter"),
        (given.field_tokens, "--field-tokens"),
    ];
    let mut notes = Vec::new();
    match kind {
        Kind::Text | Kind::OtherValue => {
            unused.extend(record_flags.iter().filter(|(on, _)| *on).map(|(_, name)| *name));
            if !unused.is_empty() {
                let what = if kind == Kind::Text { "text" } else { "one JSON value that is not an object" };
                notes.push(format!(
                    "{} {} ignored: the result is {what}, and {} to lists of JSON records",
                    unused.join(", "),
                    if unused.len() == 1 { "was" } else { "were" },
                    if unused.len() == 1 { "it applies" } else { "they apply" },
                ));
            }
        }
        Kind::Object => {
            unused.extend(
                [(given.records, "--records"), (given.sort, "--sort"), (given.filter, "--filter")]
                    .iter()
                    .filter(|(on, _)| *on)
                    .map(|(_, name)| *name),
            );
            if !unused.is_empty() {
                notes.push(format!(
                    "{} {} ignored: the result is one JSON object, not a list of records (--project and \
                     --field-tokens do apply to it)",
                    unused.join(", "),
                    if unused.len() == 1 { "was" } else { "were" },
                ));
            }
        }
        Kind::Records => {
            if let Some(sort) = plan.sort.as_ref().filter(|_| given.sort)
                && shaped.report.records_total.unwrap_or(0) > 0
                && !any_record_has(sort, plan, input, ctx)
            {
                notes.push(format!(
                    "--sort `{}` changed nothing: no record has a value at `{}`, so the records keep their \
                     original order",
                    sort.by, sort.by
                ));
            }
        }
    }
    if given.keep && kind != Kind::Text {
        notes.push("--keep was ignored: it chooses which lines of a text result to keep".to_owned());
    }
    notes
}

/// Whether any record (after the plan's filter, before projection) has a non-null value at
/// the sort key. Reads the records the way the shaper located them: a second pass over the
/// input, made only when `--sort` was given.
fn any_record_has(sort: &SortSpec, plan: &ShapePlan, input: &[u8], ctx: &ShapeContext<'_>) -> bool {
    let probe = ShapePlan {
        records: plan.records.clone(),
        filter: plan.filter.clone(),
        budget_tokens: plan.budget_tokens,
        ..ShapePlan::default()
    };
    let Ok(shaper) = Shaper::new(probe) else { return true };
    let snapshot = shaper.snapshot(input, ctx);
    let Ok(Value::Array(records)) = serde_json::from_slice::<Value>(&snapshot.bytes) else { return true };
    records.iter().any(|record| sort.by.get(record).is_some_and(|v| !v.is_null()))
}
