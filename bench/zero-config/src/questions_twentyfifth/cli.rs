//! The questions asked of the twenty-fifth part's second half: the output of command-line
//! tools. `ansible-inventory --list` prints JSON and is asked about as it is
//! (`cli/ansible.rs`); `zpool status -v`, `nft list ruleset` and `git log --graph` are
//! text, read back into records first (`cli/readers.rs`) and asked about as their users
//! ask:
//!
//! - `zpool_status_v` (`cli/zpool.rs`): a pool's state and scan, a disk's state, vdev and
//!   READ/WRITE/CKSUM counts, the pool of a damaged file; how many disks are FAULTED,
//!   pools DEGRADED, files damaged, which disk has the most checksum errors; the first
//!   pool's header and disks, the last pool's last devices and errors line.
//! - `nft_list_ruleset` (`cli/nft.rs`): a chain's policy, hook and priority, a commented
//!   rule's counters and verdict, where a port forward or an endpoint DNATs to, which
//!   chain a Service's address goes to; how many rules drop or reject, how many elements a
//!   set holds, which rule counted the most packets; the first table's sets and input
//!   chain, the last chains of kube-proxy's table.
//! - `git_log_graph` (`cli/gitlog.rs`): who made a commit and when, its subject, which
//!   commit merged a pull request or carries a tag; how many commits an author made, how
//!   many merges there are, who committed or merged most; the newest and oldest commits.
//! - `ansible_inventory_list` (`cli/ansible.rs`): a host's address, datacenter, rack, OS,
//!   user, the host with an address or serial; how many hosts a group or datacenter
//!   holds, which group is largest; the first hosts' variables and the last groups' hosts.
//!
//! Every answer is computed from the result.

mod ansible;
mod gitlog;
mod nft;
mod readers;
mod zpool;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;

/// The record `back` places before the last of a list (0 is the last).
fn from_end(list: &[Value], back: usize) -> Option<&Value> {
    list.len().checked_sub(back + 1).and_then(|i| list.get(i))
}

/// Every question about this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "ansible_inventory_list" => ansible::ansible_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let qs = match name {
        "zpool_status_v" => zpool::zpool_questions(t),
        "nft_list_ruleset" => nft::nft_questions(t),
        "git_log_graph" => gitlog::git_log_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
