//! The questions asked of a series of `docker stats --no-stream` snapshots: what someone
//! watching a busy host asks (a container's ID or the container of an ID, its memory
//! limit, its memory, CPU and disk I/O at a given time; how many snapshots there are, how
//! many containers run, how many near their memory limit or without one, which container
//! uses the most CPU, memory, PIDs, network or disk; the first snapshot's rows and the
//! last's).

use std::collections::BTreeSet;

use serde_json::Value;

use super::readers::{Snapshot, docker_snapshots};
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{at, count, extreme, only, scored_by, together};
use crate::record_questions::{about_record, lookup};

/// Every question about the output `t`.
pub(crate) fn docker_questions(t: &str) -> Vec<Option<Question>> {
    let snapshots = docker_snapshots(t);
    let mut qs = lookups(&snapshots);
    qs.extend(aggregates(&snapshots));
    qs.extend(heads_and_tails(&snapshots));
    qs
}

/// A row of the snapshot `f` of the way through the series, `g` of the way down it: the
/// question names the snapshot's time and the container, answered by `answers` of the row.
fn at_time(snapshots: &[Snapshot], f: f64, g: f64, q: &str, answers: &[&str]) -> Option<Question> {
    let s = snapshots.get(at(snapshots.len(), f))?;
    let row = s.rows.get(at(s.rows.len(), g))?;
    let name = row["name"].as_str()?;
    let mut must = vec![name.to_owned()];
    for a in answers {
        must.push(row[*a].as_str()?.to_owned());
    }
    let must: Vec<&str> = must.iter().map(String::as_str).collect();
    let text = q.replace("{time}", &s.time).replace("{key}", name);
    Some(together(Kind::Lookup, text, Some(name), &must))
}

/// A container's ID and limit; its usage at a given time.
fn lookups(snapshots: &[Snapshot]) -> Vec<Option<Question>> {
    let Some(last) = snapshots.last() else { return Vec::new() };
    let rows = &last.rows;
    let limited = only(rows, |r| rows.iter().any(|o| o["limit_n"].as_f64() > r["limit_n"].as_f64()));
    let usage_q = "In the snapshot taken at {time}, how much memory did {key} use, and what was its CPU %?";
    vec![
        lookup(rows, 0.2, "What is the container ID of {key}?", "name", &["id"]),
        lookup(rows, 0.55, "What is the container ID of {key}?", "name", &["id"]),
        lookup(rows, 0.85, "What is the container ID of {key}?", "name", &["id"]),
        lookup(rows, 0.4, "Which container has the ID {key}?", "id", &["name"]),
        lookup(&limited, 0.3, "What memory limit is {key} running with?", "name", &["limit"]),
        lookup(&limited, 0.75, "What memory limit is {key} running with?", "name", &["limit"]),
        at_time(snapshots, 0.3, 0.5, usage_q, &["mem", "cpu"]),
        at_time(snapshots, 0.5, 0.2, usage_q, &["mem", "cpu"]),
        at_time(snapshots, 0.7, 0.8, usage_q, &["mem", "cpu"]),
        at_time(
            snapshots,
            0.4,
            0.65,
            "At {time}, how much had {key} read from and written to disk (BLOCK I/O)?",
            &["block"],
        ),
        at_time(snapshots, 0.6, 0.35, "At {time}, how much network traffic (NET I/O) had {key} seen?", &["net"]),
    ]
}

/// How many snapshots and containers; which container holds an extreme.
fn aggregates(snapshots: &[Snapshot]) -> Vec<Option<Question>> {
    let (Some(first), Some(last)) = (snapshots.first(), snapshots.last()) else { return Vec::new() };
    let rows = &last.rows;
    let by = |list: &[Value], field: &str| scored_by(list, |r| r[field].as_f64(), "name");
    let names: BTreeSet<&str> = snapshots.iter().flat_map(|s| &s.rows).filter_map(|r| r["name"].as_str()).collect();
    let host = rows.iter().filter_map(|r| r["limit_n"].as_f64()).fold(0.0, f64::max);
    let every: Vec<Value> = snapshots.iter().flat_map(|s| s.rows.iter().cloned()).collect();
    vec![
        Some(count("How many snapshots does the output hold?", &["snapshots"], snapshots.len(), None)),
        Some(count(
            "How many containers were running in the last snapshot?",
            &["containers"],
            rows.len(),
            Some("NAME"),
        )),
        Some(count(
            "How many containers were running in the first snapshot?",
            &["containers"],
            first.rows.len(),
            Some("NAME"),
        )),
        Some(count(
            "How many different containers appear across all snapshots?",
            &["containers"],
            names.len(),
            Some("NAME"),
        )),
        Some(count(
            "In the last snapshot, how many containers use more than half of their memory limit (MEM % above 50)?",
            &["MEM %"],
            rows.iter().filter(|r| r["mem_pct_n"].as_f64().is_some_and(|p| p > 50.0)).count(),
            Some("MEM %"),
        )),
        Some(count(
            "In the last snapshot, how many containers run without a memory limit of their own (their limit is the host's memory)?",
            &["limit"],
            rows.iter().filter(|r| r["limit_n"].as_f64() == Some(host)).count(),
            Some("MEM USAGE / LIMIT"),
        )),
        extreme("In the last snapshot, which container uses the most CPU?", by(rows, "cpu_n"), true, Some("CPU %")),
        extreme(
            "In the first snapshot, which container uses the most CPU?",
            by(&first.rows, "cpu_n"),
            true,
            Some("CPU %"),
        ),
        extreme(
            "In the last snapshot, which container uses the most memory?",
            by(rows, "mem_n"),
            true,
            Some("MEM USAGE / LIMIT"),
        ),
        extreme(
            "In the last snapshot, which container is closest to its memory limit (the highest MEM %)?",
            by(rows, "mem_pct_n"),
            true,
            Some("MEM %"),
        ),
        extreme("In the last snapshot, which container runs the most PIDs?", by(rows, "pids_n"), true, Some("PIDS")),
        extreme(
            "In the last snapshot, which container has received the most network traffic?",
            by(rows, "net_in_n"),
            true,
            Some("NET I/O"),
        ),
        extreme(
            "In the last snapshot, which container has written the most to disk?",
            by(rows, "block_out_n"),
            true,
            Some("BLOCK I/O"),
        ),
        extreme("Which container reached the highest CPU % in any snapshot?", by(&every, "cpu_n"), true, Some("CPU %")),
    ]
}

/// The first snapshot's time and rows; the last snapshot's.
fn heads_and_tails(snapshots: &[Snapshot]) -> Vec<Option<Question>> {
    let (Some(first), Some(last)) = (snapshots.first(), snapshots.last()) else { return Vec::new() };
    let mut qs = vec![Some(together(Kind::Head, "When was the first snapshot taken?".into(), None, &[&first.time]))];
    for (k, ordinal) in ORDINALS.iter().take(8).enumerate() {
        let text = format!("Which container is listed {ordinal} in the first snapshot, and what was its CPU %?");
        qs.push(about_record(first.rows.get(k), Kind::Head, &text, &["name", "cpu"]));
    }
    qs.push(Some(together(Kind::Tail, "When was the last snapshot taken?".into(), None, &[&last.time])));
    for back in 0..8 {
        let row = last.rows.len().checked_sub(back + 1).and_then(|i| last.rows.get(i));
        let text = format!(
            "Which container is listed {} in the last snapshot, and what are its memory usage and limit and its PIDS?",
            to_last(back)
        );
        qs.push(about_record(row, Kind::Tail, &text, &["name", "mem", "pids"]));
    }
    qs
}
