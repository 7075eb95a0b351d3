//! Questions about an OTLP/JSON trace export: the first and the last spans exported (name,
//! span id, trace, times) and the first resource's service and scope; a span's name and
//! status, HTTP status, query, URL, parent or exception by its span id, a trace's root
//! operation and the span where its failure began; and how many spans failed, how many
//! traces there are, how many spans the busiest services exported, how many recorded an
//! exception, answered a 5xx or queried a database, and which span, trace and database
//! query took longest, which span was shortest and which service had the most failed
//! spans.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{field, list};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{end, lookup_one as lookup, to_last};

/// A span with the service that exported it.
pub(super) struct Exported<'v> {
    pub(super) service: String,
    pub(super) span: &'v Value,
}

/// The value of the attribute `key` of a list of OTLP attributes (whatever its type), or
/// an empty string.
pub(super) fn attribute(attributes: &[Value], key: &str) -> String {
    attributes
        .iter()
        .find(|a| a["key"] == key)
        .and_then(|a| a["value"].as_object())
        .and_then(|v| v.values().next())
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
        .unwrap_or_default()
}

/// Every span in the order exported, with its service.
pub(super) fn spans(v: &Value) -> Vec<Exported<'_>> {
    list(v, "resourceSpans")
        .iter()
        .flat_map(|rs| {
            let service = attribute(list(rs, "resource.attributes"), "service.name");
            list(rs, "scopeSpans")
                .iter()
                .flat_map(|ss| list(ss, "spans"))
                .map(move |span| Exported { service: service.clone(), span })
        })
        .collect()
}

/// How long a span took, in nanoseconds.
pub(super) fn nanos(span: &Value) -> Option<i64> {
    let at = |k: &str| span[k].as_str()?.parse::<i64>().ok();
    Some(at("endTimeUnixNano")? - at("startTimeUnixNano")?)
}

/// Whether a span ended in error.
pub(super) fn failed(span: &Value) -> bool {
    span["status"]["code"] == 2
}

pub(super) fn otlp_questions(v: &Value) -> Vec<Option<Question>> {
    let all = spans(v);
    let spans: Vec<&Value> = all.iter().map(|e| e.span).collect();
    let id = |s: &Value| field(s, "spanId");
    let attr = |s: &Value, key: &str| attribute(list(s, "attributes"), key);
    let named = |s: &&Value| Some(vec![field(s, "name"), id(s)]);
    let first_resource = list(v, "resourceSpans").first();
    let mut qs = vec![
        end(&spans, 0, false, "Which span is exported first (name and span id)?", named),
        end(&spans, 0, false, "Which trace does the first exported span belong to?", |s| {
            Some(vec![id(s), field(s, "traceId")])
        }),
        end(&spans, 0, false, "When did the first exported span start and end?", |s| {
            Some(vec![id(s), field(s, "startTimeUnixNano"), field(s, "endTimeUnixNano")])
        }),
        end(&spans, 0, false, "What is the parent span id of the first exported span?", |s| {
            Some(vec![id(s), field(s, "parentSpanId")])
        }),
        end(&spans, 1, false, "Which span is exported second (name and span id)?", named),
        end(&spans, 2, false, "Which span is exported third (name and span id)?", named),
        end(&spans, 3, false, "Which span is exported fourth (name and span id)?", named),
        end(&spans, 4, false, "Which span is exported fifth (name and span id)?", named),
        end(
            first_resource.as_slice(),
            0,
            false,
            "Which service and instance does the first resource describe?",
            |rs| {
                let attributes = list(rs, "resource.attributes");
                Some(vec![attribute(attributes, "service.name"), attribute(attributes, "service.instance.id")])
            },
        ),
        end(
            first_resource.as_slice(),
            0,
            false,
            "Which instrumentation scope comes first in the export, and which version?",
            |rs| {
                let scope = list(rs, "scopeSpans").first()?;
                Some(vec![field(scope, "scope.name"), field(scope, "scope.version")])
            },
        ),
        end(&spans, 0, true, "Which span is exported last (name and span id)?", named),
        end(&spans, 0, true, "Which trace does the last exported span belong to?", |s| {
            Some(vec![id(s), field(s, "traceId")])
        }),
        end(&spans, 0, true, "When did the last exported span start and end?", |s| {
            Some(vec![id(s), field(s, "startTimeUnixNano"), field(s, "endTimeUnixNano")])
        }),
        end(&spans, 0, true, "What is the parent span id of the last exported span?", |s| {
            Some(vec![id(s), field(s, "parentSpanId")])
        }),
        end(&spans, 1, true, "Which trace does the second to last exported span belong to?", |s| {
            Some(vec![id(s), field(s, "traceId")])
        }),
    ];
    for back in 1..=5 {
        let q = format!("Which span is exported {} (name and span id)?", to_last(back));
        qs.push(end(&spans, back, true, &q, named));
    }
    for f in [0.2, 0.6] {
        qs.push(lookup(
            &spans,
            f,
            "What operation is span {key}, and when did it start?",
            |s| id(s),
            |s| Some(vec![field(s, "name"), field(s, "startTimeUnixNano")]),
        ));
    }
    qs.push(lookup(
        &spans,
        0.8,
        "What is the parent of span {key}, and which trace is it in?",
        |s| id(s),
        |s| Some(vec![field(s, "parentSpanId"), field(s, "traceId")]),
    ));
    let http: Vec<&Value> =
        spans.iter().copied().filter(|s| !attr(s, "http.response.status_code").is_empty()).collect();
    for f in [0.35, 0.9] {
        qs.push(lookup(
            &http,
            f,
            "Which HTTP status did span {key} answer or get?",
            |s| id(s),
            |s| Some(vec![field(s, "name"), attr(s, "http.response.status_code")]),
        ));
    }
    let db: Vec<&Value> = spans.iter().copied().filter(|s| !attr(s, "db.system.name").is_empty()).collect();
    qs.push(lookup(&db, 0.5, "Which query did span {key} run?", |s| id(s), |s| Some(vec![attr(s, "db.query.text")])));
    let roots: Vec<&Value> = spans.iter().copied().filter(|s| field(s, "parentSpanId").is_empty()).collect();
    for f in [0.3, 0.7] {
        qs.push(lookup(
            &roots,
            f,
            "Which operation is the root of trace {key}, and how did it end?",
            |s| field(s, "traceId"),
            |s| Some(vec![field(s, "name"), attr(s, "http.response.status_code")]),
        ));
    }
    // Where a failure began: the span that recorded the exception.
    let causes: Vec<&Value> = spans.iter().copied().filter(|s| !list(s, "events").is_empty()).collect();
    qs.push(lookup(
        &causes,
        0.4,
        "Where did trace {key} fail, and why?",
        |s| field(s, "traceId"),
        |s| Some(vec![field(s, "name"), field(s, "status.message")]),
    ));
    qs.push(lookup(
        &causes,
        0.85,
        "Which exception did span {key} record?",
        |s| id(s),
        |s| list(s, "events").first().map(|e| vec![attribute(list(e, "attributes"), "exception.type")]),
    ));
    // How many, and which is the largest.
    let errors = spans.iter().filter(|s| failed(s)).count();
    qs.push(Some(count("How many spans ended with an error status?", &["error"], errors, Some("status"))));
    let traces: BTreeSet<String> = spans.iter().map(|s| field(s, "traceId")).collect();
    qs.push(Some(count("How many traces does the export hold?", &["traces"], traces.len(), Some("traceId"))));
    let failed_traces = roots.iter().filter(|s| failed(s)).count();
    qs.push(Some(count("How many traces failed at their root?", &["failed"], failed_traces, Some("status"))));
    let mut by_service = most_frequent(all.iter().map(|e| e.service.as_str()));
    by_service.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (n, service) in by_service.iter().take(2) {
        qs.push(Some(count(&format!("How many spans did {service} export?"), &[service], *n, Some("service.name"))));
    }
    qs.push(Some(count("How many spans recorded an exception?", &["exception"], causes.len(), Some("events"))));
    let fives =
        http.iter().filter(|s| attr(s, "http.response.status_code").parse::<i64>().is_ok_and(|c| c >= 500)).count();
    qs.push(Some(count(
        "How many spans have an HTTP status of 500 or more?",
        &["5xx"],
        fives,
        Some("http.response.status_code"),
    )));
    qs.push(Some(count(
        "How many spans are database or cache queries?",
        &["database", "db"],
        db.len(),
        Some("db.system.name"),
    )));
    let took =
        |list: &[&Value]| -> Vec<(i64, String)> { list.iter().filter_map(|s| Some((nanos(s)?, id(s)))).collect() };
    qs.push(extreme("Which span took the longest?", took(&spans), true, Some("endTimeUnixNano")));
    qs.push(extreme("Which span took the shortest time?", took(&spans), false, Some("endTimeUnixNano")));
    qs.push(extreme("Which database or cache query took the longest?", took(&db), true, Some("endTimeUnixNano")));
    let longest_trace: Vec<(i64, String)> =
        roots.iter().filter_map(|s| Some((nanos(s)?, field(s, "traceId")))).collect();
    qs.push(extreme(
        "Which trace took the longest from start to end of its root?",
        longest_trace,
        true,
        Some("endTimeUnixNano"),
    ));
    let mut failing: BTreeMap<&str, usize> = BTreeMap::new();
    for e in all.iter().filter(|e| failed(e.span)) {
        *failing.entry(e.service.as_str()).or_default() += 1;
    }
    let failing: Vec<(usize, String)> = failing.into_iter().map(|(s, n)| (n, s.to_owned())).collect();
    qs.push(extreme("Which service exported the most failed spans?", failing, true, Some("status")));
    qs
}
