//! The questions asked of `zpool status -v` on a storage server: what its administrator
//! asks after an alert (the state and last scan of a pool; the state, vdev and error
//! counts of a disk; the pool of a damaged file; how many disks are FAULTED or show
//! checksum errors, how many pools are DEGRADED, how many files are damaged, which disk
//! has the most errors; the first pool at the top and the last pool's devices at the end).

use serde_json::Value;

use super::from_end;
use super::readers::{zpool_count, zpool_status};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, only, scored_by};
use crate::record_questions::{about_record, lookup};

/// Every question about the output `t`.
pub(crate) fn zpool_questions(t: &str) -> Vec<Option<Question>> {
    let z = zpool_status(t);
    let leaves = only(&z.rows, |x| x["kind"] == "leaf" && x["section"] == "data");
    let mut qs = lookups(&z.pools, &leaves, &z.rows, &z.files);
    qs.extend(aggregates(&z.pools, &leaves, &z.rows, &z.files));
    qs.extend(heads_and_tails(&z.pools, &z.rows, &z.files));
    qs
}

fn counted(x: &Value, field: &str) -> Option<f64> {
    zpool_count(x[field].as_str()?)
}

/// A disk's state, vdev and counts; a pool's state and scan; a damaged file's pool.
fn lookups(pools: &[Value], leaves: &[Value], rows: &[Value], files: &[Value]) -> Vec<Option<Question>> {
    let with_cksum = only(leaves, |x| counted(x, "cksum").is_some_and(|n| n > 0.0));
    let troubled = only(leaves, |x| x["state"] != "ONLINE" && x["note"].is_string());
    let spares = only(rows, |x| x["section"] == "spares");
    vec![
        lookup(leaves, 0.3, "What state is the disk {key} in?", "name", &["state"]),
        lookup(leaves, 0.85, "What state is the disk {key} in?", "name", &["state"]),
        lookup(leaves, 0.6, "Which vdev is the disk {key} part of?", "name", &["vdev"]),
        lookup(&with_cksum, 0.4, "How many checksum (CKSUM) errors does {key} have?", "name", &["cksum"]),
        lookup(&with_cksum, 0.9, "How many checksum (CKSUM) errors does {key} have?", "name", &["cksum"]),
        lookup(
            &troubled,
            0.5,
            "What state is {key} in, and what does zpool note about it?",
            "name",
            &["state", "note"],
        ),
        lookup(&troubled, 0.2, "How many read and write errors does {key} show?", "name", &["read", "write"]),
        lookup(pools, 0.5, "What state is the pool {key} in?", "pool", &["state"]),
        lookup(pools, 0.99, "What does the scan line of pool {key} say?", "pool", &["scan"]),
        lookup(pools, 0.4, "What does the errors line of pool {key} say?", "pool", &["errors"]),
        lookup(files, 0.5, "Which pool holds the damaged file {key}?", "file", &["pool"]),
        lookup(&spares, 0.5, "Is the spare {key} available or in use?", "name", &["state"]),
    ]
}

/// How many disks are FAULTED, pools DEGRADED, files damaged; which disk has most errors.
fn aggregates(pools: &[Value], leaves: &[Value], rows: &[Value], files: &[Value]) -> Vec<Option<Question>> {
    let n = |list: &[Value], keep: &dyn Fn(&Value) -> bool| list.iter().filter(|x| keep(x)).count();
    let mut qs = vec![
        Some(count(
            "How many disks are FAULTED?",
            &["FAULTED"],
            n(leaves, &|x| x["state"] == "FAULTED"),
            Some("state"),
        )),
        Some(count(
            "How many pools are DEGRADED?",
            &["DEGRADED"],
            n(pools, &|x| x["state"] == "DEGRADED"),
            Some("state"),
        )),
        Some(count("How many pools are ONLINE?", &["ONLINE"], n(pools, &|x| x["state"] == "ONLINE"), Some("state"))),
        Some(count("How many pools does the server have?", &["pools"], pools.len(), Some("pool"))),
        Some(count(
            "How many disks show checksum (CKSUM) errors?",
            &["CKSUM"],
            n(leaves, &|x| counted(x, "cksum").is_some_and(|c| c > 0.0)),
            Some("cksum"),
        )),
        Some(count(
            "How many disks are not ONLINE?",
            &["not ONLINE"],
            n(leaves, &|x| x["state"] != "ONLINE"),
            Some("state"),
        )),
        Some(count("How many files have permanent errors?", &["permanent errors", "files"], files.len(), Some("file"))),
        Some(count("How many hot spares are AVAIL?", &["AVAIL"], n(rows, &|x| x["state"] == "AVAIL"), Some("state"))),
        Some(count(
            "How many raidz2 vdevs are there across all pools?",
            &["raidz2"],
            n(rows, &|x| x["kind"] == "vdev" && x["name"].as_str().is_some_and(|v| v.starts_with("raidz2-"))),
            Some("name"),
        )),
        extreme(
            "Which disk has the most checksum (CKSUM) errors?",
            scored_by(leaves, |x| counted(x, "cksum"), "name"),
            true,
            Some("cksum"),
        ),
        extreme(
            "Which disk has the most WRITE errors?",
            scored_by(leaves, |x| counted(x, "write"), "name"),
            true,
            Some("write"),
        ),
        extreme(
            "Which disk has the most READ errors?",
            scored_by(leaves, |x| counted(x, "read"), "name"),
            true,
            Some("read"),
        ),
        extreme(
            "Which pool has the most disks?",
            scored_by(pools, |x| x["disks"].as_u64(), "pool"),
            true,
            Some("disks"),
        ),
        extreme(
            "Which pool has the most files with permanent errors?",
            most_frequent(files.iter().filter_map(|f| f["pool"].as_str())),
            true,
            Some("file"),
        ),
    ];
    if let Some(pool) = pools.iter().find(|p| p["state"] == "DEGRADED").and_then(|p| p["pool"].as_str()) {
        let disks = n(leaves, &|x| x["pool"] == pool);
        qs.push(Some(count(&format!("How many data disks does the pool {pool} have?"), &[pool], disks, Some("name"))));
    }
    qs
}

/// The first pool's header and disks at the top; the last pool's last devices at the end.
fn heads_and_tails(pools: &[Value], rows: &[Value], files: &[Value]) -> Vec<Option<Question>> {
    let first_pool = pools.first();
    let first_name = first_pool.and_then(|p| p["pool"].as_str()).unwrap_or_default();
    let first_rows = only(rows, |x| x["pool"] == first_name);
    let first_leaves = only(&first_rows, |x| x["kind"] == "leaf");
    let first_vdev = first_rows.iter().find(|x| x["kind"] == "vdev");
    let last_name = pools.last().and_then(|p| p["pool"].as_str()).unwrap_or_default();
    let last_rows = only(rows, |x| x["pool"] == last_name);
    let last_files = only(files, |f| f["pool"] == last_name);
    let mut qs = vec![
        about_record(
            first_pool,
            Kind::Head,
            "Which pool is listed first, and what state is it in?",
            &["pool", "state"],
        ),
        about_record(first_pool, Kind::Head, "What does the first pool's scan line say?", &["pool", "scan"]),
        about_record(
            first_vdev,
            Kind::Head,
            "What is the first vdev of the first pool, and its state?",
            &["name", "state"],
        ),
    ];
    for (k, ordinal) in ["first", "second", "third", "fourth", "fifth", "sixth"].iter().enumerate() {
        qs.push(about_record(
            first_leaves.get(k),
            Kind::Head,
            &format!("Which disk is listed {ordinal} in the first pool, and what state is it in?"),
            &["name", "state"],
        ));
    }
    let errors = match last_files.last() {
        Some(f) => about_record(Some(f), Kind::Tail, "Which file is listed last with a permanent error?", &["file"]),
        None => about_record(pools.last(), Kind::Tail, "What does the last pool's errors line say?", &["errors"]),
    };
    qs.push(errors);
    let ordinals = ["last", "second to last", "third to last", "fourth to last", "fifth to last", "sixth to last"];
    for (k, ordinal) in ordinals.iter().enumerate() {
        qs.push(about_record(
            from_end(&last_rows, k),
            Kind::Tail,
            &format!("Which device is listed {ordinal} in the last pool's config, and its state?"),
            &["name", "state"],
        ));
    }
    let last_leaves = only(&last_rows, |x| x["kind"] == "leaf" && x["section"] == "data");
    qs.push(about_record(
        from_end(&last_leaves, 0),
        Kind::Tail,
        "What are the READ, WRITE and CKSUM counts of the last data disk of the last pool?",
        &["name", "read", "write", "cksum"],
    ));
    qs.push(about_record(
        from_end(&last_leaves, 0),
        Kind::Tail,
        "Which vdev does the last data disk of the last pool belong to?",
        &["name", "vdev"],
    ));
    qs
}
