//! The questions asked of `sysctl -a` on a container host: what someone tuning or
//! debugging it asks (a key's value, which key holds a value; how many keys of an
//! interface's `net.ipv6.conf` are 1, how many interfaces disable IPv6, use strict or
//! loose reverse-path filtering or answer ARP for others, how many `vm.*` keys there are,
//! which interface has the largest or smallest MTU; the first keys at the top and the
//! last `vm.*` keys at the end).

use serde_json::{Value, json};

use super::readers::sysctl_keys;
use super::{ORDINALS, from_end, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, only, scored_by, together};
use crate::record_questions::{about_record, lookup};

/// The value of `key`, if sysctl printed it.
fn value_of<'a>(keys: &'a [Value], key: &str) -> Option<&'a str> {
    keys.iter().find(|k| k["key"] == key).and_then(|k| k["value"].as_str())
}

/// A question about the value of `key`, answered by the key and its value together.
fn about_key(keys: &[Value], kind: Kind, key: &str, text: &str) -> Option<Question> {
    let value = value_of(keys, key).filter(|v| !v.is_empty())?;
    let needle = (kind == Kind::Lookup).then_some(key);
    Some(together(kind, text.to_owned(), needle, &[key, value]))
}

/// The interfaces of `net.ipv4.conf` (without `all` and `default`), each with its
/// IPv6 `mtu`, `disable_ipv6`, `rp_filter`, `proxy_arp`, `forwarding`, and `ipv6_ones`
/// (how many of its `net.ipv6.conf` keys are 1).
pub(crate) fn interfaces(keys: &[Value]) -> Vec<Value> {
    let mut names: Vec<&str> = Vec::new();
    for k in keys {
        let key = k["key"].as_str().unwrap_or_default();
        let name = key.strip_prefix("net.ipv4.conf.").and_then(|rest| rest.rsplit_once('.')).map(|(n, _)| n);
        if let Some(name) = name.filter(|n| *n != "all" && *n != "default" && !names.contains(n)) {
            names.push(name);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let v4 = |k: &str| value_of(keys, &format!("net.ipv4.conf.{name}.{k}")).unwrap_or_default().to_owned();
            let v6 = |k: &str| value_of(keys, &format!("net.ipv6.conf.{name}.{k}")).unwrap_or_default().to_owned();
            let prefix = format!("net.ipv6.conf.{name}.");
            let ones = keys.iter().filter(|k| k["key"].as_str().is_some_and(|s| s.starts_with(&prefix)) && k["value"] == "1").count();
            json!({"iface": name, "mtu": v6("mtu").parse::<u64>().ok(), "disable_ipv6": v6("disable_ipv6"),
                   "rp_filter": v4("rp_filter"), "proxy_arp": v4("proxy_arp"), "forwarding": v4("forwarding"), "ipv6_ones": ones})
        })
        .collect()
}

/// Every question about the output `t`.
pub(crate) fn sysctl_questions(t: &str) -> Vec<Option<Question>> {
    let keys = sysctl_keys(t);
    let ifaces = interfaces(&keys);
    let mut qs = lookups(&keys, &ifaces);
    qs.extend(aggregates(&keys, &ifaces));
    qs.extend(heads_and_tails(&keys));
    qs
}

/// The values of the keys people tune; the key holding a value.
fn lookups(keys: &[Value], ifaces: &[Value]) -> Vec<Option<Question>> {
    let named = [
        (
            "net.ipv4.tcp_congestion_control",
            "Which TCP congestion control algorithm is in use (net.ipv4.tcp_congestion_control)?",
        ),
        ("net.core.somaxconn", "What is net.core.somaxconn set to?"),
        ("net.ipv4.ip_local_port_range", "What is the local port range (net.ipv4.ip_local_port_range)?"),
        ("kernel.hostname", "What is the host's name (kernel.hostname)?"),
        ("kernel.osrelease", "Which kernel release is running (kernel.osrelease)?"),
        ("net.netfilter.nf_conntrack_max", "What is net.netfilter.nf_conntrack_max?"),
        ("net.ipv4.tcp_rmem", "What are the TCP receive buffer sizes (net.ipv4.tcp_rmem)?"),
        (
            "net.netfilter.nf_conntrack_count",
            "How many connections does conntrack track right now (net.netfilter.nf_conntrack_count)?",
        ),
        ("fs.inotify.max_user_watches", "What is fs.inotify.max_user_watches?"),
    ];
    let mut qs: Vec<Option<Question>> =
        named.iter().map(|(key, text)| about_key(keys, Kind::Lookup, key, text)).collect();
    let middle = ifaces.get(ifaces.len() / 2).and_then(|i| i["iface"].as_str()).unwrap_or_default();
    let last = ifaces.last().and_then(|i| i["iface"].as_str()).unwrap_or_default();
    let rp = format!("net.ipv4.conf.{middle}.rp_filter");
    let dis = format!("net.ipv6.conf.{last}.disable_ipv6");
    qs.push(about_key(keys, Kind::Lookup, &rp, &format!("What is {rp} set to?")));
    qs.push(about_key(keys, Kind::Lookup, &dis, &format!("Is IPv6 disabled on {last} ({dis})?")));
    qs.push(lookup(keys, 0.5, "Which key has the value {key}?", "value", &["key"]));
    qs.push(lookup(keys, 0.2, "Which key has the value {key}?", "value", &["key"]));
    qs
}

/// How many keys or interfaces are in a state; which interface has the largest MTU.
fn aggregates(keys: &[Value], ifaces: &[Value]) -> Vec<Option<Question>> {
    let n = |list: &[Value], keep: &dyn Fn(&Value) -> bool| list.iter().filter(|x| keep(x)).count();
    let under = |prefix: &str| n(keys, &|k| k["key"].as_str().is_some_and(|s| s.starts_with(prefix)));
    let not_lo = only(ifaces, |i| i["iface"] != "lo");
    let mut qs = Vec::new();
    for pick in [ifaces.get(1), ifaces.last()] {
        if let Some(name) = pick.and_then(|i| i["iface"].as_str()) {
            let ones = pick.and_then(|i| i["ipv6_ones"].as_u64()).unwrap_or(0) as usize;
            let text = format!("How many keys under net.ipv6.conf.{name} are set to 1?");
            qs.push(Some(count(&text, &[name], ones, Some("value"))));
        }
    }
    qs.extend([
        Some(count(
            "How many interfaces have IPv6 disabled (disable_ipv6 = 1)?",
            &["disable_ipv6"],
            n(ifaces, &|i| i["disable_ipv6"] == "1"),
            Some("disable_ipv6"),
        )),
        Some(count(
            "How many interfaces use loose reverse-path filtering (rp_filter = 2)?",
            &["rp_filter"],
            n(ifaces, &|i| i["rp_filter"] == "2"),
            Some("rp_filter"),
        )),
        Some(count(
            "How many interfaces answer ARP for others (proxy_arp = 1)?",
            &["proxy_arp"],
            n(ifaces, &|i| i["proxy_arp"] == "1"),
            Some("proxy_arp"),
        )),
        Some(count(
            "How many network interfaces have their own net.ipv4.conf keys (besides all and default)?",
            &["interfaces"],
            ifaces.len(),
            Some("key"),
        )),
        Some(count("How many vm.* keys are there?", &["vm"], under("vm."), Some("key"))),
        Some(count(
            "How many net.netfilter.* keys are there?",
            &["net.netfilter"],
            under("net.netfilter."),
            Some("key"),
        )),
        Some(count(
            "How many kernel.* keys are set to 0?",
            &["kernel"],
            n(keys, &|k| k["top"] == "kernel" && k["value"] == "0"),
            Some("value"),
        )),
        Some(count("How many keys does sysctl list in total?", &["keys"], keys.len(), Some("key"))),
        extreme(
            "Which interface has the largest IPv6 MTU?",
            scored_by(ifaces, |i| i["mtu"].as_u64(), "iface"),
            true,
            Some("mtu"),
        ),
        extreme(
            "Which interface other than lo has the largest IPv6 MTU?",
            scored_by(&not_lo, |i| i["mtu"].as_u64(), "iface"),
            true,
            Some("mtu"),
        ),
        extreme(
            "Which interface has the smallest IPv6 MTU?",
            scored_by(&not_lo, |i| i["mtu"].as_u64(), "iface"),
            false,
            Some("mtu"),
        ),
        extreme(
            "Which vm.* key has the largest value?",
            scored_by(&only(keys, |k| k["top"] == "vm"), |k| k["value"].as_str()?.parse::<f64>().ok(), "key"),
            true,
            Some("value"),
        ),
    ]);
    qs
}

/// The first keys at the top; the last keys (`vm.*`) at the end.
fn heads_and_tails(keys: &[Value]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().take(7).enumerate() {
        qs.push(about_record(
            keys.get(k),
            Kind::Head,
            &format!("Which key does sysctl list {ordinal}, and what is its value?"),
            &["key", "value"],
        ));
    }
    qs.push(about_key(keys, Kind::Head, "fs.file-max", "What is the system-wide open file limit (fs.file-max)?"));
    qs.push(about_key(
        keys,
        Kind::Head,
        "dev.raid.speed_limit_max",
        "What is the RAID resync speed limit (dev.raid.speed_limit_max)?",
    ));
    qs.push(about_key(keys, Kind::Head, "fs.file-nr", "What does fs.file-nr show?"));
    for back in 0..5 {
        qs.push(about_record(
            from_end(keys, back),
            Kind::Tail,
            &format!("Which key does sysctl list {}, and what is its value?", to_last(back)),
            &["key", "value"],
        ));
    }
    qs.push(about_key(keys, Kind::Tail, "vm.swappiness", "What is vm.swappiness set to?"));
    qs.push(about_key(
        keys,
        Kind::Tail,
        "vm.overcommit_memory",
        "What is the overcommit policy (vm.overcommit_memory)?",
    ));
    qs.push(about_key(keys, Kind::Tail, "vm.dirty_ratio", "What is vm.dirty_ratio?"));
    qs.push(about_key(keys, Kind::Tail, "vm.min_free_kbytes", "What is vm.min_free_kbytes?"));
    qs
}
