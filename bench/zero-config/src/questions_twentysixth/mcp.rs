//! The questions asked of the twenty-sixth part's first half: results of MCP servers and of
//! the services behind them. What a user of each tool asks of its result: which
//! environments a flag is on in, what it serves by default and who maintains it, how many
//! flags are on in production and which was modified last (LaunchDarkly flags); a
//! pipeline's branch, trigger actor and commit, which job failed in a workflow, how many
//! workflows failed and which job took longest (CircleCI pipelines); a match's source,
//! section and score, how many matches come from a source and which chunk of a document
//! scores highest (a Pinecone query); a subscription's customer, price and quantity, how
//! many are past due and which has the largest monthly amount (Stripe subscriptions).
//! Records are named from the middle and the end of each result as well as its start, and
//! every answer is computed from the generated data.

mod circleci;
mod launchdarkly;
mod pinecone;
mod stripe;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::lookup_one as lookup;
use crate::record_questions::{field, list};

/// `first` followed by `rest`, or `None` when `rest` is empty (a question about a list
/// that has nothing in it is not asked).
fn with_all(first: String, rest: Vec<String>) -> Option<Vec<String>> {
    (!rest.is_empty()).then(|| std::iter::once(first).chain(rest).collect())
}

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "launchdarkly_flags" => launchdarkly::launchdarkly_questions(v),
        "circleci_pipelines" => circleci::circleci_questions(v),
        "pinecone_query" => pinecone::pinecone_questions(v),
        "stripe_subscriptions" => stripe::stripe_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about one of this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, _t: &str) -> Option<Vec<Question>> {
    // This half's shapes are all JSON.
    let _ = name;
    None
}
