//! The questions asked of `conntrack -L` on a Kubernetes node: what someone chasing a
//! connection problem asks (the state and destination of the flow from an address and
//! port, the endpoint kube-proxy sent it to, the seconds it has left, where a DNS query
//! went; how many flows are in TIME_WAIT, ESTABLISHED or SYN_SENT, go to port 443 or 53,
//! are UDP, ICMP or unreplied, which source or destination has the most flows; the first
//! flows at the top, the last flows and the count line at the end).

use serde_json::Value;

use super::readers::conntrack_flows;
use super::{ORDINALS, from_end, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, only, together};
use crate::record_questions::{fields_of, lookup_by};

/// A flow named by its source port and address (the port is what one searches for).
fn by_source(x: &Value) -> Option<Vec<String>> {
    fields_of(x, &["sport", "src"])
}

/// What a flow is, as its line shows it: protocol, state if any, addresses and ports.
fn described(x: &Value) -> Option<Vec<String>> {
    let mut fields = vec!["proto", "src", "dst"];
    if x["state"].is_string() {
        fields.push("state");
    }
    if x["sport"].is_string() {
        fields.extend(["sport", "dport"]);
    }
    fields_of(x, &fields)
}

/// Every question about the output `t`.
pub(crate) fn conntrack_questions(t: &str) -> Vec<Option<Question>> {
    let c = conntrack_flows(t);
    let mut qs = lookups(&c.flows);
    qs.extend(aggregates(&c.flows));
    qs.extend(heads_and_tails(&c.flows, c.shown.as_deref()));
    qs
}

/// A flow's state, destination, endpoint and time left, named by its source.
fn lookups(flows: &[Value]) -> Vec<Option<Question>> {
    let tcp = only(flows, |f| f["proto"] == "tcp");
    let dnat = only(&tcp, |f| f["reply_src"] != f["dst"]);
    let dns = only(flows, |f| f["proto"] == "udp" && f["dport"] == "53");
    let state_q = "What state is the TCP connection from {key1} port {key0} in, and what is its destination port?";
    let mut qs: Vec<Option<Question>> = [0.2, 0.35, 0.5, 0.8]
        .iter()
        .map(|&at| lookup_by(&tcp, at, state_q, by_source, |x| fields_of(x, &["state", "dport"])))
        .collect();
    let endpoint_q = "Which endpoint answers the connection from {key1} port {key0} (the source address of its reply)?";
    qs.push(lookup_by(&dnat, 0.4, endpoint_q, by_source, |x| fields_of(x, &["reply_src"])));
    qs.push(lookup_by(&dnat, 0.9, endpoint_q, by_source, |x| fields_of(x, &["reply_src"])));
    let timeout_q = "How many seconds are left on the connection from {key1} port {key0}?";
    qs.push(lookup_by(&tcp, 0.65, timeout_q, by_source, |x| fields_of(x, &["timeout"])));
    let dns_q = "Which DNS server address did the query from {key1} port {key0} go to, and which pod answered it?";
    qs.push(lookup_by(&dns, 0.3, dns_q, by_source, |x| fields_of(x, &["dst", "reply_src"])));
    let dst_q = "Which address and port does the connection from {key1} port {key0} go to?";
    qs.push(lookup_by(&tcp, 0.1, dst_q, by_source, |x| fields_of(x, &["dst", "dport"])));
    qs.push(lookup_by(&tcp, 0.95, dst_q, by_source, |x| fields_of(x, &["dst", "dport"])));
    qs
}

/// How many flows are in a state or go to a port; who has the most flows.
fn aggregates(flows: &[Value]) -> Vec<Option<Question>> {
    let n = |keep: &dyn Fn(&Value) -> bool| flows.iter().filter(|x| keep(x)).count();
    let state = |s: &str| {
        let text = format!("How many connections are in {s}?");
        Some(count(&text, &[s], n(&|f| f["state"] == s), Some("state")))
    };
    let field = |list: &[Value], name: &str| -> Vec<String> {
        list.iter().filter_map(|f| f[name].as_str().map(str::to_owned)).collect()
    };
    let sources = field(flows, "src");
    let destinations = field(flows, "dst");
    let ports = field(flows, "dport");
    let waiting = field(&only(flows, |f| f["state"] == "TIME_WAIT"), "src");
    vec![
        state("TIME_WAIT"),
        state("ESTABLISHED"),
        state("SYN_SENT"),
        state("CLOSE_WAIT"),
        Some(count("How many flows go to port 443?", &["443"], n(&|f| f["dport"] == "443"), Some("dport"))),
        Some(count("How many flows go to port 53 (DNS)?", &["53"], n(&|f| f["dport"] == "53"), Some("dport"))),
        Some(count("How many UDP flows are there?", &["udp"], n(&|f| f["proto"] == "udp"), Some("proto"))),
        Some(count("How many ICMP flows are there?", &["icmp"], n(&|f| f["proto"] == "icmp"), Some("proto"))),
        Some(count(
            "How many flows are [UNREPLIED]?",
            &["UNREPLIED"],
            n(&|f| f["unreplied"] == true),
            Some("unreplied"),
        )),
        Some(count("How many flows are [ASSURED]?", &["ASSURED"], n(&|f| f["assured"] == true), Some("assured"))),
        Some(count(
            "How many flows go to the API server's Service address 10.96.0.1?",
            &["10.96.0.1"],
            n(&|f| f["dst"] == "10.96.0.1"),
            Some("dst"),
        )),
        extreme(
            "Which source address has the most entries?",
            most_frequent(sources.iter().map(String::as_str)),
            true,
            Some("src"),
        ),
        extreme(
            "Which destination address has the most entries?",
            most_frequent(destinations.iter().map(String::as_str)),
            true,
            Some("dst"),
        ),
        extreme(
            "Which destination port has the most entries?",
            most_frequent(ports.iter().map(String::as_str)),
            true,
            Some("dport"),
        ),
        extreme(
            "Which source address has the most connections in TIME_WAIT?",
            most_frequent(waiting.iter().map(String::as_str)),
            true,
            Some("src"),
        ),
    ]
}

/// The first flows at the top; the last flows and the count line at the end.
fn heads_and_tails(flows: &[Value], shown: Option<&str>) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().take(9).enumerate() {
        let text = format!("What is the {ordinal} flow listed: its protocol, state, source and destination?");
        qs.push(flows.get(k).and_then(described).map(|must| {
            let must: Vec<&str> = must.iter().map(String::as_str).collect();
            together(Kind::Head, text, None, &must)
        }));
    }
    for back in 0..8 {
        let text = format!("What is the {} flow listed: its protocol, state, source and destination?", to_last(back));
        qs.push(from_end(flows, back).and_then(described).map(|must| {
            let must: Vec<&str> = must.iter().map(String::as_str).collect();
            together(Kind::Tail, text, None, &must)
        }));
    }
    qs.push(
        shown
            .map(|n| together(Kind::Tail, "How many flow entries does conntrack say it has shown?".into(), None, &[n])),
    );
    qs
}
