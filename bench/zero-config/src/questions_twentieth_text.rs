//! Readers of the twentieth part's text results: a `perf report` read into a record per
//! row cut at the columns its dotted rule marks, `nodetool tablestats` into a record per
//! table (with its keyspace) and one per keyspace, `rabbitmqctl list_queues` into a
//! record per queue by its tab-separated header, and Apache's `fullstatus` into a record
//! per worker and one per process.

use serde_json::{Map, Value, json};

/// The rows of `perf report --stdio`: the rule of dots under the header marks where each
/// column starts (a command may hold a space: `GC Thread#3`), the symbol runs to the end
/// of the row. Each row keeps the overhead as shown and as a number, the command, the
/// shared object, the symbol as shown (`[k] intel_idle`), the bare function name and
/// whether it is a kernel one.
pub(crate) fn perf_rows(ls: &[&str]) -> Vec<Value> {
    let Some(rule) = ls.iter().find(|l| l.starts_with("# ....")) else { return Vec::new() };
    // Column starts: where each run of dots begins.
    let bytes = rule.as_bytes();
    let starts: Vec<usize> =
        (0..bytes.len()).filter(|&i| bytes[i] == b'.' && (i == 0 || bytes[i - 1] == b' ')).collect();
    let [_, comm, dso, sym] = starts[..] else { return Vec::new() };
    ls.iter()
        .filter(|l| {
            !l.starts_with('#') && l.len() > sym && l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit())
        })
        .filter_map(|l| {
            let overhead = l.get(..comm)?.trim();
            let pct: f64 = overhead.strip_suffix('%')?.parse().ok()?;
            let shown = l.get(sym..)?.trim();
            let (mark, name) = shown.split_once(' ')?;
            Some(json!({
                "Overhead": overhead, "percent": pct,
                "Command": l.get(comm..dso)?.trim(), "Shared Object": l.get(dso..sym)?.trim(),
                "Symbol": shown, "function": name, "kernel": mark == "[k]"
            }))
        })
        .collect()
}

/// The tables of `nodetool tablestats`, each a record of its `Name: value` lines with
/// `Table` and `Keyspace`; and the keyspaces, each a record of its own totals.
pub(crate) fn tablestats(ls: &[&str]) -> (Vec<Value>, Vec<Value>) {
    let (mut tables, mut keyspaces) = (Vec::new(), Vec::new());
    let mut keyspace = String::new();
    let mut table: Option<Map<String, Value>> = None;
    let mut space: Option<Map<String, Value>> = None;
    for l in ls {
        if let Some(ks) = l.strip_prefix("Keyspace : ") {
            tables.extend(table.take().map(Value::Object));
            keyspaces.extend(space.take().map(Value::Object));
            keyspace = ks.trim().to_owned();
            space = Some(Map::from_iter([("Keyspace".to_owned(), json!(keyspace))]));
            continue;
        }
        let deep = l.starts_with("\t\t");
        let Some((k, v)) = l.trim().split_once(": ") else { continue };
        if k == "Table" {
            tables.extend(table.take().map(Value::Object));
            table = Some(Map::from_iter([("Table".to_owned(), json!(v)), ("Keyspace".to_owned(), json!(keyspace))]));
        } else if deep {
            if let Some(t) = table.as_mut() {
                t.insert(k.to_owned(), json!(v));
            }
        } else if let Some(s) = space.as_mut() {
            s.insert(k.to_owned(), json!(v));
        }
    }
    tables.extend(table.map(Value::Object));
    keyspaces.extend(space.map(Value::Object));
    (tables, keyspaces)
}

/// The first number of a nodetool value (`0.184 ms` → 0.184); `None` for `NaN`.
pub(crate) fn leading_number(v: &Value) -> Option<f64> {
    let n: f64 = v.as_str()?.split_whitespace().next()?.parse().ok()?;
    n.is_finite().then_some(n)
}

/// The queues of `rabbitmqctl list_queues`: after the header line (`name\ttype…`), each
/// row's cells by the header's names; an empty cell (no policy) stays empty.
pub(crate) fn queues(ls: &[&str]) -> Vec<Value> {
    let Some(h) = ls.iter().position(|l| l.starts_with("name\t")) else { return Vec::new() };
    let names: Vec<&str> = ls[h].split('\t').collect();
    ls[h + 1..]
        .iter()
        .filter(|l| l.contains('\t'))
        .map(|l| {
            let m: Map<String, Value> =
                names.iter().zip(l.split('\t')).map(|(n, c)| ((*n).to_owned(), json!(c))).collect();
            Value::Object(m)
        })
        .collect()
}

/// A cell read as a number.
pub(crate) fn num(v: &Value) -> Option<f64> {
    v.as_str()?.trim().parse().ok()
}

/// The workers of Apache's status page: after the `Srv PID Acc …` header, fourteen cells
/// by the header's names and the request (which holds spaces) as the rest of the row,
/// up to the rule under the table.
pub(crate) fn workers(ls: &[&str]) -> Vec<Value> {
    let Some(h) = ls.iter().position(|l| l.trim_start().starts_with("Srv ") && l.contains("Request")) else {
        return Vec::new();
    };
    let names: Vec<&str> = ls[h].split_whitespace().collect();
    ls[h + 1..]
        .iter()
        .take_while(|l| !l.trim_start().starts_with('_'))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            if cells.len() < names.len() {
                return None;
            }
            let mut m = Map::new();
            for (n, c) in names.iter().zip(&cells).take(names.len() - 1) {
                m.insert((*n).to_owned(), json!(c));
            }
            m.insert("Request".into(), json!(cells[names.len() - 1..].join(" ")));
            Some(Value::Object(m))
        })
        .collect()
}

/// The processes of Apache's status page: the rows under the two header rows of the
/// process table (`Slot PID Stopping …`, `total accepting busy …`), the stopping cell
/// whole (`yes (old gen)`), without the `Sum` row.
pub(crate) fn processes(ls: &[&str]) -> Vec<Value> {
    let Some(h) = ls.iter().position(|l| l.contains("accepting") && l.contains("keep-alive")) else {
        return Vec::new();
    };
    let names = ["Slot", "PID", "Stopping", "total", "accepting", "busy", "idle", "writing", "keep-alive", "closing"];
    ls[h + 1..]
        .iter()
        .take_while(|l| l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit()))
        .filter_map(|l| {
            let mut cells: Vec<String> = l.split_whitespace().map(str::to_owned).collect();
            // `yes (old gen)` is one cell.
            if cells.get(2).is_some_and(|c| c == "yes") && cells.get(3).is_some_and(|c| c.starts_with('(')) {
                let joined = cells.drain(2..5).collect::<Vec<_>>().join(" ");
                cells.insert(2, joined);
            }
            (cells.len() == names.len())
                .then(|| Value::Object(names.iter().zip(cells).map(|(n, c)| ((*n).to_owned(), json!(c))).collect()))
        })
        .collect()
}

/// The value after `prefix` on the first line that starts with it (leading blanks aside).
pub(crate) fn after<'a>(ls: &[&'a str], prefix: &str) -> Option<&'a str> {
    ls.iter().find_map(|l| l.trim_start().strip_prefix(prefix)).map(str::trim)
}
