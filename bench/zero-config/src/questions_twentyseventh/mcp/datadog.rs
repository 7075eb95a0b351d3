//! Questions about a Datadog log search: the newest and the oldest events (id, service,
//! status, host, timestamp, message), the most recent request through the ingress and the
//! next page's cursor; an event's service and message, host and status, pod and error by
//! its id, a request's URL, status code and duration by its trace or its log id, and the
//! service and error that failed a trace; and how many errors each service wrote, how
//! many warnings and debug lines there are, how many requests failed with a 5xx or a 404,
//! how many events a host logged and how many errors were of the commonest kind, and
//! which request was slowest and fastest, which response was largest, which service wrote
//! the most errors and which host the most events.

use serde_json::Value;

use super::{field, list, number};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{end, lookup_one as lookup};

/// The event's own attributes (`attributes.attributes`).
const OWN: &str = "attributes.attributes";

/// The value of the tag `name:` of `e`, or an empty string.
pub(super) fn tag(e: &Value, name: &str) -> String {
    let prefix = format!("{name}:");
    list(e, "attributes.tags")
        .iter()
        .filter_map(Value::as_str)
        .find_map(|t| t.strip_prefix(&prefix))
        .unwrap_or_default()
        .to_owned()
}

/// Events with an HTTP status code: the ingress's access logs.
pub(super) fn requests(events: &[Value]) -> Vec<&Value> {
    events.iter().filter(|e| number(e, &format!("{OWN}.http.status_code")).is_some()).collect()
}

pub(super) fn datadog_questions(v: &Value) -> Vec<Option<Question>> {
    let events = list(v, "data");
    let id = |e: &Value| field(e, "id");
    let at = |e: &Value, path: &str| field(e, &format!("attributes.{path}"));
    let own = |e: &Value, path: &str| field(e, &format!("{OWN}.{path}"));
    let service_status = |e: &Value| Some(vec![id(e), at(e, "service"), at(e, "status"), at(e, "timestamp")]);
    let requests = requests(events);
    let mut qs = vec![
        end(events, 0, false, "Which service logged the newest event, at what status and when?", service_status),
        end(events, 0, false, "What is the id of the newest log event?", |e| Some(vec![id(e), at(e, "timestamp")])),
        end(events, 0, false, "On which host was the newest event logged?", |e| Some(vec![id(e), at(e, "host")])),
        end(events, 0, false, "What message did the newest event log?", |e| Some(vec![id(e), at(e, "message")])),
        end(events, 1, false, "Which service logged the second newest event, and at what status?", service_status),
        end(events, 1, false, "On which host was the second newest event logged?", |e| {
            Some(vec![id(e), at(e, "host")])
        }),
        end(events, 2, false, "Which service logged the third event, and when?", |e| {
            Some(vec![id(e), at(e, "service"), at(e, "timestamp")])
        }),
        end(events, 3, false, "What is the id and service of the fourth event?", |e| {
            Some(vec![id(e), at(e, "service")])
        }),
        end(events, 4, false, "What message did the fifth event log?", |e| Some(vec![id(e), at(e, "message")])),
        end(
            &requests,
            0,
            false,
            "What URL did the most recent request through the ingress call, and with what status code?",
            |e| Some(vec![own(e, "http.url"), own(e, "http.status_code")]),
        ),
        end(
            events,
            0,
            true,
            "Which service logged the oldest event on the page, at what status and when?",
            service_status,
        ),
        end(events, 0, true, "What is the id of the oldest event on the page?", |e| {
            Some(vec![id(e), at(e, "timestamp")])
        }),
        end(events, 0, true, "On which host was the oldest event on the page logged?", |e| {
            Some(vec![id(e), at(e, "host")])
        }),
        end(events, 0, true, "What message did the oldest event on the page log?", |e| {
            Some(vec![id(e), at(e, "message")])
        }),
        end(events, 1, true, "Which service logged the second to last event, and at what status?", service_status),
        end(events, 1, true, "On which host was the second to last event logged?", |e| {
            Some(vec![id(e), at(e, "host")])
        }),
        end(events, 2, true, "Which service logged the third to last event, and when?", |e| {
            Some(vec![id(e), at(e, "service"), at(e, "timestamp")])
        }),
        end(events, 3, true, "What is the id and service of the fourth to last event?", |e| {
            Some(vec![id(e), at(e, "service")])
        }),
        end(
            &requests,
            0,
            true,
            "What URL did the oldest request through the ingress on the page call, and with what status code?",
            |e| Some(vec![own(e, "http.url"), own(e, "http.status_code")]),
        ),
        end(std::slice::from_ref(v), 0, true, "What cursor fetches the next page of logs?", |v| {
            Some(vec![field(v, "meta.page.after")])
        }),
        end(std::slice::from_ref(v), 0, true, "What is the request id of this search?", |v| {
            Some(vec![field(v, "meta.request_id")])
        }),
    ];
    for f in [0.3, 0.75] {
        qs.push(lookup(events, f, "Which service logged {key}, and what was its message?", id, |e| {
            Some(vec![at(e, "service"), at(e, "message")])
        }));
    }
    qs.push(lookup(events, 0.5, "On which host was {key} logged, and at what status?", id, |e| {
        Some(vec![at(e, "host"), at(e, "status")])
    }));
    qs.push(lookup(events, 0.85, "Which pod logged the event {key}?", id, |e| Some(vec![tag(e, "pod_name")])));
    let failed: Vec<&Value> = events.iter().filter(|e| !own(e, "error.kind").is_empty()).collect();
    for f in [0.5, 0.95] {
        qs.push(lookup(
            &failed,
            f,
            "What error did the event {key} record?",
            |e| id(e),
            |e| Some(vec![own(e, "error.kind"), own(e, "error.message")]),
        ));
    }
    qs.push(lookup(
        &failed,
        0.2,
        "Which service failed in trace {key}, and with what error?",
        |e| own(e, "trace_id"),
        |e| Some(vec![at(e, "service"), own(e, "error.kind")]),
    ));
    for f in [0.25, 0.65] {
        qs.push(lookup(
            &requests,
            f,
            "Which URL did the request with trace id {key} call, and what status code did it get?",
            |e| own(e, "trace_id"),
            |e| Some(vec![own(e, "http.url"), own(e, "http.status_code")]),
        ));
    }
    qs.push(lookup(
        &requests,
        0.45,
        "How long did the request logged as {key} take (duration)?",
        |e| id(e),
        |e| Some(vec![own(e, "duration")]),
    ));
    // How many, and which is the largest.
    let errors: Vec<&Value> = events.iter().filter(|e| at(e, "status") == "error").collect();
    let by_service = most_frequent(errors.iter().map(|e| e["attributes"]["service"].as_str().unwrap_or_default()));
    let mut ranked = by_service.clone();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (n, service) in ranked.iter().take(3) {
        qs.push(Some(count(&format!("How many error logs did {service} write?"), &[service], *n, Some("status"))));
    }
    for status in ["error", "warn", "debug"] {
        let n = events.iter().filter(|e| at(e, "status") == status).count();
        qs.push(Some(count(&format!("How many events have status {status}?"), &[status], n, Some("status"))));
    }
    let code = |e: &Value| number(e, &format!("{OWN}.http.status_code")).unwrap_or(0.0);
    let n = requests.iter().filter(|e| code(e) >= 500.0).count();
    qs.push(Some(count(
        "How many requests through the ingress returned a 5xx status?",
        &["5xx"],
        n,
        Some("status_code"),
    )));
    let n = requests.iter().filter(|e| code(e) == 404.0).count();
    qs.push(Some(count("How many requests returned 404 Not Found?", &["404"], n, Some("status_code"))));
    let hosts = most_frequent(events.iter().map(|e| e["attributes"]["host"].as_str().unwrap_or_default()));
    if let Some((n, host)) = hosts.iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))) {
        qs.push(Some(count(&format!("How many events were logged on host {host}?"), &[host], *n, Some("host"))));
    }
    let kinds = most_frequent(
        failed.iter().map(|e| e["attributes"]["attributes"]["error"]["kind"].as_str().unwrap_or_default()),
    );
    if let Some((n, kind)) = kinds.iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))) {
        qs.push(Some(count(&format!("How many events recorded a {kind} error?"), &[kind], *n, Some("kind"))));
    }
    let durations: Vec<(f64, String)> =
        requests.iter().filter_map(|e| Some((number(e, &format!("{OWN}.duration"))?, id(e)))).collect();
    qs.push(extreme("Which request was the slowest (longest duration)?", durations.clone(), true, Some("duration")));
    qs.push(extreme("Which request was the fastest (shortest duration)?", durations, false, Some("duration")));
    let bytes: Vec<(f64, String)> =
        requests.iter().filter_map(|e| Some((number(e, &format!("{OWN}.network.bytes_written"))?, id(e)))).collect();
    qs.push(extreme("Which request sent the largest response (bytes written)?", bytes, true, Some("bytes_written")));
    qs.push(extreme("Which service logged the most errors?", by_service, true, Some("service")));
    qs.push(extreme("Which host logged the most events?", hosts, true, Some("host")));
    qs
}
