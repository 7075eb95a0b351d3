//! The questions asked of the thirteenth part's text results, once their readers have made
//! records of them: `dmesg -T`, `git blame`, `cargo build` and `certbot certificates`.

use serde_json::Value;

use super::readers::{blame_rows, cargo_output, certificates, dmesg_lines, field};
use super::{only, scored_by};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, count, extreme, most_frequent, pick, s, together};

/// `dmesg -T`: the kernel, the latest message, which process the OOM killer ended at a
/// time and how large it was, which program segfaulted, which port a scanner tried, how
/// many kills, segfaults, drops and link losses, and the most blocked port and address,
/// the largest victim and the program that crashed most.
pub(crate) fn dmesg_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = dmesg_lines(ls);
    let msg = |x: &Value| x["msg"].as_str().unwrap_or("").to_owned();
    let kills = only(&rows, |x| msg(x).contains(": Killed process "));
    let faults = only(&rows, |x| msg(x).contains("]: segfault at "));
    let drops = only(&rows, |x| msg(x).starts_with("[UFW BLOCK]"));
    let downs = rows.iter().filter(|x| msg(x).ends_with("NIC Link is Down")).count();
    // The pid, name and anonymous memory of a killed process.
    let killed = |x: &Value| -> Option<(String, String, String)> {
        let m = msg(x);
        let rest = m.split("Killed process ").nth(1)?;
        let (pid, rest) = rest.split_once(" (")?;
        let name = rest.split(')').next()?;
        let anon = m.split("anon-rss:").nth(1)?.split(',').next()?;
        Some((pid.to_owned(), name.to_owned(), anon.to_owned()))
    };
    let faulted = |x: &Value| -> Option<String> { Some(msg(x).split('[').next()?.to_owned()) };
    let sources: Vec<String> =
        drops.iter().filter_map(|x| Some(field(x["msg"].as_str()?, "SRC")?.to_owned())).collect();
    let once = only(&drops, |x| {
        x["msg"].as_str().and_then(|m| field(m, "SRC")).is_some_and(|s| sources.iter().filter(|o| *o == s).count() == 1)
    });
    let ports: Vec<String> =
        drops.iter().filter_map(|x| Some(format!("DPT={}", field(x["msg"].as_str()?, "DPT")?))).collect();
    let kernel = ls.first().and_then(|l| l.split("Linux version ").nth(1)?.split(' ').next());
    vec![
        kernel.map(|k| together(Kind::Head, "Which kernel version is this machine running?".into(), None, &[k])),
        rows.last().map(|x| together(Kind::Tail, "What is the most recent kernel message?".into(), None, &[&msg(x)])),
        pick(&kills, 0.6, "Which process did the OOM killer kill at {key}?", &|x| s(x, "time"), &|x| {
            let (pid, name, _) = killed(x)?;
            Some(vec![s(x, "time")?, format!("Killed process {pid} ({name})")])
        }),
        pick(
            &kills,
            0.3,
            "How much anonymous memory was process {key} using when the OOM killer ended it?",
            &|x| killed(x).map(|k| k.0),
            &|x| {
                let (pid, _, anon) = killed(x)?;
                Some(vec![format!("Killed process {pid}"), format!("anon-rss:{anon}")])
            },
        ),
        pick(&faults, 0.5, "Which program segfaulted at {key}?", &|x| s(x, "time"), &|x| {
            Some(vec![s(x, "time")?, format!("{}[", faulted(x)?)])
        }),
        pick(
            &once,
            0.9,
            "Which port did the firewall block from {key}?",
            &|x| Some(field(x["msg"].as_str()?, "SRC")?.to_owned()),
            &|x| {
                let m = x["msg"].as_str()?;
                Some(vec![format!("SRC={}", field(m, "SRC")?), format!("DPT={}", field(m, "DPT")?)])
            },
        ),
        Some(count(
            "How many processes did the OOM killer kill?",
            &["Killed process", "oom-kill", "OOM kills"],
            kills.len(),
            None,
        )),
        Some(count("How many segfaults were logged?", &["segfault", "segfaults"], faults.len(), None)),
        Some(count("How many packets did the firewall block?", &["UFW BLOCK", "blocked"], drops.len(), None)),
        Some(count("How many times did eno2np1 lose its link?", &["Link is Down", "link down"], downs, None)),
        extreme(
            "Which port did the firewall block most often?",
            most_frequent(ports.iter().map(String::as_str)),
            true,
            Some("DPT"),
        ),
        extreme(
            "Which address did the firewall block most often?",
            most_frequent(sources.iter().map(String::as_str)),
            true,
            Some("SRC"),
        ),
        extreme(
            "Which process the OOM killer ended was using the most memory? Give its pid.",
            kills
                .iter()
                .filter_map(killed)
                .map(|(pid, _, anon)| (anon.trim_end_matches("kB").parse::<u64>().unwrap_or(0), pid))
                .collect(),
            true,
            Some("anon-rss"),
        ),
    ]
}

/// `git blame`: who last changed the first, the last and a given line and when, in which
/// commit a function was last changed, who wrote a line, how many lines an author or the
/// first commit or the old path still holds, who holds most, the latest commit and the
/// commit holding most lines.
pub(crate) fn blame_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = blame_rows(ls);
    let r = Records { list: &rows };
    let numbered = |x: &Value| Some(format!("{})", x["line"].as_str()?));
    let defs = only(&rows, |x| x["code"].as_str().is_some_and(|c| c.trim_start().starts_with("def ")));
    let distinct = |code: &str| rows.iter().filter(|y| y["code"] == code).count() == 1;
    let long = only(&rows, |x| x["code"].as_str().is_some_and(|c| c.trim().len() > 40 && distinct(c)));
    let ends = |x: Option<&Value>, kind: Kind, q: &str| {
        let x = x?;
        Some(together(kind, q.into(), None, &[x["commit"].as_str()?, x["author"].as_str()?, &numbered(x)?]))
    };
    let root = rows.iter().find_map(|x| x["commit"].as_str()?.strip_prefix('^'));
    let from_root = rows.iter().filter(|x| x["commit"].as_str().is_some_and(|c| c.starts_with('^'))).count();
    let old_path = rows.first().and_then(|x| x["path"].as_str()).filter(|p| !p.is_empty());
    let on_old = rows.iter().filter(|x| old_path.is_some_and(|p| x["path"] == p)).count();
    // Each commit once, with its date.
    let mut commits: Vec<(String, String)> =
        rows.iter().filter_map(|x| Some((x["when"].as_str()?.to_owned(), x["sha"].as_str()?.to_owned()))).collect();
    commits.sort();
    commits.dedup();
    vec![
        ends(rows.first(), Kind::Head, "Who last changed the first line of the file, and in which commit?"),
        ends(rows.last(), Kind::Tail, "Who last changed the last line of the file, and in which commit?"),
        pick(&rows, 0.6, "Who last changed line {key}?", &|x| s(x, "line"), &|x| {
            Some(vec![s(x, "author")?, numbered(x)?])
        }),
        pick(&rows, 0.45, "When was line {key} last changed?", &|x| s(x, "line"), &|x| {
            Some(vec![s(x, "date")?, numbered(x)?])
        }),
        pick(
            &defs,
            0.3,
            "In which commit was `{key}` last changed?",
            &|x| Some(s(x, "code")?.trim().split('(').next()?.to_owned() + "("),
            &|x| Some(vec![s(x, "commit")?, s(x, "code")?.trim().split('(').next()?.to_owned() + "("]),
        ),
        pick(&long, 0.9, "Who wrote the line `{key}`?", &|x| Some(s(x, "code")?.trim().to_owned()), &|x| {
            Some(vec![s(x, "author")?, s(x, "code")?.trim().to_owned()])
        }),
        about("author", r.count("How many lines of the file did {value} last change?", "author", None)),
        root.map(|c| count("How many lines still come from the file's first commit?", &[c], from_root, Some("commit"))),
        old_path.map(|p| count("How many lines still carry the file's old path?", &[p], on_old, Some("path"))),
        extreme(
            "Who last changed the most lines of this file?",
            most_frequent(rows.iter().filter_map(|x| x["author"].as_str())),
            true,
            Some("author"),
        ),
        extreme(
            "Which commit is the most recent change to this file?",
            commits.iter().map(|(w, c)| (w.clone(), c.clone())).collect(),
            true,
            Some("commit"),
        ),
        extreme(
            "Which commit holds the most lines of the file?",
            most_frequent(rows.iter().filter_map(|x| x["sha"].as_str())),
            true,
            Some("commit"),
        ),
    ]
}

/// The kind of a warning, its message without the names it is about.
fn kind_of(message: &str) -> &str {
    if message.contains("` is never ") {
        if message.ends_with("never read") { "is never read" } else { "is never used" }
    } else if message.starts_with("use of deprecated") {
        "use of deprecated"
    } else {
        message.split(": `").next().unwrap_or(message)
    }
}

/// `cargo build`: the first crate compiled, the crate that failed, what a warning at a
/// place says, where an unused item is, how many warnings a crate gave, how many crates
/// compiled and how many warnings are of a kind, and the crate, file and kind with most.
pub(crate) fn cargo_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let b = cargo_output(ls);
    let warnings = only(&b.diagnostics, |x| x["level"] == "warning");
    let unique = |m: &str| warnings.iter().filter(|y| y["message"] == m).count() == 1;
    let unused = only(&warnings, |x| x["message"].as_str().is_some_and(|m| m.ends_with(" is never used") && unique(m)));
    let kinds = |k: &str| warnings.iter().filter(|x| x["message"].as_str().is_some_and(|m| kind_of(m) == k)).count();
    let failed = ls.iter().rev().find_map(|l| l.strip_prefix("error: could not compile "));
    let first = b.compiled.first();
    vec![
        first.and_then(|c| {
            let v = c["version"].as_str()?;
            Some(together(Kind::Head, "Which crate does cargo compile first?".into(), None, &[c["name"].as_str()?, v]))
        }),
        failed.and_then(|f| {
            let name = f.split(' ').next()?;
            let errors = f.split(" due to ").nth(1)?.split(';').next()?;
            Some(together(
                Kind::Tail,
                "Which crate failed to compile, and with how many errors?".into(),
                None,
                &[name, errors],
            ))
        }),
        pick(&warnings, 0.6, "What does the warning at {key} say?", &|x| s(x, "at"), &|x| {
            Some(vec![s(x, "at")?, s(x, "message")?])
        }),
        pick(&warnings, 0.3, "What does the warning at {key} say?", &|x| s(x, "at"), &|x| {
            Some(vec![s(x, "at")?, s(x, "message")?])
        }),
        pick(
            &unused,
            0.5,
            "Where is the {key} that rustc says is never used?",
            &|x| Some(s(x, "message")?.trim_end_matches(" is never used").to_owned()),
            &|x| Some(vec![s(x, "message")?, s(x, "at")?]),
        ),
        pick(&b.counts, 0.6, "How many warnings did {key} generate?", &|x| s(x, "crate"), &|x| {
            Some(vec![s(x, "line")?.trim_start_matches("warning: ").to_owned()])
        }),
        Some(count("How many crates did cargo compile?", &["Compiling", "crates"], b.compiled.len(), None)),
        Some(count(
            "How many unused import warnings are there?",
            &["unused import", "unused imports"],
            kinds("unused import"),
            None,
        )),
        Some(count(
            "How many warnings are about deprecated functions?",
            &["deprecated", "use of deprecated"],
            kinds("use of deprecated"),
            None,
        )),
        extreme(
            "Which crate has the most warnings?",
            scored_by(&b.counts, |x| x["count"].as_str()?.parse::<u64>().ok(), "crate"),
            true,
            Some("generated"),
        ),
        extreme(
            "Which file has the most warnings?",
            most_frequent(warnings.iter().filter_map(|x| x["file"].as_str())),
            true,
            Some("-->"),
        ),
        extreme(
            "Which kind of warning is the most common?",
            most_frequent(warnings.iter().filter_map(|x| Some(kind_of(x["message"].as_str()?)))),
            true,
            Some("warning"),
        ),
    ]
}

/// `certbot certificates`: the first and last certificate, when one expires, which
/// domains it covers, its key type and serial, how many have expired, use RSA or are test
/// certificates, and the one expiring soonest, covering most domains and expired longest.
pub(crate) fn certbot_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let (certs, _invalid) = certificates(ls);
    let r = Records { list: &certs };
    let status = |x: &Value| x["status"].as_str().unwrap_or("").to_owned();
    let valid = only(&certs, |x| status(x).starts_with("VALID"));
    let expired = only(&certs, |x| status(x).ends_with("EXPIRED"));
    let rsa = certs.iter().filter(|x| x["key"] == "RSA").count();
    let test = certs.iter().filter(|x| status(x).contains("TEST_CERT")).count();
    vec![
        r.head("Which certificate is listed first?", "name"),
        r.tail("Which certificate is listed last?", "name"),
        r.lookup("When does the certificate {key} expire?", 0.6, "name", "expiry"),
        r.lookup("Which domains does the certificate {key} cover?", 0.3, "name", "domains"),
        r.lookup("Which key type does the certificate {key} use?", 0.9, "name", "key"),
        r.lookup("What is the serial number of the certificate {key}?", 0.45, "name", "serial"),
        Some(count("How many certificates have expired?", &["EXPIRED", "expired"], expired.len(), Some("Expiry Date"))),
        Some(count("How many certificates use RSA keys?", &["RSA"], rsa, Some("Key Type"))),
        (test > 0).then(|| {
            count("How many are test certificates?", &["TEST_CERT", "test certificates"], test, Some("Expiry Date"))
        }),
        extreme(
            "Which certificate expires soonest?",
            scored_by(&valid, |x| s(x, "expiry"), "name"),
            false,
            Some("Expiry Date"),
        ),
        about("Domains", r.extreme("Which certificate covers the most domains?", "domain_count", "name", true)),
        extreme(
            "Which certificate expired the longest ago?",
            scored_by(&expired, |x| s(x, "expiry"), "name"),
            false,
            Some("Expiry Date"),
        ),
    ]
}
