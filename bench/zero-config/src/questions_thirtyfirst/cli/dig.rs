//! The questions asked of `dig AXFR`: what someone auditing or migrating a zone asks of a
//! transfer (what a host resolves to, its IPv6 address, where a CNAME points, a record's
//! TTL, which SRV record names a host and on which port, a machine's BMC address, the
//! wildcard's answer; how many records of each type there are, which address the most
//! names share, which site has the most hosts, which name round-robins most; the SOA, name
//! servers, mail exchangers and SPF at the top; the footer and the last records).

use std::collections::BTreeMap;

use super::readers::{ZoneRecord, ask, pick_at, zone_records};
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, together};

/// Every question about the output `t`.
pub(crate) fn dig_questions(t: &str) -> Vec<Option<Question>> {
    let (records, footer) = zone_records(t);
    let mut qs = lookups(&records);
    qs.extend(aggregates(&records, &footer));
    qs.extend(heads(t, &records));
    qs.extend(tails(&records, &footer));
    qs
}

/// How many records each owner has, so lookups ask of names with one answer.
fn per_owner(records: &[ZoneRecord]) -> BTreeMap<&str, usize> {
    let mut n = BTreeMap::new();
    for r in records {
        *n.entry(r.owner.as_str()).or_default() += 1;
    }
    n
}

fn of_kind<'a>(records: &'a [ZoneRecord], kind: &str) -> Vec<&'a ZoneRecord> {
    records.iter().filter(|r| r.kind == kind).collect()
}

fn lookups(records: &[ZoneRecord]) -> Vec<Option<Question>> {
    let owners = per_owner(records);
    let alone = |r: &&ZoneRecord| owners.get(r.owner.as_str()) == Some(&1);
    let single_a = |r: &&ZoneRecord| {
        records.iter().filter(|x| x.owner == r.owner && x.kind == "A").count() == 1 && !r.owner.contains(".mgmt.")
    };
    let a = of_kind(records, "A");
    let mut qs = Vec::new();
    for f in [0.15, 0.45, 0.75] {
        qs.push(
            pick_at(&a, f, single_a)
                .and_then(|r| ask(format!("What address does {} resolve to?", r.owner), &r.owner, &[&r.data])),
        );
    }
    qs.push(
        pick_at(&of_kind(records, "AAAA"), 0.5, |_| true)
            .and_then(|r| ask(format!("What is the IPv6 address of {}?", r.owner), &r.owner, &[&r.data])),
    );
    for f in [0.3, 0.8] {
        qs.push(
            pick_at(&of_kind(records, "CNAME"), f, alone)
                .and_then(|r| ask(format!("What does {} point to?", r.owner), &r.owner, &[&r.data])),
        );
    }
    let short_ttl: Vec<&ZoneRecord> = records.iter().filter(|r| r.ttl != "3600" && r.kind == "TXT").collect();
    qs.push(
        pick_at(&short_ttl, 0.6, alone).and_then(|r| {
            ask(format!("What TTL does the {} record of {} have?", r.kind, r.owner), &r.owner, &[&r.ttl])
        }),
    );
    // An SRV record found by the host it names: its owner and port are the answer.
    let srv = of_kind(records, "SRV");
    let target = |r: &ZoneRecord| r.data.rsplit(' ').next().unwrap_or_default().to_owned();
    let named_once = |r: &&ZoneRecord| srv.iter().filter(|x| target(x) == target(r)).count() == 1;
    qs.push(pick_at(&srv, 0.5, named_once).and_then(|r| {
        let port = r.data.split(' ').nth(2).unwrap_or_default().to_owned();
        let host = target(r);
        let text = format!("Which SRV record points at {host}, and on which port?");
        ask(text, &host, &[r.owner.clone(), port])
    }));
    let bmcs: Vec<&ZoneRecord> = a.iter().copied().filter(|r| r.owner.contains(".mgmt.")).collect();
    qs.push(pick_at(&bmcs, 0.5, |_| true).and_then(|r| {
        let machine = r.owner.split('.').next().unwrap_or_default();
        let text = format!("What is the management (BMC) address of {machine}, named {}?", r.owner);
        ask(text, &r.owner, &[&r.data])
    }));
    qs.push(
        pick_at(&a, 0.7, |r| r.owner.starts_with("*.")).and_then(|r| {
            ask(format!("Which address does the wildcard {} answer with?", r.owner), &r.owner, &[&r.data])
        }),
    );
    qs
}

/// The site a host's owner name is in (`fra2` of `web01.fra2.example.com.`), given the
/// zone's origin.
fn site<'a>(owner: &'a str, origin: &str) -> Option<&'a str> {
    let relative = owner.strip_suffix(origin)?.trim_end_matches('.');
    let labels: Vec<&str> = relative.split('.').collect();
    (labels.len() >= 2).then(|| labels[labels.len() - 1])
}

fn aggregates(records: &[ZoneRecord], footer: &[(String, String)]) -> Vec<Option<Question>> {
    let origin = records.first().map(|r| r.owner.clone()).unwrap_or_default();
    let n = |kind: &str| records.iter().filter(|r| r.kind == kind).count();
    let mut qs = Vec::new();
    for kind in ["A", "AAAA", "CNAME", "TXT", "SRV"] {
        let text = format!("How many {kind} records does the zone have?");
        qs.push(Some(count(&text, &[&format!("{kind} records"), kind], n(kind), Some("type"))));
    }
    // The transfer's size as dig counts it, both SOA records included.
    if footer.iter().any(|(k, _)| k == "XFR size") {
        qs.push(Some(count("How many records did the transfer return?", &["records"], records.len(), None)));
    }
    let bmc = records.iter().filter(|r| r.owner.contains(".mgmt.")).count();
    qs.push(Some(count("How many BMC (mgmt) names does the zone hold?", &["mgmt", "BMC"], bmc, None)));
    let short = records.iter().filter(|r| r.ttl == "60").count();
    qs.push(Some(count("How many records have a TTL of 60 seconds?", &["TTL 60", "60"], short, Some("ttl"))));
    let a: Vec<&ZoneRecord> = records.iter().filter(|r| r.kind == "A").collect();
    let shared = most_frequent(a.iter().map(|r| r.data.as_str()));
    qs.push(extreme("Which address do the most names point to?", shared, true, None));
    let hosts = most_frequent(a.iter().filter(|r| !r.owner.contains(".mgmt.")).filter_map(|r| site(&r.owner, &origin)));
    qs.push(extreme("Which site has the most host A records?", hosts, true, None));
    let round_robin = most_frequent(a.iter().map(|r| r.owner.as_str()));
    qs.push(extreme("Which name has the most A records (round robin)?", round_robin, true, None));
    let targets = most_frequent(records.iter().filter(|r| r.kind == "CNAME").map(|r| r.data.as_str()));
    qs.push(extreme("Which CNAME target do the most names point to?", targets, true, None));
    qs
}

fn heads(t: &str, records: &[ZoneRecord]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    let head = |text: &str, must: &[&str]| Some(together(Kind::Head, text.to_owned(), None, must));
    if let Some(soa) = records.first().filter(|r| r.kind == "SOA") {
        let f: Vec<&str> = soa.data.split(' ').collect();
        if f.len() == 7 {
            qs.push(head("What is the zone's SOA serial?", &[f[2]]));
            qs.push(head("Which name server is the zone's primary, and who is its contact (SOA)?", &[f[0], f[1]]));
            let timers = f[3..].join(" ");
            qs.push(head("What refresh, retry, expire and minimum TTL does the SOA set?", &[&timers]));
        }
    }
    let apex: Vec<&ZoneRecord> = records.iter().skip(1).take_while(|r| r.owner == records[0].owner).collect();
    let ns: Vec<&str> = apex.iter().filter(|r| r.kind == "NS").map(|r| r.data.as_str()).collect();
    if !ns.is_empty() {
        qs.push(head("Which name servers does the zone list?", &ns));
    }
    if let Some(mx) = apex.iter().find(|r| r.kind == "MX") {
        qs.push(head("Which mail exchanger is listed first, with its priority?", &[&mx.data]));
    }
    if let Some(spf) = apex.iter().find(|r| r.kind == "TXT" && r.data.contains("v=spf1")) {
        qs.push(head("What does the zone's SPF record say?", &[&spf.data]));
    }
    // The banner: `; <<>> DiG 9.18.x <<>> @server zone AXFR`.
    if let Some(banner) = t.lines().find(|l| l.starts_with("; <<>> DiG ")) {
        let words: Vec<&str> = banner.split_whitespace().collect();
        if let Some(v) = words.get(3) {
            qs.push(head("Which version of dig made the transfer?", &[v]));
        }
        if let Some(server) = words.iter().find(|w| w.starts_with('@')) {
            qs.push(head("Which server was the transfer asked of?", &[server]));
        }
    }
    for (k, ordinal) in ORDINALS.iter().enumerate().take(4) {
        let Some(r) = records.get(k + 1) else { continue };
        let text = format!("Which record is the {ordinal} after the SOA?");
        qs.push(head(&text, &[&r.owner, &r.kind, &r.data]));
    }
    qs
}

fn tails(records: &[ZoneRecord], footer: &[(String, String)]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    let field = |key: &str| footer.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let tail = |text: &str, must: &[&str]| Some(together(Kind::Tail, text.to_owned(), None, must));
    if let Some(v) = field("Query time") {
        qs.push(tail("How long did the transfer take?", &[&v]));
    }
    if let Some(v) = field("SERVER") {
        let server = v.split('(').next().unwrap_or(&v).to_owned();
        qs.push(tail("Which server answered the transfer?", &[&server]));
    }
    if let Some(v) = field("WHEN") {
        qs.push(tail("When was the transfer made?", &[&v]));
    }
    if let Some(v) = field("XFR size") {
        qs.push(tail("How many records, messages and bytes did the transfer take?", &[&v]));
    }
    // The records before the closing SOA, from the end.
    let body = records.get(1..records.len().saturating_sub(1)).unwrap_or_default();
    for back in 0..6 {
        let Some(r) = body.len().checked_sub(back + 1).and_then(|i| body.get(i)) else { continue };
        let text = format!("Which record is the {} before the closing SOA?", to_last(back));
        qs.push(tail(&text, &[&r.owner, &r.kind, &r.data]));
    }
    qs
}
