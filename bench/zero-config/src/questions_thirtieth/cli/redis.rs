//! The questions asked of `redis-cli INFO all`: what someone looking after a Redis primary
//! asks (how often a command ran, what a call costs, how many failed, a command's latency
//! percentiles, a replica's offset, an error class's count, the eviction policy and memory
//! use; the most called and slowest commands, how many commands failed or were rejected,
//! the commonest error, the biggest database; the server's version, uptime and clients at
//! the top; the databases, the cluster flag and the last latency lines at the bottom).

use super::readers::{InfoLine, info_lines, lookup_at};
use super::to_last;
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, together};

/// Every question about the output `t`.
pub(crate) fn redis_questions(t: &str) -> Vec<Option<Question>> {
    let all = info_lines(t);
    let mut qs = lookups(&all);
    qs.extend(aggregates(&all));
    qs.extend(heads(t, &all));
    qs.extend(tails(&all));
    qs
}

/// A command as people write it: `CLIENT LIST` for `client|list`, `JSON.GET` for `json.get`.
pub(crate) fn spoken(name: &str) -> String {
    name.replace('|', " ").to_uppercase()
}

/// The lines of a section.
fn section<'a>(all: &'a [InfoLine], title: &str) -> Vec<&'a InfoLine> {
    all.iter().filter(|l| l.section == title).collect()
}

/// The command a `cmdstat_…` or `latency_percentiles_usec_…` key is about.
fn command(key: &str) -> &str {
    key.strip_prefix("cmdstat_").or_else(|| key.strip_prefix("latency_percentiles_usec_")).unwrap_or(key)
}

/// The value of the first line with `key`, as written.
fn setting<'a>(all: &'a [InfoLine], key: &str) -> Option<&'a InfoLine> {
    all.iter().find(|l| l.key == key)
}

fn field(l: &&InfoLine, name: &str) -> String {
    l.field(name).unwrap_or_default().to_owned()
}

fn lookups(all: &[InfoLine]) -> Vec<Option<Question>> {
    let ran: Vec<&InfoLine> =
        section(all, "Commandstats").into_iter().filter(|l| l.number("calls").is_some_and(|c| c > 0.0)).collect();
    let mut qs = Vec::new();
    for f in [0.15, 0.55, 0.9] {
        qs.push(lookup_at(
            &ran,
            f,
            |l| format!("How many times has {} been called since the stats were last reset?", spoken(command(&l.key))),
            |l| l.key.clone(),
            |l| vec![field(l, "calls")],
        ));
    }
    for f in [0.3, 0.7] {
        qs.push(lookup_at(
            &ran,
            f,
            |l| format!("How long does a {} call take on average (usec_per_call)?", spoken(command(&l.key))),
            |l| l.key.clone(),
            |l| vec![field(l, "usec_per_call")],
        ));
    }
    let failing: Vec<&InfoLine> =
        ran.iter().copied().filter(|l| l.number("failed_calls").is_some_and(|c| c > 0.0)).collect();
    qs.push(lookup_at(
        &failing,
        0.5,
        |l| format!("How many {} calls failed?", spoken(command(&l.key))),
        |l| l.key.clone(),
        |l| vec![field(l, "failed_calls")],
    ));
    let latencies = section(all, "Latencystats");
    for f in [0.25, 0.65, 0.9] {
        qs.push(lookup_at(
            &latencies,
            f,
            |l| format!("What are the p50, p99 and p99.9 latencies of {}?", spoken(command(&l.key))),
            |l| l.key.clone(),
            |l| vec![field(l, "p50"), field(l, "p99"), field(l, "p99.9")],
        ));
    }
    let replicas: Vec<&InfoLine> =
        section(all, "Replication").into_iter().filter(|l| l.key.starts_with("slave")).collect();
    let replica =
        replicas.iter().copied().find(|l| replicas.iter().filter(|o| o.field("ip") == l.field("ip")).count() == 1);
    qs.push(lookup_at(
        &replica.into_iter().collect::<Vec<_>>(),
        0.0,
        |l| format!("Which replication offset and lag does the replica at {} report?", field(l, "ip")),
        |l| field(l, "ip"),
        |l| vec![field(l, "offset"), field(l, "lag")],
    ));
    let errors = section(all, "Errorstats");
    qs.push(lookup_at(
        &errors,
        0.6,
        |l| format!("How many {} error replies has the server sent?", l.key.trim_start_matches("errorstat_")),
        |l| l.key.clone(),
        |l| vec![field(l, "count")],
    ));
    for (key, text) in [
        ("maxmemory_policy", "Which eviction policy is configured (maxmemory_policy)?"),
        ("used_memory_human", "How much memory does Redis use (used_memory_human)?"),
    ] {
        let line: Vec<&InfoLine> = setting(all, key).into_iter().collect();
        qs.push(lookup_at(&line, 0.0, |_| text.to_owned(), |l| l.key.clone(), |l| vec![l.value.clone()]));
    }
    qs
}

fn aggregates(all: &[InfoLine]) -> Vec<Option<Question>> {
    let commands = section(all, "Commandstats");
    let scored = |name: &str| -> Vec<(f64, String)> {
        commands.iter().filter_map(|l| Some((l.number(name)?, l.key.clone()))).collect()
    };
    let mut qs = vec![
        extreme("Which command has been called the most?", scored("calls"), true, Some("calls")),
        extreme(
            "Which command is the slowest per call (highest usec_per_call)?",
            scored("usec_per_call"),
            true,
            Some("usec_per_call"),
        ),
        extreme("Which command has used the most time in all (usec)?", scored("usec"), true, Some("usec")),
    ];
    let p99: Vec<(f64, String)> =
        section(all, "Latencystats").iter().filter_map(|l| Some((l.number("p99")?, l.key.clone()))).collect();
    qs.push(extreme("Which command has the highest p99 latency?", p99, true, Some("p99")));
    let with = |name: &str| commands.iter().filter(|l| l.number(name).is_some_and(|n| n > 0.0)).count();
    qs.push(Some(count(
        "How many commands have had failed calls?",
        &["failed_calls", "commands"],
        with("failed_calls"),
        Some("failed_calls"),
    )));
    qs.push(Some(count(
        "How many commands have had rejected calls?",
        &["rejected_calls", "commands"],
        with("rejected_calls"),
        Some("rejected_calls"),
    )));
    qs.push(Some(count(
        "How many commands does the Commandstats section list?",
        &["commands", "cmdstat"],
        commands.len(),
        None,
    )));
    let errors = section(all, "Errorstats");
    qs.push(Some(count(
        "How many error classes does Errorstats list?",
        &["errorstat", "error classes", "errors"],
        errors.len(),
        None,
    )));
    let by_count: Vec<(f64, String)> =
        errors.iter().filter_map(|l| Some((l.number("count")?, l.key.clone()))).collect();
    qs.push(extreme("Which error class has been replied most often?", by_count, true, Some("count")));
    let dbs = section(all, "Keyspace");
    qs.push(Some(count("How many databases hold keys?", &["databases", "db"], dbs.len(), None)));
    let keys: Vec<(f64, String)> = dbs.iter().filter_map(|l| Some((l.number("keys")?, l.key.clone()))).collect();
    let total: f64 = keys.iter().map(|k| k.0).sum();
    qs.push(Some(count("How many keys are there across all databases?", &["keys"], total as usize, Some("keys"))));
    qs.push(extreme("Which database has the most keys?", keys, true, Some("keys")));
    qs
}

fn heads(t: &str, all: &[InfoLine]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    if let Some(first) = t.lines().next() {
        qs.push(Some(together(
            Kind::Head,
            "Which section does the output start with?".into(),
            None,
            &[first.trim_end()],
        )));
    }
    for (key, text) in [
        ("redis_version", "Which Redis version is the server running?"),
        ("redis_mode", "Is the server standalone, sentinel or cluster (redis_mode)?"),
        ("os", "Which operating system and kernel is it running on?"),
        ("process_id", "What is the server's process id?"),
        ("uptime_in_days", "How many days has the server been up?"),
        ("config_file", "Which config file was the server started with?"),
        ("connected_clients", "How many clients are connected?"),
        ("maxclients", "What is maxclients set to?"),
        ("tcp_port", "Which TCP port does the server listen on?"),
    ] {
        if let Some(l) = setting(all, key) {
            qs.push(Some(together(Kind::Head, text.to_owned(), None, &[&l.key, &l.value])));
        }
    }
    qs
}

fn tails(all: &[InfoLine]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    let dbs = section(all, "Keyspace");
    // The first databases; the last is asked about below.
    for l in dbs.iter().take(4) {
        let text = format!("How many keys does {} hold, and how many of them have an expiry?", l.key);
        qs.push(Some(together(Kind::Tail, text, None, &[&l.key, &field(l, "keys"), &field(l, "expires")])));
    }
    if let Some(l) = dbs.last() {
        let text = "Which database is listed last in the Keyspace section, and what is its avg_ttl?".to_owned();
        qs.push(Some(together(Kind::Tail, text, None, &[&l.key, &field(l, "avg_ttl")])));
    }
    if let Some(l) = setting(all, "cluster_enabled") {
        let text = "Is cluster mode enabled on this server?".to_owned();
        qs.push(Some(together(Kind::Tail, text, None, &[&l.key, &l.value])));
    }
    let latencies = section(all, "Latencystats");
    for back in 0..6 {
        let Some(l) = latencies.len().checked_sub(back + 1).and_then(|i| latencies.get(i)) else { continue };
        let text = format!(
            "Which command is listed {} in the Latencystats section, and what are its p50 and p99.9?",
            to_last(back)
        );
        qs.push(Some(together(Kind::Tail, text, None, &[&l.key, &field(l, "p50"), &field(l, "p99.9")])));
    }
    qs
}
