//! Questions about a VirusTotal file report: what the report opens with (the file's
//! hashes, type and size, best-known name, suggested threat label, first submission, and
//! the first engines' verdicts) and what it ends with (the last libraries of the import
//! table and their functions); an engine's verdict and version, a section's entropy and
//! size, a library's imported functions, a sandbox's verdict, a YARA rule's author, a
//! Sigma rule's level and a resource's type by name; and how many engines flagged the
//! file, left it undetected or could not scan it, how many sections are near-random,
//! how many libraries, YARA rules, high-level Sigma rules and malicious sandbox verdicts
//! there are, how many engines give the commonest detection name, and which section has
//! the highest or lowest entropy or the most raw bytes, which library gives the most
//! functions and which resource is the most random.

use serde_json::Value;

use super::{field, list, number};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{ORDINALS, end, lookup_one as lookup, to_last};

/// The values of a map (engines, sandboxes) in the order the report writes them.
pub(super) fn entries<'v>(v: &'v Value, path: &str) -> Vec<&'v Value> {
    crate::question::value(v, path).and_then(Value::as_object).map(|m| m.values().collect()).unwrap_or_default()
}

/// An engine's verdict: its category, and its detection name when it has one.
pub(super) fn verdict(e: &Value) -> Vec<String> {
    let result = field(e, "result");
    let mut out = vec![field(e, "category")];
    if !result.is_empty() {
        out.push(result);
    }
    out
}

pub(super) fn virustotal_questions(v: &Value) -> Vec<Option<Question>> {
    let a = &v["data"]["attributes"];
    let engines = entries(a, "last_analysis_results");
    let sections = list(a, "pe_info.sections");
    let libraries = list(a, "pe_info.import_list");
    let page = std::slice::from_ref(a);
    let with = |x: &Value, paths: &[&str]| Some(paths.iter().map(|p| field(x, p)).collect::<Vec<_>>());
    let engine = |e: &&Value| Some([vec![field(e, "engine_name")], verdict(e)].concat());
    let mut qs = vec![
        end(page, 0, false, "What is the file's SHA-256?", |a| with(a, &["sha256"])),
        end(page, 0, false, "What are the file's MD5 and SHA-1?", |a| with(a, &["md5", "sha1"])),
        end(page, 0, false, "What type of file is it, and how large?", |a| with(a, &["type_description", "size"])),
        end(page, 0, false, "What name is the file best known by?", |a| with(a, &["meaningful_name"])),
        end(page, 0, false, "Which threat label does VirusTotal suggest?", |a| {
            with(a, &["popular_threat_classification.suggested_threat_label"])
        }),
        end(page, 0, false, "When was the file first submitted, and how many times in all?", |a| {
            with(a, &["first_submission_date", "times_submitted"])
        }),
    ];
    for (k, ordinal) in ORDINALS.iter().enumerate().take(4) {
        qs.push(end(&engines, k, false, &format!("What did the {ordinal} engine in the results say?"), engine));
    }
    for k in 0..7 {
        qs.push(end(
            libraries,
            k,
            true,
            &format!(
                "Which library is {} in the import table, and what is the first function imported from it?",
                to_last(k)
            ),
            |l| Some(vec![field(l, "library_name"), field(l, "imported_functions[0]")]),
        ));
    }
    for k in 0..3 {
        qs.push(end(
            libraries,
            k,
            true,
            &format!("What is the last function imported from the {} library in the import table?", to_last(k)),
            |l| {
                let last = list(l, "imported_functions").last().map(crate::question::text)?;
                Some(vec![field(l, "library_name"), last])
            },
        ));
    }
    let name_of = |e: &&Value| field(e, "engine_name");
    for f in [0.3, 0.5, 0.7, 0.9] {
        qs.push(lookup(&engines, f, "What does {key} say about the file?", name_of, |e| Some(verdict(e))));
    }
    qs.push(lookup(&engines, 0.6, "Which version of {key} scanned the file?", name_of, |e| {
        Some(vec![field(e, "engine_version")])
    }));
    for f in [0.5, 0.9] {
        qs.push(lookup(
            sections,
            f,
            "What is the entropy and raw size of the {key} section?",
            |s| field(s, "name"),
            |s| Some(vec![field(s, "entropy"), field(s, "raw_size")]),
        ));
    }
    for f in [0.4, 0.65] {
        qs.push(lookup(
            libraries,
            f,
            "Which functions does the file import from {key}?",
            |l| field(l, "library_name"),
            |l| Some(list(l, "imported_functions").iter().take(2).map(crate::question::text).collect()),
        ));
    }
    let sandboxes = entries(a, "sandbox_verdicts");
    qs.push(lookup(
        &sandboxes,
        0.5,
        "What verdict did the {key} sandbox give?",
        |s| field(s, "sandbox_name"),
        |s| Some(vec![field(s, "category")]),
    ));
    let yara = list(a, "crowdsourced_yara_results");
    qs.push(lookup(
        yara,
        0.5,
        "Who wrote the YARA rule {key} that matched?",
        |y| field(y, "rule_name"),
        |y| Some(vec![field(y, "author")]),
    ));
    let sigma = list(a, "sigma_analysis_results");
    qs.push(lookup(
        sigma,
        0.5,
        "What level is the Sigma rule \"{key}\" that matched?",
        |s| field(s, "rule_title"),
        |s| Some(vec![field(s, "rule_level")]),
    ));
    let resources = list(a, "pe_info.resource_details");
    qs.push(lookup(
        resources,
        0.5,
        "What type and language is the resource {key}?",
        |r| field(r, "sha256"),
        |r| Some(vec![field(r, "type"), field(r, "lang")]),
    ));
    // How many, and which stands out.
    let in_category = |c: &str| engines.iter().filter(|e| field(e, "category") == c).count();
    let counted: [(&str, &[&str], usize, &str); 8] = [
        ("How many engines flagged the file as malicious?", &["malicious"], in_category("malicious"), "category"),
        ("How many engines did not detect anything?", &["undetected"], in_category("undetected"), "category"),
        (
            "How many engines could not scan this type of file?",
            &["type-unsupported", "unsupported"],
            in_category("type-unsupported"),
            "category",
        ),
        (
            "How many sections have an entropy above 7?",
            &["entropy"],
            sections.iter().filter(|s| number(s, "entropy").is_some_and(|e| e > 7.0)).count(),
            "entropy",
        ),
        ("How many libraries does the file import from?", &["libraries", "DLLs"], libraries.len(), "library_name"),
        ("How many crowdsourced YARA rules matched?", &["YARA", "yara"], yara.len(), "rule_name"),
        (
            "How many high-level Sigma rules matched?",
            &["high"],
            sigma.iter().filter(|s| field(s, "rule_level") == "high").count(),
            "rule_level",
        ),
        (
            "How many sandboxes judged the file malicious?",
            &["sandboxes"],
            sandboxes.iter().filter(|s| field(s, "category") == "malicious").count(),
            "category",
        ),
    ];
    for (q, labels, n, f) in counted {
        qs.push(Some(count(q, labels, n, Some(f))));
    }
    let names = most_frequent(engines.iter().filter_map(|e| e["result"].as_str()));
    if let Some((n, name)) = names.iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))) {
        qs.push(Some(count(&format!("How many engines name the file {name}?"), &[name], *n, Some("result"))));
    }
    let scored = |among: &[Value], path: &str, name: &str| -> Vec<(f64, String)> {
        among.iter().filter_map(|x| Some((number(x, path)?, field(x, name)))).collect()
    };
    qs.push(extreme(
        "Which section has the highest entropy?",
        scored(sections, "entropy", "name"),
        true,
        Some("entropy"),
    ));
    qs.push(extreme(
        "Which section has the lowest entropy?",
        scored(sections, "entropy", "name"),
        false,
        Some("entropy"),
    ));
    qs.push(extreme(
        "Which section is the largest on disk?",
        scored(sections, "raw_size", "name"),
        true,
        Some("raw_size"),
    ));
    let functions: Vec<(usize, String)> =
        libraries.iter().map(|l| (list(l, "imported_functions").len(), field(l, "library_name"))).collect();
    qs.push(extreme(
        "Which library does the file import the most functions from?",
        functions,
        true,
        Some("imported_functions"),
    ));
    qs.push(extreme(
        "Which resource has the highest entropy?",
        scored(resources, "entropy", "sha256"),
        true,
        Some("entropy"),
    ));
    qs
}
