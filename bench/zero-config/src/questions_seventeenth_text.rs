//! Readers of the seventeenth part's text results: `helm list` read into a record per
//! release keyed by its header, `nvidia-smi -q` into a record per GPU keyed by section
//! and name, rsync's transfer log into a record per transferred file, and a psql table
//! into a record per row keyed by its header.

use serde_json::{Map, Value, json};

/// The releases of `helm list`: each row's tab-separated cells by the header's names.
pub(crate) fn releases(ls: &[&str]) -> Vec<Value> {
    let Some(head) = ls.first() else { return Vec::new() };
    let names: Vec<&str> = head.split('\t').map(str::trim).collect();
    ls[1..]
        .iter()
        .map(|l| {
            let row: Map<String, Value> =
                names.iter().zip(l.split('\t')).map(|(n, v)| ((*n).to_owned(), json!(v.trim()))).collect();
            Value::Object(row)
        })
        .collect()
}

/// The GPUs of `nvidia-smi -q`: per GPU its bus id, every `key : value` by its sections'
/// names and its own joined with `/` (`Temperature/GPU Current Temp`), the line each was
/// read from under `line:` and the same key, and its processes (id, name, memory).
pub(crate) fn gpus(ls: &[&str]) -> Vec<Value> {
    let mut out: Vec<Map<String, Value>> = Vec::new();
    let mut path: Vec<(usize, String)> = Vec::new();
    for l in ls {
        if let Some(bus) = l.strip_prefix("GPU ") {
            let mut g = Map::new();
            g.insert("bus".into(), json!(bus.trim()));
            g.insert("processes".into(), json!([]));
            out.push(g);
            path.clear();
            continue;
        }
        let Some(g) = out.last_mut() else { continue };
        let depth = (l.len() - l.trim_start().len()) / 4;
        path.retain(|(d, _)| *d < depth);
        let Some((k, v)) = l.split_once(" : ").or_else(|| l.split_once(": ")) else {
            path.push((depth, l.trim().to_owned()));
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        if path.first().is_some_and(|(_, s)| s == "Processes") {
            let procs = g.get_mut("processes").and_then(Value::as_array_mut);
            let Some(procs) = procs else { continue };
            match k {
                "Process ID" => procs.push(json!({"pid": v})),
                "Name" | "Used GPU Memory" => {
                    if let Some(Value::Object(p)) = procs.last_mut() {
                        p.insert(k.into(), json!(v));
                    }
                }
                _ => {}
            }
            continue;
        }
        let key = path.iter().map(|(_, s)| s.as_str()).chain([k]).collect::<Vec<_>>().join("/");
        g.insert(key.clone(), json!(v));
        g.insert(format!("line:{key}"), json!(l.trim()));
    }
    out.into_iter().map(Value::Object).collect()
}

/// The leading number of a value (`62 C`, `382.44 W`, `74321 MiB`).
pub(crate) fn leading(v: &Value) -> Option<f64> {
    v.as_str()?.split_whitespace().next()?.parse().ok()
}

/// A rate of rsync's progress line in bytes a second (`41.27MB/s`).
fn bytes_per_sec(rate: &str) -> Option<f64> {
    let n = rate.trim_end_matches("/s");
    let (num, unit) = n.split_at(n.find(|c: char| c.is_ascii_alphabetic())?);
    let scale = match unit {
        "kB" => 1_024.0,
        "MB" => 1_048_576.0,
        "GB" => 1_073_741_824.0,
        _ => 1.0,
    };
    Some(num.parse::<f64>().ok()? * scale)
}

/// The files rsync transferred: each path line and the final update of the progress line
/// after it (what follows the last carriage return): path, directory, size as printed and
/// in bytes, rate as printed and in bytes a second, transfer number.
pub(crate) fn transfers(ls: &[&str]) -> Vec<Value> {
    let mut out = Vec::new();
    for w in ls.windows(2) {
        let (path, progress) = (w[0], w[1].rsplit('\r').next().unwrap_or(""));
        if path.starts_with(' ') || path.ends_with('/') || !progress.contains("(xfr#") {
            continue;
        }
        let cells: Vec<&str> = progress.split_whitespace().collect();
        let (Some(size), Some(rate)) = (cells.first(), cells.get(2)) else { continue };
        let xfr = progress.split_once("(xfr#").and_then(|(_, x)| x.split(',').next()).unwrap_or("");
        out.push(json!({
            "path": path,
            "dir": path.rsplit_once('/').map_or("", |(d, _)| d),
            "size": size,
            "bytes": size.replace(',', "").parse::<u64>().ok(),
            "rate": rate,
            "bps": bytes_per_sec(rate),
            "xfr": xfr,
        }));
    }
    out
}

/// The rows of a psql aligned table: each row's cells by the header's names (the last
/// column is split off whole, since a query may hold the separator).
pub(crate) fn psql_rows(ls: &[&str]) -> Vec<Value> {
    let Some(head) = ls.first() else { return Vec::new() };
    let names: Vec<&str> = head.split('|').map(str::trim).collect();
    ls.iter()
        .skip(2)
        .filter(|l| l.contains(" | "))
        .map(|l| {
            let row: Map<String, Value> =
                names.iter().zip(l.splitn(names.len(), '|')).map(|(n, v)| ((*n).to_owned(), json!(v.trim()))).collect();
            Value::Object(row)
        })
        .collect()
}
