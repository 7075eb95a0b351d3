//! Tests of the upstream side: content reduction, log lines, backoff, the line guard's id
//! search, and the relay of sampling requests and progress to the right agent call.

use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ClientResult, ContentBlock,
    ElicitationCapability, Implementation, ProgressNotificationParam, ProgressToken, RequestId, SamplingCapability,
    ServerRequest,
};
#[expect(deprecated, reason = "the test agent and upstream use sampling")]
use rmcp::model::{CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult};
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, serve_client};
use serde_json::Value;
use tokio::sync::mpsc;

use super::content::{Reply, all_text, reduce, wraps_text};
use super::guard::find_id;
use super::inflight::{Attribution, Shared};
use super::logs::{STDERR_LINE_MAX, log_text};
use super::relay::{Client, Relayed, relayed_capabilities};
use super::{MAX_BACKOFF, backoff};
use crate::agent::{AgentCall, AgentInputs};
use crate::server::link::PeerLink;

#[test]
fn structured_content_that_only_wraps_the_text_is_read_as_the_text() {
    let text = r#"[{"name":"a","type":"file"}]"#;
    assert!(wraps_text(&serde_json::json!({"content": text}), text));
    assert!(!wraps_text(&serde_json::json!({"content": text, "more": 1}), text));
    assert!(!wraps_text(&serde_json::json!({"content": "other"}), text));
    assert!(!wraps_text(&serde_json::json!([text]), text));
}

proptest::proptest! {
    /// Whatever an upstream logs, its line is one line, within the stderr line limit, and
    /// a prefix of the message's text (its JSON when it is not a plain string), whole when
    /// that fits.
    #[test]
    fn a_log_line_is_a_bounded_prefix_of_the_message(
        text in "(\\PC|\n|\r|\t){0,3000}",
        as_string: bool,
    ) {
        let data = if as_string { Value::String(text.clone()) } else { serde_json::json!({"text": text}) };
        let plain = as_string && !text.contains(char::is_control);
        let whole = if plain { text.clone() } else { data.to_string() };
        let line = log_text(&data);
        proptest::prop_assert!(!line.contains(['\n', '\r']), "{line:?}");
        proptest::prop_assert!(line.len() <= STDERR_LINE_MAX);
        proptest::prop_assert!(whole.starts_with(&line));
        if whole.len() <= STDERR_LINE_MAX {
            proptest::prop_assert_eq!(line, whole);
        } else {
            // Cut no further than the last character boundary before the limit.
            proptest::prop_assert!(line.len() + 4 > STDERR_LINE_MAX);
        }
    }
}

#[test]
fn backoff_grows_and_is_capped() {
    assert_eq!(backoff(1), Duration::ZERO);
    assert_eq!(backoff(2), Duration::from_millis(500));
    assert_eq!(backoff(3), Duration::from_secs(1));
    assert_eq!(backoff(40), MAX_BACKOFF);
}

#[test]
fn ids_are_found_at_either_end() {
    assert_eq!(find_id(br#"{"jsonrpc":"2.0","id":17,"result":{"content":"#), Some(Value::from(17)));
    assert_eq!(find_id(br#"xxxx"]}},"jsonrpc":"2.0","id":"a-1"}"#), Some(Value::from("a-1")));
    assert_eq!(find_id(b"no id here"), None);
}

#[test]
fn mixed_content_goes_on_as_blocks_for_the_media_step() {
    let blocks = vec![ContentBlock::text("hello"), ContentBlock::image("AAAA", "image/png")];
    let result = rmcp::model::CallToolResult::success(blocks.clone());
    assert_eq!(reduce(result.clone(), "u", 1 << 20), Ok(Reply::Mixed(blocks)));
    // The size cap still holds for media.
    assert!(reduce(result, "u", 5).is_err());
    let text = rmcp::model::CallToolResult::success(vec![ContentBlock::text("a"), ContentBlock::text("b")]);
    assert_eq!(reduce(text, "u", 1 << 20), Ok(Reply::Result(b"a\nb".to_vec())));
}

/// An agent: answers sampling with `reply`, or never when it is `None`.
#[derive(Clone)]
struct TestAgent {
    reply: Option<&'static str>,
    sampling: bool,
}

impl ClientHandler for TestAgent {
    #[expect(deprecated, reason = "the test agent answers sampling")]
    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _ctx: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let Some(reply) = self.reply else { return std::future::pending().await };
        let asked =
            params.messages.first().and_then(|m| m.content.first()).and_then(|c| c.as_text()).map(|t| t.text.clone());
        let text = format!("{reply} (asked: {})", asked.unwrap_or_default());
        Ok(CreateMessageResult::new(rmcp::model::SamplingMessage::assistant_text(text), "test-model".into()))
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.sampling {
            capabilities.sampling = Some(SamplingCapability::default());
        }
        ClientConfig::new(capabilities, Implementation::new("test-agent", "0"))
    }
}

/// The gateway's side of an agent session; only its peer is used.
struct AgentSide;

impl rmcp::ServerHandler for AgentSide {}

/// An upstream whose every tool asks for sampling and returns the reply, or the error.
struct AskingUpstream;

impl rmcp::ServerHandler for AskingUpstream {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(rmcp::model::ServerCapabilities::builder().enable_tools().build())
    }

    #[expect(deprecated, reason = "the test upstream asks for sampling")]
    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
        let params = CreateMessageRequestParams::new(vec![rmcp::model::SamplingMessage::user_text("say hi")], 10);
        let request = ServerRequest::CreateMessageRequest(CreateMessageRequest::new(params));
        let text = match ctx.peer.send_request(request).await {
            Ok(ClientResult::CreateMessageResult(r)) => {
                r.message.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default()
            }
            Ok(_) => "unexpected".to_owned(),
            Err(e) => format!("error: {e}"),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

type Running<R, S> = RunningService<R, S>;

/// An agent session: the agent's client and the gateway-side peer that reaches it.
async fn agent(agent: TestAgent) -> (Running<RoleServer, AgentSide>, Running<RoleClient, TestAgent>) {
    let (a, b) = tokio::io::duplex(64 * 1024);
    let client = tokio::spawn(async move { serve_client(agent, tokio::io::split(b)).await.unwrap() });
    let server = rmcp::serve_server(AgentSide, tokio::io::split(a)).await.unwrap();
    (server, client.await.unwrap())
}

/// The upstream connection under test, with `shared` as its state.
async fn upstream(shared: Arc<Shared>) -> (Running<RoleClient, Client>, Running<RoleServer, AskingUpstream>) {
    let (a, b) = tokio::io::duplex(64 * 1024);
    let server = tokio::spawn(async move { rmcp::serve_server(AskingUpstream, tokio::io::split(b)).await.unwrap() });
    let client = serve_client(Client::new(shared), tokio::io::split(a)).await.unwrap();
    (client, server.await.unwrap())
}

fn shared(timeout: Duration) -> Arc<Shared> {
    let (events, _) = mpsc::unbounded_channel();
    Arc::new(Shared::new("up", events, timeout, Arc::default()))
}

fn call_of(session: &Running<RoleServer, AgentSide>, scope: &str, id: i64) -> AgentCall {
    AgentCall {
        link: PeerLink::request(session.peer().clone(), None, RequestId::Number(id)),
        session: scope.into(),
        inputs: None,
    }
}

async fn ask(client: &Running<RoleClient, Client>) -> String {
    let result = client.peer().call_tool(CallToolRequestParams::new("ask")).await.unwrap();
    all_text(&result.content).unwrap()
}

#[tokio::test]
async fn sampling_is_relayed_to_the_agent_of_the_call_in_flight() {
    let shared = shared(Duration::from_secs(5));
    let (session, _agent) = agent(TestAgent { reply: Some("hello from the agent"), sampling: true }).await;
    let (client, _server) = upstream(shared.clone()).await;
    let _call = shared.begin_call(call_of(&session, "s1", 1));
    assert_eq!(ask(&client).await, "hello from the agent (asked: say hi)");
}

#[tokio::test]
async fn sampling_without_a_call_in_flight_is_refused() {
    let shared = shared(Duration::from_secs(5));
    let (client, _server) = upstream(shared.clone()).await;
    let text = ask(&client).await;
    assert!(text.contains("no tool call from an agent is in progress"), "{text}");
}

#[tokio::test]
async fn sampling_with_calls_of_two_sessions_in_flight_is_refused_not_guessed() {
    let shared = shared(Duration::from_secs(5));
    let (one, _a) = agent(TestAgent { reply: Some("from one"), sampling: true }).await;
    let (two, _b) = agent(TestAgent { reply: Some("from two"), sampling: true }).await;
    let (client, _server) = upstream(shared.clone()).await;
    let _first = shared.begin_call(call_of(&one, "s1", 1));
    let second = shared.begin_call(call_of(&two, "s2", 1));
    let text = ask(&client).await;
    assert!(text.contains("could not be attributed to one session"), "{text}");
    assert!(!text.contains("from one") && !text.contains("from two"), "{text}");
    // Two calls of one session are not ambiguous.
    drop(second);
    let _again = shared.begin_call(call_of(&one, "s1", 2));
    assert!(ask(&client).await.starts_with("from one"));
}

#[tokio::test]
async fn the_same_scope_on_another_peer_is_another_session() {
    let shared = shared(Duration::from_secs(5));
    let (one, _a) = agent(TestAgent { reply: Some("from one"), sampling: true }).await;
    let (two, _b) = agent(TestAgent { reply: Some("from two"), sampling: true }).await;
    let _first = shared.begin_call(call_of(&one, "same", 1));
    let _second = shared.begin_call(call_of(&two, "same", 2));
    assert!(matches!(shared.attribute(None), Attribution::Ambiguous(2)));
}

#[tokio::test]
async fn calls_without_sessions_are_one_caller_by_scope() {
    let shared = shared(Duration::from_secs(5));
    let (one, _a) = agent(TestAgent { reply: Some("from one"), sampling: true }).await;
    let (two, _b) = agent(TestAgent { reply: Some("from two"), sampling: true }).await;
    let modern = |session: &Running<RoleServer, AgentSide>, scope: &str, id: i64| {
        let (asks, _) = mpsc::channel(1);
        let mut sink = call_of(session, scope, id);
        sink.inputs = Some(Arc::new(AgentInputs::new(asks, None)));
        sink
    };
    let first = shared.begin_call(modern(&one, "same", 1));
    let second = shared.begin_call(modern(&two, "same", 2));
    // Each request its own peer, one scope: one caller, and its newest call is asked.
    let Attribution::One(call) = shared.attribute(None) else { panic!("not attributed") };
    let link = call.agent.link.as_any().downcast_ref::<PeerLink>().unwrap();
    assert_eq!(link.request_id(), Some(&RequestId::Number(2)));
    // Another scope, or a session-holding call of the same scope, is someone else.
    let third = shared.begin_call(modern(&two, "other", 3));
    assert!(matches!(shared.attribute(None), Attribution::Ambiguous(2)));
    drop((first, second, third));
    let _modern = shared.begin_call(modern(&one, "same", 4));
    let _session = shared.begin_call(call_of(&one, "same", 5));
    assert!(matches!(shared.attribute(None), Attribution::Ambiguous(2)));
}

/// Progress notes: which agent got it, under which token, how far.
type Seen = Arc<StdMutex<Vec<(&'static str, ProgressToken, f64)>>>;

/// An agent that notes the progress it is sent, under its own name.
#[derive(Clone)]
struct ProgressAgent {
    name: &'static str,
    seen: Seen,
}

impl ClientHandler for ProgressAgent {
    async fn on_progress(&self, params: ProgressNotificationParam, _ctx: NotificationContext<RoleClient>) {
        if let Ok(mut seen) = self.seen.lock() {
            seen.push((self.name, params.progress_token, params.progress));
        }
    }
}

async fn progress_agent(agent: ProgressAgent) -> (Running<RoleServer, AgentSide>, Running<RoleClient, ProgressAgent>) {
    let (a, b) = tokio::io::duplex(64 * 1024);
    let client = tokio::spawn(async move { serve_client(agent, tokio::io::split(b)).await.unwrap() });
    let server = rmcp::serve_server(AgentSide, tokio::io::split(a)).await.unwrap();
    (server, client.await.unwrap())
}

#[tokio::test]
async fn progress_of_a_call_without_session_follows_its_latest_round() {
    let seen = Arc::new(StdMutex::new(Vec::new()));
    let (first, _a) = progress_agent(ProgressAgent { name: "round 1", seen: seen.clone() }).await;
    let (second, _b) = progress_agent(ProgressAgent { name: "round 2", seen: seen.clone() }).await;
    let token = |n: i64| ProgressToken(rmcp::model::NumberOrString::Number(n));
    let (asks, _) = mpsc::channel(1);
    let inputs = Arc::new(AgentInputs::new(asks, None));
    let round = |session: &Running<RoleServer, AgentSide>, token: Option<ProgressToken>| {
        PeerLink::request(session.peer().clone(), token, RequestId::Number(1))
    };
    inputs.follow(round(&first, Some(token(1))));
    let mut sink = call_of(&first, "s", 1);
    sink.inputs = Some(inputs.clone());
    // The upstream's own token is replaced by the agent's.
    sink.progress("up", ProgressNotificationParam::new(token(99), 1.0)).await;
    inputs.follow(round(&second, Some(token(2))));
    sink.progress("up", ProgressNotificationParam::new(token(99), 2.0)).await;
    // A round that asked for no progress gets none.
    inputs.follow(round(&first, None));
    sink.progress("up", ProgressNotificationParam::new(token(99), 3.0)).await;
    tokio::time::timeout(Duration::from_secs(5), async {
        while seen.lock().unwrap().len() < 2 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(*seen.lock().unwrap(), [("round 1", token(1), 1.0), ("round 2", token(2), 2.0)]);
}

#[tokio::test]
async fn the_stream_a_request_arrived_on_names_its_call() {
    let shared = shared(Duration::from_secs(5));
    let (one, _a) = agent(TestAgent { reply: Some("from one"), sampling: true }).await;
    let (two, _b) = agent(TestAgent { reply: Some("from two"), sampling: true }).await;
    let first = shared.begin_call(call_of(&one, "s1", 1));
    first.sent_as(&RequestId::Number(7));
    let second = shared.begin_call(call_of(&two, "s2", 1));
    second.sent_as(&RequestId::Number(8));
    let Attribution::One(call) = shared.attribute(Some(&RequestId::Number(8))) else { panic!("not attributed") };
    assert_eq!(&*call.agent.session, "s2");
    // An id of no call in flight falls back to the safe rule.
    assert!(matches!(shared.attribute(Some(&RequestId::Number(9))), Attribution::Ambiguous(2)));
    drop((first, second));
    assert!(matches!(shared.attribute(None), Attribution::Nobody));
}

#[tokio::test]
async fn an_agent_without_sampling_gets_a_clear_error() {
    let shared = shared(Duration::from_secs(5));
    let (session, _agent) = agent(TestAgent { reply: Some("never"), sampling: false }).await;
    let (client, _server) = upstream(shared.clone()).await;
    let _call = shared.begin_call(call_of(&session, "s1", 1));
    let text = ask(&client).await;
    assert!(text.contains("the agent connected to toolshape does not support sampling"), "{text}");
}

#[tokio::test]
async fn a_silent_agent_is_bounded_by_the_time_out() {
    let shared = shared(Duration::from_millis(300));
    let (session, _agent) = agent(TestAgent { reply: None, sampling: true }).await;
    let (client, _server) = upstream(shared.clone()).await;
    let _call = shared.begin_call(call_of(&session, "s1", 1));
    let started = Instant::now();
    let text = ask(&client).await;
    assert!(text.contains("did not answer the sampling request"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
}

#[tokio::test]
async fn a_call_that_ends_stops_its_relay() {
    let shared = shared(Duration::from_secs(60));
    let (session, _agent) = agent(TestAgent { reply: None, sampling: true }).await;
    let (client, _server) = upstream(shared.clone()).await;
    let call = shared.begin_call(call_of(&session, "s1", 1));
    let ask = tokio::spawn(async move { ask(&client).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    drop(call);
    let text = tokio::time::timeout(Duration::from_secs(5), ask).await.unwrap().unwrap();
    assert!(text.contains("the tool call ended before the agent answered"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn capabilities_decide_what_the_agent_can_take() {
    let none = ClientCapabilities::default();
    let all = relayed_capabilities();
    let mut form_only = ClientCapabilities::default();
    form_only.elicitation = Some(ElicitationCapability::new());
    let sampling = Relayed::Sampling { tools: false };
    assert!(sampling.unsupported_by(&none).unwrap().contains("does not support sampling"));
    assert_eq!(sampling.unsupported_by(&all), None);
    assert!(Relayed::Sampling { tools: true }.unsupported_by(&all).unwrap().contains("tools"));
    assert!(Relayed::FormElicitation.unsupported_by(&none).unwrap().contains("does not support elicitation"));
    assert_eq!(Relayed::FormElicitation.unsupported_by(&form_only), None);
    assert!(Relayed::UrlElicitation.unsupported_by(&form_only).unwrap().contains("URL elicitation"));
    assert_eq!(Relayed::UrlElicitation.unsupported_by(&all), None);
}
