//! Readers of the fifteenth part's text results: `ceph osd df tree` read into a record
//! per bucket or OSD with the host and rack above it, a trivy table report into a record
//! per vulnerability with its target and library, a PostgreSQL log into a record per
//! prefixed line, and `redis-cli SLOWLOG GET` into a record per entry.

use serde_json::{Value, json};

/// The rows of `ceph osd df tree`: every bucket and OSD with its id, class, %USE, PGS,
/// status, sizes as printed, type, name and the host and rack it sits under.
pub(crate) fn ceph_rows(ls: &[&str]) -> Vec<Value> {
    let (mut host, mut rack) = (String::new(), String::new());
    let mut out = Vec::new();
    for l in ls {
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.len() < 16 || w[0].parse::<i64>().is_err() {
            continue;
        }
        // An OSD line has a class after its id; a bucket's has none.
        let osd = w[1].parse::<f64>().is_err();
        let rest = if osd { &w[2..] } else { &w[1..] };
        let size = |i: usize| format!("{} {}", rest[2 + 2 * i], rest[3 + 2 * i]);
        let (kind, name) = if osd {
            ("osd", rest.last().copied().unwrap_or(""))
        } else {
            (rest[rest.len() - 2], rest[rest.len() - 1])
        };
        match kind {
            "host" => host = name.to_owned(),
            "rack" => rack = name.to_owned(),
            _ => {}
        }
        out.push(json!({
            "id": w[0], "class": if osd { w[1] } else { "" }, "weight": rest[0], "reweight": rest[1],
            "size": size(0), "raw_use": size(1), "avail": size(5),
            "use": rest[14].parse::<f64>().unwrap_or(0.0), "use_text": rest[14], "var": rest[15],
            "pgs": rest[16].parse::<u64>().ok(),
            "status": if osd { rest[17] } else { "" },
            "kind": kind, "name": name, "host": if osd { host.as_str() } else { "" }, "rack": rack,
            "line": l.trim(),
        }));
    }
    out
}

/// The cells of a box-drawn table line, trimmed (`│ a │ b │` gives `a`, `b`).
fn cells(l: &str) -> Option<Vec<&str>> {
    let inner = l.strip_prefix('│')?.strip_suffix('│')?;
    Some(inner.split('│').map(str::trim).collect())
}

/// The vulnerabilities of a trivy table report: the target each table is under (the
/// heading above its `====` rule), the library (carried down the rows a library's cell
/// spans), id, severity, status, installed and fixed versions and the first line of the
/// title.
pub(crate) fn trivy_rows(ls: &[&str]) -> Vec<Value> {
    let mut target = String::new();
    let mut library = String::new();
    let mut out = Vec::new();
    for (i, l) in ls.iter().enumerate() {
        if ls.get(i + 1).is_some_and(|n| n.starts_with("===")) {
            target = (*l).to_owned();
            continue;
        }
        let Some(c) = cells(l) else { continue };
        if c.len() != 7 || !c[1].starts_with("CVE-") && !c[1].starts_with("GHSA-") {
            continue;
        }
        if !c[0].is_empty() {
            library = c[0].to_owned();
        }
        out.push(json!({
            "target": target, "library": library, "id": c[1], "severity": c[2], "status": c[3],
            "installed": c[4], "fixed": c[5], "title": c[6], "first": !c[0].is_empty(), "line": l,
        }));
    }
    out
}

/// The lines of a PostgreSQL log written with `%m [%p] %q%u@%d `: time, process id, user
/// (empty for the server's own processes), severity (`LOG`, `ERROR`, `DETAIL`, ...) and
/// message. Continuation lines (indented with a tab) are left out.
pub(crate) fn pg_lines(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let b = l.as_bytes();
            if l.len() < 30 || b[4] != b'-' || b[13] != b':' {
                return None;
            }
            let time = &l[..23];
            let rest = l[24..].strip_prefix("UTC [")?;
            let (pid, rest) = rest.split_once("] ")?;
            let (head, msg) = rest.split_once(":  ")?;
            let mut w: Vec<&str> = head.split(' ').collect();
            let level = w.pop()?;
            let user = w.first().and_then(|u| u.split_once('@')).map_or("", |(u, _)| u);
            Some(json!({"time": time, "pid": pid, "user": user, "level": level, "msg": msg, "line": l}))
        })
        .collect()
}

/// A quoted string as redis-cli prints it, without its quotes.
fn unquoted(s: &str) -> String {
    s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(s).to_owned()
}

/// The number of a numbered line (`  4) "x"` gives `4`) and what follows it.
fn numbered(s: &str) -> Option<(&str, &str)> {
    let t = s.trim_start();
    let (n, rest) = t.split_once(") ")?;
    n.parse::<u64>().ok()?;
    Some((n, rest))
}

/// The entries of `redis-cli SLOWLOG GET`: id, Unix time, duration in microseconds,
/// arguments (the command and its key first), the client's address and IP, and its name.
pub(crate) fn slowlog_entries(ls: &[&str]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut args: Vec<String> = Vec::new();
    let flush = |out: &mut Vec<Value>, args: &mut Vec<String>| {
        if let Some(last) = out.last_mut() {
            last["command"] = json!(args.first().cloned().unwrap_or_default());
            last["key"] = json!(args.get(1).cloned().unwrap_or_default());
            last["args"] = json!(std::mem::take(args));
        }
    };
    // How far in an entry's elements are numbered: the width of the entry's own number.
    let mut inner = 0;
    for l in ls {
        let indent = l.len() - l.trim_start().len();
        let Some((n, rest)) = numbered(l) else { continue };
        // An entry's first line numbers the entry, then its first element, the id (the
        // arguments are strings, so no other line numbers an integer twice).
        if let Some(id) = numbered(rest).and_then(|(one, v)| (one == "1").then_some(v)?.strip_prefix("(integer) ")) {
            flush(&mut out, &mut args);
            inner = l.len() - rest.len();
            out.push(json!({"id": id, "time": "", "micros": 0, "client": "", "ip": "", "name": ""}));
            continue;
        }
        let Some(e) = out.last_mut() else { continue };
        // Deeper lines are the arguments after the first, numbered under it.
        if indent > inner {
            args.push(unquoted(rest));
            continue;
        }
        match n {
            "2" => e["time"] = json!(rest.trim_start_matches("(integer) ")),
            "3" => e["micros"] = json!(rest.trim_start_matches("(integer) ").parse::<u64>().unwrap_or(0)),
            "4" => {
                if let Some((_, a)) = numbered(rest) {
                    args.push(unquoted(a));
                }
            }
            "5" => {
                let client = unquoted(rest);
                e["ip"] = json!(client.rsplit_once(':').map_or(client.as_str(), |(ip, _)| ip));
                e["client"] = json!(client);
            }
            "6" => e["name"] = json!(unquoted(rest)),
            _ => {}
        }
    }
    flush(&mut out, &mut args);
    out
}
