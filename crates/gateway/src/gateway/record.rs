//! What is recorded of each call, once its answer is on its way: the log line and the span
//! handed to the telemetry sink (with the answer's token count when shaping left it, and the
//! upstream's bytes for the sink's thread to count).

use std::sync::Arc;
use std::time::Duration;

use tokio_util::task::TaskTracker;
use toolshape_shape::{ShapeReport, Status};
use toolshape_telemetry::{DEFAULT_EXACT_COUNT_LIMIT, SearchCall, Span, SpanSink, TokensBefore};

use super::finish::INLINE_SHAPE_MAX_BYTES;
use super::media::MediaStats;
use super::trust::Mark;
use super::{FailureKind, Gateway};

/// What is recorded of a call after its answer is sent (see [`Gateway::after_reply`]).
pub(super) struct CallRecord {
    /// The tool the agent called.
    pub(super) tool: String,
    /// The tool whose span this is: a generic `call_tool` counts as the tool it called.
    pub(super) target: String,
    pub(super) upstream: Option<String>,
    pub(super) principal: Option<String>,
    pub(super) session: Option<String>,
    /// The upstream's bytes (its result, or the text of its error answer), counted for the
    /// span by the sink's thread.
    pub(super) raw: Option<Arc<Vec<u8>>>,
    pub(super) status: Status,
    /// Refused or short-circuited by a trust check: recorded as its own status.
    pub(super) mark: Option<Mark>,
    pub(super) failure: Option<FailureKind>,
    pub(super) report: ShapeReport,
    /// The text the model read, when shaping did not count it.
    pub(super) uncounted_text: Option<String>,
    pub(super) dispatched: Duration,
    pub(super) shaped: Duration,
    /// Media counts, when the result held media.
    pub(super) media: Option<MediaStats>,
    /// For the search tool: the query and what it returned.
    pub(super) search: Option<SearchCall>,
}

/// Where calls are recorded, and the recordings still under way.
pub(super) struct Recorder {
    /// Spans and log lines of answered calls, not yet recorded.
    pending: TaskTracker,
    /// Where spans go.
    spans: Arc<dyn SpanSink>,
}

impl Recorder {
    /// Spans go to `spans`.
    pub(super) fn new(spans: Arc<dyn SpanSink>) -> Recorder {
        Recorder { pending: TaskTracker::new(), spans }
    }

    /// Wait for every recording under way (no new one starts after this).
    pub(super) async fn wait(&self) {
        self.pending.close();
        self.pending.wait().await;
    }
}

impl Gateway {
    /// Record the call's span and write its log line once the answer is on its way: the
    /// work is spawned, and yields once before doing anything, so the task that writes the
    /// answer runs first (on the single-threaded stdio runtime this puts it after the write;
    /// on a multi-threaded one it runs alongside). [`Gateway::shutdown`] waits for it.
    pub(super) fn after_reply(&self, record: CallRecord) {
        let Some(me) = self.me.upgrade() else {
            self.record_call(record);
            return;
        };
        self.recorder.pending.spawn(async move {
            tokio::task::yield_now().await;
            let mut record = record;
            // A long answer that fit by its bytes is counted on the blocking pool: counting a
            // megabyte takes tens of milliseconds, and on the single-threaded stdio runtime
            // the next request would wait for it.
            if let Some(text) = record.uncounted_text.take_if(|text| text.len() > INLINE_SHAPE_MAX_BYTES) {
                let tokenizer = me.loaded().tokenizer;
                if let Ok(tokens) = tokio::task::spawn_blocking(move || tokenizer.count(&text)).await {
                    record.report.tokens_out = Some(tokens as u64);
                }
            }
            me.record_call(record);
        });
    }

    /// The span and the log line of one call.
    fn record_call(&self, mut record: CallRecord) {
        if let Some(text) = record.uncounted_text.take() {
            record.report.tokens_out = Some(self.loaded().tokenizer.count(&text) as u64);
        }
        let r = &record.report;
        tracing::info!(
            tool = record.tool,
            upstream = record.upstream.as_deref().unwrap_or("-"),
            status = record.mark.map_or(record.status.as_str(), |m| m.status().as_str()),
            failure = record.failure.map_or("-", FailureKind::as_str),
            bytes_in = r.bytes_in,
            bytes_out = r.bytes_out,
            tokens_out = r.tokens_out,
            records_kept = r.records_kept,
            records_omitted = r.records_omitted,
            cut_at = r.cut_at.as_deref().unwrap_or("-"),
            dispatch_ms = record.dispatched.as_millis(),
            shape_ms = record.shaped.as_millis(),
            "call"
        );
        self.record_span(record);
    }

    /// Hand the call's span to the sink. The pre-shaping tokens are counted by the sink's
    /// thread, from the upstream bytes (shared, not copied).
    fn record_span(&self, record: CallRecord) {
        let mut span = Span::from_report(&record.target, record.status, &record.report, TokensBefore::Exact(0));
        if let Some(mark) = record.mark {
            span.status = mark.status();
        }
        span.mask = self.loaded().masks.mask_names().any(|m| m == record.target).then(|| record.target.clone());
        span.upstream = record.upstream;
        span.principal = record.principal;
        span.session = record.session;
        span.upstream_ms = record.dispatched.as_secs_f64() * 1000.0;
        span.shaping_ms = record.shaped.as_secs_f64() * 1000.0;
        span.media = record.media;
        span.search = record.search;
        if let Some(bytes) = &record.raw {
            // An error answer is shaped from its text, not measured as bytes in: the span
            // records what the upstream sent either way.
            span.bytes_before = span.bytes_before.max(bytes.len() as u64);
        }
        span.tokens_before = match record.raw {
            Some(bytes) if bytes.len() <= DEFAULT_EXACT_COUNT_LIMIT => TokensBefore::Pending(bytes),
            Some(bytes) => TokensBefore::estimate(bytes.len() as u64),
            // Failures the gateway words itself had nothing before shaping; pages of a stored
            // result claim no savings of their own (the first page's span did).
            None => TokensBefore::Exact(if record.status == Status::Error { 0 } else { span.tokens_after }),
        };
        self.recorder.spans.record(span);
    }
}
