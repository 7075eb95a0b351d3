//! The questions asked of the thirtieth part's first half: results of MCP servers and of
//! the services behind them. What a user of each tool asks of its result: a person's
//! title, time zone, e-mail or status by name, handle or id, how many members are
//! admins, bots, guests, deactivated or in a time zone, which time zone is commonest and
//! whose profile changed last (a Slack member list); a series' value at a given time,
//! its peak, its lowest point and its latest value, how many points a series has and
//! how many came back partial, which series or instance peaked highest and when
//! requests or latency peaked (a CloudWatch GetMetricData answer); a model's downloads,
//! likes, task, library, gating and dates by its id, how many models are gated or of a
//! task or library, which has the most likes, downloads or files, which is newest or
//! trending (a Hugging Face model search); a release's publish date, author and assets
//! by its tag, an asset's downloads, size and digest by its name, how many releases are
//! prereleases and how many assets there are, which release or asset was downloaded
//! most and which asset is largest (a GitHub release list). Records are named from the
//! middle and the end of each result as well as its start, and every answer is computed
//! from the data.

mod cloudwatch;
mod github_releases;
mod huggingface;
mod slack_users;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::{field, list, number};

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "slack_users_list" => slack_users::slack_users_questions(v),
        "cloudwatch_get_metric_data" => cloudwatch::cloudwatch_questions(v),
        "huggingface_models_search" => huggingface::huggingface_questions(v),
        "github_list_releases" => github_releases::github_releases_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about one of this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    // This half's shapes are all JSON.
    let _ = (name, t);
    None
}
