//! The questions asked of the twenty-second part's first half: results of MCP servers and
//! of the services behind them. What a user of each tool asks of its result: which
//! requests of a page load failed and which host got the most (the DevTools network list),
//! which repositories and files use a variable (a code search), what a service cost on a
//! day and which account spent most (Cost Explorer), and which audit or script wastes the
//! most (a Lighthouse report); records are named from the middle and the end of each
//! result as well as its start. Every answer is computed from the generated data.

mod code;
mod cost;
mod lighthouse;
mod network;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::{Question, value};

/// The array at `path` of `v` (the root for `""`), or nothing.
fn list<'v>(v: &'v Value, path: &str) -> &'v [Value] {
    value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice)
}

/// How many times `s` occurs in `raw`, as it is written there (JSON escapes and all).
fn occurrences(raw: &str, s: &str) -> usize {
    let written = serde_json::to_string(s).unwrap_or_default();
    raw.matches(written.trim_matches('"')).count()
}

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "github_search_code" => code::code_questions(v),
        "aws_cost_and_usage" => cost::cost_questions(v),
        "lighthouse_report" => lighthouse::lighthouse_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about one of this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let qs = match name {
        "chrome_devtools_network_requests" => network::network_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
