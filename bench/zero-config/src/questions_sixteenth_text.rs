//! Readers of the sixteenth part's text results: `smartctl -a` over many drives read into
//! a record per drive, `iostat -x -t` into a record per report and per device row, a
//! HAProxy `show stat` CSV into a record per row keyed by its header, and an auth log
//! into a record per line.

use serde_json::{Map, Value, json};

/// The drives of concatenated `smartctl -a` outputs, each opened by a `##### /dev/...`
/// line: device, model family, model, serial, firmware, health verdict, power-on hours,
/// temperature (and the attribute's whole raw value), reallocated and pending sectors,
/// and whether it is an NVMe drive.
pub(crate) fn drives(ls: &[&str]) -> Vec<Value> {
    let mut out: Vec<Map<String, Value>> = Vec::new();
    for l in ls {
        if let Some(dev) = l.strip_prefix("##### ") {
            let mut d = Map::new();
            d.insert("dev".into(), json!(dev.trim()));
            d.insert("nvme".into(), json!(dev.contains("nvme")));
            out.push(d);
            continue;
        }
        let Some(d) = out.last_mut() else { continue };
        if let Some(verdict) = l.strip_prefix("SMART overall-health self-assessment test result: ") {
            d.insert("health".into(), json!(verdict.trim_end_matches('!')));
            continue;
        }
        let w: Vec<&str> = l.split_whitespace().collect();
        // An attribute row: id, name, flag, value, worst, threshold, type, updated, when
        // failed, then the raw value (which may hold spaces).
        if w.len() >= 10 && w[0].parse::<u32>().is_ok() && w[2].starts_with("0x") {
            let raw = w[9..].join(" ");
            let first = w[9].parse::<u64>().ok();
            match w[1] {
                "Power_On_Hours" => _ = d.insert("hours".into(), json!(first)),
                "Temperature_Celsius" => {
                    d.insert("temp".into(), json!(first));
                    d.insert("temp_raw".into(), json!(raw));
                }
                "Reallocated_Sector_Ct" => _ = d.insert("realloc".into(), json!(first)),
                "Current_Pending_Sector" => _ = d.insert("pending".into(), json!(first)),
                _ => {}
            }
            continue;
        }
        let Some((k, v)) = l.split_once(':') else { continue };
        let v = v.trim();
        let number = || v.split_whitespace().next().and_then(|n| n.replace(',', "").parse::<u64>().ok());
        match k.trim() {
            "Model Family" => _ = d.insert("family".into(), json!(v)),
            "Device Model" | "Model Number" => _ = d.insert("model".into(), json!(v)),
            "Serial Number" => _ = d.insert("serial".into(), json!(v)),
            "Firmware Version" => _ = d.insert("firmware".into(), json!(v)),
            "Power On Hours" => {
                d.insert("hours".into(), json!(number()));
                d.insert("hours_text".into(), json!(v));
            }
            "Temperature" => {
                d.insert("temp".into(), json!(number()));
                d.insert("temp_raw".into(), json!(v));
            }
            "Percentage Used" => _ = d.insert("used".into(), json!(v)),
            _ => {}
        }
    }
    out.into_iter().map(Value::Object).collect()
}

/// Whether `l` is the time line `iostat -t` prints before each report
/// (`12/31/2025 11:40:05 PM`).
fn report_time(l: &str) -> bool {
    let b = l.as_bytes();
    l.len() >= 19 && b[2] == b'/' && b[5] == b'/' && (l.ends_with(" AM") || l.ends_with(" PM"))
}

/// The reports of `iostat -x -t`: per report its time, index and the `avg-cpu` values;
/// per device row the device, the report's time and index and every column by its
/// header, as printed.
pub(crate) fn iostat(ls: &[&str]) -> (Vec<Value>, Vec<Value>) {
    let (mut reports, mut rows) = (Vec::new(), Vec::new());
    let mut header: Vec<&str> = Vec::new();
    let mut time = String::new();
    for (i, l) in ls.iter().enumerate() {
        let w: Vec<&str> = l.split_whitespace().collect();
        if report_time(l) {
            time = (*l).to_owned();
            reports.push(json!({"time": time, "index": reports.len()}));
        } else if let Some(rest) = l.strip_prefix("avg-cpu:") {
            let cpu_head: Vec<&str> = rest.split_whitespace().collect();
            let Some(values) = ls.get(i + 1) else { continue };
            if let Some(Value::Object(rep)) = reports.last_mut() {
                for (h, v) in cpu_head.iter().zip(values.split_whitespace()) {
                    rep.insert((*h).to_owned(), json!(v));
                }
                rep.insert("cpu_line".into(), json!(values.trim()));
            }
        } else if w.first() == Some(&"Device") {
            header = w[1..].to_vec();
        } else if !header.is_empty() && w.len() == header.len() + 1 && w[1].parse::<f64>().is_ok() {
            let mut row = Map::new();
            row.insert("dev".into(), json!(w[0]));
            row.insert("time".into(), json!(time));
            row.insert("report".into(), json!(reports.len().saturating_sub(1)));
            for (h, v) in header.iter().zip(&w[1..]) {
                row.insert((*h).to_owned(), json!(v));
            }
            row.insert("line".into(), json!(l.trim()));
            rows.push(Value::Object(row));
        }
    }
    (reports, rows)
}

/// The rows of HAProxy's `show stat`: each a record of its cells keyed by the `# ` header's
/// column names (empty cells left out).
pub(crate) fn stat_rows(ls: &[&str]) -> Vec<Value> {
    let Some(head) = ls.first().and_then(|l| l.strip_prefix("# ")) else { return Vec::new() };
    let names: Vec<&str> = head.split(',').collect();
    ls[1..]
        .iter()
        .map(|l| {
            let row: Map<String, Value> = names
                .iter()
                .zip(l.split(','))
                .filter(|(n, v)| !n.is_empty() && !v.is_empty())
                .map(|(n, v)| ((*n).to_owned(), json!(v)))
                .collect();
            Value::Object(row)
        })
        .collect()
}

/// The lines of an auth log written with RFC 3339 times: time, host, program, process id
/// and message (`2025-12-31T21:40:01.000000+00:00 bastion-01 sshd[1234]: ...`).
pub(crate) fn auth_lines(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let (time, rest) = l.split_once(' ')?;
            let (host, rest) = rest.split_once(' ')?;
            let (tag, msg) = rest.split_once(": ")?;
            let (prog, pid) = tag.strip_suffix(']')?.split_once('[')?;
            Some(json!({"time": time, "host": host, "prog": prog, "pid": pid, "msg": msg, "line": l}))
        })
        .collect()
}
