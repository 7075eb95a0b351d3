//! The questions asked of the fifteenth part's text results, once their readers have
//! made records of them: `ceph osd df tree`, `trivy image`, a PostgreSQL log and
//! `redis-cli SLOWLOG GET`.

use std::collections::BTreeMap;

use serde_json::Value;

use super::readers::{ceph_rows, pg_lines, slowlog_entries, trivy_rows};
use super::{only, scored_by};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, at, count, extreme, most_frequent, pick, s, together};

/// `ceph osd df tree`: the first OSD and how full it is, the spread of use at the end,
/// how full an OSD is, its placement groups and host, a host's free space; how many OSDs
/// are down, are NVMe or are hosts; the fullest and emptiest OSD and the fullest host.
pub(crate) fn ceph_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = ceph_rows(ls);
    let osds = only(&rows, |x| x["kind"] == "osd");
    let up = only(&osds, |x| x["status"] == "up");
    let hosts = only(&rows, |x| x["kind"] == "host");
    let first = osds.first().and_then(|x| {
        let (n, u) = (s(x, "name")?, s(x, "use_text")?);
        Some(together(Kind::Head, "Which OSD is listed first, and how full is it (%USE)?".into(), None, &[&n, &u]))
    });
    let spread = ls.iter().rev().find_map(|l| l.strip_prefix("MIN/MAX VAR: ")).and_then(|r| {
        let v = r.split_whitespace().next()?;
        Some(together(Kind::Tail, "What are the minimum and maximum VAR across the OSDs?".into(), None, &[v]))
    });
    let total = ls.iter().rev().find(|l| l.trim_start().starts_with("TOTAL")).and_then(|l| {
        let w: Vec<&str> = l.split_whitespace().collect();
        let pct = w.get(13)?;
        Some(together(Kind::Tail, "What is the cluster's overall %USE?".into(), None, &["TOTAL", pct]))
    });
    let name = |x: &Value| s(x, "name");
    let down = osds.iter().filter(|x| x["status"] == "down").count();
    let nvme = osds.iter().filter(|x| x["class"] == "nvme").count();
    vec![
        first,
        spread,
        total,
        pick(&up, 0.6, "How full is {key} (%USE)?", &name, &|x| Some(vec![s(x, "name")?, s(x, "use_text")?])),
        pick(&up, 0.3, "How many placement groups does {key} hold?", &name, &|x| {
            Some(vec![s(x, "name")?, x["pgs"].as_u64()?.to_string()])
        }),
        pick(&osds, 0.9, "Which host is {key} on?", &name, &|x| Some(vec![s(x, "host")?])),
        pick(&hosts, 0.45, "How much space is still available on host {key}?", &name, &|x| {
            Some(vec![s(x, "name")?, s(x, "avail")?])
        }),
        Some(count("How many OSDs are down?", &["down"], down, Some("STATUS"))),
        Some(count("How many NVMe OSDs are there?", &["nvme"], nvme, Some("CLASS"))),
        Some(count("How many hosts are in the cluster?", &["hosts", "host"], hosts.len(), Some("TYPE NAME"))),
        about("%USE", Records { list: &osds }.extreme("Which OSD is the fullest?", "use", "name", true)),
        about("%USE", Records { list: &up }.extreme("Which OSD that is up is the least full?", "use", "name", false)),
        about("%USE", Records { list: &hosts }.extreme("Which host is the fullest?", "use", "name", true)),
    ]
}

/// `trivy image`: the image and its OS, the last vulnerability; which version fixes a
/// vulnerability, how severe one is, what its status is, which version of a library is
/// installed; how many are critical, will not be fixed, are in the npm lock file or in
/// one library; the npm package and the OS library with most vulnerabilities.
pub(crate) fn trivy_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = trivy_rows(ls);
    let r = Records { list: &rows };
    let os_target = rows.first().and_then(|x| s(x, "target")).unwrap_or_default();
    let os = only(&rows, |x| s(x, "target").as_deref() == Some(os_target.as_str()));
    let npm = only(&rows, |x| x["target"].as_str().is_some_and(|t| t.ends_with("(npm)")));
    let fixed = only(&rows, |x| x["fixed"] != "");
    let firsts = only(&rows, |x| x["first"] == true);
    let head = (!os_target.is_empty()).then(|| {
        together(Kind::Head, "Which image was scanned, and which OS is it based on?".into(), None, &[&os_target])
    });
    let critical = rows.iter().filter(|x| x["severity"] == "CRITICAL").count();
    let wont = rows.iter().filter(|x| x["status"] == "will_not_fix").count();
    let id = |x: &Value| s(x, "id");
    vec![
        head,
        r.tail("Which vulnerability is listed last in the report?", "id"),
        fixed.get(at(fixed.len(), 0.6)).and_then(|x| {
            let (lib, id, version) = (s(x, "library")?, s(x, "id")?, s(x, "fixed")?);
            Some(together(Kind::Lookup, format!("Which version of {lib} fixes {id}?"), Some(&id), &[&id, &version]))
        }),
        pick(&os, 0.3, "How severe is {key}?", &id, &|x| Some(vec![s(x, "id")?, s(x, "severity")?])),
        pick(&os, 0.8, "What is the status of {key} in the OS packages?", &id, &|x| {
            Some(vec![s(x, "id")?, s(x, "status")?])
        }),
        pick(&firsts, 0.9, "Which version of {key} is installed?", &|x| s(x, "library"), &|x| {
            Some(vec![s(x, "library")?, s(x, "installed")?])
        }),
        Some(count("How many critical vulnerabilities are there in all?", &["CRITICAL"], critical, Some("Severity"))),
        Some(count(
            "How many vulnerabilities will Debian not fix?",
            &["will_not_fix", "will not fix"],
            wont,
            Some("Status"),
        )),
        Some(count(
            "How many vulnerabilities are in the npm lock file?",
            &["npm", "package-lock.json", "Total"],
            npm.len(),
            Some("Library"),
        )),
        about("Library", r.count("How many vulnerabilities does {value} have?", "library", None)),
        extreme(
            "Which npm package has the most vulnerabilities?",
            most_frequent(npm.iter().filter_map(|x| x["library"].as_str())),
            true,
            Some("Library"),
        ),
        extreme(
            "Which OS package has the most critical vulnerabilities?",
            most_frequent(os.iter().filter(|x| x["severity"] == "CRITICAL").filter_map(|x| x["library"].as_str())),
            true,
            Some("Severity"),
        ),
    ]
}

/// The number of the `duration: N ms` a log line states.
fn duration(msg: &str) -> Option<f64> {
    msg.strip_prefix("duration: ")?.split(' ').next()?.parse().ok()
}

/// A PostgreSQL log: when it starts and what it logged last, how long a statement took,
/// what error a process hit, where a connection came from, what a checkpoint wrote; how
/// many errors, failed logins, timeouts and checkpoints; the slowest statement, the
/// client opening most connections, the table vacuumed most and the user with most errors.
pub(crate) fn postgres_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = pg_lines(ls);
    let msg = |x: &Value| x["msg"].as_str().unwrap_or("").to_owned();
    let primary = only(&rows, |x| matches!(x["level"].as_str(), Some("LOG" | "ERROR" | "FATAL")));
    let slow = only(&rows, |x| duration(&msg(x)).is_some());
    let errors = only(&rows, |x| x["level"] == "ERROR");
    // Processes that hit one error only, so naming the process names the error.
    let once = only(&errors, |x| errors.iter().filter(|e| e["pid"] == x["pid"]).count() == 1);
    let received = only(&rows, |x| msg(x).starts_with("connection received: "));
    let checkpoints = only(&rows, |x| msg(x).starts_with("checkpoint complete: "));
    let first = rows.first().and_then(|x| s(x, "time"));
    // The last entry by its time and the start of its message (a duration, or a
    // checkpoint's first clause), which is what a reader states of it.
    let last = primary.last().and_then(|x| {
        let m = msg(x);
        let short = m.split("  ").next()?.split(';').next()?.to_owned();
        Some((s(x, "time")?, short))
    });
    let count_of = |p: &str| rows.iter().filter(|x| msg(x).contains(p)).count();
    let between = |m: &str, a: &str, b: &str| Some(m.split_once(a)?.1.split(b).next()?.to_owned());
    let hosts: Vec<String> = received.iter().filter_map(|x| between(&msg(x), "host=", " ")).collect();
    let vacuumed: Vec<String> =
        rows.iter().filter_map(|x| between(msg(x).strip_prefix("automatic vacuum of table ")?, "\"", "\"")).collect();
    let time = |x: &Value| s(x, "time");
    vec![
        first.map(|t| together(Kind::Head, "When does this log start?".into(), None, &[&t])),
        last.map(|(t, m)| {
            together(Kind::Tail, "What is the last thing the server logged, and when?".into(), None, &[&t, &m])
        }),
        pick(&slow, 0.6, "How long did the statement logged at {key} take?", &time, &|x| {
            Some(vec![s(x, "time")?, format!("{:.3} ms", duration(&msg(x))?)])
        }),
        pick(&slow, 0.9, "How long did the statement logged at {key} take?", &time, &|x| {
            Some(vec![s(x, "time")?, format!("{:.3} ms", duration(&msg(x))?)])
        }),
        pick(&once, 0.5, "What error did process {key} hit?", &|x| s(x, "pid"), &|x| Some(vec![s(x, "pid")?, msg(x)])),
        pick(&received, 0.3, "Which host did the connection of process {key} come from?", &|x| s(x, "pid"), &|x| {
            Some(vec![s(x, "pid")?, format!("host={}", between(&msg(x), "host=", " ")?)])
        }),
        pick(&checkpoints, 0.7, "How many buffers did the checkpoint completed at {key} write?", &time, &|x| {
            Some(vec![s(x, "time")?, format!("wrote {} buffers", between(&msg(x), "wrote ", " ")?)])
        }),
        Some(count("How many errors were logged?", &["ERROR", "errors"], errors.len(), None)),
        Some(count(
            "How many logins failed on a wrong password?",
            &["password authentication failed"],
            count_of("password authentication failed"),
            None,
        )),
        Some(count(
            "How many statements were canceled by the statement timeout?",
            &["statement timeout"],
            count_of("canceling statement due to statement timeout"),
            None,
        )),
        Some(count("How many checkpoints completed?", &["checkpoint complete"], checkpoints.len(), None)),
        extreme(
            "Which statement was the slowest? Give the time it was logged.",
            scored_by(&slow, |x| duration(&msg(x)), "time"),
            true,
            Some("duration"),
        ),
        extreme(
            "Which client host opened the most connections?",
            most_frequent(hosts.iter().map(String::as_str)),
            true,
            None,
        ),
        extreme(
            "Which table did autovacuum vacuum most often?",
            most_frequent(vacuumed.iter().map(String::as_str)),
            true,
            None,
        ),
        extreme(
            "Which database user logged the most errors?",
            most_frequent(errors.iter().filter_map(|x| x["user"].as_str())),
            true,
            None,
        ),
    ]
}

/// `redis-cli SLOWLOG GET`: the newest and the oldest entry, which client ran an entry,
/// how long one took, which key one touched and when; how many are `KEYS`, of a command
/// or from a client name; the slowest entry, the most frequent command, the busiest
/// client address and the command taking most time in all. A lookup's answer is a value
/// the text holds once, so stating it answers that entry and no other.
pub(crate) fn slowlog_questions(ls: &[&str], raw: &str) -> Vec<Option<Question>> {
    let es = slowlog_entries(ls);
    let r = Records { list: &es };
    let once = |v: &str| !v.is_empty() && raw.matches(v).count() == 1;
    let ask = |f: f64, q: &str, answer: &dyn Fn(&Value) -> Option<String>| {
        let n = es.len();
        let start = at(n, f);
        (start..n).chain(0..start).find_map(|i| {
            let x = &es[i];
            let a = answer(x).filter(|a| once(a))?;
            let k = s(x, "id")?;
            Some(together(Kind::Lookup, q.replace("{key}", &k), Some(&k), &[&a]))
        })
    };
    let keys = es.iter().filter(|x| x["command"] == "KEYS").count();
    let mut per: BTreeMap<String, f64> = BTreeMap::new();
    for x in &es {
        if let (Some(c), Some(m)) = (s(x, "command"), x["micros"].as_f64()) {
            *per.entry(c).or_default() += m;
        }
    }
    vec![
        r.head("What is the ID of the most recent slow log entry?", "id"),
        r.tail("What is the ID of the oldest entry in the slow log?", "id"),
        ask(0.6, "Which client (address and port) ran slow log entry {key}?", &|x| s(x, "client")),
        ask(0.3, "How long did slow log entry {key} take, in microseconds?", &|x| {
            Some(x["micros"].as_u64()?.to_string())
        }),
        ask(0.9, "Which key did slow log entry {key} touch?", &|x| s(x, "key")),
        ask(0.45, "When was slow log entry {key} logged (Unix time)?", &|x| s(x, "time")),
        (keys > 0).then(|| count("How many KEYS commands are in the slow log?", &["KEYS"], keys, None)),
        about("command", r.count("How many slow log entries are {value} commands?", "command", None)),
        about("name", r.count("How many entries came from the client named {value}?", "name", None)),
        about("micros", r.extreme("Which entry took the longest? Give its ID.", "micros", "id", true)),
        extreme(
            "Which command appears most often in the slow log?",
            most_frequent(es.iter().filter_map(|x| x["command"].as_str())),
            true,
            None,
        ),
        extreme(
            "Which client IP address ran the most slow commands?",
            most_frequent(es.iter().filter_map(|x| x["ip"].as_str())),
            true,
            None,
        ),
        extreme(
            "Which command took the most time in total?",
            per.into_iter().map(|(c, m)| (m, c)).collect(),
            true,
            None,
        ),
    ]
}
