//! The questions asked of the twenty-seventh part's second half: the output of
//! command-line tools. `cargo metadata` and `tree -J` print JSON and are asked about as
//! they are (`cli/cargo.rs`, `cli/tree.rs`); `go list -m -json all` (JSON objects one
//! after another, not an array) and `ethtool -S` are text, read back into records first
//! (`cli/readers.rs`) and asked about as their users ask:
//!
//! - `cargo_metadata` (`cli/cargo.rs`): a package's version, license, minimum Rust
//!   version, repository, which package depends on one, the requirement a member
//!   declares; how many packages, members, build scripts, proc macros, which package
//!   declares or resolves the most dependencies; the first packages, the last nodes of
//!   the resolve graph and the workspace's directories.
//! - `tree_json` (`cli/tree.rs`): a file's size, owner, date and permissions, a
//!   folder's size; how many files a folder holds, how many PDFs or executables, the
//!   largest file and folder; the first entries and the last entries and report.
//! - `go_list_m_json` (`cli/golist.rs`): a module's version, publish time, Go version,
//!   replacement, whether it is indirect; how many modules are indirect, replaced or at a
//!   pseudo-version, the newest and oldest module; the main module and the first and
//!   last modules.
//! - `ethtool_s` (`cli/ethtool.rs`): a counter's value; how many queues there are, how
//!   many stopped, dropped or failed allocations, which queue carried or dropped the
//!   most; the first and last counters.
//!
//! Every answer is computed from the result.

mod cargo;
mod ethtool;
mod golist;
mod readers;
mod tree;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::{ORDINALS, to_last};

/// Every question about this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "cargo_metadata" => cargo::cargo_questions(v),
        "tree_json" => tree::tree_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let qs = match name {
        "go_list_m_json" => golist::go_list_questions(t),
        "ethtool_s" => ethtool::ethtool_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
