//! A quick answer to a `POST` goes back as one JSON body instead of an event stream.
//!
//! With sessions, rmcp answers every request with `text/event-stream`: a priming event (an
//! empty `data`, an event id and a retry time, so that a client could resume), then the
//! answer as a second event, then the end of the stream. The Streamable HTTP transport lets a
//! server answer a request with either `application/json` or an event stream, and every
//! client must read both. An event stream costs a client more for one message: a streaming
//! read, an event parser, and a chunked body. Measured with the Python SDK, a small call
//! through toolshape took about 1.3 times as long as through a Rust proxy that answers with
//! JSON, for about the same CPU in either server (BENCHMARKS.md, "Answers as JSON").
//!
//! So the stream of a `POST` is read here for a short while ([`WAIT_FOR_ANSWER`]):
//! - priming events (no data) are passed over;
//! - when the first event with data is the answer (a JSON-RPC response: an `id` and a `result`
//!   or an `error`), the client gets that message alone as `application/json`, with the
//!   other headers (the session id among them) as rmcp set them;
//! - anything else first (a progress or log notification, a sampling or elicitation request
//!   sent while the call runs, a keep-alive comment), the end of the stream without an answer,
//!   or no answer within the wait: the client gets the event stream as rmcp wrote it, every
//!   byte read so far and then the rest, so that progress, server requests and resuming work
//!   as before and a long call has its headers at once (a client waits for the headers of a
//!   `POST` under a shorter time limit than for the events of a stream).
//!
//! Only a `POST` whose `Accept` names `application/json` is changed. rmcp already refuses a
//! `POST` that does not accept both forms; the check keeps this layer right on its own.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::header::{ACCEPT, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE, TRANSFER_ENCODING};
use axum::http::{HeaderName, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::Response;
use http_body::Frame;
use serde::Deserialize;
use serde::de::IgnoredAny;

/// How long a `POST`'s event stream is read for its answer before it is passed on as a stream.
pub(crate) const WAIT_FOR_ANSWER: Duration = Duration::from_secs(2);
/// The most bytes of events held while waiting; past it, the stream is passed on.
const MAX_HELD_BYTES: usize = 64 << 20;

/// How long to wait for the answer (the middleware's state; tests shorten it).
#[derive(Clone, Copy)]
pub(crate) struct AnswerWait(pub(crate) Duration);

/// See the module documentation.
pub(crate) async fn answers_as_json(
    State(AnswerWait(wait)): State<AnswerWait>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::POST || !accepts_json(&request) {
        return next.run(request).await;
    }
    let response = next.run(request).await;
    if !is_event_stream(&response) {
        return response;
    }
    let (parts, mut body) = response.into_parts();
    let mut held: Vec<u8> = Vec::new();
    // Where the next event not yet looked at starts in `held`.
    let mut looked = 0;
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline, next_frame(&mut body)).await {
            Ok(Some(Ok(frame))) => {
                let Ok(data) = frame.into_data() else { continue };
                held.extend_from_slice(&data);
                if held.len() > MAX_HELD_BYTES {
                    break;
                }
                // An event ends at a line break; a frame without one (the middle of a long
                // answer: JSON has none unescaped) ends none, so the held bytes are not
                // searched again.
                if !data.contains(&b'\n') {
                    continue;
                }
            }
            // The stream failed or ended: pass on what there is, as it was.
            Ok(Some(Err(_)) | None) => break,
            // No answer in time: a long call keeps its stream.
            Err(_) => break,
        }
        while let Some((event, end)) = next_event(&held[looked..]) {
            looked += end;
            match read_event(event) {
                Event::Priming => {}
                Event::Answer(message) => {
                    let mut parts = parts;
                    for name in [CONTENT_TYPE, CACHE_CONTROL, TRANSFER_ENCODING, CONTENT_LENGTH] {
                        parts.headers.remove(name);
                    }
                    parts.headers.remove(HeaderName::from_static("x-accel-buffering"));
                    parts.headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
                    return Response::from_parts(parts, Body::from(message));
                }
                Event::Other => return Response::from_parts(parts, Body::new(HeldThen::new(held, body))),
            }
        }
    }
    Response::from_parts(parts, Body::new(HeldThen::new(held, body)))
}

/// Whether the request's `Accept` names `application/json` (or any type).
fn accepts_json(request: &Request) -> bool {
    request.headers().get_all(ACCEPT).iter().filter_map(|v| v.to_str().ok()).any(|v| {
        v.split(',')
            .map(|t| t.split(';').next().unwrap_or_default().trim())
            .any(|t| t.eq_ignore_ascii_case("application/json") || t == "application/*" || t == "*/*")
    })
}

fn is_event_stream(response: &Response) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("text/event-stream"))
}

async fn next_frame(body: &mut Body) -> Option<Result<Frame<Bytes>, axum::Error>> {
    std::future::poll_fn(|cx| Pin::new(&mut *body).poll_frame(cx)).await
}

/// The first whole event in `bytes` (without its blank line) and where the next one starts.
fn next_event(bytes: &[u8]) -> Option<(&[u8], usize)> {
    let mut at = 0;
    while at < bytes.len() {
        let line_end = bytes[at..].iter().position(|&b| b == b'\n').map(|i| at + i)?;
        let line = &bytes[at..line_end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            return Some((&bytes[..at], line_end + 1));
        }
        at = line_end + 1;
    }
    None
}

/// What one event of the stream is.
#[derive(Debug, PartialEq)]
enum Event {
    /// No data (rmcp's priming event: an id and a retry time).
    Priming,
    /// A JSON-RPC response: the data, the message alone.
    Answer(Vec<u8>),
    /// Anything else: a notification, a request, a comment.
    Other,
}

fn read_event(event: &[u8]) -> Event {
    let mut data: Vec<u8> = Vec::new();
    let mut lines = 0;
    let mut other_fields = false;
    for line in event.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if let Some(value) = line.strip_prefix(b"data:") {
            if lines > 0 {
                data.push(b'\n');
            }
            data.extend_from_slice(value.strip_prefix(b" ").unwrap_or(value));
            lines += 1;
        } else if !(line.is_empty() || line.starts_with(b"id:") || line.starts_with(b"retry:")) {
            // A comment (`: ping`), an `event:` name, or anything unknown: not an answer
            // to take apart.
            other_fields = true;
        }
    }
    if other_fields {
        return Event::Other;
    }
    if data.iter().all(u8::is_ascii_whitespace) {
        return Event::Priming;
    }
    /// Which members a message has; their values are skipped, not built (an answer passed
    /// on whole can be megabytes).
    #[derive(Deserialize)]
    struct Members {
        #[serde(default)]
        id: Option<IgnoredAny>,
        #[serde(default)]
        result: Option<IgnoredAny>,
        #[serde(default)]
        error: Option<IgnoredAny>,
        #[serde(default)]
        method: Option<IgnoredAny>,
    }
    match serde_json::from_slice::<Members>(&data) {
        Ok(m) if m.id.is_some() && (m.result.is_some() || m.error.is_some()) && m.method.is_none() => {
            Event::Answer(data)
        }
        _ => Event::Other,
    }
}

/// The bytes already read, then the rest of the stream.
struct HeldThen {
    held: Option<Bytes>,
    rest: Body,
}

impl HeldThen {
    fn new(held: Vec<u8>, rest: Body) -> HeldThen {
        HeldThen { held: (!held.is_empty()).then(|| Bytes::from(held)), rest }
    }
}

impl HttpBody for HeldThen {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        if let Some(held) = self.held.take() {
            return Poll::Ready(Some(Ok(Frame::data(held))));
        }
        Pin::new(&mut self.rest).poll_frame(cx)
    }
}

#[cfg(test)]
#[path = "json_answers_tests.rs"]
mod tests;
