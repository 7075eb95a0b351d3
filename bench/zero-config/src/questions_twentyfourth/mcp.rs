//! The questions asked of the twenty-fourth part's first half: results of MCP servers and
//! of the services behind them. What a user of each tool asks of its result: which
//! operation a span is, how long it took and what it returned, how many spans failed and
//! which query was slowest (a Jaeger trace); how much traffic a service had, its latency
//! percentiles, its busiest hour and which services returned 5xx (Elasticsearch
//! aggregations); an item's status, estimate and assignee and how many items are in a
//! status (a GitHub project board); a search's clicks and position, how many rows a
//! country or device has and which search or page gets the most (Search Console).
//! Records are named from the middle and the end of each result as well as its start,
//! and every answer is computed from the generated data.

mod elasticsearch;
mod github_project;
mod jaeger;
mod search_console;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::end;
use crate::record_questions::list;

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "jaeger_trace" => jaeger::jaeger_questions(v),
        "elasticsearch_aggs" => elasticsearch::elasticsearch_questions(v),
        "github_graphql_project_items" => github_project::project_questions(v),
        "search_console_query" => search_console::search_console_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about one of this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, _t: &str) -> Option<Vec<Question>> {
    let _ = name;
    None
}
