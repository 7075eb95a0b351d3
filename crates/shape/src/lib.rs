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
//! assert!(shaped.report.tokens_out <= 200);
//! assert_eq!(shaped.envelope.status, toolshape_shape::Status::Partial);
//! ```

pub mod aggregate;
pub mod envelope;
pub mod failure;
mod input;
pub mod logs;
pub mod numfmt;
pub mod path;
pub mod plan;
mod records;
mod shaper;
mod text;

pub use envelope::{Data, Envelope, Next, Omitted, Original, Status, render};
pub use failure::Failure;
pub use path::{FieldPath, PathError};
pub use plan::{Filter, FilterError, Form, Projection, RenderMode, ShapePlan, SortOrder, SortSpec, TextKeep, TextSpec};
pub use shaper::{
    Continuation, MIN_BUDGET_TOKENS, OffsetContinuation, PlanError, Resume, ShapeContext, ShapeError, ShapeReport,
    Shaped, Shaper, Snapshot,
};
