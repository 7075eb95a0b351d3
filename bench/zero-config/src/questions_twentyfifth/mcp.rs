//! The questions asked of the twenty-fifth part's first half: results of MCP servers and of
//! the services behind them. What a user of each tool asks of its result: which alerts
//! fire and since when, a rule's state, `for` and severity, how many rules are unhealthy
//! and which group evaluates slowest (Prometheus rules); a file's size, sha or mode, how
//! many Go files a folder holds and which blob is largest (a GitHub git tree); an issue's
//! rule, severity, line and effort, how many BLOCKER bugs there are and which file, author
//! and rule have the most issues (SonarQube issues); a role's attached policies, trust and
//! last use, a user's groups, how many roles trust a service and which user is in the most
//! groups (IAM authorization details). Records are named from the middle and the end of
//! each result as well as its start, and every answer is computed from the generated data.

mod git_tree;
mod iam;
mod prometheus;
mod sonarqube;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::{Question, text};
use crate::record_questions::list;
use crate::record_questions::lookup_one as lookup;

/// The string (or number, as JSON writes it) at `field` of `x`, or an empty string.
fn field(x: &Value, name: &str) -> String {
    x.get(name).filter(|v| !v.is_null()).map(text).unwrap_or_default()
}

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "prometheus_rules" => prometheus::prometheus_questions(v),
        "github_git_tree" => git_tree::git_tree_questions(v),
        "sonarqube_issues" => sonarqube::sonarqube_questions(v),
        "aws_iam_authorization_details" => iam::iam_questions(v),
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
