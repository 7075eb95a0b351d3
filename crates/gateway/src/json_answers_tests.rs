//! Tests of [`super::answers_as_json`], with a stand-in for rmcp that writes an event stream
//! chunk by chunk, as told.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::{Request, StatusCode};
use axum::response::Response;
use http_body::Frame;
use tokio::sync::mpsc;
use tower::ServiceExt;

use super::{AnswerWait, Event, answers_as_json, next_event, read_event};

const PRIMING: &str = "data: \nid: 0\nretry: 3000\n\n";
const ANSWER: &str = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"on"}]}}"#;
const PROGRESS: &str =
    r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#;

/// A body whose chunks arrive when the test sends them; it ends when the sender is dropped.
struct Chunks(mpsc::UnboundedReceiver<String>);

impl HttpBody for Chunks {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        self.0.poll_recv(cx).map(|chunk| chunk.map(|c| Ok(Frame::data(Bytes::from(c)))))
    }
}

/// A router whose `POST /mcp` answers with an event stream fed from the returned sender,
/// behind the middleware with `wait`.
fn router(wait: Duration) -> (axum::Router, mpsc::UnboundedSender<String>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let rx = std::sync::Arc::new(std::sync::Mutex::new(Some(rx)));
    let inner = axum::routing::post(move || {
        let rx = rx.lock().unwrap().take().expect("one request per router");
        async move {
            Response::builder()
                .header(CONTENT_TYPE, "text/event-stream")
                .header("cache-control", "no-cache")
                .header("mcp-session-id", "s-1")
                .body(Body::new(Chunks(rx)))
                .unwrap()
        }
    });
    let router = axum::Router::new()
        .route("/mcp", inner)
        .layer(axum::middleware::from_fn_with_state(AnswerWait(wait), answers_as_json));
    (router, tx)
}

async fn post(router: axum::Router, accept: &str) -> (StatusCode, String, String, String) {
    let request = Request::post("/mcp")
        .header(CONTENT_TYPE, "application/json")
        .header(ACCEPT, accept)
        .body(Body::from(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}"#))
        .unwrap();
    let response = router.oneshot(request).await.unwrap();
    let status = response.status();
    let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let (content_type, session) = (header("content-type"), header("mcp-session-id"));
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
    (status, content_type, session, String::from_utf8(bytes.to_vec()).unwrap())
}

#[tokio::test]
async fn a_quick_answer_goes_back_as_json_with_the_session_header() {
    let (router, tx) = router(Duration::from_secs(5));
    // The answer's event arrives in pieces.
    for chunk in [PRIMING, "data: ", ANSWER, "\n\n"] {
        tx.send(chunk.to_owned()).unwrap();
    }
    drop(tx);
    let (status, content_type, session, body) = post(router, "application/json, text/event-stream").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(content_type, "application/json");
    assert_eq!(session, "s-1");
    assert_eq!(body, ANSWER);
}

#[tokio::test]
async fn progress_before_the_answer_keeps_the_stream_byte_for_byte() {
    let (router, tx) = router(Duration::from_secs(5));
    let (progress, answer) = (format!("data: {PROGRESS}\n\n"), format!("data: {ANSWER}\n\n"));
    for chunk in [PRIMING, &progress, &answer] {
        tx.send(chunk.to_owned()).unwrap();
    }
    drop(tx);
    let (_, content_type, session, body) = post(router, "application/json, text/event-stream").await;
    assert_eq!(content_type, "text/event-stream");
    assert_eq!(session, "s-1");
    assert_eq!(body, format!("{PRIMING}{progress}{answer}"));
}

#[tokio::test]
async fn a_call_slower_than_the_wait_keeps_its_stream() {
    let (router, tx) = router(Duration::from_millis(50));
    tx.send(PRIMING.to_owned()).unwrap();
    let sender = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        tx.send(format!("data: {ANSWER}\n\n")).unwrap();
    });
    let (_, content_type, _, body) = post(router, "application/json, text/event-stream").await;
    sender.await.unwrap();
    assert_eq!(content_type, "text/event-stream");
    assert_eq!(body, format!("{PRIMING}data: {ANSWER}\n\n"));
}

#[tokio::test]
async fn a_client_that_asks_for_events_only_gets_events() {
    let (router, tx) = router(Duration::from_secs(5));
    let answer = format!("data: {ANSWER}\n\n");
    for chunk in [PRIMING, &answer] {
        tx.send(chunk.to_owned()).unwrap();
    }
    drop(tx);
    let (_, content_type, _, body) = post(router, "text/event-stream").await;
    assert_eq!(content_type, "text/event-stream");
    assert_eq!(body, format!("{PRIMING}{answer}"));
}

#[tokio::test]
async fn a_stream_that_ends_without_an_answer_is_passed_on_as_it_was() {
    let (router, tx) = router(Duration::from_secs(5));
    tx.send(PRIMING.to_owned()).unwrap();
    drop(tx);
    let (_, content_type, _, body) = post(router, "application/json, text/event-stream").await;
    assert_eq!(content_type, "text/event-stream");
    assert_eq!(body, PRIMING);
}

#[test]
fn events_are_told_apart() {
    assert_eq!(read_event(b"data: \nid: 0\nretry: 3000"), Event::Priming);
    assert_eq!(read_event(format!("data: {ANSWER}").as_bytes()), Event::Answer(ANSWER.as_bytes().to_vec()));
    assert_eq!(read_event(format!("id: 3\r\ndata: {ANSWER}\r").as_bytes()), Event::Answer(ANSWER.as_bytes().to_vec()));
    let refused = r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"no such tool"}}"#;
    assert_eq!(read_event(format!("data: {refused}").as_bytes()), Event::Answer(refused.as_bytes().to_vec()));
    assert_eq!(read_event(format!("data: {PROGRESS}").as_bytes()), Event::Other);
    // A request from the server (sampling) has an id and a method.
    assert_eq!(
        read_event(br#"data: {"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{}}"#),
        Event::Other
    );
    assert_eq!(read_event(b": ping"), Event::Other);
    assert_eq!(read_event(b"event: message\ndata: {}"), Event::Other);
    assert_eq!(read_event(b"data: not json"), Event::Other);
}

#[test]
fn events_end_at_a_blank_line() {
    assert_eq!(next_event(b"data: a\n\ndata: b"), Some((&b"data: a\n"[..], 9)));
    assert_eq!(next_event(b"data: a\r\n\r\nx"), Some((&b"data: a\r\n"[..], 11)));
    assert_eq!(next_event(b"data: a\n"), None);
    assert_eq!(next_event(b""), None);
}
