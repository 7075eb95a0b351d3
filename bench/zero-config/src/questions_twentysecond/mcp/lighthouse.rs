//! Questions about a Lighthouse JSON report: the run's header (version, URL, fetch time,
//! mode, user agents, benchmark, axe version) and the first metrics; the categories'
//! scores, the stack pack's advice, the entities and the run's timings at the end; an
//! audit's display value, a script's unused bytes, CPU time and cache lifetime, a
//! request's size, a third party's main-thread time, an image's savings, a metric's
//! weight and a rule's group; and which opportunity saves the most time or bytes, which
//! script or request is the heaviest, which third party blocks the most, which kind of
//! work and which audit's computation take longest, which category scores lowest, and how
//! many audits are not applicable, manual, failing accessibility rules, requests or long
//! tasks.

use serde_json::Value;

use super::list;
use crate::question::{Kind, Question, Records, text, value};
use crate::questions_blind::{count, extreme, scored_by, together};

/// The items of an audit's details table.
fn items<'v>(v: &'v Value, audit: &str) -> &'v [Value] {
    v["audits"][audit]["details"]["items"].as_array().map_or(&[][..], Vec::as_slice)
}

/// A string at a dotted path, as a model reads it.
fn at_path(v: &Value, path: &str) -> Option<String> {
    value(v, path).map(text).filter(|s| !s.is_empty())
}

fn head(v: &Value, q: &str, paths: &[&str], kind: Kind) -> Option<Question> {
    let must: Option<Vec<String>> = paths.iter().map(|p| at_path(v, p)).collect();
    let must = must?;
    let must: Vec<&str> = must.iter().map(String::as_str).collect();
    Some(together(kind, q.to_owned(), None, &must))
}

/// An audit answered by its id and its display value.
fn shown(v: &Value, id: &str, q: &str, kind: Kind) -> Option<Question> {
    let display = v["audits"][id]["displayValue"].as_str()?;
    Some(together(kind, q.to_owned(), None, &[id, display]))
}

pub(super) fn lighthouse_questions(v: &Value) -> Vec<Option<Question>> {
    let audits: Vec<Value> = v["audits"].as_object().map(|m| m.values().cloned().collect()).unwrap_or_default();
    let timing = list(v, "timing.entries");
    let entities = list(v, "entities");
    let mut qs = vec![
        head(v, "Which Lighthouse version produced the report?", &["lighthouseVersion"], Kind::Head),
        head(v, "Which URL was tested?", &["requestedUrl"], Kind::Head),
        head(v, "When was the page fetched for the report?", &["fetchTime"], Kind::Head),
        head(v, "Which gather mode did the run use?", &["gatherMode"], Kind::Head),
        head(v, "Which user agent ran Lighthouse?", &["userAgent"], Kind::Head),
        head(v, "Which user agent did the emulated phone send?", &["environment.networkUserAgent"], Kind::Head),
        head(v, "What was the machine's benchmark index?", &["environment.benchmarkIndex"], Kind::Head),
        head(v, "Which version of axe-core checked accessibility?", &["environment.credits.axe-core"], Kind::Head),
        audits.first().and_then(|a| {
            let (id, title) = (a["id"].as_str()?, a["title"].as_str()?);
            Some(together(
                Kind::Head,
                "Which audit comes first in the report, and what is its title?".into(),
                None,
                &[id, title],
            ))
        }),
        shown(v, "first-contentful-paint", "What is the page's First Contentful Paint?", Kind::Head),
        shown(v, "largest-contentful-paint", "What is the page's Largest Contentful Paint?", Kind::Head),
        shown(v, "speed-index", "What is the page's Speed Index?", Kind::Head),
        shown(v, "total-blocking-time", "What is the page's Total Blocking Time?", Kind::Head),
    ];
    // The end of the report: scores, the stack pack, entities, timings.
    for (id, name) in [
        ("performance", "performance"),
        ("accessibility", "accessibility"),
        ("best-practices", "best practices"),
        ("seo", "SEO"),
    ] {
        qs.push(head(
            v,
            &format!("What is the {name} score?"),
            &[&format!("categories.{id}.id"), &format!("categories.{id}.score")],
            Kind::Tail,
        ));
    }
    qs.push(head(
        v,
        "What does the Next.js stack pack advise about unused JavaScript?",
        &["stackPacks[0].descriptions.unused-javascript"],
        Kind::Tail,
    ));
    qs.push(entities.last().and_then(|e| {
        let (name, origin) = (e["name"].as_str()?, e["origins"][0].as_str()?);
        Some(together(
            Kind::Tail,
            "Which entity is listed last, and which origin does it own?".into(),
            None,
            &[name, origin],
        ))
    }));
    qs.push(head(v, "How long did the whole Lighthouse run take (in milliseconds)?", &["timing.total"], Kind::Tail));
    for back in [0, 1, 2] {
        qs.push(timing.len().checked_sub(back + 1).and_then(|i| {
            let e = &timing[i];
            let (name, took) = (e["name"].as_str()?, text(&e["duration"]));
            let which = ["last", "second to last", "third to last"][back];
            Some(together(
                Kind::Tail,
                format!("Which is the {which} timing entry, and how long did it take?"),
                None,
                &[name, &took],
            ))
        }));
    }
    qs.extend(lookups(v, &audits));
    qs.extend(aggregates(v, &audits, timing));
    qs
}

/// Values of audits and of their table rows, named by an audit id, a URL or an entity.
fn lookups(v: &Value, audits: &[Value]) -> Vec<Option<Question>> {
    let displayed: Vec<Value> = audits
        .iter()
        .filter(|a| a["displayValue"].is_string() && a["details"]["type"] != "debugdata")
        .cloned()
        .collect();
    let by_display = Records { list: &displayed };
    let perf_refs = list(v, "categories.performance.auditRefs");
    let metric_refs: Vec<Value> = perf_refs.iter().filter(|x| x["group"] == "metrics").cloned().collect();
    let a11y_refs = list(v, "categories.accessibility.auditRefs");
    let grouped: Vec<Value> = a11y_refs.iter().filter(|x| x["group"].is_string()).cloned().collect();
    vec![
        by_display.lookup("What does the audit {key} report (its display value)?", 0.3, "id", "displayValue"),
        by_display.lookup("What does the audit {key} report (its display value)?", 0.6, "id", "displayValue"),
        by_display.lookup("What does the audit {key} report (its display value)?", 0.9, "id", "displayValue"),
        Records { list: items(v, "unused-javascript") }.lookup(
            "How many bytes of {key} go unused?",
            0.5,
            "url",
            "wastedBytes",
        ),
        Records { list: items(v, "network-requests") }.lookup(
            "How many bytes did the request for {key} transfer?",
            0.6,
            "url",
            "transferSize",
        ),
        Records { list: items(v, "bootup-time") }.lookup(
            "How much CPU time does {key} take in total?",
            0.4,
            "url",
            "total",
        ),
        Records { list: items(v, "uses-long-cache-ttl") }.lookup(
            "What cache lifetime (in ms) does {key} have?",
            0.7,
            "url",
            "cacheLifetimeMs",
        ),
        Records { list: items(v, "third-party-summary") }.lookup(
            "How much main-thread time does {key} take?",
            0.5,
            "entity",
            "mainThreadTime",
        ),
        Records { list: items(v, "modern-image-formats") }.lookup(
            "How many bytes would a modern format save on {key}?",
            0.4,
            "url",
            "wastedBytes",
        ),
        Records { list: &metric_refs }.lookup(
            "What weight does {key} carry in the performance score?",
            0.5,
            "id",
            "weight",
        ),
        Records { list: &grouped }.lookup(
            "Which group does the accessibility audit {key} belong to?",
            0.6,
            "id",
            "group",
        ),
    ]
}

/// The largest and smallest, and how many of a kind.
fn aggregates(v: &Value, audits: &[Value], timing: &[Value]) -> Vec<Option<Question>> {
    let opportunities: Vec<Value> = audits.iter().filter(|a| a["details"]["type"] == "opportunity").cloned().collect();
    let mode = |m: &str| audits.iter().filter(|a| a["scoreDisplayMode"] == m).count();
    let a11y: Vec<&str> =
        list(v, "categories.accessibility.auditRefs").iter().filter_map(|x| x["id"].as_str()).collect();
    let failing_a11y = a11y.iter().filter(|id| v["audits"][**id]["score"] == 0).count();
    let categories: Vec<Value> = v["categories"].as_object().map(|m| m.values().cloned().collect()).unwrap_or_default();
    let audit_times: Vec<Value> =
        timing.iter().filter(|e| e["name"].as_str().is_some_and(|n| n.starts_with("lh:audit:"))).cloned().collect();
    let long =
        v["audits"]["long-tasks"]["displayValue"].as_str().and_then(|d| d.split(' ').next()?.parse::<usize>().ok());
    let number = |f: &'static str| move |x: &Value| x[f].as_f64();
    vec![
        extreme(
            "Which opportunity could save the most time (overallSavingsMs)?",
            scored_by(&opportunities, |a| a["details"]["overallSavingsMs"].as_f64(), "id"),
            true,
            Some("overallSavingsMs"),
        ),
        extreme(
            "Which audit could save the most bytes (overallSavingsBytes)?",
            scored_by(&opportunities, |a| a["details"]["overallSavingsBytes"].as_f64(), "id"),
            true,
            Some("overallSavingsBytes"),
        ),
        extreme(
            "Which script has the most unused bytes?",
            scored_by(items(v, "unused-javascript"), number("wastedBytes"), "url"),
            true,
            Some("wastedBytes"),
        ),
        extreme(
            "Which request transferred the most bytes?",
            scored_by(items(v, "network-requests"), number("transferSize"), "url"),
            true,
            Some("transferSize"),
        ),
        extreme(
            "Which script takes the most CPU time?",
            scored_by(items(v, "bootup-time"), number("total"), "url"),
            true,
            Some("total"),
        ),
        extreme(
            "Which third party blocked the main thread the longest?",
            scored_by(items(v, "third-party-summary"), number("blockingTime"), "entity"),
            true,
            Some("blockingTime"),
        ),
        extreme(
            "Which third party transferred the most bytes?",
            scored_by(items(v, "third-party-summary"), number("transferSize"), "entity"),
            true,
            Some("transferSize"),
        ),
        extreme(
            "Which kind of main-thread work took the most time?",
            scored_by(items(v, "mainthread-work-breakdown"), number("duration"), "groupLabel"),
            true,
            Some("duration"),
        ),
        extreme(
            "Which image would save the most bytes in a modern format?",
            scored_by(items(v, "modern-image-formats"), number("wastedBytes"), "url"),
            true,
            Some("wastedBytes"),
        ),
        extreme(
            "Which category has the lowest score?",
            scored_by(&categories, number("score"), "id"),
            false,
            Some("score"),
        ),
        extreme(
            "Which audit took Lighthouse the longest to compute?",
            scored_by(&audit_times, number("duration"), "name"),
            true,
            Some("duration"),
        ),
        Some(count(
            "How many audits are not applicable to the page?",
            &["notApplicable", "not applicable"],
            mode("notApplicable"),
            Some("scoreDisplayMode"),
        )),
        Some(count("How many audits are manual checks?", &["manual"], mode("manual"), Some("scoreDisplayMode"))),
        Some(count(
            "How many audits are informative?",
            &["informative"],
            mode("informative"),
            Some("scoreDisplayMode"),
        )),
        Some(count(
            "How many accessibility audits failed (score 0)?",
            &["failed", "score 0"],
            failing_a11y,
            Some("score"),
        )),
        Some(count(
            "How many network requests did the page make?",
            &["requests", "network-requests"],
            items(v, "network-requests").len(),
            Some("network-requests"),
        )),
        long.map(|n| count("How many long main-thread tasks were found?", &["long tasks"], n, Some("long-tasks"))),
    ]
}
