//! The questions asked of the seventh part of the catalog: what a user of each service or
//! command asks of a result like it (who a task is assigned to, which room is warmest,
//! who made an AWS call, why a job failed, which process uses the most memory, which plan
//! a customer is on, who wrote a commit), with records named from the middle and the end
//! of the result as well as the head. The answers are computed from the generated data,
//! never written by hand.
//!
//! Results that are not lists of objects (a map keyed by push ids, rows of positional
//! cells, text tables) are first read into records keyed by their own names, so the same
//! builders ask of them.

use serde_json::{Map, Value, json};

use crate::question::{Kind, Question, Records, text, value, values};
use crate::questions_blind::{about, at, count, extreme, lines, most_frequent, together};

/// Every question about a seventh-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs: Vec<Option<Question>> = match name {
        "asana_tasks" => asana_questions(list("data")),
        "home_assistant_states" => home_assistant_questions(list("")),
        "firebase_bookings" => {
            // The map's entries in order, each with its push id as `id`.
            let bookings: Vec<Value> = v
                .as_object()
                .into_iter()
                .flatten()
                .map(|(id, b)| {
                    let mut rec = Map::new();
                    rec.insert("id".into(), json!(id));
                    rec.extend(b.as_object().cloned().unwrap_or_default());
                    Value::Object(rec)
                })
                .collect();
            let r = Records { list: &bookings };
            let busiest = most_frequent(bookings.iter().filter_map(|b| b["property"].as_str()));
            vec![
                r.head("Who is the guest of the first booking?", "guest.name"),
                r.tail("Who is the guest of the most recent booking?", "guest.name"),
                r.lookup("What is the status of booking {key}?", 0.6, "id", "status"),
                r.lookup("Which property is booking {key} for?", 0.9, "id", "property"),
                r.lookup("When does {key} check in?", 0.3, "guest.name", "checkIn"),
                about("status", r.count("How many bookings are {value}?", "status", None)),
                about("channel", r.count("How many bookings came through {value}?", "channel", None)),
                about("totalCents", r.extreme("Which booking has the largest total?", "totalCents", "id", true)),
                extreme("Which property has the most bookings?", busiest, true, Some("property")),
            ]
        }
        "athena_cloudtrail" => athena_questions(list("ResultSet.Rows")),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Asana tasks: each with its section under `memberships` and its custom fields by position
/// (priority, then estimate).
fn asana_questions(tasks: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: tasks };
    let completed = tasks.iter().filter(|t| t["completed"] == true).count();
    let open: Vec<&Value> = tasks.iter().filter(|t| t["completed"] == false).collect();
    let busiest = most_frequent(open.iter().filter_map(|t| t["assignee"]["name"].as_str()));
    let oldest = open
        .iter()
        .filter_map(|t| Some((t["created_at"].as_str()?.to_owned(), t["name"].as_str()?.to_owned())))
        .collect();
    vec![
        r.head("What is the first task in the list?", "name"),
        r.tail("What is the last task on this page?", "name"),
        r.lookup("Who is {key} assigned to?", 0.6, "name", "assignee.name"),
        r.lookup("When is {key} due?", 0.9, "name", "due_on"),
        r.lookup("Which section is {key} in?", 0.3, "name", "memberships[0].section.name"),
        Some(count("How many tasks are completed?", &["completed"], completed, Some("completed"))),
        about("section", r.count("How many tasks are in the {value} section?", "memberships[0].section.name", None)),
        about("Priority", r.count("How many tasks have priority {value}?", "custom_fields[0].display_value", None)),
        extreme("Who has the most open tasks?", busiest, true, Some("assignee")),
        extreme("Which open task is the oldest?", oldest, false, Some("created_at")),
    ]
}

/// Home Assistant states: entity ids name the domain (`sensor.`, `light.`) and the device
/// class says what a sensor measures.
fn home_assistant_questions(states: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: states };
    let class = |c: &str| -> Vec<Value> {
        states
            .iter()
            .filter(|s| {
                s["attributes"]["device_class"] == c
                    && s["entity_id"].as_str().is_some_and(|e| e.starts_with("sensor."))
            })
            .cloned()
            .collect()
    };
    let (temperatures, batteries) = (class("temperature"), class("battery"));
    let t = Records { list: &temperatures };
    let b = Records { list: &batteries };
    let domain = |s: &Value, d: &str| s["entity_id"].as_str().is_some_and(|e| e.starts_with(d));
    let lights_on = states.iter().filter(|s| domain(s, "light.") && s["state"] == "on").count();
    let open = states
        .iter()
        .filter(|s| domain(s, "binary_sensor.") && s["state"] == "on")
        .filter(|s| matches!(s["attributes"]["device_class"].as_str(), Some("door" | "window")))
        .count();
    let last = states.last().map(|s| (s["entity_id"].as_str().unwrap_or(""), s["state"].as_str().unwrap_or("")));
    let latest_run = states
        .iter()
        .filter(|s| domain(s, "automation."))
        .filter_map(|s| {
            Some((s["attributes"]["last_triggered"].as_str()?.to_owned(), s["entity_id"].as_str()?.to_owned()))
        })
        .collect();
    vec![
        r.head("Which entity is listed first?", "entity_id"),
        last.map(|(e, s)| {
            together(Kind::Tail, "What is the last entity, and what is its state?".into(), None, &[e, s])
        }),
        r.lookup("What is the state of {key}?", 0.6, "entity_id", "state"),
        r.lookup("What is the state of {key}?", 0.9, "entity_id", "state"),
        t.lookup("What temperature does {key} read?", 0.7, "entity_id", "state"),
        b.lookup("What is the battery level of {key}?", 0.4, "entity_id", "state"),
        Some(count("How many lights are on?", &["on", "lights on"], lights_on, Some("state"))),
        Some(count("How many doors and windows are open?", &["open"], open, Some("state"))),
        about("state", t.extreme("Which room is the warmest?", "state", "entity_id", true)),
        about("state", b.extreme("Which sensor has the lowest battery?", "state", "entity_id", false)),
        extreme("Which automation ran most recently?", latest_run, true, Some("last_triggered")),
    ]
}

/// Rows of `{"VarCharValue": …}` cells under a header row, read into records keyed by the
/// header's names (a null cell `{}` leaves its column out).
fn athena_questions(rows: &[Value]) -> Vec<Option<Question>> {
    let cells = |row: &Value| -> Vec<Option<String>> {
        values(row, "Data[]").into_iter().map(|c| c.get("VarCharValue").map(text)).collect()
    };
    let Some(header) = rows.first().map(cells) else { return Vec::new() };
    let records: Vec<Value> = rows[1..]
        .iter()
        .map(|row| {
            let rec: Map<String, Value> =
                header.iter().zip(cells(row)).filter_map(|(h, c)| Some((h.clone()?, Value::String(c?)))).collect();
            Value::Object(rec)
        })
        .collect();
    let r = Records { list: &records };
    let failed: Vec<Value> = records.iter().filter(|e| e.get("errorcode").is_some()).cloned().collect();
    let f = Records { list: &failed };
    let denied = failed.iter().filter(|e| e["errorcode"] == "AccessDenied").count();
    let callers = most_frequent(records.iter().filter_map(|e| e["sourceipaddress"].as_str()));
    let failing = most_frequent(failed.iter().filter_map(|e| e["arn"].as_str()));
    let pair = |kind, q: &str, e: Option<&Value>| {
        let e = e?;
        Some(together(kind, q.to_owned(), None, &[e["eventtime"].as_str()?, e["eventname"].as_str()?]))
    };
    vec![
        pair(Kind::Head, "What is the most recent event, and when did it happen?", records.first()),
        pair(Kind::Tail, "What is the earliest event in these results, and when did it happen?", records.last()),
        r.lookup("Who made the call with event id {key}?", 0.6, "eventid", "arn"),
        r.lookup("Which API was called in event {key}?", 0.9, "eventid", "eventname"),
        f.lookup("What error did event {key} get?", 0.5, "eventid", "errorcode"),
        Some(count("How many calls were denied with AccessDenied?", &["AccessDenied"], denied, Some("errorcode"))),
        about("eventname", r.count("How many {value} events are there?", "eventname", None)),
        extreme("Which source IP address made the most calls?", callers, true, Some("sourceipaddress")),
        extreme("Which identity got the most errors?", failing, true, Some("arn")),
    ]
}

/// Every question about a seventh-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "journalctl_units" => journal_questions(&ls),
        "ps_aux" => ps_questions(&ls),
        "psql_customers" => psql_questions(&ls),
        "git_log_stat" => git_log_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// The value of `key=` in a logfmt line (quotes kept off).
fn logfmt<'l>(line: &'l str, key: &str) -> Option<&'l str> {
    let at = line.find(&format!(" {key}="))? + key.len() + 2;
    let rest = &line[at..];
    match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next(),
        None => rest.split_whitespace().next(),
    }
}

/// `journalctl`: `Mon dd hh:mm:ss host unit[pid]: message`.
fn journal_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let stamp = |l: &str| l.get(..15).unwrap_or("").to_owned();
    let api: Vec<&str> =
        ls.iter().copied().filter(|l| l.contains(" checkout-api[") && logfmt(l, "status").is_some()).collect();
    let failed_jobs: Vec<&str> = ls.iter().copied().filter(|l| l.contains("msg=\"job failed\"")).collect();
    let restarts =
        |unit: &str| ls.iter().filter(|l| l.contains(&format!("{unit}.service: Scheduled restart job"))).count();
    let edge = |kind, q: &str, l: Option<&&str>| {
        let l = l?;
        let id = logfmt(l, "request_id").map_or_else(|| l.split(": ").nth(1).unwrap_or("").to_owned(), str::to_owned);
        Some(together(kind, q.to_owned(), None, &[&stamp(l), &id]))
    };
    let lookup = |list: &[&str], f: f64, q: &str, key: &str| {
        let l = list.get(at(list.len(), f))?;
        let id = logfmt(l, "request_id")?;
        let answer = logfmt(l, key)?;
        Some(together(Kind::Lookup, q.replace("{id}", id), Some(id), &[id, answer]))
    };
    let status_500 = api.iter().filter(|l| logfmt(l, "status") == Some("500")).count();
    let error_paths =
        most_frequent(api.iter().filter(|l| logfmt(l, "level") == Some("error")).filter_map(|l| logfmt(l, "path")));
    let failing_jobs = most_frequent(failed_jobs.iter().filter_map(|l| logfmt(l, "job")));
    let slowest = api
        .iter()
        .filter_map(|l| Some((logfmt(l, "duration_ms")?.parse::<u64>().ok()?, logfmt(l, "request_id")?.to_owned())))
        .collect();
    vec![
        edge(Kind::Head, "When does the log start, and what is its first entry?", ls.first()),
        edge(Kind::Tail, "What is the last entry in the log, and when was it written?", ls.last()),
        lookup(&api, 0.6, "What status did request {id} get?", "status"),
        lookup(&api, 0.9, "How long did request {id} take?", "duration_ms"),
        lookup(&failed_jobs, 0.5, "Why did job {id} fail?", "err"),
        Some(count(
            "How many times did checkout-api restart?",
            &["restart", "restarts", "checkout-api"],
            restarts("checkout-api"),
            None,
        )),
        Some(count("How many requests returned status 500?", &["500", "status 500"], status_500, Some("status"))),
        extreme("Which API path returned the most errors?", error_paths, true, Some("path")),
        extreme("Which job failed most often?", failing_jobs, true, Some("job")),
        extreme("Which request took the longest?", slowest, true, Some("duration_ms")),
    ]
}

/// A table whose header names its columns and whose rows split on whitespace, the last
/// column taking the rest of the line (`ps aux`'s COMMAND).
fn ps_records(ls: &[&str]) -> Vec<Value> {
    let Some(header) = ls.first() else { return Vec::new() };
    let names: Vec<&str> = header.split_whitespace().collect();
    ls[1..]
        .iter()
        .filter_map(|l| {
            let mut rest = *l;
            let mut rec = Map::new();
            for (i, name) in names.iter().enumerate() {
                rest = rest.trim_start();
                if i + 1 == names.len() {
                    rec.insert((*name).to_owned(), json!(rest));
                } else {
                    let end = rest.find(' ')?;
                    rec.insert((*name).to_owned(), json!(&rest[..end]));
                    rest = &rest[end..];
                }
            }
            Some(Value::Object(rec))
        })
        .collect()
}

/// `ps aux`: a row per process.
fn ps_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let procs = ps_records(ls);
    let r = Records { list: &procs };
    let last = procs.last().map(|p| (text(&p["PID"]), text(&p["COMMAND"])));
    vec![
        r.head("Which command runs as the first process in the list?", "COMMAND"),
        last.map(|(pid, cmd)| {
            together(Kind::Tail, "What is the last process listed, and its PID?".into(), None, &[&pid, &cmd])
        }),
        r.lookup("What is the PID of {key}?", 0.6, "COMMAND", "PID"),
        r.lookup("What is the PID of {key}?", 0.9, "COMMAND", "PID"),
        r.lookup("How much resident memory (RSS) does {key} use?", 0.15, "COMMAND", "RSS"),
        about("USER", r.count("How many processes does user {value} run?", "USER", None)),
        about("RSS", r.extreme("Which process uses the most memory?", "RSS", "PID", true)),
        about("%CPU", r.extreme("Which process uses the most CPU?", "%CPU", "PID", true)),
    ]
}

/// psql's aligned table: a header of names between `|`, a rule of `-` and `+`, rows, then
/// `(N rows)`.
fn psql_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let split = |l: &str| l.split('|').map(|c| c.trim().to_owned()).collect::<Vec<_>>();
    let Some(header) = ls.first().map(|l| split(l)) else { return Vec::new() };
    let rows: Vec<Value> = ls
        .iter()
        .skip(2)
        .filter(|l| l.contains('|'))
        .map(|l| Value::Object(header.iter().cloned().zip(split(l).into_iter().map(Value::String)).collect()))
        .collect();
    let r = Records { list: &rows };
    let idle = rows
        .iter()
        .filter_map(|c| Some((c["last_seen_at"].as_str().filter(|s| !s.is_empty())?.to_owned(), text(&c["email"]))))
        .collect();
    let footer = ls.last().filter(|l| l.starts_with('(') && l.ends_with(" rows)")).map(|l| l.trim_matches(['(', ')']));
    vec![
        r.head("Which customer is in the first row?", "email"),
        r.tail("Which customer is in the last row?", "email"),
        footer.map(|f| together(Kind::Tail, "How many rows did the query return?".into(), None, &[f])),
        r.lookup("Which plan is {key} on?", 0.6, "email", "plan"),
        r.lookup("Which country is {key} in?", 0.9, "email", "country"),
        r.lookup("How many seats does {key} have?", 0.3, "email", "seats"),
        about("plan", r.count("How many customers are on the {value} plan?", "plan", None)),
        about("country", r.count("How many customers are in {value}?", "country", None)),
        about("mrr_cents", r.extreme("Which customer brings in the most MRR?", "mrr_cents", "email", true)),
        extreme("Which customer has not been seen for the longest?", idle, false, Some("last_seen_at")),
    ]
}

/// One commit of `git log --stat`.
#[derive(Default)]
struct Commit<'l> {
    hash: &'l str,
    merge: bool,
    author: &'l str,
    subject: &'l str,
    /// The summary line: `3 files changed, 40 insertions(+), 2 deletions(-)`.
    summary: &'l str,
    changed: u64,
}

/// The commits of `git log --stat`, newest first, as the lines say.
fn commits<'l>(ls: &[&'l str]) -> Vec<Commit<'l>> {
    let mut out: Vec<Commit> = Vec::new();
    for l in ls {
        if let Some(hash) = l.strip_prefix("commit ") {
            out.push(Commit { hash, ..Commit::default() });
            continue;
        }
        let Some(c) = out.last_mut() else { continue };
        if l.starts_with("Merge: ") {
            c.merge = true;
        } else if let Some(a) = l.strip_prefix("Author: ") {
            c.author = a.split(" <").next().unwrap_or(a);
        } else if let Some(m) = l.strip_prefix("    ") {
            if c.subject.is_empty() {
                c.subject = m;
            }
        } else if l.contains(" changed") && l.starts_with(' ') && !l.contains('|') {
            c.summary = l.trim();
            let num = |word: &str| {
                l.split(", ").find(|p| p.contains(word)).and_then(|p| p.split_whitespace().next()?.parse::<u64>().ok())
            };
            c.changed = num("insertion").unwrap_or(0) + num("deletion").unwrap_or(0);
        }
    }
    out
}

/// `git log --stat`: a record of lines per commit.
fn git_log_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let all = commits(ls);
    let edge = |kind, q: &str, c: Option<&Commit>| c.map(|c| together(kind, q.to_owned(), None, &[c.hash]));
    let pick = |f: f64| all.get(at(all.len(), f));
    let by_author = most_frequent(all.iter().map(|c| c.author));
    let mut ranked = by_author.clone();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    // The second most prolific author whose count no other shares.
    let second = ranked.iter().skip(1).find(|(n, _)| ranked.iter().filter(|(m, _)| m == n).count() == 1);
    let merges = all.iter().filter(|c| c.merge).count();
    let biggest = all.iter().map(|c| (c.changed, c.hash.to_owned())).collect();
    vec![
        all.first()
            .map(|c| together(Kind::Head, "What is the message of the newest commit?".into(), None, &[c.subject])),
        edge(Kind::Head, "What is the hash of the newest commit?", all.first()),
        edge(Kind::Tail, "What is the oldest commit in the log?", all.last()),
        pick(0.6).map(|c| {
            together(Kind::Lookup, format!("Who wrote commit {}?", c.hash), Some(c.hash), &[c.hash, c.author])
        }),
        pick(0.9).map(|c| {
            together(
                Kind::Lookup,
                format!("What is the message of commit {}?", c.hash),
                Some(c.hash),
                &[c.hash, c.subject],
            )
        }),
        all.iter().filter(|c| !c.merge).nth(at(all.len(), 0.3) / 2).map(|c| {
            together(
                Kind::Lookup,
                format!("How many files did commit {} change?", c.hash),
                Some(c.hash),
                &[c.hash, c.summary],
            )
        }),
        second.map(|(n, a)| count(&format!("How many commits did {a} make?"), &[a], *n, Some("Author"))),
        Some(count("How many merge commits are in the log?", &["merge", "merges", "Merge"], merges, None)),
        extreme("Which commit changed the most lines?", biggest, true, None),
        extreme("Who made the most commits?", by_author, true, Some("Author")),
    ]
}

#[cfg(test)]
#[path = "questions_seventh_tests.rs"]
mod tests;
