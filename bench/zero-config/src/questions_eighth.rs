//! The questions asked of the eighth part of the catalog: what a user of each service or
//! command asks of a result like it (which CI check failed and which took longest, what a
//! customer owes, which image a deployment runs, how big an object is, why a Go test
//! failed, which exception a request hit, which units failed, which pod uses the most
//! memory), with records named from the middle and the end of the result as well as the
//! head. The answers are computed from the generated data, never written by hand.
//!
//! Text results (a test run, a log, two tables) are first read into records or lines of
//! their own kind, so the same builders ask of them.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::question::{Kind, Question, Records, value};
use crate::questions_blind::{about, at, count, extreme, lines, most_frequent, together};

/// Seconds since the epoch of an RFC 3339 UTC time (`2025-12-31T19:45:08Z`).
fn unix(t: &str) -> Option<i64> {
    let n = |a: usize, b: usize| t.get(a..b)?.parse::<i64>().ok();
    let (y, m, d) = (n(0, 4)?, n(5, 7)?, n(8, 10)?);
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let days = 365 * y + y / 4 - y / 100 + y / 400 + (153 * m + 2) / 5 + d - 719_469;
    Some(days * 86_400 + n(11, 13)? * 3600 + n(14, 16)? * 60 + n(17, 19)?)
}

/// Every question about an eighth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "github_check_runs" => check_run_questions(list("check_runs")),
        "stripe_invoices" => invoice_questions(list("data")),
        "k8s_deployments" => deployment_questions(list("items")),
        "s3_list_objects" => s3_questions(list("Contents")),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// GitHub check runs: a CI job each, named by its matrix, with start and end times.
fn check_run_questions(runs: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: runs };
    let failed = runs.iter().filter(|c| c["conclusion"] == "failure").count();
    let took = runs
        .iter()
        .filter_map(|c| {
            let secs = unix(c["completed_at"].as_str()?)? - unix(c["started_at"].as_str()?)?;
            Some((secs, c["name"].as_str()?.to_owned()))
        })
        .collect();
    vec![
        r.head("Which check run is listed first?", "name"),
        r.tail("Which check run is last on this page?", "name"),
        r.lookup("What was the conclusion of {key}?", 0.6, "name", "conclusion"),
        r.lookup("When did {key} finish?", 0.9, "name", "completed_at"),
        r.lookup("Which app reported the {key} check?", 0.3, "name", "app.name"),
        Some(count("How many check runs failed?", &["failure", "failed"], failed, Some("conclusion"))),
        about("status", r.count("How many check runs are {value}?", "status", None)),
        extreme("Which check run took the longest?", took, true, Some("completed_at")),
        about(
            "annotations_count",
            r.extreme("Which check run has the most annotations?", "output.annotations_count", "name", true),
        ),
    ]
}

/// Stripe invoices, newest first; drafts have no number yet.
fn invoice_questions(invoices: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: invoices };
    let mut owed: BTreeMap<String, i64> = BTreeMap::new();
    for i in invoices {
        if let (Some(who), Some(left)) = (i["customer_name"].as_str(), i["amount_remaining"].as_i64()) {
            *owed.entry(who.to_owned()).or_default() += left;
        }
    }
    let owed = owed.into_iter().filter(|(_, left)| *left > 0).map(|(who, left)| (left, who)).collect();
    vec![
        r.head("What is the ID of the most recent invoice?", "id"),
        r.tail("What is the number of the oldest invoice on this page?", "number"),
        r.lookup("How much is due on invoice {key}?", 0.6, "number", "amount_due"),
        r.lookup("What is the status of invoice {key}?", 0.9, "number", "status"),
        r.lookup("Which customer is invoice {key} for?", 0.3, "number", "customer_name"),
        about("status", r.count("How many invoices are {value}?", "status", None)),
        about("billing_reason", r.count("How many invoices have billing reason {value}?", "billing_reason", None)),
        about("total", r.extreme("Which invoice has the largest total?", "total", "id", true)),
        extreme("Which customer owes the most?", owed, true, Some("amount_remaining")),
    ]
}

/// Kubernetes Deployments: the same name can be in two namespaces (staging and
/// production), so a lookup names one that is in only one.
fn deployment_questions(items: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: items };
    let container = "spec.template.spec.containers[0]";
    let unavailable = items.iter().filter(|d| d["status"].get("unavailableReplicas").is_some()).count();
    let newest = items
        .iter()
        .filter_map(|d| {
            let m = &d["metadata"];
            Some((m["creationTimestamp"].as_str()?.to_owned(), m["name"].as_str()?.to_owned()))
        })
        .collect();
    let last = items.last().and_then(|d| Some((d["metadata"]["name"].as_str()?, d["metadata"]["namespace"].as_str()?)));
    vec![
        r.head("Which deployment is listed first?", "metadata.name"),
        last.map(|(n, ns)| {
            together(Kind::Tail, "Which deployment is listed last, and in which namespace?".into(), None, &[n, ns])
        }),
        r.lookup("Which image does the {key} deployment run?", 0.6, "metadata.name", &format!("{container}.image")),
        r.lookup("Which namespace is {key} deployed in?", 0.9, "metadata.name", "metadata.namespace"),
        r.lookup(
            "What memory limit does {key} have?",
            0.3,
            "metadata.name",
            &format!("{container}.resources.limits.memory"),
        ),
        about("namespace", r.count("How many deployments are in the {value} namespace?", "metadata.namespace", None)),
        Some(count(
            "How many deployments have unavailable replicas?",
            &["unavailable", "unavailableReplicas"],
            unavailable,
            Some("unavailableReplicas"),
        )),
        about(
            "replicas",
            r.extreme("Which deployment runs the most replicas?", "spec.replicas", "metadata.name", true),
        ),
        extreme("Which deployment was created most recently?", newest, true, Some("creationTimestamp")),
    ]
}

/// S3 objects in key order.
fn s3_questions(objects: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: objects };
    let logs = objects.iter().filter(|o| o["Key"].as_str().is_some_and(|k| k.starts_with("logs/"))).count();
    let latest = objects
        .iter()
        .filter_map(|o| Some((o["LastModified"].as_str()?.to_owned(), o["Key"].as_str()?.to_owned())))
        .collect();
    vec![
        r.head("What is the first key in the listing?", "Key"),
        r.tail("What is the last key on this page?", "Key"),
        r.lookup("How big is {key}?", 0.6, "Key", "Size"),
        r.lookup("When was {key} last modified?", 0.9, "Key", "LastModified"),
        r.lookup("Which storage class is {key} in?", 0.3, "Key", "StorageClass"),
        about("StorageClass", r.count("How many objects are in {value}?", "StorageClass", None)),
        Some(count("How many objects are under the logs/ prefix?", &["logs/", "logs"], logs, Some("Key"))),
        about("Size", r.extreme("Which object is the largest?", "Size", "Key", true)),
        extreme("Which object was modified most recently?", latest, true, Some("LastModified")),
    ]
}

/// Every question about an eighth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "go_test_v" => go_test_questions(&ls),
        "spring_boot_log" => spring_questions(&ls),
        "systemctl_list_units" => systemctl_questions(&ls),
        "kubectl_top_pods" => top_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// One top-level test of `go test -v`.
#[derive(Default, Clone)]
pub(crate) struct GoTest<'l> {
    pub(crate) name: &'l str,
    pub(crate) outcome: &'l str,
    /// As printed: `0.12s`.
    pub(crate) took: &'l str,
    pub(crate) subtests: usize,
    /// The lines it logged (`client_test.go:88: …`), trimmed.
    pub(crate) logged: Vec<&'l str>,
}

/// The top-level tests of a `go test -v` run in the order their results were printed,
/// with the lines each logged (attributed by the `=== RUN` or `=== CONT` before them), and
/// the packages' result lines as `(status, package, time)`.
pub(crate) fn go_tests<'l>(ls: &[&'l str]) -> (Vec<GoTest<'l>>, Vec<(&'l str, &'l str, &'l str)>) {
    let mut tests: Vec<GoTest> = Vec::new();
    let mut logged: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut subtests: BTreeMap<&str, usize> = BTreeMap::new();
    let mut packages = Vec::new();
    let mut current = "";
    for l in ls {
        let top = |s: &'l str| s.split('/').next().unwrap_or(s);
        if let Some(name) = l.strip_prefix("=== RUN   ").or_else(|| l.strip_prefix("=== CONT  ")) {
            current = top(name);
            if name.contains('/') {
                *subtests.entry(current).or_default() += 1;
            }
        } else if let Some(rest) = l.strip_prefix("--- ") {
            let Some((outcome, rest)) = rest.split_once(": ") else { continue };
            let Some((name, took)) = rest.split_once(" (") else { continue };
            let took = took.trim_end_matches(')');
            tests.push(GoTest { name, outcome, took, ..GoTest::default() });
        } else if l.starts_with("    ") && l.contains("_test.go:") && !l.trim_start().starts_with("---") {
            logged.entry(current).or_default().push(l.trim());
        } else if l.starts_with("ok  \t") || l.starts_with("FAIL\t") || l.starts_with("?   \t") {
            let mut cells = l.split('\t');
            let status = cells.next().unwrap_or("").trim();
            packages.push((status, cells.next().unwrap_or(""), cells.next().unwrap_or("")));
        }
    }
    for t in &mut tests {
        t.logged = logged.get(t.name).cloned().unwrap_or_default();
        t.subtests = subtests.get(t.name).copied().unwrap_or(0);
    }
    (tests, packages)
}

/// `go test -v ./...`: a test named from the middle or end, why one failed, how many
/// failed or were skipped, the slowest test and package.
fn go_test_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let (tests, packages) = go_tests(ls);
    let once = |t: &&GoTest| tests.iter().filter(|u| u.name == t.name).count() == 1;
    // Tests without subtests, whose one result line names them.
    let plain: Vec<&GoTest> = tests.iter().filter(|t| t.subtests == 0).filter(once).collect();
    let failed: Vec<&GoTest> = tests.iter().filter(|t| t.outcome == "FAIL").collect();
    // A failure's first message that says something and is logged nowhere else.
    let reasons: Vec<(&str, &str)> = failed
        .iter()
        .filter_map(|t| {
            let why = t
                .logged
                .iter()
                .find(|l| !l.ends_with(':') && l.split_once(": ").is_some_and(|(_, m)| !m.trim().is_empty()))?;
            (ls.iter().filter(|l| l.contains(why)).count() == 1).then_some((t.name, *why))
        })
        .collect();
    let secs = |s: &str| s.trim_end_matches('s').parse::<f64>().ok();
    let slowest = tests.iter().filter_map(|t| Some((secs(t.took)?, t.name.to_owned()))).collect();
    let slowest_package = packages.iter().filter_map(|(_, p, s)| Some((secs(s)?, (*p).to_owned()))).collect();
    let first = ls.iter().find_map(|l| l.strip_prefix("=== RUN   "));
    let lookup = |f: f64, q: &str, answer: &dyn Fn(&GoTest) -> String| {
        let t = plain.get(at(plain.len(), f))?;
        Some(together(Kind::Lookup, q.replace("{test}", t.name), Some(t.name), &[t.name, &answer(t)]))
    };
    let skipped = tests.iter().filter(|t| t.outcome == "SKIP").count();
    vec![
        first.map(|n| together(Kind::Head, "Which test runs first?".into(), None, &[n])),
        packages.last().map(|p| together(Kind::Tail, "Which package is reported last?".into(), None, &[p.1])),
        tests.last().map(|t| together(Kind::Tail, "Which test finished last?".into(), None, &[t.name])),
        lookup(0.6, "How long did {test} take?", &|t| t.took.to_owned()),
        lookup(0.9, "Did {test} pass?", &|t| t.outcome.to_owned()),
        reasons
            .get(at(reasons.len(), 0.5))
            .map(|(name, why)| together(Kind::Lookup, format!("Why did {name} fail?"), Some(name), &[why])),
        Some(count("How many tests failed?", &["FAIL", "failed", "failures"], failed.len(), None)),
        Some(count("How many tests were skipped?", &["SKIP", "skipped"], skipped, None)),
        extreme("Which test was the slowest?", slowest, true, None),
        extreme("Which package took the longest to test?", slowest_package, true, None),
    ]
}

/// The parts of a Spring Boot console line: time, level, correlation id (`traceId-spanId`,
/// empty when blank), logger and message.
pub(crate) fn spring_line(l: &str) -> Option<(&str, &str, &str, &str, &str)> {
    let (time, rest) = l.split_once(' ')?;
    let rest = rest.trim_start();
    let (level, rest) = rest.split_once(' ')?;
    let (_, rest) = rest.split_once("] [").and_then(|(_, r)| r.split_once("] "))?;
    let (corr, rest) = match rest.strip_prefix('[') {
        Some(r) => r.split_once("] ").map(|(c, r)| (c.trim(), r))?,
        None => ("", rest),
    };
    let (logger, msg) = rest.split_once(" : ")?;
    Some((time, level, corr, logger.trim(), msg))
}

/// A Spring Boot log: startup and shutdown, orders and requests named by their ids,
/// errors and their exceptions.
fn spring_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let parsed: Vec<_> = ls.iter().filter_map(|l| spring_line(l)).collect();
    let with = |level: &str| parsed.iter().filter(|p| p.1 == level).count();
    let placed: Vec<(&str, &str)> = parsed
        .iter()
        .filter_map(|p| {
            let rest = p.4.strip_prefix("Order ")?;
            let (id, rest) = rest.split_once(" placed for customer ")?;
            Some((id, rest.split(',').next()?))
        })
        .collect();
    // Request lines: `POST /api/orders -> 201 (47 ms)`, with their trace id.
    let requests: Vec<(&str, String, u64)> = parsed
        .iter()
        .filter(|p| p.3.ends_with("RequestLoggingFilter") && !p.2.is_empty())
        .filter_map(|p| {
            let ms = p.4.rsplit_once(" (")?.1.strip_suffix(" ms)")?;
            Some((p.2.split('-').next()?, format!("{ms} ms"), ms.parse().ok()?))
        })
        .collect();
    let errors: Vec<(&str, &str)> = parsed
        .iter()
        .filter(|p| p.1 == "ERROR")
        .filter_map(|p| {
            let class = p.4.split_once("Request processing failed: ")?.1.split(':').next()?;
            Some((p.2.split('-').next()?, class.rsplit('.').next()?))
        })
        .collect();
    let started = parsed.iter().find_map(|p| {
        let rest = p.4.strip_prefix("Started ")?;
        rest.split_once(" in ")?.1.split_once(" (").map(|(s, _)| s)
    });
    let starting = parsed.iter().find_map(|p| p.4.strip_prefix("Starting ")).and_then(|s| {
        let words: Vec<&str> = s.split(' ').collect();
        Some((*words.get(1)?, words.iter().position(|w| *w == "Java").and_then(|i| words.get(i + 1))?.to_owned()))
    });
    let last = parsed.last().map(|p| (p.0, p.4.trim_end_matches('.')));
    vec![
        started.map(|s| together(Kind::Head, "How long did the service take to start?".into(), None, &[s])),
        starting.map(|(v, java)| {
            let java = format!("Java {java}");
            together(Kind::Head, "Which version of the service started, on which Java?".into(), None, &[v, &java])
        }),
        last.map(|(t, m)| together(Kind::Tail, "When did the service finish shutting down?".into(), None, &[t, m])),
        placed.get(at(placed.len(), 0.6)).map(|(id, customer)| {
            together(Kind::Lookup, format!("Which customer placed order {id}?"), Some(id), &[id, customer])
        }),
        requests.get(at(requests.len(), 0.9)).map(|(trace, took, _)| {
            together(Kind::Lookup, format!("How long did request {trace} take?"), Some(trace), &[trace, took])
        }),
        errors.get(at(errors.len(), 0.5)).map(|(trace, class)| {
            together(
                Kind::Lookup,
                format!("Which exception did request {trace} fail with?"),
                Some(trace),
                &[trace, class],
            )
        }),
        Some(count("How many errors were logged?", &["ERROR", "error", "errors"], with("ERROR"), None)),
        Some(count("How many warnings were logged?", &["WARN", "warning", "warnings"], with("WARN"), None)),
        Some(count("How many orders were placed?", &["placed", "orders placed"], placed.len(), None)),
        extreme("Which exception was thrown most often?", most_frequent(errors.iter().map(|e| e.1)), true, None),
        extreme(
            "Which request was the slowest?",
            requests.iter().map(|(trace, _, ms)| (*ms, (*trace).to_owned())).collect(),
            true,
            None,
        ),
    ]
}

/// The rows of `systemctl list-units`: after the header, up to the blank line before the
/// legend, each without its `●` mark, split into the header's columns.
pub(crate) fn unit_rows(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .skip(1)
        .take_while(|l| !l.starts_with("Legend:"))
        .filter_map(|l| {
            let rest = l.strip_prefix("● ").or_else(|| l.strip_prefix("  "))?;
            let mut cells = rest.split_whitespace();
            let mut rec = Map::new();
            for name in ["UNIT", "LOAD", "ACTIVE", "SUB"] {
                rec.insert(name.into(), json!(cells.next()?));
            }
            rec.insert("DESCRIPTION".into(), json!(cells.collect::<Vec<_>>().join(" ")));
            Some(Value::Object(rec))
        })
        .collect()
}

/// `systemctl list-units --all`: the state of a unit, how many failed or are missing.
fn systemctl_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let units = unit_rows(ls);
    let r = Records { list: &units };
    let services: Vec<Value> =
        units.iter().filter(|u| u["UNIT"].as_str().is_some_and(|n| n.ends_with(".service"))).cloned().collect();
    let s = Records { list: &services };
    let failed = units.iter().filter(|u| u["ACTIVE"] == "failed").count();
    let missing = units.iter().filter(|u| u["LOAD"] == "not-found").count();
    let kinds = most_frequent(units.iter().filter_map(|u| u["UNIT"].as_str()?.rsplit('.').next()));
    let listed = ls.iter().find(|l| l.ends_with(" loaded units listed.")).map(|l| l.trim_end_matches('.'));
    vec![
        r.head("Which unit is listed first?", "UNIT"),
        r.tail("Which unit is listed last?", "UNIT"),
        listed.map(|l| together(Kind::Tail, "How many units are listed?".into(), None, &[l])),
        s.lookup("Is {key} running?", 0.5, "UNIT", "SUB"),
        s.lookup("What state is {key} in?", 0.9, "UNIT", "SUB"),
        r.lookup("What is {key}?", 0.3, "UNIT", "DESCRIPTION"),
        Some(count("How many units have failed?", &["failed"], failed, Some("ACTIVE"))),
        Some(count("How many units could not be found?", &["not-found", "not found"], missing, Some("LOAD"))),
        about("SUB", r.count("How many units are {value}?", "SUB", None)),
        extreme("Which kind of unit is the most common?", kinds, true, None),
    ]
}

/// `kubectl top pods`: a row per pod under a header of column names.
pub(crate) fn top_rows(ls: &[&str]) -> Vec<Value> {
    let Some(header) = ls.first() else { return Vec::new() };
    let names: Vec<&str> = header.split_whitespace().collect();
    ls[1..]
        .iter()
        .map(|l| {
            Value::Object(names.iter().zip(l.split_whitespace()).map(|(n, c)| ((*n).to_owned(), json!(c))).collect())
        })
        .collect()
}

/// `kubectl top pods -A`: a pod's usage, a namespace's pods, the hungriest pods.
fn top_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let pods = top_rows(ls);
    let r = Records { list: &pods };
    let usage = |column: &str, unit: &str| -> Vec<(u64, String)> {
        pods.iter()
            .filter_map(|p| {
                Some((p[column].as_str()?.strip_suffix(unit)?.parse().ok()?, p["NAME"].as_str()?.to_owned()))
            })
            .collect()
    };
    vec![
        r.head("Which pod is listed first?", "NAME"),
        r.tail("Which pod is listed last?", "NAME"),
        r.lookup("How much memory is {key} using?", 0.6, "NAME", "MEMORY(bytes)"),
        r.lookup("How much CPU is {key} using?", 0.9, "NAME", "CPU(cores)"),
        r.lookup("Which namespace is {key} in?", 0.3, "NAME", "NAMESPACE"),
        about("NAMESPACE", r.count("How many pods are in the {value} namespace?", "NAMESPACE", None)),
        extreme("Which pod uses the most memory?", usage("MEMORY(bytes)", "Mi"), true, Some("MEMORY(bytes)")),
        extreme("Which pod uses the most CPU?", usage("CPU(cores)", "m"), true, Some("CPU(cores)")),
    ]
}

#[cfg(test)]
#[path = "questions_eighth_tests.rs"]
mod tests;
