//! An rmcp error as the [`Failure`] the model reads: the one place that names what went
//! wrong with an upstream (time-out, crash, an answer over the size cap, a protocol error).

use std::time::Duration;

use rmcp::ServiceError;
use rmcp::model::ServerResult;
use toolshape_shape::Failure;

use super::guard::{TOO_LARGE_CODE, TOO_LARGE_MARK};
use super::{Conn, Upstream, ms};

impl Upstream {
    /// Turn an rmcp error into the failure the model reads.
    pub(super) async fn failure(&self, e: ServiceError, conn: &Conn) -> Failure {
        let upstream = self.name.clone();
        match e {
            ServiceError::McpError(err) if err.code.0 == TOO_LARGE_CODE && err.message.starts_with(TOO_LARGE_MARK) => {
                Failure::ResponseTooLarge { upstream, limit_bytes: self.spec.max_response_bytes }
            }
            ServiceError::McpError(err) => {
                Failure::Protocol { upstream, code: i64::from(err.code.0), message: err.message.to_string() }
            }
            ServiceError::Timeout { timeout } => Failure::Timeout { upstream, after_ms: ms(timeout) },
            ServiceError::TransportClosed | ServiceError::TransportSend(_) if conn.child.is_some() => {
                // The exit status usually lands a moment after the pipe closes.
                for _ in 0..10 {
                    if conn.child.as_ref().is_some_and(|w| w.exit.lock().ok().is_some_and(|e| e.is_some())) {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Failure::Crashed { upstream, detail: conn.crash_detail() }
            }
            // rmcp's HTTP client ends the whole connection when an answer is over the size
            // limit, and does not say why: name that cause as a possibility.
            ServiceError::TransportClosed => Failure::Crashed {
                upstream,
                detail: format!(
                    "connection closed; an answer over the {} limit also closes it",
                    toolshape_shape::format_bytes(self.spec.max_response_bytes)
                ),
            },
            ServiceError::TransportSend(err) => {
                let text = error_chain(&err);
                if text.contains("too large") || text.contains("exceed") {
                    Failure::ResponseTooLarge { upstream, limit_bytes: self.spec.max_response_bytes }
                } else {
                    Failure::Unavailable { upstream, detail: text }
                }
            }
            ServiceError::Cancelled { .. } => {
                Failure::Protocol { upstream, code: -32800, message: "cancelled by the client".into() }
            }
            ServiceError::UnexpectedResponse => {
                Failure::InvalidResponse { upstream, detail: "unexpected response type".into() }
            }
            other => Failure::InvalidResponse { upstream, detail: other.to_string() },
        }
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut src = e.source();
    let mut depth = 0;
    while let Some(s) = src {
        out.push_str(": ");
        out.push_str(&s.to_string());
        src = s.source();
        depth += 1;
        if depth > 5 {
            break;
        }
    }
    out
}

pub(super) fn result_kind(r: &ServerResult) -> &'static str {
    match r {
        ServerResult::InputRequiredResult(_) => "a request for input (not supported through toolshape)",
        ServerResult::CreateTaskResult(_) => "a task (not supported through toolshape)",
        _ => "another kind of result",
    }
}
