//! What one shaping call gives back: the envelope, the exact text the model reads, and what
//! was measured on the way; or why no envelope could be made.

use serde::Serialize;
use toolshape_redact::RedactionCounts;

use crate::envelope::Envelope;

/// Why shaping could not produce an envelope.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// Even the smallest envelope does not fit.
    #[error("budget of {budget} tokens is too small: this result needs at least {minimum} (raise `budget_tokens`)")]
    BudgetTooSmall {
        /// The budget given.
        budget: usize,
        /// The least that would have worked.
        minimum: usize,
    },
}

/// What shaping measured, for telemetry and reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ShapeReport {
    /// Bytes received from upstream.
    pub bytes_in: u64,
    /// Bytes of the rendered text.
    pub bytes_out: u64,
    /// Exact tokens of the rendered text; `None` when they were not counted, which only
    /// [`Shaper::shape_uncounted`](crate::Shaper::shape_uncounted) leaves, for a text that
    /// fits the budget by its bytes alone (a token is at least one byte).
    pub tokens_out: Option<u64>,
    /// Records located (after the filter), when the result had records.
    pub records_total: Option<u64>,
    /// Records shown.
    pub records_kept: u64,
    /// Records left for `next`.
    pub records_omitted: u64,
    /// Where the cut fell (`records 20`, `byte 81234`), if anything was cut.
    pub cut_at: Option<String>,
    /// Redactions by kind.
    pub redactions: RedactionCounts,
    /// How many records had a field cut by a cap.
    pub fields_cut: u64,
    /// Whether `next` refers to data that must be kept in a snapshot.
    pub needs_snapshot: bool,
}

/// A shaped result.
#[derive(Debug, Clone)]
pub struct Shaped {
    /// The envelope.
    pub envelope: Envelope,
    /// Exactly what the model reads (delimiters included).
    pub text: String,
    /// Measurements.
    pub report: ShapeReport,
    /// The first records of this result's snapshot, made while shaping it.
    pub snapshot_head: SnapshotHead,
}

/// The first records of a result's snapshot as its first read already made them (parsed,
/// projected and redacted for the compact view's sample): [`Shaper::snapshot_after`]
/// writes them as they are instead of making them again. Empty for anything else.
///
/// [`Shaper::snapshot_after`]: crate::Shaper::snapshot_after
///
/// It remembers the length of the input it came from, and a snapshot of another input does
/// not use it.
#[derive(Debug, Clone, Default)]
pub struct SnapshotHead {
    pub(crate) records: Vec<serde_json::Value>,
    pub(crate) input_bytes: u64,
}

impl SnapshotHead {
    /// How many records it holds.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}

/// The stored form of a result that did not fit: read it with
/// [`Shaper::for_pages`](crate::Shaper::for_pages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// A compact JSON array of processed records, a JSON value, or redacted text.
    pub bytes: Vec<u8>,
}
