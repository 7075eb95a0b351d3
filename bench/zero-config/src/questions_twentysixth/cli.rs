//! The questions asked of the twenty-sixth part's second half: the output of command-line
//! tools. `lsblk -J -O` and `brew info --json=v2 --installed` print JSON and are asked
//! about as they are (`cli/lsblk.rs`, `cli/brew.rs`); `sysctl -a` and `conntrack -L` are
//! text, read back into records first (`cli/readers.rs`) and asked about as their users
//! ask:
//!
//! - `lsblk_json` (`cli/lsblk.rs`): where a partition or volume is mounted, its
//!   filesystem and size, which disk a logical volume sits on, a disk's model and serial;
//!   how many NVMe, rotating or loop devices and logical volumes there are, which
//!   filesystem is fullest; the first devices at the top, the last disks at the end.
//! - `sysctl_a` (`cli/sysctl.rs`): a key's value, the key holding a value; how many keys
//!   of an interface's `net.ipv6.conf` are 1, how many interfaces disable IPv6, which
//!   interface has the largest MTU; the first keys and the last `vm.*` keys.
//! - `conntrack_l` (`cli/conntrack.rs`): a flow's state, destination, endpoint and time
//!   left; how many flows are in TIME_WAIT or go to port 443, which source has the most
//!   flows; the first and last flows and the count line.
//! - `brew_info_json` (`cli/brew.rs`): a formula's installed version, license, homepage,
//!   whether it was installed on request, a cask's version; how many formulae are
//!   outdated or keg-only, which has the most runtime dependencies; the first formulae
//!   and the last casks.
//!
//! Every answer is computed from the result.

mod brew;
mod conntrack;
mod lsblk;
mod readers;
mod sysctl;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::{ORDINALS, to_last};

/// The record `back` places before the last of a list (0 is the last).
fn from_end(list: &[Value], back: usize) -> Option<&Value> {
    list.len().checked_sub(back + 1).and_then(|i| list.get(i))
}

/// Every question about this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "lsblk_json" => lsblk::lsblk_questions(v),
        "brew_info_json" => brew::brew_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let qs = match name {
        "sysctl_a" => sysctl::sysctl_questions(t),
        "conntrack_l" => conntrack::conntrack_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
