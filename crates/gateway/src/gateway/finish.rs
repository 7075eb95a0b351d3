//! From what dispatch produced to the [`Outcome`] the agent gets.
//!
//! Dispatch produces bytes to shape (with the shaper that applies), a [`Failure`], or, rarely,
//! an envelope made whole by the gateway. One step, [`Gateway::finish`], turns any of them
//! into the envelope and the exact text the model reads, with a fresh nonce and, when
//! something did not fit, a signed cursor to a snapshot (made after the answer, see
//! `snapshots`). Small jobs are shaped on the calling task, large ones on the blocking pool,
//! and a shaping bug becomes an error envelope, never a lost session.

use std::sync::Arc;

use rmcp::model::ContentBlock;
use serde_json::{Map, Value};
use toolshape_shape::{
    Continuation, Envelope, Failure, Next, RenderMode, Resume, ShapeContext, ShapeReport, Shaped, Shaper, SnapshotHead,
};
use toolshape_util::{hex, random};

use super::media::MediaStats;
use super::narrowed::{self, NarrowedView};
use super::snapshots::{Keep, expiry, now_unix};
use super::{Caller, FailureKind, Gateway, Outcome};
use crate::cursor::{Cursor, CursorKey, SnapshotId};
use crate::read;

/// Results and failures up to this size are shaped (and answers counted) on the calling
/// task: handing a small one to the blocking pool and back costs more than the work, while a
/// large one would hold up the other calls of this runtime thread.
pub(super) const INLINE_SHAPE_MAX_BYTES: usize = 16 * 1024;

/// Bytes shared without copying: a stored value from `start` on.
#[derive(Clone)]
pub(super) struct Payload {
    buf: Arc<Vec<u8>>,
    start: usize,
}

impl Payload {
    /// All of `bytes`.
    pub(super) fn new(bytes: Vec<u8>) -> Payload {
        Payload { buf: Arc::new(bytes), start: 0 }
    }

    /// `buf` from `start` on (a stored value after its header).
    pub(super) fn from(buf: Arc<Vec<u8>>, start: usize) -> Payload {
        Payload { buf, start }
    }

    /// The bytes.
    pub(super) fn as_slice(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or_default()
    }

    /// The whole buffer, shared (for the span, which counts it after the answer is sent).
    pub(super) fn shared(&self) -> Arc<Vec<u8>> {
        self.buf.clone()
    }
}

/// Where the data behind a result's `next` lives.
pub(super) enum Source {
    /// An upstream result: its snapshot is made from it with the shaper, if needed.
    Upstream,
    /// A view made by `result_read`: already in page form, stored as is if needed; what a
    /// pattern narrowed in it, if anything.
    View { narrowed: Option<NarrowedView> },
    /// A page of a stored snapshot: `next` points into the same snapshot.
    Stored { id: SnapshotId, expires: u32 },
}

/// What follows the envelope: the native blocks of a result with media, and their counts.
#[derive(Default)]
pub(super) struct Attached {
    /// Images, audio, resources and links, in the upstream's order.
    pub(super) blocks: Vec<ContentBlock>,
    /// What came and what was sent, for the span (`None`: no media).
    pub(super) stats: Option<MediaStats>,
}

/// What dispatch produced before shaping.
pub(super) enum Produced {
    /// Bytes to shape.
    Data {
        payload: Payload,
        shaper: Shaper,
        resume: Option<Resume>,
        source: Source,
        /// The tool named in summaries.
        label: String,
        /// Blocks that follow the envelope.
        attached: Attached,
    },
    /// A failure to shape into an error envelope.
    Failed { failure: Failure, shaper: Shaper },
    /// An envelope made whole by the gateway (a search that found nothing).
    Direct { envelope: Envelope },
}

/// Writes `next` as a `result_read` call with a signed cursor.
struct CursorContinuation {
    key: CursorKey,
    snapshot: SnapshotId,
    expires: u32,
    scope: [u8; 8],
}

impl Continuation for CursorContinuation {
    fn next(&self, resume: &Resume) -> Next {
        let cursor =
            Cursor { snapshot: self.snapshot, resume: resume.clone(), expires_unix: self.expires, scope: self.scope };
        let mut arguments = Map::new();
        let name = if matches!(resume, Resume::Handle) { "handle" } else { "cursor" };
        arguments.insert(name.into(), Value::String(self.key.encode(&cursor)));
        Next { tool: read::TOOL_NAME.to_owned(), arguments }
    }
}

/// For failures and snapshots: they never write `next`.
pub(super) struct NoContinuation;

impl Continuation for NoContinuation {
    fn next(&self, _resume: &Resume) -> Next {
        Next { tool: read::TOOL_NAME.to_owned(), arguments: Map::new() }
    }
}

/// Shaping could not make an envelope: why, and the nonce to render the bare error with.
struct Unshaped {
    message: String,
    nonce: String,
}

impl Gateway {
    /// Shape what dispatch produced into the outcome the agent gets; keep a snapshot when
    /// `next` needs one.
    pub(super) async fn finish(&self, produced: Produced, tool: &str, caller: &Caller) -> Outcome {
        let nonce = random::nonce();
        let scope = CursorKey::scope_tag(&caller.scope);
        let tokenizer = self.loaded().tokenizer;
        match produced {
            Produced::Direct { envelope } => {
                let render = self.loaded().masks.passthrough_shaper().plan().render;
                let text = toolshape_shape::render(&envelope, render, &nonce);
                let report = ShapeReport {
                    bytes_out: text.len() as u64,
                    tokens_out: Some(tokenizer.count(&text) as u64),
                    ..ShapeReport::default()
                };
                Outcome { text, envelope, report, failure: None, tools_changed: false, media: Vec::new() }
            }
            Produced::Failed { failure, shaper } => {
                let kind = FailureKind::of(&failure);
                let tool_name = tool.to_owned();
                // Most failures are a line or two: handing them to the blocking pool and back
                // would cost more than shaping them.
                let inline = failure_text_len(&failure) <= INLINE_SHAPE_MAX_BYTES;
                let shaped = shape_off_task(inline, move || {
                    let none = NoContinuation;
                    let ctx = ShapeContext {
                        tool: &tool_name,
                        tokenizer,
                        nonce: &nonce,
                        now_unix: None,
                        resume: None,
                        continuation: &none,
                    };
                    shaper.shape_failure(&failure, &ctx).map_err(|e| Unshaped { message: e.to_string(), nonce })
                })
                .await;
                let mut outcome = match shaped {
                    Some(shaped) => into_outcome(shaped),
                    None => bare_error("shaping failed unexpectedly; retry the call", &random::nonce()),
                };
                outcome.failure = Some(kind);
                outcome
            }
            Produced::Data { payload, shaper, resume, source, label, attached } => {
                let (id, expires) = match &source {
                    Source::Stored { id, expires } => (*id, *expires),
                    _ => (SnapshotId::random(), expiry(self.snapshots.ttl())),
                };
                let continuation =
                    CursorContinuation { key: self.snapshots.key().clone(), snapshot: id, expires, scope };
                let page_nonce = nonce.clone();
                let job_shaper = shaper.clone();
                let job_payload = payload.clone();
                let job_label = label.clone();
                let inline = payload.as_slice().len() <= INLINE_SHAPE_MAX_BYTES;
                let shaped = shape_off_task(inline, move || {
                    let ctx = ShapeContext {
                        tool: &job_label,
                        tokenizer,
                        nonce: &nonce,
                        now_unix: Some(now_unix() as i64),
                        resume,
                        continuation: &continuation,
                    };
                    // The count a small answer's report needs is made after the answer is sent.
                    job_shaper
                        .shape_uncounted(job_payload.as_slice(), &ctx)
                        .map_err(|e| Unshaped { message: e.to_string(), nonce: nonce.clone() })
                })
                .await;
                // The records the first read already made open the snapshot made after it.
                let mut head = SnapshotHead::default();
                let mut outcome = match shaped {
                    Some(mut shaped) => {
                        if let Ok(s) = &mut shaped {
                            head = std::mem::take(&mut s.snapshot_head);
                        }
                        into_outcome(shaped)
                    }
                    None => bare_error("shaping failed unexpectedly; retry the call", &random::nonce()),
                };
                if outcome.failure.is_none() {
                    outcome.media = attached.blocks;
                    if let Source::View { narrowed: Some(n) } = &source {
                        let plan = (shaper.plan().render, shaper.plan().budget_tokens);
                        outcome = narrowed::mark(outcome, n, plan, &page_nonce, tokenizer);
                    }
                }
                if !outcome.report.needs_snapshot || matches!(source, Source::Stored { .. }) {
                    return outcome;
                }
                let plan = (shaper.plan().render, shaper.plan().budget_tokens);
                let keep = Keep { id, payload, shaper, source, tool: label, scope: hex(&scope), head };
                if self.snapshots.failing().is_none() {
                    // The usual way: the snapshot is made after the answer has gone out.
                    self.snapshots.keep(keep, tokenizer);
                    return outcome;
                }
                // The store failed last time: keep the snapshot before answering, and promise
                // no read that cannot happen if that fails too.
                match self.snapshots.keep_now(keep, tokenizer).await {
                    Ok(()) => outcome,
                    Err(error) => {
                        tracing::warn!(%error, "the store is unavailable: answering without `next`");
                        not_kept(outcome, plan, &page_nonce, tokenizer)
                    }
                }
            }
        }
    }
}

/// What a result whose rest could not be kept says instead of `more with next`.
const NOT_KEPT_NOTE: &str = "the rest could not be kept (the result store is unavailable), so it cannot be read \
     with next; repeat the call later to read more";
/// The same, for a budget too tight for the longer note.
const NOT_KEPT_SHORT: &str = "the rest could not be kept";

/// `outcome` without its `next` (whose cursor names a snapshot the store did not take), its
/// summary saying the rest could not be kept, rendered again (`plan`: render mode and
/// budget) with the same nonce. Dropping the cursor frees more tokens than the note takes.
fn not_kept(
    mut outcome: Outcome,
    (render, budget): (RenderMode, usize),
    nonce: &str,
    tokenizer: toolshape_tokens::Tokenizer,
) -> Outcome {
    let summary = outcome.envelope.summary.trim_end_matches("; more with next").to_owned();
    outcome.envelope.next = None;
    for note in [NOT_KEPT_NOTE, NOT_KEPT_SHORT] {
        outcome.envelope.summary = format!("{summary}; {note}");
        outcome.text = toolshape_shape::render(&outcome.envelope, render, nonce);
        let tokens = tokenizer.count(&outcome.text);
        outcome.report.tokens_out = Some(tokens as u64);
        if tokens <= budget {
            break;
        }
    }
    outcome.report.bytes_out = outcome.text.len() as u64;
    outcome.report.needs_snapshot = false;
    outcome
}

/// About how many bytes of text shaping `failure` reads: the upstream's own, where it sent
/// some (an error result's text can be as large as any result).
fn failure_text_len(failure: &Failure) -> usize {
    match failure {
        Failure::ToolError { text } => text.len(),
        Failure::Protocol { message, .. } => message.len(),
        Failure::Crashed { detail, .. }
        | Failure::Unavailable { detail, .. }
        | Failure::InvalidArguments { detail }
        | Failure::InvalidResponse { detail, .. }
        | Failure::CursorInvalid { detail } => detail.len(),
        Failure::UnknownTool { name, suggestions } => name.len() + suggestions.iter().map(String::len).sum::<usize>(),
        Failure::Timeout { .. } | Failure::ResponseTooLarge { .. } | Failure::CursorExpired => 0,
    }
}

/// Run a shaping job on the calling task (`inline`) or on the blocking pool; `None` if it
/// panicked, in either place, so a shaping bug never takes the session down with it.
async fn shape_off_task<T: Send + 'static>(inline: bool, job: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    if inline {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).ok()
    } else {
        tokio::task::spawn_blocking(job).await.ok()
    }
}

fn into_outcome(shaped: Result<Shaped, Unshaped>) -> Outcome {
    match shaped {
        Ok(s) => Outcome {
            text: s.text,
            envelope: s.envelope,
            report: s.report,
            failure: None,
            tools_changed: false,
            media: Vec::new(),
        },
        Err(Unshaped { message, nonce }) => bare_error(&message, &nonce),
    }
}

/// An error envelope rendered without a plan: for the rare case where shaping itself
/// cannot produce one (a budget too small for any envelope).
fn bare_error(message: &str, nonce: &str) -> Outcome {
    let envelope = Envelope::error(message);
    let text = toolshape_shape::render(&envelope, RenderMode::Json, nonce);
    Outcome {
        report: ShapeReport { bytes_out: text.len() as u64, ..ShapeReport::default() },
        text,
        envelope,
        failure: Some(FailureKind::Shaping),
        tools_changed: false,
        media: Vec::new(),
    }
}
