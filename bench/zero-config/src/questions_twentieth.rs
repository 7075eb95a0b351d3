//! The questions asked of the twentieth part of the catalog: what a user of each service
//! or command asks of a result like it (which task definition a service runs, when a task
//! was stopped, which Worker throws most, when a version was published, who a work item
//! is assigned to, which function burns the CPU, how large a table is, which queue is
//! backed up, what a web server's worker is serving), with records named from the middle
//! and the end of the result as well as the head. The answers are computed from the
//! generated data, never written by hand.
//!
//! Azure DevOps names its fields with dots (`System.State`), which a dotted path cannot
//! reach, so its work items are first read into records with plain keys; a count or an
//! extreme still names the field as the result spells it. The npm document keys its
//! versions and their publish times by version, so those are read into one record per
//! version. Text results (a perf report, nodetool's table statistics, a queue listing and
//! Apache's status page) are first read into records by the readers in
//! `questions_twentieth_text.rs`.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::question::{Kind, Question, Records, text, value};
use crate::questions_blind::{about, at, count, extreme, lines, most_frequent, only, s, scored_by, together};

#[path = "questions_twentieth_text.rs"]
pub(crate) mod readers;

#[path = "questions_twentieth_more.rs"]
mod more;

use more::{perf_questions, queue_questions, status_questions, tablestats_questions};

/// Every question about a twentieth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "ecs_describe_services" => ecs_questions(list("services"), list("failures")),
        "cloudflare_workers_analytics" => workers_questions(list("data.viewer.accounts[0].workersInvocationsAdaptive")),
        "npm_packument" => packument_questions(v),
        "azure_devops_work_items" => work_item_questions(&work_items(list("value"))),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// A string field as a score, for the latest or earliest of ISO times.
fn stamp(path: &'static str) -> impl Fn(&Value) -> Option<String> {
    move |x| Some(value(x, path)?.as_str()?.to_owned())
}

/// Totals of `amount` per `name` over `list`, as (total, name) pairs for [`extreme`].
fn totals(
    list: &[Value],
    name: impl Fn(&Value) -> Option<String>,
    amount: impl Fn(&Value) -> Option<f64>,
) -> Vec<(f64, String)> {
    let mut sums: BTreeMap<String, f64> = BTreeMap::new();
    for x in list {
        if let (Some(n), Some(a)) = (name(x), amount(x)) {
            *sums.entry(n).or_default() += a;
        }
    }
    sums.into_iter().map(|(n, t)| (t, n)).collect()
}

/// The events of every service, each with the service's name as `service`.
fn service_events(services: &[Value]) -> Vec<Value> {
    services
        .iter()
        .flat_map(|x| {
            let name = x["serviceName"].clone();
            x["events"].as_array().into_iter().flatten().map(move |e| {
                let mut e = e.clone();
                e["service"] = name.clone();
                e
            })
        })
        .collect()
}

/// The number of tasks an event says were started (`has started 3 tasks: …`).
fn started(e: &Value) -> Option<f64> {
    e["message"].as_str()?.split(" has started ").nth(1)?.split(' ').next()?.parse().ok()
}

/// ECS services: the first service and the one that could not be described; a service's
/// task definition and target group; when a service last reached a steady state and what
/// ECS last said of one; when a task was stopped; how many services use a launch type,
/// how many events report failed health checks and how many tasks a service started;
/// the oldest service, the last deployed and the one with most health check failures.
fn ecs_questions(services: &[Value], failures: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: services };
    let events = service_events(services);
    let name = "serviceName";
    let first = services.first().and_then(|x| {
        let (n, d) = (s(x, name)?, text(&x["desiredCount"]));
        Some(together(
            Kind::Head,
            "Which service is described first, and how many tasks does it want?".into(),
            None,
            &[&n, &d],
        ))
    });
    let gone = failures.last().and_then(|x| {
        let (arn, why) = (s(x, "arn")?, s(x, "reason")?);
        Some(together(Kind::Tail, "Which service could not be described, and why?".into(), None, &[&arn, &why]))
    });
    let of = |k: &str| only(&events, |e| e["service"] == k);
    let steady = |e: &Value| e["message"].as_str().is_some_and(|m| m.ends_with("has reached a steady state."));
    let unhealthy = |e: &Value| {
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("failed container health checks") || m.contains(" is unhealthy in "))
    };
    let service_at = |f: f64| services.get(at(services.len(), f)).and_then(|x| s(x, name));
    let last_steady = service_at(0.45).and_then(|k| {
        let e = of(&k).into_iter().find(|e| steady(e))?;
        let when = s(&e, "createdAt")?;
        Some(together(Kind::Lookup, format!("When did {k} last reach a steady state?"), Some(&k), &[&k, &when]))
    });
    let last_said = service_at(0.75).and_then(|k| {
        let newest = of(&k).into_iter().next()?;
        let (msg, when) = (s(&newest, "message")?, s(&newest, "createdAt")?);
        Some(together(
            Kind::Lookup,
            format!("What is the most recent event ECS reported for {k}, and when?"),
            Some(&k),
            &[&msg, &when],
        ))
    });
    // A task named in a "has stopped" event, from the middle of all of them.
    let stops: Vec<(String, String)> = events
        .iter()
        .filter(|e| e["message"].as_str().is_some_and(|m| m.contains(" has stopped 1 running tasks")))
        .filter_map(|e| {
            let m = e["message"].as_str()?;
            let task = m.split("(task ").nth(1)?.split(')').next()?.to_owned();
            Some((task, s(e, "createdAt")?))
        })
        .collect();
    let stopped = stops.get(at(stops.len(), 0.5)).map(|(task, when)| {
        together(Kind::Lookup, format!("When was task {task} stopped?"), Some(task), &[task, when])
    });
    let started_count = service_at(0.3).map(|k| {
        let n: f64 = of(&k).iter().filter_map(started).sum();
        count(
            &format!("How many tasks did {k} start over these events?"),
            &["started", "tasks"],
            n as usize,
            Some("message"),
        )
    });
    vec![
        first,
        gone,
        r.lookup("Which task definition is {key} running?", 0.3, name, "taskDefinition"),
        r.lookup("Which target group does {key} register its tasks in?", 0.9, name, "loadBalancers[0].targetGroupArn"),
        last_steady,
        last_said,
        stopped,
        about("launchType", r.count("How many services use the {value} launch type?", "launchType", None)),
        Some(count(
            "How many events report a task failing its health checks?",
            &["health checks", "unhealthy"],
            events.iter().filter(|e| unhealthy(e)).count(),
            Some("message"),
        )),
        started_count,
        extreme(
            "Which service was created first?",
            scored_by(services, stamp("createdAt"), name),
            false,
            Some("createdAt"),
        ),
        extreme(
            "Which service was deployed most recently?",
            scored_by(services, stamp("deployments[0].createdAt"), name),
            true,
            Some("deployments"),
        ),
        extreme(
            "Which service had the most health check failures?",
            most_frequent(events.iter().filter(|e| unhealthy(e)).filter_map(|e| e["service"].as_str())),
            true,
            Some("message"),
        ),
    ]
}

/// Workers analytics rows, newest hour first: the first and last row's script and hour;
/// a script's successful requests and p99 CPU time in an hour; how many rows report a
/// status, in how many hours a script threw and how many rows exceeded resources; the
/// script with most requests and the one with fewest over the day, the one that threw
/// most, the highest p99 CPU time, and a busy script's busiest hour.
fn workers_questions(rows: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: rows };
    let script = |x: &Value| value(x, "dimensions.scriptName").map(text);
    let status = |x: &Value| value(x, "dimensions.status").map(text);
    let hour = |x: &Value| value(x, "dimensions.datetimeHour").map(text);
    let ends = |x: Option<&Value>, kind: Kind, q: &str| {
        let x = x?;
        Some(together(kind, q.into(), None, &[&script(x)?, &hour(x)?]))
    };
    let ok = only(rows, |x| status(x).as_deref() == Some("success"));
    let pick = |f: f64, q: &str, field: &str| {
        let x = ok.get(at(ok.len(), f))?;
        let (k, h, a) = (script(x)?, hour(x)?, value(x, field).map(text)?);
        Some(together(Kind::Lookup, q.replace("{script}", &k).replace("{hour}", &h), Some(&k), &[&k, &h, &a]))
    };
    let threw = only(rows, |x| status(x).as_deref() == Some("scriptThrewException"));
    // A script that threw in some hours and not all: counted over its rows.
    let threw_per = most_frequent(threw.iter().filter_map(|x| x["dimensions"]["scriptName"].as_str()));
    let thrower = threw_per.get(at(threw_per.len(), 0.5)).cloned();
    let busiest = totals(rows, script, |x| value(x, "sum.requests")?.as_f64());
    let top = busiest.iter().max_by(|a, b| a.0.total_cmp(&b.0)).map(|x| x.1.clone());
    let top_hours = top.as_ref().map(|t| only(&ok, |x| script(x).as_deref() == Some(t.as_str())));
    vec![
        ends(rows.first(), Kind::Head, "Which script and hour does the first row report?"),
        ends(rows.last(), Kind::Tail, "Which script and hour does the last row report?"),
        pick(0.3, "How many requests did {script} serve successfully in the hour starting {hour}?", "sum.requests"),
        pick(0.6, "What was the p99 CPU time of {script} in the hour starting {hour}?", "quantiles.cpuTimeP99"),
        pick(0.9, "How many requests did {script} serve successfully in the hour starting {hour}?", "sum.requests"),
        about("status", r.count("How many rows report the status {value}?", "dimensions.status", None)),
        thrower.map(|(n, k)| {
            count(
                &format!("In how many hours did {k} throw exceptions?"),
                &["scriptThrewException", "hours"],
                n,
                Some("status"),
            )
        }),
        Some(count(
            "How many rows report a script exceeding its resources?",
            &["exceededResources"],
            rows.iter().filter(|x| status(x).as_deref() == Some("exceededResources")).count(),
            Some("status"),
        )),
        extreme("Which script served the most requests over the day?", busiest.clone(), true, Some("requests")),
        extreme("Which script served the fewest requests over the day?", busiest, false, Some("requests")),
        extreme(
            "Which script threw the most exceptions in total?",
            totals(&threw, script, |x| value(x, "sum.requests")?.as_f64()),
            true,
            Some("requests"),
        ),
        extreme(
            "Which script had the highest p99 CPU time in any hour?",
            rows.iter().filter_map(|x| Some((value(x, "quantiles.cpuTimeP99")?.as_f64()?, script(x)?))).collect(),
            true,
            Some("cpuTimeP99"),
        ),
        top.zip(top_hours).and_then(|(t, hs)| {
            extreme(
                &format!("In which hour did {t} serve the most successful requests?"),
                hs.iter().filter_map(|x| Some((value(x, "sum.requests")?.as_f64()?, hour(x)?))).collect(),
                true,
                Some("requests"),
            )
        }),
    ]
}

/// The npm document's versions, each its manifest with its publish time as `published`.
fn versions(v: &Value) -> Vec<Value> {
    let times = &v["time"];
    v["versions"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, m)| {
            let mut m = m.clone();
            m["published"] = times.get(k).cloned().unwrap_or(Value::Null);
            m
        })
        .collect()
}

/// An npm package document: the latest version and the last maintainer; when a version
/// was published, its unpacked size, publisher and Node.js version, and why one is
/// deprecated; how many versions there are, are deprecated, are pre-releases or were
/// published by someone; the largest version and the first and the latest stable one
/// published.
fn packument_questions(v: &Value) -> Vec<Option<Question>> {
    let vs = versions(v);
    let r = Records { list: &vs };
    let deprecated = only(&vs, |x| x.get("deprecated").is_some());
    // The 0.x line is deprecated as a whole; ask about a release deprecated on its own.
    let own = only(&deprecated, |x| x["version"].as_str().is_some_and(|n| !n.starts_with("0.")));
    let latest = value(v, "dist-tags.latest").map(text);
    let maintainer =
        value(v, "maintainers").and_then(Value::as_array).and_then(|m| m.last()).and_then(|m| s(m, "name"));
    let pre = vs.iter().filter(|x| x["version"].as_str().is_some_and(|n| n.contains('-'))).count();
    let stable = only(&vs, |x| x["version"].as_str().is_some_and(|n| !n.contains('-')));
    let key = "version";
    vec![
        latest
            .map(|l| together(Kind::Head, "What is the latest version of the package?".into(), None, &["latest", &l])),
        maintainer
            .map(|m| together(Kind::Tail, "Who is the last maintainer listed for the package?".into(), None, &[&m])),
        r.lookup("When was version {key} published?", 0.3, key, "published"),
        r.lookup("How large is version {key} unpacked?", 0.6, key, "dist.unpackedSize"),
        r.lookup("Who published version {key}?", 0.9, key, "_npmUser.name"),
        r.lookup("Which Node.js version was {key} published with?", 0.75, key, "_nodeVersion"),
        Records { list: &own }.lookup("Why is version {key} deprecated?", 0.5, key, "deprecated"),
        Some(count("How many versions have been published?", &["versions"], vs.len(), Some("versions"))),
        Some(count("How many versions are deprecated?", &["deprecated"], deprecated.len(), Some("deprecated"))),
        Some(count("How many pre-release versions are there?", &["pre-release", "prerelease"], pre, Some("version"))),
        about("_npmUser", r.count("How many versions did {value} publish?", "_npmUser.name", None)),
        about(
            "unpackedSize",
            r.extreme("Which version has the largest unpacked size?", "dist.unpackedSize", key, true),
        ),
        extreme("Which version was published first?", scored_by(&vs, stamp("published"), key), false, Some("time")),
        extreme(
            "Which stable version was published most recently?",
            scored_by(&stable, stamp("published"), key),
            true,
            Some("time"),
        ),
    ]
}

/// The last part of an Azure DevOps path (`Storefront\2025\Sprint 86` → `Sprint 86`).
fn leaf(v: &Value) -> Value {
    v.as_str().and_then(|p| p.rsplit('\\').next()).map_or(Value::Null, |l| json!(l))
}

/// Work items as records with plain keys: id, title, type, state, who it is assigned to,
/// area and sprint (the last parts of their paths), priority, severity, story points,
/// remaining work, parent, comments, tags (split), created and changed.
pub(crate) fn work_items(list: &[Value]) -> Vec<Value> {
    list.iter()
        .map(|x| {
            let f = &x["fields"];
            let tags: Vec<&str> = f["System.Tags"].as_str().map(|t| t.split("; ").collect()).unwrap_or_default();
            json!({
                "id": x["id"], "title": f["System.Title"], "type": f["System.WorkItemType"],
                "state": f["System.State"], "assigned": f["System.AssignedTo"]["displayName"],
                "area": leaf(&f["System.AreaPath"]), "sprint": leaf(&f["System.IterationPath"]),
                "priority": f["Microsoft.VSTS.Common.Priority"], "severity": f["Microsoft.VSTS.Common.Severity"],
                "points": f["Microsoft.VSTS.Scheduling.StoryPoints"],
                "remaining": f["Microsoft.VSTS.Scheduling.RemainingWork"], "parent": f["System.Parent"],
                "comments": f["System.CommentCount"], "tags": tags,
                "created": f["System.CreatedDate"], "changed": f["System.ChangedDate"]
            })
        })
        .collect()
}

/// Azure DevOps work items, by id: the first and the last; an item's state, assignee and
/// sprint, a story's points and a bug's severity; how many items are in a state or of a
/// type, are unassigned or are active bugs; the task with most remaining work, the first
/// created and the last changed item and the person assigned most.
fn work_item_questions(items: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: items };
    let of = |kind: &str| only(items, |x| x["type"] == kind);
    let (stories, bugs, tasks) = (of("User Story"), of("Bug"), of("Task"));
    let ends = |x: Option<&Value>, kind: Kind, q: &str| {
        let x = x?;
        Some(together(kind, q.into(), None, &[&text(&x["id"]), &s(x, "title")?]))
    };
    let unassigned = items.iter().filter(|x| x["assigned"].is_null()).count();
    let active_bugs = bugs.iter().filter(|x| x["state"] == "Active").count();
    vec![
        ends(items.first(), Kind::Head, "Which work item comes first in the batch? Give its id and title."),
        ends(items.last(), Kind::Tail, "Which work item comes last in the batch? Give its id and title."),
        r.lookup("What state is work item {key} in?", 0.3, "id", "state"),
        r.lookup("Who is work item {key} assigned to?", 0.6, "id", "assigned"),
        r.lookup("Which sprint is work item {key} planned in?", 0.9, "id", "sprint"),
        Records { list: &stories }.lookup("How many story points is \"{key}\" estimated at?", 0.5, "title", "points"),
        Records { list: &bugs }.lookup("What severity is the bug \"{key}\"?", 0.5, "title", "severity"),
        about("System.State", r.count("How many work items are {value}?", "state", None)),
        about("System.WorkItemType", r.count("How many work items are of type {value}?", "type", None)),
        Some(count(
            "How many work items are unassigned?",
            &["unassigned", "AssignedTo"],
            unassigned,
            Some("System.AssignedTo"),
        )),
        Some(count("How many bugs are active?", &["active bugs", "Active"], active_bugs, Some("System.State"))),
        about(
            "Microsoft.VSTS.Scheduling.RemainingWork",
            Records { list: &tasks }.extreme("Which task has the most remaining work?", "remaining", "id", true),
        ),
        extreme(
            "Which work item was created first?",
            scored_by(items, stamp("created"), "id"),
            false,
            Some("System.CreatedDate"),
        ),
        extreme(
            "Which work item was changed most recently?",
            scored_by(items, stamp("changed"), "id"),
            true,
            Some("System.ChangedDate"),
        ),
        extreme(
            "Who has the most work items assigned?",
            most_frequent(items.iter().filter_map(|x| x["assigned"].as_str())),
            true,
            Some("System.AssignedTo"),
        ),
    ]
}

/// Every question about a twentieth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "perf_report" => perf_questions(&ls),
        "nodetool_tablestats" => tablestats_questions(&ls),
        "rabbitmqctl_list_queues" => queue_questions(&ls),
        "apache_server_status" => status_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

#[cfg(test)]
#[path = "questions_twentieth_tests.rs"]
mod tests;
