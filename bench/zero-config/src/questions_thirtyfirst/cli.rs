//! The questions asked of the thirty-first part's second half: the output of command-line
//! tools, all text, read back into records first (`cli/readers.rs`) and asked about as
//! their users ask:
//!
//! - `ip_s_s_link` (`cli/ip_link.rs`): a pod veth's received and sent bytes and packets
//!   and its transmit drops, the network namespace behind it, a link's state, MTU and
//!   ifindex, a port's CRC errors, bond and altname, multicast; which veth moved the most
//!   or least or dropped the most, which link flapped most or counts the most CRC errors,
//!   how many links, veths, down links and veths with drops there are; the first links
//!   with their MTU and the loopback's traffic, the last links with theirs.
//! - `dig_axfr` (`cli/dig.rs`): what a host resolves to over IPv4 and IPv6, where a CNAME
//!   points, a TXT record's TTL, which SRV record names a host on which port, a BMC's
//!   address, the wildcard's answer; how many A, AAAA, CNAME, TXT, SRV, BMC and
//!   short-TTL records there are and how many the transfer held, which address the most
//!   names share, which site has the most hosts, which name round-robins most and which
//!   CNAME target is most used; the SOA, name servers, first MX, SPF, dig version and
//!   server at the top; the footer and the last records before the closing SOA.
//! - `cargo_test_workspace` (`cli/cargo_test.rs`): whether a test or doc-test passed, why
//!   one is ignored, where a failing one panicked, which executable runs a test file; how
//!   many tests passed, failed, were ignored or ran past a minute, how many binaries,
//!   doc-test crates, doc-tests and failed targets there were, which binary ran the most
//!   tests, took longest, ignored or failed the most; the build time, first crate
//!   compiled, first binary and its first tests; the failed targets, the last doc-tests
//!   and the last tests.
//! - `virsh_domstats` (`cli/virsh.rs`): a guest's memory, disk image, vCPUs, tap device,
//!   received bytes, disk writes, CPU time, major faults and data disk size; how many
//!   domains there are, running, shut off or paused, how many vCPUs the running ones hold
//!   and how many report no memory statistics, which guest used the most CPU, network or
//!   disk, waited longest for a host CPU, has the least free memory or the most major
//!   faults; the first domains and the last.
//!
//! Every answer is computed from the result.

mod cargo_test;
mod dig;
mod ip_link;
mod readers;
mod virsh;

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
        "ip_s_s_link" => ip_link::ip_link_questions(t),
        "dig_axfr" => dig::dig_questions(t),
        "cargo_test_workspace" => cargo_test::cargo_test_questions(t),
        "virsh_domstats" => virsh::virsh_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
