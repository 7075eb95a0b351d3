//! The questions asked of the fourteenth part's text results, once their readers have
//! made records of them: `SHOW FULL PROCESSLIST`, `zfs list -t snapshot`, `strace -f`
//! and `tcpdump -nn`.

use std::collections::BTreeMap;

use serde_json::Value;

use super::readers::{packets, processlist, snapshots, strace_lines};
use super::{only, scored_by};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, count, extreme, most_frequent, pick, s, together};

/// The records of `list` whose `field` no other record shares.
fn unique_by(list: &[Value], field: &str) -> Vec<Value> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for x in list {
        if let Some(v) = s(x, field) {
            *seen.entry(v).or_default() += 1;
        }
    }
    only(list, |x| s(x, field).is_some_and(|v| seen.get(&v) == Some(&1)))
}

/// `SHOW FULL PROCESSLIST`: the first and last connection, what a connection is running,
/// where it comes from, who it is and how long it has slept; how many sleep, wait for the
/// metadata lock, belong to a user or come from a host; the longest-running query, the
/// longest-idle connection and the host with most connections.
pub(crate) fn processlist_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = processlist(ls);
    let r = Records { list: &rows };
    let ends = |x: Option<&Value>, kind: Kind, q: &str| {
        let x = x?;
        Some(together(kind, q.into(), None, &[x["Id"].as_str()?, x["User"].as_str()?]))
    };
    let running = only(&rows, |x| x["Command"] == "Query" && x["Info"] != "NULL");
    let sleeping = only(&rows, |x| x["Command"] == "Sleep");
    let locked = rows.iter().filter(|x| x["State"] == "Waiting for table metadata lock").count();
    vec![
        ends(rows.first(), Kind::Head, "Which connection is listed first in the process list? Give its Id and user."),
        ends(rows.last(), Kind::Tail, "Which connection is listed last? Give its Id and user."),
        Records { list: &running }.lookup("What query is connection {key} running?", 0.6, "Id", "Info"),
        r.lookup("Which host is connection {key} connected from?", 0.3, "Id", "Host"),
        r.lookup("Which user is connection {key} logged in as?", 0.9, "Id", "User"),
        Records { list: &sleeping }.lookup("How many seconds has connection {key} been idle?", 0.45, "Id", "Time"),
        Some(count("How many connections are sleeping?", &["Sleep"], sleeping.len(), Some("Command"))),
        Some(count(
            "How many queries are waiting for a table metadata lock?",
            &["Waiting for table metadata lock", "metadata lock"],
            locked,
            Some("State"),
        )),
        about("User", r.count("How many connections does {value} have open?", "User", None)),
        about("Host", r.count("How many connections come from {value}?", "ip", None)),
        about(
            "Time",
            Records { list: &running }.extreme(
                "Which query has been running the longest? Give its connection Id.",
                "Time",
                "Id",
                true,
            ),
        ),
        about(
            "Time",
            Records { list: &sleeping }.extreme(
                "Which sleeping connection has been idle the longest? Give its Id.",
                "Time",
                "Id",
                true,
            ),
        ),
        extreme(
            "Which client host has the most connections?",
            most_frequent(rows.iter().filter_map(|x| x["ip"].as_str())),
            true,
            Some("Host"),
        ),
    ]
}

/// `zfs list -t snapshot`: the first and last snapshot, how much space one uses and how
/// much data it refers to; how many a dataset has, are monthly or use nothing; the
/// snapshot using most space, the one referring to most data and the dataset whose
/// snapshots use most in all.
pub(crate) fn snapshot_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = snapshots(ls);
    let r = Records { list: &rows };
    let monthly = rows.iter().filter(|x| x["kind"] == "monthly").count();
    let empty = rows.iter().filter(|x| x["used"] == "0B").count();
    let mut per: BTreeMap<String, f64> = BTreeMap::new();
    for x in &rows {
        if let (Some(d), Some(b)) = (s(x, "dataset"), x["used_bytes"].as_f64()) {
            *per.entry(d).or_default() += b;
        }
    }
    vec![
        r.head("Which snapshot is listed first?", "name"),
        r.tail("Which snapshot is listed last?", "name"),
        r.lookup("How much space does snapshot {key} use?", 0.6, "name", "used"),
        r.lookup("How much data does snapshot {key} refer to?", 0.3, "name", "refer"),
        r.lookup("How much space does snapshot {key} use?", 0.9, "name", "used"),
        about("NAME", r.count("How many snapshots are there of {value}?", "dataset", None)),
        Some(count("How many monthly snapshots are there?", &["monthly"], monthly, Some("NAME"))),
        Some(count("How many snapshots use no space at all?", &["0B"], empty, Some("USED"))),
        about("USED", r.extreme("Which snapshot uses the most space?", "used_bytes", "name", true)),
        about("REFER", r.extreme("Which snapshot refers to the most data?", "refer_bytes", "name", true)),
        extreme(
            "Which dataset's snapshots use the most space in total?",
            per.into_iter().map(|(d, b)| (b, d)).collect(),
            true,
            Some("USED"),
        ),
    ]
}

/// `strace -f`: the program started and how the trace ended, what opening a file
/// returned, which request a worker read, how long a call took; how many calls failed
/// with ENOENT, processes were attached, connections refused or accepted; the process
/// stuck in the slowest call, the one making most calls and the worker accepting most.
pub(crate) fn strace_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = strace_lines(ls);
    let text = |x: &Value| x["text"].as_str().unwrap_or("").to_owned();
    let calls = only(&rows, |x| x["name"] != "");
    // The path an `openat` names and what it returned (`= 3`, `= -1 ENOENT`).
    let opened = |x: &Value| -> Option<(String, String)> {
        let t = text(x);
        let path = t.strip_prefix("openat(AT_FDCWD, \"")?.split('"').next()?.to_owned();
        let ret = x["ret"].as_str()?;
        let shown =
            if ret.starts_with("-1 ") { ret.split(' ').take(2).collect::<Vec<_>>().join(" ") } else { ret.to_owned() };
        Some((path, format!("= {shown}")))
    };
    let opens: Vec<Value> = calls
        .iter()
        .filter_map(|x| {
            let (path, ret) = opened(x)?;
            let mut x = x.clone();
            x["path"] = Value::from(path);
            x["shown"] = Value::from(ret);
            Some(x)
        })
        .collect();
    let opens = unique_by(&opens, "path");
    let requests = only(&calls, |x| {
        let t = text(x);
        t.starts_with("recvfrom(") && (t.contains("\"GET ") || t.contains("\"POST "))
    });
    let request = |x: &Value| -> Option<String> {
        let t = text(x);
        Some(t.split('"').nth(1)?.split("\\r\\n").next()?.to_owned())
    };
    let timed = unique_by(&only(&calls, |x| x["dur"].is_number() && x["time"] != ""), "time");
    let exec = ls.first().and_then(|l| l.split("execve(\"").nth(1)?.split('"').next());
    let enoent = calls.iter().filter(|x| x["ret"].as_str().is_some_and(|r| r.starts_with("-1 ENOENT"))).count();
    let attached = ls.iter().filter(|l| l.starts_with("strace: Process ") && l.ends_with(" attached")).count();
    let refused = calls.iter().filter(|x| x["ret"].as_str().is_some_and(|r| r.contains("ECONNREFUSED"))).count();
    let accepted: Vec<&Value> = calls
        .iter()
        .filter(|x| x["name"] == "accept4" && x["ret"].as_str().is_some_and(|r| !r.starts_with('-')))
        .collect();
    vec![
        exec.map(|p| together(Kind::Head, "Which program was started under strace?".into(), None, &[p])),
        ls.last().map(|l| together(Kind::Tail, "How did the traced program end?".into(), None, &[l.trim()])),
        pick(&opens, 0.6, "What did opening {key} return?", &|x| s(x, "path"), &|x| {
            Some(vec![s(x, "path")?, s(x, "shown")?])
        }),
        pick(&requests, 0.3, "Which request did the worker read from its client at {key}?", &|x| s(x, "time"), &|x| {
            Some(vec![s(x, "time")?, request(x)?])
        }),
        pick(&timed, 0.9, "How long did the call at {key} take?", &|x| s(x, "time"), &|x| {
            let d = text(x).rsplit_once(" <")?.1.trim_end_matches('>').to_owned();
            Some(vec![s(x, "time")?, format!("<{d}>")])
        }),
        Some(count("How many system calls failed with ENOENT?", &["ENOENT"], enoent, None)),
        Some(count("How many processes did strace attach to?", &["attached", "processes"], attached, None)),
        Some(count("How many connection attempts were refused?", &["ECONNREFUSED", "refused"], refused, None)),
        Some(count("How many connections did the workers accept?", &["accept4", "accepted"], accepted.len(), None)),
        extreme(
            "Which process was stuck in the longest system call? Give its pid.",
            scored_by(&calls, |x| x["dur"].as_f64(), "pid"),
            true,
            Some("pid"),
        ),
        extreme(
            "Which process made the most system calls?",
            most_frequent(calls.iter().filter_map(|x| x["pid"].as_str())),
            true,
            Some("pid"),
        ),
        extreme(
            "Which worker accepted the most connections?",
            most_frequent(accepted.iter().filter_map(|x| x["pid"].as_str())),
            true,
            Some("pid"),
        ),
    ]
}

/// `tcpdump -nn`: when the capture starts and ends, what a name resolved to, what a DNS
/// query asked, what a packet carried and its flags; how many DNS queries, resets, pings
/// and database packets; the host sending most packets, the one sent most data and the
/// name looked up most.
pub(crate) fn tcpdump_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = packets(ls);
    let me = "10.20.4.17";
    let queries = only(&rows, |x| x["qname"].is_string());
    let answers = only(&rows, |x| x["answer"].is_string());
    // Names asked for (as A records) only once, with the answer to that query.
    let asked_once: Vec<Value> = {
        let a = only(&queries, |x| x["qtype"] == "A");
        let once = unique_by(&a, "qname");
        once.iter()
            .filter_map(|q| {
                let ans = answers.iter().find(|x| x["dns_id"] == q["dns_id"])?;
                let mut q = q.clone();
                q["answer"] = ans["answer"].clone();
                q["counts"] = ans["counts"].clone();
                Some(q)
            })
            .collect()
    };
    let carrying = unique_by(&only(&rows, |x| x["length"].as_u64().is_some_and(|n| n > 0)), "time");
    let flagged = unique_by(&only(&rows, |x| x["flags"].is_string()), "time");
    let resets = rows.iter().filter(|x| x["flags"].as_str().is_some_and(|f| f.starts_with('R'))).count();
    let pings = rows.iter().filter(|x| x["text"].as_str().is_some_and(|t| t.contains("ICMP echo request"))).count();
    let db = rows.iter().filter(|x| x["src"] == "10.20.2.30" || x["dst"] == "10.20.2.30").count();
    let mut sent: BTreeMap<String, u64> = BTreeMap::new();
    for x in rows.iter().filter(|x| x["src"] == me) {
        if let (Some(d), Some(n)) = (s(x, "dst"), x["length"].as_u64()) {
            *sent.entry(d).or_default() += n;
        }
    }
    vec![
        rows.first().and_then(|x| {
            Some(together(Kind::Head, "When was the first packet captured?".into(), None, &[x["time"].as_str()?]))
        }),
        rows.last().and_then(|x| {
            Some(together(Kind::Tail, "When was the last packet captured?".into(), None, &[x["time"].as_str()?]))
        }),
        pick(
            &asked_once,
            0.5,
            "What address did {key} resolve to?",
            &|x| Some(s(x, "qname")?.trim_end_matches('.').to_owned()),
            &|x| Some(vec![format!("{} {}", s(x, "dns_id")?, s(x, "counts")?), format!("A {}", s(x, "answer")?)]),
        ),
        pick(&queries, 0.3, "What did DNS query {key} ask for?", &|x| s(x, "dns_id"), &|x| {
            Some(vec![format!("{}+", s(x, "dns_id")?), format!("{}? {}", s(x, "qtype")?, s(x, "qname")?)])
        }),
        pick(&carrying, 0.45, "How many bytes of data did the packet at {key} carry?", &|x| s(x, "time"), &|x| {
            Some(vec![s(x, "time")?, format!("length {}", x["length"].as_u64()?)])
        }),
        pick(&flagged, 0.9, "Which TCP flags did the packet at {key} have?", &|x| s(x, "time"), &|x| {
            Some(vec![s(x, "time")?, format!("Flags [{}]", s(x, "flags")?)])
        }),
        Some(count("How many DNS queries did the server send?", &["queries", "DNS queries"], queries.len(), None)),
        Some(count("How many TCP resets are in the capture?", &["RST", "resets", "[R.]"], resets, None)),
        Some(count("How many pings did the server get?", &["echo request", "ICMP echo request"], pings, None)),
        Some(count(
            "How many packets were exchanged with the database at 10.20.2.30?",
            &["10.20.2.30", "10.20.2.30.5432"],
            db,
            None,
        )),
        extreme(
            "Which host sent the most packets?",
            most_frequent(rows.iter().filter_map(|x| x["src"].as_str())),
            true,
            Some("IP"),
        ),
        extreme(
            "Which host did the server send the most data to?",
            sent.into_iter().map(|(d, n)| (n, d)).collect(),
            true,
            Some("length"),
        ),
        extreme(
            "Which name was looked up most often?",
            most_frequent(queries.iter().filter(|x| x["qtype"] == "A").filter_map(|x| x["qname"].as_str())),
            true,
            Some("A?"),
        ),
    ]
}
