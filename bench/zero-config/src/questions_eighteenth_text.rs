//! Readers of the eighteenth part's text results: `lsof` read into a record per open file
//! keyed by its header, `git shortlog -sne` into a record per author line, Caddy's JSON
//! access log into a record per request, and `sacct`'s fixed-width table into a record
//! per job or step, its columns found by the dashes under the header.

use serde_json::{Map, Value, json};

/// The open files of `lsof`: each row's first eight cells by the header's names, then
/// the rest of the row whole as `NAME` (a name may hold spaces: `*:80 (LISTEN)`).
pub(crate) fn open_files(ls: &[&str]) -> Vec<Value> {
    let Some(head) = ls.first() else { return Vec::new() };
    let names: Vec<&str> = head.split_whitespace().collect();
    let Some((last, cells)) = names.split_last() else { return Vec::new() };
    ls[1..]
        .iter()
        .filter_map(|l| {
            let mut row = Map::new();
            let mut rest = l.trim_start();
            for n in cells {
                let end = rest.find(char::is_whitespace)?;
                row.insert((*n).to_owned(), json!(&rest[..end]));
                rest = rest[end..].trim_start();
            }
            row.insert((*last).to_owned(), json!(rest));
            Some(Value::Object(row))
        })
        .collect()
}

/// The authors of `git shortlog -sne`: commits, name and email of each
/// `  1234\tName <email>` line.
pub(crate) fn authors(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let (n, who) = l.trim_start().split_once('\t')?;
            let (name, email) = who.rsplit_once(" <")?;
            let email = email.strip_suffix('>')?;
            let commits: u64 = n.trim().parse().ok()?;
            let domain = email.rsplit_once('@').map_or("", |(_, d)| d);
            Some(json!({"commits": commits, "name": name, "email": email, "domain": domain}))
        })
        .collect()
}

/// The requests of a Caddy access log: per JSON line its level, time, method, URI, host,
/// protocol, client address, user agent, status, duration, response size and bytes read.
pub(crate) fn requests(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let v: Value = serde_json::from_str(l).ok()?;
            let req = v.get("request")?;
            Some(json!({
                "level": v["level"],
                "ts": v["ts"],
                "method": req["method"],
                "uri": req["uri"],
                "host": req["host"],
                "proto": req["proto"],
                "client_ip": req["client_ip"],
                "user_agent": req["headers"]["User-Agent"][0],
                "status": v["status"],
                "duration": v["duration"],
                "size": v["size"],
                "bytes_read": v["bytes_read"],
            }))
        })
        .collect()
}

/// The rows of `sacct`: each line's cells by the header's names, cut at the columns the
/// dashes under the header mark, and whether the row is a job (its id holds no `.`) or a
/// step of one.
pub(crate) fn sacct_rows(ls: &[&str]) -> Vec<Value> {
    let (Some(head), Some(rule)) = (ls.first(), ls.get(1)) else { return Vec::new() };
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in rule.char_indices().chain([(rule.len(), ' ')]) {
        match (c, start) {
            ('-', None) => start = Some(i),
            (' ', Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    let cell = |l: &str, (s, e): (usize, usize)| l.get(s.min(l.len())..e.min(l.len())).unwrap_or("").trim().to_owned();
    let names: Vec<String> = spans.iter().map(|sp| cell(head, *sp)).collect();
    ls[2..]
        .iter()
        .map(|l| {
            let mut row: Map<String, Value> =
                names.iter().zip(&spans).map(|(n, sp)| (n.clone(), json!(cell(l, *sp)))).collect();
            let job = row.get("JobID").and_then(Value::as_str).is_some_and(|id| !id.contains('.'));
            row.insert("job".into(), json!(job));
            Value::Object(row)
        })
        .collect()
}

/// sacct's elapsed time (`HH:MM:SS` or `D-HH:MM:SS`) in seconds.
pub(crate) fn seconds(v: &Value) -> Option<i64> {
    let t = v.as_str()?;
    let (days, hms) = t.split_once('-').map_or(("0", t), |(d, r)| (d, r));
    let parts: Vec<i64> = hms.split(':').map(|p| p.parse().ok()).collect::<Option<_>>()?;
    let [h, m, s] = parts.as_slice() else { return None };
    Some(days.parse::<i64>().ok()? * 86_400 + h * 3_600 + m * 60 + s)
}

/// A memory size of sacct (`123456K`, `1.5G`) in kibibytes.
pub(crate) fn kib(v: &Value) -> Option<f64> {
    let t = v.as_str()?;
    let (n, unit) = t.split_at(t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len()));
    let scale = match unit {
        "" | "K" => 1.0,
        "M" => 1_024.0,
        "G" => 1_048_576.0,
        "T" => 1_073_741_824.0,
        _ => return None,
    };
    Some(n.parse::<f64>().ok()? * scale)
}
