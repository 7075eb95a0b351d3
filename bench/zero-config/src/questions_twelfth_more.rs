//! The questions asked of the twelfth part's text results, once their readers have made
//! records of them: `sar -n DEV`, `mailq`, `ldapsearch` and `EXPLAIN ANALYZE`.

use serde_json::Value;

use super::readers::{ldif_entries, mailq_rows, plan_nodes, sar_rows};
use super::{only, scored_by};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, at, count, extreme, most_frequent, together};

/// A number of a cell written as text.
fn num(x: &Value, field: &str) -> Option<f64> {
    x[field].as_str()?.parse().ok()
}

/// `sar -n DEV`: the host, an interface's rate at a time of day and over the day, how
/// often the backup NIC was saturated, how many interfaces, and the busiest times and
/// container interface.
pub(crate) fn sar_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let (samples, averages) = sar_rows(ls);
    let of = |iface: &str| only(&samples, |x| x["iface"] == iface);
    let (eno1, eno2, docker0) = (of("eno1"), of("eno2"), of("docker0"));
    let host = ls.first().and_then(|l| l.split_once(" (")?.1.split(')').next());
    let average = |iface: &str, field: &str, q: &str| {
        averages.iter().find(|x| x["iface"] == iface).and_then(|x| {
            let v = x[field].as_str()?;
            Some(together(Kind::Tail, q.into(), None, &["Average:", iface, v]))
        })
    };
    let at_time = |rows: &[Value], f: f64, q: &str, field: &str| {
        let x = rows.get(at(rows.len(), f))?;
        let (time, iface, v) = (x["time"].as_str()?, x["iface"].as_str()?, x[field].as_str()?);
        Some(together(Kind::Lookup, q.replace("{time}", time), Some(time), &[time, iface, v]))
    };
    let saturated = eno2.iter().filter(|x| num(x, "%ifutil").is_some_and(|u| u > 50.0)).count();
    let veths = only(&averages, |x| x["iface"].as_str().is_some_and(|i| i.starts_with("veth")));
    vec![
        host.map(|h| together(Kind::Head, "Which host are these statistics from?".into(), None, &[h])),
        average("eno1", "rxkB/s", "How many kB/s did eno1 receive on average over the day?"),
        average("eno2", "%ifutil", "How busy was eno2 on average over the day?"),
        at_time(&eno1, 0.6, "How many kB/s did eno1 receive at {time}?", "rxkB/s"),
        at_time(&docker0, 0.3, "How many packets per second did docker0 send at {time}?", "txpck/s"),
        at_time(&eno2, 0.9, "How busy was eno2 at {time}?", "%ifutil"),
        Some(count(
            "In how many ten-minute samples was eno2 more than 50% busy?",
            &["samples", "intervals"],
            saturated,
            Some("%ifutil"),
        )),
        Some(count("How many network interfaces are reported?", &["interfaces"], averages.len(), Some("IFACE"))),
        extreme(
            "At what time did eno1 receive the most data?",
            scored_by(&eno1, |x| num(x, "rxkB/s"), "time"),
            true,
            Some("rxkB/s"),
        ),
        extreme("When was eno2 busiest?", scored_by(&eno2, |x| num(x, "%ifutil"), "time"), true, Some("%ifutil")),
        extreme(
            "Which container interface received the most on average?",
            scored_by(&veths, |x| num(x, "rxkB/s"), "iface"),
            true,
            Some("rxkB/s"),
        ),
    ]
}

/// The arrival of a queued message as a sortable key (`Dec 29 10:12:48` → `12-29 10:12:48`).
fn arrival_key(arrival: &str) -> Option<String> {
    const MONTHS: &[&str] = &["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let c: Vec<&str> = arrival.split_whitespace().collect();
    let month = MONTHS.iter().position(|m| Some(m) == c.get(1))? + 1;
    Some(format!("{month:02}-{:0>2} {}", c.get(2)?, c.get(3)?))
}

/// `mailq`: the first message, the totals, why a message is deferred, who sent it and to
/// whom, how many wait for a domain, are held or are bounces, the largest and oldest
/// message and the sender with most queued.
pub(crate) fn mailq_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = mailq_rows(ls);
    let r = Records { list: &rows };
    let deferred = only(&rows, |x| x["reason"] != "");
    let single = only(&rows, |x| x["recipients"].as_array().is_some_and(|a| a.len() == 1));
    let totals = ls.iter().rev().find_map(|l| l.strip_prefix("-- ")?.strip_suffix('.'));
    let total = |i: usize| totals.and_then(|t| t.split(" in ").nth(i));
    let held = rows.iter().filter(|x| x["status"] == "hold").count();
    let bounces = rows.iter().filter(|x| x["sender"] == "MAILER-DAEMON").count();
    vec![
        r.head("Which message is listed first in the queue?", "id"),
        total(1).map(|n| together(Kind::Tail, "How many messages are in the queue?".into(), None, &[n])),
        total(0).map(|k| together(Kind::Tail, "How large is the queue in total?".into(), None, &[k])),
        Records { list: &deferred }.lookup("Why is message {key} deferred?", 0.6, "id", "reason"),
        r.lookup("Who sent message {key}?", 0.3, "id", "sender"),
        Records { list: &single }.lookup("Which address is message {key} for?", 0.9, "id", "recipients[0]"),
        about("domains", r.count("How many queued messages are for {value}?", "domains[]", None)),
        Some(count("How many messages are on hold?", &["hold", "held"], held, Some("status"))),
        Some(count("How many queued messages are bounces from MAILER-DAEMON?", &["MAILER-DAEMON"], bounces, None)),
        about("size", r.extreme("Which message is the largest?", "size", "id", true)),
        extreme(
            "Which message has waited in the queue the longest?",
            scored_by(&rows, |x| arrival_key(x["arrival"].as_str()?), "id"),
            false,
            Some("arrival"),
        ),
        extreme(
            "Which sender has the most messages in the queue?",
            most_frequent(rows.iter().filter_map(|x| x["sender"].as_str())),
            true,
            Some("sender"),
        ),
    ]
}

/// `ldapsearch`: the organisation, the count of entries, the last person, a person's
/// mail, title, manager and phone, how many work in a department or city or are of a kind,
/// the members of a group, the largest group and the manager of most people.
pub(crate) fn ldap_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let entries = ldif_entries(ls);
    let people =
        only(&entries, |x| x["objectClass"].as_array().is_some_and(|c| c.iter().any(|o| o == "inetOrgPerson")));
    let groups = only(&entries, |x| x["objectClass"].as_array().is_some_and(|c| c.iter().any(|o| o == "groupOfNames")));
    let p = Records { list: &people };
    let members = |x: &Value| x["member"].as_array().map(Vec::len);
    let organisation = entries.iter().find_map(|x| x["o"].as_str());
    let entries_n = ls.iter().rev().find_map(|l| l.strip_prefix("# numEntries: "));
    let group_pick = groups.get(at(groups.len(), 0.7)).and_then(|g| Some((g["cn"].as_str()?, members(g)?)));
    // The manager's uid, from their DN.
    let managers = people.iter().filter_map(|x| x["manager"].as_str()?.strip_prefix("uid=")?.split(',').next());
    vec![
        organisation.map(|o| together(Kind::Head, "Which organisation is this directory of?".into(), None, &[o])),
        entries_n
            .map(|n| together(Kind::Tail, "How many entries did the search return?".into(), None, &["numEntries", n])),
        p.tail("Who is the last person in the directory?", "cn"),
        p.lookup("What is {key}'s email address?", 0.6, "cn", "mail"),
        p.lookup("What is {key}'s job title?", 0.3, "uid", "title"),
        p.lookup("Who is {key}'s manager?", 0.9, "cn", "manager"),
        p.lookup("What is {key}'s phone number?", 0.45, "cn", "telephoneNumber"),
        about("departmentNumber", p.count("How many people work in {value}?", "departmentNumber", None)),
        about("l", p.count("How many people are based in {value}?", "l", None)),
        about("employeeType", p.count("How many people have employee type {value}?", "employeeType", None)),
        group_pick.map(|(cn, n)| {
            count(&format!("How many members does the {cn} group have?"), &["member", "members"], n, Some("member"))
        }),
        extreme("Which group has the most members?", scored_by(&groups, members, "cn"), true, Some("member")),
        extreme("Who is the manager of the most people?", most_frequent(managers), true, Some("manager")),
    ]
}

/// `EXPLAIN ANALYZE`: the sort key, the execution and planning times, the rows, time and
/// filtered rows of a partition's scan, how many partitions are read each way, and the
/// slowest, largest and most disk-bound partition.
pub(crate) fn plan_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let nodes = plan_nodes(ls);
    // The scans of the partitions (a bitmap index scan names the index, not the table).
    let parts = only(&nodes, |x| {
        x["table"].as_str().is_some_and(|t| t.starts_with("events_"))
            && x["node"].as_str().is_some_and(|n| !n.starts_with("Bitmap Index Scan"))
    });
    let seq = only(&parts, |x| x["node"].as_str().is_some_and(|n| n.starts_with("Seq Scan")));
    let bitmap = parts.len() - seq.len();
    let line = |prefix: &str| ls.iter().find_map(|l| l.trim().strip_prefix(prefix).map(str::to_owned));
    let timing = |prefix: &str, q: &str| {
        line(prefix).map(|t| together(Kind::Tail, q.into(), None, &[&format!("{}{t}", prefix)]))
    };
    let pick = |list: &[Value], f: f64, q: &str, answer: &dyn Fn(&Value) -> Option<String>| {
        let x = list.get(at(list.len(), f))?;
        let table = x["table"].as_str()?;
        Some(together(Kind::Lookup, q.replace("{table}", table), Some(table), &[table, &answer(x)?]))
    };
    vec![
        line("Sort Key: ").map(|k| together(Kind::Head, "Which keys is the result sorted by?".into(), None, &[&k])),
        timing("Execution Time: ", "How long did the query take to execute?"),
        timing("Planning Time: ", "How long did planning the query take?"),
        pick(&parts, 0.6, "How many rows did the scan of {table} return?", &|x| {
            Some(format!("rows={} loops=1", x["rows"].as_str()?))
        }),
        pick(&parts, 0.3, "How long did the scan of {table} take?", &|x| {
            Some(format!("actual time={}", x["time"].as_str()?))
        }),
        pick(&seq, 0.5, "How many rows did the filter remove when scanning {table}?", &|x| {
            Some(format!("Rows Removed by Filter: {}", x["removed"].as_str()?))
        }),
        Some(count("How many partitions are read with a sequential scan?", &["Seq Scan"], seq.len(), None)),
        Some(count("How many partitions are read with a bitmap heap scan?", &["Bitmap Heap Scan"], bitmap, None)),
        Some(count("How many partitions does the query scan?", &["partitions"], parts.len(), None)),
        extreme(
            "Which partition took the longest to scan?",
            scored_by(&parts, |x| num(x, "end"), "table"),
            true,
            Some("actual time"),
        ),
        extreme(
            "Which partition's scan returned the most rows?",
            scored_by(&parts, |x| num(x, "rows"), "table"),
            true,
            Some("rows"),
        ),
        extreme(
            "Which partition read the most blocks from disk?",
            scored_by(&parts, |x| num(x, "read"), "table"),
            true,
            Some("read"),
        ),
    ]
}
