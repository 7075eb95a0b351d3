//! The questions asked of `ip -s -s link`: what someone chasing packet loss on a
//! Kubernetes node asks (a pod veth's traffic and drops, the namespace behind it, a link's
//! state, MTU and ifindex, a port's CRC errors, bond and altname, multicast; which veth
//! moves the most or least traffic or drops the most, which link flapped most or counts
//! the most CRC errors, how many links, veths, down links, links with drops there are; the
//! first links and the last).

use super::readers::{IpLink, ask, ip_links, pick_at};
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, together};

/// Every question about the output `t`.
pub(crate) fn ip_link_questions(t: &str) -> Vec<Option<Question>> {
    let links = ip_links(t);
    let mut qs = lookups(&links);
    qs.extend(aggregates(&links));
    qs.extend(heads_and_tails(&links));
    qs
}

fn is_veth(l: &IpLink) -> bool {
    l.name.starts_with("cali")
}

fn lookups(links: &[IpLink]) -> Vec<Option<Question>> {
    let veths: Vec<&IpLink> = links.iter().filter(|l| is_veth(l)).collect();
    let others: Vec<&IpLink> = links.iter().filter(|l| !is_veth(l)).collect();
    let mut qs = Vec::new();
    for f in [0.2, 0.5, 0.8] {
        qs.push(pick_at(&veths, f, |l| l.num("rx.bytes") > 0).and_then(|l| {
            let text = format!("How many bytes and packets has {} received?", l.name);
            ask(text, &l.name, &[l.get("rx.bytes"), l.get("rx.packets")])
        }));
    }
    qs.push(pick_at(&veths, 0.5, |l| l.num("tx.dropped") > 0).and_then(|l| {
        let text = format!("How many bytes has {} transmitted, and how many packets did it drop on transmit?", l.name);
        ask(text, &l.name, &[l.get("tx.bytes"), l.get("tx.dropped")])
    }));
    qs.push(pick_at(&veths, 0.35, |l| !l.link_attr("link-netns").is_empty()).and_then(|l| {
        let text = format!("Which network namespace is the pod behind {} in?", l.name);
        ask(text, &l.name, &[l.link_attr("link-netns")])
    }));
    // A veth whose pod is going away, when there is one; else any veth's state.
    let down = pick_at(&veths, 0.6, |l| l.attr("state") == "LOWERLAYERDOWN").or_else(|| pick_at(&veths, 0.6, |_| true));
    qs.push(down.and_then(|l| ask(format!("What state is {} in?", l.name), &l.name, &[l.attr("state")])));
    qs.push(pick_at(&others, 0.3, |l| l.num("rx_errors.crc") > 0).and_then(|l| {
        let text = format!("How many CRC errors has {} counted on receive?", l.name);
        ask(text, &l.name, &[l.get("rx_errors.crc")])
    }));
    qs.push(
        pick_at(&others, 0.6, |l| l.full.contains('@') || l.name.starts_with("bond"))
            .and_then(|l| ask(format!("What is the MTU of {}?", l.name), &l.name, &[format!("mtu {}", l.attr("mtu"))])),
    );
    qs.push(pick_at(&others, 0.2, |l| !l.attr("master").is_empty() && !l.altnames.is_empty()).and_then(|l| {
        let text = format!("Which bond is {} a port of, and what is its alternative name?", l.name);
        ask(text, &l.name, &[l.attr("master"), l.altnames[0].clone()])
    }));
    qs.push(pick_at(&others, 0.7, |l| l.num("rx.mcast") > 0).and_then(|l| {
        ask(format!("How many multicast packets has {} received?", l.name), &l.name, &[l.get("rx.mcast")])
    }));
    qs.push(pick_at(&veths, 0.9, |_| true).and_then(|l| {
        ask(format!("What is the interface index of {}?", l.name), &l.name, &[format!("{}: ", l.index)])
    }));
    qs
}

fn aggregates(links: &[IpLink]) -> Vec<Option<Question>> {
    let veths: Vec<&IpLink> = links.iter().filter(|l| is_veth(l)).collect();
    let scored = |list: &[&IpLink], key: &str| -> Vec<(u64, String)> {
        list.iter().map(|l| (l.num(key), l.name.clone())).collect()
    };
    let all: Vec<&IpLink> = links.iter().collect();
    let n = |keep: &dyn Fn(&IpLink) -> bool| links.iter().filter(|l| keep(l)).count();
    vec![
        extreme(
            "Which pod veth (cali…) has received the most bytes?",
            scored(&veths, "rx.bytes"),
            true,
            Some("rx.bytes"),
        ),
        extreme(
            "Which pod veth (cali…) has transmitted the most bytes?",
            scored(&veths, "tx.bytes"),
            true,
            Some("tx.bytes"),
        ),
        extreme("Which pod veth has received the fewest bytes?", scored(&veths, "rx.bytes"), false, Some("rx.bytes")),
        extreme(
            "Which pod veth has dropped the most packets on transmit?",
            scored(&veths, "tx.dropped"),
            true,
            Some("tx.dropped"),
        ),
        extreme(
            "Which link has had the most carrier transitions?",
            scored(&all, "tx_errors.transns"),
            true,
            Some("transns"),
        ),
        extreme("Which link has counted the most CRC errors?", scored(&all, "rx_errors.crc"), true, Some("crc")),
        Some(count("How many links does the node have?", &["links", "interfaces"], links.len(), None)),
        Some(count("How many Calico veths (cali…) are there?", &["cali", "veths"], veths.len(), None)),
        Some(count("How many links are in state DOWN?", &["DOWN"], n(&|l| l.attr("state") == "DOWN"), Some("state"))),
        Some(count(
            "How many links are in state LOWERLAYERDOWN?",
            &["LOWERLAYERDOWN"],
            n(&|l| l.attr("state") == "LOWERLAYERDOWN"),
            Some("state"),
        )),
        Some(count(
            "How many pod veths have dropped packets on transmit?",
            &["veths", "dropped"],
            veths.iter().filter(|l| l.num("tx.dropped") > 0).count(),
            Some("dropped"),
        )),
        Some(count(
            "How many links have an MTU of 8950?",
            &["mtu 8950", "8950"],
            n(&|l| l.attr("mtu") == "8950"),
            Some("mtu"),
        )),
    ]
}

fn heads_and_tails(links: &[IpLink]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().enumerate() {
        let Some(l) = links.get(k) else { continue };
        let text = format!("Which link is listed {ordinal}, and what is its MTU?");
        qs.push(Some(together(Kind::Head, text, None, &[&l.full, &format!("mtu {}", l.attr("mtu"))])));
    }
    if let Some(lo) = links.iter().take(3).find(|l| l.name == "lo") {
        let text = "How many bytes has the loopback interface received?".to_owned();
        qs.push(Some(together(Kind::Head, text, None, &[&lo.full, &lo.get("rx.bytes")])));
    }
    for back in 0..9 {
        let Some(l) = links.len().checked_sub(back + 1).and_then(|i| links.get(i)) else { continue };
        let text = format!("Which link is listed {}, and how many bytes has it received?", to_last(back));
        qs.push(Some(together(Kind::Tail, text, None, &[&l.full, &l.get("rx.bytes")])));
    }
    qs
}
