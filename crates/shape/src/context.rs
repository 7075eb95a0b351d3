//! What a caller hands the shaper besides the input: where to start, how to count, and how
//! to write the `next` call that reads on.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use toolshape_tokens::Tokenizer;

use crate::envelope::Next;

/// Where reading starts or resumes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Resume {
    /// From record (or object member) `offset`, counted after filter and sort.
    Records {
        /// Zero-based position.
        offset: u64,
        /// Where to stop (exclusive), when the last records were already shown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        end: Option<u64>,
        /// The first facet an earlier page had no room for: this page's summary goes on
        /// from it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facets: Option<u64>,
    },
    /// From byte `offset` of the (redacted) text, up to `end` when a tail was already shown.
    Text {
        /// Byte offset, at a line start or character boundary.
        offset: u64,
        /// Where to stop (exclusive), if not at the end.
        end: Option<u64>,
    },
    /// From byte `offset` of the (redacted) text, up to `before_end` bytes before its end:
    /// the tail a first read of a large text showed, whose position is known from the end
    /// only (that read redacted the head and the tail, not what lies between).
    TextBefore {
        /// Byte offset, at a line start or character boundary.
        offset: u64,
        /// Bytes at the end that the tail already showed.
        before_end: u64,
    },
    /// The same records from `offset` again, without field caps.
    Fields {
        /// Zero-based position of the first record whose fields were cut.
        offset: u64,
    },
    /// The whole stored result (reference form).
    Handle,
}

/// Turns a resume point into the call the model should make. The gateway's version stores
/// a snapshot and signs a cursor; the CLI's names a command line.
pub trait Continuation {
    /// The call that reads from `resume`.
    fn next(&self, resume: &Resume) -> Next;
}

/// A continuation that re-calls a tool with the resume point as arguments
/// (`{"offset": 20}`, `{"byte": 8192, "end": 9000}`, `{"offset": 3, "full_fields": true}`).
#[derive(Debug, Clone)]
pub struct OffsetContinuation {
    /// The tool (or command) to call.
    pub tool: String,
    /// Arguments added to every call.
    pub base: Map<String, Value>,
}

impl Continuation for OffsetContinuation {
    fn next(&self, resume: &Resume) -> Next {
        let mut arguments = self.base.clone();
        match resume {
            Resume::Records { offset, end, facets } => {
                arguments.insert("offset".into(), (*offset).into());
                if let Some(end) = end {
                    arguments.insert("end".into(), (*end).into());
                }
                if let Some(facets) = facets {
                    arguments.insert("facets".into(), (*facets).into());
                }
            }
            Resume::Text { offset, end } => {
                arguments.insert("byte".into(), (*offset).into());
                if let Some(end) = end {
                    arguments.insert("end".into(), (*end).into());
                }
            }
            Resume::TextBefore { offset, before_end } => {
                arguments.insert("byte".into(), (*offset).into());
                arguments.insert("before_end".into(), (*before_end).into());
            }
            Resume::Fields { offset } => {
                arguments.insert("offset".into(), (*offset).into());
                arguments.insert("full_fields".into(), true.into());
            }
            Resume::Handle => {}
        }
        Next { tool: self.tool.clone(), arguments }
    }
}

/// What one call to [`Shaper::shape`](crate::Shaper::shape) needs besides the input.
pub struct ShapeContext<'a> {
    /// The tool name the model called (used in summaries).
    pub tool: &'a str,
    /// Counts what the model reads.
    pub tokenizer: Tokenizer,
    /// The per-response nonce of the delimiters (random in the gateway).
    pub nonce: &'a str,
    /// The current time, for recent-window aggregates; `None` measures from the data.
    pub now_unix: Option<i64>,
    /// Where to start; `None` for a first call.
    pub resume: Option<Resume>,
    /// How `next` is written.
    pub continuation: &'a dyn Continuation,
}
