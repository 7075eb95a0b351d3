//! Where spans go: [`SpanSink`], its no-op form [`NoopSink`], and [`Telemetry`], the sink that
//! writes the SQLite span log, feeds [`Metrics`] and exports over OTLP.
//!
//! Invariants:
//! - [`SpanSink::record`] never blocks and never fails: the span goes into a bounded queue,
//!   and when the queue is full it is dropped and counted ([`SinkStats::dropped`]).
//! - Everything slow (counting the pre-shaping tokens, SQLite, export) happens on one
//!   background thread, after the response has gone out.
//! - That thread gathers spans for up to `LINGER` (100 ms, less when a flush asks or the
//!   queue is half full) and writes them in one transaction: a commit per call would cost the
//!   gateway more CPU than the call itself, on the same cores the agent and the upstreams
//!   need. While gathering it is parked, not waiting on the queue, so recording a span wakes
//!   nobody (a send to a waiting receiver is a system call on the caller's thread).
//! - Pre-shaping results larger than [`TelemetryConfig::exact_count_limit`], or met while the
//!   queue is more than half full, are estimated (bytes / 4) and marked as estimated.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

use toolshape_tokens::{Encoding, Tokenizer};

use crate::metrics::Metrics;
use crate::span::{Span, TokensBefore};
use crate::store::SpanStore;
use crate::{SpanExport, TelemetryError};

/// Receives one span per call. The gateway holds an `Arc<dyn SpanSink>`.
pub trait SpanSink: Send + Sync {
    /// Record `span`. Never blocks on I/O and never fails; a span that cannot be queued is
    /// dropped and counted.
    fn record(&self, span: Span);

    /// Wait up to `timeout` until every span recorded so far has been written. Returns
    /// whether they all were.
    fn flush(&self, timeout: Duration) -> bool;

    /// What the sink has done so far.
    fn stats(&self) -> SinkStats;
}

/// Counters of a sink.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SinkStats {
    /// Spans accepted into the queue.
    pub queued: u64,
    /// Spans handled by the background thread (written, or failed to write).
    pub processed: u64,
    /// Spans dropped because the queue was full.
    pub dropped: u64,
    /// Spans whose write to the span log failed.
    pub failed: u64,
    /// Spans whose pre-shaping tokens were estimated rather than counted.
    pub estimated: u64,
}

/// The sink for `telemetry: off`: records nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoopSink;

impl SpanSink for NoopSink {
    fn record(&self, _span: Span) {}

    fn flush(&self, _timeout: Duration) -> bool {
        true
    }

    fn stats(&self) -> SinkStats {
        SinkStats::default()
    }
}

/// Where and how large the SQLite span log is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpanLogConfig {
    /// The file ([`default_spans_path`] unless configured).
    pub path: PathBuf,
    /// The size bound: past it the oldest spans are deleted (see the store module docs).
    pub max_bytes: u64,
}

/// The default size bound of the span log: 64 MiB (some 200,000 spans).
pub const DEFAULT_MAX_BYTES: u64 = 64 * 1024 * 1024;

impl SpanLogConfig {
    /// The span log at `path` with the default size bound.
    pub fn at(path: impl Into<PathBuf>) -> SpanLogConfig {
        SpanLogConfig { path: path.into(), max_bytes: DEFAULT_MAX_BYTES }
    }
}

/// Settings of a [`Telemetry`] sink.
#[derive(Clone)]
pub struct TelemetryConfig {
    /// The SQLite span log; `None` writes none (metrics and export still work).
    pub span_log: Option<SpanLogConfig>,
    /// Metrics to update with every span (the same `Arc` serves `/metrics`).
    pub metrics: Option<Arc<Metrics>>,
    /// Where else spans go (OTLP), if anywhere.
    pub export: Option<Arc<Mutex<dyn SpanExport>>>,
    /// How many spans may wait for the background thread before new ones are dropped.
    pub queue_capacity: usize,
    /// The tokenizer that counts pre-shaping tokens.
    pub encoding: Encoding,
    /// Pre-shaping results larger than this many bytes are estimated, not counted.
    pub exact_count_limit: usize,
}

/// The default queue capacity.
pub const DEFAULT_QUEUE_CAPACITY: usize = 4096;
/// The default [`TelemetryConfig::exact_count_limit`]: 16 MiB.
pub const DEFAULT_EXACT_COUNT_LIMIT: usize = 16 * 1024 * 1024;

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig {
            span_log: None,
            metrics: None,
            export: None,
            queue_capacity: DEFAULT_QUEUE_CAPACITY,
            encoding: Encoding::default(),
            exact_count_limit: DEFAULT_EXACT_COUNT_LIMIT,
        }
    }
}

/// The default span log: `$XDG_STATE_HOME/toolshape/spans.sqlite`, else
/// `$HOME/.local/state/toolshape/spans.sqlite`, else `toolshape-spans.sqlite` in the current
/// folder. The gateway writes here and `toolshape report` reads here unless told otherwise.
pub fn default_spans_path() -> PathBuf {
    default_spans_path_from(&|name| std::env::var_os(name).map(PathBuf::from))
}

/// [`default_spans_path`] with the environment given as a lookup function.
pub fn default_spans_path_from(env: &dyn Fn(&str) -> Option<PathBuf>) -> PathBuf {
    // An empty or relative XDG value is to be ignored, as the XDG spec asks.
    let state_home = env("XDG_STATE_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| env("HOME").filter(|p| !p.as_os_str().is_empty()).map(|home| home.join(".local").join("state")));
    match state_home {
        Some(dir) => dir.join("toolshape").join("spans.sqlite"),
        None => PathBuf::from("toolshape-spans.sqlite"),
    }
}

/// Counters shared between the recording side and the background thread.
#[derive(Default)]
struct Shared {
    queued: AtomicU64,
    dropped: AtomicU64,
    failed: AtomicU64,
    estimated: AtomicU64,
    processed: Mutex<u64>,
    progressed: Condvar,
    /// Set by a flush or a filling queue: stop gathering and write.
    hurry: AtomicBool,
}

impl Shared {
    fn processed(&self) -> u64 {
        *self.processed.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The telemetry sink: spans are queued and handled on a background thread that counts
/// pending token figures, updates metrics, writes the span log and exports.
pub struct Telemetry {
    sender: Option<SyncSender<Span>>,
    shared: Arc<Shared>,
    metrics: Option<Arc<Metrics>>,
    worker: Option<JoinHandle<()>>,
    /// The background thread, to wake when it should stop gathering.
    worker_thread: Thread,
    /// How many spans waiting make the background thread write at once.
    batch_limit: u64,
    span_log: Option<PathBuf>,
}

impl std::fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Telemetry").field("span_log", &self.span_log).field("stats", &self.stats()).finish()
    }
}

/// How long dropping a [`Telemetry`] waits for queued spans.
const DROP_FLUSH_TIMEOUT: Duration = Duration::from_secs(5);
/// The most spans written in one SQLite transaction.
const BATCH: usize = 256;
/// How long the background thread gathers spans before writing them (unless a flush asks
/// sooner, or a batch is full).
const LINGER: Duration = Duration::from_millis(100);

impl Telemetry {
    /// Open the span log (creating it and its folder) and start the background thread.
    /// Fails only if the span log cannot be opened or the thread cannot start.
    pub fn start(config: TelemetryConfig) -> Result<Telemetry, TelemetryError> {
        let store = match &config.span_log {
            Some(log) => Some(SpanStore::open(&log.path, log.max_bytes)?),
            None => None,
        };
        let capacity = config.queue_capacity.max(1);
        // Write before the queue can fill up behind the gathering.
        let batch_limit = (capacity / 2).clamp(1, BATCH);
        let (sender, receiver) = sync_channel(capacity);
        let shared = Arc::new(Shared::default());
        let worker = Worker {
            receiver,
            shared: Arc::clone(&shared),
            store,
            metrics: config.metrics.clone(),
            export: config.export.clone(),
            tokenizer: Tokenizer::new(config.encoding),
            exact_count_limit: config.exact_count_limit,
            backlog_limit: (capacity / 2) as u64,
            batch_limit,
            failures_logged: 0,
        };
        let handle = std::thread::Builder::new()
            .name("toolshape-telemetry".into())
            .spawn(move || worker.run())
            .map_err(TelemetryError::Thread)?;
        Ok(Telemetry {
            sender: Some(sender),
            worker_thread: handle.thread().clone(),
            batch_limit: batch_limit as u64,
            shared,
            metrics: config.metrics,
            worker: Some(handle),
            span_log: config.span_log.map(|log| log.path),
        })
    }

    /// The span log file, if one is written.
    pub fn span_log(&self) -> Option<&Path> {
        self.span_log.as_deref()
    }

    /// The metrics this sink updates, if any.
    pub fn metrics(&self) -> Option<&Arc<Metrics>> {
        self.metrics.as_ref()
    }

    /// Make the background thread write what it has gathered now.
    fn hurry(&self) {
        self.shared.hurry.store(true, Ordering::Release);
        self.worker_thread.unpark();
    }
}

impl SpanSink for Telemetry {
    fn record(&self, span: Span) {
        let Some(sender) = &self.sender else { return };
        if let Some(metrics) = &self.metrics {
            metrics.record_call(&span);
        }
        // Counted before it is sent, so that a flush racing with the worker never sees more
        // processed than queued.
        self.shared.queued.fetch_add(1, Ordering::Relaxed);
        match sender.try_send(span) {
            Ok(()) => {
                let queued = self.shared.queued.load(Ordering::Relaxed);
                if queued.saturating_sub(self.shared.processed()) >= self.batch_limit {
                    self.hurry();
                }
            }
            Err(TrySendError::Full(span) | TrySendError::Disconnected(span)) => {
                self.shared.queued.fetch_sub(1, Ordering::Relaxed);
                self.shared.dropped.fetch_add(1, Ordering::Relaxed);
                if let Some(metrics) = &self.metrics {
                    // The call was counted above; its pre-shaping size is still worth a guess.
                    metrics.record_tokens_before(&span.tool, span.tokens_before.value());
                    metrics.record_dropped();
                }
            }
        }
    }

    fn flush(&self, timeout: Duration) -> bool {
        let target = self.shared.queued.load(Ordering::Relaxed);
        let deadline = Instant::now() + timeout;
        if self.shared.processed() < target {
            self.hurry();
        }
        let mut processed = self.shared.processed.lock().unwrap_or_else(PoisonError::into_inner);
        while *processed < target {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            processed = self.shared.progressed.wait_timeout(processed, left).unwrap_or_else(PoisonError::into_inner).0;
        }
        true
    }

    fn stats(&self) -> SinkStats {
        SinkStats {
            queued: self.shared.queued.load(Ordering::Relaxed),
            processed: self.shared.processed(),
            dropped: self.shared.dropped.load(Ordering::Relaxed),
            failed: self.shared.failed.load(Ordering::Relaxed),
            estimated: self.shared.estimated.load(Ordering::Relaxed),
        }
    }
}

impl Drop for Telemetry {
    fn drop(&mut self) {
        let drained = self.flush(DROP_FLUSH_TIMEOUT);
        // Closing the queue ends the thread once it has handled what is left.
        self.sender = None;
        if let Some(handle) = self.worker.take()
            && drained
        {
            // Not joined when it is stuck (a locked database): exit must not hang on it.
            let _ = handle.join();
        }
    }
}

/// The background thread's state.
struct Worker {
    receiver: Receiver<Span>,
    shared: Arc<Shared>,
    store: Option<SpanStore>,
    metrics: Option<Arc<Metrics>>,
    export: Option<Arc<Mutex<dyn SpanExport>>>,
    tokenizer: Tokenizer,
    exact_count_limit: usize,
    backlog_limit: u64,
    batch_limit: usize,
    failures_logged: u64,
}

impl Worker {
    fn run(mut self) {
        while let Ok(first) = self.receiver.recv() {
            let mut batch = vec![first];
            let deadline = Instant::now() + LINGER;
            loop {
                while batch.len() < BATCH {
                    match self.receiver.try_recv() {
                        Ok(span) => batch.push(span),
                        Err(_) => break,
                    }
                }
                if batch.len() >= self.batch_limit || self.shared.hurry.swap(false, Ordering::AcqRel) {
                    break;
                }
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                std::thread::park_timeout(left);
            }
            self.handle(&mut batch);
            let mut processed = self.shared.processed.lock().unwrap_or_else(PoisonError::into_inner);
            *processed += batch.len() as u64;
            drop(processed);
            self.shared.progressed.notify_all();
        }
        if let Some(export) = &self.export {
            export.lock().unwrap_or_else(PoisonError::into_inner).shutdown();
        }
    }

    fn handle(&mut self, batch: &mut [Span]) {
        for span in batch.iter_mut() {
            let was_pending = matches!(span.tokens_before, TokensBefore::Pending(_));
            span.tokens_before = self.resolve(&span.tokens_before);
            if span.tokens_before.is_estimated() {
                self.shared.estimated.fetch_add(1, Ordering::Relaxed);
            }
            if was_pending && let Some(metrics) = &self.metrics {
                metrics.record_tokens_before(&span.tool, span.tokens_before.value());
            }
        }
        if let Some(store) = &mut self.store {
            let written = store.insert(batch).and_then(|()| store.enforce_bound());
            if let Err(error) = written {
                self.shared.failed.fetch_add(batch.len() as u64, Ordering::Relaxed);
                // The first failure and then one in a thousand: a full disk must not flood the log.
                if self.failures_logged.is_multiple_of(1000) {
                    tracing::warn!(%error, spans = batch.len(), "cannot write spans to the span log");
                }
                self.failures_logged += 1;
            }
        }
        if let Some(export) = &self.export {
            export.lock().unwrap_or_else(PoisonError::into_inner).export(batch);
        }
    }

    /// Count a pending pre-shaping figure, or estimate it when it is too large or the queue
    /// is backed up.
    fn resolve(&self, tokens: &TokensBefore) -> TokensBefore {
        let TokensBefore::Pending(bytes) = tokens else { return tokens.clone() };
        let bytes: &[u8] = (**bytes).as_ref();
        let backlog = self.shared.queued.load(Ordering::Relaxed).saturating_sub(self.shared.processed());
        if bytes.len() > self.exact_count_limit || backlog > self.backlog_limit {
            return TokensBefore::estimate(bytes.len() as u64);
        }
        let text = String::from_utf8_lossy(bytes);
        TokensBefore::Exact(self.tokenizer.count(&text) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_path_follows_xdg_then_home() {
        let xdg = |name: &str| match name {
            "XDG_STATE_HOME" => Some(PathBuf::from("/state")),
            "HOME" => Some(PathBuf::from("/home/u")),
            _ => None,
        };
        assert_eq!(default_spans_path_from(&xdg), PathBuf::from("/state/toolshape/spans.sqlite"));
        let home = |name: &str| match name {
            "XDG_STATE_HOME" => Some(PathBuf::from("relative")),
            "HOME" => Some(PathBuf::from("/home/u")),
            _ => None,
        };
        assert_eq!(default_spans_path_from(&home), PathBuf::from("/home/u/.local/state/toolshape/spans.sqlite"));
        assert_eq!(default_spans_path_from(&|_| None), PathBuf::from("toolshape-spans.sqlite"));
    }

    #[test]
    fn noop_sink_records_nothing() {
        let sink: Arc<dyn SpanSink> = Arc::new(NoopSink);
        sink.record(Span::new("t", crate::CallStatus::Ok));
        assert!(sink.flush(Duration::ZERO));
        assert_eq!(sink.stats(), SinkStats::default());
    }
}
