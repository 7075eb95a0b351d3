//! OpenTelemetry export over OTLP/HTTP with JSON encoding: one OTel span per tool call, and
//! the per-tool [`Metrics`], sent to a collector such as `http://127.0.0.1:4318`.
//!
//! Written against the OTLP specification rather than with the OpenTelemetry SDK: the SDK,
//! its protocol types and a blocking HTTP client rebuilt a large part of the dependency tree
//! under other features (measured: well over 80 s added to a build), while the protocol
//! needed here is two JSON documents POSTed over HTTP/1.1. Plain `http://` only: send to a
//! local collector or agent, which forwards over TLS.
//!
//! [`OtlpExport`] is a [`SpanExport`], so it runs on the sink's background thread, never on a
//! request. A failed request is logged through `tracing` and export pauses for
//! [`RETRY_AFTER`] (spans in that pause are counted, not sent): a collector that is down
//! must not slow the span log down.
//!
//! Spans are named `tools/call {tool}`, kind server, status error for failed calls, from the
//! call's end minus its upstream and shaping time to its end, with attributes
//! `toolshape.tool`, `toolshape.status`, `toolshape.tokens.before`,
//! `toolshape.tokens.before_estimated`, `toolshape.tokens.after`, `toolshape.bytes.before`,
//! `toolshape.bytes.after`, `toolshape.records.kept`, `toolshape.records.omitted`,
//! `toolshape.upstream_ms`, `toolshape.shaping_ms`, and when known `toolshape.mask`,
//! `toolshape.upstream`, `toolshape.cut`, `enduser.id` (the principal), `session.id`, and
//! `toolshape.redactions.{kind}`.
//!
//! Metrics (cumulative, sent at most every [`OtlpConfig::metrics_interval`] when spans come,
//! and at shutdown): `toolshape.tool.calls` (sum, by `tool` and `status`),
//! `toolshape.tokens.before` and `toolshape.tokens.after` (histograms over
//! [`TOKEN_BUCKETS`], by `tool`), `toolshape.bytes.before` and `toolshape.bytes.after` (sums).

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolshape_util::random;

use crate::metrics::{Histogram, TOKEN_BUCKETS};
use crate::{Metrics, Span, SpanExport, TelemetryError, now_unix_ms};

/// How long export pauses after a failed request.
pub const RETRY_AFTER: Duration = Duration::from_secs(10);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
const IO_TIMEOUT: Duration = Duration::from_secs(5);

/// Where and how to export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtlpConfig {
    /// The collector's base URL (`http://127.0.0.1:4318`); `/v1/traces` and `/v1/metrics`
    /// are appended.
    pub endpoint: String,
    /// The `service.name` resource attribute.
    pub service_name: String,
    /// The least time between two metric exports.
    pub metrics_interval: Duration,
}

impl OtlpConfig {
    /// Export to `endpoint` as service `toolshape`, metrics at most every 30 seconds.
    pub fn new(endpoint: impl Into<String>) -> OtlpConfig {
        OtlpConfig {
            endpoint: endpoint.into(),
            service_name: "toolshape".into(),
            metrics_interval: Duration::from_secs(30),
        }
    }
}

/// A parsed `http://host:port/base` endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Endpoint {
    /// `host:port`, for connecting and for the `Host` header.
    authority: String,
    /// The path prefix, without a trailing `/` (empty for none).
    base: String,
}

impl Endpoint {
    fn parse(url: &str) -> Result<Endpoint, TelemetryError> {
        let bad = |why: &str| TelemetryError::Otlp(format!("endpoint `{url}`: {why}"));
        let rest = url.strip_prefix("http://").ok_or_else(|| {
            bad("must start with http:// (send to a local collector over plain HTTP; it can forward over TLS)")
        })?;
        let (authority, base) = rest.split_once('/').map_or((rest, ""), |(a, b)| (a, b));
        if authority.is_empty() {
            return Err(bad("has no host"));
        }
        let authority = if authority.rsplit_once(':').is_some_and(|(_, port)| port.parse::<u16>().is_ok()) {
            authority.to_owned()
        } else {
            format!("{authority}:80")
        };
        let base = base.trim_end_matches('/');
        Ok(Endpoint { authority, base: if base.is_empty() { String::new() } else { format!("/{base}") } })
    }
}

/// The OTLP exporter (a [`SpanExport`] for [`crate::TelemetryConfig::export`]).
#[derive(Debug)]
pub struct OtlpExport {
    config: OtlpConfig,
    endpoint: Endpoint,
    metrics: Option<Arc<Metrics>>,
    paused_until: Option<Instant>,
    last_metrics: Option<Instant>,
    start_ms: i64,
    exported: u64,
    skipped: u64,
}

impl OtlpExport {
    /// An exporter for `config`; `metrics` (usually the sink's) are exported too. The
    /// endpoint is checked now; connections are made when spans come.
    pub fn new(config: OtlpConfig, metrics: Option<Arc<Metrics>>) -> Result<OtlpExport, TelemetryError> {
        let endpoint = Endpoint::parse(&config.endpoint)?;
        Ok(OtlpExport {
            config,
            endpoint,
            metrics,
            paused_until: None,
            last_metrics: None,
            start_ms: now_unix_ms(),
            exported: 0,
            skipped: 0,
        })
    }

    /// Spans sent, and spans not sent (export paused after a failure).
    pub fn counts(&self) -> (u64, u64) {
        (self.exported, self.skipped)
    }

    fn resource(&self) -> Value {
        json!({ "attributes": [attribute("service.name", json!({ "stringValue": self.config.service_name }))] })
    }

    fn scope() -> Value {
        json!({ "name": "toolshape", "version": env!("CARGO_PKG_VERSION") })
    }

    /// POST `body` to `{base}{path}`; a failure pauses export.
    fn post(&mut self, path: &str, body: &Value) -> bool {
        if self.paused_until.is_some_and(|until| Instant::now() < until) {
            return false;
        }
        match post_json(&self.endpoint, path, body) {
            Ok(()) => {
                self.paused_until = None;
                true
            }
            Err(error) => {
                tracing::warn!(%error, endpoint = %self.config.endpoint, path, "OTLP export failed; pausing it");
                self.paused_until = Some(Instant::now() + RETRY_AFTER);
                false
            }
        }
    }

    fn export_metrics(&mut self) {
        let Some(metrics) = &self.metrics else { return };
        let body = metrics_body(&metrics.snapshot(), self.start_ms, now_unix_ms(), self.resource());
        self.last_metrics = Some(Instant::now());
        self.post("/v1/metrics", &body);
    }
}

impl SpanExport for OtlpExport {
    fn export(&mut self, spans: &[Span]) {
        if spans.is_empty() {
            return;
        }
        let body = json!({ "resourceSpans": [{
            "resource": self.resource(),
            "scopeSpans": [{ "scope": Self::scope(), "spans": spans.iter().map(otel_span).collect::<Vec<_>>() }],
        }]});
        if self.post("/v1/traces", &body) {
            self.exported += spans.len() as u64;
        } else {
            self.skipped += spans.len() as u64;
        }
        if self.last_metrics.is_none_or(|last| last.elapsed() >= self.config.metrics_interval) {
            self.export_metrics();
        }
    }

    fn shutdown(&mut self) {
        self.paused_until = None;
        self.export_metrics();
    }
}

/// One call as an OTLP span (JSON mapping of `opentelemetry.proto.trace.v1.Span`).
fn otel_span(span: &Span) -> Value {
    let end_ns = i128::from(span.time_ms) * 1_000_000;
    let took_ns = ((span.upstream_ms + span.shaping_ms).max(0.0) * 1_000_000.0) as i128;
    let int = |n: u64| json!({ "intValue": n.to_string() });
    let mut attributes = vec![
        attribute("toolshape.tool", json!({ "stringValue": span.tool })),
        attribute("toolshape.status", json!({ "stringValue": span.status.as_str() })),
        attribute("toolshape.tokens.before", int(span.tokens_before.value())),
        attribute("toolshape.tokens.before_estimated", json!({ "boolValue": span.tokens_before.is_estimated() })),
        attribute("toolshape.tokens.after", int(span.tokens_after)),
        attribute("toolshape.bytes.before", int(span.bytes_before)),
        attribute("toolshape.bytes.after", int(span.bytes_after)),
        attribute("toolshape.records.kept", int(span.records_kept)),
        attribute("toolshape.records.omitted", int(span.records_omitted)),
        attribute("toolshape.upstream_ms", json!({ "doubleValue": span.upstream_ms })),
        attribute("toolshape.shaping_ms", json!({ "doubleValue": span.shaping_ms })),
    ];
    for (key, value) in [
        ("toolshape.mask", &span.mask),
        ("toolshape.upstream", &span.upstream),
        ("toolshape.cut", &span.cut),
        ("enduser.id", &span.principal),
        ("session.id", &span.session),
    ] {
        if let Some(value) = value {
            attributes.push(attribute(key, json!({ "stringValue": value })));
        }
    }
    for (kind, n) in &span.redactions {
        attributes.push(attribute(&format!("toolshape.redactions.{kind}"), int(*n)));
    }
    // Status codes: 0 unset, 1 ok, 2 error. Kind 2 is server.
    let status = if span.status.is_error() { json!({ "code": 2 }) } else { json!({ "code": 0 }) };
    json!({
        "traceId": random::hex(16),
        "spanId": random::hex(8),
        "name": format!("tools/call {}", span.tool),
        "kind": 2,
        "startTimeUnixNano": (end_ns - took_ns).max(0).to_string(),
        "endTimeUnixNano": end_ns.max(0).to_string(),
        "attributes": attributes,
        "status": status,
    })
}

/// The metrics as an `ExportMetricsServiceRequest` (cumulative since `start_ms`).
fn metrics_body(
    tools: &std::collections::BTreeMap<String, crate::metrics::ToolMetrics>,
    start_ms: i64,
    now_ms: i64,
    resource: Value,
) -> Value {
    let start = (i128::from(start_ms) * 1_000_000).to_string();
    let now = (i128::from(now_ms) * 1_000_000).to_string();
    let point =
        |attributes: Vec<Value>| json!({ "attributes": attributes, "startTimeUnixNano": start, "timeUnixNano": now });
    let tool_attr = |tool: &str| attribute("tool", json!({ "stringValue": tool }));
    let sum = |name: &str, description: &str, points: Vec<Value>| {
        json!({ "name": name, "description": description, "unit": "1",
                "sum": { "aggregationTemporality": 2, "isMonotonic": true, "dataPoints": points } })
    };
    let histogram = |name: &str, description: &str, pick: fn(&crate::metrics::ToolMetrics) -> &Histogram| {
        let points: Vec<Value> = tools
            .iter()
            .map(|(tool, m)| {
                let h = pick(m);
                let above = h.count - h.buckets.iter().sum::<u64>();
                let counts: Vec<String> = h.buckets.iter().chain([&above]).map(u64::to_string).collect();
                let mut p = point(vec![tool_attr(tool)]);
                p["count"] = json!(h.count.to_string());
                p["sum"] = json!(h.sum as f64);
                p["bucketCounts"] = json!(counts);
                p["explicitBounds"] = json!(TOKEN_BUCKETS.iter().map(|&b| b as f64).collect::<Vec<_>>());
                p
            })
            .collect();
        json!({ "name": name, "description": description, "unit": "{token}",
                "histogram": { "aggregationTemporality": 2, "dataPoints": points } })
    };
    let mut calls = Vec::new();
    let mut bytes_before = Vec::new();
    let mut bytes_after = Vec::new();
    for (tool, m) in tools {
        for (status, n) in &m.calls {
            let mut p = point(vec![tool_attr(tool), attribute("status", json!({ "stringValue": status.as_str() }))]);
            p["asInt"] = json!(n.to_string());
            calls.push(p);
        }
        let mut p = point(vec![tool_attr(tool)]);
        p["asInt"] = json!(m.bytes_before.to_string());
        bytes_before.push(p);
        let mut p = point(vec![tool_attr(tool)]);
        p["asInt"] = json!(m.bytes_after.to_string());
        bytes_after.push(p);
    }
    json!({ "resourceMetrics": [{
        "resource": resource,
        "scopeMetrics": [{ "scope": OtlpExport::scope(), "metrics": [
            sum("toolshape.tool.calls", "Tool calls, by tool and status.", calls),
            histogram("toolshape.tokens.before", "Tokens of an upstream result before shaping.", |m| &m.tokens_before),
            histogram("toolshape.tokens.after", "Tokens of what the model received.", |m| &m.tokens_after),
            sum("toolshape.bytes.before", "Bytes of upstream results before shaping.", bytes_before),
            sum("toolshape.bytes.after", "Bytes of what the model received.", bytes_after),
        ]}],
    }]})
}

fn attribute(key: &str, value: Value) -> Value {
    json!({ "key": key, "value": value })
}

/// One HTTP/1.1 POST of a JSON body; `Ok` on a 2xx answer.
fn post_json(endpoint: &Endpoint, path: &str, body: &Value) -> Result<(), String> {
    let body = serde_json::to_vec(body).map_err(|e| e.to_string())?;
    let address = endpoint
        .authority
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {}: {e}", endpoint.authority))?
        .next()
        .ok_or_else(|| format!("{} has no address", endpoint.authority))?;
    let mut stream = TcpStream::connect_timeout(&address, CONNECT_TIMEOUT).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(IO_TIMEOUT)).map_err(|e| e.to_string())?;
    stream.set_write_timeout(Some(IO_TIMEOUT)).map_err(|e| e.to_string())?;
    let head = format!(
        "POST {}{path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        endpoint.base,
        endpoint.authority,
        body.len()
    );
    stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(&body)).map_err(|e| e.to_string())?;
    // Only the status line matters; read a little and close.
    let mut answer = [0u8; 256];
    let n = stream.read(&mut answer).map_err(|e| e.to_string())?;
    let status_line = String::from_utf8_lossy(&answer[..n]);
    let code = status_line.split_whitespace().nth(1).unwrap_or("");
    if code.starts_with('2') {
        Ok(())
    } else {
        Err(format!("the collector answered `{}`", status_line.lines().next().unwrap_or("")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_parse() {
        let e = Endpoint::parse("http://127.0.0.1:4318").unwrap();
        assert_eq!((e.authority.as_str(), e.base.as_str()), ("127.0.0.1:4318", ""));
        let e = Endpoint::parse("http://collector/otlp/").unwrap();
        assert_eq!((e.authority.as_str(), e.base.as_str()), ("collector:80", "/otlp"));
        assert!(Endpoint::parse("https://collector:4318").is_err());
        assert!(Endpoint::parse("http://").is_err());
    }

    #[test]
    fn ids_are_hex_of_the_right_length() {
        let id = random::hex(16);
        assert_eq!(id.len(), 32);
        assert!(id.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(random::hex(8), random::hex(8));
    }
}
