//! toolshape telemetry: one [`Span`] per tool call, recorded without delaying the call.
//!
//! - [`Span`]: what one call cost before and after shaping, built from the shaper's report.
//! - [`SpanSink`]: where spans go. [`Telemetry`] queues them for a background thread that
//!   counts pending token figures, writes the SQLite span log ([`SpanLogConfig`], bounded in
//!   size), updates [`Metrics`] and exports ([`SpanExport`], e.g. OTLP); [`NoopSink`] is `off`.
//! - [`Metrics`]: per-tool counters and token histograms in the Prometheus text format.
//! - [`read_spans`] and [`Report`]: `toolshape report`, as a table, JSON or an HTML page;
//!   [`SearchReport`] is its tool-search part (hit rate, queries that led to no call).
//!
//! Invariants: recording never blocks and never fails a call (a full queue drops the span
//! and counts it); a pre-shaping count that is not exact is marked as estimated everywhere
//! it appears; the span log never grows much past its size bound.

mod error;
mod html;
pub mod metrics;
pub mod otlp;
pub mod report;
mod search;
mod sink;
mod span;
mod store;

pub use error::TelemetryError;
pub use metrics::Metrics;
pub use otlp::{OtlpConfig, OtlpExport};
pub use report::{Report, ToolReport, parse_duration};
pub use search::{MAX_UNUSED_QUERIES, SearchReport, UnusedQuery};
pub use sink::{
    DEFAULT_EXACT_COUNT_LIMIT, DEFAULT_MAX_BYTES, DEFAULT_QUEUE_CAPACITY, NoopSink, SinkStats, SpanLogConfig, SpanSink,
    Telemetry, TelemetryConfig, default_spans_path, default_spans_path_from,
};
pub use span::{
    CallStatus, ESTIMATE_BYTES_PER_TOKEN, MediaCounts, SearchCall, SharedBytes, Span, TokensBefore, UnknownStatus,
    now_unix_ms,
};
pub use store::{MIN_MAX_BYTES, ReadProgress, read_spans};

/// Somewhere besides the span log that spans are sent, on the sink's background thread.
pub trait SpanExport: Send {
    /// Send a batch of spans (their pre-shaping tokens resolved). Must not panic; failures
    /// are the exporter's to log and count.
    fn export(&mut self, spans: &[Span]);

    /// Send what is buffered; called when the sink shuts down.
    fn shutdown(&mut self) {}
}
