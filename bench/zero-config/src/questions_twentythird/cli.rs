//! The questions asked of the twenty-third part's second half: the output of
//! command-line tools. Semgrep's report is JSON and is asked about as it is
//! (`cli/semgrep.rs`); the MySQL client's vertical rows, the coverage report and the
//! schema dump are text, read back into records first (`cli/readers.rs`) and asked about
//! as a user of each tool would ask (`cli/mysql.rs`, `cli/coverage.rs`,
//! `cli/pgdump.rs`). Every answer is computed from the result.

mod coverage;
mod mysql;
mod pgdump;
mod readers;
mod semgrep;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::{about_record, lookup};

/// The record before the last of a list.
fn before_last(list: &[Value]) -> Option<&Value> {
    list.len().checked_sub(2).and_then(|i| list.get(i))
}

/// Every question about this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "semgrep_json" => semgrep::semgrep_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let qs = match name {
        "mysql_vertical_rows" => mysql::mysql_questions(t),
        "coverage_report" => coverage::coverage_questions(t),
        "pg_dump_schema" => pgdump::pg_dump_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
