//! Readers of the nineteenth part's text results: `top -b` read into a record per task
//! keyed by its header, `df -hT` into a record per mount, `kubectl get events` into a
//! record per event cut at the columns its header marks, and a pytest durations report
//! into a record per listed phase, with the counts of its summary line.

use serde_json::{Map, Value, json};

/// The tasks of `top -b`: after the `PID USER …` header, each row's first eleven cells
/// by the header's names, then the rest of the row whole as `COMMAND` (a command may
/// hold a space: `tmux: server`).
pub(crate) fn tasks(ls: &[&str]) -> Vec<Value> {
    let Some(h) = ls.iter().position(|l| l.trim_start().starts_with("PID ")) else { return Vec::new() };
    // Cells under the header, the last name taking the rest of the row: read as `lsof`'s.
    crate::questions_eighteenth::readers::open_files(&ls[h..])
}

/// The mounts of `df -hT`: six cells, then the mount point (the header's last name is
/// two words, `Mounted on`).
pub(crate) fn mounts(ls: &[&str]) -> Vec<Value> {
    let Some((head, rows)) = ls.split_first() else { return Vec::new() };
    let names: Vec<&str> = head.split_whitespace().take(6).collect();
    rows.iter()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            if cells.len() < 7 {
                return None;
            }
            let mut m = Map::new();
            for (n, c) in names.iter().zip(&cells) {
                m.insert((*n).to_owned(), json!(c));
            }
            m.insert("Mounted on".into(), json!(cells[6..].join(" ")));
            Some(Value::Object(m))
        })
        .collect()
}

/// The events of `kubectl get events`: the header's names (split where two or more
/// spaces part them, so `LAST SEEN` stays one) mark where each column starts; each row
/// is cut there, and a repeated event's count (`(x12 over 40m)`) is read as `repeats`.
pub(crate) fn events(ls: &[&str]) -> Vec<Value> {
    let Some((head, rows)) = ls.split_first() else { return Vec::new() };
    let mut cols: Vec<(usize, &str)> = Vec::new();
    let mut i = 0;
    while i < head.len() {
        let rest = &head[i..];
        let end = rest.find("  ").unwrap_or(rest.len());
        cols.push((i, rest[..end].trim()));
        let skip = rest[end..].len() - rest[end..].trim_start().len();
        i += end + skip;
    }
    rows.iter()
        .map(|l| {
            let mut m = Map::new();
            for (k, &(start, name)) in cols.iter().enumerate() {
                let end = cols.get(k + 1).map_or(l.len(), |c| c.0).min(l.len());
                let cell = l.get(start.min(end)..end).unwrap_or("").trim();
                m.insert(name.to_owned(), json!(cell));
            }
            let repeats = m
                .get("LAST SEEN")
                .and_then(Value::as_str)
                .and_then(|s| s.split_once("(x"))
                .and_then(|(_, r)| r.split_whitespace().next()?.parse::<u64>().ok())
                .unwrap_or(1);
            m.insert("repeats".into(), json!(repeats));
            Value::Object(m)
        })
        .collect()
}

/// The listed durations of a pytest report: `12.41s call     tests/x.py::test_y` read
/// into the duration as shown, its seconds, the phase, the test's node id and its file.
pub(crate) fn durations(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let shown = it.next()?;
            let seconds: f64 = shown.strip_suffix('s')?.parse().ok()?;
            let phase = it.next().filter(|p| matches!(*p, "setup" | "call" | "teardown"))?;
            let node = it.next().filter(|n| n.contains("::"))?;
            let file = node.split("::").next().unwrap_or(node);
            Some(json!({"duration": shown, "seconds": seconds, "phase": phase, "nodeid": node, "file": file}))
        })
        .collect()
}

/// The number before `word` in pytest's summary line (`1843 passed, 12 skipped in …`).
pub(crate) fn summary_count(ls: &[&str], word: &str) -> Option<usize> {
    let line = ls.iter().rev().find(|l| l.starts_with('=') && l.contains(" in "))?;
    let words: Vec<&str> = line.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    words.windows(2).find(|w| w[1] == word).and_then(|w| w[0].parse().ok())
}

/// top's memory cells in KiB: plain KiB, or with an `m`, `g` or `t` suffix.
pub(crate) fn kib(v: &Value) -> Option<f64> {
    let t = v.as_str()?;
    let (num, scale) = match t.chars().last()? {
        'm' => (&t[..t.len() - 1], 1024.0),
        'g' => (&t[..t.len() - 1], 1024.0 * 1024.0),
        't' => (&t[..t.len() - 1], 1024f64.powi(3)),
        _ => (t, 1.0),
    };
    Some(num.parse::<f64>().ok()? * scale)
}

/// top's TIME+ (`81:12.34`, minutes and seconds) in seconds.
pub(crate) fn cpu_seconds(v: &Value) -> Option<f64> {
    let (m, s) = v.as_str()?.split_once(':')?;
    Some(m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?)
}

/// df's human sizes (`194G`, `6.3G`, `12K`, `0`) in bytes.
pub(crate) fn df_bytes(v: &Value) -> Option<f64> {
    let t = v.as_str()?;
    let scale = match t.chars().last()? {
        'K' => 1024.0,
        'M' => 1024f64.powi(2),
        'G' => 1024f64.powi(3),
        'T' => 1024f64.powi(4),
        c if c.is_ascii_digit() => return t.parse().ok(),
        _ => return None,
    };
    Some(t[..t.len() - 1].parse::<f64>().ok()? * scale)
}

/// df's `Use%` as a number.
pub(crate) fn percent(v: &Value) -> Option<f64> {
    v.as_str()?.strip_suffix('%')?.parse().ok()
}
