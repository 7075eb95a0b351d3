//! One span per tool call: what the upstream sent, what the model received, and what was cut.
//!
//! A [`Span`] is built by the gateway when a call ends, mostly from the shaper's
//! [`ShapeReport`] ([`Span::from_report`]). The pre-shaping token count is the one figure that
//! costs real work (counting a multi-megabyte result), so the span may carry the raw bytes
//! instead ([`TokensBefore::Pending`]) and the sink's background thread counts them after the
//! response has gone out.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use toolshape_shape::ShapeReport;

/// How a call ended, as the model saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallStatus {
    /// Everything the result held was shown.
    Ok,
    /// Part was shown; the rest is behind `next`.
    Partial,
    /// The result was empty.
    Empty,
    /// The call failed.
    Error,
    /// One record was expected and several matched.
    Ambiguous,
    /// The tool is new or changed since it was pinned, so the call was refused.
    Quarantined,
    /// The argument guard found a secret in the arguments and refused the call.
    Blocked,
    /// The same call was made too often in a short time; a short repeat answer was given.
    Repeat,
}

impl CallStatus {
    /// Every status, in the order metrics and reports list them.
    pub const ALL: [CallStatus; 8] = [
        CallStatus::Ok,
        CallStatus::Partial,
        CallStatus::Empty,
        CallStatus::Error,
        CallStatus::Ambiguous,
        CallStatus::Quarantined,
        CallStatus::Blocked,
        CallStatus::Repeat,
    ];

    /// The lowercase name stored in the span log and used as a metric label.
    pub fn as_str(self) -> &'static str {
        match self {
            CallStatus::Ok => "ok",
            CallStatus::Partial => "partial",
            CallStatus::Empty => "empty",
            CallStatus::Error => "error",
            CallStatus::Ambiguous => "ambiguous",
            CallStatus::Quarantined => "quarantined",
            CallStatus::Blocked => "blocked",
            CallStatus::Repeat => "repeat",
        }
    }

    /// Whether the model got an error instead of a result: a failed call, or one refused
    /// before it reached its upstream.
    pub fn is_error(self) -> bool {
        matches!(self, CallStatus::Error | CallStatus::Quarantined | CallStatus::Blocked)
    }
}

impl fmt::Display for CallStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A status name that is not one of [`CallStatus::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown call status `{0}`")]
pub struct UnknownStatus(pub String);

impl FromStr for CallStatus {
    type Err = UnknownStatus;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CallStatus::ALL.into_iter().find(|status| status.as_str() == s).ok_or_else(|| UnknownStatus(s.to_owned()))
    }
}

impl From<toolshape_shape::Status> for CallStatus {
    fn from(status: toolshape_shape::Status) -> Self {
        match status {
            toolshape_shape::Status::Ok => CallStatus::Ok,
            toolshape_shape::Status::Partial => CallStatus::Partial,
            toolshape_shape::Status::Empty => CallStatus::Empty,
            toolshape_shape::Status::Error => CallStatus::Error,
            toolshape_shape::Status::Ambiguous => CallStatus::Ambiguous,
        }
    }
}

/// Bytes handed to the sink without copying: `Arc::new(vec)`, `Arc::new(string)`, or
/// `Arc::new(arc_slice)` for bytes that are already shared (see [`TokensBefore::pending`]).
pub type SharedBytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// The token count of what the upstream sent, before shaping.
#[derive(Clone)]
pub enum TokensBefore {
    /// Counted exactly.
    Exact(u64),
    /// Estimated (bytes / 4): the result was too large to count, or the sink was backed up.
    Estimated(u64),
    /// Not counted yet: the raw upstream bytes, counted by the sink's background thread so
    /// that counting never delays the response.
    Pending(SharedBytes),
}

impl PartialEq for TokensBefore {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (TokensBefore::Exact(a), TokensBefore::Exact(b))
            | (TokensBefore::Estimated(a), TokensBefore::Estimated(b)) => a == b,
            (TokensBefore::Pending(a), TokensBefore::Pending(b)) => (**a).as_ref() == (**b).as_ref(),
            _ => false,
        }
    }
}

/// Bytes per token assumed when a count is estimated rather than counted.
pub const ESTIMATE_BYTES_PER_TOKEN: u64 = 4;

impl TokensBefore {
    /// A count left to the sink: `bytes` (a `Vec<u8>`, `String`, `Arc<[u8]>` ...) is moved, not
    /// copied.
    pub fn pending(bytes: impl AsRef<[u8]> + Send + Sync + 'static) -> TokensBefore {
        TokensBefore::Pending(Arc::new(bytes))
    }

    /// The length of the pending bytes (0 for a count).
    pub fn pending_len(&self) -> usize {
        match self {
            TokensBefore::Pending(bytes) => (**bytes).as_ref().len(),
            TokensBefore::Exact(_) | TokensBefore::Estimated(_) => 0,
        }
    }

    /// The estimate for `bytes` bytes of text.
    pub fn estimate(bytes: u64) -> TokensBefore {
        TokensBefore::Estimated(bytes.div_ceil(ESTIMATE_BYTES_PER_TOKEN))
    }

    /// The count, exact or estimated; a pending count is estimated from its length.
    pub fn value(&self) -> u64 {
        match self {
            TokensBefore::Exact(n) | TokensBefore::Estimated(n) => *n,
            TokensBefore::Pending(_) => (self.pending_len() as u64).div_ceil(ESTIMATE_BYTES_PER_TOKEN),
        }
    }

    /// Whether [`TokensBefore::value`] is anything but an exact count.
    pub fn is_estimated(&self) -> bool {
        !matches!(self, TokensBefore::Exact(_))
    }
}

impl fmt::Debug for TokensBefore {
    // The pending bytes can be megabytes: show their length only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokensBefore::Exact(n) => f.debug_tuple("Exact").field(n).finish(),
            TokensBefore::Estimated(n) => f.debug_tuple("Estimated").field(n).finish(),
            TokensBefore::Pending(_) => write!(f, "Pending({} bytes)", self.pending_len()),
        }
    }
}

/// One tool call, as recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// When the call ended, in milliseconds since the Unix epoch.
    pub time_ms: i64,
    /// The tool name the model called.
    pub tool: String,
    /// The mask the call went through, if any.
    pub mask: Option<String>,
    /// The upstream server that answered, if any.
    pub upstream: Option<String>,
    /// Who called (an authenticated principal in HTTP mode).
    pub principal: Option<String>,
    /// The MCP session, if any.
    pub session: Option<String>,
    /// How the call ended.
    pub status: CallStatus,
    /// Tokens of the upstream result before shaping.
    pub tokens_before: TokensBefore,
    /// Tokens of exactly what the model received.
    pub tokens_after: u64,
    /// Bytes of the upstream result.
    pub bytes_before: u64,
    /// Bytes of what the model received.
    pub bytes_after: u64,
    /// Records shown.
    pub records_kept: u64,
    /// Records left out (behind `next`).
    pub records_omitted: u64,
    /// Where the cut fell (`record 120`, `byte 81234`), when something was cut.
    pub cut: Option<String>,
    /// Redactions by kind.
    pub redactions: BTreeMap<String, u64>,
    /// Time spent waiting for the upstream, in milliseconds.
    pub upstream_ms: f64,
    /// Time spent shaping, in milliseconds.
    pub shaping_ms: f64,
    /// Images, audio and embedded blobs of the result, when it had any.
    pub media: Option<MediaCounts>,
    /// For a call of the search tool: what was asked and what came back.
    pub search: Option<SearchCall>,
}

/// The media of one result: how many, how many were downscaled or left out, and their bytes
/// and image tokens as they came and as they were sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MediaCounts {
    /// Media items (images, audio, embedded blobs).
    pub items: u64,
    /// Of those, how many were downscaled or left out.
    pub cut: u64,
    /// Their decoded bytes as the upstream sent them.
    pub bytes_before: u64,
    /// The bytes of what was sent.
    pub bytes_after: u64,
    /// What the images cost as they came, by the configured formula.
    pub tokens_before: u64,
    /// What the images sent cost.
    pub tokens_after: u64,
}

impl MediaCounts {
    /// `self` and `other` added up.
    #[must_use]
    pub fn plus(self, other: MediaCounts) -> MediaCounts {
        MediaCounts {
            items: self.items.saturating_add(other.items),
            cut: self.cut.saturating_add(other.cut),
            bytes_before: self.bytes_before.saturating_add(other.bytes_before),
            bytes_after: self.bytes_after.saturating_add(other.bytes_after),
            tokens_before: self.tokens_before.saturating_add(other.tokens_before),
            tokens_after: self.tokens_after.saturating_add(other.tokens_after),
        }
    }
}

/// What one call of the search tool asked and answered. Whether one of the returned tools
/// was then called is read from the later spans of the same session (see
/// [`crate::SearchReport`]), so nothing is written twice.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct SearchCall {
    /// The query, as the model wrote it.
    pub query: String,
    /// The tools shown, best first; empty when the search found nothing or declined.
    pub returned: Vec<String>,
    /// How many tools matched at all (at least as many as were returned).
    pub matched: u64,
}

impl Span {
    /// A span for `tool` at the current time with every figure zero; fill in the rest.
    pub fn new(tool: impl Into<String>, status: CallStatus) -> Span {
        Span {
            time_ms: now_unix_ms(),
            tool: tool.into(),
            mask: None,
            upstream: None,
            principal: None,
            session: None,
            status,
            tokens_before: TokensBefore::Exact(0),
            tokens_after: 0,
            bytes_before: 0,
            bytes_after: 0,
            records_kept: 0,
            records_omitted: 0,
            cut: None,
            redactions: BTreeMap::new(),
            upstream_ms: 0.0,
            shaping_ms: 0.0,
            media: None,
            search: None,
        }
    }

    /// A span for a shaped call: the figures the shaper measured, the status of the envelope,
    /// and the pre-shaping token count (usually [`TokensBefore::Pending`] with the upstream
    /// bytes). Latencies, mask, upstream, principal and session are set by the caller.
    pub fn from_report(
        tool: impl Into<String>,
        status: impl Into<CallStatus>,
        report: &ShapeReport,
        tokens_before: TokensBefore,
    ) -> Span {
        Span {
            tokens_before,
            // A report left uncounted (`Shaper::shape_uncounted`) is counted by the caller
            // before its span is made; the gateway does so once the answer is sent.
            tokens_after: report.tokens_out.unwrap_or_default(),
            bytes_before: report.bytes_in,
            bytes_after: report.bytes_out,
            records_kept: report.records_kept,
            records_omitted: report.records_omitted,
            cut: report.cut_at.clone(),
            redactions: report.redactions.0.clone(),
            ..Span::new(tool, status.into())
        }
    }

    /// Tokens the shaping kept out of the context: negative when the envelope made a small
    /// result larger than it was (clamped to the `i64` range).
    pub fn tokens_saved(&self) -> i64 {
        let wide = i128::from(self.tokens_before.value()) - i128::from(self.tokens_after);
        i64::try_from(wide).unwrap_or(if wide < 0 { i64::MIN } else { i64::MAX })
    }
}

/// Milliseconds since the Unix epoch, now (0 if the clock is before 1970).
pub fn now_unix_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_names_round_trip() {
        for status in CallStatus::ALL {
            assert_eq!(status.as_str().parse::<CallStatus>().unwrap(), status);
        }
        assert!("fine".parse::<CallStatus>().is_err());
    }

    #[test]
    fn refused_calls_are_errors_repeats_are_not() {
        let errors: Vec<&str> = CallStatus::ALL.iter().filter(|s| s.is_error()).map(|s| s.as_str()).collect();
        assert_eq!(errors, ["error", "quarantined", "blocked"]);
    }

    #[test]
    fn from_report_copies_the_shaper_figures() {
        let mut report = ShapeReport {
            bytes_in: 4000,
            bytes_out: 900,
            tokens_out: Some(210),
            records_total: Some(50),
            records_kept: 10,
            records_omitted: 40,
            cut_at: Some("record 10".into()),
            ..ShapeReport::default()
        };
        report.redactions.add("email", 3);
        let span =
            Span::from_report("list_issues", toolshape_shape::Status::Partial, &report, TokensBefore::Exact(1000));
        assert_eq!(span.status, CallStatus::Partial);
        assert_eq!((span.bytes_before, span.bytes_after, span.tokens_after), (4000, 900, 210));
        assert_eq!((span.records_kept, span.records_omitted), (10, 40));
        assert_eq!(span.cut.as_deref(), Some("record 10"));
        assert_eq!(span.redactions.get("email"), Some(&3));
        assert_eq!(span.tokens_saved(), 790);
        let grown = Span { tokens_after: 1_100, ..span };
        assert_eq!(grown.tokens_saved(), -100);
    }

    #[test]
    fn pending_counts_are_estimates_until_counted() {
        let pending = TokensBefore::pending(vec![b'a'; 10]);
        assert_eq!(pending, TokensBefore::pending("aaaaaaaaaa".to_owned()));
        assert_ne!(pending, TokensBefore::Estimated(3));
        assert!(pending.is_estimated());
        assert_eq!(pending.value(), 3);
        assert!(!TokensBefore::Exact(5).is_estimated());
        assert_eq!(format!("{pending:?}"), "Pending(10 bytes)");
    }
}
