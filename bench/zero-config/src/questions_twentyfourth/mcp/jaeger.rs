//! Questions about a Jaeger trace (`GET /api/traces/{id}`): the trace id and the first
//! spans (the root's operation, duration, start, status and client) and the last ones
//! (span ids, operations, durations, the last process); a span's operation and duration,
//! status code, statement or logged event by its span id; and how many spans errored,
//! how many each service emitted, how many are database, Redis or client calls or got a
//! 409, which database query, external call or reservation was slowest, and which
//! service and pod emitted the most spans.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{end, list};
use crate::question::{Question, text};
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::lookup_by;

/// A span with what the questions read of it.
pub(super) struct Span {
    pub(super) id: String,
    pub(super) op: String,
    pub(super) start: String,
    pub(super) duration: i64,
    pub(super) process: String,
    pub(super) service: String,
    /// The tags, by key, as text.
    pub(super) tags: BTreeMap<String, String>,
    /// The `event` field of every log.
    pub(super) events: Vec<String>,
}

impl Span {
    fn tag(&self, key: &str) -> Option<String> {
        self.tags.get(key).cloned()
    }

    fn failed(&self) -> bool {
        self.tags.get("error").is_some_and(|e| e == "true")
    }
}

/// The spans of the trace's first (only) entry, with each process's service.
pub(super) fn spans(v: &Value) -> Vec<Span> {
    let trace = &list(v, "data").first().cloned().unwrap_or(Value::Null);
    let processes = &trace["processes"];
    list(trace, "spans")
        .iter()
        .map(|s| {
            let process = text(&s["processID"]);
            let tags = list(s, "tags").iter().map(|t| (text(&t["key"]), text(&t["value"]))).collect();
            let events = list(s, "logs")
                .iter()
                .filter_map(|l| list(l, "fields").iter().find(|f| f["key"] == "event").map(|f| text(&f["value"])))
                .collect();
            Span {
                id: text(&s["spanID"]),
                op: text(&s["operationName"]),
                start: text(&s["startTime"]),
                duration: s["duration"].as_i64().unwrap_or_default(),
                service: processes[&process]["serviceName"].as_str().unwrap_or_default().to_owned(),
                process,
                tags,
                events,
            }
        })
        .collect()
}

fn id_op(s: &Span) -> Option<Vec<String>> {
    Some(vec![s.id.clone(), s.op.clone()])
}

fn by_id(s: &Span) -> Option<Vec<String>> {
    Some(vec![s.id.clone()])
}

pub(super) fn jaeger_questions(v: &Value) -> Vec<Option<Question>> {
    let all = spans(v);
    let trace = list(v, "data").first().cloned().unwrap_or(Value::Null);
    let trace_id = text(&trace["traceID"]);
    let processes: Vec<(String, Value)> = trace["processes"]
        .as_object()
        .map(|m| m.iter().map(|(k, p)| (k.clone(), p.clone())).collect())
        .unwrap_or_default();
    let host = |p: &Value| list(p, "tags").iter().find(|t| t["key"] == "host.name").map(|t| text(&t["value"]));
    let mut qs = vec![
        (!trace_id.is_empty()).then(|| {
            crate::questions_blind::together(
                crate::question::Kind::Head,
                "What is the trace ID?".into(),
                None,
                &[&trace_id],
            )
        }),
        end(&all, 0, false, "Which operation is the root span, and what is its span ID?", id_op),
        end(&all, 0, false, "How long did the root span take, in microseconds?", |s| {
            Some(vec![s.op.clone(), s.duration.to_string()])
        }),
        end(&all, 0, false, "When did the root span start (startTime)?", |s| Some(vec![s.start.clone()])),
        end(&all, 0, false, "What HTTP status code did the root span return?", |s| {
            Some(vec![s.op.clone(), s.tag("http.status_code")?])
        }),
        end(&all, 0, false, "Which client IP sent the request the trace starts with?", |s| {
            Some(vec![s.tag("http.client_ip")?])
        }),
        end(&all, 1, false, "Which span comes second (span ID and operation)?", id_op),
        end(&all, 1, false, "How long did the second span take?", |s| Some(vec![s.id.clone(), s.duration.to_string()])),
        end(&all, 2, false, "Which span comes third (span ID and operation)?", id_op),
        end(&all, 3, false, "What is the span ID of the fourth span?", by_id),
        end(&all, 4, false, "Which operation is the fifth span?", id_op),
        end(&all, 0, true, "Which span is listed last (span ID and operation)?", id_op),
        end(&all, 0, true, "How long did the last span take?", |s| Some(vec![s.id.clone(), s.duration.to_string()])),
        end(&all, 0, true, "When did the last span start?", |s| Some(vec![s.start.clone()])),
        end(&all, 0, true, "What statement did the last span run?", |s| Some(vec![s.tag("db.statement")?])),
        end(&all, 0, true, "Which process emitted the last span?", |s| Some(vec![s.id.clone(), s.process.clone()])),
        end(&all, 1, true, "Which span is second to last (span ID and operation)?", id_op),
        end(&all, 2, true, "Which span is third to last (span ID and operation)?", id_op),
        end(&all, 2, true, "How long did the third to last span take?", |s| {
            Some(vec![s.id.clone(), s.duration.to_string()])
        }),
        end(&all, 3, true, "What is the span ID of the fourth to last span?", by_id),
        end(
            &processes,
            0,
            true,
            "Which service is the last process of the processes map, and on which host?",
            |(id, p)| Some(vec![id.clone(), text(&p["serviceName"]), host(p)?]),
        ),
        end(&processes, 1, true, "Which service is the second to last process?", |(id, p)| {
            Some(vec![id.clone(), text(&p["serviceName"])])
        }),
    ];
    let id = |s: &Span| Some(vec![s.id.clone()]);
    for at in [0.15, 0.35, 0.55, 0.75, 0.92] {
        qs.push(lookup_by(&all, at, "Which operation is span {key}, and how long did it take?", id, |s| {
            Some(vec![s.op.clone(), s.duration.to_string()])
        }));
    }
    let http: Vec<&Span> = all.iter().filter(|s| s.tags.contains_key("http.status_code")).collect();
    for at in [0.3, 0.65, 0.9] {
        qs.push(lookup_by(
            &http,
            at,
            "What HTTP status code did span {key} get?",
            |s| id(s),
            |s| Some(vec![s.tag("http.status_code")?]),
        ));
    }
    let db: Vec<&Span> = all.iter().filter(|s| s.tags.contains_key("db.statement")).collect();
    for at in [0.45, 0.85] {
        qs.push(lookup_by(
            &db,
            at,
            "Which statement did span {key} run, and in which process?",
            |s| id(s),
            |s| Some(vec![s.tag("db.statement")?, s.process.clone()]),
        ));
    }
    let logged: Vec<&Span> = all.iter().filter(|s| !s.events.is_empty()).collect();
    qs.push(lookup_by(
        &logged,
        0.6,
        "What event did span {key} log first?",
        |s| id(s),
        |s| Some(vec![s.events.first()?.clone()]),
    ));
    // How many, and which is slowest.
    let n = |keep: &dyn Fn(&Span) -> bool| all.iter().filter(|s| keep(s)).count();
    qs.push(Some(count("How many spans have error=true?", &["error", "errors"], n(&|s| s.failed()), Some("error"))));
    qs.push(Some(count("How many spans are there in the trace?", &["spans"], all.len(), None)));
    let per_service = most_frequent(all.iter().map(|s| s.service.as_str()));
    for name in ["inventory-service", "product-catalog", "pricing-service", "checkout-service", "user-service"] {
        if let Some((c, _)) = per_service.iter().find(|(_, s)| s == name) {
            qs.push(Some(count(&format!("How many spans did {name} emit?"), &[name], *c, Some("processID"))));
        }
    }
    qs.push(Some(count(
        "How many spans are PostgreSQL queries?",
        &["postgresql"],
        n(&|s| s.tag("db.system").as_deref() == Some("postgresql")),
        Some("db.system"),
    )));
    qs.push(Some(count(
        "How many spans are Redis commands?",
        &["redis"],
        n(&|s| s.tag("db.system").as_deref() == Some("redis")),
        Some("db.system"),
    )));
    qs.push(Some(count(
        "How many spans are client spans (span.kind=client)?",
        &["client"],
        n(&|s| s.tag("span.kind").as_deref() == Some("client")),
        Some("span.kind"),
    )));
    qs.push(Some(count(
        "How many spans got HTTP status 409?",
        &["409"],
        n(&|s| s.tag("http.status_code").as_deref() == Some("409")),
        Some("http.status_code"),
    )));
    let durations = |keep: &dyn Fn(&Span) -> bool| -> Vec<(i64, String)> {
        all.iter().filter(|s| keep(s)).map(|s| (s.duration, s.id.clone())).collect()
    };
    qs.push(extreme(
        "Which database query (db.statement) took the longest? Give its span ID.",
        durations(&|s| s.tag("db.system").as_deref() == Some("postgresql")),
        true,
        Some("duration"),
    ));
    qs.push(extreme(
        "Which Redis command was the fastest? Give its span ID.",
        durations(&|s| s.tag("db.system").as_deref() == Some("redis")),
        false,
        Some("duration"),
    ));
    qs.push(extreme(
        "Which call to an external API (Stripe, Avalara, a carrier, SendGrid) took the longest? Give its span ID.",
        durations(&|s| s.tag("http.url").is_some_and(|u| u.starts_with("https://"))),
        true,
        Some("duration"),
    ));
    qs.push(extreme(
        "Which inventory reservation (server span POST /v1/reservations) took the longest? Give its span ID.",
        durations(&|s| s.op == "POST /v1/reservations"),
        true,
        Some("duration"),
    ));
    qs.push(extreme("Which service emitted the most spans?", per_service, true, Some("processID")));
    let catalog_pods = most_frequent(all.iter().filter(|s| s.service == "product-catalog").map(|s| s.process.as_str()));
    qs.push(extreme(
        "Which product-catalog process (processID) emitted the most spans?",
        catalog_pods,
        true,
        Some("processID"),
    ));
    qs
}
