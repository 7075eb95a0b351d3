//! The span sink of a command that runs the gateway (`serve`, `call`), from the config's
//! `telemetry:` section: the SQLite span log (default: the user's state folder), Prometheus
//! metrics for `/metrics` in HTTP mode, and OTLP export when an endpoint is configured.
//!
//! Telemetry never stops the gateway: a span log that cannot be opened is reported as a
//! warning and the gateway serves without it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use toolshape_mask::Config;
use toolshape_telemetry::{
    Metrics, NoopSink, OtlpConfig, OtlpExport, SpanLogConfig, SpanSink, Telemetry, TelemetryConfig, default_spans_path,
};
use toolshape_tokens::Encoding;

/// How long a command waits, when it ends, for spans still being written.
const FLUSH_WAIT: Duration = Duration::from_secs(5);

/// Where a gateway command's spans go.
pub(crate) struct Spans {
    /// The sink the gateway records to.
    pub(crate) sink: Arc<dyn SpanSink>,
    /// The metrics `/metrics` serves, when kept.
    pub(crate) metrics: Option<Arc<Metrics>>,
}

impl Spans {
    /// Wait (briefly) for queued spans to be written.
    pub(crate) fn flush(&self) {
        if !self.sink.flush(FLUSH_WAIT) {
            tracing::warn!("some spans were not written before exit");
        }
    }
}

/// The span log's path for `config`: `None` when it is `off`. A relative path is taken from
/// the current folder.
pub(crate) fn span_log_path(config: &Config) -> Option<PathBuf> {
    if config.telemetry.spans_off() {
        return None;
    }
    Some(config.telemetry.spans.as_deref().map_or_else(default_spans_path, PathBuf::from))
}

/// Start the sink for `config`. `http` keeps metrics for `/metrics`.
pub(crate) fn start(config: &Config, encoding: Encoding, http: bool) -> Spans {
    let metrics = (http && config.http.metrics).then(|| Arc::new(Metrics::new()));
    let export = config.telemetry.otlp_endpoint.as_ref().and_then(|endpoint| {
        match OtlpExport::new(OtlpConfig::new(endpoint.clone()), metrics.clone()) {
            Ok(export) => Some(Arc::new(Mutex::new(export)) as Arc<Mutex<dyn toolshape_telemetry::SpanExport>>),
            Err(e) => {
                tracing::warn!(error = %e, "OTLP export is off: the endpoint could not be used");
                None
            }
        }
    });
    let span_log =
        span_log_path(config).map(|path| SpanLogConfig { path, max_bytes: config.telemetry.spans_max_bytes });
    if span_log.is_none() && metrics.is_none() && export.is_none() {
        return Spans { sink: Arc::new(NoopSink), metrics: None };
    }
    let log_path = span_log.as_ref().map(|l| l.path.clone());
    let telemetry =
        TelemetryConfig { span_log, metrics: metrics.clone(), export, encoding, ..TelemetryConfig::default() };
    match Telemetry::start(telemetry.clone()) {
        Ok(t) => {
            if let Some(path) = log_path {
                tracing::debug!(path = %path.display(), "writing spans");
            }
            Spans { sink: Arc::new(t), metrics }
        }
        Err(e) => {
            tracing::warn!(error = %e, "the span log cannot be written; serving without it (set `telemetry.spans`)");
            let without_log = TelemetryConfig { span_log: None, ..telemetry };
            match Telemetry::start(without_log) {
                Ok(t) => Spans { sink: Arc::new(t), metrics },
                Err(_) => Spans { sink: Arc::new(NoopSink), metrics: None },
            }
        }
    }
}
