//! The questions asked of `gh run view --log`: what someone whose CI run went red asks
//! of its log (which test failed in a job and how the job ended, which Node, Python or
//! crate version a job used, what a route weighs, when a step began; which job had the
//! most warnings or ran longest, how many jobs failed, how many crates were compiled;
//! how the log begins and how it ends).

use serde_json::{Value, json};

use super::readers::{run_log, seconds_between};
use super::{ends, lookup_many};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{count, extreme, most_frequent, only, scored_by, together};

/// A text field of a line record.
fn f<'a>(x: &'a Value, k: &str) -> &'a str {
    x[k].as_str().unwrap_or("")
}

/// The lines whose text starts with `prefix`.
fn starting(ls: &[Value], prefix: &str) -> Vec<Value> {
    only(ls, |x| f(x, "text").starts_with(prefix))
}

/// The lines of `job`.
fn of(ls: &[Value], job: &str) -> Vec<Value> {
    only(ls, |x| f(x, "job") == job)
}

/// Per job (in log order) its name, first and last timestamp, and how long it ran.
fn jobs(ls: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for l in ls {
        match out.last_mut() {
            Some(j) if j["job"] == l["job"] => j["last"] = l["ts"].clone(),
            _ => out.push(json!({"job": l["job"], "first": l["ts"], "last": l["ts"]})),
        }
    }
    for j in &mut out {
        j["seconds"] = json!(seconds_between(f(j, "first"), f(j, "last")));
    }
    out
}

/// Per step of `job` its name, first timestamp and how long it ran (to the next step).
fn steps(ls: &[Value], job: &str) -> Vec<Value> {
    let mine = of(ls, job);
    let mut out: Vec<Value> = Vec::new();
    for l in &mine {
        if out.last().is_none_or(|s| s["step"] != l["step"]) {
            out.push(json!({"job": job, "step": l["step"], "first": l["ts"]}));
        }
    }
    let end = mine.last().map(|l| f(l, "ts").to_owned()).unwrap_or_default();
    let starts: Vec<String> = out.iter().map(|s| f(s, "first").to_owned()).collect();
    for (i, s) in out.iter_mut().enumerate() {
        let next = starts.get(i + 1).unwrap_or(&end);
        s["seconds"] = json!(seconds_between(&starts[i], next));
    }
    out
}

/// The crates `cargo build` compiled: name, version and the line (`Compiling serde v1.0.216`).
fn compiled(ls: &[Value]) -> Vec<Value> {
    ls.iter()
        .filter(|x| f(x, "step").starts_with("Run cargo build"))
        .filter_map(|x| {
            let line = f(x, "text").trim();
            let rest = line.strip_prefix("Compiling ")?;
            let (name, version) = rest.split_once(' ')?;
            Some(json!({"crate": name, "version": version.split(' ').next()?, "text": line}))
        })
        .collect()
}

/// The rows of Next.js's route table in `job`: route, own size and First Load JS.
fn routes(ls: &[Value], job: &str) -> Vec<Value> {
    ls.iter()
        .filter(|x| f(x, "job") == job && f(x, "step") == "Run npm run build")
        .filter_map(|x| {
            let rest = f(x, "text").strip_prefix(['┌', '├', '└'])?.trim_start();
            let mut parts = rest.split_whitespace();
            let (_kind, route) = (parts.next()?, parts.next()?);
            let cells: Vec<&str> = parts.collect();
            let [own, own_unit, first, first_unit] = cells.as_slice() else { return None };
            let kb: f64 = if *first_unit == "kB" { first.parse().ok()? } else { first.parse::<f64>().ok()? / 1000.0 };
            Some(json!({"route": route, "size": format!("{own} {own_unit}"), "first": format!("{first} {first_unit}"), "kb": kb}))
        })
        .collect()
}

/// The failing tests of each job: pytest's `FAILED path::test - …` and cargo's
/// `test name ... FAILED`.
fn failing_tests(ls: &[Value]) -> Vec<Value> {
    ls.iter()
        .filter_map(|x| {
            let t = f(x, "text");
            let test = match t.strip_prefix("FAILED ") {
                Some(rest) => rest.split(" - ").next()?,
                None => t.strip_prefix("test ")?.strip_suffix(" ... FAILED")?,
            };
            Some(json!({"job": x["job"], "test": test}))
        })
        .collect()
}

/// The files Vitest ran in `job`: file, test count (`9 tests`) and milliseconds.
fn vitest(ls: &[Value], job: &str) -> Vec<Value> {
    ls.iter()
        .filter(|x| f(x, "job") == job)
        .filter_map(|x| {
            let rest = f(x, "text").strip_prefix(" ✓ ")?;
            let (file, tail) = rest.split_once(" (")?;
            let ms: f64 = tail.rsplit(' ').next()?.strip_suffix("ms")?.parse().ok()?;
            Some(json!({"file": file, "tests": tail.split(')').next()?, "ms": ms}))
        })
        .collect()
}

/// Every question about the log `t`.
pub(crate) fn run_log_questions(t: &str) -> Vec<Option<Question>> {
    let ls = run_log(t);
    let mut qs = lookups(&ls);
    qs.extend(aggregates(&ls));
    qs.extend(heads_and_tails(&ls));
    qs
}

/// Versions a job set up or compiled, packages npm added, a route's size, the test a job
/// failed and how it ended, when a step started, a test file's size.
fn lookups(ls: &[Value]) -> Vec<Option<Question>> {
    let node = starting(ls, "node: v");
    let python = starting(ls, "Successfully set up CPython");
    let exits = starting(ls, "##[error]Process completed with exit code");
    let added = starting(ls, "added ");
    let crates = compiled(ls);
    let failing = failing_tests(ls);
    vec![
        Records { list: &node }.lookup(
            "Which Node.js version did setup-node set up in the {key} job?",
            0.5,
            "job",
            "text",
        ),
        Records { list: &added }.lookup("How many packages did npm ci add in the {key} job?", 0.7, "job", "text"),
        Records { list: &crates }.lookup("Which version of the crate {key} did cargo compile?", 0.5, "crate", "text"),
        Records { list: &crates }.lookup("Which version of the crate {key} did cargo compile?", 0.85, "crate", "text"),
        lookup_many(
            &routes(ls, "build (22.x)"),
            0.6,
            "How large is the route {key} in the build (22.x) job (size and First Load JS)?",
            "route",
            &["size", "first"],
        ),
        Records { list: &failing }.lookup("Which test failed in the {key} job?", 0.3, "job", "test"),
        Records { list: &failing }.lookup("Which test failed in the {key} job?", 0.9, "job", "test"),
        Records { list: &exits }.lookup("How did the {key} job's failing step end?", 0.2, "job", "text"),
        Records { list: &python }.lookup(
            "Which Python version did setup-python set up in the {key} job?",
            0.2,
            "job",
            "text",
        ),
        lookup_many(&steps(ls, "rust"), 0.5, "When did the step \"{key}\" of the rust job start?", "step", &["first"]),
        Records { list: &vitest(ls, "build (22.x)") }.lookup(
            "How many tests does {key} have, per Vitest in build (22.x)?",
            0.4,
            "file",
            "tests",
        ),
    ]
}

/// Warnings and errors by job, failed jobs, the longest job and step, compiled crates,
/// npm's deprecation notices, lines per job, the heaviest route and slowest test file.
fn aggregates(ls: &[Value]) -> Vec<Option<Question>> {
    let js = jobs(ls);
    let warnings = starting(ls, "##[warning]");
    let errors = starting(ls, "##[error]");
    let exits = starting(ls, "##[error]Process completed with exit code");
    let mut failed: Vec<&str> = exits.iter().map(|x| f(x, "job")).collect();
    failed.sort_unstable();
    failed.dedup();
    let lint_files = warnings.iter().filter_map(|x| f(x, "text").strip_prefix("##[warning]")?.split(':').next());
    let deprecated = of(ls, "lint").iter().filter(|x| f(x, "text").starts_with("npm warn deprecated")).count();
    let time = |x: &Value| x["seconds"].as_f64();
    vec![
        extreme(
            "Which job had the most warnings?",
            most_frequent(warnings.iter().map(|x| f(x, "job"))),
            true,
            Some("##[warning]"),
        ),
        Some(count(
            "How many ##[warning] lines does the log have?",
            &["warning", "warnings"],
            warnings.len(),
            Some("##[warning]"),
        )),
        Some(count(
            "How many ##[error] lines does the log have?",
            &["error", "errors"],
            errors.len(),
            Some("##[error]"),
        )),
        Some(count(
            "How many jobs failed with a non-zero exit code?",
            &["failed", "jobs"],
            failed.len(),
            Some("exit code"),
        )),
        Some(count("How many jobs does the log cover?", &["jobs"], js.len(), Some("job"))),
        extreme(
            "Which job ran the longest, from its first line to its last?",
            scored_by(&js, time, "job"),
            true,
            Some("timestamp"),
        ),
        extreme(
            "Which step of the rust job took the longest?",
            scored_by(&steps(ls, "rust"), time, "step"),
            true,
            Some("timestamp"),
        ),
        Some(count(
            "How many crates did cargo build compile in the rust job?",
            &["Compiling", "crates"],
            compiled(ls).len(),
            Some("Compiling"),
        )),
        Some(count(
            "How many deprecation notices did npm ci print in the lint job?",
            &["deprecated"],
            deprecated,
            Some("npm warn deprecated"),
        )),
        Some(count("How many lines did the audit job log?", &["lines"], of(ls, "audit").len(), Some("job"))),
        extreme("Which job logged the most lines?", most_frequent(ls.iter().map(|x| f(x, "job"))), true, Some("job")),
        extreme(
            "Which route has the largest First Load JS in the build (22.x) job?",
            scored_by(&routes(ls, "build (22.x)"), |x| x["kb"].as_f64(), "route"),
            true,
            Some("First Load JS"),
        ),
        extreme("Which file did ESLint warn about most often?", most_frequent(lint_files), true, Some("##[warning]")),
        extreme(
            "Which Vitest file took the longest in the build (22.x) job?",
            scored_by(&vitest(ls, "build (22.x)"), |x| x["ms"].as_f64(), "file"),
            true,
            Some("ms"),
        ),
    ]
}

/// How the log begins (the first job's runner, image, actions, checkout) and how it ends
/// (the last job's failure, summary, and last lines).
fn heads_and_tails(ls: &[Value]) -> Vec<Option<Question>> {
    let js = jobs(ls);
    let (first, last) = (ls.first(), ls.last());
    let head = js.first().map(|j| of(ls, f(j, "job"))).unwrap_or_default();
    let tail = js.last().map(|j| of(ls, f(j, "job"))).unwrap_or_default();
    let last_job = js.last().map(|j| f(j, "job").to_owned()).unwrap_or_default();
    let find = |list: &[Value], prefix: &str| list.iter().find(|x| f(x, "text").starts_with(prefix)).cloned();
    let find_last =
        |list: &[Value], prefix: &str| list.iter().rev().find(|x| f(x, "text").starts_with(prefix)).cloned();
    let after = |list: &[Value], text: &str| {
        list.iter().position(|x| f(x, "text").ends_with(text)).and_then(|i| list.get(i + 1)).cloned()
    };
    let after_setup = head.iter().find(|x| f(x, "step") != "Set up job").cloned();
    let mut tail_steps: Vec<&str> = Vec::new();
    for x in &tail {
        if tail_steps.last() != Some(&f(x, "step")) {
            tail_steps.push(f(x, "step"));
        }
    }
    let second_last_step = tail_steps.len().checked_sub(2).map(|i| tail_steps[i].to_owned());
    let summary =
        tail.iter().rev().find(|x| f(x, "text").starts_with('=') && f(x, "text").contains(" passed")).cloned();
    vec![
        ends(first, Kind::Head, "Which job's log comes first?", &["job"]),
        ends(first, Kind::Head, "Which runner version did the first job run on?", &["job", "text"]),
        ends(first, Kind::Head, "What is the timestamp of the log's first line?", &["ts"]),
        ends(
            after(&head, "Ubuntu").as_ref(),
            Kind::Head,
            "Which Ubuntu version did the first job's runner have?",
            &["text"],
        ),
        ends(
            after(&head, "Image: ubuntu-24.04").as_ref(),
            Kind::Head,
            "Which runner image version did the first job use?",
            &["text"],
        ),
        ends(
            find(&head, "Download action repository").as_ref(),
            Kind::Head,
            "Which action did the first job download first, and at which SHA?",
            &["text"],
        ),
        ends(
            after_setup.as_ref(),
            Kind::Head,
            "Which step comes right after Set up job in the first job?",
            &["job", "step"],
        ),
        ends(
            after(&head, "git log -1 --format=%H").as_ref(),
            Kind::Head,
            "Which commit did the first job check out?",
            &["text"],
        ),
        ends(
            find(&head, " * [new ref]").as_ref(),
            Kind::Head,
            "Which pull request ref did the first job fetch?",
            &["text"],
        ),
        ends(
            find(&head, "added ").as_ref(),
            Kind::Head,
            "How many packages did npm ci add in the first job?",
            &["job", "text"],
        ),
        ends(last, Kind::Tail, "Which job's log comes last?", &["job"]),
        ends(last, Kind::Tail, "What is the timestamp of the log's last line?", &["ts"]),
        ends(
            last,
            Kind::Tail,
            "What is the last line of the log, and which step printed it?",
            &["job", "step", "text"],
        ),
        ends(
            find_last(ls, "##[error]").as_ref(),
            Kind::Tail,
            "What does the last ##[error] line of the log say, and in which job?",
            &["job", "text"],
        ),
        ends(summary.as_ref(), Kind::Tail, "What was pytest's final summary in the last job?", &["text"]),
        ends(find_last(&tail, "FAILED ").as_ref(), Kind::Tail, "Which test failed in the last job?", &["text"]),
        ends(tail.first(), Kind::Tail, "When did the last job start?", &["job", "ts"]),
        ends(
            find_last(&tail, "Successfully set up CPython").as_ref(),
            Kind::Tail,
            "Which Python version did the last job set up?",
            &["job", "text"],
        ),
        ends(
            find_last(&tail, "collected ").as_ref(),
            Kind::Tail,
            "How many tests did pytest collect in the last job?",
            &["job", "text"],
        ),
        second_last_step.map(|s| {
            together(Kind::Tail, "Which step comes second to last in the last job?".into(), None, &[&last_job, &s])
        }),
    ]
}
