//! The questions asked of `virsh domstats`: what the admin of an overcommitted hypervisor
//! asks (a guest's memory, disk image, vCPUs, tap device, traffic, writes, CPU time, page
//! faults and data disk size; how many domains there are and how many are running, shut
//! off or paused, how many vCPUs the running ones hold, which guest used the most CPU,
//! network or disk, waited longest for a host CPU or has the least free memory; the
//! first domains and the last).

use super::readers::{DomainStats, ask, domain_stats, pick_at};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, together};

/// Every question about the output `t`.
pub(crate) fn virsh_questions(t: &str) -> Vec<Option<Question>> {
    let all = domain_stats(t);
    let mut qs = lookups(t, &all);
    qs.extend(aggregates(&all));
    qs.extend(ends(&all, false));
    qs.extend(ends(&all, true));
    qs
}

fn active(d: &DomainStats) -> bool {
    d.get("state.state") != "5"
}

/// A value as an answer: short ones (`4`, `1`) with their key, as they read in the output
/// (`vcpu.current=4`), so they are not any digit anywhere.
fn written(key: &str, v: String) -> String {
    if v.len() < 4 { format!("{key}={v}") } else { v }
}

/// A lookup of the domain `f` of the way down `list` that has `key`, answered by its value.
fn about(t: &str, list: &[&DomainStats], f: f64, text: &str, key: &str) -> Option<Question> {
    // The name must be no other domain's name nor part of one.
    let once = |d: &&DomainStats| t.matches(&format!("'{}'", d.name)).count() == 1 && !d.get(key).is_empty();
    let d = pick_at(list, f, once)?;
    ask(text.replace("{key}", &d.name), &d.name, &[written(key, d.get(key))])
}

fn lookups(t: &str, all: &[DomainStats]) -> Vec<Option<Question>> {
    let every: Vec<&DomainStats> = all.iter().collect();
    let running: Vec<&DomainStats> = all.iter().filter(|d| active(d)).collect();
    let mut qs = Vec::new();
    for f in [0.2, 0.5, 0.8] {
        qs.push(about(
            t,
            &running,
            f,
            "How much memory does {key} have now (balloon.current, KiB)?",
            "balloon.current",
        ));
    }
    qs.push(about(t, &every, 0.35, "Which disk image does {key}'s first disk (vda) use?", "block.0.path"));
    qs.push(about(t, &every, 0.65, "How many vCPUs does {key} have?", "vcpu.current"));
    qs.push(about(t, &running, 0.9, "Which tap device is {key}'s first network interface?", "net.0.name"));
    qs.push(about(t, &running, 0.1, "How many bytes has {key} received on its first interface?", "net.0.rx.bytes"));
    qs.push(about(t, &running, 0.55, "How many bytes has {key} written to its vda?", "block.0.wr.bytes"));
    qs.push(about(t, &running, 0.75, "How much CPU time (cpu.time, ns) has {key} used?", "cpu.time"));
    qs.push(about(t, &running, 0.45, "How many major page faults has {key}'s guest reported?", "balloon.major_fault"));
    let with_data: Vec<&DomainStats> = all.iter().filter(|d| d.get("block.1.name") == "vdb").collect();
    qs.push(about(t, &with_data, 0.5, "What is the capacity in bytes of {key}'s data disk (vdb)?", "block.1.capacity"));
    qs
}

fn aggregates(all: &[DomainStats]) -> Vec<Option<Question>> {
    let state = |s: &str| all.iter().filter(|d| d.get("state.state") == s).count();
    let running: Vec<&DomainStats> = all.iter().filter(|d| active(d)).collect();
    let by = |score: &dyn Fn(&DomainStats) -> u64| -> Vec<(u64, String)> {
        running.iter().map(|d| (score(d), d.name.clone())).collect()
    };
    let vcpus: u64 = all.iter().filter(|d| d.get("state.state") == "1").map(|d| d.num("vcpu.current")).sum();
    let no_stats = running.iter().filter(|d| d.get("balloon.unused").is_empty()).count();
    let free: Vec<(u64, String)> = running
        .iter()
        .filter(|d| !d.get("balloon.unused").is_empty())
        .map(|d| (d.num("balloon.unused"), d.name.clone()))
        .collect();
    vec![
        Some(count("How many domains does the host have?", &["domains"], all.len(), None)),
        Some(count(
            "How many domains are running (state.state=1)?",
            &["running", "state.state=1"],
            state("1"),
            Some("state.state"),
        )),
        Some(count(
            "How many domains are shut off (state.state=5)?",
            &["shut off", "state.state=5"],
            state("5"),
            Some("state.state"),
        )),
        Some(count(
            "How many domains are paused (state.state=3)?",
            &["paused", "state.state=3"],
            state("3"),
            Some("state.state"),
        )),
        Some(count(
            "How many vCPUs do the running domains have in all?",
            &["vCPUs", "vcpu.current"],
            vcpus as usize,
            Some("vcpu.current"),
        )),
        Some(count(
            "How many active domains report no guest memory statistics (no balloon.unused)?",
            &["domains", "balloon"],
            no_stats,
            Some("balloon.unused"),
        )),
        extreme("Which domain has used the most CPU time?", by(&|d| d.num("cpu.time")), true, Some("cpu.time")),
        extreme(
            "Which domain has received the most network traffic?",
            by(&|d| d.sum("net.", ".rx.bytes")),
            true,
            Some("rx.bytes"),
        ),
        extreme(
            "Which domain has written the most bytes to its disks?",
            by(&|d| d.sum("block.", ".wr.bytes")),
            true,
            Some("wr.bytes"),
        ),
        extreme(
            "Which domain's vCPUs have waited longest for a host CPU (vcpu.N.delay)?",
            by(&|d| d.sum("vcpu.", ".delay")),
            true,
            Some("delay"),
        ),
        extreme("Which guest has the least free memory (balloon.unused)?", free, false, Some("balloon.unused")),
        extreme(
            "Which guest has had the most major page faults?",
            by(&|d| d.num("balloon.major_fault")),
            true,
            Some("major_fault"),
        ),
    ]
}

/// The statistics asked of the first domain (or the last), with how they are asked.
const ASKED: &[(&str, &str)] = &[
    ("state.state", "what state is it in (state.state)?"),
    ("balloon.current", "how much memory does it have now (balloon.current)?"),
    ("vcpu.current", "how many vCPUs does it have?"),
    ("block.0.path", "which image is its first disk?"),
    ("block.0.capacity", "how large is its first disk (block.0.capacity)?"),
    ("block.0.allocation", "how much of its first disk is allocated?"),
    ("state.reason", "why is it in that state (state.reason)?"),
    ("cpu.time", "how much CPU time has it used?"),
    ("net.0.name", "which tap device is its first interface?"),
];

/// Questions about the domains at the start (or, with `from_end`, at the end).
fn ends(all: &[DomainStats], from_end: bool) -> Vec<Option<Question>> {
    let (kind, place) = if from_end { (Kind::Tail, "last") } else { (Kind::Head, "first") };
    let nth = |k: usize| if from_end { all.len().checked_sub(k + 1).and_then(|i| all.get(i)) } else { all.get(k) };
    let mut qs = Vec::new();
    let Some(d) = nth(0) else { return qs };
    qs.push(Some(together(kind, format!("Which domain is listed {place}?"), None, &[&d.name])));
    for (key, asked) in ASKED {
        let v = d.get(key);
        if v.is_empty() {
            continue;
        }
        let answer = written(key, v);
        let text = format!("Of the domain listed {place}: {asked}");
        qs.push(Some(together(kind, text, None, &[&d.name, &answer])));
    }
    let words = if from_end { ["second to last", "third to last"] } else { ["second", "third"] };
    for (k, word) in words.iter().enumerate() {
        let Some(d) = nth(k + 1) else { continue };
        let text = format!("Which domain is listed {word}, and how much memory does it have?");
        qs.push(Some(together(kind, text, None, &[&d.name, &d.get("balloon.current")])));
    }
    qs
}
