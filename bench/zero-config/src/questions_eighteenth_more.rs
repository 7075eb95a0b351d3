//! The questions asked of the eighteenth part's text results, once their readers have
//! made records of them: `lsof -nP`, `git shortlog -sne`, Caddy's access log and `sacct`.

use serde_json::Value;

use super::readers::{authors, kib, open_files, requests, sacct_rows, seconds};
use super::{only, scored_by};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, at, count, extreme, most_frequent, s, together};

/// A number cell of a row (`4096`, `0t0` is no number).
fn cell(x: &Value, field: &str) -> Option<f64> {
    x[field].as_str()?.parse().ok()
}

/// `lsof -nP`: the first and the last process listed; which process holds a log or data
/// file, how large a file is, which process listens on an address and which owns a
/// connection; how many entries are established connections, deleted files, of a user or
/// of a type; the process with most open files, the largest open file and the user with
/// most. A file is asked after only where its name is in the listing once.
pub(crate) fn lsof_questions(ls: &[&str], raw: &str) -> Vec<Option<Question>> {
    let rows = open_files(ls);
    let r = Records { list: &rows };
    let once = |v: &str| !v.is_empty() && raw.matches(v).count() == 1;
    // A row `f` of the way down those `keep` allows, named by its file once in the listing:
    // the question with `{key}` replaced by the name, its answer the named fields.
    let ask = |f: f64, keep: &dyn Fn(&Value) -> bool, q: &str, answer: &[&str]| {
        let list = only(&rows, keep);
        let n = list.len();
        let start = at(n, f);
        (start..n).chain(0..start).find_map(|i| {
            let x = &list[i];
            let name = s(x, "NAME").filter(|v| once(v))?;
            let must: Vec<String> = answer.iter().map(|a| s(x, a)).collect::<Option<_>>()?;
            let mut all: Vec<&str> = vec![&name];
            all.extend(must.iter().map(String::as_str));
            Some(together(Kind::Lookup, q.replace("{key}", &name), Some(&name), &all))
        })
    };
    let file = |x: &Value| x["TYPE"] == "REG" && x["FD"] != "mem" && x["FD"] != "txt";
    let listen = |x: &Value| x["NAME"].as_str().is_some_and(|n| n.ends_with("(LISTEN)"));
    let conn = |x: &Value| x["NAME"].as_str().is_some_and(|n| n.ends_with("(ESTABLISHED)"));
    let first = rows.first().and_then(|x| {
        let (c, p) = (s(x, "COMMAND")?, s(x, "PID")?);
        Some(together(Kind::Head, "Which process is listed first? Give its command and PID.".into(), None, &[&c, &p]))
    });
    let established = rows.iter().filter(|x| conn(x)).count();
    let deleted = rows.iter().filter(|x| x["NAME"].as_str().is_some_and(|n| n.ends_with("(deleted)"))).count();
    // Each file once: a file several processes hold has one size.
    let mut sized: Vec<Value> = Vec::new();
    for x in rows.iter().filter(|x| x["TYPE"] == "REG") {
        if !sized.iter().any(|y| y["NAME"] == x["NAME"]) {
            sized.push(x.clone());
        }
    }
    let last = rows.last().and_then(|x| {
        let (c, p) = (s(x, "COMMAND")?, s(x, "PID")?);
        Some(together(Kind::Tail, "Which process is listed last? Give its command and PID.".into(), None, &[&c, &p]))
    });
    vec![
        first,
        last,
        ask(0.6, &file, "Which process has {key} open? Give its command and PID.", &["COMMAND", "PID"]),
        ask(0.3, &file, "Which process has {key} open? Give its command and PID.", &["COMMAND", "PID"]),
        ask(0.9, &file, "How large is {key}?", &["SIZE/OFF"]),
        ask(0.45, &listen, "Which process is listening on {key}? Give its command and PID.", &["COMMAND", "PID"]),
        ask(0.75, &conn, "Which process owns the connection {key}? Give its command and PID.", &["COMMAND", "PID"]),
        Some(count("How many entries are established TCP connections?", &["ESTABLISHED"], established, None)),
        Some(count("How many open files are deleted but still held open?", &["deleted"], deleted, None)),
        about("USER", r.count("How many open files belong to the user {value}?", "USER", None)),
        about("TYPE", r.count("How many entries are of the type {value}?", "TYPE", None)),
        extreme(
            "Which process has the most open files? Give its PID.",
            most_frequent(rows.iter().filter_map(|x| x["PID"].as_str())),
            true,
            Some("PID"),
        ),
        extreme(
            "Which open regular file is the largest?",
            scored_by(&sized, |x| cell(x, "SIZE/OFF"), "NAME"),
            true,
            Some("SIZE/OFF"),
        ),
        extreme(
            "Which user has the most open files?",
            most_frequent(rows.iter().filter_map(|x| x["USER"].as_str())),
            true,
            Some("USER"),
        ),
    ]
}

/// `git shortlog -sne`: the top author and their commits, the last author; an author's
/// commits and address; how many authors there are, with one commit, with a hundred or
/// more, with a GitHub noreply address, and how many bots; the bot with most commits, the
/// Gmail user with most and the most common company domain.
pub(crate) fn shortlog_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = authors(ls);
    let r = Records { list: &rows };
    let top = rows.first().and_then(|x| {
        let (n, c) = (s(x, "name")?, x["commits"].as_u64()?.to_string());
        Some(together(Kind::Head, "Who has made the most commits, and how many?".into(), None, &[&n, &c]))
    });
    let commits = |x: &Value| x["commits"].as_u64();
    let ones = rows.iter().filter(|x| commits(x) == Some(1)).count();
    let hundred = rows.iter().filter(|x| commits(x).is_some_and(|c| c >= 100)).count();
    let noreply = rows.iter().filter(|x| x["domain"] == "users.noreply.github.com").count();
    let is_bot = |x: &Value| x["name"].as_str().is_some_and(|n| n.ends_with("[bot]"));
    let bots = only(&rows, is_bot);
    let gmail = only(&rows, |x| x["domain"] == "gmail.com");
    let webmail =
        ["gmail.com", "users.noreply.github.com", "outlook.com", "protonmail.com", "yahoo.com", "fastmail.com"];
    vec![
        top,
        r.tail("Who is listed last?", "name"),
        r.lookup("How many commits has {key} made?", 0.3, "name", "commits"),
        r.lookup("How many commits has {key} made?", 0.6, "name", "commits"),
        r.lookup("How many commits has {key} made?", 0.9, "name", "commits"),
        r.lookup("What email address does {key} commit with?", 0.45, "name", "email"),
        r.lookup("What email address does {key} commit with?", 0.75, "name", "email"),
        Some(count("How many author lines are listed?", &["authors", "contributors", "lines"], rows.len(), None)),
        Some(count("How many authors have exactly one commit?", &["one commit", "1 commit"], ones, Some("commits"))),
        Some(count("How many authors have 100 or more commits?", &["100 or more", "at least 100"], hundred, None)),
        Some(count(
            "How many authors commit with a users.noreply.github.com address?",
            &["users.noreply.github.com", "noreply"],
            noreply,
            None,
        )),
        Some(count("How many bots are listed?", &["[bot]", "bots"], bots.len(), None)),
        extreme("Which bot has made the most commits?", scored_by(&bots, commits, "name"), true, Some("commits")),
        extreme(
            "Of the authors with a gmail.com address, who has made the most commits?",
            scored_by(&gmail, commits, "name"),
            true,
            Some("commits"),
        ),
        extreme(
            "Which email domain has the most authors, apart from webmail and GitHub noreply addresses?",
            most_frequent(rows.iter().filter_map(|x| x["domain"].as_str()).filter(|d| !webmail.contains(d))),
            true,
            None,
        ),
    ]
}

/// Caddy's access log: the first request and the last one's client; a request's status,
/// duration, response size, client and protocol; how many requests got a status, used a
/// method or a protocol, and how many failed with a server error; the slowest request,
/// the largest response and the busiest client.
pub(crate) fn caddy_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let reqs = requests(ls);
    let r = Records { list: &reqs };
    let pair = |kind: Kind, q: &str, x: Option<&Value>, a: &str, b: &str| {
        let x = x?;
        Some(together(kind, q.into(), None, &[&s(x, a)?, &s(x, b)?]))
    };
    let server_errors = reqs.iter().filter(|x| x["status"].as_u64().is_some_and(|c| c >= 500)).count();
    vec![
        pair(
            Kind::Head,
            "What was the first request in the log? Give its method and URI.",
            reqs.first(),
            "method",
            "uri",
        ),
        pair(Kind::Tail, "Which client made the last request, and to which URI?", reqs.last(), "client_ip", "uri"),
        r.lookup("What status did the request to {key} get?", 0.6, "uri", "status"),
        r.lookup("How long did the request to {key} take?", 0.3, "uri", "duration"),
        r.lookup("How many bytes was the response to {key}?", 0.9, "uri", "size"),
        r.lookup("Which client IP requested {key}?", 0.45, "uri", "client_ip"),
        r.lookup("Over which protocol was {key} requested?", 0.75, "uri", "proto"),
        about("status", r.count("How many requests got the status {value}?", "status", None)),
        about("method", r.count("How many requests used the method {value}?", "method", None)),
        about("proto", r.count("How many requests were made over {value}?", "proto", None)),
        Some(count("How many requests failed with a 5xx status?", &["5xx", "error"], server_errors, Some("status"))),
        about("duration", r.extreme("Which request took the longest? Give its URI.", "duration", "uri", true)),
        about("size", r.extreme("Which request had the largest response? Give its URI.", "size", "uri", true)),
        extreme(
            "Which client IP made the most requests?",
            most_frequent(reqs.iter().filter_map(|x| x["client_ip"].as_str())),
            true,
            Some("client_ip"),
        ),
    ]
}

/// `sacct`: the first job and the last job's state; a job's state, elapsed time, nodes,
/// user and exit code, and a batch step's peak memory; how many jobs failed, ran out of
/// memory or are pending, ran in a partition or were submitted by a user; the longest
/// job, the step with the highest peak memory and the user with most jobs.
pub(crate) fn sacct_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = sacct_rows(ls);
    let jobs = only(&rows, |x| x["job"] == true);
    let batches = only(&rows, |x| x["JobID"].as_str().is_some_and(|id| id.ends_with(".batch")));
    let steps = only(&rows, |x| x["job"] == false);
    let r = Records { list: &jobs };
    let pair = |kind: Kind, q: &str, x: Option<&Value>, a: &str, b: &str| {
        let x = x?;
        Some(together(kind, q.into(), None, &[&s(x, a)?, &s(x, b)?]))
    };
    let state = |st: &str| jobs.iter().filter(|x| x["State"] == st).count();
    vec![
        pair(Kind::Head, "Which job is listed first? Give its job ID and name.", jobs.first(), "JobID", "JobName"),
        pair(Kind::Tail, "What is the state of the last job listed?", jobs.last(), "JobID", "State"),
        r.lookup("What state is job {key} in?", 0.6, "JobID", "State"),
        r.lookup("How long did job {key} run?", 0.3, "JobID", "Elapsed"),
        r.lookup("Which nodes did job {key} run on?", 0.9, "JobID", "NodeList"),
        r.lookup("Who submitted job {key}?", 0.45, "JobID", "User"),
        r.lookup("What exit code did job {key} end with?", 0.75, "JobID", "ExitCode"),
        Records { list: &batches }.lookup("What was the peak memory (MaxRSS) of step {key}?", 0.5, "JobID", "MaxRSS"),
        Some(count("How many jobs failed?", &["FAILED"], state("FAILED"), Some("State"))),
        Some(count("How many jobs ran out of memory?", &["OUT_OF_MEMORY"], state("OUT_OF_MEMORY"), Some("State"))),
        Some(count("How many jobs are still pending?", &["PENDING"], state("PENDING"), Some("State"))),
        about("Partition", r.count("How many jobs ran in the partition {value}?", "Partition", None)),
        about("User", r.count("How many jobs did {value} submit?", "User", None)),
        extreme(
            "Which job ran the longest? Give its job ID.",
            scored_by(&jobs, |x| seconds(&x["Elapsed"]), "JobID"),
            true,
            Some("Elapsed"),
        ),
        extreme(
            "Which job step had the highest peak memory (MaxRSS)?",
            scored_by(&steps, |x| kib(&x["MaxRSS"]), "JobID"),
            true,
            Some("MaxRSS"),
        ),
        extreme(
            "Which user submitted the most jobs?",
            most_frequent(jobs.iter().filter_map(|x| x["User"].as_str())),
            true,
            Some("User"),
        ),
    ]
}
