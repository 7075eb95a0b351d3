//! The questions asked of the twenty-fourth part's second half: the output of
//! command-line tools. `docker inspect` prints JSON and is asked about as it is
//! (`cli/docker.rs`); `ip addr show`, `kubectl get all -A` and ffprobe's frame listing
//! are text, read back into records first (`cli/readers.rs`) and asked about as a user of
//! each tool would ask (`cli/ipaddr.rs`, `cli/kubectl.rs`, `cli/ffprobe.rs`). Every
//! answer is computed from the result.

mod docker;
mod ffprobe;
mod ipaddr;
mod kubectl;
mod readers;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::{about_record, lookup};

/// The record `back` places before the last of a list (0 is the last).
fn from_end(list: &[Value], back: usize) -> Option<&Value> {
    list.len().checked_sub(back + 1).and_then(|i| list.get(i))
}

/// Every question about this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "docker_inspect" => docker::docker_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let qs = match name {
        "ip_addr_show" => ipaddr::ip_addr_questions(t),
        "kubectl_get_all" => kubectl::kubectl_questions(t),
        "ffprobe_frames" => ffprobe::ffprobe_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
