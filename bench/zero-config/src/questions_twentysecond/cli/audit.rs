//! The questions asked of `npm audit --json`: what someone triaging a dependency audit
//! asks of it (how severe one package is, which versions are affected, what an advisory
//! scores and where it is published, what a fix would change; how many packages are
//! critical or direct or unfixable, which package has the most advisories or drags in the
//! most others; the first and last packages listed and the summary's counts at the end).

use serde_json::Value;

use super::{before_last, ends, nth};
use crate::question::{Kind, Question, Records, text, value};
use crate::questions_blind::{about, count, extreme, most_frequent, only, pick, scored_by, together};

/// The strings of an array field of a record.
fn strings(x: &Value, field: &str) -> Vec<String> {
    x[field].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}

/// The advisories of every package, in the report's order (each names its package).
fn advisories(vulns: &[Value]) -> Vec<Value> {
    vulns.iter().flat_map(|v| v["via"].as_array().into_iter().flatten().filter(|a| a.is_object()).cloned()).collect()
}

/// The names of the packages a package is vulnerable through (the strings of `via`).
fn through(x: &Value) -> Vec<String> {
    x["via"].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}

/// Every question about the audit report `v`.
pub(crate) fn audit_questions(v: &Value) -> Vec<Option<Question>> {
    let vulns: Vec<Value> = v["vulnerabilities"].as_object().map(|m| m.values().cloned().collect()).unwrap_or_default();
    let advisories = advisories(&vulns);
    let mut qs = lookups(&vulns, &advisories);
    qs.extend(aggregates(&vulns, &advisories));
    qs.extend(ends_of(v, &vulns, &advisories));
    qs
}

/// A package's severity and affected range, an advisory's URL, score, package and CWE,
/// what a package depends on and makes vulnerable, how it would be fixed, where it is.
fn lookups(vulns: &[Value], advisories: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: vulns };
    let a = Records { list: advisories };
    let via_only = only(vulns, |x| {
        x["via"].as_array().is_some_and(|v| !v.is_empty() && v.len() <= 3 && v.iter().all(Value::is_string))
    });
    let affecting = only(vulns, |x| x["effects"].as_array().is_some_and(|e| (1..=3).contains(&e.len())));
    let changes = only(vulns, |x| x["fixAvailable"].is_object());
    let nested = only(vulns, |x| x["nodes"].as_array().is_some_and(|n| n.len() >= 2));
    let scored = only(advisories, |x| x["cvss"]["score"].as_f64().is_some_and(|s| s > 0.0));
    let name = |x: &Value| x["name"].as_str().map(str::to_owned);
    vec![
        r.lookup("What severity does npm audit give {key}?", 0.35, "name", "severity"),
        r.lookup("Which versions of {key} are affected?", 0.55, "name", "range"),
        r.lookup("Which versions of {key} are vulnerable, per the audit?", 0.9, "name", "range"),
        a.lookup("Where is the advisory \"{key}\" published (its URL)?", 0.4, "title", "url"),
        Records { list: &scored }.lookup(
            "What CVSS score does the advisory \"{key}\" have?",
            0.75,
            "title",
            "cvss.score",
        ),
        a.lookup("Which package is the advisory {key} filed against?", 0.85, "url", "name"),
        a.lookup("Which CWE does the advisory \"{key}\" list first?", 0.2, "title", "cwe[0]"),
        pick(&via_only, 0.5, "Through which vulnerable dependencies is {key} affected?", &name, &|x| {
            Some([vec![name(x)?], through(x)].concat())
        }),
        pick(&affecting, 0.6, "Which packages does a vulnerable {key} make vulnerable in turn?", &name, &|x| {
            Some([vec![name(x)?], strings(x, "effects")].concat())
        }),
        pick(&changes, 0.45, "What would npm audit fix install to fix {key}?", &name, &|x| {
            Some(vec![name(x)?, value(x, "fixAvailable.name").map(text)?, value(x, "fixAvailable.version").map(text)?])
        }),
        pick(&nested, 0.5, "Where in node_modules is {key} installed?", &name, &|x| {
            Some([vec![name(x)?], strings(x, "nodes")].concat())
        }),
    ]
}

/// Counts of packages by severity, directness and fix, of advisories by score; the
/// package with the most advisories, effects, install paths or vulnerable dependencies,
/// and the commonest CWE.
fn aggregates(vulns: &[Value], advisories: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: vulns };
    let n = |keep: &dyn Fn(&Value) -> bool| vulns.iter().filter(|x| keep(x)).count();
    let severe = |x: &Value, s: &str| x["severity"] == s;
    let direct = |x: &Value| x["isDirect"] == true;
    let cwes: Vec<String> = advisories.iter().flat_map(|a| strings(a, "cwe")).collect();
    let high_score = advisories.iter().filter(|a| a["cvss"]["score"].as_f64().is_some_and(|s| s >= 9.0)).count();
    let directs = only(vulns, |x| direct(x));
    let len = |f: &'static str| move |x: &Value| x[f].as_array().map(Vec::len);
    vec![
        Some(count(
            "How many packages does npm audit rate critical?",
            &["critical"],
            n(&|x| severe(x, "critical")),
            Some("severity"),
        )),
        Some(count(
            "How many vulnerable packages are direct dependencies?",
            &["direct", "isDirect"],
            n(&direct),
            Some("isDirect"),
        )),
        Some(count(
            "How many critical vulnerabilities are in direct dependencies?",
            &["critical", "direct"],
            n(&|x| direct(x) && severe(x, "critical")),
            Some("isDirect"),
        )),
        Some(count(
            "How many high-severity packages have no fix available?",
            &["no fix", "fixAvailable"],
            n(&|x| severe(x, "high") && x["fixAvailable"] == false),
            Some("fixAvailable"),
        )),
        Some(count(
            "How many packages can only be fixed by a breaking (semver-major) change?",
            &["isSemVerMajor", "breaking", "semver-major"],
            n(&|x| x["fixAvailable"]["isSemVerMajor"] == true),
            Some("fixAvailable"),
        )),
        Some(count("How many advisories does the report carry?", &["advisories"], advisories.len(), Some("via"))),
        Some(count(
            "How many advisories have a CVSS score of 9.0 or more?",
            &["CVSS", "9.0"],
            high_score,
            Some("score"),
        )),
        about("severity", r.count("How many packages are rated {value}?", "severity", None)),
        extreme(
            "Which package has the most advisories?",
            most_frequent(advisories.iter().filter_map(|a| a["name"].as_str())),
            true,
            Some("via"),
        ),
        extreme(
            "Which package makes the most other packages vulnerable?",
            scored_by(vulns, len("effects"), "name"),
            true,
            Some("effects"),
        ),
        extreme(
            "Which package is installed in the most places?",
            scored_by(vulns, len("nodes"), "name"),
            true,
            Some("nodes"),
        ),
        extreme(
            "Which CWE do the most advisories list?",
            most_frequent(cwes.iter().map(String::as_str)),
            true,
            Some("cwe"),
        ),
        extreme(
            "Which direct dependency is vulnerable through the most packages?",
            scored_by(&directs, |x| Some(through(x).len()), "name"),
            true,
            Some("via"),
        ),
    ]
}

/// The first packages listed and the first advisory; the last packages, the last
/// advisory and the summary's counts, which close the report.
fn ends_of(v: &Value, vulns: &[Value], advisories: &[Value]) -> Vec<Option<Question>> {
    let (first, last) = (vulns.first(), vulns.last());
    let summary = |q: &str, path: &str| value(v, path).map(text).map(|n| together(Kind::Tail, q.into(), None, &[&n]));
    vec![
        ends(first, Kind::Head, "Which package does npm audit list first?", &["name"]),
        ends(first, Kind::Head, "How severe is the first package listed?", &["name", "severity"]),
        ends(first, Kind::Head, "Which versions of the first package listed are affected?", &["name", "range"]),
        ends(first, Kind::Head, "Is the first package listed a direct dependency?", &["name", "isDirect"]),
        ends(first, Kind::Head, "Where is the first package listed installed?", &["nodes[0]"]),
        ends(nth(vulns, 1), Kind::Head, "Which package is listed second, and how severe is it?", &["name", "severity"]),
        ends(nth(vulns, 2), Kind::Head, "Which package is listed third?", &["name"]),
        ends(nth(vulns, 3), Kind::Head, "Which package is listed fourth?", &["name"]),
        ends(advisories.first(), Kind::Head, "What is the title of the first advisory in the report?", &["title"]),
        ends(advisories.first(), Kind::Head, "What is the URL of the first advisory in the report?", &["url"]),
        ends(last, Kind::Tail, "Which package does npm audit list last?", &["name"]),
        ends(last, Kind::Tail, "How severe is the last package listed?", &["name", "severity"]),
        ends(last, Kind::Tail, "Which versions of the last package listed are affected?", &["name", "range"]),
        ends(before_last(vulns), Kind::Tail, "Which package is listed second to last?", &["name"]),
        ends(advisories.last(), Kind::Tail, "What is the title of the last advisory in the report?", &["title"]),
        summary(
            "How many vulnerable packages does the report's summary count in total?",
            "metadata.vulnerabilities.total",
        ),
        summary("How many moderate vulnerabilities does the summary count?", "metadata.vulnerabilities.moderate"),
        summary("How many production dependencies does the project have, per the audit?", "metadata.dependencies.prod"),
        summary("How many dev dependencies does the project have, per the audit?", "metadata.dependencies.dev"),
        summary("How many optional dependencies does the audit count?", "metadata.dependencies.optional"),
        summary("How many dependencies does the audit count in all?", "metadata.dependencies.total"),
    ]
}
