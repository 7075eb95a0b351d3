//! The questions asked of the blind part of the catalog: what a user of each API asks of
//! a result like it (the status of one order, how many instances are stopped, which pod
//! logged the most errors, what the last request was), with records named from the
//! middle and the end of the result as well as the head. The answers are computed from
//! the generated data, never written by hand.
//!
//! Values wrapped in their type (`{"S": …}`, `{"stringValue": …}`) are asked about by the
//! attribute's name, and a count or an extreme names that attribute as the field a model
//! reads to work it out itself.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::question::{Check, Kind, Question, Records, text, value, values};

/// `q` with the field a model reads for a count or an extreme set to `field`.
pub(crate) fn about(field: &str, q: Option<Question>) -> Option<Question> {
    q.map(|q| Question { field: Some(field.to_owned()), ..q })
}

pub(crate) fn together(kind: Kind, text: String, needle: Option<&str>, must: &[&str]) -> Question {
    Question {
        kind,
        text,
        needle: needle.map(str::to_owned),
        check: Check::Together(must.iter().map(|s| (*s).to_owned()).collect()),
        field: None,
    }
}

pub(crate) fn count(text: &str, labels: &[&str], n: usize, field: Option<&str>) -> Question {
    Question {
        kind: Kind::Aggregate,
        text: text.to_owned(),
        needle: None,
        check: Check::Count { labels: labels.iter().map(|s| (*s).to_owned()).collect(), value: n.to_string() },
        field: field.map(str::to_owned),
    }
}

/// Pairs of `(score, name)` for every record with both, for [`extreme`].
pub(crate) fn scored_by<T>(list: &[Value], score: impl Fn(&Value) -> Option<T>, name: &str) -> Vec<(T, String)> {
    list.iter().filter_map(|x| Some((score(x)?, value(x, name).map(text)?))).collect()
}

/// The records of `list` for which `keep` holds.
pub(crate) fn only(list: &[Value], keep: impl Fn(&Value) -> bool) -> Vec<Value> {
    list.iter().filter(|x| keep(x)).cloned().collect()
}

/// The holder of the largest (or smallest) score, `None` when two share it.
pub(crate) fn extreme<T: PartialOrd>(
    text: &str,
    scored: Vec<(T, String)>,
    max: bool,
    field: Option<&str>,
) -> Option<Question> {
    let mut best: Option<(T, String)> = None;
    let mut tied = false;
    for (score, id) in scored {
        let better = match &best {
            None => true,
            Some((b, _)) => {
                if score == *b {
                    tied = true;
                }
                if max { score > *b } else { score < *b }
            }
        };
        if better {
            tied = false;
            best = Some((score, id));
        }
    }
    let (_, id) = best.filter(|_| !tied)?;
    Some(Question {
        kind: Kind::Aggregate,
        text: text.to_owned(),
        needle: None,
        check: Check::Extreme { id, max },
        field: field.map(str::to_owned),
    })
}

/// The most frequent of `names`, counted.
pub(crate) fn most_frequent<'a>(names: impl Iterator<Item = &'a str>) -> Vec<(usize, String)> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for n in names {
        *counts.entry(n).or_default() += 1;
    }
    counts.into_iter().map(|(n, c)| (c, n.to_owned())).collect()
}

/// A number as a sheet shows it (`$1,204.50`, `1,204`), read back.
fn sheet_number(s: &str) -> Option<f64> {
    s.replace(['$', ','], "").parse().ok()
}

/// Index `f` (0..1) of the way down a list of `n`.
pub(crate) fn at(n: usize, f: f64) -> usize {
    ((n as f64 * f) as usize).min(n.saturating_sub(1))
}

/// Every question about a blind shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs: Vec<Option<Question>> = match name {
        "dynamodb_scan" => {
            let r = Records { list: list("Items") };
            vec![
                r.head("What is the orderId of the first item?", "orderId.S"),
                r.tail("What is the orderId of the last item?", "orderId.S"),
                r.lookup("What is the status of order {key}?", 0.6, "orderId.S", "status.S"),
                r.lookup("What is the status of order {key}?", 0.9, "orderId.S", "status.S"),
                r.lookup("Which city does order {key} ship to?", 0.75, "orderId.S", "shipTo.M.city.S"),
                about("status", r.count("How many orders have status {value}?", "status.S", None)),
                about("total", r.extreme("Which order has the largest total?", "total.N", "orderId.S", true)),
            ]
        }
        "firestore_run_query" => {
            let r = Records { list: list("") };
            let f = |field: &str| format!("document.fields.{field}");
            let tracking = f("trackingNumber.stringValue");
            let status = f("status.stringValue");
            vec![
                r.head("What is the tracking number of the first shipment?", &tracking),
                r.tail("What is the tracking number of the last shipment?", &tracking),
                r.lookup("What is the status of shipment {key}?", 0.6, &tracking, &status),
                r.lookup("What is the status of shipment {key}?", 0.9, &tracking, &status),
                r.lookup(
                    "Which city is shipment {key} going to?",
                    0.3,
                    &tracking,
                    &f("recipient.mapValue.fields.city.stringValue"),
                ),
                about("status", r.count("How many shipments are {value}?", &status, None)),
                about(
                    "weightKg",
                    r.extreme("Which shipment is the heaviest?", &f("weightKg.doubleValue"), &tracking, true),
                ),
            ]
        }
        "sheets_values" => sheets_questions(list("values")),
        "gcp_instances_aggregated" => {
            let instances: Vec<Value> = value(v, "items")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|zones| zones.values())
                .flat_map(|z| values(z, "instances[]"))
                .cloned()
                .collect();
            let r = Records { list: &instances };
            let machine = |i: usize| {
                let rec = &instances[i];
                let name = value(rec, "name").map(text).unwrap_or_default();
                let url = value(rec, "machineType").map(text).unwrap_or_default();
                (name, url.rsplit('/').next().unwrap_or_default().to_owned())
            };
            let mut qs = vec![
                r.head("What is the name of the first instance listed?", "name"),
                r.tail("What is the name of the last instance listed?", "name"),
                r.lookup("Which instance has the internal IP {key}?", 0.3, "networkInterfaces[0].networkIP", "name"),
                about("status", r.count("How many instances are {value}?", "status", None)),
            ];
            for f in [0.6, 0.9] {
                if !instances.is_empty() {
                    let (name, kind) = machine(at(instances.len(), f));
                    qs.push(Some(together(
                        Kind::Lookup,
                        format!("What machine type is instance {name}?"),
                        Some(&name),
                        &[&name, &kind],
                    )));
                }
            }
            let zones = most_frequent(
                instances
                    .iter()
                    .filter_map(|i| i.get("zone").and_then(Value::as_str))
                    .map(|z| z.rsplit('/').next().unwrap_or(z)),
            );
            qs.push(extreme("Which zone has the most instances?", zones, true, Some("zone")));
            qs
        }
        "cloudflare_dns" => {
            let r = Records { list: list("result") };
            let total = value(v, "result_info.total_count").and_then(Value::as_u64).unwrap_or(0);
            vec![
                r.head("What is the name of the first record?", "name"),
                r.tail("What is the content of the last record on the page?", "content"),
                r.lookup("What does {key} point to?", 0.6, "name", "content"),
                r.lookup("What does {key} point to?", 0.9, "name", "content"),
                r.count("How many {value} records are on this page?", "type", None),
                Some(count(
                    "How many DNS records does the zone have in all?",
                    &["total_count", "records", "total"],
                    total as usize,
                    None,
                )),
            ]
        }
        "okta_users" => {
            let users = list("");
            let r = Records { list: users };
            let last_login = users
                .iter()
                .filter_map(|u| Some((value(u, "lastLogin").map(text)?, value(u, "profile.login").map(text)?)))
                .collect();
            vec![
                r.head("What is the login of the first user?", "profile.login"),
                r.tail("What is the login of the last user?", "profile.login"),
                r.lookup("What is the title of {key}?", 0.6, "profile.login", "profile.title"),
                r.lookup("Which department is {key} in?", 0.9, "profile.login", "profile.department"),
                about("status", r.count("How many users are {value}?", "status", None)),
                about("department", r.count("How many users are in {value}?", "profile.department", None)),
                extreme("Which user logged in most recently?", last_login, true, Some("lastLogin")),
            ]
        }
        "airflow_dag_runs" => {
            let runs = list("dag_runs");
            let r = Records { list: runs };
            let took: Vec<(i64, String)> = runs
                .iter()
                .filter_map(|run| {
                    let secs = |p: &str| value(run, p).and_then(Value::as_str).and_then(seconds);
                    Some((secs("end_date")? - secs("start_date")?, value(run, "dag_run_id").map(text)?))
                })
                .collect();
            let newest = runs.first().map(|run| (value(run, "dag_id").map(text), value(run, "dag_run_id").map(text)));
            let oldest = runs.last().map(|run| (value(run, "dag_id").map(text), value(run, "dag_run_id").map(text)));
            let pair = |kind, q: &str, p: Option<(Option<String>, Option<String>)>| match p {
                Some((Some(dag), Some(id))) => Some(together(kind, q.to_owned(), None, &[&dag, &id])),
                _ => None,
            };
            vec![
                pair(Kind::Head, "Which DAG run is listed first (DAG and run id)?", newest),
                pair(Kind::Tail, "Which DAG run is listed last (DAG and run id)?", oldest),
                r.lookup("What is the state of DAG run {key}?", 0.6, "dag_run_id", "state"),
                r.lookup("Which DAG is run {key} of?", 0.9, "dag_run_id", "dag_id"),
                about("state", r.count("How many runs are in state {value}?", "state", None)),
                extreme("Which run took the longest?", took, true, Some("end_date")),
            ]
        }
        "loki_query_range" => loki_questions(list("data.result")),
        "mongodb_find" => {
            let r = Records { list: list("documents") };
            vec![
                r.head("What is the _id of the first document?", "_id.$oid"),
                r.tail("What is the _id of the last document?", "_id.$oid"),
                r.lookup("Who wrote review {key}?", 0.6, "_id.$oid", "userName"),
                r.lookup("Which product is review {key} about?", 0.9, "_id.$oid", "productName"),
                about("status", r.count("How many reviews are {value}?", "status", None)),
                about(
                    "helpfulVotes",
                    r.extreme("Which review has the most helpful votes?", "helpfulVotes", "_id.$oid", true),
                ),
            ]
        }
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Seconds since an arbitrary day of an RFC 3339 time (`2025-12-31T02:30:00.123456+00:00`),
/// enough to subtract two times of the same month or so.
fn seconds(t: &str) -> Option<i64> {
    let day: i64 = t.get(..10)?.replace('-', "").parse().ok()?;
    let (y, m, d) = (day / 10_000, day / 100 % 100, day % 100);
    let days = y * 372 + m * 31 + d;
    let clock: Vec<i64> = t.get(11..19)?.split(':').filter_map(|p| p.parse().ok()).collect();
    let [h, mi, s] = clock[..] else { return None };
    Some(days * 86_400 + h * 3_600 + mi * 60 + s)
}

/// A Sheets range: row 0 names the columns, the rest are rows of formatted cells.
fn sheets_questions(rows: &[Value]) -> Vec<Option<Question>> {
    let Some((header, data)) = rows.split_first() else { return Vec::new() };
    let col = |name: &str| values(header, "[]").iter().position(|h| h.as_str() == Some(name)).map(|i| format!("[{i}]"));
    let (Some(sku), Some(on_hand), Some(warehouse), Some(stock_value)) =
        (col("SKU"), col("On Hand"), col("Warehouse"), col("Stock Value"))
    else {
        return Vec::new();
    };
    let r = Records { list: data };
    let worth = data
        .iter()
        .filter_map(|row| Some((sheet_number(value(row, &stock_value)?.as_str()?)?, value(row, &sku).map(text)?)))
        .collect();
    vec![
        r.head("Which SKU is in the first row under the header?", &sku),
        r.tail("Which SKU is in the last row?", &sku),
        r.lookup("How many units of {key} are on hand?", 0.6, &sku, &on_hand),
        r.lookup("How many units of {key} are on hand?", 0.9, &sku, &on_hand),
        about("Warehouse", r.count("How many rows are in warehouse {value}?", &warehouse, None)),
        extreme("Which SKU has the largest stock value?", worth, true, Some("Stock Value")),
    ]
}

/// The value of `key=` in a logfmt line (unquoted values only).
fn logfmt<'l>(line: &'l str, key: &str) -> Option<&'l str> {
    line.split(' ').find_map(|f| f.strip_prefix(key)?.strip_prefix('='))
}

/// A Loki stream's detected level.
fn level(labels: &Value) -> &str {
    labels.get("detected_level").and_then(Value::as_str).unwrap_or("")
}

/// The level of a line of a Django service's log: gunicorn's bracketed one
/// (`[2025-12-31 08:00:00 +0000] [1] [INFO] …`) or the logger's third field
/// (`2025-12-31 08:00:00,123 ERROR …`); none on a traceback's lines.
fn django_level(l: &str) -> Option<&str> {
    if l.starts_with('[') {
        l.split("] [").nth(2).and_then(|s| s.split(']').next())
    } else if l.starts_with(|c: char| c.is_ascii_digit()) {
        l.split(' ').nth(2)
    } else {
        None
    }
}

/// Loki streams: entries are `[nanoseconds, line]` pairs under each stream's labels.
fn loki_questions(streams: &[Value]) -> Vec<Option<Question>> {
    // Every entry with its stream's labels, in the result's order.
    let entries: Vec<(&Value, &str, &str)> = streams
        .iter()
        .flat_map(|s| {
            values(s, "values[]").into_iter().filter_map(move |pair| {
                Some((&s["stream"], value(pair, "[0]")?.as_str()?, value(pair, "[1]")?.as_str()?))
            })
        })
        .collect();
    let mut qs = Vec::new();
    for (kind, q, e) in [
        (Kind::Head, "What is the first entry of the result (its timestamp and trace_id)?", entries.first()),
        (Kind::Tail, "What is the last entry of the result (its timestamp and trace_id)?", entries.last()),
    ] {
        if let Some(trace) = e.and_then(|(_, _, line)| logfmt(line, "trace_id")) {
            qs.push(Some(together(kind, q.to_owned(), None, &[e.map_or("", |e| e.1), trace])));
        }
    }
    let completed: Vec<&str> =
        entries.iter().filter(|(_, _, l)| l.contains("msg=\"request completed\"")).map(|e| e.2).collect();
    for f in [0.6, 0.9] {
        let Some(line) = completed.get(at(completed.len(), f)) else { continue };
        let (Some(trace), Some(status), Some(took)) =
            (logfmt(line, "trace_id"), logfmt(line, "status"), logfmt(line, "duration"))
        else {
            continue;
        };
        qs.push(Some(together(
            Kind::Lookup,
            format!("What status did request {trace} get, and how long did it take?"),
            Some(trace),
            &[trace, &format!("status={status}"), &format!("duration={took}")],
        )));
    }
    let errors: Vec<&(&Value, &str, &str)> = entries.iter().filter(|e| level(e.0) == "error").collect();
    if let Some((_, _, line)) = errors.get(at(errors.len(), 0.5))
        && let (Some(trace), Some(upstream)) = (logfmt(line, "trace_id"), logfmt(line, "upstream"))
    {
        qs.push(Some(together(
            Kind::Lookup,
            format!("Which upstream failed request {trace}?"),
            Some(trace),
            &[trace, &format!("upstream={upstream}")],
        )));
    }
    qs.push(Some(count("How many error lines are there?", &["error"], errors.len(), Some("detected_level"))));
    let by_pod = most_frequent(errors.iter().filter_map(|e| e.0.get("pod").and_then(Value::as_str)));
    qs.push(extreme("Which pod logged the most errors?", by_pod, true, Some("pod")));
    qs
}

/// Non-empty lines, without trailing blanks.
pub(crate) fn lines(t: &str) -> Vec<&str> {
    t.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()).collect()
}

/// Every question about a blind shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let (first, last) = (ls.first().copied().unwrap_or(""), ls.last().copied().unwrap_or(""));
    let mut qs = vec![
        together(Kind::Head, "What does the first line say?".into(), None, &[first]),
        together(Kind::Tail, "What does the last line say?".into(), None, &[last]),
    ];
    match name {
        "nginx_access_log" => {
            // `ip - - [time] "METHOD path HTTP/x" status bytes "referer" "agent"`
            let parsed: Vec<(&str, &str, &str, &str)> = ls
                .iter()
                .filter_map(|l| {
                    let ip = l.split(' ').next()?;
                    let (_, rest) = l.split_once("] \"")?;
                    let (request, rest) = rest.split_once("\" ")?;
                    let path = request.split(' ').nth(1)?;
                    let status = rest.split(' ').next()?;
                    Some((*l, ip, path, status))
                })
                .collect();
            let not_found = parsed.iter().filter(|p| p.3 == "404").count();
            qs.push(count("How many requests got a 404?", &["404"], not_found, None));
            let googlebot = parsed.iter().filter(|p| p.0.contains("Googlebot")).count();
            qs.push(count("How many requests came from Googlebot?", &["Googlebot"], googlebot, None));
            qs.extend(extreme(
                "Which IP address made the most requests?",
                most_frequent(parsed.iter().map(|p| p.1)),
                true,
                None,
            ));
            let once: Vec<&(&str, &str, &str, &str)> = parsed
                .iter()
                .filter(|p| p.2.starts_with("/api/v2/orders/"))
                .filter(|p| parsed.iter().filter(|o| o.2 == p.2).count() == 1)
                .collect();
            for f in [0.6, 0.9] {
                if let Some((_, _, path, status)) = once.get(at(once.len(), f)) {
                    qs.push(together(
                        Kind::Lookup,
                        format!("What status did the request for {path} get?"),
                        Some(path),
                        &[path, status],
                    ));
                }
            }
        }
        "django_service_log" => {
            for level in ["ERROR", "WARNING"] {
                let n = ls.iter().filter(|l| django_level(l) == Some(level)).count();
                qs.push(count(&format!("How many {level} entries are in the log?"), &[level], n, None));
            }
            // A traceback ends with `module.Class: message` at the start of a line.
            let raised = ls.iter().filter_map(|l| {
                let (class, _) = l.split_once(": ")?;
                let plain = !l.starts_with([' ', '[']) && !l.starts_with(|c: char| c.is_ascii_digit());
                (plain && !class.contains(' ')).then(|| class.rsplit('.').next().unwrap_or(class))
            });
            qs.extend(extreme("Which exception was raised most often?", most_frequent(raised), true, None));
            let requests: Vec<(&str, &str, &str)> = ls
                .iter()
                .filter_map(|l| {
                    let (_, rest) = l.split_once("[req:")?;
                    let (req, rest) = rest.split_once("] app.request: ")?;
                    let mut parts = rest.split(' ');
                    let (_, path, status) = (parts.next()?, parts.next()?, parts.next()?);
                    Some((req, path, status))
                })
                .collect();
            for f in [0.6, 0.9] {
                if let Some((req, path, status)) = requests.get(at(requests.len(), f)) {
                    qs.push(together(
                        Kind::Lookup,
                        format!("Which path did request {req} ask for, and what status did it get?"),
                        Some(req),
                        &[req, path, status],
                    ));
                }
            }
        }
        "kubectl_describe_nodes" => describe_nodes_questions(&mut qs, &ls),
        _ => return None,
    }
    Some(qs)
}

/// `kubectl describe nodes`: a `Name:` line opens each node; its pods are rows of the
/// `Non-terminated Pods` table (namespace, name, then requests and limits as `250m (6%)`),
/// and its `Allocated resources` table has a `cpu` row of requests and limits.
fn describe_nodes_questions(qs: &mut Vec<Question>, ls: &[&str]) {
    // Per node: its name, allocatable millicores, requested millicores, and readiness.
    let mut nodes: Vec<(&str, f64, f64, bool)> = Vec::new();
    let mut pods: Vec<(&str, &str)> = Vec::new();
    let millis = |s: &str| s.strip_suffix('m').map_or_else(|| s.parse::<f64>().map(|c| c * 1000.0), str::parse).ok();
    for line in ls {
        let cells: Vec<&str> = line.split_whitespace().collect();
        if let Some(name) = line.strip_prefix("Name:") {
            nodes.push((name.trim(), 0.0, 0.0, false));
        } else if let Some(node) = nodes.last_mut() {
            match cells.as_slice() {
                ["Ready", status, ..] => node.3 = *status == "True",
                // Capacity, then Allocatable: the last `cpu:` is what pods can request.
                ["cpu:", cpu] => node.1 = millis(cpu).unwrap_or(0.0),
                ["cpu", requested, ..] => node.2 = millis(requested).unwrap_or(0.0),
                [_, pod, cpu, share, ..] if cells.len() >= 10 && share.starts_with('(') && share.ends_with("%)") => {
                    pods.push((pod, cpu));
                }
                _ => {}
            }
        }
    }
    // The last line closes the last node's events; its last pod is what the output ends with.
    qs.retain(|q| q.kind != Kind::Tail);
    if let Some((pod, cpu)) = pods.last() {
        qs.push(together(
            Kind::Tail,
            "Which pod is listed last, and how much CPU does it request?".into(),
            None,
            &[pod, cpu],
        ));
    }
    qs.push(count("How many nodes are described?", &["nodes", "node"], nodes.len(), None));
    qs.push(count(
        "How many nodes are NotReady?",
        &["NotReady", "not ready"],
        nodes.iter().filter(|n| !n.3).count(),
        None,
    ));
    let share = nodes.iter().filter(|n| n.1 > 0.0).map(|n| (n.2 / n.1, n.0.to_owned())).collect();
    qs.extend(extreme("Which node has the highest share of its CPU requested?", share, true, None));
    let unique: Vec<&(&str, &str)> = pods.iter().filter(|p| pods.iter().filter(|o| o.0 == p.0).count() == 1).collect();
    for f in [0.6, 0.9] {
        if let Some((pod, cpu)) = unique.get(at(unique.len(), f)) {
            qs.push(together(Kind::Lookup, format!("How much CPU does pod {pod} request?"), Some(pod), &[pod, cpu]));
        }
    }
}

/// A lookup of a record picked `f` of the way down `list`: the question with `{key}`
/// replaced by the record's key, answered by every string `answer` gives in one unit.
pub(crate) fn pick(
    list: &[Value],
    f: f64,
    q: &str,
    key: &dyn Fn(&Value) -> Option<String>,
    answer: &dyn Fn(&Value) -> Option<Vec<String>>,
) -> Option<Question> {
    let x = list.get(at(list.len(), f))?;
    let k = key(x)?;
    let must = answer(x)?;
    let must: Vec<&str> = must.iter().map(String::as_str).collect();
    Some(together(Kind::Lookup, q.replace("{key}", &k), Some(&k), &must))
}

/// A string field of a record.
pub(crate) fn s(x: &Value, field: &str) -> Option<String> {
    x[field].as_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use toolshape_fixtures::apis::Split;

    use super::*;

    #[test]
    fn the_blind_part_asks_at_least_45_questions_of_every_kind() {
        let asked = crate::questions::tests::asks_every_kind(Split::Blind);
        assert!(asked >= 45, "the blind part asks {asked} questions");
    }

    #[test]
    fn extremes_are_dropped_when_tied_and_counted_names_rank() {
        let tied = extreme("?", vec![(3, "a".to_owned()), (3, "b".to_owned()), (1, "c".to_owned())], true, None);
        assert!(tied.is_none());
        let low = extreme("?", vec![(3, "a".to_owned()), (1, "c".to_owned()), (2, "b".to_owned())], false, None);
        assert_eq!(low.map(|q| q.check), Some(Check::Extreme { id: "c".into(), max: false }));
        let ranked = most_frequent(["x", "y", "x"].into_iter());
        assert_eq!(ranked, vec![(2, "x".to_owned()), (1, "y".to_owned())]);
    }

    #[test]
    fn cells_times_and_fields_read_back() {
        assert_eq!(sheet_number("$1,204.50"), Some(1204.5));
        assert_eq!(sheet_number("1,204"), Some(1204.0));
        assert_eq!(sheet_number(""), None);
        let a = seconds("2025-12-31T02:30:00.123456+00:00");
        let b = seconds("2026-01-01T00:00:10+00:00");
        assert_eq!(b.zip(a).map(|(b, a)| b - a), Some(21 * 3_600 + 30 * 60 + 10));
        let line = "ts=x level=info msg=\"request completed\" status=200 duration=8.5ms";
        assert_eq!(logfmt(line, "status"), Some("200"));
        assert_eq!(logfmt(line, "duration"), Some("8.5ms"));
        assert_eq!(logfmt(line, "trace_id"), None);
    }

    #[test]
    fn typed_values_are_asked_by_their_attribute() {
        let v = serde_json::json!({"Items": [
            {"id": {"S": "a"}, "status": {"S": "open"}, "total": {"N": "3"}},
            {"id": {"S": "b"}, "status": {"S": "done"}, "total": {"N": "12.5"}},
            {"id": {"S": "c"}, "status": {"S": "open"}, "total": {"N": "1"}}
        ]});
        let r = Records { list: value(&v, "Items").and_then(Value::as_array).map_or(&[][..], Vec::as_slice) };
        let q = about("total", r.extreme("largest?", "total.N", "id.S", true)).unwrap();
        assert_eq!(q.check, Check::Extreme { id: "b".into(), max: true });
        assert_eq!(q.field.as_deref(), Some("total"));
    }
}
