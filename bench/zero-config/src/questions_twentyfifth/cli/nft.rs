//! The questions asked of `nft list ruleset` on a gateway that is also a Kubernetes node:
//! what its operator asks (a chain's policy, hook and priority; a commented rule's packet
//! and byte counters and verdict; where a port forward or an endpoint DNATs to; which
//! chain a Service's address, protocol and port go to; how many rules drop, reject or
//! accept, how many chains have a drop policy, how many elements a set holds, which rule
//! counted the most packets or bytes; the first table's sets and input chain at the top,
//! the last chains of kube-proxy's table at the end).

use serde_json::{Value, json};

use super::from_end;
use super::readers::nft_ruleset;
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, only, scored_by};
use crate::record_questions::{about_record, lookup};

/// Every question about the output `t`.
pub(crate) fn nft_questions(t: &str) -> Vec<Option<Question>> {
    let rs = nft_ruleset(t);
    let mut qs = lookups(&rs.chains, &rs.rules, &rs.sets);
    qs.extend(aggregates(&rs.tables, &rs.chains, &rs.rules, &rs.sets));
    qs.extend(heads_and_tails(&rs.chains, &rs.rules, &rs.sets));
    qs
}

/// The elements of kube-proxy's `service-ips` map as records: `key` (`10.96.0.10 . udp .
/// 53`) and `target` (the chain it goes to).
fn service_elements(sets: &[Value]) -> Vec<Value> {
    let Some(map) = sets.iter().find(|s| s["set"] == "service-ips") else { return Vec::new() };
    let elements = map["elements"].as_array().map_or(&[][..], Vec::as_slice);
    elements
        .iter()
        .filter_map(|e| e.as_str()?.split_once(" : goto "))
        .map(|(key, target)| json!({"key": key, "target": target}))
        .collect()
}

/// The `dnat to …` of a rule, as written.
fn with_dnat(rules: &[Value]) -> Vec<Value> {
    rules
        .iter()
        .filter_map(|r| {
            let line = r["rule"].as_str()?;
            let at = line.find("dnat to ")?;
            let target = line[at..].split(" comment").next()?;
            let mut r = r.clone();
            r["dnat"] = json!(target);
            Some(r)
        })
        .collect()
}

/// A chain's policy, hook, priority; a rule's counters, verdict, DNAT; a Service's chain.
fn lookups(chains: &[Value], rules: &[Value], sets: &[Value]) -> Vec<Option<Question>> {
    let base = only(chains, |c| c["policy"].is_string());
    let commented = only(rules, |r| r["comment"].is_string() && r["packets"].is_string());
    let dnat = with_dnat(rules);
    let forwards = only(&dnat, |r| r["comment"].is_string());
    let endpoints = only(&dnat, |r| r["comment"].is_null());
    let services = service_elements(sets);
    vec![
        lookup(&commented, 0.3, "How many packets has the rule commented \"{key}\" counted?", "comment", &["packets"]),
        lookup(&commented, 0.6, "How many packets has the rule commented \"{key}\" counted?", "comment", &["packets"]),
        lookup(&commented, 0.9, "How many bytes has the rule commented \"{key}\" counted?", "comment", &["bytes"]),
        lookup(
            &commented,
            0.45,
            "What does the rule commented \"{key}\" do with the packets it matches?",
            "comment",
            &["verdict"],
        ),
        lookup(&commented, 0.75, "Which chain holds the rule commented \"{key}\"?", "comment", &["chain"]),
        lookup(&base, 0.1, "What is the policy of chain {key}?", "chain", &["policy"]),
        lookup(&base, 0.7, "What is the policy of chain {key}?", "chain", &["policy"]),
        lookup(&base, 0.5, "Which hook and priority does chain {key} use?", "chain", &["hook", "priority"]),
        lookup(&forwards, 0.5, "Where does the port forward commented \"{key}\" send traffic?", "comment", &["dnat"]),
        lookup(&endpoints, 0.4, "Where does the chain {key} DNAT to?", "chain", &["dnat"]),
        lookup(&services, 0.3, "Which kube-proxy chain handles traffic to {key}?", "key", &["target"]),
        lookup(&services, 0.8, "Which kube-proxy chain handles traffic to {key}?", "key", &["target"]),
    ]
}

/// How many rules drop, reject, accept; elements of sets; which rule counted the most.
fn aggregates(tables: &[String], chains: &[Value], rules: &[Value], sets: &[Value]) -> Vec<Option<Question>> {
    let verdict = |v: &str| {
        rules.iter().filter(|r| r["verdict"].as_str().is_some_and(|x| x.split_whitespace().next() == Some(v))).count()
    };
    let commented = only(rules, |r| r["comment"].is_string() && r["packets"].is_string());
    let elements =
        |name: &str| sets.iter().find(|s| s["set"] == name).and_then(|s| s["elements"].as_array()).map(Vec::len);
    let element_count = |name: &str| {
        elements(name)
            .map(|n| count(&format!("How many elements does the set {name} hold?"), &[name], n, Some("elements")))
    };
    let in_table = |table: &str| chains.iter().filter(|c| c["table"] == table).count();
    let mut qs = vec![
        Some(count("How many counted rules drop the packets they match?", &["drop"], verdict("drop"), Some("verdict"))),
        Some(count(
            "How many counted rules reject the packets they match?",
            &["reject"],
            verdict("reject"),
            Some("verdict"),
        )),
        Some(count(
            "How many counted rules accept the packets they match?",
            &["accept"],
            verdict("accept"),
            Some("verdict"),
        )),
        Some(count(
            "How many chains have a drop policy?",
            &["policy drop"],
            chains.iter().filter(|c| c["policy"] == "policy drop").count(),
            Some("policy"),
        )),
        Some(count(
            "How many base chains (chains with a hook) are there?",
            &["base chains", "hook"],
            chains.iter().filter(|c| c["hook"].is_string()).count(),
            Some("hook"),
        )),
        Some(count("How many tables are in the ruleset?", &["tables"], tables.len(), Some("table"))),
        Some(count(
            "How many chains does the ip kube-proxy table have?",
            &["kube-proxy"],
            in_table("ip kube-proxy"),
            Some("chain"),
        )),
        Some(count(
            "How many endpoint chains does kube-proxy have?",
            &["endpoint"],
            chains.iter().filter(|c| c["chain"].as_str().is_some_and(|n| n.starts_with("endpoint-"))).count(),
            Some("chain"),
        )),
        Some(count(
            "How many rules are in the chain lan_fwd?",
            &["lan_fwd"],
            rules.iter().filter(|r| r["chain"] == "lan_fwd").count(),
            Some("chain"),
        )),
        element_count("crowdsec-blacklists"),
        element_count("service-ips"),
        element_count("addr-set-sshd"),
        extreme(
            "Which commented rule has counted the most packets?",
            scored_by(&commented, |r| r["hits"].as_u64(), "comment"),
            true,
            Some("packets"),
        ),
        extreme(
            "Which commented rule has counted the most bytes?",
            scored_by(&commented, |r| r["byte_count"].as_u64(), "comment"),
            true,
            Some("bytes"),
        ),
        extreme(
            "Which rule of the iot_fwd chain has counted the most packets?",
            scored_by(&only(&commented, |r| r["chain"] == "iot_fwd"), |r| r["hits"].as_u64(), "comment"),
            true,
            Some("packets"),
        ),
        extreme(
            "Which chain has the most rules?",
            scored_by(chains, |c| c["rules"].as_u64(), "chain"),
            true,
            Some("rules"),
        ),
    ];
    qs.retain(Option::is_some);
    qs
}

/// The first table's sets and chain at the top; kube-proxy's last chains at the end.
fn heads_and_tails(chains: &[Value], rules: &[Value], sets: &[Value]) -> Vec<Option<Question>> {
    let first_chain = chains.first();
    let first_chain_name = first_chain.and_then(|c| c["chain"].as_str()).unwrap_or_default();
    let first_rules = only(rules, |r| r["chain"] == first_chain_name);
    let mut first_set = sets.first().cloned();
    if let Some(s) = first_set.as_mut() {
        s["first"] = s["elements"][0].clone();
    }
    let mut qs = vec![
        about_record(sets.first(), Kind::Head, "Which set is defined first, and of which type?", &["set", "type"]),
        about_record(first_set.as_ref(), Kind::Head, "What is the first element of the first set?", &["set", "first"]),
        about_record(sets.get(1), Kind::Head, "Which set is defined second, and of which type?", &["set", "type"]),
        about_record(first_chain, Kind::Head, "Which chain comes first, and what is its policy?", &["chain", "policy"]),
        about_record(
            first_chain,
            Kind::Head,
            "Which hook and priority does the first chain use?",
            &["chain", "hook", "priority"],
        ),
    ];
    for (k, ordinal) in ["first", "second", "third", "fourth", "fifth"].iter().enumerate() {
        qs.push(about_record(
            first_rules.get(k),
            Kind::Head,
            &format!("What is the {ordinal} rule of the first chain?"),
            &["rule"],
        ));
    }
    let ordinals = ["last", "second to last", "third to last", "fourth to last", "fifth to last", "sixth to last"];
    for (k, ordinal) in ordinals.iter().enumerate() {
        qs.push(about_record(
            from_end(rules, k),
            Kind::Tail,
            &format!("What is the {ordinal} rule of the ruleset, and in which chain is it?"),
            &["chain", "rule"],
        ));
    }
    for (k, ordinal) in ["last", "second to last", "third to last", "fourth to last"].iter().enumerate() {
        qs.push(about_record(
            from_end(chains, k),
            Kind::Tail,
            &format!("Which chain is listed {ordinal}?"),
            &["chain"],
        ));
    }
    qs
}
