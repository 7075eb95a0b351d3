//! The call path's vocabulary: who calls ([`Caller`]), what a call produced for the model
//! ([`Outcome`]), and what kind of failure it was ([`FailureKind`]).

use tokio_util::sync::CancellationToken;
use toolshape_shape::{Envelope, Failure, ShapeReport, Status};

use crate::agent::AgentCall;

/// Who is calling, as far as the gateway is concerned.
#[derive(Clone)]
pub struct Caller {
    /// The principal or session cursors are bound to.
    pub scope: String,
    /// The client session, for templates (`context.session`).
    pub session: Option<String>,
    /// The authenticated principal, for templates (`context.principal`).
    pub principal: Option<String>,
    /// The profile this caller sees; `None` falls back to the gateway's profile.
    pub profile: Option<String>,
    /// Fires when the client cancels the call.
    pub cancel: CancellationToken,
    /// The agent request the call serves, when an agent made it: where an upstream's
    /// progress goes and its sampling and elicitation requests are relayed.
    pub(crate) agent: Option<AgentCall>,
}

impl Caller {
    /// A caller with no session or principal, bound to `scope`.
    pub fn local(scope: &str) -> Caller {
        Caller {
            scope: scope.to_owned(),
            session: None,
            principal: None,
            profile: None,
            cancel: CancellationToken::new(),
            agent: None,
        }
    }
}

/// What one call produced for the model.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Exactly what the model reads: the rendered envelope inside its delimiters.
    pub text: String,
    /// The envelope.
    pub envelope: Envelope,
    /// What shaping measured. `tokens_out` is `None` for an answer that fits its budget by
    /// its bytes alone: it is counted for the call's span once the answer is sent
    /// (`Shaper::shape_uncounted`); count `text` when the number is needed sooner.
    pub report: ShapeReport,
    /// The kind of failure, when the call failed.
    pub failure: Option<FailureKind>,
    /// Whether this call changed the caller's tool list (a search activated tools), so the
    /// client should be sent `tools/list_changed`.
    pub tools_changed: bool,
    /// The blocks that follow the envelope: images, audio, embedded resources and links, in
    /// the upstream's order, each listed in the envelope's `data`.
    pub media: Vec<rmcp::model::ContentBlock>,
}

impl Outcome {
    /// Whether the envelope reports an error.
    pub fn is_error(&self) -> bool {
        self.envelope.status == Status::Error
    }
}

/// What kind of failure a call ended in: one per kind of [`Failure`], and one for the rare
/// call whose shaping itself failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// The upstream did not answer in time.
    Timeout,
    /// The upstream process or connection died.
    Crashed,
    /// The upstream could not be started or reached (or the snapshot store could not).
    Unavailable,
    /// No tool by that name.
    UnknownTool,
    /// The arguments were refused.
    InvalidArguments,
    /// The upstream answered with a JSON-RPC error.
    Protocol,
    /// The upstream's answer was not what was asked for.
    InvalidResponse,
    /// The upstream's answer was over the size cap.
    ResponseTooLarge,
    /// The tool reported an error (`isError`).
    ToolError,
    /// A cursor or handle that is not valid here.
    CursorInvalid,
    /// A cursor or handle whose snapshot is gone.
    CursorExpired,
    /// Shaping itself failed (a budget too small for any envelope, or a bug).
    Shaping,
}

impl FailureKind {
    /// The kind of `failure`.
    pub fn of(failure: &Failure) -> FailureKind {
        match failure {
            Failure::Timeout { .. } => FailureKind::Timeout,
            Failure::Crashed { .. } => FailureKind::Crashed,
            Failure::Unavailable { .. } => FailureKind::Unavailable,
            Failure::UnknownTool { .. } => FailureKind::UnknownTool,
            Failure::InvalidArguments { .. } => FailureKind::InvalidArguments,
            Failure::Protocol { .. } => FailureKind::Protocol,
            Failure::InvalidResponse { .. } => FailureKind::InvalidResponse,
            Failure::ResponseTooLarge { .. } => FailureKind::ResponseTooLarge,
            Failure::ToolError { .. } => FailureKind::ToolError,
            Failure::CursorInvalid { .. } => FailureKind::CursorInvalid,
            Failure::CursorExpired => FailureKind::CursorExpired,
        }
    }

    /// The kind's name in log lines (`timeout`, `crashed`, ...): the envelope's own word for
    /// it, and `shape` for a failure of shaping.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Timeout => "timeout",
            FailureKind::Crashed => "crashed",
            FailureKind::Unavailable => "unavailable",
            FailureKind::UnknownTool => "unknown_tool",
            FailureKind::InvalidArguments => "invalid_arguments",
            FailureKind::Protocol => "protocol",
            FailureKind::InvalidResponse => "invalid_response",
            FailureKind::ResponseTooLarge => "response_too_large",
            FailureKind::ToolError => "tool_error",
            FailureKind::CursorInvalid => "cursor_invalid",
            FailureKind::CursorExpired => "cursor_expired",
            FailureKind::Shaping => "shape",
        }
    }
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_is_logged_under_the_word_its_envelope_uses() {
        let failures = [
            Failure::Timeout { upstream: "u".into(), after_ms: 1 },
            Failure::Crashed { upstream: "u".into(), detail: String::new() },
            Failure::Unavailable { upstream: "u".into(), detail: String::new() },
            Failure::UnknownTool { name: "t".into(), suggestions: Vec::new() },
            Failure::InvalidArguments { detail: String::new() },
            Failure::Protocol { upstream: "u".into(), code: 1, message: String::new() },
            Failure::InvalidResponse { upstream: "u".into(), detail: String::new() },
            Failure::ResponseTooLarge { upstream: "u".into(), limit_bytes: 1 },
            Failure::ToolError { text: String::new() },
            Failure::CursorInvalid { detail: String::new() },
            Failure::CursorExpired,
        ];
        for failure in &failures {
            assert_eq!(FailureKind::of(failure).as_str(), failure.kind());
        }
        assert_eq!(FailureKind::Shaping.to_string(), "shape");
    }
}
