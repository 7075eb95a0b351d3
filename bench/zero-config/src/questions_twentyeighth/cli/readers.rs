//! Readers of the cli half's text results, each making records of what a tool printed,
//! values kept as they are written so an answer reads as it does in the output: the
//! package blocks of `rpm -qai` and the snapshots of `docker stats --no-stream`.

use serde_json::{Map, Value, json};

/// Every package block of `rpm -qai`: each `Field : value` line as a string field named
/// as printed (`Install Date`, `Source RPM`), and the lines after `Description :` joined
/// with newlines as `Description`.
pub(crate) fn rpm_packages(t: &str) -> Vec<Value> {
    let mut all = Vec::new();
    let mut cur: Option<Map<String, Value>> = None;
    let mut description: Option<Vec<&str>> = None;
    let finish = |cur: &mut Option<Map<String, Value>>, description: &mut Option<Vec<&str>>, all: &mut Vec<Value>| {
        if let Some(mut p) = cur.take() {
            p.insert("Description".into(), json!(description.take().unwrap_or_default().join("\n")));
            all.push(Value::Object(p));
        }
    };
    for line in t.lines() {
        if line.starts_with("Name        : ") {
            finish(&mut cur, &mut description, &mut all);
            cur = Some(Map::new());
        }
        if let Some(lines) = &mut description {
            lines.push(line);
            continue;
        }
        if line == "Description :" {
            description = Some(Vec::new());
            continue;
        }
        if let (Some(p), Some((key, value))) = (&mut cur, line.split_once(": ")) {
            p.insert(key.trim().to_owned(), json!(value));
        }
    }
    finish(&mut cur, &mut description, &mut all);
    all
}

/// Bytes of a go-units size (`512.3MiB`, `1.23GB`, `0B`).
pub(crate) fn size_bytes(s: &str) -> Option<f64> {
    let s = s.trim();
    let split = s.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = s.split_at(split);
    let factor = match unit {
        "B" => 1.0,
        "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "TB" => 1e12,
        "KiB" => 1024.0,
        "MiB" => 1_048_576.0,
        "GiB" => 1_073_741_824.0,
        "TiB" => 1_099_511_627_776.0,
        _ => return None,
    };
    Some(number.parse::<f64>().ok()? * factor)
}

/// One `docker stats` row as a record: the cells as printed (`id`, `name`, `cpu`, `mem`,
/// `mem_pct`, `net`, `block`, `pids`, with `limit` the part of `mem` after the slash) and
/// numbers to rank by (`cpu_n`, `mem_n`, `mem_pct_n`, `net_in_n`, `block_out_n`, `pids_n`).
fn stats_row(line: &str) -> Option<Value> {
    let cells: Vec<&str> = line.split("   ").map(str::trim).filter(|c| !c.is_empty()).collect();
    let [id, name, cpu, mem, mem_pct, net, block, pids] = cells.as_slice() else { return None };
    let (used, limit) = mem.split_once(" / ")?;
    let (net_in, _) = net.split_once(" / ")?;
    let (_, block_out) = block.split_once(" / ")?;
    let percent = |s: &str| s.trim_end_matches('%').parse::<f64>().ok();
    Some(json!({
        "id": id, "name": name, "cpu": cpu, "mem": mem, "limit": limit, "mem_pct": mem_pct, "net": net,
        "block": block, "pids": pids,
        "cpu_n": percent(cpu)?, "mem_n": size_bytes(used)?, "limit_n": size_bytes(limit)?,
        "mem_pct_n": percent(mem_pct)?, "net_in_n": size_bytes(net_in)?, "block_out_n": size_bytes(block_out)?,
        "pids_n": pids.parse::<u64>().ok()?,
    }))
}

/// One snapshot: the `date` line before the table, and its rows.
pub(crate) struct Snapshot {
    pub(crate) time: String,
    pub(crate) rows: Vec<Value>,
}

/// Every snapshot of a `date; docker stats --no-stream` loop, in order.
pub(crate) fn docker_snapshots(t: &str) -> Vec<Snapshot> {
    let mut all: Vec<Snapshot> = Vec::new();
    let mut previous = "";
    for line in t.lines() {
        if line.starts_with("CONTAINER ID") {
            all.push(Snapshot { time: previous.to_owned(), rows: Vec::new() });
        } else if let (Some(s), Some(row)) = (all.last_mut(), stats_row(line)) {
            s.rows.push(row);
        }
        previous = line;
    }
    all
}
