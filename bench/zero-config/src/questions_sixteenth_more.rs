//! The questions asked of the sixteenth part's text results, once their readers have
//! made records of them: `smartctl -a` over a server's drives, `iostat -xt`, HAProxy's
//! `show stat` and an SSH bastion's auth log.

use serde_json::Value;

use super::readers::{auth_lines, drives, iostat, stat_rows};
use super::{only, scored_by};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, at, count, extreme, most_frequent, pick, s, together};

/// `smartctl -a` per drive: the first drive's serial, the last drive's serial and hours;
/// a drive's serial, power-on hours and temperature; how many drives fail their health
/// check, have reallocated sectors, are of a model family or are NVMe; the drive with
/// most hours, the hottest one and the one with most reallocated sectors. A value asked
/// of a drive's attribute line is one the text holds once, so it names that drive only.
pub(crate) fn smartctl_questions(ls: &[&str], raw: &str) -> Vec<Option<Question>> {
    let ds = drives(ls);
    let once = |v: &str| !v.is_empty() && raw.matches(v).count() == 1;
    let dev = |x: &Value| s(x, "dev");
    let hdds = only(&ds, |x| x["nvme"] == false);
    let serial_of = |kind: Kind, q: &str, x: Option<&Value>| {
        let serial = s(x?, "serial")?;
        Some(together(kind, q.into(), None, &[&serial]))
    };
    // A drive `f` of the way down whose answer is stated once in the text.
    let ask = |list: &[Value], f: f64, q: &str, answer: &dyn Fn(&Value) -> Option<Vec<String>>| {
        let n = list.len();
        let start = at(n, f);
        (start..n).chain(0..start).find_map(|i| {
            let x = &list[i];
            let a = answer(x).filter(|a| a.iter().any(|v| once(v)))?;
            let k = dev(x)?;
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            Some(together(Kind::Lookup, q.replace("{key}", &k), Some(&k), &a))
        })
    };
    let last_hours = ds.last().and_then(|x| {
        let h = s(x, "hours_text").or_else(|| x["hours"].as_u64().map(|h| h.to_string()))?;
        once(&h).then(|| {
            together(Kind::Tail, "How many power-on hours does the last drive listed have?".into(), None, &[&h])
        })
    });
    let failed = ds.iter().filter(|x| x["health"] == "FAILED").count();
    let reallocating = ds.iter().filter(|x| x["realloc"].as_u64().is_some_and(|n| n > 0)).count();
    let nvme = ds.iter().filter(|x| x["nvme"] == true).count();
    let r = Records { list: &ds };
    vec![
        serial_of(Kind::Head, "What is the serial number of the first drive listed?", ds.first()),
        serial_of(Kind::Tail, "What is the serial number of the last drive listed?", ds.last()),
        last_hours,
        pick(&ds, 0.6, "What is the serial number of {key}?", &dev, &|x| Some(vec![s(x, "serial")?])),
        pick(&ds, 0.3, "What is the serial number of {key}?", &dev, &|x| Some(vec![s(x, "serial")?])),
        ask(&hdds, 0.9, "How many power-on hours does {key} have?", &|x| {
            Some(vec!["Power_On_Hours".into(), x["hours"].as_u64()?.to_string()])
        }),
        ask(&hdds, 0.45, "What temperature does {key} report?", &|x| Some(vec![s(x, "temp_raw")?])),
        Some(count(
            "How many drives fail the SMART overall-health self-assessment?",
            &["FAILED", "failed"],
            failed,
            None,
        )),
        Some(count(
            "How many drives have reallocated sectors?",
            &["Reallocated_Sector_Ct", "reallocated"],
            reallocating,
            None,
        )),
        about("Model Family", r.count("How many drives are of the {value} family?", "family", None)),
        Some(count("How many NVMe drives are there?", &["NVMe", "nvme"], nvme, None)),
        extreme("Which drive has the most power-on hours?", scored_by(&ds, |x| x["hours"].as_u64(), "dev"), true, None),
        extreme("Which drive is the hottest?", scored_by(&ds, |x| x["temp"].as_u64(), "dev"), true, None),
        extreme(
            "Which drive has the most reallocated sectors?",
            scored_by(&hdds, |x| x["realloc"].as_u64(), "dev"),
            true,
            None,
        ),
    ]
}

/// A number cell of an iostat row.
fn num(x: &Value, field: &str) -> Option<f64> {
    x[field].as_str()?.parse().ok()
}

/// `iostat -xt`: when the first report was taken and its %iowait, when the last was and
/// the backup disk's %util in it; a device's %util and w_await in a report; in how many
/// reports the backup disk was busy or %iowait was high, how many devices a report
/// lists; the report with most %iowait, the device with the worst write wait and the
/// busiest device of the last report. A device's value is asked only where its row is
/// the only one of that device holding it.
pub(crate) fn iostat_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let (reports, rows) = iostat(ls);
    let unique = |x: &Value, field: &str| {
        rows.iter().filter(|o| o["dev"] == x["dev"] && o[field] == x[field]).count() == 1
            && num(x, field).is_some_and(|v| v > 0.0)
    };
    let disks = only(&rows, |x| !x["dev"].as_str().is_some_and(|d| d.starts_with("loop") || d.starts_with("md")));
    let ask = |f: f64, field: &str, q: &str| {
        let n = disks.len();
        let start = at(n, f);
        (start..n).chain(0..start).find_map(|i| {
            let x = &disks[i];
            if !unique(x, field) {
                return None;
            }
            let (d, t, v) = (s(x, "dev")?, s(x, "time")?, s(x, field)?);
            Some(together(Kind::Lookup, q.replace("{dev}", &d).replace("{time}", &t), Some(&t), &[&d, &v]))
        })
    };
    let first = reports.first();
    let last = reports.len().saturating_sub(1);
    let in_last = only(&rows, |x| x["report"].as_u64() == Some(last as u64));
    let backup = "sdc";
    let busy_backup = rows.iter().filter(|x| x["dev"] == backup && num(x, "%util").is_some_and(|u| u > 50.0)).count();
    let high_wait = reports.iter().filter(|x| num(x, "%iowait").is_some_and(|w| w > 5.0)).count();
    let per_report = rows.iter().filter(|x| x["report"] == 0).count();
    vec![
        first.and_then(|x| {
            Some(together(Kind::Head, "When was the first report taken?".into(), None, &[&s(x, "time")?]))
        }),
        first.and_then(|x| {
            let (w, idle) = (s(x, "%iowait")?, s(x, "%idle")?);
            Some(together(
                Kind::Head,
                "What was %iowait in the first report (the averages since boot)?".into(),
                None,
                &[&w, &idle],
            ))
        }),
        reports.last().and_then(|x| {
            Some(together(Kind::Tail, "When was the last report taken?".into(), None, &[&s(x, "time")?]))
        }),
        in_last.iter().find(|x| x["dev"] == backup).and_then(|x| {
            let u = s(x, "%util")?;
            Some(together(Kind::Tail, format!("What was {backup}'s %util in the last report?"), None, &[backup, &u]))
        }),
        ask(0.6, "%util", "What was the %util of {dev} in the report at {time}?"),
        ask(0.3, "%util", "What was the %util of {dev} in the report at {time}?"),
        ask(0.9, "w_await", "What was the w_await of {dev} in the report at {time}?"),
        ask(0.45, "r/s", "How many reads a second did {dev} do in the report at {time}?"),
        Some(count(
            &format!("In how many reports was {backup} more than 50% utilised?"),
            &[backup, "reports"],
            busy_backup,
            Some("%util"),
        )),
        Some(count("In how many reports was %iowait above 5%?", &["%iowait", "reports"], high_wait, Some("%iowait"))),
        Some(count("How many devices does each report list?", &["devices", "Device"], per_report, None)),
        extreme(
            "Which report had the highest %iowait? Give its time.",
            scored_by(&reports, |x| num(x, "%iowait"), "time"),
            true,
            Some("%iowait"),
        ),
        extreme(
            "Which device had the highest w_await in any report?",
            scored_by(&rows, |x| num(x, "w_await"), "dev"),
            true,
            Some("w_await"),
        ),
        extreme(
            "Which device was the busiest (highest %util) in the last report?",
            scored_by(&in_last, |x| num(x, "%util"), "dev"),
            true,
            Some("%util"),
        ),
    ]
}

/// HAProxy `show stat`: the first row and the last backend with its status; a server's
/// status, address, sessions handled and check result; how many servers are down, how
/// many backends there are, how many servers a backend has; the backend with most 5xx
/// responses, the server with the slowest responses and most current sessions, and the
/// frontend with most requests.
pub(crate) fn haproxy_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = stat_rows(ls);
    let servers = only(&rows, |x| x["type"] == "2");
    let backends = only(&rows, |x| x["svname"] == "BACKEND");
    let frontends = only(&rows, |x| x["svname"] == "FRONTEND");
    let r = Records { list: &servers };
    let down = servers.iter().filter(|x| x["status"] == "DOWN").count();
    let head = rows.first().and_then(|x| {
        let (px, sv, stot) = (s(x, "pxname")?, s(x, "svname")?, s(x, "stot")?);
        Some(together(
            Kind::Head,
            "Which proxy is listed first, and how many sessions has it handled in total?".into(),
            None,
            &[&px, &sv, &stot],
        ))
    });
    let tail = backends.last().and_then(|x| {
        let (px, status) = (s(x, "pxname")?, s(x, "status")?);
        Some(together(
            Kind::Tail,
            "Which backend is listed last, and what is its status?".into(),
            None,
            &[&px, "BACKEND", &status],
        ))
    });
    vec![
        head,
        tail,
        r.lookup("What is the status of server {key}?", 0.6, "svname", "status"),
        r.lookup("What address does server {key} point to?", 0.3, "svname", "addr"),
        r.lookup("How many sessions has server {key} handled in total?", 0.9, "svname", "stot"),
        Records { list: &only(&servers, |x| x["status"] != "UP") }.lookup(
            "What does the last health check of {key} say?",
            0.5,
            "svname",
            "last_chk",
        ),
        Some(count("How many servers are DOWN?", &["DOWN"], down, Some("status"))),
        Some(count("How many backends are listed?", &["BACKEND", "backends"], backends.len(), Some("svname"))),
        about("pxname", r.count("How many servers does {value} have?", "pxname", None)),
        about(
            "hrsp_5xx",
            Records { list: &backends }.extreme(
                "Which backend has returned the most 5xx responses?",
                "hrsp_5xx",
                "pxname",
                true,
            ),
        ),
        about(
            "rtime",
            r.extreme("Which server has the slowest average response time (rtime)?", "rtime", "svname", true),
        ),
        about("scur", r.extreme("Which server has the most current sessions?", "scur", "svname", true)),
        about(
            "req_tot",
            Records { list: &frontends }.extreme(
                "Which frontend has received the most requests?",
                "req_tot",
                "pxname",
                true,
            ),
        ),
    ]
}

/// The value after `key` in `msg`, up to the next space (`from 1.2.3.4 port` gives the
/// address after `from `).
fn after<'m>(msg: &'m str, key: &str) -> Option<&'m str> {
    msg.split_once(key)?.1.split(' ').next()
}

/// An SSH bastion's auth log: when it starts and its last line; the command a user ran
/// with sudo at a time, where a user logged in from, who opened a logind session; how many
/// failed passwords, invalid users and key logins, how many sudo commands a user ran; the
/// address failing most, the user name guessed most and the engineer logging in most.
pub(crate) fn auth_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = auth_lines(ls);
    let msg = |x: &Value| x["msg"].as_str().unwrap_or("").to_owned();
    let has = |p: &'static str| move |x: &Value| msg(x).contains(p);
    let sudo: Vec<Value> = rows
        .iter()
        .filter(|x| x["prog"] == "sudo" && msg(x).contains("; COMMAND="))
        .map(|x| {
            let mut x = x.clone();
            let m = msg(&x);
            x["user"] = Value::from(m.trim_start().split(' ').next().unwrap_or(""));
            x["command"] = Value::from(m.split_once("COMMAND=").map_or("", |c| c.1));
            x
        })
        .collect();
    let ran = only(&sudo, |x| !msg(x).contains("incorrect password"));
    let accepted = only(&rows, has("Accepted publickey for "));
    let failed = only(&rows, has("Failed password for "));
    let invalid = only(&rows, |x| msg(x).starts_with("Invalid user "));
    let sessions = only(&rows, |x| msg(x).starts_with("New session "));
    let time = |x: &Value| s(x, "time");
    let last = rows.last().and_then(|x| {
        let (t, m) = (s(x, "time")?, s(x, "msg")?);
        Some(together(Kind::Tail, "What is the last line of the log, and when was it written?".into(), None, &[&t, &m]))
    });
    vec![
        rows.first()
            .and_then(|x| Some(together(Kind::Head, "When does this log start?".into(), None, &[&s(x, "time")?]))),
        last,
        pick(&ran, 0.6, "Which command was run with sudo at {key}?", &time, &|x| {
            Some(vec![s(x, "time")?, format!("COMMAND={}", s(x, "command")?)])
        }),
        pick(&ran, 0.3, "Who ran a command with sudo at {key}, and which command?", &time, &|x| {
            Some(vec![s(x, "user")?, format!("COMMAND={}", s(x, "command")?)])
        }),
        pick(&accepted, 0.9, "From which address did the login accepted at {key} come?", &time, &|x| {
            Some(vec![s(x, "time")?, after(&msg(x), " from ")?.to_owned()])
        }),
        pick(
            &sessions,
            0.5,
            "Which user opened logind session {key}?",
            &|x| Some(after(&msg(x), "New session ")?.to_owned()),
            &|x| {
                let m = msg(x);
                Some(vec![
                    format!("New session {}", after(&m, "New session ")?),
                    after(&m, " of user ")?.trim_end_matches('.').to_owned(),
                ])
            },
        ),
        Some(count("How many failed password attempts are logged?", &["Failed password"], failed.len(), None)),
        Some(count(
            "How many attempts named a user that does not exist?",
            &["Invalid user", "invalid user"],
            invalid.len(),
            None,
        )),
        Some(count(
            "How many logins with a public key were accepted?",
            &["Accepted publickey", "Accepted"],
            accepted.len(),
            None,
        )),
        about("user", Records { list: &ran }.count("How many sudo commands did {value} run?", "user", None)),
        extreme(
            "Which IP address had the most failed password attempts?",
            most_frequent(failed.iter().filter_map(|x| after(x["msg"].as_str()?, " from "))),
            true,
            None,
        ),
        extreme(
            "Which non-existent user name was tried most often?",
            most_frequent(invalid.iter().filter_map(|x| after(x["msg"].as_str()?, "Invalid user "))),
            true,
            None,
        ),
        extreme(
            "Which user logged in with a key most often?",
            most_frequent(accepted.iter().filter_map(|x| after(x["msg"].as_str()?, "Accepted publickey for "))),
            true,
            None,
        ),
    ]
}
