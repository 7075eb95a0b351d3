//! The questions asked of `cargo metadata --format-version 1` of a Rust workspace: what
//! its developers ask (which version of a crate is in the graph, its license, minimum
//! Rust version and repository, which crate pulls it in, the requirement a member
//! declares for a dependency; how many packages and members there are, how many have a
//! build script or are procedural macros, how many are dual-licensed, which package
//! declares or resolves the most dependencies or is depended on most; the first
//! packages, the last nodes of the resolve graph and the workspace's directories).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, only, scored_by, together};
use crate::record_questions::{about_record, lookup, lookup_by};

/// The crate name of a package id (`registry+…#serde@1.0.219` is `serde`).
pub(crate) fn id_name(id: &str) -> &str {
    let tail = id.rsplit('#').next().unwrap_or(id);
    tail.split('@').next().unwrap_or(tail)
}

/// Every package with what it is depended on by, lifted up: `dependents` (the names of
/// the packages whose resolved dependencies include it), `resolved` (how many it has),
/// `declared` (its `dependencies` entries), `dev` (its dev-dependencies), `feature_count`.
pub(crate) fn packages(v: &Value) -> Vec<Value> {
    let nodes = v["resolve"]["nodes"].as_array().cloned().unwrap_or_default();
    let mut dependents: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut resolved: BTreeMap<String, usize> = BTreeMap::new();
    for n in &nodes {
        let id = n["id"].as_str().unwrap_or_default();
        let deps = n["dependencies"].as_array().map_or(&[][..], Vec::as_slice);
        resolved.insert(id.to_owned(), deps.len());
        for d in deps.iter().filter_map(Value::as_str) {
            dependents.entry(d.to_owned()).or_default().push(id_name(id).to_owned());
        }
    }
    v["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let id = p["id"].as_str().unwrap_or_default();
            let deps = p["dependencies"].as_array().map_or(&[][..], Vec::as_slice);
            let mut x = p.clone();
            let by = dependents.get(id).cloned().unwrap_or_default();
            x["dependent_count"] = json!(by.len());
            x["dependents"] = json!(by);
            x["resolved"] = json!(resolved.get(id).copied().unwrap_or(0));
            x["declared"] = json!(deps.len());
            x["dev"] = json!(deps.iter().filter(|d| d["kind"] == "dev").count());
            x["feature_count"] = json!(p["features"].as_object().map_or(0, |f| f.len()));
            x["build_script"] =
                json!(p["targets"].as_array().into_iter().flatten().any(|t| t["kind"][0] == "custom-build"));
            x["proc_macro"] =
                json!(p["targets"].as_array().into_iter().flatten().any(|t| t["kind"][0] == "proc-macro"));
            x
        })
        .collect()
}

/// Every question about the output `v`.
pub(crate) fn cargo_questions(v: &Value) -> Vec<Option<Question>> {
    let all = packages(v);
    let mut qs = lookups(&all);
    qs.extend(aggregates(&all));
    qs.extend(heads_and_tails(v, &all));
    qs
}

/// A package's version, license, Rust version, repository, its one dependent; the
/// requirement a member declares.
fn lookups(all: &[Value]) -> Vec<Option<Question>> {
    let registry = only(all, |p| p["source"].is_string());
    let single = only(&registry, |p| p["dependent_count"] == 1);
    let single: Vec<Value> = single
        .into_iter()
        .map(|mut p| {
            p["dependent"] = p["dependents"][0].clone();
            p
        })
        .collect();
    let version_q = "Which version of {key} is in the dependency graph?";
    let license_q = "Which license is the crate {key} under?";
    let mut qs = vec![
        lookup(&registry, 0.2, version_q, "name", &["version"]),
        lookup(&registry, 0.5, version_q, "name", &["version"]),
        lookup(&registry, 0.85, version_q, "name", &["version"]),
        lookup(&registry, 0.35, license_q, "name", &["license"]),
        lookup(&registry, 0.7, license_q, "name", &["license"]),
        lookup(
            &registry,
            0.6,
            "Which minimum Rust version (rust_version) does {key} declare?",
            "name",
            &["rust_version"],
        ),
        lookup(&registry, 0.45, "What is the repository of the crate {key}?", "name", &["repository"]),
        lookup(&registry, 0.25, "Which crate is described as \"{key}\"?", "description", &["name"]),
        lookup(
            &single,
            0.3,
            "Which package depends on {key} (it is pulled in by one package only)?",
            "name",
            &["dependent"],
        ),
        lookup(
            &single,
            0.8,
            "Which package depends on {key} (it is pulled in by one package only)?",
            "name",
            &["dependent"],
        ),
    ];
    // What a member asks of a crate: the dependency entries of the workspace's own packages.
    let mut declared = Vec::new();
    for m in all.iter().filter(|p| p["source"].is_null()) {
        for d in m["dependencies"].as_array().into_iter().flatten() {
            if d["source"].is_string() {
                declared.push(json!({"member": m["name"], "dep": d["name"], "req": d["req"], "kind": d["kind"]}));
            }
        }
    }
    let key = |x: &Value| Some(vec![x["dep"].as_str()?.to_owned(), x["member"].as_str()?.to_owned()]);
    let req = |x: &Value| Some(vec![x["req"].as_str()?.to_owned()]);
    let req_q = "Which version requirement does the member {key1} declare for {key0}?";
    qs.push(lookup_by(&declared, 0.4, req_q, key, req));
    qs.push(lookup_by(&declared, 0.9, req_q, key, req));
    qs
}

/// How many packages are of a kind; which declares, resolves or is needed the most.
fn aggregates(all: &[Value]) -> Vec<Option<Question>> {
    let n = |keep: &dyn Fn(&Value) -> bool| all.iter().filter(|x| keep(x)).count();
    let members = only(all, |p| p["source"].is_null());
    let core = members.first();
    let mut qs = vec![
        Some(count("How many packages are in the metadata?", &["packages"], all.len(), Some("name"))),
        Some(count("How many workspace members are there?", &["workspace_members"], members.len(), Some("source"))),
        Some(count(
            "How many packages come from crates.io?",
            &["crates.io"],
            n(&|p| p["source"].as_str().is_some_and(|s| s.contains("crates.io"))),
            Some("source"),
        )),
        Some(count(
            "How many packages are licensed \"MIT OR Apache-2.0\"?",
            &["MIT OR Apache-2.0"],
            n(&|p| p["license"] == "MIT OR Apache-2.0"),
            Some("license"),
        )),
        Some(count(
            "How many packages have a build script?",
            &["custom-build"],
            n(&|p| p["build_script"] == true),
            Some("kind"),
        )),
        Some(count(
            "How many packages are procedural macros?",
            &["proc-macro"],
            n(&|p| p["proc_macro"] == true),
            Some("kind"),
        )),
        Some(count("How many packages use edition 2021?", &["2021"], n(&|p| p["edition"] == "2021"), Some("edition"))),
        Some(count(
            "How many packages declare no minimum Rust version?",
            &["rust_version"],
            n(&|p| p["rust_version"].is_null()),
            Some("rust_version"),
        )),
        extreme(
            "Which package declares the most dependencies (entries in its dependencies list)?",
            scored_by(all, |p| p["declared"].as_u64(), "name"),
            true,
            Some("dependencies"),
        ),
        extreme(
            "Which package has the most resolved dependencies in the resolve graph?",
            scored_by(all, |p| p["resolved"].as_u64(), "name"),
            true,
            Some("dependencies"),
        ),
        extreme(
            "Which package is depended on by the most other packages?",
            scored_by(all, |p| p["dependent_count"].as_u64(), "name"),
            true,
            Some("dependencies"),
        ),
        extreme(
            "Which package defines the most features?",
            scored_by(all, |p| p["feature_count"].as_u64(), "name"),
            true,
            Some("features"),
        ),
        extreme(
            "Which workspace member declares the most dependencies?",
            scored_by(&members, |p| p["declared"].as_u64(), "name"),
            true,
            Some("dependencies"),
        ),
    ];
    if let Some(m) = core {
        let name = m["name"].as_str().unwrap_or_default();
        let text = format!("How many dev-dependencies does {name} declare?");
        qs.push(Some(count(&text, &["dev"], m["dev"].as_u64().unwrap_or(0) as usize, Some("kind"))));
    }
    qs
}

/// The first packages; the last resolve nodes and the workspace's directories.
fn heads_and_tails(v: &Value, all: &[Value]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().take(5).enumerate() {
        let text = format!("Which package is listed {ordinal}, and at which version?");
        qs.push(about_record(all.get(k), Kind::Head, &text, &["name", "version"]));
    }
    let first = all.first();
    qs.extend([
        about_record(first, Kind::Head, "Which license is the first package under?", &["name", "license"]),
        about_record(first, Kind::Head, "How does the first package describe itself?", &["name", "description"]),
        about_record(first, Kind::Head, "What is the repository of the first package?", &["name", "repository"]),
        about_record(all.get(1), Kind::Head, "Which license is the second package under?", &["name", "license"]),
    ]);
    let nodes = v["resolve"]["nodes"].as_array().map_or(&[][..], Vec::as_slice);
    for back in 0..8 {
        let Some(node) = nodes.len().checked_sub(back + 1).and_then(|i| nodes.get(i)) else { continue };
        let id = node["id"].as_str().unwrap_or_default();
        let mut must = vec![id.to_owned()];
        must.extend(node["features"].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned));
        let must: Vec<&str> = must.iter().map(String::as_str).collect();
        let text = format!(
            "Which package is the {} node of the resolve graph, and which features are enabled for it?",
            to_last(back)
        );
        qs.push(Some(together(Kind::Tail, text, None, &must)));
    }
    for (field, text) in [
        ("target_directory", "Which target directory does cargo build into?"),
        ("workspace_root", "Where is the workspace root?"),
    ] {
        qs.push(v[field].as_str().map(|s| together(Kind::Tail, text.to_owned(), None, &[s])));
    }
    qs
}
