//! The questions asked of the twenty-third part's first half: results of MCP servers and
//! of the services behind them. What a user of each tool asks of its result: who sent a
//! message, what it is about and what is attached, and how many are unread (a Gmail
//! page); what a text node says, which component an instance uses and which frame holds
//! the most (a Figma file); which image a Deployment runs, what it requests and which are
//! short of ready replicas (a Kubernetes resource list); and which action items are still
//! open and what a meeting decided (a Notion page's blocks). Records are named from the
//! middle and the end of each result as well as its start, and every answer is computed
//! from the generated data.

mod figma;
mod gmail;
mod k8s;
mod notion;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::{Question, value};
use crate::record_questions::{end, lookup_by};

/// The array at `path` of `v` (the root for `""`), or nothing.
fn list<'v>(v: &'v Value, path: &str) -> &'v [Value] {
    value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice)
}

/// The ordinal words of the first records, for questions about either end.
const ORDINALS: [&str; 3] = ["", "second ", "third "];

/// A lookup of the record `f` (0..1) of the way down `items`, or the next after it whose
/// key `key` gives no other record: "{q}" with `{key}` replaced, answered by the key and
/// what `answer` gives, together.
fn find<T>(
    items: &[T],
    f: f64,
    q: &str,
    key: impl Fn(&T) -> Option<String>,
    answer: impl Fn(&T) -> Option<Vec<String>>,
) -> Option<Question> {
    lookup_by(items, f, q, |x| key(x).map(|k| vec![k]), answer)
}

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "gmail_messages" => gmail::gmail_questions(list(v, "")),
        "figma_file_nodes" => figma::figma_questions(v),
        "notion_block_children" => notion::notion_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about one of this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let qs = match name {
        "k8s_resources_yaml" => k8s::k8s_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
