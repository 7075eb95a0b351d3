//! Per-tool metrics in the Prometheus text exposition format (version 0.0.4).
//!
//! A small registry of our own rather than the `metrics` facade: every figure comes from a
//! [`Span`], so there is exactly one place that records and no instrumentation spread over
//! crates to collect; an owned registry needs no process-wide recorder (several gateways, or
//! tests, in one process each keep their own), renders deterministically (sorted by tool and
//! label), and adds nothing to the build.
//!
//! Families (all labelled by `tool`):
//! - `toolshape_tool_calls_total{status}`: calls by status;
//! - `toolshape_tokens_before` and `toolshape_tokens_after`: histograms of tokens per call,
//!   before and after shaping (pre-shaping figures of pending counts arrive once the
//!   background thread has counted them);
//! - `toolshape_bytes_before_total`, `toolshape_bytes_after_total`: bytes in and out;
//! - `toolshape_redactions_total{kind}`: redactions by kind;
//! - `toolshape_spans_dropped_total` (no labels): spans the sink could not queue.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::span::{CallStatus, Span, TokensBefore};

/// Upper bounds of the token histogram buckets (`+Inf` is implied).
pub const TOKEN_BUCKETS: [u64; 12] =
    [100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 1_000_000];

/// A cumulative histogram over [`TOKEN_BUCKETS`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Histogram {
    /// Observations at or below each bound and above the previous one (not cumulative).
    pub(crate) buckets: [u64; TOKEN_BUCKETS.len()],
    pub(crate) sum: u64,
    pub(crate) count: u64,
}

impl Histogram {
    fn observe(&mut self, value: u64) {
        if let Some(i) = TOKEN_BUCKETS.iter().position(|&bound| value <= bound) {
            self.buckets[i] += 1;
        }
        self.sum = self.sum.saturating_add(value);
        self.count += 1;
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct ToolMetrics {
    pub(crate) calls: BTreeMap<CallStatus, u64>,
    pub(crate) tokens_before: Histogram,
    pub(crate) tokens_after: Histogram,
    pub(crate) bytes_before: u64,
    pub(crate) bytes_after: u64,
    pub(crate) redactions: BTreeMap<String, u64>,
}

/// The metrics registry. Shared as `Arc<Metrics>` between the sink that records and the
/// HTTP route that renders.
#[derive(Debug, Default)]
pub struct Metrics {
    tools: Mutex<BTreeMap<String, ToolMetrics>>,
    dropped: AtomicU64,
}

impl Metrics {
    /// An empty registry.
    pub fn new() -> Metrics {
        Metrics::default()
    }

    /// Record everything about `span` (including its pre-shaping tokens, estimated if still
    /// pending). Use this when recording without a [`crate::Telemetry`] sink.
    pub fn record(&self, span: &Span) {
        self.record_call(span);
        if matches!(span.tokens_before, TokensBefore::Pending(_)) {
            self.record_tokens_before(&span.tool, span.tokens_before.value());
        }
    }

    /// Record `span` except its pre-shaping tokens when they are still pending (the sink
    /// records those once counted, with [`Metrics::record_tokens_before`]).
    pub fn record_call(&self, span: &Span) {
        let mut tools = self.tools.lock().unwrap_or_else(PoisonError::into_inner);
        let tool = tools.entry(span.tool.clone()).or_default();
        *tool.calls.entry(span.status).or_default() += 1;
        if !matches!(span.tokens_before, TokensBefore::Pending(_)) {
            tool.tokens_before.observe(span.tokens_before.value());
        }
        tool.tokens_after.observe(span.tokens_after);
        tool.bytes_before = tool.bytes_before.saturating_add(span.bytes_before);
        tool.bytes_after = tool.bytes_after.saturating_add(span.bytes_after);
        for (kind, n) in &span.redactions {
            *tool.redactions.entry(kind.clone()).or_default() += n;
        }
    }

    /// Record the pre-shaping token count of one call of `tool`.
    pub fn record_tokens_before(&self, tool: &str, tokens: u64) {
        let mut tools = self.tools.lock().unwrap_or_else(PoisonError::into_inner);
        match tools.get_mut(tool) {
            Some(metrics) => metrics.tokens_before.observe(tokens),
            None => tools.entry(tool.to_owned()).or_default().tokens_before.observe(tokens),
        }
    }

    /// A copy of every tool's figures (for the OTLP exporter).
    pub(crate) fn snapshot(&self) -> BTreeMap<String, ToolMetrics> {
        self.tools.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Count one span the sink could not queue.
    pub fn record_dropped(&self) {
        self.dropped.fetch_add(1, Ordering::Relaxed);
    }

    /// Everything, in the Prometheus text exposition format (serve it as
    /// `text/plain; version=0.0.4`).
    pub fn render(&self) -> String {
        let tools = self.tools.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let mut out = String::new();
        family(
            &mut out,
            "toolshape_tool_calls_total",
            "counter",
            "Tool calls through the gateway, by tool and status.",
        );
        for (tool, metrics) in &tools {
            for (status, n) in &metrics.calls {
                let _ = writeln!(
                    out,
                    "toolshape_tool_calls_total{{tool=\"{}\",status=\"{}\"}} {n}",
                    escape_label(tool),
                    status.as_str()
                );
            }
        }
        for (name, help, pick) in [
            (
                "toolshape_tokens_before",
                "Tokens of an upstream result before shaping.",
                (|m: &ToolMetrics| &m.tokens_before) as fn(&ToolMetrics) -> &Histogram,
            ),
            ("toolshape_tokens_after", "Tokens of what the model received, after shaping.", |m: &ToolMetrics| {
                &m.tokens_after
            }),
        ] {
            family(&mut out, name, "histogram", help);
            for (tool, metrics) in &tools {
                render_histogram(&mut out, name, &escape_label(tool), pick(metrics));
            }
        }
        for (name, help, pick) in [
            (
                "toolshape_bytes_before_total",
                "Bytes of upstream results before shaping.",
                (|m: &ToolMetrics| m.bytes_before) as fn(&ToolMetrics) -> u64,
            ),
            ("toolshape_bytes_after_total", "Bytes of what the model received.", |m: &ToolMetrics| m.bytes_after),
        ] {
            family(&mut out, name, "counter", help);
            for (tool, metrics) in &tools {
                let _ = writeln!(out, "{name}{{tool=\"{}\"}} {}", escape_label(tool), pick(metrics));
            }
        }
        family(&mut out, "toolshape_redactions_total", "counter", "Values redacted from results, by tool and kind.");
        for (tool, metrics) in &tools {
            for (kind, n) in &metrics.redactions {
                let _ = writeln!(
                    out,
                    "toolshape_redactions_total{{tool=\"{}\",kind=\"{}\"}} {n}",
                    escape_label(tool),
                    escape_label(kind)
                );
            }
        }
        family(
            &mut out,
            "toolshape_spans_dropped_total",
            "counter",
            "Spans dropped because the telemetry queue was full.",
        );
        let _ = writeln!(out, "toolshape_spans_dropped_total {}", self.dropped.load(Ordering::Relaxed));
        out
    }
}

fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

fn render_histogram(out: &mut String, name: &str, tool: &str, histogram: &Histogram) {
    let mut cumulative = 0;
    for (bound, n) in TOKEN_BUCKETS.iter().zip(histogram.buckets) {
        cumulative += n;
        let _ = writeln!(out, "{name}_bucket{{tool=\"{tool}\",le=\"{bound}\"}} {cumulative}");
    }
    let _ = writeln!(out, "{name}_bucket{{tool=\"{tool}\",le=\"+Inf\"}} {}", histogram.count);
    let _ = writeln!(out, "{name}_sum{{tool=\"{tool}\"}} {}", histogram.sum);
    let _ = writeln!(out, "{name}_count{{tool=\"{tool}\"}} {}", histogram.count);
}

/// A label value as the exposition format writes it: `\`, `"` and newlines escaped.
fn escape_label(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(tool: &str, status: CallStatus, before: u64, after: u64) -> Span {
        Span {
            tokens_before: TokensBefore::Exact(before),
            tokens_after: after,
            bytes_before: before * 4,
            bytes_after: after * 4,
            ..Span::new(tool, status)
        }
    }

    #[test]
    fn renders_counters_and_cumulative_histograms() {
        let metrics = Metrics::new();
        metrics.record(&span("list_issues", CallStatus::Ok, 4000, 300));
        metrics.record(&span("list_issues", CallStatus::Partial, 90, 80));
        let mut redacted = span("get \"x\"", CallStatus::Error, 10, 10);
        redacted.redactions.insert("email".into(), 2);
        metrics.record(&redacted);
        metrics.record_dropped();
        let text = metrics.render();
        assert!(text.contains("toolshape_tool_calls_total{tool=\"list_issues\",status=\"ok\"} 1\n"), "{text}");
        assert!(text.contains("toolshape_tool_calls_total{tool=\"list_issues\",status=\"partial\"} 1\n"));
        assert!(text.contains("toolshape_tool_calls_total{tool=\"get \\\"x\\\"\",status=\"error\"} 1\n"));
        // 90 falls in le=100, 4000 in le=5000: cumulative counts 1 up to 2500, then 2.
        assert!(text.contains("toolshape_tokens_before_bucket{tool=\"list_issues\",le=\"100\"} 1\n"));
        assert!(text.contains("toolshape_tokens_before_bucket{tool=\"list_issues\",le=\"2500\"} 1\n"));
        assert!(text.contains("toolshape_tokens_before_bucket{tool=\"list_issues\",le=\"5000\"} 2\n"));
        assert!(text.contains("toolshape_tokens_before_bucket{tool=\"list_issues\",le=\"+Inf\"} 2\n"));
        assert!(text.contains("toolshape_tokens_before_sum{tool=\"list_issues\"} 4090\n"));
        assert!(text.contains("toolshape_tokens_after_sum{tool=\"list_issues\"} 380\n"));
        assert!(text.contains("toolshape_bytes_before_total{tool=\"list_issues\"} 16360\n"));
        assert!(text.contains("toolshape_redactions_total{tool=\"get \\\"x\\\"\",kind=\"email\"} 2\n"));
        assert!(text.contains("toolshape_spans_dropped_total 1\n"));
    }

    #[test]
    fn pending_tokens_wait_for_the_count() {
        let metrics = Metrics::new();
        let pending = Span { tokens_before: TokensBefore::pending(vec![b'x'; 400]), ..Span::new("t", CallStatus::Ok) };
        metrics.record_call(&pending);
        assert!(metrics.render().contains("toolshape_tokens_before_count{tool=\"t\"} 0\n"));
        metrics.record_tokens_before("t", 77);
        let text = metrics.render();
        assert!(text.contains("toolshape_tokens_before_count{tool=\"t\"} 1\n"));
        assert!(text.contains("toolshape_tokens_before_sum{tool=\"t\"} 77\n"));
    }
}
