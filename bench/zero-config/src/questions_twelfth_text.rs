//! Readers of the twelfth part's text results: `sar -n DEV` read into a record per
//! interface and sample and one per daily average, `mailq` into a record per queued
//! message with its reason and recipients, extended LDIF into a record per entry, and a
//! psql `EXPLAIN ANALYZE` into a record per plan node with its detail lines.

use serde_json::{Value, json};

/// The rows of `sar -n DEV`: every interface row of every sample (`time`, `iface` and
/// each column by its header's name) and, apart, the rows of the daily averages.
pub(crate) fn sar_rows(ls: &[&str]) -> (Vec<Value>, Vec<Value>) {
    let mut header: Vec<&str> = Vec::new();
    let (mut samples, mut averages) = (Vec::new(), Vec::new());
    for l in ls {
        let cells: Vec<&str> = l.split_whitespace().collect();
        if cells.get(1) == Some(&"IFACE") {
            header = cells[2..].to_vec();
            continue;
        }
        if cells.len() != header.len() + 2 || header.is_empty() {
            continue;
        }
        let mut row = json!({"time": cells[0], "iface": cells[1]});
        for (name, v) in header.iter().zip(&cells[2..]) {
            row[*name] = json!(*v);
        }
        if cells[0] == "Average:" { averages.push(row) } else { samples.push(row) }
    }
    (samples, averages)
}

/// The messages of `mailq`: queue id (without its `*` or `!`), status (`active`, `hold`
/// or `deferred`), size, arrival, sender, the reason of the last deferral and the
/// recipients with their domains.
pub(crate) fn mailq_rows(ls: &[&str]) -> Vec<Value> {
    let mut rows: Vec<Value> = Vec::new();
    for l in ls {
        if l.starts_with("-Queue ID-") || l.starts_with("-- ") {
            continue;
        }
        if let Some(reason) = l.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
            if let Some(m) = rows.last_mut() {
                m["reason"] = json!(reason);
            }
            continue;
        }
        if l.starts_with(' ') {
            let rcpt = l.trim();
            if let Some(m) = rows.last_mut() {
                if let Some(list) = m["recipients"].as_array_mut() {
                    list.push(json!(rcpt));
                }
                let domain = rcpt.rsplit_once('@').map_or("", |(_, d)| d);
                if let Some(list) = m["domains"].as_array_mut()
                    && !list.iter().any(|d| d == domain)
                {
                    list.push(json!(domain));
                }
            }
            continue;
        }
        let cells: Vec<&str> = l.split_whitespace().collect();
        if cells.len() < 7 {
            continue;
        }
        let (id, status) = match cells[0].strip_suffix('*') {
            Some(id) => (id, "active"),
            None => cells[0].strip_suffix('!').map_or((cells[0], "deferred"), |id| (id, "hold")),
        };
        rows.push(json!({
            "id": id,
            "status": status,
            "size": cells[1],
            "arrival": cells[2..6].join(" "),
            "sender": cells[6],
            "reason": "",
            "recipients": [],
            "domains": []
        }));
    }
    rows
}

/// The entries of extended LDIF: `dn`, the first value of each attribute, and every
/// value of `objectClass` and `member`; folded lines are joined back.
pub(crate) fn ldif_entries(ls: &[&str]) -> Vec<Value> {
    let mut joined: Vec<String> = Vec::new();
    for l in ls {
        match l.strip_prefix(' ') {
            Some(rest) if !joined.is_empty() => {
                if let Some(last) = joined.last_mut() {
                    last.push_str(rest);
                }
            }
            _ => joined.push((*l).to_owned()),
        }
    }
    let mut entries: Vec<Value> = Vec::new();
    for l in &joined {
        if l.starts_with('#') {
            continue;
        }
        let Some((attr, v)) = l.split_once(": ") else { continue };
        if attr == "dn" {
            entries.push(json!({"dn": v, "objectClass": [], "member": []}));
            continue;
        }
        let Some(e) = entries.last_mut() else { continue };
        if attr == "objectClass" || attr == "member" {
            if let Some(list) = e[attr].as_array_mut() {
                list.push(json!(v));
            }
        } else if e.get(attr).is_none() {
            e[attr] = json!(v);
        }
    }
    entries
}

/// The nodes of a psql `EXPLAIN ANALYZE`: the node's text, the table it scans and its
/// alias, its actual time (`a..b`), actual rows and detail lines (rows removed by its
/// filter, its own buffers, the index of an index scan).
pub(crate) fn plan_nodes(ls: &[&str]) -> Vec<Value> {
    let mut nodes: Vec<Value> = Vec::new();
    for l in ls {
        let t = l.trim_start();
        let t = t.strip_prefix("->  ").unwrap_or(t);
        if let Some((head, rest)) = t.split_once("  (cost=") {
            let actual = rest.split("(actual time=").nth(1).unwrap_or("");
            let time = actual.split(' ').next().unwrap_or("");
            let rows = actual.split(" rows=").nth(1).and_then(|r| r.split(' ').next()).unwrap_or("");
            let (table, alias) =
                head.split_once(" on ").map(|(_, on)| on.split_once(' ').unwrap_or((on, ""))).unwrap_or(("", ""));
            nodes.push(json!({
                "node": head,
                "table": table,
                "alias": alias,
                "time": time,
                "end": time.split("..").nth(1).unwrap_or(""),
                "rows": rows,
                "removed": "",
                "read": "",
                "line": t,
            }));
            continue;
        }
        let Some(n) = nodes.last_mut() else { continue };
        if let Some(removed) = t.strip_prefix("Rows Removed by Filter: ") {
            n["removed"] = json!(removed);
        } else if let Some(buffers) = t.strip_prefix("Buffers: ")
            && n["read"] == ""
        {
            let read = buffers.split(" read=").nth(1).and_then(|r| r.split([' ', ',']).next()).unwrap_or("0");
            n["read"] = json!(read);
        }
    }
    nodes
}
