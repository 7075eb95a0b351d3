//! Questions about the twenty-first part's cli half: the text a command-line tool
//! prints, read back into records (`cli/readers.rs`) and asked about as a user of the
//! tool would ask (`cli/tools.rs` for the compiler and the search, `cli/pages.rs` for the
//! pod listing and the browser snapshot). Every answer is computed from the text.

mod pages;
mod readers;
mod tools;

use serde_json::Value;

use crate::question::Question;
use crate::questions_blind::lines;

/// Every question about one of this half's JSON results; `None` for other shapes (the
/// half has none).
pub(crate) fn json_questions(_name: &str, _v: &Value) -> Option<Vec<Question>> {
    None
}

/// Every question about one of this half's text results; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "tsc_noemit" => tools::tsc_questions(&ls),
        "rg_todo_search" => tools::rg_questions(&ls),
        "kubectl_get_pods_wide" => pages::pod_questions(&ls),
        "playwright_snapshot" => pages::snapshot_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests;
