//! The reader: reads a result as a model does, up to three times, and notes the read that
//! answered.
//!
//! Read 1 is the tool's answer. While the question is unanswered and fewer than three
//! reads were made, the model makes one more call, chosen from what `result_read` offers
//! every model (a cursor's next page, or a view narrowed by `pattern` or `offset`):
//!
//! 0. a lookup whose name the first read's map gives with a line number (`412 src/a.rs`,
//!    a diff's files, a document's headings) jumps there once: a view from that `offset`;
//! 1. a lookup names what it looks for, so the model searches for it once: a view with
//!    `pattern` set to that name (escaped);
//! 2. if that search found records whose fields were left out by the compact view, it
//!    reads them once with their full fields;
//! 3. a question about the end of the result jumps there once, when the result says how
//!    long it is: a view from `offset` = the last record or the last line;
//! 4. otherwise it follows the `next` of the last read (or, after a targeted read that
//!    has none, of the last page of the result itself).
//!
//! The "next only" policy skips 0 to 3: it is what a model that only pages would find.

use serde_json::{Map, Value};
use toolshape_shape::{Continuation, Next, Resume, ShapeContext, ShapePlan, Shaped, Shaper, ViewSpec, make_view};
use toolshape_tokens::Tokenizer;

use crate::check::Read;
use crate::question::{Kind, Question};

/// A nonce as the gateway makes them: five words, each one token.
const NONCE: &str = "amber copper maple river harbor";

/// A continuation that keeps the resume point itself in the arguments, so the reader
/// can hand it back exactly.
struct Keep;

impl Continuation for Keep {
    fn next(&self, resume: &Resume) -> Next {
        let mut arguments = Map::new();
        arguments.insert("resume".into(), serde_json::to_value(resume).unwrap_or(Value::Null));
        Next { tool: "result_read".into(), arguments }
    }
}

/// Something the model can read pages of: the result itself or a view of it.
#[derive(Clone)]
struct Source {
    shaper: Shaper,
    bytes: Vec<u8>,
    /// The stored form pages are read from (made on first use).
    stored: Option<Vec<u8>>,
}

/// One call the model made.
pub(crate) struct Call {
    pub(crate) what: &'static str,
    pub(crate) tokens: usize,
    pub(crate) read: Read,
    /// What the model read.
    pub(crate) text: String,
}

/// What one question's reads gave.
pub(crate) struct Outcome {
    /// The read (1-based) that answered, if any within three.
    pub(crate) answered_at: Option<usize>,
    pub(crate) calls: Vec<Call>,
}

/// Reads one result under one plan.
pub(crate) struct Reader {
    plan: ShapePlan,
    payload: Vec<u8>,
    tok: Tokenizer,
    /// Views keep only top-level members of an object, as `result_read` did before views
    /// could narrow inside large members.
    pub(crate) shallow_views: bool,
}

impl Reader {
    pub(crate) fn new(plan: ShapePlan, payload: Vec<u8>) -> Reader {
        Reader { plan, payload, tok: Tokenizer::default(), shallow_views: false }
    }

    fn shape(&self, shaper: &Shaper, bytes: &[u8], resume: Option<Resume>) -> Option<Shaped> {
        let keep = Keep;
        let ctx = ShapeContext {
            tool: "tool",
            tokenizer: self.tok,
            nonce: NONCE,
            now_unix: Some(toolshape_fixtures::NOW_UNIX),
            resume,
            continuation: &keep,
        };
        shaper.shape(bytes, &ctx).ok()
    }

    fn stored(&self, source: &mut Source) -> Vec<u8> {
        if let Some(s) = &source.stored {
            return s.clone();
        }
        let keep = Keep;
        let ctx = ShapeContext {
            tool: "tool",
            tokenizer: self.tok,
            nonce: NONCE,
            now_unix: Some(toolshape_fixtures::NOW_UNIX),
            resume: None,
            continuation: &keep,
        };
        let s = source.shaper.snapshot(&source.bytes, &ctx).bytes;
        source.stored = Some(s.clone());
        s
    }

    /// The page `next` points at, read from the stored form of `source`.
    fn follow(&self, source: &mut Source, next: &Value) -> Option<Shaped> {
        let resume: Resume = serde_json::from_value(next.pointer("/arguments/resume")?.clone()).ok()?;
        let stored = self.stored(source);
        // As the gateway reads them: pages name the size of the result they came from.
        let pages = source.shaper.for_pages().with_original_bytes(source.bytes.len() as u64);
        let pages = match resume {
            Resume::Fields { .. } => pages.without_caps(),
            _ => pages,
        };
        self.shape(&pages, &stored, Some(resume))
    }

    /// A view of the stored result, shaped from its start.
    fn view(&self, source: &mut Source, spec: &ViewSpec, full: bool) -> Option<(Shaped, Source)> {
        let stored = self.stored(source);
        let bytes =
            if self.shallow_views { shallow_view(&stored, spec)? } else { make_view(&stored, spec).ok()?.bytes };
        let pages = source.shaper.for_pages();
        let shaper = if full { pages.without_caps() } else { pages };
        let shaped = self.shape(&shaper, &bytes, None)?;
        Some((shaped, Source { shaper, bytes, stored: None }))
    }

    /// The text of the first read.
    pub(crate) fn first_text(&self) -> String {
        Shaper::new(self.plan.clone())
            .ok()
            .and_then(|s| self.shape(&s, &self.payload, None))
            .map(|s| s.text)
            .unwrap_or_default()
    }

    /// Ask `q`, reading at most three times; `smart` allows the targeted reads.
    pub(crate) fn ask(&self, q: &Question, smart: bool) -> Outcome {
        let Ok(shaper) = Shaper::new(self.plan.clone()) else {
            return Outcome { answered_at: None, calls: Vec::new() };
        };
        let mut result = Source { shaper, bytes: self.payload.clone(), stored: None };
        let mut calls: Vec<Call> = Vec::new();
        let Some(first) = self.shape(&result.shaper.clone(), &self.payload, None) else {
            return Outcome { answered_at: None, calls };
        };
        let as_value = |n: &Option<Next>| n.as_ref().and_then(|n| serde_json::to_value(n).ok());
        let mut result_next = as_value(&first.envelope.next);
        let total = total_units(&first);
        let has_more = first.envelope.next.is_some();
        calls.push(self.call("first", &first));
        let (mut searched, mut full, mut jumped, mut mapped) = (false, false, false, false);
        // The latest view read, with its own `next`, and whether the last call read it.
        let mut view: Option<(Source, Option<Value>)> = None;
        let mut last_was_view = false;
        while calls.len() < 3 && !calls.iter().any(|c| c.read.answers(q)) {
            let needle = q.needle.as_ref().filter(|_| smart && q.kind == Kind::Lookup);
            let last_env = calls.last().and_then(|c| c.read.envelope.clone());
            let mapped_line = needle.filter(|_| !mapped).and_then(|n| line_in_map(calls[0].read.envelope.as_ref(), n));
            let targeted: Option<(&'static str, ViewSpec, bool)> = if let Some(line) = mapped_line {
                mapped = true;
                Some((
                    "offset (from the map)",
                    ViewSpec { offset: Some(line.saturating_sub(1)), ..ViewSpec::default() },
                    false,
                ))
            } else if let Some(n) = needle.filter(|_| !searched) {
                searched = true;
                Some(("pattern", ViewSpec { pattern: Some(regex::escape(n)), ..ViewSpec::default() }, false))
            } else if let Some(n) = needle.filter(|_| last_was_view && !full && fields_left_out(last_env.as_ref())) {
                full = true;
                Some((
                    "pattern, full fields",
                    ViewSpec { pattern: Some(regex::escape(n)), ..ViewSpec::default() },
                    true,
                ))
            } else if let Some(t) = total.filter(|_| smart && q.kind == Kind::Tail && !jumped && has_more) {
                jumped = true;
                Some(("offset", ViewSpec { offset: Some(t.saturating_sub(1)), ..ViewSpec::default() }, false))
            } else {
                None
            };
            let made = match targeted {
                Some((what, spec, full_fields)) => self.view(&mut result, &spec, full_fields).map(|(shaped, src)| {
                    view = Some((src, as_value(&shaped.envelope.next)));
                    last_was_view = true;
                    (what, shaped)
                }),
                None => {
                    let mut paged = None;
                    if last_was_view
                        && let Some((src, next)) = view.as_mut()
                        && let Some(n) = next.clone()
                    {
                        paged = self.follow(src, &n).map(|shaped| {
                            *next = as_value(&shaped.envelope.next);
                            ("next (view)", shaped)
                        });
                    }
                    if paged.is_none()
                        && let Some(n) = result_next.clone()
                    {
                        paged = self.follow(&mut result, &n).map(|shaped| {
                            result_next = as_value(&shaped.envelope.next);
                            last_was_view = false;
                            ("next", shaped)
                        });
                    }
                    paged
                }
            };
            let Some((what, shaped)) = made else { break };
            calls.push(self.call(what, &shaped));
        }
        let answered_at = calls.iter().position(|c| c.read.answers(q)).map(|i| i + 1);
        Outcome { answered_at, calls }
    }

    fn call(&self, what: &'static str, shaped: &Shaped) -> Call {
        Call { what, tokens: self.tok.count(&shaped.text), read: Read::new(&shaped.text), text: shaped.text.clone() }
    }
}

/// The line a map in the first read's summary gives for `needle` (`… 412 src/a.rs …`).
fn line_in_map(env: Option<&Value>, needle: &str) -> Option<u64> {
    let summary = env?.get("summary")?.as_str()?;
    // A heading keeps its marks in the map (`760 ##### /dev/sdh`).
    let re =
        regex::Regex::new(&format!(r"(?:^|[\s(,:])(\d+) (?:#{{1,6}} )?{}(?:[\s(,;]|$)", regex::escape(needle))).ok()?;
    re.captures(summary)?.get(1)?.as_str().parse().ok()
}

/// How many records or lines the first read says the result has, when it says.
fn total_units(first: &Shaped) -> Option<u64> {
    let o = first.envelope.omitted.as_ref()?;
    o.original.records.or(o.original.lines)
}

/// Whether a read says fields of its records were left out (by the compact view).
fn fields_left_out(env: Option<&Value>) -> bool {
    env.and_then(|e| e.pointer("/omitted/fields"))
        .is_some_and(|f| f.as_array().is_some_and(|a| !a.is_empty()) || f.as_object().is_some_and(|o| !o.is_empty()))
}

/// The view `result_read` made before views narrowed inside large members: an object's
/// top-level members that match, whole.
fn shallow_view(stored: &[u8], spec: &ViewSpec) -> Option<Vec<u8>> {
    let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(stored) else {
        return make_view(stored, spec).ok().map(|v| v.bytes);
    };
    let re = regex::RegexBuilder::new(spec.pattern.as_deref().unwrap_or("")).case_insensitive(true).build().ok()?;
    let kept: Map<String, Value> =
        m.into_iter().filter(|(k, v)| re.is_match(&format!("{}:{v}", Value::String(k.clone())))).collect();
    let kept: Vec<(String, Value)> = kept.into_iter().skip(spec.offset.unwrap_or(0) as usize).collect();
    serde_json::to_vec(&Value::Object(kept.into_iter().collect())).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_s_line_is_found_for_a_name_with_or_without_heading_marks() {
        let env = serde_json::json!({"summary": "12 headings; by line: 1 ##### /dev/sda, 760 ##### /dev/sdh; files: 412 src/a.rs (+3 −1)"});
        assert_eq!(line_in_map(Some(&env), "/dev/sdh"), Some(760));
        assert_eq!(line_in_map(Some(&env), "src/a.rs"), Some(412));
        assert_eq!(line_in_map(Some(&env), "/dev/sd"), None, "a whole name only");
        assert_eq!(line_in_map(Some(&env), "/dev/sdz"), None);
    }
}
