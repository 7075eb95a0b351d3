//! Requests of 2026-07-28 agents that wait for the agent's input: `tools/call`,
//! `prompts/get` and `resources/read`.
//!
//! That protocol has no server-to-client requests. When an upstream asks for sampling or
//! elicitation during such a request, the request answers `input_required` with the
//! upstream's request and an opaque `requestState`, and keeps running here, parked. The agent
//! retries the same request with its answers and that state; the retry takes the parked call,
//! hands the answers to the waiting upstream requests and goes on waiting for the result (or
//! for the next request).
//!
//! A retry that leaves some requests unanswered is asked them again (a new `input_required`
//! with those requests and a new state) while the answers it did carry go on to the upstream.
//!
//! The state is a random token bound to the caller's scope: another caller's retry, an
//! expired token or a retry on another replica gets a clear error and reaches nothing.
//! Parked calls are bounded in number and in age; the upstream's time-out bounds how long a
//! relayed request waits, so an agent that never retries costs one upstream call.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use rmcp::ErrorData;
#[expect(deprecated, reason = "sampling is relayed for the agents that still offer it")]
use rmcp::model::CreateMessageResult;
use rmcp::model::{
    ClientResult, ElicitResult, GetPromptResult, InputRequest, InputRequests, InputRequiredResult, InputResponses,
    ReadResourceResult,
};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use toolshape_util::random;

use crate::agent::{AgentInputs, InputAsk};
use crate::gateway::Outcome;

/// Most calls parked at once; a call that would be one more fails with a clear error.
const MAX_PARKED: usize = 1024;
/// How long a parked call waits for its retry before it is cancelled.
const PARKED_TTL: Duration = Duration::from_secs(15 * 60);

/// The kind of request a call serves. A retry must be the same kind of request as the one
/// that was parked: a `prompts/get` carrying a tool call's state reaches nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RequestKind {
    ToolCall,
    Prompt,
    Resource,
}

/// What a call produced when it finished.
pub(crate) enum Finished {
    /// A tool call's outcome (failures are in its envelope).
    Tool(Outcome),
    /// A prompt, or the error the agent gets.
    Prompt(Result<GetPromptResult, ErrorData>),
    /// A resource's contents, or the error the agent gets.
    Resource(Result<ReadResourceResult, ErrorData>),
}

impl Finished {
    /// Whether the call failed.
    fn failed(&self) -> bool {
        match self {
            Finished::Tool(outcome) => outcome.is_error(),
            Finished::Prompt(result) => result.is_err(),
            Finished::Resource(result) => result.is_err(),
        }
    }
}

/// A call in progress, with what the agent must still answer.
pub(crate) struct Running {
    /// Which request the call serves.
    pub(crate) kind: RequestKind,
    /// The gateway call, running on a task of its own so that it outlives one round.
    pub(crate) task: JoinHandle<Finished>,
    /// The upstream requests that come up while it runs.
    pub(crate) asks: mpsc::Receiver<InputAsk>,
    /// Cancels the gateway call.
    pub(crate) cancel: CancellationToken,
    /// Where its progress goes, moved to each new round's request.
    pub(crate) inputs: Arc<AgentInputs>,
}

/// A call parked between rounds.
struct Parked {
    scope: String,
    /// Taken when the call is resumed; a parked call dropped with it still here (expired,
    /// or the gateway stopping) is cancelled.
    running: Option<Running>,
    /// The requests sent to the agent, by the key the agent answers under.
    waiting: BTreeMap<String, Waiting>,
    parked_at: Instant,
}

impl Drop for Parked {
    fn drop(&mut self) {
        if let Some(running) = &self.running {
            running.cancel.cancel();
        }
    }
}

/// One upstream request the agent was asked.
struct Waiting {
    /// The request, kept to ask again if a retry does not answer it.
    request: InputRequest,
    /// What the answer must be.
    kind: AnswerKind,
    reply: oneshot::Sender<Result<ClientResult, ErrorData>>,
}

/// The result an input request is answered with.
#[derive(Clone, Copy)]
enum AnswerKind {
    Sampling,
    Elicitation,
    Other,
}

impl AnswerKind {
    fn of(request: &InputRequest) -> AnswerKind {
        match request {
            InputRequest::CreateMessage(_) => AnswerKind::Sampling,
            InputRequest::Elicitation(_) => AnswerKind::Elicitation,
            _ => AnswerKind::Other,
        }
    }

    /// `value` read as an answer of this kind, or why it is not one. Read once, here: the
    /// waiting relay gets the typed result.
    #[expect(deprecated, reason = "sampling is relayed for the agents that still offer it")]
    fn read(self, value: Value) -> Result<ClientResult, BadAnswer> {
        match self {
            AnswerKind::Sampling => serde_json::from_value::<CreateMessageResult>(value)
                .map(|r| ClientResult::CreateMessageResult(Box::new(r)))
                .map_err(|e| BadAnswer::Sampling(e.to_string())),
            AnswerKind::Elicitation => serde_json::from_value::<ElicitResult>(value)
                .map(ClientResult::ElicitResult)
                .map_err(|e| BadAnswer::Elicitation(e.to_string())),
            AnswerKind::Other => Err(BadAnswer::Unrelayed),
        }
    }
}

/// Why an answer in a retry is not the answer its request needs (the message follows "the
/// answer under `KEY`").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum BadAnswer {
    /// A sampling request's answer that does not read as a sampling result.
    #[error("is not a sampling result: {0}")]
    Sampling(String),
    /// An elicitation request's answer that does not read as an elicitation result.
    #[error("is not an elicitation result: {0}")]
    Elicitation(String),
    /// An answer to a kind of request toolshape never relays.
    #[error("answers a request toolshape does not relay")]
    Unrelayed,
}

/// How one round of a call ended.
pub(crate) enum Round {
    /// The call finished.
    Done(Finished),
    /// The call needs the agent's input; this is the `input_required` result to send.
    NeedsInput(InputRequiredResult),
    /// The call could not go on.
    Failed(ErrorData),
}

/// What a retry resumed.
pub(crate) enum Resumed {
    /// The call, every request answered, to be driven again.
    Call(Running),
    /// Some requests were not answered: the call stays parked, and this `input_required`
    /// asks them again under a new state.
    AskedAgain(InputRequiredResult),
}

/// The parked calls of one gateway.
#[derive(Default)]
pub(crate) struct ParkedCalls {
    calls: StdMutex<HashMap<String, Parked>>,
}

impl ParkedCalls {
    /// Take the `kind` of call parked under `state` for `scope`, hand it the agent's
    /// `responses`, and return it to be driven again, or, when some requests went
    /// unanswered, park it again and return what to ask.
    pub(crate) fn resume(
        &self,
        state: &str,
        scope: &str,
        kind: RequestKind,
        responses: Option<InputResponses>,
    ) -> Result<Resumed, ErrorData> {
        let parked = {
            let mut calls = self.calls.lock().map_err(|_| gone())?;
            match calls.get(state) {
                Some(p) if p.scope == scope && p.running.as_ref().is_some_and(|r| r.kind == kind) => {
                    calls.remove(state)
                }
                _ => None,
            }
        };
        let Some(mut parked) = parked else { return Err(gone()) };
        let mut responses = responses.unwrap_or_default();
        // Per request: its answer, or `None` when the retry carried none.
        let answers: Result<Vec<Option<ClientResult>>, ErrorData> = parked
            .waiting
            .iter()
            .map(|(key, waiting)| match responses.remove(key) {
                Some(value) => waiting
                    .kind
                    .read(value)
                    .map(Some)
                    .map_err(|why| ErrorData::invalid_params(format!("the answer under `{key}` {why}"), None)),
                None => Ok(None),
            })
            .collect();
        let answers = match answers {
            Ok(answers) => answers,
            Err(error) => {
                // The agent's mistake: it is told so, and the call stays parked under the
                // same state for a corrected retry.
                if let Ok(mut calls) = self.calls.lock() {
                    calls.insert(state.to_owned(), parked);
                }
                return Err(error);
            }
        };
        let mut unanswered = BTreeMap::new();
        for ((key, waiting), answer) in std::mem::take(&mut parked.waiting).into_iter().zip(answers) {
            match answer {
                // The upstream may have stopped waiting (its time-out); the result still comes.
                Some(answer) => drop(waiting.reply.send(Ok(answer))),
                None => drop(unanswered.insert(key, waiting)),
            }
        }
        if unanswered.is_empty() {
            return parked.running.take().map(Resumed::Call).ok_or_else(gone);
        }
        // Asked again under a new state, with the same keys; the old state is spent.
        let requests: InputRequests = unanswered.iter().map(|(key, w)| (key.clone(), w.request.clone())).collect();
        parked.waiting = unanswered;
        parked.parked_at = Instant::now();
        let state = token();
        match self.calls.lock() {
            Ok(mut calls) => drop(calls.insert(state.clone(), parked)),
            Err(_) => return Err(gone()),
        }
        Ok(Resumed::AskedAgain(InputRequiredResult::new(Some(requests), Some(state))))
    }

    /// Drive `running` until it finishes or needs the agent's input; in the latter case,
    /// park it and return the `input_required` result. `cancelled` is the agent request's
    /// own cancellation, which cancels the call.
    pub(crate) async fn drive(&self, mut running: Running, scope: &str, cancelled: CancellationToken) -> Round {
        let first = tokio::select! {
            outcome = &mut running.task => return finished(outcome, &running.inputs),
            ask = running.asks.recv() => ask,
            () = cancelled.cancelled() => {
                running.cancel.cancel();
                return Round::Failed(ErrorData::internal_error("the call was cancelled", None));
            }
        };
        let Some(first) = first else {
            // Nobody can ask any more: the call is ending.
            return finished((&mut running.task).await, &running.inputs);
        };
        let mut requests = InputRequests::new();
        let mut waiting = BTreeMap::new();
        let mut ask = Some(first);
        while let Some(InputAsk { request, reply }) = ask.take() {
            let key = format!("input-{}", waiting.len() + 1);
            waiting.insert(key.clone(), Waiting { request: request.clone(), kind: AnswerKind::of(&request), reply });
            requests.insert(key, request);
            // Requests that came up together go out together.
            ask = running.asks.try_recv().ok();
        }
        let state = token();
        let parked = Parked { scope: scope.to_owned(), running: Some(running), waiting, parked_at: Instant::now() };
        let kept = match self.calls.lock() {
            Ok(mut calls) => {
                calls.retain(|_, p| p.parked_at.elapsed() < PARKED_TTL);
                calls.len() < MAX_PARKED && calls.insert(state.clone(), parked).is_none()
            }
            Err(_) => false,
        };
        if !kept {
            return Round::Failed(ErrorData::internal_error(
                format!("toolshape already holds {MAX_PARKED} calls waiting for their agents' input; try again later"),
                None,
            ));
        }
        Round::NeedsInput(InputRequiredResult::new(Some(requests), Some(state)))
    }
}

/// How a call that ended ends for the agent: a call that failed after a request the agent
/// could not take fails with that request's `-32021` error, which names the capability to
/// declare on a retry.
fn finished(joined: Result<Finished, tokio::task::JoinError>, inputs: &AgentInputs) -> Round {
    match joined {
        Ok(done) if done.failed() => match inputs.take_refusal() {
            Some(refused) => Round::Failed(refused),
            None => Round::Done(done),
        },
        Ok(done) => Round::Done(done),
        Err(e) => Round::Failed(ErrorData::internal_error(format!("the call stopped: {e}"), None)),
    }
}

/// The error for a state that names no call parked for this caller.
fn gone() -> ErrorData {
    ErrorData::invalid_params(
        "requestState names no call waiting for input here: it expired, belongs to another caller or another \
         kind of request, or was made by another toolshape replica; send the request again without it",
        None,
    )
}

/// A fresh, unguessable state token.
fn token() -> String {
    random::hex(16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ElicitRequest, ElicitRequestParams, ErrorCode, InputRequest};
    use toolshape_shape::{Envelope, ShapeReport};

    fn outcome(text: &str) -> Outcome {
        Outcome {
            media: Vec::new(),
            text: text.to_owned(),
            envelope: Envelope::error(text),
            report: ShapeReport::default(),
            failure: None,
            tools_changed: false,
        }
    }

    fn elicitation() -> InputRequest {
        let params: ElicitRequestParams = serde_json::from_value(serde_json::json!({
            "message": "Your name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
        }))
        .unwrap();
        InputRequest::Elicitation(ElicitRequest::new(params))
    }

    /// A call that asks the agent once and finishes with what it was answered.
    fn asking_call() -> (Running, CancellationToken) {
        let (tx, asks) = mpsc::channel(8);
        let cancel = CancellationToken::new();
        let stop = cancel.clone();
        let task = tokio::spawn(async move {
            let (reply, answer) = oneshot::channel();
            tx.send(InputAsk { request: elicitation(), reply }).await.unwrap();
            Finished::Tool(tokio::select! {
                a = answer => match a {
                    Ok(Ok(v)) => outcome(&serde_json::to_string(&v).unwrap()),
                    Ok(Err(e)) => outcome(&format!("error: {}", e.message)),
                    Err(_) => outcome("dropped"),
                },
                () = stop.cancelled() => outcome("cancelled"),
            })
        });
        (Running { kind: RequestKind::ToolCall, task, asks, cancel: cancel.clone(), inputs: detached() }, cancel)
    }

    /// Inputs nobody asks through, for calls driven by hand.
    fn detached() -> Arc<AgentInputs> {
        let (asks, _) = mpsc::channel(1);
        Arc::new(AgentInputs::new(asks, None))
    }

    fn responses(key: &str, value: Value) -> InputResponses {
        InputResponses::from([(key.to_owned(), value)])
    }

    #[tokio::test]
    async fn a_call_that_asks_is_parked_and_resumed_with_the_answer() {
        let parked = ParkedCalls::default();
        let (running, _) = asking_call();
        let Round::NeedsInput(asked) = parked.drive(running, "s1", CancellationToken::new()).await else {
            panic!("the call did not ask")
        };
        let requests = asked.input_requests.unwrap();
        assert_eq!(requests.keys().collect::<Vec<_>>(), ["input-1"]);
        let state = asked.request_state.unwrap();
        assert_eq!(state.len(), 32);
        let answer = serde_json::json!({"action": "decline"});
        let running = call(parked.resume(&state, "s1", RequestKind::ToolCall, Some(responses("input-1", answer))));
        let Round::Done(Finished::Tool(done)) = parked.drive(running, "s1", CancellationToken::new()).await else {
            panic!("not done")
        };
        assert!(done.text.contains(r#""action":"decline""#), "{}", done.text);
        // A state is good for one retry.
        assert!(parked.resume(&state, "s1", RequestKind::ToolCall, None).is_err());
    }

    #[tokio::test]
    async fn another_callers_state_reaches_nothing() {
        let parked = ParkedCalls::default();
        let (running, cancel) = asking_call();
        let Round::NeedsInput(asked) = parked.drive(running, "s1", CancellationToken::new()).await else { panic!() };
        let state = asked.request_state.unwrap();
        let err = parked.resume(&state, "s2", RequestKind::ToolCall, None).err().unwrap();
        assert!(err.message.contains("names no call waiting"), "{}", err.message);
        assert!(parked.resume("not-a-state", "s1", RequestKind::ToolCall, None).is_err());
        // A tool call's state does not resume a prompt or a read of the same caller.
        assert!(parked.resume(&state, "s1", RequestKind::Prompt, None).is_err());
        assert!(parked.resume(&state, "s1", RequestKind::Resource, None).is_err());
        // The rightful caller still gets its call, untouched by the attempts.
        assert!(!cancel.is_cancelled());
        assert!(parked.resume(&state, "s1", RequestKind::ToolCall, None).is_ok());
    }

    /// The running call a retry resumed, which must have answered everything.
    fn call(resumed: Result<Resumed, ErrorData>) -> Running {
        match resumed {
            Ok(Resumed::Call(running)) => running,
            Ok(Resumed::AskedAgain(asked)) => panic!("asked again: {:?}", asked.input_requests),
            Err(e) => panic!("not resumed: {}", e.message),
        }
    }

    #[tokio::test]
    async fn a_retry_without_the_answer_is_asked_again_and_the_upstream_keeps_waiting() {
        let parked = ParkedCalls::default();
        let (running, cancel) = asking_call();
        let Round::NeedsInput(asked) = parked.drive(running, "s1", CancellationToken::new()).await else { panic!() };
        let first = asked.request_state.unwrap();
        let again = parked.resume(&first, "s1", RequestKind::ToolCall, Some(responses("other-key", Value::Null)));
        let Ok(Resumed::AskedAgain(again)) = again else { panic!("the missing answer was not asked again") };
        // The same request under the same key, with a new state; the old one is spent.
        let requests = again.input_requests.unwrap();
        assert_eq!(requests.keys().collect::<Vec<_>>(), ["input-1"]);
        assert!(matches!(requests["input-1"], InputRequest::Elicitation(_)));
        let second = again.request_state.unwrap();
        assert_ne!(second, first);
        assert!(parked.resume(&first, "s1", RequestKind::ToolCall, None).is_err());
        assert!(!cancel.is_cancelled());
        let answer = serde_json::json!({"action": "accept", "content": {"name": "Grace"}});
        let running = call(parked.resume(&second, "s1", RequestKind::ToolCall, Some(responses("input-1", answer))));
        let Round::Done(Finished::Tool(done)) = parked.drive(running, "s1", CancellationToken::new()).await else {
            panic!()
        };
        assert!(done.text.contains("Grace"), "{}", done.text);
    }

    #[tokio::test]
    async fn a_retry_that_answers_part_is_asked_only_the_rest() {
        let parked = ParkedCalls::default();
        let (tx, asks) = mpsc::channel(8);
        let task = tokio::spawn(async move {
            let (first, first_answer) = oneshot::channel();
            let (second, second_answer) = oneshot::channel();
            tx.send(InputAsk { request: elicitation(), reply: first }).await.unwrap();
            tx.send(InputAsk { request: elicitation(), reply: second }).await.unwrap();
            // The first answer reaches the upstream before the second is given.
            let first = serde_json::to_string(&first_answer.await.unwrap().unwrap()).unwrap();
            let second = serde_json::to_string(&second_answer.await.unwrap().unwrap()).unwrap();
            Finished::Tool(outcome(&format!("{first} then {second}")))
        });
        let running =
            Running { kind: RequestKind::ToolCall, task, asks, cancel: CancellationToken::new(), inputs: detached() };
        tokio::task::yield_now().await;
        let Round::NeedsInput(asked) = parked.drive(running, "s1", CancellationToken::new()).await else { panic!() };
        assert_eq!(asked.input_requests.unwrap().keys().collect::<Vec<_>>(), ["input-1", "input-2"]);
        let ada = serde_json::json!({"action": "accept", "content": {"name": "Ada"}});
        let again =
            parked.resume(&asked.request_state.unwrap(), "s1", RequestKind::ToolCall, Some(responses("input-1", ada)));
        let Ok(Resumed::AskedAgain(again)) = again else { panic!("the second request was not asked again") };
        assert_eq!(again.input_requests.unwrap().keys().collect::<Vec<_>>(), ["input-2"]);
        let bob = serde_json::json!({"action": "accept", "content": {"name": "Bob"}});
        let running = call(parked.resume(
            &again.request_state.unwrap(),
            "s1",
            RequestKind::ToolCall,
            Some(responses("input-2", bob)),
        ));
        let Round::Done(Finished::Tool(done)) = parked.drive(running, "s1", CancellationToken::new()).await else {
            panic!()
        };
        let (ada_at, bob_at) = (done.text.find("Ada").unwrap(), done.text.find("Bob").unwrap());
        assert!(ada_at < bob_at, "{}", done.text);
    }

    #[tokio::test]
    async fn an_answer_of_the_wrong_shape_is_refused_and_the_call_waits_for_a_better_one() {
        let parked = ParkedCalls::default();
        let (running, cancel) = asking_call();
        let Round::NeedsInput(asked) = parked.drive(running, "s1", CancellationToken::new()).await else { panic!() };
        let state = asked.request_state.unwrap();
        let err = parked
            .resume(&state, "s1", RequestKind::ToolCall, Some(responses("input-1", serde_json::json!(12345))))
            .err()
            .unwrap();
        assert!(err.message.contains("the answer under `input-1` is not an elicitation result"), "{}", err.message);
        assert!(!cancel.is_cancelled());
        let accepted = serde_json::json!({"action": "accept", "content": {"name": "Ada"}});
        let running = call(parked.resume(&state, "s1", RequestKind::ToolCall, Some(responses("input-1", accepted))));
        let Round::Done(Finished::Tool(done)) = parked.drive(running, "s1", CancellationToken::new()).await else {
            panic!()
        };
        assert!(done.text.contains("Ada"), "{}", done.text);
    }

    #[derive(Debug, Clone)]
    enum Op {
        /// A call in this scope asks the agent and is parked.
        Park(u8),
        /// A retry in this scope with the state of the n-th parked call (modulo), or with a
        /// state nobody was given.
        Resume { scope: u8, call: Option<usize> },
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        prop_oneof![
            (0u8..3).prop_map(Op::Park),
            ((0u8..3), proptest::option::of(0usize..8)).prop_map(|(scope, call)| Op::Resume { scope, call }),
        ]
    }

    proptest::proptest! {
        /// Whatever the order of parks and retries: a retry resumes a call exactly when its
        /// state was given out, to the same scope, and has not been used yet.
        #[test]
        fn a_state_resumes_its_own_call_once_and_nothing_else(ops in proptest::collection::vec(op(), 1..24)) {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async {
                let parked = ParkedCalls::default();
                // (state, scope, used)
                let mut given: Vec<(String, String, bool)> = Vec::new();
                for op in ops {
                    match op {
                        Op::Park(scope) => {
                            let scope = format!("s{scope}");
                            let (running, _) = asking_call();
                            let Round::NeedsInput(asked) = parked.drive(running, &scope, CancellationToken::new()).await
                            else { panic!("the call did not ask") };
                            let state = asked.request_state.unwrap();
                            assert!(given.iter().all(|(s, _, _)| *s != state), "a state was given twice");
                            given.push((state, scope, false));
                        }
                        Op::Resume { scope, call } => {
                            let scope = format!("s{scope}");
                            let target = call.filter(|_| !given.is_empty()).map(|n| n % given.len());
                            let state = match target {
                                Some(i) => given[i].0.clone(),
                                None => "f".repeat(32),
                            };
                            let expected = target.is_some_and(|i| given[i].1 == scope && !given[i].2);
                            // A retry without answers: the call is asked again under a new state.
                            let resumed = parked.resume(&state, &scope, RequestKind::ToolCall, None);
                            assert_eq!(resumed.is_ok(), expected, "state of call {target:?} retried from {scope}");
                            if let (Ok(resumed), Some(i)) = (resumed, target) {
                                given[i].2 = true;
                                let Resumed::AskedAgain(asked) = resumed else { panic!("resumed without its answer") };
                                let state = asked.request_state.unwrap();
                                assert!(given.iter().all(|(s, _, _)| *s != state), "a state was given twice");
                                given.push((state, scope, false));
                            }
                        }
                    }
                }
            });
        }
    }

    #[tokio::test]
    async fn a_call_that_never_asks_is_done_in_one_round() {
        let parked = ParkedCalls::default();
        let (_tx, asks) = mpsc::channel(1);
        let task = tokio::spawn(async { Finished::Tool(outcome("plain")) });
        let running =
            Running { kind: RequestKind::ToolCall, task, asks, cancel: CancellationToken::new(), inputs: detached() };
        let Round::Done(Finished::Tool(done)) = parked.drive(running, "s1", CancellationToken::new()).await else {
            panic!()
        };
        assert_eq!(done.text, "plain");
    }

    #[tokio::test]
    async fn cancelling_the_agent_request_cancels_the_call() {
        let parked = ParkedCalls::default();
        let (_tx, asks) = mpsc::channel(1);
        let cancel = CancellationToken::new();
        let stop = cancel.clone();
        let task = tokio::spawn(async move {
            stop.cancelled().await;
            Finished::Tool(outcome("cancelled"))
        });
        let agent = CancellationToken::new();
        agent.cancel();
        let round = parked
            .drive(
                Running { kind: RequestKind::ToolCall, task, asks, cancel: cancel.clone(), inputs: detached() },
                "s1",
                agent,
            )
            .await;
        assert!(matches!(round, Round::Failed(_)));
        assert!(cancel.is_cancelled());
    }

    /// A call that was refused a request it asked for, then ended with `outcome`.
    async fn refused_then(outcome: Outcome) -> Round {
        let (_tx, asks) = mpsc::channel(1);
        let inputs = detached();
        let data = serde_json::json!({"requiredCapabilities": {"sampling": {}}});
        inputs.refuse(ErrorData::new(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, "no sampling", Some(data)));
        inputs.refuse(ErrorData::new(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, "no elicitation", None));
        let task = tokio::spawn(async move { Finished::Tool(outcome) });
        let running = Running { kind: RequestKind::ToolCall, task, asks, cancel: CancellationToken::new(), inputs };
        ParkedCalls::default().drive(running, "s1", CancellationToken::new()).await
    }

    #[tokio::test]
    async fn a_call_that_fails_after_a_refused_request_ends_with_the_capability_error() {
        let Round::Failed(error) = refused_then(outcome("gave up")).await else {
            panic!("the call's own error reached the agent")
        };
        assert_eq!(error.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
        // The first refusal is the one told.
        assert_eq!(error.message, "no sampling");
        assert_eq!(error.data.unwrap()["requiredCapabilities"], serde_json::json!({"sampling": {}}));
    }

    #[tokio::test]
    async fn a_call_that_does_without_a_refused_request_keeps_its_result() {
        let mut done = outcome("fell back");
        done.envelope.status = toolshape_shape::Status::Ok;
        let Round::Done(Finished::Tool(done)) = refused_then(done).await else {
            panic!("a call that succeeded was failed")
        };
        assert_eq!(done.text, "fell back");
    }

    #[tokio::test]
    async fn a_parked_call_never_resumed_is_cancelled_when_dropped() {
        let (running, cancel) = asking_call();
        {
            let parked = ParkedCalls::default();
            let Round::NeedsInput(_) = parked.drive(running, "s1", CancellationToken::new()).await else { panic!() };
            assert!(!cancel.is_cancelled());
        }
        assert!(cancel.is_cancelled());
    }
}
