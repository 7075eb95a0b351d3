//! The shaping core of toolshape: one envelope under a token budget, with nothing lost
//! silently.
//!
//! Values in, values out: this crate does no I/O, reads no clock and never panics on any
//! input. A [`Shaper`] compiles a [`ShapePlan`] (what a mask declares about its results);
//! [`Shaper::shape`] turns the bytes of one upstream result into an [`Envelope`] and the
//! exact text the model reads, never more tokens than the plan's budget.
//!
//! ```
//! use toolshape_shape::{OffsetContinuation, ShapeContext, ShapePlan, Shaper};
//! use toolshape_tokens::Tokenizer;
//!
//! let shaper = Shaper::new(ShapePlan { budget_tokens: 200, ..ShapePlan::default() }).unwrap();
//! let next = OffsetContinuation { tool: "result_read".into(), base: Default::default() };
//! let ctx = ShapeContext {
//!     tool: "list_issues",
//!     tokenizer: Tokenizer::default(),
//!     nonce: "0123456789abcdef",
//!     now_unix: None,
//!     resume: None,
//!     continuation: &next,
//! };
//! let payload = serde_json::to_vec(&(0..100).map(|n| serde_json::json!({"n": n})).collect::<Vec<_>>()).unwrap();
//! let shaped = shaper.shape(&payload, &ctx).unwrap();
//! assert!(shaped.report.tokens_out.is_some_and(|tokens| tokens <= 200));
//! assert_eq!(shaped.envelope.status, toolshape_shape::Status::Partial);
//! ```

mod aggregate;
mod aligned;
mod auto;
mod bordered;
mod cells;
mod compact;
mod context;
mod counted;
mod describe;
mod distinct;
mod dotted_keys;
mod envelope;
mod facets;
mod failure;
mod first_left_out;
mod fit;
mod framed;
mod heading_fields;
mod input;
mod key_blocks;
mod keyed;
mod line_fields;
mod line_patterns;
mod line_terms;
mod list_lengths;
mod located;
mod logs;
mod member_records;
mod nested_records;
mod numfmt;
mod object_parts;
mod outline;
mod path;
mod pattern_slots;
mod piped_rows;
mod plan;
mod record_index;
mod records;
mod report;
mod sections;
mod shaper;
mod sibling_lists;
mod spaced;
mod suggest;
mod text;
mod text_parts;
mod time_text;
mod totals_row;
mod view;
mod words;
mod yaml_text;

pub use aggregate::{
    Aggregate, AggregateSpec, Aggregator, FieldStats, GroupBy, GroupCounts, MAX_BUCKETS, MAX_DISTINCT, MAX_KEY_BYTES,
    MAX_TOP, NONE_KEY, OTHER_KEY, RecentShare, RecentWindow, Window, WindowError, WindowUnit, round3,
};
pub use auto::table_records;
pub use context::{Continuation, OffsetContinuation, Resume, ShapeContext};
pub use envelope::{
    Data, Envelope, Next, Omitted, Original, RecordIndex, Status, close_delimiter, open_delimiter, render,
    to_neutral_json, widest_nonce,
};
pub use failure::{FRAMES_KEPT, Failure, LINE_MAX, TOOL_ERROR_MAX, shrink_trace, shrink_traces};
pub use logs::{Level, LevelCounts, LevelError, SCAN_BYTES, level_counts, line_level};
pub use numfmt::{bytes as format_bytes, thousands};
pub use path::{FieldPath, PathError, Segment};
pub use plan::{
    AutoSpec, DEFAULT_BUDGET_TOKENS, Filter, FilterError, Form, Projection, RenderMode, ShapePlan, SortOrder, SortSpec,
    TextKeep, TextSpec,
};
pub use report::{ShapeError, ShapeReport, Shaped, Snapshot, SnapshotHead};
pub use shaper::{MIN_BUDGET_TOKENS, PlanError, Shaper};
pub use suggest::{Suggestion, suggest};
pub use view::{MAX_PATTERN_CHARS, MAX_QUERY_CHARS, View, ViewError, ViewSpec, WHOLE_MEMBER_BYTES, make_view};
