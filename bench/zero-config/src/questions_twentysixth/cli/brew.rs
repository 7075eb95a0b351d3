//! The questions asked of `brew info --json=v2 --installed` on a developer's Mac: what its
//! owner asks (which version of a formula is installed and which is current, its license
//! and homepage, whether it was installed on request or as a dependency, the formula with
//! a description, a cask's installed version; how many formulae are outdated, keg-only,
//! pinned or were asked for, how many casks are installed or outdated, which formula has
//! the most runtime dependencies or was installed last; the first formulae at the top,
//! the last formulae and casks at the end).

use serde_json::{Value, json};

use super::{ORDINALS, from_end, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, only, scored_by};
use crate::record_questions::{about_record, lookup};

/// Every installed formula with its keg's facts lifted up: `installed_version`,
/// `on_request`, `as_dependency`, `runtime` (how many runtime dependencies), `time`.
pub(crate) fn formulae(v: &Value) -> Vec<Value> {
    v["formulae"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            let keg = &f["installed"][0];
            let mut x = f.clone();
            x["installed_version"] = keg["version"].clone();
            x["on_request"] = keg["installed_on_request"].clone();
            x["as_dependency"] = keg["installed_as_dependency"].clone();
            x["runtime"] = json!(keg["runtime_dependencies"].as_array().map_or(0, Vec::len));
            x["time"] = keg["time"].clone();
            x
        })
        .collect()
}

/// Every question about the output `v`.
pub(crate) fn brew_questions(v: &Value) -> Vec<Option<Question>> {
    let formulae = formulae(v);
    let casks: Vec<Value> = v["casks"].as_array().cloned().unwrap_or_default();
    let mut qs = lookups(&formulae, &casks);
    qs.extend(aggregates(&formulae, &casks));
    qs.extend(heads_and_tails(&formulae, &casks));
    qs
}

/// A formula's versions, license, homepage and why it is there; a cask's version.
fn lookups(formulae: &[Value], casks: &[Value]) -> Vec<Option<Question>> {
    let third_party = only(formulae, |f| f["tap"] != "homebrew/core");
    vec![
        lookup(formulae, 0.2, "Which version of {key} is installed?", "name", &["installed_version"]),
        lookup(formulae, 0.55, "Which version of {key} is installed?", "name", &["installed_version"]),
        lookup(formulae, 0.9, "Which version of {key} is installed?", "name", &["installed_version"]),
        lookup(formulae, 0.35, "Which license is {key} under?", "name", &["license"]),
        lookup(formulae, 0.75, "Which license is {key} under?", "name", &["license"]),
        lookup(formulae, 0.65, "Was {key} installed on request (installed_on_request)?", "name", &["on_request"]),
        lookup(formulae, 0.6, "What is the homepage of {key}?", "name", &["homepage"]),
        lookup(formulae, 0.3, "Which formula is described as \"{key}\"?", "desc", &["name"]),
        lookup(
            formulae,
            0.45,
            "What is the current stable version of {key}, and is the installed one outdated?",
            "name",
            &["versions.stable", "outdated"],
        ),
        lookup(casks, 0.5, "Which version of the cask {key} is installed?", "token", &["installed"]),
        lookup(&third_party, 0.5, "Which tap does the formula {key} come from?", "name", &["tap"]),
    ]
}

/// How many formulae and casks are in a state; which formula depends on most.
fn aggregates(formulae: &[Value], casks: &[Value]) -> Vec<Option<Question>> {
    let n = |list: &[Value], keep: &dyn Fn(&Value) -> bool| list.iter().filter(|x| keep(x)).count();
    vec![
        Some(count(
            "How many installed formulae are outdated?",
            &["outdated"],
            n(formulae, &|f| f["outdated"] == true),
            Some("outdated"),
        )),
        Some(count(
            "How many formulae were installed on request?",
            &["installed_on_request"],
            n(formulae, &|f| f["on_request"] == true),
            Some("installed_on_request"),
        )),
        Some(count(
            "How many formulae were installed only as a dependency (not on request)?",
            &["dependency"],
            n(formulae, &|f| f["on_request"] == false),
            Some("installed_on_request"),
        )),
        Some(count(
            "How many installed formulae are keg-only?",
            &["keg_only"],
            n(formulae, &|f| f["keg_only"] == true),
            Some("keg_only"),
        )),
        Some(count(
            "How many formulae are pinned?",
            &["pinned"],
            n(formulae, &|f| f["pinned"] == true),
            Some("pinned"),
        )),
        Some(count("How many formulae are installed?", &["formulae"], formulae.len(), Some("name"))),
        Some(count("How many casks are installed?", &["casks"], casks.len(), Some("token"))),
        Some(count(
            "How many casks are outdated?",
            &["outdated"],
            n(casks, &|c| c["outdated"] == true),
            Some("outdated"),
        )),
        Some(count(
            "How many installed formulae are under the MIT license?",
            &["MIT"],
            n(formulae, &|f| f["license"] == "MIT"),
            Some("license"),
        )),
        Some(count(
            "How many formulae define a service?",
            &["service"],
            n(formulae, &|f| f["service"].is_object()),
            Some("service"),
        )),
        Some(count(
            "How many casks update themselves (auto_updates)?",
            &["auto_updates"],
            n(casks, &|c| c["auto_updates"] == true),
            Some("auto_updates"),
        )),
        extreme(
            "Which formula has the most runtime dependencies?",
            scored_by(formulae, |f| f["runtime"].as_u64(), "name"),
            true,
            Some("runtime_dependencies"),
        ),
        extreme(
            "Which formula was installed most recently?",
            scored_by(formulae, |f| f["time"].as_i64(), "name"),
            true,
            Some("time"),
        ),
        extreme(
            "Which formula has been installed the longest (oldest install time)?",
            scored_by(formulae, |f| f["time"].as_i64(), "name"),
            false,
            Some("time"),
        ),
        extreme(
            "Which formula declares the most dependencies?",
            scored_by(formulae, |f| f["dependencies"].as_array().map(Vec::len), "name"),
            true,
            Some("dependencies"),
        ),
    ]
}

/// The first formulae at the top; the last formulae and casks at the end.
fn heads_and_tails(formulae: &[Value], casks: &[Value]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().take(6).enumerate() {
        qs.push(about_record(
            formulae.get(k),
            Kind::Head,
            &format!("Which formula is listed {ordinal}, and which version of it is installed?"),
            &["name", "installed_version"],
        ));
    }
    let first = formulae.first();
    qs.extend([
        about_record(first, Kind::Head, "Which license is the first formula under?", &["name", "license"]),
        about_record(first, Kind::Head, "How does the first formula describe itself?", &["name", "desc"]),
        about_record(first, Kind::Head, "What is the homepage of the first formula?", &["name", "homepage"]),
        about_record(formulae.get(1), Kind::Head, "Which license is the second formula under?", &["name", "license"]),
    ]);
    for back in 0..5 {
        qs.push(about_record(
            from_end(casks, back),
            Kind::Tail,
            &format!("Which cask is listed {}, and which version of it is installed?", to_last(back)),
            &["token", "installed"],
        ));
    }
    let last_cask = from_end(casks, 0);
    qs.extend([
        about_record(last_cask, Kind::Tail, "What is the homepage of the last cask?", &["token", "homepage"]),
        about_record(last_cask, Kind::Tail, "How does the last cask describe itself?", &["token", "desc"]),
    ]);
    for back in 0..3 {
        qs.push(about_record(
            from_end(formulae, back),
            Kind::Tail,
            &format!("Which formula is listed {}, and which version of it is installed?", to_last(back)),
            &["name", "installed_version"],
        ));
    }
    qs
}
