//! Questions about the twenty-first part's mcp half: what a user of each tool asks of its
//! result (who works on what in a knowledge graph, which files a pull request touched
//! most, which folder of a repository holds the most files, which tasks are due today),
//! with records named from the middle and the end of the result as well as the head.
//! Every answer is computed from the generated data.
//!
//! The knowledge graph and the Todoist tasks are lists of records read as they are; the
//! pull request's files too, with each file's folder and package worked out from its
//! path. The directory tree nests entries in entries, so it is first read into one record
//! per entry (`mcp/tree.rs`), with its parent's name and its counts of files.

mod files;
mod graph;
mod tasks;
mod tree;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::{Question, value};

/// The array at `path` of `v` (the root for `""`), or nothing.
fn list<'v>(v: &'v Value, path: &str) -> &'v [Value] {
    value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice)
}

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "memory_read_graph" => graph::graph_questions(list(v, "entities"), list(v, "relations")),
        "github_pull_request_files" => files::files_questions(list(v, "")),
        "filesystem_directory_tree" => tree::tree_questions(list(v, "")),
        "todoist_tasks" => tasks::task_questions(list(v, "")),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about one of this half's text results; `None` for other shapes (this
/// half's results are all JSON).
pub(crate) fn text_questions(_name: &str, _t: &str) -> Option<Vec<Question>> {
    None
}
