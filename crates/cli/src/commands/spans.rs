//! The span sink of a command that runs the gateway (`serve`, `call`), from the config's
//! `telemetry:` section: the SQLite span log (default: one per config, in the user's state
//! folder, so `report --config FILE` shows that config's calls and no one else's), Prometheus
//! metrics for `/metrics` in HTTP mode, and OTLP export when an endpoint is configured.
//!
//! Telemetry never stops the gateway: a span log that cannot be opened is reported as a
//! warning and the gateway serves without it.

use std::path::{Path, PathBuf};
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

/// The span log's path for `config`, read from `config_path`: `None` when it is `off`. A
/// relative path was resolved against the config's folder when it was loaded. The default is
/// the config's own log, [`config_spans_path`].
pub(crate) fn span_log_path(config: &Config, config_path: &Path) -> Option<PathBuf> {
    if config.telemetry.spans_off() {
        return None;
    }
    Some(config.telemetry.spans.as_deref().map_or_else(|| config_spans_path(config_path), PathBuf::from))
}

/// The default span log of the config at `config_path`: `spans/<name>-<key>.sqlite` in the
/// state folder, the key made of the config's absolute path.
pub(crate) fn config_spans_path(config_path: &Path) -> PathBuf {
    let absolute = std::path::absolute(config_path).unwrap_or_else(|_| config_path.to_path_buf());
    let key = toolshape_clients::digest(absolute.to_string_lossy().as_bytes());
    let stem = config_path.file_stem().map_or_else(|| "config".to_owned(), |s| s.to_string_lossy().into_owned());
    let state = default_spans_path();
    let dir = state.parent().map_or_else(|| PathBuf::from("spans"), |p| p.join("spans"));
    dir.join(format!("{stem}-{}.sqlite", &key[..12]))
}

/// Start the sink for `config`, read from `config_path`. `http` keeps metrics for `/metrics`.
pub(crate) fn start(config: &Config, config_path: &Path, encoding: Encoding, http: bool) -> Spans {
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
    let span_log = span_log_path(config, config_path)
        .map(|path| SpanLogConfig { path, max_bytes: config.telemetry.spans_max_bytes });
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
