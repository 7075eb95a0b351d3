//! The questions asked of `journalctl -o json`: what someone on call asks of a day of a
//! server's journal (which unit or process logged a message and when, at what priority,
//! from which line of code; how many errors PostgreSQL logged, how often the payments API
//! was restarted, how many upstream timeouts nginx saw, which unit was noisiest; the
//! first entries and the last, with the cursor to resume from).

use serde_json::{Value, json};

use super::readers::journal;
use super::{ends, lookup_many, nth};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{count, extreme, most_frequent, only, scored_by};

/// A journal field of an entry as a string.
fn field<'a>(x: &'a Value, f: &str) -> Option<&'a str> {
    x[f].as_str()
}

/// The priority of an entry as a number.
fn priority(x: &Value) -> Option<u8> {
    field(x, "PRIORITY")?.parse().ok()
}

/// Whether an entry's message holds `s`.
fn says(x: &Value, s: &str) -> bool {
    field(x, "MESSAGE").is_some_and(|m| m.contains(s))
}

/// The client address nginx names in an error (`client: 203.0.113.7,`).
fn client(x: &Value) -> Option<&str> {
    let m = field(x, "MESSAGE")?;
    let start = m.find("client: ")? + "client: ".len();
    let end = start + m[start..].find(',')?;
    Some(&m[start..end])
}

/// The duration of a slow statement PostgreSQL logged (`duration: 9491.498 ms`), in
/// milliseconds and as printed.
fn duration(x: &Value) -> Option<(f64, String)> {
    let m = field(x, "MESSAGE")?;
    let start = m.find("duration: ")? + "duration: ".len();
    let end = start + m[start..].find(" ms")?;
    Some((m[start..end].parse().ok()?, format!("{} ms", &m[start..end])))
}

/// How many errors (priority 3) each PID of `entries` logged, as records.
fn errors_by_pid(entries: &[Value]) -> Vec<Value> {
    most_frequent(entries.iter().filter(|x| priority(x) == Some(3)).filter_map(|x| field(x, "_PID")))
        .into_iter()
        .map(|(n, pid)| json!({"pid": pid, "n": n}))
        .collect()
}

/// Every question about the journal's lines `ls`.
pub(crate) fn journal_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let entries = journal(ls);
    let mut qs = lookups(&entries);
    qs.extend(aggregates(&entries));
    qs.extend(heads_and_tails(&entries));
    qs
}

/// Which unit, PID, invocation, process, code or time logged a message; its priority,
/// cursor and sequence number.
fn lookups(entries: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: entries };
    let own = only(entries, |x| field(x, "_PID") != Some("1"));
    let apps = only(&own, |x| field(x, "CODE_FILE").is_some());
    let postgres = only(entries, |x| field(x, "_SYSTEMD_UNIT") == Some("postgresql.service"));
    let o = Records { list: &own };
    vec![
        o.lookup("Which unit logged \"{key}\"?", 0.35, "MESSAGE", "_SYSTEMD_UNIT"),
        o.lookup("Which PID logged \"{key}\"?", 0.5, "MESSAGE", "_PID"),
        r.lookup("When (__REALTIME_TIMESTAMP) was \"{key}\" logged?", 0.7, "MESSAGE", "__REALTIME_TIMESTAMP"),
        r.lookup("What priority does the entry \"{key}\" have?", 0.85, "MESSAGE", "PRIORITY"),
        lookup_many(&apps, 0.4, "Which source file and line logged \"{key}\"?", "MESSAGE", &["CODE_FILE", "CODE_LINE"]),
        Records { list: &apps }.lookup("Which function logged \"{key}\"?", 0.9, "MESSAGE", "CODE_FUNC"),
        o.lookup(
            "Which invocation of its unit logged \"{key}\" (_SYSTEMD_INVOCATION_ID)?",
            0.65,
            "MESSAGE",
            "_SYSTEMD_INVOCATION_ID",
        ),
        Records { list: &postgres }.lookup(
            "Which PostgreSQL process (its command line) logged \"{key}\"?",
            0.5,
            "MESSAGE",
            "_CMDLINE",
        ),
        r.lookup("What is the cursor of the entry \"{key}\"?", 0.45, "MESSAGE", "__CURSOR"),
        r.lookup("What is the sequence number (__SEQNUM) of the entry \"{key}\"?", 0.25, "MESSAGE", "__SEQNUM"),
    ]
}

/// Errors and warnings by unit, restarts, PIDs, timeouts, transports and deadlocks; the
/// noisiest unit, app, client, source file and nginx worker, and the slowest statement.
fn aggregates(entries: &[Value]) -> Vec<Option<Question>> {
    let unit = |u: &'static str| move |x: &Value| field(x, "_SYSTEMD_UNIT") == Some(u);
    let apps = only(entries, |x| field(x, "_PID") != Some("1") && field(x, "CODE_FILE").is_some());
    let postgres = only(entries, unit("postgresql.service"));
    let nginx = only(entries, unit("nginx.service"));
    let payments = only(entries, unit("app@payments.service"));
    let at_most = |x: &Value, p: u8| priority(x).is_some_and(|q| q <= p);
    let severe: Vec<&Value> = entries.iter().filter(|x| at_most(x, 3)).collect();
    let mut pids: Vec<&str> = payments.iter().filter_map(|x| field(x, "_PID")).collect();
    pids.sort_unstable();
    pids.dedup();
    let restarts = entries
        .iter()
        .filter(|x| field(x, "UNIT") == Some("app@payments.service") && says(x, "Scheduled restart job"))
        .count();
    let syslog = entries.iter().filter(|x| field(x, "_TRANSPORT") == Some("syslog")).count();
    vec![
        Some(count(
            "How many entries at priority 3 (err) or more severe did postgresql.service log?",
            &["postgresql", "err"],
            postgres.iter().filter(|x| at_most(x, 3)).count(),
            Some("PRIORITY"),
        )),
        Some(count(
            "How many warning-priority (PRIORITY 4) entries did nginx.service log?",
            &["nginx", "warning"],
            nginx.iter().filter(|x| priority(x) == Some(4)).count(),
            Some("PRIORITY"),
        )),
        Some(count(
            "How many times did systemd schedule a restart of app@payments.service?",
            &["restart"],
            restarts,
            Some("MESSAGE"),
        )),
        Some(count(
            "How many entries are at priority 3 (err) or more severe?",
            &["err", "PRIORITY"],
            severe.len(),
            Some("PRIORITY"),
        )),
        Some(count(
            "How many different PIDs did app@payments.service log from?",
            &["PIDs", "processes"],
            pids.len(),
            Some("_PID"),
        )),
        Some(count(
            "How many upstream timeouts did nginx log?",
            &["timed out", "timeouts"],
            nginx.iter().filter(|x| says(x, "upstream timed out")).count(),
            Some("MESSAGE"),
        )),
        Some(count("How many entries came in through syslog?", &["syslog"], syslog, Some("_TRANSPORT"))),
        Some(count(
            "How many deadlocks did PostgreSQL detect?",
            &["deadlock"],
            postgres.iter().filter(|x| says(x, "deadlock detected")).count(),
            Some("MESSAGE"),
        )),
        extreme(
            "Which unit logged the most entries?",
            most_frequent(entries.iter().filter_map(|x| field(x, "_SYSTEMD_UNIT"))),
            true,
            Some("_SYSTEMD_UNIT"),
        ),
        extreme(
            "Which unit logged the most entries at priority 3 (err) or more severe?",
            most_frequent(severe.iter().filter_map(|x| field(x, "_SYSTEMD_UNIT"))),
            true,
            Some("PRIORITY"),
        ),
        extreme(
            "Which app@ service logged the most warnings (PRIORITY 4)?",
            most_frequent(apps.iter().filter(|x| priority(x) == Some(4)).filter_map(|x| field(x, "_SYSTEMD_UNIT"))),
            true,
            Some("PRIORITY"),
        ),
        extreme(
            "Which client address appears in the most nginx errors?",
            most_frequent(nginx.iter().filter_map(client)),
            true,
            Some("MESSAGE"),
        ),
        extreme(
            "How long did the slowest statement PostgreSQL logged take?",
            postgres.iter().filter_map(duration).collect(),
            true,
            Some("MESSAGE"),
        ),
        extreme(
            "Which source file logged the most entries?",
            most_frequent(apps.iter().filter_map(|x| field(x, "CODE_FILE"))),
            true,
            Some("CODE_FILE"),
        ),
        extreme(
            "Which nginx worker logged the most errors?",
            scored_by(&errors_by_pid(&nginx), |x| x["n"].as_u64(), "pid"),
            true,
            Some("_PID"),
        ),
    ]
}

/// The first entries and the last: message, time, cursor, unit, PID, priority.
fn heads_and_tails(entries: &[Value]) -> Vec<Option<Question>> {
    let back = |k: usize| entries.len().checked_sub(k).and_then(|i| entries.get(i));
    let mut qs = Vec::new();
    for (x, kind, which) in [(entries.first(), Kind::Head, "first"), (entries.last(), Kind::Tail, "last")] {
        qs.extend([
            ends(x, kind, &format!("What does the {which} entry say?"), &["MESSAGE"]),
            ends(
                x,
                kind,
                &format!("When was the {which} entry logged (__REALTIME_TIMESTAMP)?"),
                &["__REALTIME_TIMESTAMP"],
            ),
            ends(x, kind, &format!("What is the cursor of the {which} entry?"), &["__CURSOR"]),
            ends(
                x,
                kind,
                &format!("Which unit does the {which} entry come from?"),
                &["__REALTIME_TIMESTAMP", "_SYSTEMD_UNIT"],
            ),
            ends(x, kind, &format!("Which PID logged the {which} entry?"), &["__REALTIME_TIMESTAMP", "_PID"]),
            ends(
                x,
                kind,
                &format!("What priority does the {which} entry have?"),
                &["__REALTIME_TIMESTAMP", "PRIORITY"],
            ),
            ends(
                x,
                kind,
                &format!("What is the monotonic timestamp of the {which} entry?"),
                &["__MONOTONIC_TIMESTAMP"],
            ),
            ends(x, kind, &format!("What is the sequence number (__SEQNUM) of the {which} entry?"), &["__SEQNUM"]),
        ]);
    }
    qs.extend([
        ends(nth(entries, 1), Kind::Head, "What does the second entry say?", &["MESSAGE"]),
        ends(
            nth(entries, 2),
            Kind::Head,
            "What does the third entry say, and which unit logged it?",
            &["MESSAGE", "_SYSTEMD_UNIT"],
        ),
        ends(back(2), Kind::Tail, "What does the second-to-last entry say?", &["MESSAGE"]),
        ends(
            back(3),
            Kind::Tail,
            "What does the third-to-last entry say, and which unit logged it?",
            &["MESSAGE", "_SYSTEMD_UNIT"],
        ),
    ]);
    qs
}
