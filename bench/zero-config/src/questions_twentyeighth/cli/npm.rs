//! The questions asked of `npm outdated --json --long`: what a maintainer planning
//! upgrades asks (which version of a package is installed, what its range allows and
//! what is latest, which workspace depends on it, whether it is a dependency or a
//! devDependency, where it is installed, its homepage; how many packages are outdated,
//! how many a major version behind, pinned, not installed, used by several workspaces,
//! how many @types packages and how many a workspace depends on; the workspace with the
//! most outdated packages and the package used by the most workspaces; the first
//! packages and the last).

use serde_json::{Value, json};

use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, only, scored_by};
use crate::record_questions::{about_record, lookup};

/// Every package with its entries: `name`, `entries` (one per dependent workspace), and
/// the first entry's fields lifted up (`current`, `wanted`, `latest`, `dependent`,
/// `location`, `type`, `homepage`).
pub(crate) fn packages(v: &Value) -> Vec<Value> {
    let Some(map) = v.as_object() else { return Vec::new() };
    map.iter()
        .map(|(name, e)| {
            let entries = match e {
                Value::Array(list) => list.clone(),
                one => vec![one.clone()],
            };
            let mut x = entries.first().cloned().unwrap_or_else(|| json!({}));
            x["name"] = json!(name);
            x["dependents"] = json!(entries.len());
            x["entries"] = json!(entries);
            x
        })
        .collect()
}

/// The major version of a version string.
pub(crate) fn major(v: &Value) -> Option<u64> {
    v.as_str()?.split('.').next()?.parse().ok()
}

/// Every question about the output `v`.
pub(crate) fn npm_questions(v: &Value) -> Vec<Option<Question>> {
    let all = packages(v);
    let mut qs = lookups(&all);
    qs.extend(aggregates(&all));
    qs.extend(heads_and_tails(&all));
    qs
}

/// A package's versions, dependent, kind, location and homepage.
fn lookups(all: &[Value]) -> Vec<Option<Question>> {
    let single = only(all, |p| p["dependents"] == 1);
    let versions_q = "Which version of {key} is installed, and what is the latest?";
    vec![
        lookup(&single, 0.15, versions_q, "name", &["current", "latest"]),
        lookup(&single, 0.5, versions_q, "name", &["current", "latest"]),
        lookup(&single, 0.85, versions_q, "name", &["current", "latest"]),
        lookup(
            &single,
            0.35,
            "Up to which version does the declared range of {key} allow (wanted)?",
            "name",
            &["wanted"],
        ),
        lookup(&single, 0.6, "Which workspace depends on {key}?", "name", &["dependent"]),
        lookup(&single, 0.95, "Which workspace depends on {key}?", "name", &["dependent"]),
        lookup(&single, 0.7, "Is {key} declared as a dependency or a devDependency?", "name", &["type"]),
        lookup(&single, 0.25, "Where is {key} installed?", "name", &["location"]),
        lookup(all, 0.45, "What is the homepage of {key}?", "name", &["homepage"]),
        lookup(all, 0.8, "What is the latest version of {key} on the registry?", "name", &["latest"]),
    ]
}

/// How many packages are in a state; the busiest workspace and most shared package.
fn aggregates(all: &[Value]) -> Vec<Option<Question>> {
    let n = |keep: &dyn Fn(&Value) -> bool| all.iter().filter(|p| keep(p)).count();
    let entries: Vec<Value> = all.iter().flat_map(|p| p["entries"].as_array().cloned().unwrap_or_default()).collect();
    let by_workspace = most_frequent(entries.iter().filter_map(|e| e["dependent"].as_str()));
    let top = by_workspace.iter().max().cloned();
    let mut qs = vec![
        Some(count("How many packages are outdated?", &["packages"], all.len(), None)),
        Some(count(
            "How many outdated packages does more than one workspace depend on?",
            &["workspaces"],
            n(&|p| p["dependents"].as_u64().is_some_and(|d| d > 1)),
            Some("dependent"),
        )),
        Some(count(
            "How many outdated packages are a major version behind (latest's major above the installed one)?",
            &["major"],
            n(&|p| p["current"].is_string() && major(&p["latest"]) > major(&p["current"])),
            Some("latest"),
        )),
        Some(count(
            "How many outdated packages are declared as devDependencies?",
            &["devDependencies"],
            n(&|p| p["type"] == "devDependencies"),
            Some("type"),
        )),
        Some(count(
            "How many outdated packages are not installed at all (no current version)?",
            &["current"],
            n(&|p| p["current"].is_null()),
            Some("current"),
        )),
        Some(count(
            "How many outdated packages are already at the newest version their range allows (wanted equals current)?",
            &["wanted"],
            n(&|p| p["current"].is_string() && p["wanted"] == p["current"]),
            Some("wanted"),
        )),
        Some(count(
            "How many @types packages are outdated?",
            &["@types"],
            n(&|p| p["name"].as_str().is_some_and(|s| s.starts_with("@types/"))),
            None,
        )),
        extreme(
            "Which workspace depends on the most outdated packages?",
            by_workspace.clone(),
            true,
            Some("dependent"),
        ),
        extreme(
            "Which outdated package is depended on by the most workspaces?",
            scored_by(all, |p| p["dependents"].as_u64(), "name"),
            true,
            Some("dependent"),
        ),
        extreme(
            "Which outdated package is the most major versions behind?",
            scored_by(all, |p| major(&p["latest"])?.checked_sub(major(&p["current"])?), "name"),
            true,
            Some("latest"),
        ),
    ];
    if let Some((c, ws)) = top {
        let text = format!("How many outdated packages does {ws} depend on?");
        qs.push(Some(count(&text, &[&ws], c, Some("dependent"))));
    }
    qs
}

/// The first packages by name; the last.
fn heads_and_tails(all: &[Value]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().take(8).enumerate() {
        let text = format!("Which package is listed {ordinal}, and what are its wanted and latest versions?");
        qs.push(about_record(all.get(k), Kind::Head, &text, &["name", "wanted", "latest"]));
    }
    qs.push(about_record(
        all.first(),
        Kind::Head,
        "Which workspace depends on the first package listed?",
        &["name", "dependent"],
    ));
    for back in 0..9 {
        let p = all.len().checked_sub(back + 1).and_then(|i| all.get(i));
        let text = format!("Which package is listed {}, and what are its wanted and latest versions?", to_last(back));
        qs.push(about_record(p, Kind::Tail, &text, &["name", "wanted", "latest"]));
    }
    qs
}
