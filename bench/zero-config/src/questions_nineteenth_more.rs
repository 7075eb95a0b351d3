//! The questions asked of the nineteenth part's text results, once their readers have
//! made records of them: `top -b -n1`, `df -hT`, `kubectl get events -A` and a pytest
//! durations report.

use std::collections::BTreeMap;

use serde_json::Value;

use super::readers::{cpu_seconds, df_bytes, durations, events, kib, mounts, percent, summary_count, tasks};
use super::{only, scored_by};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, count, extreme, most_frequent, s, together};

/// The first or last record of `list`, asked for by two of its fields together.
fn ends(list: &[Value], kind: Kind, q: &str, a: &str, b: &str) -> Option<Question> {
    let x = if kind == Kind::Head { list.first() } else { list.last() }?;
    let (one, two) = (s(x, a)?, s(x, b)?);
    Some(together(kind, q.into(), None, &[&one, &two]))
}

/// `top -b -n1`: the busiest task and the last listed; a task's command, user, resident
/// memory, CPU time and virtual memory by its PID; how many tasks there are, run as a
/// user, run a command or are in a state; the task with most CPU time, the one with most
/// resident memory and the user whose tasks used most CPU time.
pub(crate) fn top_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = tasks(ls);
    let r = Records { list: &rows };
    // CPU time per user, summed over their tasks.
    let mut per_user: BTreeMap<String, f64> = BTreeMap::new();
    for x in &rows {
        if let (Some(u), Some(t)) = (s(x, "USER"), cpu_seconds(&x["TIME+"])) {
            *per_user.entry(u).or_default() += t;
        }
    }
    vec![
        ends(&rows, Kind::Head, "Which task is listed first? Give its PID and command.", "PID", "COMMAND"),
        ends(&rows, Kind::Tail, "Which task is listed last? Give its PID and command.", "PID", "COMMAND"),
        r.lookup("What command is PID {key} running?", 0.3, "PID", "COMMAND"),
        r.lookup("Which user runs PID {key}?", 0.6, "PID", "USER"),
        r.lookup("How much resident memory (RES) does PID {key} use?", 0.9, "PID", "RES"),
        r.lookup("How much CPU time (TIME+) has PID {key} used?", 0.45, "PID", "TIME+"),
        r.lookup("How much virtual memory (VIRT) does PID {key} have?", 0.75, "PID", "VIRT"),
        Some(count("How many tasks are listed in total?", &["total", "tasks"], rows.len(), None)),
        about("USER", r.count("How many tasks run as {value}?", "USER", None)),
        about("COMMAND", r.count("How many tasks run the command {value}?", "COMMAND", None)),
        about("S", r.count("How many tasks are in the state {value}?", "S", None)),
        extreme(
            "Which task has used the most CPU time? Give its PID.",
            scored_by(&rows, |x| cpu_seconds(&x["TIME+"]), "PID"),
            true,
            Some("TIME+"),
        ),
        extreme(
            "Which task uses the most resident memory? Give its PID.",
            scored_by(&rows, |x| kib(&x["RES"]), "PID"),
            true,
            Some("RES"),
        ),
        extreme(
            "Whose tasks have used the most CPU time in total?",
            per_user.into_iter().map(|(u, t)| (t, u)).collect(),
            true,
            Some("USER"),
        ),
    ]
}

/// `df -hT`: the first filesystem and the last mount; how full a pod's persistent volume
/// is, its device and what is left on it, the size of a token volume and what a secret
/// volume uses; how many mounts are of a type, how many persistent volumes and secret
/// volumes pods mount; the fullest and the emptiest persistent volume, the largest one
/// and the type with most mounts.
pub(crate) fn df_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = mounts(ls);
    let r = Records { list: &rows };
    let under = |part: &'static str| move |x: &Value| x["Mounted on"].as_str().is_some_and(|m| m.contains(part));
    let pvcs = only(&rows, under("/volumes/kubernetes.io~csi/"));
    let secrets = only(&rows, under("/volumes/kubernetes.io~secret/"));
    let tokens = only(&rows, under("/volumes/kubernetes.io~projected/"));
    let (p, sec, tok) = (Records { list: &pvcs }, Records { list: &secrets }, Records { list: &tokens });
    let on = "Mounted on";
    vec![
        ends(&rows, Kind::Head, "Which filesystem is listed first, and where is it mounted?", "Filesystem", on),
        r.tail("Which mount point is listed last?", on),
        p.lookup("How full is the volume mounted at {key}? Give its Use%.", 0.3, on, "Use%"),
        p.lookup("Which device is mounted at {key}?", 0.8, on, "Filesystem"),
        p.lookup("How much space is left on the volume mounted at {key}?", 0.55, on, "Avail"),
        tok.lookup("What is the size of the tmpfs mounted at {key}?", 0.6, on, "Size"),
        sec.lookup("How much space does the secret volume at {key} use?", 0.45, on, "Used"),
        about("Type", r.count("How many mounts are of type {value}?", "Type", None)),
        Some(count(
            "How many persistent volumes (CSI mounts) are mounted into pods?",
            &["kubernetes.io~csi", "csi"],
            pvcs.len(),
            Some("Mounted on"),
        )),
        Some(count(
            "How many secret volumes are mounted into pods?",
            &["kubernetes.io~secret", "secret"],
            secrets.len(),
            Some("Mounted on"),
        )),
        extreme(
            "Which persistent volume mounted into a pod is the fullest? Give its mount point.",
            scored_by(&pvcs, |x| percent(&x["Use%"]), on),
            true,
            Some("Use%"),
        ),
        extreme(
            "Which persistent volume mounted into a pod is the emptiest? Give its mount point.",
            scored_by(&pvcs, |x| percent(&x["Use%"]), on),
            false,
            Some("Use%"),
        ),
        extreme(
            "Which persistent volume mounted into a pod has the most used space? Give its mount point.",
            scored_by(&pvcs, |x| df_bytes(&x["Used"]), on),
            true,
            Some("Used"),
        ),
        extreme(
            "Which filesystem type has the most mounts?",
            most_frequent(rows.iter().filter_map(|x| x["Type"].as_str())),
            true,
            Some("Type"),
        ),
    ]
}

/// `kubectl get events -A`: the first event's namespace and object, the last one's
/// object and reason; an object's reason, message, namespace and when it was last seen;
/// how many events are of a type, a reason or a namespace; the namespace with most
/// events, the object whose event repeated most and the commonest warning.
pub(crate) fn events_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = events(ls);
    let r = Records { list: &rows };
    let warnings = only(&rows, |x| x["TYPE"] == "Warning");
    vec![
        ends(
            &rows,
            Kind::Head,
            "Which object is the first event about, and in which namespace?",
            "NAMESPACE",
            "OBJECT",
        ),
        ends(&rows, Kind::Tail, "Which object is the last event about, and what is its reason?", "OBJECT", "REASON"),
        r.lookup("What is the reason of the event on {key}?", 0.3, "OBJECT", "REASON"),
        r.lookup("What does the event on {key} say?", 0.6, "OBJECT", "MESSAGE"),
        r.lookup("What does the event on {key} say?", 0.9, "OBJECT", "MESSAGE"),
        r.lookup("Which namespace is {key} in?", 0.45, "OBJECT", "NAMESPACE"),
        r.lookup("When was the event on {key} last seen?", 0.75, "OBJECT", "LAST SEEN"),
        about("TYPE", r.count("How many events are of type {value}?", "TYPE", None)),
        about("REASON", r.count("How many events have the reason {value}?", "REASON", None)),
        about("NAMESPACE", r.count("How many events are in the namespace {value}?", "NAMESPACE", None)),
        extreme(
            "Which namespace has the most events?",
            most_frequent(rows.iter().filter_map(|x| x["NAMESPACE"].as_str())),
            true,
            Some("NAMESPACE"),
        ),
        extreme(
            "Which object's event has repeated the most times?",
            scored_by(&rows, |x| x["repeats"].as_u64(), "OBJECT"),
            true,
            Some("LAST SEEN"),
        ),
        extreme(
            "Which warning reason occurs most often?",
            most_frequent(warnings.iter().filter_map(|x| x["REASON"].as_str())),
            true,
            Some("REASON"),
        ),
    ]
}

/// A pytest durations report: the slowest phase listed and the last one; how long a
/// test's call or setup took; how many phases of a kind or of a module are listed, how
/// many tests passed and were skipped; the slowest setup and teardown and the module
/// with most listed durations.
pub(crate) fn pytest_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = durations(ls);
    let r = Records { list: &rows };
    let calls = only(&rows, |x| x["phase"] == "call");
    let setups = only(&rows, |x| x["phase"] == "setup");
    let teardowns = only(&rows, |x| x["phase"] == "teardown");
    let (c, st) = (Records { list: &calls }, Records { list: &setups });
    let passed = summary_count(ls, "passed");
    let skipped = summary_count(ls, "skipped");
    vec![
        ends(
            &rows,
            Kind::Head,
            "Which test phase is the slowest listed? Give the test and the phase.",
            "nodeid",
            "phase",
        ),
        ends(
            &rows,
            Kind::Tail,
            "Which test is listed last among the durations, and how long did it take?",
            "nodeid",
            "duration",
        ),
        c.lookup("How long did the call of {key} take?", 0.3, "nodeid", "duration"),
        c.lookup("How long did the call of {key} take?", 0.6, "nodeid", "duration"),
        c.lookup("How long did the call of {key} take?", 0.9, "nodeid", "duration"),
        st.lookup("How long did the setup of {key} take?", 0.45, "nodeid", "duration"),
        st.lookup("How long did the setup of {key} take?", 0.75, "nodeid", "duration"),
        about("phase", r.count("How many {value} phases are listed among the durations?", "phase", None)),
        about("file", r.count("How many listed durations are from {value}?", "file", None)),
        passed.map(|n| count("How many tests passed?", &["passed"], n, None)),
        skipped.map(|n| count("How many tests were skipped?", &["skipped"], n, None)),
        extreme(
            "Which test has the slowest setup?",
            scored_by(&setups, |x| x["seconds"].as_f64(), "nodeid"),
            true,
            Some("setup"),
        ),
        extreme(
            "Which test has the slowest teardown?",
            scored_by(&teardowns, |x| x["seconds"].as_f64(), "nodeid"),
            true,
            Some("teardown"),
        ),
        extreme(
            "Which test module has the most listed durations?",
            most_frequent(rows.iter().filter_map(|x| x["file"].as_str())),
            true,
            Some("file"),
        ),
    ]
}
