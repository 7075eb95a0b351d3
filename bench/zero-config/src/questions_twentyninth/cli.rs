//! The questions asked of the twenty-ninth part's second half: the output of command-line
//! tools, all text, read back into records first (`cli/readers.rs`) and asked about as
//! their users ask:
//!
//! - `cargo_clippy_json` (`cli/clippy.rs`): the lint and message at a file, line and
//!   column, the file and lint of a message, a suggested replacement, a dependency's
//!   version; how many warnings a crate or a lint has, how many errors, artifacts and
//!   build scripts, the file, lint and crate with the most warnings; the first lines and
//!   the last diagnostics, artifact and build result.
//! - `lspci_vvv` (`cli/lspci.rs`): a device's driver, NUMA node, IOMMU group, link speed
//!   and width and name by its address; how many devices a driver claims, NVMe drives,
//!   virtual functions, links below their capable speed, devices on node 1 or without a
//!   driver, the largest BAR; the first and last devices.
//! - `ls_lR` (`cli/ls.rs`): a file's size, owner, time and mode, a symlink's target; how
//!   many files a folder holds, entries root owns, symlinks, releases and sections, the
//!   largest, newest and oldest files and the biggest folder; the first sections and the
//!   last entries.
//! - `last_F` (`cli/last.rs`): when a session ended, its length and source; how many
//!   sessions a user or an address had, reboots, crashes, open sessions, the longest
//!   session and the busiest address and user; the first lines and the last, with the
//!   start of wtmp.
//!
//! Every answer is computed from the result.

mod clippy;
mod last;
mod ls;
mod lspci;
mod readers;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::{ORDINALS, to_last};

/// Every question about one of this half's JSON results; `None` for other shapes: they
/// are all text.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let _ = (name, v);
    None
}

/// Every question about one of this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let qs = match name {
        "cargo_clippy_json" => clippy::clippy_questions(t),
        "lspci_vvv" => lspci::lspci_questions(t),
        "ls_lR" => ls::ls_questions(t),
        "last_F" => last::last_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
