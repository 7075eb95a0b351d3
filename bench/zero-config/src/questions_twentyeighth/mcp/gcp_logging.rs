//! Questions about a Cloud Logging `entries.list` page, newest first: the newest and the
//! oldest entries (insert id, severity, time, log, resource, message), the newest and the
//! oldest Cloud Run requests and the next page's token; an entry's severity and message,
//! resource and pod by its insert id, a request's URL, status and latency by its insert id
//! or trace, who made an audited call and which workload failed in a trace; and how many
//! entries are errors, warnings or notices, how many audited calls were refused, how many
//! requests failed with a 5xx, how many entries the busiest workloads wrote, and which
//! request was slowest, fastest or sent the most bytes, which workload wrote the most
//! errors, who made the most audited calls and which pod logged the most.

use serde_json::Value;

use super::{duration_seconds, field, list, number};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{end, lookup_one as lookup};

/// The workload an entry comes from: the container, the Cloud Run service, or for an
/// audit entry the Google API that was called.
pub(super) fn source(e: &Value) -> String {
    ["resource.labels.container_name", "resource.labels.service_name", "protoPayload.serviceName"]
        .iter()
        .map(|p| field(e, p))
        .find(|s| !s.is_empty())
        .unwrap_or_default()
}

/// What an entry says: its structured message or its text.
pub(super) fn message(e: &Value) -> String {
    let m = field(e, "jsonPayload.message");
    if m.is_empty() { field(e, "textPayload") } else { m }
}

/// The trace id of an entry (the last part of `projects/…/traces/ID`), or an empty string.
pub(super) fn trace_id(e: &Value) -> String {
    field(e, "trace").rsplit('/').next().unwrap_or_default().to_owned()
}

pub(super) fn gcp_logging_questions(v: &Value) -> Vec<Option<Question>> {
    let entries = list(v, "entries");
    let id = |e: &Value| field(e, "insertId");
    let with = |e: &Value, paths: &[&str]| Some([vec![id(e)], paths.iter().map(|p| field(e, p)).collect()].concat());
    let severity_time = |e: &Value| with(e, &["severity", "timestamp"]);
    let said: Vec<&Value> = entries.iter().filter(|e| !message(e).is_empty()).collect();
    let requests: Vec<&Value> = entries.iter().filter(|e| e.get("httpRequest").is_some()).collect();
    let audits: Vec<&Value> = entries.iter().filter(|e| e.get("protoPayload").is_some()).collect();
    let request = |e: &&Value| Some(vec![field(e, "httpRequest.requestUrl"), field(e, "httpRequest.status")]);
    let what = |e: &&Value| Some(vec![id(e), message(e)]);
    let page = std::slice::from_ref(v);
    let mut qs = vec![
        end(entries, 0, false, "What is the insert id of the newest entry, its severity and timestamp?", severity_time),
        end(entries, 0, false, "Which log did the newest entry go to?", |e| with(e, &["logName"])),
        end(entries, 0, false, "What kind of resource wrote the newest entry, and which workload?", |e| {
            Some(vec![id(e), field(e, "resource.type"), source(e)])
        }),
        end(entries, 0, false, "When did Cloud Logging receive the newest entry?", |e| with(e, &["receiveTimestamp"])),
        end(&said, 0, false, "What did the newest entry with a message say?", what),
        end(entries, 1, false, "What is the insert id and severity of the second entry?", |e| with(e, &["severity"])),
        end(entries, 2, false, "What is the insert id and timestamp of the third entry?", |e| with(e, &["timestamp"])),
        end(entries, 3, false, "What kind of resource wrote the fourth entry?", |e| with(e, &["resource.type"])),
        end(entries, 4, false, "What is the insert id and severity of the fifth entry?", |e| with(e, &["severity"])),
        end(
            &requests,
            0,
            false,
            "Which URL did the most recent Cloud Run request call, and what status did it get?",
            request,
        ),
        end(
            entries,
            0,
            true,
            "What is the insert id of the oldest entry on the page, its severity and timestamp?",
            severity_time,
        ),
        end(entries, 0, true, "Which log did the oldest entry on the page go to?", |e| with(e, &["logName"])),
        end(entries, 0, true, "What kind of resource wrote the oldest entry on the page, and which workload?", |e| {
            Some(vec![id(e), field(e, "resource.type"), source(e)])
        }),
        end(&said, 0, true, "What did the oldest entry with a message on the page say?", what),
        end(entries, 1, true, "What is the insert id and severity of the second to last entry?", |e| {
            with(e, &["severity"])
        }),
        end(entries, 2, true, "What is the insert id and timestamp of the third to last entry?", |e| {
            with(e, &["timestamp"])
        }),
        end(entries, 3, true, "What kind of resource wrote the fourth to last entry?", |e| with(e, &["resource.type"])),
        end(
            &requests,
            0,
            true,
            "Which URL did the oldest Cloud Run request on the page call, and what status did it get?",
            request,
        ),
        end(entries, 0, true, "When did Cloud Logging receive the oldest entry on the page?", |e| {
            with(e, &["receiveTimestamp"])
        }),
        end(page, 0, true, "What token fetches the next page of entries?", |v| Some(vec![field(v, "nextPageToken")])),
    ];
    for f in [0.3, 0.75] {
        qs.push(lookup(
            &said,
            f,
            "What severity is the entry {key}, and what does it say?",
            |e| id(e),
            |e| Some(vec![field(e, "severity"), message(e)]),
        ));
    }
    qs.push(lookup(entries, 0.5, "What kind of resource wrote the entry {key}, and at what severity?", id, |e| {
        Some(vec![field(e, "resource.type"), field(e, "severity")])
    }));
    let containers: Vec<&Value> = entries.iter().filter(|e| field(e, "resource.type") == "k8s_container").collect();
    qs.push(lookup(
        &containers,
        0.85,
        "Which pod wrote the entry {key}?",
        |e| id(e),
        |e| Some(vec![field(e, "resource.labels.pod_name")]),
    ));
    for f in [0.25, 0.65] {
        qs.push(lookup(
            &requests,
            f,
            "Which URL did the request logged as {key} call, and what status did it get?",
            |e| id(e),
            request,
        ));
    }
    qs.push(lookup(
        &requests,
        0.45,
        "How long did the request logged as {key} take?",
        |e| id(e),
        |e| Some(vec![field(e, "httpRequest.latency")]),
    ));
    qs.push(lookup(
        &requests,
        0.55,
        "Which URL did the request in trace {key} call, and with what status?",
        |e| trace_id(e),
        request,
    ));
    for f in [0.4, 0.9] {
        qs.push(lookup(
            &audits,
            f,
            "Who made the audited call {key}, and which method did they call?",
            |e| id(e),
            |e| {
                Some(vec![
                    field(e, "protoPayload.authenticationInfo.principalEmail"),
                    field(e, "protoPayload.methodName"),
                ])
            },
        ));
    }
    let failed: Vec<&Value> =
        said.iter().copied().filter(|e| field(e, "severity") == "ERROR" && !trace_id(e).is_empty()).collect();
    qs.push(lookup(
        &failed,
        0.3,
        "Which workload failed in trace {key}, and with what error?",
        |e| trace_id(e),
        |e| Some(vec![source(e), message(e)]),
    ));
    // How many, and which is the largest.
    for severity in ["ERROR", "WARNING", "NOTICE"] {
        let n = entries.iter().filter(|e| field(e, "severity") == severity).count();
        qs.push(Some(count(&format!("How many entries have severity {severity}?"), &[severity], n, Some("severity"))));
    }
    let denied = audits.iter().filter(|e| number(e, "protoPayload.status.code") == Some(7.0)).count();
    qs.push(Some(count(
        "How many audited calls were refused with PERMISSION_DENIED?",
        &["PERMISSION_DENIED"],
        denied,
        Some("status"),
    )));
    qs.push(Some(count(
        "How many entries are Cloud Audit Logs entries?",
        &["audit"],
        audits.len(),
        Some("protoPayload"),
    )));
    let status = |e: &Value| number(e, "httpRequest.status").unwrap_or(0.0);
    let n = requests.iter().filter(|e| status(e) >= 500.0).count();
    qs.push(Some(count("How many Cloud Run requests failed with a 5xx status?", &["5xx"], n, Some("status"))));
    let mut by_source = most_frequent(entries.iter().map(|e| {
        e["resource"]["labels"]["container_name"]
            .as_str()
            .or(e["resource"]["labels"]["service_name"].as_str())
            .unwrap_or_default()
    }));
    by_source.retain(|(_, s)| !s.is_empty());
    by_source.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (n, workload) in by_source.iter().take(2) {
        qs.push(Some(count(
            &format!("How many entries did {workload} write?"),
            &[workload],
            *n,
            Some("container_name"),
        )));
    }
    let latency: Vec<(f64, String)> =
        requests.iter().filter_map(|e| Some((duration_seconds(&field(e, "httpRequest.latency"))?, id(e)))).collect();
    qs.push(extreme("Which request was the slowest (highest latency)?", latency.clone(), true, Some("latency")));
    qs.push(extreme("Which request was the fastest (lowest latency)?", latency, false, Some("latency")));
    let sizes: Vec<(f64, String)> =
        requests.iter().filter_map(|e| Some((number(e, "httpRequest.responseSize")?, id(e)))).collect();
    qs.push(extreme("Which request sent the largest response?", sizes, true, Some("responseSize")));
    let errors = most_frequent(entries.iter().filter(|e| e["severity"] == "ERROR").map(|e| {
        e["resource"]["labels"]["container_name"]
            .as_str()
            .or(e["resource"]["labels"]["service_name"].as_str())
            .or(e["protoPayload"]["serviceName"].as_str())
            .unwrap_or_default()
    }));
    qs.push(extreme("Which workload wrote the most ERROR entries?", errors, true, Some("severity")));
    let callers = most_frequent(
        audits.iter().map(|e| e["protoPayload"]["authenticationInfo"]["principalEmail"].as_str().unwrap_or_default()),
    );
    qs.push(extreme("Who made the most audited calls?", callers, true, Some("principalEmail")));
    let pods =
        most_frequent(containers.iter().map(|e| e["resource"]["labels"]["pod_name"].as_str().unwrap_or_default()));
    qs.push(extreme("Which pod wrote the most entries?", pods, true, Some("pod_name")));
    qs
}
