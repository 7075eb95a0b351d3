//! The questions asked of the twentieth part's text results, once their readers have
//! made records of them: `perf report`, `nodetool tablestats`, `rabbitmqctl list_queues`
//! and Apache's `fullstatus`.

use serde_json::Value;

use super::readers::{after, leading_number, num, perf_rows, processes, queues, tablestats, workers};
use super::{at, only, scored_by, totals};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, count, extreme, most_frequent, s, together};

/// The first or last record of `list`, asked for by two of its fields together.
fn ends(list: &[Value], kind: Kind, q: &str, a: &str, b: &str) -> Option<Question> {
    let x = if kind == Kind::Head { list.first() } else { list.last() }?;
    let (one, two) = (s(x, a)?, s(x, b)?);
    Some(together(kind, q.into(), None, &[&one, &two]))
}

/// `perf report`: the hottest row and the last; a function's share, shared object and
/// command; how many rows a command has, how many kernel functions and commands were
/// sampled; the command and the shared object with the largest total
/// share, the hottest kernel function, JIT-compiled Java method and PostgreSQL function.
pub(crate) fn perf_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = perf_rows(ls);
    let r = Records { list: &rows };
    let share = |x: &Value| x["percent"].as_f64();
    let by = |field: &'static str| move |x: &Value| s(x, field);
    let kernel = only(&rows, |x| x["kernel"] == true);
    let jit = only(&rows, |x| {
        x["Shared Object"].as_str().is_some_and(|d| d.starts_with("perf-"))
            && x["function"].as_str().is_some_and(|f| f.starts_with('L'))
    });
    let pg = only(&rows, |x| x["Command"] == "postgres" && x["Shared Object"] == "postgres");
    // Functions asked about by name: resolved ones, and for a share one that rounds to more
    // than nothing.
    let resolved = only(&rows, |x| x["function"].as_str().is_some_and(|f| !f.starts_with("0x")));
    let shown = only(&resolved, |x| share(x).is_some_and(|p| p >= 0.05));
    // A function is named with its command: the same kernel or libc function is a row of
    // every command that ran it.
    let pick = |list: &[Value], f: f64, q: &str, field: &str| {
        let x = list.get(at(list.len(), f))?;
        let (func, comm, a) = (s(x, "function")?, s(x, "Command")?, s(x, field)?);
        let must: Vec<&str> = if q.contains("{command}") { vec![&comm, &func, &a] } else { vec![&func, &a] };
        let q = q.replace("{function}", &func).replace("{command}", &comm);
        Some(together(Kind::Lookup, q, Some(&func), &must))
    };
    let mut commands: Vec<&str> = rows.iter().filter_map(|x| x["Command"].as_str()).collect();
    commands.sort_unstable();
    commands.dedup();
    vec![
        ends(
            &rows,
            Kind::Head,
            "Which function takes the most CPU time? Give its command and symbol.",
            "Command",
            "function",
        ),
        ends(
            &rows,
            Kind::Tail,
            "Which function is listed last in the report? Give its command and symbol.",
            "Command",
            "function",
        ),
        pick(&shown, 0.3, "How much of the profile does {function} take in {command}?", "Overhead"),
        pick(&resolved, 0.6, "Which shared object is {function} in?", "Shared Object"),
        pick(&shown, 0.9, "How much of the profile does {function} take in {command}?", "Overhead"),
        about("Command", r.count("How many rows of the report are for the command {value}?", "Command", None)),
        Some(count(
            "How many kernel functions ([k]) appear in the report?",
            &["[k]", "kernel"],
            kernel.len(),
            Some("Symbol"),
        )),
        Some(count("How many different commands were sampled?", &["commands"], commands.len(), Some("Command"))),
        extreme(
            "Which command used the most CPU in total?",
            totals(&rows, by("Command"), share),
            true,
            Some("Overhead"),
        ),
        extreme(
            "Which shared object takes the most CPU in total?",
            totals(&rows, by("Shared Object"), share),
            true,
            Some("Overhead"),
        ),
        extreme("What is the hottest kernel function?", scored_by(&kernel, share, "function"), true, Some("Overhead")),
        extreme(
            "Which JIT-compiled Java method is the hottest?",
            scored_by(&jit, share, "function"),
            true,
            Some("Overhead"),
        ),
        extreme(
            "Which function of the postgres binary is the hottest?",
            scored_by(&pg, share, "function"),
            true,
            Some("Overhead"),
        ),
    ]
}

/// `nodetool tablestats`: the table count and the last table; a table's live space,
/// partitions, read latency and repaired share; how many tables were never read, are in
/// a keyspace or use leveled compaction; the largest table, the one with most SSTables,
/// the slowest to read and the keyspace with most reads.
pub(crate) fn tablestats_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let (tables, keyspaces) = tablestats(ls);
    let r = Records { list: &tables };
    let number = |field: &'static str| move |x: &Value| leading_number(&x[field]);
    let total = ls.first().filter(|l| l.starts_with("Total number of tables")).copied();
    let never = tables.iter().filter(|x| x["Local read latency"] == "NaN ms").count();
    let leveled = tables.iter().filter(|x| x.get("SSTables in each level").is_some()).count();
    // Tables asked about by name: those holding data, named by a table name no other
    // keyspace uses, with their keyspace in the question.
    let full = only(&tables, |x| number("Space used (live)")(x).is_some_and(|b| b > 0.0));
    let table = |f: f64, q: &str, field: &str| {
        let unique = |x: &&Value| tables.iter().filter(|t| t["Table"] == x["Table"]).count() == 1;
        let x = full[at(full.len(), f)..].iter().chain(&full).find(unique)?;
        let (t, ks, a) = (s(x, "Table")?, s(x, "Keyspace")?, s(x, field)?);
        Some(together(Kind::Lookup, q.replace("{key}", &t).replace("{ks}", &ks), Some(&t), &[&t, &a]))
    };
    vec![
        total.map(|t| together(Kind::Head, "How many tables does the node have?".into(), None, &[t])),
        r.tail("Which table is listed last?", "Table"),
        table(0.3, "How much disk space (live) does the table {key} of {ks} use?", "Space used (live)"),
        table(
            0.6,
            "How many partitions does the table {key} of {ks} hold, by nodetool's estimate?",
            "Number of partitions (estimate)",
        ),
        table(0.9, "What is the local read latency of the table {key} of {ks}?", "Local read latency"),
        table(0.75, "What percent of the table {key} of {ks} is repaired?", "Percent repaired"),
        Some(count(
            "How many tables have never been read (a NaN read latency)?",
            &["NaN", "never read"],
            never,
            Some("Local read latency"),
        )),
        about("Keyspace", r.count("How many tables does the keyspace {value} have?", "Keyspace", None)),
        Some(count(
            "How many tables use leveled compaction (list SSTables per level)?",
            &["SSTables in each level", "leveled"],
            leveled,
            Some("SSTables in each level"),
        )),
        extreme(
            "Which table uses the most disk space?",
            scored_by(&tables, number("Space used (live)"), "Table"),
            true,
            Some("Space used (live)"),
        ),
        extreme(
            "Which table has the most SSTables?",
            scored_by(&tables, number("SSTable count"), "Table"),
            true,
            Some("SSTable count"),
        ),
        extreme(
            "Which table has the highest local read latency?",
            scored_by(&tables, number("Local read latency"), "Table"),
            true,
            Some("Local read latency"),
        ),
        extreme(
            "Which keyspace has served the most reads?",
            scored_by(&keyspaces, number("Read Count"), "Keyspace"),
            true,
            Some("Read Count"),
        ),
    ]
}

/// `rabbitmqctl list_queues`: the first queue and the last with its ready messages; a
/// queue's ready messages, consumers, memory and policy; how many queues are of a type,
/// have no consumers, are exclusive, or are dead-letter queues holding messages; the
/// queue with most ready messages, and the most backed-up merchant webhook and
/// dead-letter queues.
pub(crate) fn queue_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = queues(ls);
    let r = Records { list: &rows };
    let n = |field: &'static str| move |x: &Value| num(&x[field]);
    let named = |suffix: &'static str| move |x: &Value| x["name"].as_str().is_some_and(|q| q.ends_with(suffix));
    let dlqs = only(&rows, named(".dlq"));
    // Queues a person names: not the ones a server or a client library named for itself.
    let own = only(&rows, |x| {
        x["name"]
            .as_str()
            .is_some_and(|q| !q.starts_with("amq.gen-") && !q.starts_with("celeryev.") && !q.ends_with(".pidbox"))
    });
    let backed = only(&own, |x| n("messages_ready")(x).is_some_and(|m| m > 0.0));
    let app = Records { list: &own };
    let webhooks = only(&rows, |x| x["name"].as_str().is_some_and(|q| q.starts_with("webhooks.")));
    let idle = rows.iter().filter(|x| x["consumers"] == "0").count();
    let exclusive = rows.iter().filter(|x| x["exclusive"] == "true").count();
    let full_dlqs = dlqs.iter().filter(|x| n("messages_ready")(x).is_some_and(|m| m > 0.0)).count();
    vec![
        r.head("Which queue is listed first?", "name"),
        ends(
            &rows,
            Kind::Tail,
            "Which queue is listed last, and how many messages are ready in it?",
            "name",
            "messages_ready",
        ),
        Records { list: &backed }.lookup("How many messages are ready in {key}?", 0.3, "name", "messages_ready"),
        app.lookup("How many consumers does {key} have?", 0.6, "name", "consumers"),
        app.lookup("How much memory does {key} use?", 0.9, "name", "memory"),
        app.lookup("Which policy applies to {key}?", 0.75, "name", "policy"),
        about("type", r.count("How many queues are {value} queues?", "type", None)),
        Some(count("How many queues have no consumers?", &["no consumers", "consumers"], idle, Some("consumers"))),
        Some(count("How many queues are exclusive?", &["exclusive"], exclusive, Some("exclusive"))),
        Some(count(
            "How many dead-letter queues (.dlq) hold messages?",
            &[".dlq", "dead-letter"],
            full_dlqs,
            Some("messages_ready"),
        )),
        extreme(
            "Which queue has the most messages ready?",
            scored_by(&rows, n("messages_ready"), "name"),
            true,
            Some("messages_ready"),
        ),
        extreme(
            "Which merchant's webhook queue has the largest backlog?",
            scored_by(&webhooks, n("messages_ready"), "name"),
            true,
            Some("messages_ready"),
        ),
        extreme(
            "Which dead-letter queue holds the most messages?",
            scored_by(&dlqs, n("messages_ready"), "name"),
            true,
            Some("messages_ready"),
        ),
    ]
}

/// Apache's `fullstatus`: the server's version, how many TLS sessions its cache has
/// stored; a request's client, time and virtual host and the CPU time of its worker; how
/// many workers are in a mode or last served a virtual host, how many use HTTP/2 and how
/// many processes are stopping; the slowest request, the commonest client and the
/// process with most keep-alive connections.
pub(crate) fn status_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let ws = workers(ls);
    let ps = processes(ls);
    let r = Records { list: &ws };
    let n = |field: &'static str| move |x: &Value| num(&x[field]);
    let line = |prefix: &str, kind: Kind, q: &str| {
        after(ls, prefix).map(|v| together(kind, q.into(), None, &[&format!("{prefix}{v}")]))
    };
    let stored = after(ls, "total entries stored since starting: ").map(|v| {
        together(
            Kind::Tail,
            "How many TLS sessions has the cache stored since the server started?".into(),
            None,
            &["stored", v],
        )
    });
    let h2 = ws.iter().filter(|x| x["Protocol"] == "h2").count();
    // A worker still reading has no request line to name it by.
    let served = only(&ws, |x| x["Request"] != "..reading..");
    let stopping = ps.iter().filter(|x| x["Stopping"] != "no").count();
    vec![
        line("Server Version: ", Kind::Head, "Which version of Apache is the server running?"),
        stored,
        r.lookup("Which client sent \"{key}\"?", 0.3, "Request", "Client"),
        r.lookup("How many milliseconds did \"{key}\" take?", 0.6, "Request", "Req"),
        r.lookup("Which virtual host served \"{key}\"?", 0.9, "Request", "VHost"),
        r.lookup("How much CPU time has the worker that handled \"{key}\" used?", 0.45, "Request", "CPU"),
        about("M", r.count("How many workers are in mode {value}?", "M", None)),
        about("VHost", r.count("How many listed workers last served {value}?", "VHost", None)),
        Some(count("How many listed workers are on HTTP/2 (h2) connections?", &["h2", "HTTP/2"], h2, Some("Protocol"))),
        Some(count("How many processes are stopping?", &["stopping", "Stopping"], stopping, Some("Stopping"))),
        extreme(
            "Which request took the longest to process?",
            scored_by(&served, n("Req"), "Request"),
            true,
            Some("Req"),
        ),
        extreme(
            "Which client address appears most often among the workers?",
            most_frequent(ws.iter().filter_map(|x| x["Client"].as_str())),
            true,
            Some("Client"),
        ),
        extreme(
            "Which process has the most keep-alive connections? Give its PID.",
            scored_by(&ps, n("keep-alive"), "PID"),
            true,
            Some("keep-alive"),
        ),
    ]
}
