//! The questions asked of `ansible-inventory --list` of a fleet: what someone about to run
//! a playbook asks (a host's address, datacenter and rack, OS version, login user, team;
//! the host with an address or serial number; how many hosts a group, datacenter or
//! environment holds, how many are tagged for maintenance, which group is largest; the
//! first hosts' variables at the top and the hosts of the last groups at the end).

use serde_json::{Value, json};

use super::from_end;
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, only, scored_by};
use crate::record_questions::{about_record, lookup};

/// Every question about the inventory `v`.
pub(crate) fn ansible_questions(v: &Value) -> Vec<Option<Question>> {
    let hosts = hosts(v);
    let groups = groups(v);
    let mut qs = lookups(&hosts);
    qs.extend(aggregates(&hosts, &groups));
    qs.extend(heads_and_tails(&hosts, &groups));
    qs
}

/// Every host of `_meta.hostvars` with its variables and its name as `host`.
fn hosts(v: &Value) -> Vec<Value> {
    let Some(vars) = v["_meta"]["hostvars"].as_object() else { return Vec::new() };
    vars.iter()
        .map(|(name, vars)| {
            let mut h = vars.clone();
            h["host"] = json!(name);
            h
        })
        .collect()
}

/// Every group but `_meta` and `all`: `group`, `hosts` (the list), `size`, `children`.
fn groups(v: &Value) -> Vec<Value> {
    let Some(all) = v.as_object() else { return Vec::new() };
    all.iter()
        .filter(|(name, _)| *name != "_meta" && *name != "all")
        .map(|(name, g)| {
            let hosts = g["hosts"].as_array().cloned().unwrap_or_default();
            json!({"group": name, "size": hosts.len(), "hosts": hosts, "children": g["children"].clone(),
                   "first": hosts.first(), "last": hosts.last()})
        })
        .collect()
}

/// A host's address, place, OS, user, team; the host with an address or serial.
fn lookups(hosts: &[Value]) -> Vec<Option<Question>> {
    let grouped = only(hosts, |h| h["datacenter"].is_string());
    vec![
        lookup(&grouped, 0.2, "What is the ansible_host (IP address) of {key}?", "host", &["ansible_host"]),
        lookup(&grouped, 0.55, "What is the ansible_host (IP address) of {key}?", "host", &["ansible_host"]),
        lookup(&grouped, 0.85, "What is the ansible_host (IP address) of {key}?", "host", &["ansible_host"]),
        lookup(&grouped, 0.35, "Which datacenter and rack is {key} in?", "host", &["datacenter", "rack"]),
        lookup(&grouped, 0.7, "Which OS version does {key} run?", "host", &["os_version"]),
        lookup(&grouped, 0.45, "Which user does Ansible log in to {key} as?", "host", &["ansible_user"]),
        lookup(&grouped, 0.95, "Which team owns {key}?", "host", &["team"]),
        lookup(&grouped, 0.6, "Which host has the address {key}?", "ansible_host", &["host"]),
        lookup(&grouped, 0.25, "Which host has the hardware serial {key}?", "hw_serial", &["host"]),
        lookup(&grouped, 0.8, "How much memory (memory_gb) does {key} have?", "host", &["memory_gb"]),
    ]
}

/// How many hosts a group, datacenter, environment holds; which group is largest.
fn aggregates(hosts: &[Value], groups: &[Value]) -> Vec<Option<Question>> {
    let size = |name: &str| {
        groups
            .iter()
            .find(|g| g["group"] == name)
            .and_then(|g| g["size"].as_u64())
            .map(|n| count(&format!("How many hosts are in the group {name}?"), &[name], n as usize, Some("hosts")))
    };
    let n = |keep: &dyn Fn(&Value) -> bool| hosts.iter().filter(|h| keep(h)).count();
    let datacenter = hosts.iter().rev().find_map(|h| h["datacenter"].as_str()).unwrap_or_default();
    let tagged = |tag: &str| n(&|h| h["tags"].as_array().is_some_and(|t| t.iter().any(|x| x == tag)));
    vec![
        size("webservers"),
        size("k8s_workers"),
        size("postgres"),
        size("staging"),
        size("ungrouped"),
        Some(count("How many hosts are in the inventory?", &["hosts"], hosts.len(), Some("host"))),
        Some(count(
            &format!("How many hosts are in the datacenter {datacenter}?"),
            &[datacenter],
            n(&|h| h["datacenter"] == datacenter),
            Some("datacenter"),
        )),
        Some(count("How many hosts are tagged maintenance?", &["maintenance"], tagged("maintenance"), Some("tags"))),
        Some(count(
            "How many hosts run Ubuntu 24.04?",
            &["24.04"],
            n(&|h| h["os_version"] == "24.04"),
            Some("os_version"),
        )),
        Some(count(
            "How many groups does the inventory define (besides all)?",
            &["groups"],
            groups.len(),
            Some("group"),
        )),
        extreme(
            "Which group has the most hosts?",
            scored_by(groups, |g| g["size"].as_u64(), "group"),
            true,
            Some("hosts"),
        ),
        extreme(
            "Of webservers, api and workers, which group has the most hosts?",
            scored_by(
                &only(groups, |g| ["webservers", "api", "workers"].iter().any(|n| g["group"] == *n)),
                |g| g["size"].as_u64(),
                "group",
            ),
            true,
            Some("hosts"),
        ),
    ]
}

/// The first hosts' variables at the top; the last groups' hosts at the end.
fn heads_and_tails(hosts: &[Value], groups: &[Value]) -> Vec<Option<Question>> {
    let first = hosts.first();
    let mut qs = vec![
        about_record(
            first,
            Kind::Head,
            "Which host is listed first in hostvars, and its address?",
            &["host", "ansible_host"],
        ),
        about_record(
            first,
            Kind::Head,
            "Which datacenter and rack is the first host in?",
            &["host", "datacenter", "rack"],
        ),
        about_record(first, Kind::Head, "What is the hardware serial of the first host?", &["host", "hw_serial"]),
        about_record(first, Kind::Head, "How many CPU cores does the first host have?", &["host", "cpu_cores"]),
    ];
    for (k, ordinal) in ["second", "third", "fourth", "fifth", "sixth"].iter().enumerate() {
        qs.push(about_record(
            hosts.get(k + 1),
            Kind::Head,
            &format!("Which host is listed {ordinal} in hostvars, and its address?"),
            &["host", "ansible_host"],
        ));
    }
    let last = from_end(groups, 0);
    let before = from_end(groups, 1);
    qs.extend([
        about_record(
            last,
            Kind::Tail,
            "Which group is listed last, and which host comes last in it?",
            &["group", "last"],
        ),
        about_record(last, Kind::Tail, "Which host comes first in the last group?", &["group", "first"]),
        about_record(before, Kind::Tail, "Which host comes last in the second-to-last group?", &["group", "last"]),
        about_record(before, Kind::Tail, "Which host comes first in the second-to-last group?", &["group", "first"]),
    ]);
    if let Some(list) = last.and_then(|g| g["hosts"].as_array()) {
        for (k, ordinal) in ["second", "third", "fourth", "fifth", "sixth"].iter().enumerate() {
            let host = list.len().checked_sub(k + 2).and_then(|i| list.get(i)).and_then(Value::as_str);
            qs.push(host.map(|h| {
                crate::questions_blind::together(
                    Kind::Tail,
                    format!("Which host is {ordinal} to last in the last group?"),
                    None,
                    &[h],
                )
            }));
        }
    }
    qs
}
