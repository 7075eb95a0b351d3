//! The stdio transport to an upstream: line-delimited JSON-RPC, as rmcp's own, with one
//! shortcut for the message that matters most.
//!
//! rmcp reads every incoming message as an untagged union: the line is buffered into a
//! generic tree, then tried as each kind of message and each kind of server result in turn,
//! and every miss builds an error. A tool result is the sixteenth kind tried, so the answer
//! to every `tools/call` paid for fifteen failed attempts, the largest single cost of a small
//! call in the gateway. This transport remembers the ids of the `tools/call` requests it
//! sent and reads their answers straight into a tool result. Every other line, and an answer
//! that does not read as a tool result, goes through the general parser as before.
//!
//! Sending and closing are rmcp's own writer; reading keeps rmcp's rules: a line that is not
//! JSON is skipped, a well-formed message of no known shape that asks something gets an
//! `Invalid request` error, and a partial line survives a cancelled read.

use std::collections::HashSet;

use rmcp::RoleClient;
use rmcp::model::{
    ClientNotification, ClientRequest, ErrorData, JsonRpcMessage, JsonRpcResponse, JsonRpcVersion2_0, RequestId,
    ServerResult,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, BufReader};

/// More `tools/call` ids than this waiting for answers means answers went missing (an
/// upstream that never answers and calls that were never cancelled); the set is cleared
/// rather than grown, and those answers, if they ever come, take the general path.
const MAX_PENDING_CALLS: usize = 4096;

/// Line-delimited JSON-RPC to an upstream, reading `tools/call` answers the short way.
pub(crate) struct UpstreamWire<R: AsyncRead, W: AsyncWrite> {
    lines: BufReader<R>,
    /// The line being read; it keeps what a cancelled read already took.
    line: Vec<u8>,
    /// rmcp's transport over the writing half only (its reading half is never used).
    writer: AsyncRwTransport<RoleClient, tokio::io::Empty, W>,
    /// Ids of the `tools/call` requests sent and not yet answered.
    tool_calls: HashSet<RequestId>,
}

impl<R, W> UpstreamWire<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    pub(crate) fn new(read: R, write: W) -> Self {
        UpstreamWire {
            lines: BufReader::with_capacity(64 * 1024, read),
            line: Vec::new(),
            writer: AsyncRwTransport::new_client(tokio::io::empty(), write),
            tool_calls: HashSet::new(),
        }
    }

    /// Note what an outgoing message means for the answers to come.
    fn note_sent(&mut self, item: &TxJsonRpcMessage<RoleClient>) {
        match item {
            JsonRpcMessage::Request(request) if matches!(request.request, ClientRequest::CallToolRequest(_)) => {
                if self.tool_calls.len() >= MAX_PENDING_CALLS {
                    self.tool_calls.clear();
                }
                self.tool_calls.insert(request.id.clone());
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) = &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    self.tool_calls.remove(id);
                }
            }
            _ => {}
        }
    }

    /// The message on one line (without its line end), or what to do instead.
    fn read_message(&mut self, line: &[u8]) -> Read {
        let line = line.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(line);
        if let Some(answer) = self.tool_result(line) {
            return Read::Message(answer);
        }
        match serde_json::from_slice::<RxJsonRpcMessage<RoleClient>>(line) {
            Ok(message) => {
                if let JsonRpcMessage::Response(JsonRpcResponse { id, .. })
                | JsonRpcMessage::Error(rmcp::model::JsonRpcError { id: Some(id), .. }) = &message
                {
                    self.tool_calls.remove(id);
                }
                Read::Message(message)
            }
            Err(e) => match e.classify() {
                serde_json::error::Category::Data => Read::Refuse(asked_id(line)),
                _ => {
                    tracing::debug!(error = %e, "ignoring an upstream line that is not JSON");
                    Read::Skip
                }
            },
        }
    }

    /// `line` read as the answer to one of our `tools/call` requests, if it is one.
    fn tool_result(&mut self, line: &[u8]) -> Option<RxJsonRpcMessage<RoleClient>> {
        /// The frame of a successful answer; the result is kept as raw text.
        #[derive(Deserialize)]
        struct Answer<'a> {
            jsonrpc: JsonRpcVersion2_0,
            id: RequestId,
            #[serde(borrow)]
            result: &'a RawValue,
            // A line with any of these is something else (or malformed): the general path.
            #[serde(default)]
            method: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            error: Option<serde::de::IgnoredAny>,
        }
        if self.tool_calls.is_empty() {
            return None;
        }
        let answer: Answer<'_> = serde_json::from_slice(line).ok()?;
        if answer.method.is_some() || answer.error.is_some() || !self.tool_calls.contains(&answer.id) {
            return None;
        }
        let result = serde_json::from_str(answer.result.get()).ok()?;
        self.tool_calls.remove(&answer.id);
        Some(JsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc: answer.jsonrpc,
            id: answer.id,
            result: ServerResult::CallToolResult(result),
        }))
    }
}

/// What one line turned out to be.
enum Read {
    Message(RxJsonRpcMessage<RoleClient>),
    /// Not JSON: skipped, as the other official SDKs do (answering garbage can start an
    /// error storm with a peer that echoes it).
    Skip,
    /// Well-formed JSON of no known shape: if it asked something (it has an id), it is
    /// told `Invalid request`.
    Refuse(Option<RequestId>),
}

/// The id of a request on `line`, if it has one.
fn asked_id(line: &[u8]) -> Option<RequestId> {
    #[derive(Deserialize)]
    struct Asked {
        id: RequestId,
        #[serde(rename = "method")]
        _method: serde::de::IgnoredAny,
    }
    serde_json::from_slice::<Asked>(line).ok().map(|a| a.id)
}

impl<R, W> Transport<RoleClient> for UpstreamWire<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.note_sent(&item);
        self.writer.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            // `read_until` appends to `self.line`, which is cleared only once a whole line
            // is handled: a read cancelled halfway (this future is polled in a `select!`)
            // leaves its bytes for the next call.
            match self.lines.read_until(b'\n', &mut self.line).await {
                Ok(0) => return None,
                Ok(_) if self.line.last() != Some(&b'\n') => return None, // end of stream mid-line
                Ok(_) => {}
                Err(e) => {
                    tracing::debug!(error = %e, "the upstream's stdout could not be read");
                    return None;
                }
            }
            let mut line = std::mem::take(&mut self.line);
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            let read = if text.iter().all(u8::is_ascii_whitespace) { Read::Skip } else { self.read_message(text) };
            line.clear();
            self.line = line;
            match read {
                Read::Message(message) => return Some(message),
                Read::Skip => {}
                Read::Refuse(id) => {
                    let Some(id) = id else { continue };
                    let error = TxJsonRpcMessage::<RoleClient>::error(
                        ErrorData::invalid_request("Invalid request", None),
                        Some(id),
                    );
                    if self.writer.send(error).await.is_err() {
                        return None;
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.writer.close().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{CallToolRequest, CallToolRequestParams, JsonRpcRequest, NumberOrString};
    use tokio::io::AsyncWriteExt;

    fn tool_call(id: i64) -> TxJsonRpcMessage<RoleClient> {
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(CallToolRequestParams::new("t")));
        JsonRpcMessage::Request(JsonRpcRequest::new(NumberOrString::Number(id), request))
    }

    /// A wire whose upstream writes `lines`, after `sent` went out.
    async fn received(sent: Vec<TxJsonRpcMessage<RoleClient>>, lines: &[&str]) -> Vec<RxJsonRpcMessage<RoleClient>> {
        let (mut upstream, ours) = tokio::io::duplex(64 * 1024);
        let (read, write) = tokio::io::split(ours);
        let mut wire = UpstreamWire::new(read, write);
        for item in sent {
            wire.send(item).await.unwrap();
        }
        for line in lines {
            upstream.write_all(line.as_bytes()).await.unwrap();
        }
        upstream.shutdown().await.unwrap();
        let mut out = Vec::new();
        while let Some(m) = wire.receive().await {
            out.push(m);
        }
        out
    }

    /// What rmcp's own parser makes of `line`, written out again (messages do not compare).
    fn general(line: &str) -> serde_json::Value {
        serde_json::to_value(serde_json::from_str::<RxJsonRpcMessage<RoleClient>>(line).unwrap()).unwrap()
    }

    fn written(messages: &[RxJsonRpcMessage<RoleClient>]) -> Vec<serde_json::Value> {
        messages.iter().map(|m| serde_json::to_value(m).unwrap()).collect()
    }

    #[tokio::test]
    async fn answers_read_the_short_way_equal_the_general_parse() {
        let lines = [
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}],"structuredContent":{"a":[1,2]},"isError":false}}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":{"content":[],"isError":true,"_meta":{"k":"v"}}}"#,
        ];
        let with_newlines: Vec<String> = lines.iter().map(|l| format!("{l}\n")).collect();
        let refs: Vec<&str> = with_newlines.iter().map(String::as_str).collect();
        let got = received(vec![tool_call(1), tool_call(2)], &refs).await;
        assert_eq!(written(&got), lines.iter().map(|l| general(l)).collect::<Vec<_>>());
        assert!(matches!(&got[0], JsonRpcMessage::Response(r) if matches!(r.result, ServerResult::CallToolResult(_))));
    }

    #[tokio::test]
    async fn other_lines_take_the_general_path_and_garbage_is_skipped() {
        let lines = [
            // An answer to something that was not a tool call: read as rmcp reads it.
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n",
            "not json at all\n",
            "\n",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\r\n",
            // An error answer to a tool call.
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32000,\"message\":\"no\"}}\n",
        ];
        let got = received(vec![tool_call(1)], &lines).await;
        assert_eq!(got.len(), 3, "{got:?}");
        let got = written(&got);
        assert_eq!(got[0], general(lines[0].trim_end()));
        assert_eq!(got[1], general(lines[3].trim_end()));
        assert_eq!(got[2], general(lines[4].trim_end()));
    }

    /// A wire that sent `tools/call` request 1, and nothing else.
    fn after_one_tool_call() -> UpstreamWire<tokio::io::Empty, tokio::io::Sink> {
        let mut wire = UpstreamWire::new(tokio::io::empty(), tokio::io::sink());
        wire.note_sent(&tool_call(1));
        wire
    }

    #[test]
    fn the_shortcut_takes_only_successful_answers_to_tool_calls() {
        let mut wire = after_one_tool_call();
        let ok = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;
        for other in [
            &br#"{"jsonrpc":"2.0","id":2,"result":{"content":[]}}"#[..], // another id
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]},"error":{"code":1,"message":"x"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}"#,
            br#"{"jsonrpc":"1.0","id":1,"result":{"content":[]}}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{"content":"not a list"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{"content":["#,
        ] {
            assert!(wire.tool_result(other).is_none(), "{}", String::from_utf8_lossy(other));
        }
        assert!(wire.tool_result(ok).is_some());
        // Answered once: a second answer with the same id is not taken for it.
        assert!(wire.tool_result(ok).is_none());
    }

    #[test]
    fn a_cancelled_call_is_forgotten() {
        let mut wire = after_one_tool_call();
        let cancelled = rmcp::model::CancelledNotification::new(rmcp::model::CancelledNotificationParam::new(
            Some(NumberOrString::Number(1)),
            None,
        ));
        let note = JsonRpcMessage::Notification(rmcp::model::JsonRpcNotification {
            jsonrpc: JsonRpcVersion2_0,
            notification: ClientNotification::CancelledNotification(cancelled),
        });
        wire.note_sent(&note);
        assert!(wire.tool_calls.is_empty());
    }

    fn json() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(serde_json::Value::from),
            "[a-z\\\"\u{e9}\u{1F600}]{0,8}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
                proptest::collection::btree_map("[a-zA-Z_]{1,12}", inner, 0..4)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// Results shaped like tool results (text blocks, structured content, error flags), and
    /// anything at all.
    fn result() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let block = "[ -~\u{e9}]{0,12}".prop_map(|text| serde_json::json!({"type": "text", "text": text}));
        let tool_result =
            (proptest::collection::vec(block, 0..3), proptest::option::of(json()), proptest::option::of(any::<bool>()))
                .prop_map(|(content, structured, is_error)| {
                    let mut r = serde_json::json!({ "content": content });
                    if let Some(s) = structured {
                        r["structuredContent"] = s;
                    }
                    if let Some(e) = is_error {
                        r["isError"] = e.into();
                    }
                    r
                });
        prop_oneof![tool_result, json()]
    }

    proptest::proptest! {
        /// Whatever the upstream answers a tool call with: when the general parser reads it
        /// as a tool result, the shortcut reads the same; and it never panics.
        #[test]
        fn the_shortcut_agrees_with_the_general_parser(result in result()) {
            let line = serde_json::to_vec(&serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": result})).unwrap();
            let general = serde_json::from_slice::<RxJsonRpcMessage<RoleClient>>(&line).ok();
            let short = after_one_tool_call().tool_result(&line);
            if let Some(JsonRpcMessage::Response(JsonRpcResponse { result: ServerResult::CallToolResult(_), .. })) = &general {
                let short = short.expect("the shortcut missed a tool result");
                proptest::prop_assert_eq!(serde_json::to_value(&short).unwrap(), serde_json::to_value(general.as_ref().unwrap()).unwrap());
            }
        }
    }

    #[tokio::test]
    async fn a_request_of_no_known_shape_is_answered_invalid() {
        let (mut upstream, ours) = tokio::io::duplex(64 * 1024);
        let (read, write) = tokio::io::split(ours);
        let mut wire = UpstreamWire::new(read, write);
        upstream
            .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"sampling/createMessage\",\"params\":5}\n")
            .await
            .unwrap();
        upstream.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n").await.unwrap();
        let next = wire.receive().await.unwrap();
        assert_eq!(written(&[next])[0], general("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}"));
        let mut answer = vec![0u8; 512];
        let n = tokio::io::AsyncReadExt::read(&mut upstream, &mut answer).await.unwrap();
        let answer: serde_json::Value = serde_json::from_slice(&answer[..n]).unwrap();
        assert_eq!(answer["id"], 9);
        assert_eq!(answer["error"]["code"], -32600);
    }
}
