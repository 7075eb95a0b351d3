//! Readers of the cli half's text results, each making records of what a tool printed,
//! every value kept as it is written so that an answer reads as it does in the output:
//! the interface blocks of `ip addr show`, the tables of `kubectl get all`, and the
//! `[FRAME]` blocks of ffprobe.

use serde_json::{Map, Value, json};

/// The interfaces of `ip addr show`, one record per `N: name: <…>` block: `index`,
/// `name`, `peer` (after `@`), `flags`, the header's `mtu`, `qdisc`, `master`, `state`,
/// `qlen`; from the link line `mac` and `netns` (`link-netns` or `link-netnsid`); the
/// first `inet` address as `inet`, how many as `inet_count`, and `altname`.
pub(crate) fn ip_links(t: &str) -> Vec<Value> {
    let mut links: Vec<Map<String, Value>> = Vec::new();
    for l in t.lines() {
        if !l.starts_with(' ') {
            let Some((index, rest)) = l.split_once(": ") else { continue };
            if index.parse::<u64>().is_err() {
                continue;
            }
            let Some((name, rest)) = rest.split_once(": <") else { continue };
            let Some((flags, rest)) = rest.split_once("> ") else { continue };
            let mut link = Map::new();
            link.insert("index".into(), json!(index));
            let (name, peer) = name.split_once('@').map_or((name, None), |(n, p)| (n, Some(p)));
            link.insert("name".into(), json!(name));
            if let Some(p) = peer {
                link.insert("peer".into(), json!(p));
            }
            link.insert("flags".into(), json!(flags));
            let words: Vec<&str> = rest.split_whitespace().collect();
            for pair in words.windows(2) {
                if ["mtu", "qdisc", "master", "state", "group", "qlen"].contains(&pair[0]) {
                    link.insert(pair[0].into(), json!(pair[1]));
                }
            }
            link.insert("inet_count".into(), json!(0));
            links.push(link);
            continue;
        }
        let Some(link) = links.last_mut() else { continue };
        let words: Vec<&str> = l.split_whitespace().collect();
        match words.first().copied() {
            Some(w) if w.starts_with("link/") => {
                link.insert("mac".into(), json!(words.get(1)));
                for pair in words.windows(2) {
                    if pair[0] == "link-netns" || pair[0] == "link-netnsid" {
                        link.insert("netns".into(), json!(pair[1]));
                    }
                }
            }
            Some("altname") => {
                link.insert("altname".into(), json!(words.get(1)));
            }
            Some("inet") => {
                let n = link["inet_count"].as_u64().unwrap_or(0);
                if n == 0 {
                    link.insert("inet".into(), json!(words.get(1)));
                }
                link.insert("inet_count".into(), json!(n + 1));
            }
            Some("inet6") => {
                link.insert("inet6".into(), json!(words.get(1)));
            }
            _ => {}
        }
    }
    links.into_iter().map(Value::Object).collect()
}

/// One table of `kubectl get`: its rows, each keyed by the header's column names
/// (`NAME`, `PORT(S)`, `LAST SCHEDULE`).
#[derive(Debug, Clone)]
pub(crate) struct Table {
    pub(crate) rows: Vec<Value>,
}

/// Where each column of a tabwriter header starts: a column name is separated from the
/// next by two spaces or more (a name like `LAST SCHEDULE` holds one).
fn column_starts(header: &str) -> Vec<(usize, String)> {
    let mut starts = Vec::new();
    let mut i = 0;
    let bytes = header.as_bytes();
    while i < bytes.len() {
        if bytes[i] == b' ' {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && !(bytes[i] == b' ' && bytes.get(i + 1).is_none_or(|b| *b == b' ')) {
            i += 1;
        }
        starts.push((start, header[start..i].to_owned()));
    }
    starts
}

/// The tables of `kubectl get all`, separated by blank lines, each cell cut at the place
/// its header's column starts.
pub(crate) fn kubectl_tables(t: &str) -> Vec<Table> {
    let mut tables = Vec::new();
    for block in t.split("\n\n") {
        let mut lines = block.lines().filter(|l| !l.trim().is_empty());
        let Some(header) = lines.next() else { continue };
        let starts = column_starts(header);
        let rows = lines
            .map(|l| {
                let mut row = Map::new();
                for (k, (start, name)) in starts.iter().enumerate() {
                    let end = starts.get(k + 1).map_or(l.len(), |s| s.0).min(l.len());
                    let cell = l.get((*start).min(end)..end).unwrap_or_default().trim();
                    row.insert(name.clone(), json!(cell));
                }
                Value::Object(row)
            })
            .collect();
        tables.push(Table { rows });
    }
    tables
}

/// The frames of ffprobe's `-show_frames`: every `key=value` line of a `[FRAME]` block
/// outside its `[SIDE_DATA]` sections.
pub(crate) fn ffprobe_frames(t: &str) -> Vec<Value> {
    let mut frames = Vec::new();
    let mut open: Option<Map<String, Value>> = None;
    let mut side = false;
    for l in t.lines() {
        match l {
            "[FRAME]" => open = Some(Map::new()),
            "[/FRAME]" => frames.extend(open.take().map(Value::Object)),
            "[SIDE_DATA]" => side = true,
            "[/SIDE_DATA]" => side = false,
            _ => {
                if let (Some(frame), Some((k, v)), false) = (open.as_mut(), l.split_once('='), side) {
                    frame.insert(k.to_owned(), json!(v));
                }
            }
        }
    }
    frames
}

/// A number cell of a record (`"1450"`, `"3 (2d4h ago)"` reads 3).
pub(crate) fn num(x: &Value, field: &str) -> Option<f64> {
    x[field].as_str()?.split_whitespace().next()?.parse().ok()
}
