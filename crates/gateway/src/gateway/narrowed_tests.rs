//! Narrowed views by example: a pattern that narrows a large record makes the answer
//! partial, with the record's whole read offered, within the budget.

use serde_json::{Value, json};
use toolshape_shape::{ShapeContext, ShapePlan, Shaper, ViewSpec, make_view};
use toolshape_tokens::{Encoding, Tokenizer};

use super::*;
use crate::gateway::finish::NoContinuation;
use crate::read::ReadArgs;

const NONCE: &str = "amber copper maple river harbor";

/// The stored list: two small records and one large record holding the pattern's match.
fn stored() -> Vec<u8> {
    let large = json!({"id": "vm-7", "state": "running", "console": "boot ok\n".repeat(900), "tag": "blue"});
    json!([{"id": "vm-1", "tag": "red"}, large, {"id": "vm-9", "tag": "red"}]).to_string().into_bytes()
}

/// The view `arguments` ask for, shaped at `budget` tokens, and what it narrowed.
fn shaped_view(arguments: Value, budget: usize) -> (Outcome, Option<NarrowedView>) {
    let args = ReadArgs::parse(arguments.as_object()).unwrap();
    let spec = ViewSpec { pattern: args.pattern.clone(), query: args.query.clone(), ..ViewSpec::default() };
    let view = make_view(&stored(), &spec).unwrap();
    let shaper = Shaper::new(ShapePlan { budget_tokens: budget, ..ShapePlan::default() }).unwrap();
    let ctx = ShapeContext {
        tool: "list_vms",
        tokenizer: Tokenizer::new(Encoding::O200kBase),
        nonce: NONCE,
        now_unix: None,
        resume: None,
        continuation: &NoContinuation,
    };
    let s = shaper.shape(&view.bytes, &ctx).unwrap();
    let outcome = Outcome {
        text: s.text,
        envelope: s.envelope,
        report: s.report,
        failure: None,
        tools_changed: false,
        media: vec![],
    };
    (outcome, NarrowedView::of(&view, &args))
}

fn mark_at(outcome: Outcome, narrowed: &NarrowedView, budget: usize) -> Outcome {
    mark(outcome, narrowed, (RenderMode::Json, budget), NONCE, Tokenizer::new(Encoding::O200kBase))
}

#[test]
fn a_view_that_narrowed_a_record_is_partial_and_offers_it_whole() {
    let (outcome, narrowed) = shaped_view(json!({"cursor": "tok", "pattern": "running"}), 2000);
    // Shaped alone, the narrowed view reads as complete: what this step is for.
    assert_eq!(outcome.envelope.status, Status::Ok);
    let narrowed = narrowed.expect("the large record was narrowed");
    let marked = mark_at(outcome, &narrowed, 2000);
    assert_eq!(marked.envelope.status, Status::Partial);
    let omitted = marked.envelope.omitted.as_ref().unwrap();
    assert_eq!((omitted.count, omitted.unit.as_str(), omitted.reason.as_str()), (1, "records", REASON));
    let next = marked.envelope.next.as_ref().unwrap();
    assert_eq!(next.tool, "result_read");
    assert_eq!(Value::Object(next.arguments.clone()), json!({"cursor": "tok", "query": "$[1]"}));
    // The text the model reads is the marked envelope, counted.
    assert!(marked.text.contains("\"status\":\"partial\"") && marked.text.contains("\"query\":\"$[1]\""));
    let tokens = Tokenizer::new(Encoding::O200kBase).count(&marked.text) as u64;
    assert_eq!(marked.report.tokens_out, Some(tokens));
    assert!(tokens <= 2000);
}

#[test]
fn a_reference_handle_is_read_with_its_own_name() {
    let (outcome, narrowed) = shaped_view(json!({"handle": "ref", "pattern": "running"}), 2000);
    let marked = mark_at(outcome, &narrowed.unwrap(), 2000);
    let next = marked.envelope.next.unwrap();
    assert_eq!(Value::Object(next.arguments), json!({"handle": "ref", "query": "$[1]"}));
}

#[test]
fn nothing_narrowed_or_a_query_view_changes_what_is_said() {
    // Small records are kept whole: nothing to mark.
    let (_, narrowed) = shaped_view(json!({"cursor": "tok", "pattern": "red"}), 2000);
    assert_eq!(narrowed, None);
    // A query's records are not the stored list's: partial, but no `$[i]` to offer.
    let (outcome, narrowed) = shaped_view(json!({"cursor": "tok", "query": "$[1:]", "pattern": "running"}), 2000);
    let marked = mark_at(outcome, &narrowed.unwrap(), 2000);
    assert_eq!(marked.envelope.status, Status::Partial);
    assert_eq!(marked.envelope.next, None);
}

#[test]
fn a_mark_never_takes_the_answer_over_its_budget() {
    let (outcome, narrowed) = shaped_view(json!({"cursor": "tok", "pattern": "running"}), 2000);
    let narrowed = narrowed.unwrap();
    let tokenizer = Tokenizer::new(Encoding::O200kBase);
    let shown = tokenizer.count(&outcome.text);
    // Room for the status and `omitted` but not for the read: partial, without `next`.
    let with_all = tokenizer.count(&mark_at(outcome.clone(), &narrowed, 2000).text);
    let without_next = with_all - 10;
    let marked = mark_at(outcome.clone(), &narrowed, without_next);
    assert_eq!(marked.envelope.status, Status::Partial);
    assert_eq!(marked.envelope.next, None);
    assert!(tokenizer.count(&marked.text) <= without_next);
    // No room at all: the answer stays as it was.
    let unmarked = mark_at(outcome.clone(), &narrowed, shown);
    assert_eq!(unmarked.text, outcome.text);
    assert_eq!(unmarked.envelope.status, Status::Ok);
}
