//! The questions asked of `go list -m -json all`: what a Go developer asks of the build
//! list (which version of a module is selected and when it was published, which Go
//! version its go.mod asks for, what it is replaced with, whether it is indirect; how
//! many modules there are, how many are indirect, replaced, at a pseudo-version or not
//! extracted, how many come from golang.org/x or k8s.io, the newest and oldest module,
//! the organisation with the most modules; the main module and the first modules at the
//! top, the last modules at the end).

use serde_json::Value;

use super::readers::go_modules;
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, only, scored_by};
use crate::record_questions::{about_record, lookup};

/// Whether a version is a pseudo-version (`v0.0.0-20240604190554-fc45aab8b7f8`).
pub(crate) fn is_pseudo(version: &str) -> bool {
    let parts: Vec<&str> = version.split('-').collect();
    parts.len() >= 3
        && parts[parts.len() - 1].len() == 12
        && parts[parts.len() - 2]
            .rsplit('.')
            .next()
            .is_some_and(|s| s.len() == 14 && s.bytes().all(|b| b.is_ascii_digit()))
}

/// Every question about the output `t`.
pub(crate) fn go_list_questions(t: &str) -> Vec<Option<Question>> {
    let all = go_modules(t);
    let main = all.first().cloned();
    let deps: Vec<Value> = all.iter().filter(|m| m["Main"] != true).cloned().collect();
    let mut qs = lookups(&deps);
    qs.extend(aggregates(&deps));
    qs.extend(heads_and_tails(main.as_ref(), &deps));
    qs
}

/// A module's version, time, Go version, replacement and whether it is indirect.
fn lookups(deps: &[Value]) -> Vec<Option<Question>> {
    let pinned = only(deps, |m| m["Replace"]["Version"].is_string());
    let local = only(deps, |m| m["Replace"]["Path"].as_str().is_some_and(|p| p.starts_with("../")));
    let indirect = only(deps, |m| m["Indirect"] == true);
    let version_q = "Which version of {key} does the build use?";
    vec![
        lookup(deps, 0.2, version_q, "Path", &["Version"]),
        lookup(deps, 0.5, version_q, "Path", &["Version"]),
        lookup(deps, 0.8, version_q, "Path", &["Version"]),
        lookup(deps, 0.35, "When was the selected version of {key} published?", "Path", &["Version", "Time"]),
        lookup(deps, 0.65, "Which Go version does the go.mod of {key} ask for?", "Path", &["GoVersion"]),
        lookup(deps, 0.9, "Which Go version does the go.mod of {key} ask for?", "Path", &["GoVersion"]),
        lookup(&pinned, 0.5, "Which version is {key} replaced with?", "Path", &["Replace.Version"]),
        lookup(&local, 0.0, "Which local directory replaces {key}?", "Path", &["Replace.Path", "Replace.Dir"]),
        lookup(
            &indirect,
            0.45,
            "Is {key} an indirect dependency, and at which version?",
            "Path",
            &["Indirect", "Version"],
        ),
        lookup(deps, 0.75, "Where is {key} in the module cache (its Dir)?", "Path", &["Dir"]),
    ]
}

/// How many modules are of a kind; the newest and oldest; the busiest organisation.
fn aggregates(deps: &[Value]) -> Vec<Option<Question>> {
    let n = |keep: &dyn Fn(&Value) -> bool| deps.iter().filter(|x| keep(x)).count();
    let path = |m: &Value, prefix: &str| m["Path"].as_str().is_some_and(|p| p.starts_with(prefix));
    let owners: Vec<String> = deps
        .iter()
        .filter_map(|m| m["Path"].as_str())
        .filter(|p| p.starts_with("github.com/"))
        .filter_map(|p| p.split('/').take(2).collect::<Vec<_>>().get(1).map(|o| format!("github.com/{o}")))
        .collect();
    vec![
        Some(count(
            "How many modules besides the main module are in the build list?",
            &["modules"],
            deps.len(),
            Some("Path"),
        )),
        Some(count(
            "How many modules are marked indirect?",
            &["Indirect"],
            n(&|m| m["Indirect"] == true),
            Some("Indirect"),
        )),
        Some(count("How many modules are replaced?", &["Replace"], n(&|m| m["Replace"].is_object()), Some("Replace"))),
        Some(count(
            "How many modules are at a pseudo-version?",
            &["pseudo"],
            n(&|m| m["Version"].as_str().is_some_and(is_pseudo)),
            Some("Version"),
        )),
        Some(count(
            "How many modules have no Dir (their code is not needed by the build)?",
            &["Dir"],
            n(&|m| m["Dir"].is_null()),
            Some("Dir"),
        )),
        Some(count(
            "How many golang.org/x modules are there?",
            &["golang.org/x"],
            n(&|m| path(m, "golang.org/x/")),
            Some("Path"),
        )),
        Some(count("How many k8s.io modules are there?", &["k8s.io"], n(&|m| path(m, "k8s.io/")), Some("Path"))),
        Some(count(
            "How many modules come from github.com?",
            &["github.com"],
            n(&|m| path(m, "github.com/")),
            Some("Path"),
        )),
        extreme(
            "Which module's selected version was published most recently?",
            scored_by(deps, |m| m["Time"].as_str().map(str::to_owned), "Path"),
            true,
            Some("Time"),
        ),
        extreme(
            "Which module's selected version is the oldest?",
            scored_by(deps, |m| m["Time"].as_str().map(str::to_owned), "Path"),
            false,
            Some("Time"),
        ),
        extreme(
            "Which GitHub organisation has the most modules in the build list?",
            most_frequent(owners.iter().map(String::as_str)),
            true,
            Some("Path"),
        ),
        extreme(
            "Which indirect module was published most recently?",
            scored_by(&only(deps, |m| m["Indirect"] == true), |m| m["Time"].as_str().map(str::to_owned), "Path"),
            true,
            Some("Time"),
        ),
    ]
}

/// The main module and the first modules; the last modules.
fn heads_and_tails(main: Option<&Value>, deps: &[Value]) -> Vec<Option<Question>> {
    let mut qs = vec![
        about_record(main, Kind::Head, "What is the main module's path, and where is it?", &["Path", "Dir"]),
        about_record(main, Kind::Head, "Which Go version does the main module ask for?", &["Path", "GoVersion"]),
        about_record(main, Kind::Head, "Where is the main module's go.mod?", &["GoMod"]),
    ];
    for (k, ordinal) in ORDINALS.iter().take(6).enumerate() {
        let text = format!("Which module is listed {ordinal} after the main module, and at which version?");
        qs.push(about_record(deps.get(k), Kind::Head, &text, &["Path", "Version"]));
    }
    for back in 0..9 {
        let m = deps.len().checked_sub(back + 1).and_then(|i| deps.get(i));
        let text = format!("Which module is listed {}, and at which version?", to_last(back));
        qs.push(about_record(m, Kind::Tail, &text, &["Path", "Version"]));
    }
    qs
}
