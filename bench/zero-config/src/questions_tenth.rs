//! The questions asked of the tenth part of the catalog: what a user of each service or
//! command asks of a result like it (how a workflow run ended and on which branch, which
//! package an advisory affects and which version fixes it, how big a release file is,
//! which instance type a Terraform resource has, how much space a path takes, which chain
//! a Kubernetes service goes through, how far a branch is behind, which version of a
//! library a build resolves), with records named from the middle and the end of the
//! result as well as the head. The answers are computed from the generated data, never
//! written by hand.
//!
//! Text results (a disk usage listing, NAT chains, a branch list, a dependency tree) are
//! first read into records of their columns, so the same builders ask of them.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use crate::question::{Kind, Question, Records, value};
use crate::questions_blind::{about, count, extreme, lines, most_frequent, scored_by, together};

/// Every question about a tenth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "github_workflow_runs" => run_questions(list("workflow_runs")),
        "dependabot_alerts" => alert_questions(v.as_array().map_or(&[][..], Vec::as_slice)),
        "pypi_project" => pypi_questions(v),
        "terraform_state" => state_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Seconds since 1970 of an RFC 3339 UTC time (`2025-12-31T23:43:36Z`), for durations.
pub(crate) fn unix_seconds(t: &str) -> Option<i64> {
    let num = |range: std::ops::Range<usize>| t.get(range)?.parse::<i64>().ok();
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, min, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    // Days from the civil date, counting years from March so leap days come last.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let day_of_year = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = era * 146_097 + day_of_era - 719_468;
    Some(days * 86_400 + h * 3_600 + min * 60 + s)
}

/// Workflow runs, newest first, named by their numeric id; only finished runs conclude.
fn run_questions(runs: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: runs };
    let running = runs.iter().filter(|x| x["status"] == "in_progress").count();
    let failing =
        most_frequent(runs.iter().filter(|x| x["conclusion"] == "failure").filter_map(|x| x["name"].as_str()));
    let finished: Vec<Value> = runs.iter().filter(|x| x["status"] == "completed").cloned().collect();
    let took = scored_by(
        &finished,
        |x| Some(unix_seconds(x["updated_at"].as_str()?)? - unix_seconds(x["run_started_at"].as_str()?)?),
        "id",
    );
    vec![
        r.head("What is the title of the most recent workflow run?", "display_title"),
        r.tail("What is the title of the oldest workflow run on this page?", "display_title"),
        r.lookup("What was the conclusion of run {key}?", 0.6, "id", "conclusion"),
        r.lookup("Which branch did run {key} run on?", 0.9, "id", "head_branch"),
        r.lookup("Which workflow does run {key} belong to?", 0.35, "id", "name"),
        about("conclusion", r.count("How many runs concluded with {value}?", "conclusion", None)),
        about("event", r.count("How many runs were triggered by a {value} event?", "event", None)),
        Some(count("How many runs are in progress?", &["in_progress", "in progress"], running, Some("status"))),
        extreme("Which workflow failed most often on this page?", failing, true, Some("conclusion")),
        extreme("Which finished run took the longest?", took, true, Some("run_started_at")),
    ]
}

/// Dependabot alerts, newest first; an advisory recurs for each manifest it reaches, so
/// an advisory names an alert only where it raised one alert.
fn alert_questions(alerts: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: alerts };
    let by_package = most_frequent(alerts.iter().filter_map(|a| a["dependency"]["package"]["name"].as_str()));
    // Each advisory once, with its EPSS percentage.
    let mut epss: BTreeMap<String, f64> = BTreeMap::new();
    for a in alerts {
        let advisory = &a["security_advisory"];
        if let (Some(id), Some(p)) = (advisory["ghsa_id"].as_str(), advisory["epss"][0]["percentage"].as_f64()) {
            epss.insert(id.to_owned(), p);
        }
    }
    let epss = epss.into_iter().map(|(id, p)| (p, id)).collect();
    let ghsa = "security_advisory.ghsa_id";
    vec![
        r.head("What is the summary of the newest alert?", "security_advisory.summary"),
        // An advisory's summary may recur at both ends; its id names the oldest alert's.
        r.tail("Which advisory is the oldest alert on this page about?", ghsa),
        r.lookup("Which package does advisory {key} affect?", 0.6, ghsa, "dependency.package.name"),
        r.lookup(
            "Which version fixes the vulnerability of {key}?",
            0.9,
            ghsa,
            "security_vulnerability.first_patched_version.identifier",
        ),
        r.lookup("What is the state of the alert for {key}?", 0.3, ghsa, "state"),
        about("severity", r.count("How many alerts are of {value} severity?", "security_advisory.severity", None)),
        about("state", r.count("How many alerts are {value}?", "state", None)),
        about(
            "ecosystem",
            r.count("How many alerts are about {value} packages?", "dependency.package.ecosystem", None),
        ),
        extreme("Which package has the most alerts?", by_package, true, Some("name")),
        extreme("Which advisory has the highest EPSS percentage?", epss, true, Some("percentage")),
    ]
}

/// PyPI's project JSON: releases keyed by version, each a list of files, read into one
/// record per file with its version.
pub(crate) fn pypi_files(v: &Value) -> Vec<Value> {
    let Some(releases) = v["releases"].as_object() else { return Vec::new() };
    releases
        .iter()
        .flat_map(|(version, files)| {
            files.as_array().into_iter().flatten().map(move |f| {
                let mut f = f.clone();
                f["version"] = json!(version);
                f
            })
        })
        .collect()
}

/// A project's releases and files: which is latest, how big and how old a file is, what
/// was yanked.
fn pypi_questions(v: &Value) -> Vec<Option<Question>> {
    let files = pypi_files(v);
    let r = Records { list: &files };
    let versions: Vec<&String> = v["releases"].as_object().map(|m| m.keys().collect()).unwrap_or_default();
    let yanked = files.iter().filter(|f| f["yanked"] == true).count();
    let latest_files = v["urls"].as_array().map_or(&[][..], Vec::as_slice);
    vec![
        v["info"]["version"]
            .as_str()
            .map(|latest| together(Kind::Head, "What is the latest version of the project?".into(), None, &[latest])),
        versions.first().map(|first| together(Kind::Head, "Which release is listed first?".into(), None, &[first])),
        Records { list: latest_files }.tail("Which file of the latest release is listed last?", "filename"),
        v["vulnerabilities"].as_array().and_then(|l| l.last()).and_then(|x| x["id"].as_str()).map(|id| {
            together(Kind::Tail, "What is the id of the last known vulnerability listed?".into(), None, &[id])
        }),
        r.lookup("How big is {key}?", 0.6, "filename", "size"),
        r.lookup("When was {key} uploaded?", 0.9, "filename", "upload_time"),
        r.lookup("What is the SHA-256 digest of {key}?", 0.3, "filename", "digests.sha256"),
        Some(count("How many releases does the project have?", &["releases", "versions"], versions.len(), None)),
        Some(count("How many files are yanked?", &["yanked"], yanked, Some("yanked"))),
        about("packagetype", r.count("How many files are of type {value}?", "packagetype", None)),
        about("size", r.extreme("Which file is the largest?", "size", "filename", true)),
        extreme(
            "Which file was uploaded first?",
            scored_by(&files, |f| Some(f["upload_time_iso_8601"].as_str()?.to_owned()), "filename"),
            false,
            Some("upload_time"),
        ),
    ]
}

/// Every resource of a state: the root module's, then each child module's.
pub(crate) fn state_resources(v: &Value) -> Vec<Value> {
    let root = &v["values"]["root_module"];
    let own = root["resources"].as_array().into_iter().flatten();
    let children = root["child_modules"].as_array().into_iter().flatten();
    own.chain(children.flat_map(|m| m["resources"].as_array().into_iter().flatten())).cloned().collect()
}

/// A Terraform state: resources by address, instances' types and addresses, how many of
/// each type, which instance has the largest disk.
fn state_questions(v: &Value) -> Vec<Option<Question>> {
    let resources = state_resources(v);
    let r = Records { list: &resources };
    let of_type = |ty: &str| resources.iter().filter(|x| x["type"] == ty).cloned().collect::<Vec<_>>();
    let (instances, records) = (of_type("aws_instance"), of_type("aws_route53_record"));
    let i = Records { list: &instances };
    let data = resources.iter().filter(|x| x["mode"] == "data").count();
    vec![
        v["terraform_version"]
            .as_str()
            .map(|tv| together(Kind::Head, "Which Terraform version wrote this state?".into(), None, &[tv])),
        r.head("Which resource is listed first?", "address"),
        // The last addresses carry quoted keys; their ids are plain.
        r.tail("What is the id of the last resource in the state?", "values.id"),
        i.lookup("What instance type is {key}?", 0.6, "address", "values.instance_type"),
        i.lookup("What is the private IP address of {key}?", 0.9, "address", "values.private_ip"),
        r.lookup("What is the id of {key}?", 0.3, "address", "values.id"),
        Records { list: &records }.lookup("What does {key} point to?", 0.5, "address", "values.records[0]"),
        about("type", r.count("How many resources are of type {value}?", "type", None)),
        Some(count("How many data sources does the state read?", &["data"], data, Some("mode"))),
        about(
            "volume_size",
            i.extreme(
                "Which instance has the largest root volume?",
                "values.root_block_device[0].volume_size",
                "address",
                true,
            ),
        ),
    ]
}

/// Every question about a tenth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "du_ah" => du_questions(&ls),
        "iptables_nat" => nat_questions(&ls),
        "git_branch_vv" => branch_questions(&ls),
        "mvn_dependency_tree" => maven_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// A record of named string cells.
fn cells(pairs: &[(&str, &str)]) -> Value {
    let map: Map<String, Value> = pairs.iter().map(|(k, v)| ((*k).to_owned(), Value::from(*v))).collect();
    Value::Object(map)
}

/// A `du -h` size (`4.0K`, `35M`, `226G`, `0`) in KiB.
pub(crate) fn du_kib(size: &str) -> Option<f64> {
    let (number, scale) = match size.chars().last()? {
        'K' => (&size[..size.len() - 1], 1.0),
        'M' => (&size[..size.len() - 1], 1024.0),
        'G' => (&size[..size.len() - 1], 1024.0 * 1024.0),
        'T' => (&size[..size.len() - 1], 1024.0 * 1024.0 * 1024.0),
        _ => (size, 1.0 / 1024.0),
    };
    number.parse::<f64>().ok().map(|n| n * scale)
}

/// The lines of `du -ah`: size, path, whether it is a directory (some other path lies
/// under it) and, for a file, its extension.
pub(crate) fn du_rows(ls: &[&str]) -> Vec<Value> {
    let pairs: Vec<(&str, &str)> = ls.iter().filter_map(|l| l.split_once('\t')).collect();
    let mut parents = BTreeSet::new();
    for (_, path) in &pairs {
        let mut p = *path;
        while let Some((up, _)) = p.rsplit_once('/') {
            parents.insert(up);
            p = up;
        }
    }
    pairs
        .iter()
        .map(|(size, path)| {
            let dir = parents.contains(path);
            let file_name = path.rsplit('/').next().unwrap_or(path);
            let ext = if dir { "" } else { file_name.rsplit_once('.').map_or("", |(_, e)| e) };
            cells(&[("size", size), ("path", path), ("kind", if dir { "dir" } else { "file" }), ("ext", ext)])
        })
        .collect()
}

/// `du -ah`: how much space a path takes, what is largest, the total.
fn du_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = du_rows(ls);
    let kind = |k: &str| rows.iter().filter(|x| x["kind"] == k).cloned().collect::<Vec<_>>();
    let (files, dirs) = (kind("file"), kind("dir"));
    let f = Records { list: &files };
    let sizes = |list: &[Value]| scored_by(list, |x| du_kib(x["size"].as_str()?), "path");
    let top: Vec<Value> =
        dirs.iter().filter(|d| d["path"].as_str().is_some_and(|p| p.matches('/').count() == 1)).cloned().collect();
    let cell = |row: Option<&Value>, c: &str| row.and_then(|x| x[c].as_str()).map(str::to_owned);
    let before_total = cell(rows.len().checked_sub(2).and_then(|i| rows.get(i)), "path");
    vec![
        Records { list: &rows }.head("Which path is listed first?", "path"),
        cell(rows.last(), "size")
            .map(|total| together(Kind::Tail, "How much space does the whole directory use?".into(), None, &[&total])),
        before_total.map(|p| together(Kind::Tail, "Which path is listed just before the total?".into(), None, &[&p])),
        f.lookup("How much space does {key} use?", 0.6, "path", "size"),
        f.lookup("How much space does {key} use?", 0.9, "path", "size"),
        Records { list: &dirs }.lookup("How much space does the directory {key} use?", 0.5, "path", "size"),
        Some(count("How many paths does du list?", &["entries", "paths", "lines"], rows.len(), None)),
        about("ext", f.count("How many .{value} files are there?", "ext", None)),
        extreme("Which file uses the most space?", sizes(&files), true, Some("size")),
        extreme("Which top-level directory uses the most space?", sizes(&top), true, Some("size")),
    ]
}

/// An `iptables -v` counter (`207`, `483K`, `12M`) as a number.
pub(crate) fn ipt_number(s: &str) -> Option<f64> {
    let scale = match s.chars().last()? {
        'K' => 1e3,
        'M' => 1e6,
        'G' => 1e9,
        'T' => 1e12,
        _ => return s.parse().ok(),
    };
    s[..s.len() - 1].parse::<f64>().ok().map(|n| n * scale)
}

/// The rules of `iptables -L -n -v`, each with its chain, counters, target, addresses,
/// the rest of the line, and from kube-proxy's comments the service and the endpoint.
pub(crate) fn nat_rows(ls: &[&str]) -> Vec<Value> {
    let mut chain = "";
    let mut rows = Vec::new();
    for l in ls {
        if let Some(rest) = l.strip_prefix("Chain ") {
            chain = rest.split_whitespace().next().unwrap_or("");
            continue;
        }
        let c: Vec<&str> = l.split_whitespace().collect();
        if c.len() < 9 || c[0] == "pkts" {
            continue;
        }
        let extra = c[9..].join(" ");
        let comment = extra.split("/* ").nth(1).and_then(|x| x.split(" */").next()).unwrap_or("");
        let (service, endpoint) = match comment.split_once(" -> ") {
            Some((s, e)) => (s, e),
            None => (comment.strip_suffix(" cluster IP").unwrap_or(""), ""),
        };
        let service = if chain == "KUBE-SERVICES" || !endpoint.is_empty() { service } else { "" };
        rows.push(cells(&[
            ("chain", chain),
            ("pkts", c[0]),
            ("bytes", c[1]),
            ("target", c[2]),
            ("source", c[7]),
            ("destination", c[8]),
            ("extra", &extra),
            ("service", service),
            ("endpoint", endpoint),
        ]));
    }
    rows
}

/// `iptables -t nat -L -n -v`: which chain serves a service or an endpoint, a service's
/// cluster IP, how many chains and DNAT rules, the busiest service.
fn nat_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = nat_rows(ls);
    let pick = |f: &dyn Fn(&Value) -> bool| rows.iter().filter(|x| f(x)).cloned().collect::<Vec<_>>();
    let services = pick(&|x| x["chain"] == "KUBE-SERVICES" && x["service"] != "");
    let spread = pick(&|x| x["endpoint"] != "");
    let chains: Vec<&str> = ls.iter().filter_map(|l| l.strip_prefix("Chain ")?.split_whitespace().next()).collect();
    let first = ls.first().and_then(|l| {
        let c: Vec<&str> = l.split_whitespace().collect();
        Some((*c.get(1)?, *c.get(3)?))
    });
    let dnat = rows.iter().filter(|x| x["target"] == "DNAT").count();
    let last_to = rows.last().and_then(|x| x["extra"].as_str()?.split("to:").nth(1)).map(str::to_owned);
    let s = Records { list: &services };
    vec![
        first.map(|(c, p)| together(Kind::Head, "What is the policy of the first chain?".into(), None, &[c, p])),
        chains.last().map(|c| together(Kind::Tail, "Which chain is listed last?".into(), None, &[c])),
        last_to.map(|to| together(Kind::Tail, "Where does the last rule listed send traffic?".into(), None, &[&to])),
        s.lookup("Which chain handles the cluster IP of {key}?", 0.6, "service", "target"),
        s.lookup("What is the cluster IP of {key}?", 0.9, "service", "destination"),
        Records { list: &spread }.lookup("Which chain sends traffic to endpoint {key}?", 0.3, "endpoint", "target"),
        Some(count("How many chains are there?", &["chains"], chains.len(), None)),
        Some(count("How many DNAT rules are there?", &["DNAT"], dnat, Some("target"))),
        Some(count(
            "How many service ports have a cluster IP rule?",
            &["cluster IP", "services"],
            services.len(),
            None,
        )),
        extreme(
            "Which service's cluster IP rule has matched the most packets?",
            scored_by(&services, |x| ipt_number(x["pkts"].as_str()?), "service"),
            true,
            Some("pkts"),
        ),
        extreme(
            "Which service has the most endpoints?",
            most_frequent(spread.iter().filter_map(|x| x["service"].as_str())),
            true,
            None,
        ),
    ]
}

/// The branches of `git branch -vv`: the marker, the name, the commit, the upstream with
/// how far ahead or behind it is (or `gone`), and the subject.
pub(crate) fn branch_rows(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let mark = l.get(..1)?.trim();
            let rest = l.get(2..)?;
            let (name, rest) = rest.split_once(' ')?;
            let (sha, rest) = rest.trim_start().split_once(' ').unwrap_or((rest.trim_start(), ""));
            let (tracking, subject) = match rest.strip_prefix('[') {
                Some(t) => t.split_once("] ").map_or((t.trim_end_matches(']'), ""), |(a, b)| (a, b)),
                None => ("", rest),
            };
            let (upstream, state) = tracking.split_once(": ").unwrap_or((tracking, ""));
            let how_far = |word: &str| {
                state.split(", ").find_map(|p| p.strip_prefix(word)).map(|n| n.trim().to_owned()).unwrap_or_default()
            };
            let (ahead, behind) = (how_far("ahead"), how_far("behind"));
            let gone = if state == "gone" { "gone" } else { "" };
            Some(cells(&[
                ("current", mark),
                ("branch", name),
                ("sha", sha),
                ("upstream", upstream),
                ("ahead", &ahead),
                ("behind", &behind),
                ("gone", gone),
                ("subject", subject),
            ]))
        })
        .collect()
}

/// `git branch -vv`: a branch's commit, subject and upstream, how many are gone or
/// behind, the branch furthest behind or ahead.
fn branch_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = branch_rows(ls);
    let r = Records { list: &rows };
    let tracking: Vec<Value> = rows.iter().filter(|x| x["upstream"] != "").cloned().collect();
    let worded: Vec<Value> = rows.iter().filter(|x| x["subject"] != "WIP").cloned().collect();
    let gone = rows.iter().filter(|x| x["gone"] == "gone").count();
    let behind = rows.iter().filter(|x| x["behind"] != "").count();
    let far = |field: &str| scored_by(&rows, |x| x[field].as_str()?.parse::<u64>().ok(), "branch");
    vec![
        r.head("Which branch is listed first?", "branch"),
        r.tail("Which branch is listed last?", "branch"),
        r.lookup("Which commit is {key} at?", 0.6, "branch", "sha"),
        // A bare `WIP` names no commit; only subjects of their own are asked for.
        Records { list: &worded }.lookup("What is the subject of the last commit on {key}?", 0.9, "branch", "subject"),
        Records { list: &tracking }.lookup("Which upstream does {key} track?", 0.3, "branch", "upstream"),
        Some(count("How many branches are there?", &["branches"], rows.len(), None)),
        Some(count("How many branches have an upstream that is gone?", &["gone"], gone, Some("gone"))),
        Some(count("How many branches are behind their upstream?", &["behind"], behind, Some("behind"))),
        extreme("Which branch is furthest behind its upstream?", far("behind"), true, Some("behind")),
        extreme("Which branch is furthest ahead of its upstream?", far("ahead"), true, Some("ahead")),
    ]
}

/// The dependency lines of `mvn dependency:tree`, each with the module whose tree holds
/// it: `group:artifact` as the key, type, version, scope and depth.
pub(crate) fn maven_rows(ls: &[&str]) -> Vec<Value> {
    let mut module = "";
    let mut rows = Vec::new();
    for l in ls {
        let Some(body) = l.strip_prefix("[INFO] ") else { continue };
        if let Some(rest) = body.strip_prefix("--- dependency:") {
            module = rest.split(" @ ").nth(1).map_or("", |m| m.trim_end_matches(" ---"));
            continue;
        }
        let coordinate = body.trim_start_matches([' ', '|', '+', '-', '\\']);
        let branch = &body[..body.len() - coordinate.len()];
        let parts: Vec<&str> = coordinate.split(':').collect();
        if branch.is_empty() || parts.len() != 5 || coordinate.contains(' ') {
            continue;
        }
        let key = format!("{}:{}", parts[0], parts[1]);
        let depth = (branch.len() / 3).to_string();
        rows.push(cells(&[
            ("module", module),
            ("key", &key),
            ("type", parts[2]),
            ("version", parts[3]),
            ("scope", parts[4]),
            ("depth", &depth),
        ]));
    }
    rows
}

/// The reactor summary's modules with their times in seconds.
pub(crate) fn reactor_times(ls: &[&str]) -> Vec<(f64, String)> {
    ls.iter()
        .filter_map(|l| {
            let (left, time) = l.strip_prefix("[INFO] ")?.split_once(" SUCCESS [")?;
            let name = left.split_whitespace().next()?;
            Some((time.trim().trim_end_matches(" s]").trim().parse().ok()?, name.to_owned()))
        })
        .collect()
}

/// `mvn dependency:tree`: the version and scope a module resolves for a library, how many
/// modules and test dependencies there are, the module with the most dependencies and the
/// slowest one, the build's order and total time.
fn maven_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = maven_rows(ls);
    let r = Records { list: &rows };
    // The reactor order: the lines between its heading and the first blank `[INFO]`.
    let order: Vec<&str> = ls
        .iter()
        .skip_while(|l| !l.contains("Reactor Build Order:"))
        .skip(1)
        .map(|l| l.trim_start_matches("[INFO]").trim())
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let times = reactor_times(ls);
    let total = ls.iter().find_map(|l| l.strip_prefix("[INFO] Total time:")).map(|t| t.trim().to_owned());
    vec![
        order.first().map(|m| together(Kind::Head, "Which module does the reactor build first?".into(), None, &[m])),
        total.map(|t| together(Kind::Tail, "How long did the build take in total?".into(), None, &[&t])),
        times
            .last()
            .map(|(_, m)| together(Kind::Tail, "Which module is last in the reactor summary?".into(), None, &[m])),
        r.lookup("Which version of {key} does the build resolve?", 0.6, "key", "version"),
        r.lookup("Which version of {key} does the build resolve?", 0.9, "key", "version"),
        r.lookup("In which scope is {key} resolved?", 0.3, "key", "scope"),
        Some(count("How many modules does the reactor build?", &["modules", "projects"], order.len(), None)),
        about("scope", r.count("How many dependency lines have scope {value}?", "scope", None)),
        extreme(
            "Which module has the most dependencies?",
            most_frequent(rows.iter().filter_map(|x| x["module"].as_str())),
            true,
            None,
        ),
        extreme("Which module took the longest to build?", times, true, None),
    ]
}

#[cfg(test)]
#[path = "questions_tenth_tests.rs"]
mod tests;
