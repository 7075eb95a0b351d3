//! The questions asked of the twenty-ninth part's first half: results of MCP servers and
//! of the services behind them. What a user of each tool asks of its result: a commit's
//! author, date and title by its sha, which pull request a merge commit merged, how many
//! commits an author made, how many are merges or unverified and who committed most (a
//! GitHub commit list); an incident's short description, state, priority and assignee by
//! its number, how many are P1, open or reassigned more than twice, which was reassigned
//! most or took longest to resolve (a ServiceNow incident query); a question's score,
//! views and answers by its id or title, how many are answered, accepted or carry a tag,
//! which is the most viewed or highest scored (a Stack Overflow search); an engine's
//! verdict, a section's entropy, a library's imported functions, how many engines flagged
//! the file and which section or library stands out (a VirusTotal file report). Records
//! are named from the middle and the end of each result as well as its start, and every
//! answer is computed from the data.

mod github_commits;
mod servicenow;
mod stackexchange;
mod virustotal;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::{field, list, number};

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "github_list_commits" => github_commits::github_commits_questions(v),
        "servicenow_incidents" => servicenow::servicenow_questions(v),
        "stackexchange_search" => stackexchange::stackexchange_questions(v),
        "virustotal_file_report" => virustotal::virustotal_questions(v),
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
