//! An upstream's log lines in toolshape's log: its stderr, line by line, and its
//! `notifications/message`, each cut to the same bounded length so that a child cannot grow
//! a buffer or forge lines of toolshape's log.

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};

#[expect(deprecated, reason = "the protocol versions toolshape speaks to upstreams still have logging")]
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};

/// Longest stderr line logged; the rest of a longer line is dropped.
pub(super) const STDERR_LINE_MAX: usize = 4096;

/// Write an upstream's log message (`notifications/message`) to toolshape's log, next to its
/// stderr lines and cut to the same length. Every message is kept here; it also reaches an
/// agent only when it came during that agent's call and the agent asked for its level (see
/// `Client::forward_log`): an upstream connection is shared by every agent, and a message
/// outside a call belongs to none of them.
#[expect(deprecated, reason = "the protocol versions toolshape speaks to upstreams still have logging")]
pub(super) fn log_message(upstream: &str, params: &LoggingMessageNotificationParam) {
    let text = log_text(&params.data);
    let logger = params.logger.as_deref().unwrap_or("-");
    match params.level {
        LoggingLevel::Debug => tracing::debug!(upstream, logger, "log: {text}"),
        LoggingLevel::Info | LoggingLevel::Notice => tracing::info!(upstream, logger, "log: {text}"),
        LoggingLevel::Warning => tracing::warn!(upstream, logger, "log: {text}"),
        LoggingLevel::Error | LoggingLevel::Critical | LoggingLevel::Alert | LoggingLevel::Emergency => {
            tracing::error!(upstream, logger, "log: {text}")
        }
    }
}

/// A log message's data as one line of text: a string as it is, anything else (and a string
/// with line breaks or other control characters, which could forge lines of toolshape's log)
/// as JSON, cut to [`STDERR_LINE_MAX`] bytes at a character boundary.
pub(super) fn log_text(data: &Value) -> String {
    let mut text = match data {
        Value::String(text) if !text.contains(char::is_control) => text.clone(),
        other => other.to_string(),
    };
    let mut end = text.len().min(STDERR_LINE_MAX);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text
}

/// Log each stderr line of an upstream at info level, cut to a bounded length.
pub(super) async fn log_stderr(name: String, stderr: tokio::process::ChildStderr) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        // Read at most a bounded amount per line: a child writing one endless line must not
        // grow this buffer without limit.
        let mut limited = (&mut reader).take(STDERR_LINE_MAX as u64);
        match limited.read_until(b'\n', &mut line).await {
            Ok(0) => return,
            Ok(_) => {
                let text = String::from_utf8_lossy(&line);
                let text = text.trim_end();
                if !text.is_empty() {
                    tracing::info!(upstream = %name, "stderr: {text}");
                }
            }
            Err(_) => return,
        }
    }
}
