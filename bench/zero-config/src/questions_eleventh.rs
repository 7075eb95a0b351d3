//! The questions asked of the eleventh part of the catalog: what a user of each service or
//! command asks of a result like it (where a login came from and which address keeps
//! failing, how a campaign did, what a dashboard panel queries, which MongoDB version a
//! cluster runs, what runs on a host's port, which rule a line of code breaks, why a
//! host failed its play, which servers an upstream balances across), with records named
//! from the middle and the end of the result as well as the head. The answers are
//! computed from the generated data, never written by hand.
//!
//! Text results (a network scan, lint output, a playbook run, a dump of nginx's
//! configuration) are first read into records of their lines, blocks or stanzas, so the
//! same builders ask of them; their readers are in `questions_eleventh_text.rs`.

use serde_json::Value;

use crate::question::{Kind, Question, Records, value};
use crate::questions_blind::{about, count, extreme, lines, most_frequent, only, scored_by, together};

#[path = "questions_eleventh_text.rs"]
mod readers;

pub(crate) use readers::{ansible_rows, eslint_rows, nginx_blocks, nmap_hosts};

/// Every question about an eleventh-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "auth0_logs" => log_questions(v.as_array().map_or(&[][..], Vec::as_slice)),
        "mailchimp_campaigns" => campaign_questions(list("campaigns")),
        "grafana_dashboard" => dashboard_questions(v),
        "atlas_clusters" => cluster_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Auth0 log events, newest first: where an event came from, which application it was
/// for, where a user logged in from, how many wrong passwords, the address behind most
/// failed logins, the user with the most logins.
fn log_questions(logs: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: logs };
    let failed = |x: &Value| matches!(x["type"].as_str(), Some("f" | "fp" | "fu"));
    let by_ip = most_frequent(logs.iter().filter(|x| failed(x)).filter_map(|x| x["ip"].as_str()));
    let wrong_password = logs.iter().filter(|x| x["type"] == "fp").count();
    let logins = only(logs, |x| x["type"] == "s");
    let s = Records { list: &logins };
    vec![
        r.head("Which user is the newest log event about?", "user_name"),
        r.tail("When did the oldest log event on this page happen?", "date"),
        r.lookup("Which IP address did log event {key} come from?", 0.6, "log_id", "ip"),
        r.lookup("Which application was log event {key} for?", 0.9, "log_id", "client_name"),
        s.lookup("From which city did {key} log in?", 0.3, "user_name", "location_info.city_name"),
        Some(count("How many failed logins with a wrong password are there?", &["fp"], wrong_password, Some("type"))),
        about("client_name", r.count("How many log events are for {value}?", "client_name", None)),
        about("country_name", r.count("How many log events come from {value}?", "location_info.country_name", None)),
        extreme("Which IP address has the most failed logins?", by_ip, true, Some("ip")),
        about(
            "loginsCount",
            s.extreme(
                "Which user logging in has logged in the most times?",
                "details.stats.loginsCount",
                "user_name",
                true,
            ),
        ),
    ]
}

/// Mailchimp campaigns, newest first: a sent campaign's numbers by its title, where a
/// campaign goes, how many are in each status and list, the best and worst performers.
fn campaign_questions(campaigns: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: campaigns };
    let sent = only(campaigns, |x| x["status"] == "sent");
    let s = Records { list: &sent };
    let title = "settings.title";
    vec![
        r.head("What is the subject line of the newest campaign?", "settings.subject_line"),
        r.tail("What is the title of the last campaign on this page?", title),
        s.lookup("How many emails did {key} send?", 0.6, title, "emails_sent"),
        r.lookup("Which list does campaign {key} go to?", 0.9, "id", "recipients.list_name"),
        s.lookup("What was the open rate of {key}?", 0.3, title, "report_summary.open_rate"),
        about("status", r.count("How many campaigns have status {value}?", "status", None)),
        about("list_name", r.count("How many campaigns went to {value}?", "recipients.list_name", None)),
        about("type", r.count("How many campaigns are {value} campaigns?", "type", None)),
        about(
            "open_rate",
            s.extreme("Which campaign had the highest open rate?", "report_summary.open_rate", title, true),
        ),
        about(
            "total_revenue",
            s.extreme(
                "Which campaign brought in the most revenue?",
                "report_summary.ecommerce.total_revenue",
                title,
                true,
            ),
        ),
    ]
}

/// A Grafana dashboard: its folder, first and last panels, a panel's query, unit and
/// type by its title, how many panels of a type and rows, the row with most panels.
fn dashboard_questions(v: &Value) -> Vec<Option<Question>> {
    let panels = v["dashboard"]["panels"].as_array().map_or(&[][..], Vec::as_slice);
    let rows = only(panels, |x| x["type"] == "row");
    let charts = only(panels, |x| x["type"] != "row");
    let c = Records { list: &charts };
    // A row holds the panels after it up to the next row.
    let mut row = "";
    let mut row_of = Vec::new();
    for p in panels {
        match (p["type"].as_str(), p["title"].as_str()) {
            (Some("row"), Some(t)) => row = t,
            _ => row_of.push(row),
        }
    }
    let variables = v["dashboard"]["templating"]["list"].as_array().map_or(&[][..], Vec::as_slice);
    vec![
        v["meta"]["folderTitle"]
            .as_str()
            .map(|f| together(Kind::Head, "Which folder is the dashboard in?".into(), None, &[f])),
        Records { list: panels }.head("What is the first panel of the dashboard?", "title"),
        c.tail("What is the last panel of the dashboard?", "title"),
        Records { list: variables }.tail("Which template variable is defined last?", "name"),
        c.lookup("Which query does the panel {key} run?", 0.6, "title", "targets[0].expr"),
        c.lookup("Which unit does the panel {key} show?", 0.9, "title", "fieldConfig.defaults.unit"),
        c.lookup("What kind of panel is {key}?", 0.3, "title", "type"),
        about("type", c.count("How many {value} panels are there?", "type", None)),
        Some(count("How many rows does the dashboard have?", &["rows", "row"], rows.len(), Some("type"))),
        extreme("Which row has the most panels?", most_frequent(row_of.into_iter()), true, None),
    ]
}

/// Atlas clusters: a cluster's version, node size and connection string by its name,
/// how many are in a state, paused or on a major version, the largest disk, the oldest.
fn cluster_questions(v: &Value) -> Vec<Option<Question>> {
    let clusters = v["results"].as_array().map_or(&[][..], Vec::as_slice);
    let r = Records { list: clusters };
    let paused = clusters.iter().filter(|x| x["paused"] == true).count();
    let electable = "replicationSpecs[0].regionConfigs[0].electableSpecs";
    vec![
        r.head("Which cluster is listed first?", "name"),
        r.tail("Which cluster is listed last?", "name"),
        v["totalCount"].as_u64().map(|n| {
            together(Kind::Tail, "How many clusters does the project have in all?".into(), None, &[&n.to_string()])
        }),
        r.lookup("Which MongoDB version does {key} run?", 0.6, "name", "mongoDBVersion"),
        r.lookup(
            "What instance size are the electable nodes of {key}?",
            0.9,
            "name",
            &format!("{electable}.instanceSize"),
        ),
        r.lookup("What is the SRV connection string of {key}?", 0.3, "name", "connectionStrings.standardSrv"),
        about("stateName", r.count("How many clusters are {value}?", "stateName", None)),
        Some(count("How many clusters are paused?", &["paused"], paused, Some("paused"))),
        about("mongoDBMajorVersion", r.count("How many clusters run MongoDB {value}?", "mongoDBMajorVersion", None)),
        about(
            "diskSizeGB",
            r.extreme("Which cluster has the largest disk?", &format!("{electable}.diskSizeGB"), "name", true),
        ),
        extreme(
            "Which cluster was created first?",
            scored_by(clusters, |x| Some(x["createDate"].as_str()?.to_owned()), "name"),
            false,
            Some("createDate"),
        ),
    ]
}

/// Every question about an eleventh-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "nmap_scan" => nmap_questions(&ls),
        "eslint_stylish" => eslint_questions(&ls),
        "ansible_playbook" => ansible_questions(&ls),
        "nginx_conf_dump" => nginx_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// `nmap -sV`: a host's name and SSH version, what runs on a port, how many hosts have a
/// service open or a vendor's adapter or nothing open, the busiest and slowest host.
fn nmap_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let hosts = nmap_hosts(ls);
    let h = Records { list: &hosts };
    let ports: Vec<Value> = hosts
        .iter()
        .flat_map(|x| x["ports"].as_array().into_iter().flatten().map(move |p| (x, p)))
        .map(|(x, p)| {
            let mut p = p.clone();
            p["ip"] = x["ip"].clone();
            p
        })
        .collect();
    let ssh = only(&ports, |p| p["service"] == "ssh");
    let named = only(&hosts, |x| x["name"] != "");
    let port_pick = {
        let start = crate::questions_blind::at(ports.len(), 0.3);
        (start..ports.len())
            .chain(0..start)
            .map(|i| &ports[i])
            .find(|p| p["port"] != "22/tcp" && p["version"] != "")
            .and_then(|p| Some((p["ip"].as_str()?, p["port"].as_str()?, p["version"].as_str()?)))
    };
    let up = ls.iter().find_map(|l| l.strip_prefix("Nmap done: ")?.split(" (").nth(1)?.split(')').next());
    let quiet = hosts.iter().filter(|x| x["closed"] == "all").count();
    let open = scored_by(&hosts, |x| Some(x["ports"].as_array()?.len()), "ip");
    let latency = scored_by(&hosts, |x| x["latency"].as_str()?.parse::<f64>().ok(), "ip");
    vec![
        h.head("Which host is reported first?", "ip"),
        h.tail("Which host is reported last?", "ip"),
        up.map(|u| together(Kind::Tail, "How many hosts were up?".into(), None, &[u])),
        Records { list: &ssh }.lookup("Which SSH server version runs on {key}?", 0.6, "ip", "version"),
        Records { list: &named }.lookup("What is the hostname of {key}?", 0.9, "ip", "name"),
        port_pick.map(|(ip, port, version)| {
            let number = port.split('/').next().unwrap_or(port);
            together(Kind::Lookup, format!("What is running on port {number} of {ip}?"), Some(ip), &[ip, port, version])
        }),
        about("services", h.count("How many hosts have {value} open?", "services[]", None)),
        about("vendor", h.count("How many hosts have a network adapter from {value}?", "vendor", None)),
        Some(count(
            "How many hosts have every scanned port in an ignored state?",
            &["ignored states", "ignored"],
            quiet,
            None,
        )),
        extreme("Which host has the most open ports?", open, true, None),
        extreme("Which host answered with the highest latency?", latency, true, Some("latency")),
    ]
}

/// ESLint's stylish output: which rule a line breaks and what it says, whether a problem
/// is an error, how many warnings, problems of a rule and files, the worst rule and file.
fn eslint_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = eslint_rows(ls);
    let r = Records { list: &rows };
    let files: Vec<&str> = {
        let mut seen: Vec<&str> = rows.iter().filter_map(|x| x["file"].as_str()).collect();
        seen.dedup();
        seen
    };
    // A line of a file named by its path under `src/`, with the one problem on it.
    let pick = |at: f64| {
        let n = rows.len();
        let start = crate::questions_blind::at(n, at);
        (start..n)
            .chain(0..start)
            .map(|i| &rows[i])
            .find(|x| rows.iter().filter(|y| y["file"] == x["file"] && y["line"] == x["line"]).count() == 1)
    };
    let short = |x: &Value| {
        let f = x["file"].as_str().unwrap_or("");
        f.find("/src/").map_or(f, |i| &f[i + 1..]).to_owned()
    };
    let ask = |at: f64, q: &dyn Fn(&str, &str, &str) -> String, answer: &str| {
        pick(at).and_then(|x| {
            let (file, pos, line) = (x["file"].as_str()?, x["position"].as_str()?, x["line"].as_str()?);
            let short = short(x);
            let column = pos.split(':').nth(1)?;
            Some(together(Kind::Lookup, q(&short, line, column), Some(&short), &[file, pos, x[answer].as_str()?]))
        })
    };
    let total = ls.iter().find_map(|l| l.strip_prefix("\u{2716} ")?.split(" (").next()).map(str::to_owned);
    let warnings = rows.iter().filter(|x| x["severity"] == "warning").count();
    vec![
        r.head("Which file is listed first?", "file"),
        r.tail("Which file is listed last?", "file"),
        total.map(|t| together(Kind::Tail, "How many problems does ESLint report in total?".into(), None, &[&t])),
        ask(0.6, &|f, l, _| format!("Which rule does line {l} of {f} break?"), "rule"),
        ask(0.9, &|f, l, c| format!("What does ESLint report at line {l}, column {c} of {f}?"), "message"),
        ask(0.3, &|f, l, _| format!("Is the problem on line {l} of {f} an error or a warning?"), "severity"),
        Some(count("How many warnings are there?", &["warnings"], warnings, Some("severity"))),
        about("rule", r.count("How many {value} problems are there?", "rule", None)),
        Some(count("How many files have problems?", &["files"], files.len(), None)),
        extreme(
            "Which rule is broken most often?",
            most_frequent(rows.iter().filter_map(|x| x["rule"].as_str())),
            true,
            None,
        ),
        extreme(
            "Which file has the most problems?",
            most_frequent(rows.iter().filter_map(|x| x["file"].as_str())),
            true,
            None,
        ),
    ]
}

/// `ansible-playbook`: the first play, the recap's counts of a host, why and where a
/// host failed, how many hosts failed or were unreachable, how many tasks ran, the host
/// with most changes and the task that changed most hosts.
fn ansible_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let (results, recap) = ansible_rows(ls);
    let fatal = only(&results, |x| x["status"] == "fatal");
    let f = Records { list: &fatal };
    let rc = Records { list: &recap };
    let banner =
        |prefix: &str| -> Vec<&str> { ls.iter().filter_map(|l| l.strip_prefix(prefix)?.split("] ").next()).collect() };
    let plays = banner("PLAY [");
    let tasks = banner("TASK [");
    let last = ls
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("TASK [").or_else(|| l.strip_prefix("RUNNING HANDLER ["))?.split("] ").next());
    let hosts_with = |field: &str| recap.iter().filter(|x| x[field].as_str().is_some_and(|n| n != "0")).count();
    let changed = only(&results, |x| x["status"] == "changed");
    vec![
        plays.first().map(|p| together(Kind::Head, "Which play runs first?".into(), None, &[p])),
        rc.tail("Which host is listed last in the play recap?", "host"),
        last.map(|t| together(Kind::Tail, "Which task or handler ran last?".into(), None, &[t])),
        rc.lookup("How many tasks changed something on {key}?", 0.6, "host", "changed"),
        rc.lookup("How many tasks were skipped on {key}?", 0.9, "host", "skipped"),
        f.lookup("Why did {key} fail?", 0.3, "host", "msg"),
        f.lookup("Which task failed on {key}?", 0.7, "host", "task"),
        Some(count("How many hosts failed a task?", &["failed"], hosts_with("failed_n"), Some("failed"))),
        Some(count(
            "How many hosts were unreachable?",
            &["unreachable"],
            hosts_with("unreachable_n"),
            Some("unreachable"),
        )),
        Some(count("How many tasks ran?", &["tasks", "TASK"], tasks.len(), None)),
        extreme(
            "Which host had the most changes?",
            scored_by(&recap, |x| x["changed_n"].as_str()?.parse::<u32>().ok(), "host"),
            true,
            Some("changed"),
        ),
        // A loop's items each print a line; a task changes a host once.
        extreme(
            "Which task changed the most hosts?",
            {
                let mut pairs: Vec<(&str, &str)> =
                    changed.iter().filter_map(|x| Some((x["task"].as_str()?, x["host"].as_str()?))).collect();
                pairs.sort_unstable();
                pairs.dedup();
                most_frequent(pairs.into_iter().map(|(t, _)| t))
            },
            true,
            None,
        ),
    ]
}

/// `nginx -T`: the worker connections, the last file and server block, an upstream's
/// servers, a site's certificate, where a location is proxied, how many redirects,
/// upstreams and locations per upstream, the largest upstream and site.
fn nginx_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let (servers, locations, upstreams) = nginx_blocks(ls);
    let secure = only(&servers, |x| x["cert"] != "");
    let l = Records { list: &locations };
    let connections = ls.iter().find_map(|x| x.trim().strip_prefix("worker_connections ")?.strip_suffix(';'));
    let last_file = ls.iter().rev().find_map(|x| x.strip_prefix("# configuration file ")?.strip_suffix(':'));
    let upstream_pick = upstreams.get(crate::questions_blind::at(upstreams.len(), 0.6)).and_then(|u| {
        let name = u["name"].as_str()?;
        let mut must = vec![name];
        must.extend(u["servers"].as_array()?.iter().filter_map(Value::as_str));
        Some(together(
            Kind::Lookup,
            format!("Which servers does the upstream {name} balance across?"),
            Some(name),
            &must,
        ))
    });
    // A location named by its site and path whose path and upstream occur together once.
    let location_pick = {
        let start = crate::questions_blind::at(locations.len(), 0.3);
        (start..locations.len()).chain(0..start).map(|i| &locations[i]).find(|x| {
            x["upstream"] != ""
                && locations.iter().filter(|y| y["path"] == x["path"] && y["upstream"] == x["upstream"]).count() == 1
        })
    }
    .and_then(|x| {
        let (server, path, upstream) = (x["server"].as_str()?, x["path"].as_str()?, x["upstream"].as_str()?);
        Some(together(
            Kind::Lookup,
            format!("Which upstream does {server} send requests for {path} to?"),
            Some(server),
            &[path, upstream],
        ))
    });
    let redirects = servers.iter().filter(|x| x["redirect"] == "301").count();
    vec![
        connections.map(|c| {
            together(
                Kind::Head,
                "How many connections may each worker process open?".into(),
                None,
                &["worker_connections", c],
            )
        }),
        last_file.map(|f| together(Kind::Tail, "Which configuration file is dumped last?".into(), None, &[f])),
        Records { list: &servers }.tail("Which name does the last server block serve?", "server_name"),
        upstream_pick,
        Records { list: &secure }.lookup("Which certificate does {key} use?", 0.9, "server_name", "cert"),
        location_pick,
        Some(count("How many server blocks redirect HTTP to HTTPS?", &["301", "redirect"], redirects, None)),
        Some(count("How many upstreams are defined?", &["upstreams", "upstream"], upstreams.len(), None)),
        about("upstream", l.count("How many locations proxy to {value}?", "upstream", None)),
        extreme(
            "Which upstream has the most servers?",
            scored_by(&upstreams, |x| Some(x["servers"].as_array()?.len()), "name"),
            true,
            None,
        ),
        extreme(
            "Which site has the most locations?",
            most_frequent(locations.iter().filter_map(|x| x["server"].as_str())),
            true,
            None,
        ),
    ]
}

#[cfg(test)]
#[path = "questions_eleventh_tests.rs"]
mod tests;
