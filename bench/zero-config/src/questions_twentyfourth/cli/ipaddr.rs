//! The questions asked of `ip addr show` on a Kubernetes node: what someone debugging the
//! node's networking asks (the MAC, network namespace, state or MTU of one interface, the
//! interface with an index, a MAC or a pod's namespace; how many interfaces are down,
//! have the pods' MTU, carry addresses, sit on a bridge; which has the largest index; the
//! node's own interfaces at the top and the newest pod interfaces at the bottom).

use serde_json::Value;

use super::readers::{ip_links, num};
use super::{about_record, from_end, lookup};
use crate::question::{Kind, Question};
use crate::questions_blind::{at, count, extreme, only, scored_by, together};

/// Every question about the output `t`.
pub(crate) fn ip_addr_questions(t: &str) -> Vec<Option<Question>> {
    let links = ip_links(t);
    let mut qs = lookups(&links);
    qs.extend(aggregates(&links));
    qs.extend(heads_and_tails(&links));
    qs
}

/// The host side of a pod's veth pair (its peer is an `ifN` in another namespace).
fn pod_links(links: &[Value]) -> Vec<Value> {
    only(links, |x| x["peer"].as_str().is_some_and(|p| p.starts_with("if")))
}

/// The interface with an index, asked by that index.
fn by_index(links: &[Value], f: f64) -> Option<Question> {
    let x = links.get(at(links.len(), f))?;
    let (index, name) = (x["index"].as_str()?, x["name"].as_str()?);
    let q = format!("Which interface has index {index}?");
    Some(together(Kind::Lookup, q, Some(&format!("{index}: ")), &[&format!("{index}: {name}")]))
}

/// One interface's MAC, namespace, state, MTU; the interface with a MAC, index, namespace.
fn lookups(links: &[Value]) -> Vec<Option<Question>> {
    let pods = pod_links(links);
    let not_up = only(&pods, |x| x["state"] != "UP");
    vec![
        lookup(&pods, 0.3, "What is the MAC address of {key}?", "name", &["mac"]),
        lookup(&pods, 0.5, "Which network namespace is {key} linked to?", "name", &["netns"]),
        lookup(&pods, 0.75, "What state is {key} in?", "name", &["state"]),
        lookup(&pods, 0.9, "What MTU does {key} have?", "name", &["mtu"]),
        lookup(&pods, 0.6, "Which interface has the MAC address {key}?", "mac", &["name"]),
        lookup(
            &pods,
            0.4,
            "Which host interface is the peer of the pod in network namespace {key}?",
            "netns",
            &["name"],
        ),
        lookup(&not_up, 0.5, "What state is {key} in, and with which flags?", "name", &["state", "flags"]),
        lookup(&pods, 0.15, "What is the IPv6 link-local address of {key}?", "name", &["inet6"]),
        lookup(links, 0.97, "What is the MAC address of {key}?", "name", &["mac"]),
        by_index(links, 0.35),
        by_index(links, 0.85),
    ]
}

/// How many interfaces are down, have an MTU, carry IPv4 addresses, sit on a bridge;
/// which has the largest or smallest index.
fn aggregates(links: &[Value]) -> Vec<Option<Question>> {
    let pods = pod_links(links);
    let n = |keep: &dyn Fn(&Value) -> bool| links.iter().filter(|x| keep(x)).count();
    let mut qs = vec![
        Some(count("How many interfaces are DOWN?", &["DOWN"], n(&|x| x["state"] == "DOWN"), Some("state"))),
        Some(count("How many interfaces are UP?", &["UP"], n(&|x| x["state"] == "UP"), Some("state"))),
        Some(count(
            "How many interfaces are in state LOWERLAYERDOWN?",
            &["LOWERLAYERDOWN"],
            n(&|x| x["state"] == "LOWERLAYERDOWN"),
            Some("state"),
        )),
        Some(count("How many interfaces does the node have?", &["interfaces"], links.len(), Some("name"))),
        Some(count(
            "How many interfaces have an IPv4 (inet) address?",
            &["inet", "IPv4"],
            n(&|x| x.get("inet").is_some()),
            Some("inet"),
        )),
        Some(count(
            "How many pod interfaces (veth pairs) are there?",
            &["veth", "pod interfaces"],
            pods.len(),
            Some("name"),
        )),
        Some(count(
            "How many interfaces are attached to docker0?",
            &["docker0"],
            n(&|x| x["master"] == "docker0"),
            Some("master"),
        )),
        links.iter().find(|x| x["name"] == "kube-ipvs0").map(|x| {
            let addrs = x["inet_count"].as_u64().unwrap_or(0) as usize;
            count("How many addresses are assigned to kube-ipvs0?", &["kube-ipvs0"], addrs, Some("inet"))
        }),
        extreme(
            "Which interface has the largest index?",
            scored_by(links, |x| num(x, "index"), "name"),
            true,
            Some("index"),
        ),
        extreme(
            "Which pod interface has the smallest index?",
            scored_by(&pods, |x| num(x, "index"), "name"),
            false,
            Some("index"),
        ),
        extreme("Which interface has the largest MTU?", scored_by(links, |x| num(x, "mtu"), "name"), true, Some("mtu")),
    ];
    if let Some(mtu) = pods.first().and_then(|x| x["mtu"].as_str()) {
        let with = n(&|x| x["mtu"] == mtu);
        qs.push(Some(count(
            &format!("How many interfaces have mtu {mtu}?"),
            &[&format!("mtu {mtu}")],
            with,
            Some("mtu"),
        )));
    }
    if n(&|x| x["master"] == "cni0") > 0 {
        let on = n(&|x| x["master"] == "cni0");
        qs.push(Some(count("How many interfaces are attached to the cni0 bridge?", &["cni0"], on, Some("master"))));
    }
    qs
}

/// The loopback, uplink and bridges at the top; the newest pod interfaces at the bottom.
fn heads_and_tails(links: &[Value]) -> Vec<Option<Question>> {
    let uplink = links.get(1);
    let docker0 = links.iter().find(|x| x["name"] == "docker0");
    let last = links.last();
    vec![
        about_record(links.first(), Kind::Head, "What MTU does the loopback interface have?", &["name", "mtu"]),
        about_record(links.first(), Kind::Head, "Which address does the loopback interface have?", &["name", "inet"]),
        about_record(uplink, Kind::Head, "What is the MAC address of the node's uplink (index 2)?", &["name", "mac"]),
        about_record(uplink, Kind::Head, "Which IPv4 address does the node's uplink have?", &["name", "inet"]),
        about_record(uplink, Kind::Head, "What MTU does the node's uplink use?", &["name", "mtu"]),
        about_record(uplink, Kind::Head, "Which queueing discipline does the uplink use?", &["name", "qdisc"]),
        about_record(docker0, Kind::Head, "What state is docker0 in?", &["name", "state"]),
        about_record(docker0, Kind::Head, "Which address does docker0 have?", &["name", "inet"]),
        about_record(links.get(3), Kind::Head, "Which is the fourth interface listed, and its MTU?", &["name", "mtu"]),
        about_record(links.get(4), Kind::Head, "Which is the fifth interface listed, and its MAC?", &["name", "mac"]),
        about_record(last, Kind::Tail, "Which interface is listed last?", &["name"]),
        about_record(last, Kind::Tail, "What is the MAC address of the last interface?", &["name", "mac"]),
        about_record(last, Kind::Tail, "What state is the last interface in?", &["name", "state"]),
        about_record(last, Kind::Tail, "Which network namespace is the last interface linked to?", &["name", "netns"]),
        about_record(last, Kind::Tail, "What index does the last interface have?", &["name", "index"]),
        about_record(last, Kind::Tail, "What MTU does the last interface have?", &["name", "mtu"]),
        about_record(
            from_end(links, 1),
            Kind::Tail,
            "Which interface is second to last, and its MAC?",
            &["name", "mac"],
        ),
        about_record(from_end(links, 2), Kind::Tail, "Which interface is third to last?", &["name"]),
        about_record(
            from_end(links, 2),
            Kind::Tail,
            "What is the third-to-last interface's network namespace?",
            &["name", "netns"],
        ),
    ]
}
