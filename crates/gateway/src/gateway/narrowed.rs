//! A pattern view whose records were narrowed is partial, and says how to read one whole.
//!
//! `result_read` with a `pattern` keeps a large record's short values and what matched
//! (`toolshape_shape::make_view`). Shaped like any result, such a view fits and would read
//! `ok` with nothing omitted, although each narrowed record left members out. Here its
//! envelope becomes `partial`, `omitted` counts the narrowed records (reason `narrowed`),
//! and, when the view has no `next` of its own, `next` reads the first of them whole with a
//! query over the same stored result.

use serde_json::{Map, Value};
use toolshape_shape::{Next, Omitted, Original, RenderMode, Status, View};
use toolshape_tokens::Tokenizer;

use super::Outcome;
use crate::read::{self, ReadArgs};

/// The reason `omitted` gives for records a pattern narrowed.
pub(super) const REASON: &str = "narrowed";

/// What a narrowed view's envelope must say.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct NarrowedView {
    /// Records narrowed.
    count: u64,
    /// The call that reads the first of them whole.
    whole: Option<Next>,
}

impl NarrowedView {
    /// What `view`, made for `args`, narrowed; `None` when it narrowed nothing.
    pub(super) fn of(view: &View, args: &ReadArgs) -> Option<NarrowedView> {
        (view.narrowed > 0).then(|| NarrowedView {
            count: view.narrowed as u64,
            whole: view.first_narrowed.map(|at| {
                let mut arguments = Map::new();
                // The same token the model read with: a cursor, or a reference's handle.
                let name = if args.cursor.is_some() { "cursor" } else { "handle" };
                arguments.insert(name.into(), Value::String(args.token().to_owned()));
                arguments.insert("query".into(), Value::String(format!("$[{at}]")));
                Next { tool: read::TOOL_NAME.to_owned(), arguments }
            }),
        })
    }
}

/// `outcome` marked as a narrowed view (see the module's comment), rendered again with the
/// same nonce (`plan`: render mode and budget). An envelope already partial, empty or an
/// error keeps what it says; a mark that would take the answer over its budget loses its
/// `next` first, then is not made.
pub(super) fn mark(
    mut outcome: Outcome,
    narrowed: &NarrowedView,
    (render, budget): (RenderMode, usize),
    nonce: &str,
    tokenizer: Tokenizer,
) -> Outcome {
    if outcome.envelope.status != Status::Ok {
        return outcome;
    }
    let mut envelope = outcome.envelope.clone();
    envelope.status = Status::Partial;
    envelope.omitted = Some(Omitted {
        count: narrowed.count,
        unit: "records".into(),
        reason: REASON.into(),
        chars: None,
        fields_cut: None,
        fields: None,
        original: Original { bytes: outcome.report.bytes_in, records: outcome.report.records_total, lines: None },
    });
    let tries = match &narrowed.whole {
        Some(whole) => vec![Some(whole.clone()), None],
        None => vec![None],
    };
    for next in tries {
        envelope.next = next;
        let text = toolshape_shape::render(&envelope, render, nonce);
        let tokens = tokenizer.count(&text);
        if tokens <= budget {
            outcome.report.tokens_out = Some(tokens as u64);
            outcome.report.bytes_out = text.len() as u64;
            outcome.envelope = envelope;
            outcome.text = text;
            return outcome;
        }
    }
    outcome
}

#[cfg(test)]
#[path = "narrowed_tests.rs"]
mod tests;
