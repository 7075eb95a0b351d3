//! The questions asked of the thirtieth part's second half: the output of command-line
//! tools, all text, read back into records first (`cli/readers.rs`) and asked about as
//! their users ask:
//!
//! - `redis_cli_info_all` (`cli/redis.rs`): a command's calls, time per call, failed
//!   calls and latency percentiles, a replica's offset and lag, an error class's count,
//!   the eviction policy and memory use; the most called, slowest and costliest
//!   commands, the highest p99, how many commands failed or were rejected, how many
//!   commands, error classes, databases and keys there are, the commonest error and the
//!   biggest database; the version, mode, OS, uptime, config file and clients at the top;
//!   the databases' keys, the cluster flag and the last latency lines at the bottom.
//! - `vmstat_wide_t` (`cli/vmstat.rs`): the memory, run queue, swap, IO, interrupt and CPU
//!   columns at a given time; when free memory bottomed out and IO wait, the run queue,
//!   context switches, writes and swap-out peaked, how many samples swapped in or out, had
//!   under 10% idle or 20% IO wait, how many samples there are; the first samples and the
//!   last.
//! - `systemctl_list_timers_all` (`cli/timers.rs`): when a timer runs next and ran last,
//!   how long until it fires or since it ran, which service it activates; how many timers
//!   there are, never ran, are stopped, are due within the hour or belong to a template,
//!   which runs soonest, ran longest ago or most recently, the template with the most
//!   instances; the first timers, the last and the footer.
//! - `git_status_porcelain_v2` (`cli/git_status.rs`): a file's status, where a rename came
//!   from, a conflict's kind, the index's object for a file; how many files are untracked,
//!   ignored, unmerged, renamed, staged or unstaged modified, deleted, added or in UU
//!   conflict, the top-level directory and service with the most changes and the folder
//!   with the most new files; the branch, upstream, HEAD and ahead/behind counts and the
//!   first entries; the last entries and the last untracked file.
//!
//! Every answer is computed from the result.

mod git_status;
mod readers;
mod redis;
mod timers;
mod vmstat;

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
        "redis_cli_info_all" => redis::redis_questions(t),
        "vmstat_wide_t" => vmstat::vmstat_questions(t),
        "systemctl_list_timers_all" => timers::timers_questions(t),
        "git_status_porcelain_v2" => git_status::git_status_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
