//! The questions asked of `rpm -qai`: what an administrator asks of a server's packages
//! (which version and release of a package is installed, its license, size, source RPM,
//! when it was installed and built and where, its URL, the package a summary describes;
//! how many packages are installed, noarch, built from one source, carrying an epoch or
//! installed on the day the server was set up, how many release keys there are, the
//! largest package and the newest install and build; the first packages and the last).

use std::collections::BTreeMap;

use serde_json::Value;

use super::readers::rpm_packages;
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, only, scored_by};
use crate::record_questions::{about_record, lookup};

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// An rpm time (`Tue 14 May 2024 10:21:33 PM UTC`) as a sortable `YYYYMMDDhhmmss`.
pub(crate) fn time_key(s: &str) -> Option<u64> {
    let words: Vec<&str> = s.split_whitespace().collect();
    let [_, day, month, year, clock, half, ..] = words.as_slice() else { return None };
    let month = MONTHS.iter().position(|m| m == month)? as u64 + 1;
    let mut hms = clock.split(':').map(|x| x.parse::<u64>().ok());
    let (h, m, sec) = (hms.next()??, hms.next()??, hms.next()??);
    let h = match (*half, h) {
        ("AM", 12) => 0,
        ("PM", 12) => 12,
        ("PM", h) => h + 12,
        (_, h) => h,
    };
    let date = (year.parse::<u64>().ok()? * 100 + month) * 100 + day.parse::<u64>().ok()?;
    Some(date * 1_000_000 + (h * 100 + m) * 100 + sec)
}

/// The day of an rpm time as printed (`Thu 16 Oct 2025`).
fn day_of(s: &str) -> String {
    s.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// Every question about the output `t`.
pub(crate) fn rpm_questions(t: &str) -> Vec<Option<Question>> {
    let all = rpm_packages(t);
    let mut qs = lookups(&all);
    qs.extend(aggregates(&all));
    qs.extend(heads_and_tails(&all));
    qs
}

/// A package's version, license, size, dates, source and URL.
fn lookups(all: &[Value]) -> Vec<Option<Question>> {
    let packages = only(all, |p| p["Name"] != "gpg-pubkey");
    let version_q = "Which version and release of {key} is installed?";
    vec![
        lookup(&packages, 0.15, version_q, "Name", &["Version", "Release"]),
        lookup(&packages, 0.5, version_q, "Name", &["Version", "Release"]),
        lookup(&packages, 0.85, version_q, "Name", &["Version", "Release"]),
        lookup(&packages, 0.3, "When was {key} installed?", "Name", &["Install Date"]),
        lookup(&packages, 0.65, "Which license is {key} under?", "Name", &["License"]),
        lookup(&packages, 0.4, "How big is {key} once installed (its Size in bytes)?", "Name", &["Size"]),
        lookup(&packages, 0.75, "Which source RPM was {key} built from?", "Name", &["Source RPM"]),
        lookup(
            &packages,
            0.55,
            "When was {key} built, and on which build host?",
            "Name",
            &["Build Date", "Build Host"],
        ),
        lookup(&packages, 0.9, "What is the upstream URL of {key}?", "Name", &["URL"]),
        lookup(&packages, 0.25, "Which package is summarized as \"{key}\"?", "Summary", &["Name"]),
    ]
}

/// How many packages are of a kind; the largest, newest and oldest.
fn aggregates(all: &[Value]) -> Vec<Option<Question>> {
    let packages = only(all, |p| p["Name"] != "gpg-pubkey");
    let n = |keep: &dyn Fn(&Value) -> bool| all.iter().filter(|p| keep(p)).count();
    let source = |p: &Value| {
        let srpm = p["Source RPM"].as_str().unwrap_or_default();
        let release = p["Release"].as_str().unwrap_or_default();
        let version = p["Version"].as_str().unwrap_or_default();
        srpm.strip_suffix(&format!("-{version}-{release}.src.rpm")).unwrap_or(srpm).to_owned()
    };
    // The source most packages come from, when no other source ties with it.
    let mut per_source: BTreeMap<String, usize> = BTreeMap::new();
    for p in &packages {
        *per_source.entry(source(p)).or_default() += 1;
    }
    let top = per_source.iter().max_by_key(|(_, c)| **c).map(|(s, c)| (s.clone(), *c));
    let days: Vec<String> = all.iter().filter_map(|p| p["Install Date"].as_str()).map(day_of).collect();
    let busiest = most_frequent(days.iter().map(String::as_str)).into_iter().max();
    let time = |field: &'static str| move |p: &Value| p[field].as_str().and_then(time_key);
    let size = |p: &Value| p["Size"].as_str().and_then(|s| s.parse::<u64>().ok());
    let mut qs = vec![
        Some(count(
            "How many packages are installed (rpm -qa would list how many)?",
            &["packages"],
            all.len(),
            Some("Name"),
        )),
        Some(count(
            "How many noarch packages are installed?",
            &["noarch"],
            n(&|p| p["Architecture"] == "noarch"),
            Some("Architecture"),
        )),
        Some(count(
            "How many x86_64 packages are installed?",
            &["x86_64"],
            n(&|p| p["Architecture"] == "x86_64"),
            Some("Architecture"),
        )),
        Some(count(
            "How many release keys (gpg-pubkey) are installed?",
            &["gpg-pubkey"],
            n(&|p| p["Name"] == "gpg-pubkey"),
            Some("Name"),
        )),
        Some(count("How many packages carry an Epoch?", &["Epoch"], n(&|p| p["Epoch"].is_string()), Some("Epoch"))),
        extreme(
            "Which package is the largest installed (Size)?",
            scored_by(&packages, size, "Name"),
            true,
            Some("Size"),
        ),
        extreme(
            "Which noarch package is the largest?",
            scored_by(&only(&packages, |p| p["Architecture"] == "noarch"), size, "Name"),
            true,
            Some("Size"),
        ),
        extreme(
            "Which package was installed most recently?",
            scored_by(&packages, time("Install Date"), "Name"),
            true,
            Some("Install Date"),
        ),
        extreme(
            "Which package has the newest build (Build Date)?",
            scored_by(&packages, time("Build Date"), "Name"),
            true,
            Some("Build Date"),
        ),
        extreme(
            "Which package has the oldest build (Build Date)?",
            scored_by(&packages, time("Build Date"), "Name"),
            false,
            Some("Build Date"),
        ),
    ];
    if let Some((src, c)) = top.filter(|(_, c)| per_source.values().filter(|x| *x == c).count() == 1) {
        let text = format!("How many installed packages were built from the {src} source RPM?");
        qs.push(Some(count(&text, &[&src], c, Some("Source RPM"))));
    }
    if let Some((c, day)) = busiest {
        let text = format!("How many packages were installed on {day}?");
        qs.push(Some(count(&text, &[&day], c, Some("Install Date"))));
    }
    qs
}

/// The first packages in rpmdb order; the last.
fn heads_and_tails(all: &[Value]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().take(8).enumerate() {
        let text = format!("Which package does rpm -qai list {ordinal}, and at which version and release?");
        qs.push(about_record(all.get(k), Kind::Head, &text, &["Name", "Version", "Release"]));
    }
    qs.push(about_record(
        all.first(),
        Kind::Head,
        "When was the first package listed installed?",
        &["Name", "Install Date"],
    ));
    qs.push(about_record(
        all.get(3),
        Kind::Head,
        "What is the summary of the fourth package listed?",
        &["Name", "Summary"],
    ));
    for back in 0..9 {
        let p = all.len().checked_sub(back + 1).and_then(|i| all.get(i));
        let text = format!("Which package does rpm -qai list {}, and at which version and release?", to_last(back));
        qs.push(about_record(p, Kind::Tail, &text, &["Name", "Version", "Release"]));
    }
    qs.push(about_record(
        all.last(),
        Kind::Tail,
        "When was the last package listed installed?",
        &["Name", "Install Date"],
    ));
    qs
}
