"""Sampling and elicitation through `toolshape serve`: `@modelcontextprotocol/server-everything`
asks for them in the middle of a tool call, and the gateway relays each request to the agent
session whose call caused it, over a stdio and a Streamable HTTP upstream. The repository's
conformance fixture (e2e/conformance-fixture.mjs) asks while a prompt is got and a resource
read, which are relayed the same way.

An agent that began with `initialize` (`legacy`) gets the request as a request of its own. A
2026-07-28 agent has no server-to-client requests: its call answers `input_required` with the
upstream's request, and its retry carries the answer (the Python SDK drives those rounds).

An agent without the callbacks gets a clear error, never a hang: in the envelope when it began
with `initialize`, as the protocol's `-32021` (naming the capability) for 2026-07-28; when calls of
two agent sessions are in flight on one stdio upstream, a request that cannot be attributed to
one of them is refused rather than shown to the wrong session."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from mcp import Client, types
from mcp.shared.exceptions import MCPError

import harness

pytestmark = pytest.mark.anyio

SAMPLING = "everything_trigger-sampling-request"
ELICITATION = "everything_trigger-elicitation-request"
# Generous, but well under the tests' own 60 s wait: a relay that hangs fails the test.
UPSTREAM_TIMEOUT = 20


def config(upstream: dict[str, Any]) -> dict[str, Any]:
    return {"upstreams": {"everything": upstream}, "defaults": {"budget_tokens": 2000}}


@pytest.fixture(params=["stdio", "http"])
def upstream(request, tmp_path):
    if request.param == "stdio":
        yield harness.node_stdio("mcp-server-everything", "stdio", timeout_secs=UPSTREAM_TIMEOUT)
        return
    server = harness.start_everything_http(tmp_path)
    try:
        yield harness.http_upstream(server.url, timeout_secs=UPSTREAM_TIMEOUT)
    finally:
        harness.stop(server.proc)


@pytest.fixture(params=["legacy", "2026-07-28"])
def mode(request):
    return request.param


def prompt_text(params: types.CreateMessageRequestParams) -> str:
    """The text of every message of a sampling request."""
    texts = []
    for message in params.messages:
        blocks = message.content if isinstance(message.content, list) else [message.content]
        texts.extend(b.text for b in blocks if isinstance(b, types.TextContent))
    return "\n".join(texts)


def reply(text: str) -> types.CreateMessageResult:
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text=text),
        model="e2e-model",
        stop_reason="endTurn",
    )


async def test_sampling_request_reaches_the_agent_and_its_reply_reaches_the_model(tmp_path, upstream, mode):
    seen: list[types.CreateMessageRequestParams] = []

    async def sampling(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        seen.append(params)
        return reply("Teal, said the agent's model.")

    async with harness.gateway(tmp_path, config(upstream), mode=mode, sampling_callback=sampling) as s:
        env = await s.envelope(SAMPLING, {"prompt": "Name one colour", "maxTokens": 25})
        assert env.status in ("ok", "partial"), env.summary
        assert len(seen) == 1, f"the agent was asked {len(seen)} times"
        assert "Name one colour" in prompt_text(seen[0])
        assert seen[0].max_tokens == 25
        assert seen[0].system_prompt == "You are a helpful test server."
        assert "Teal, said the agent's model." in json.dumps(env.data)


async def test_elicitation_accept_flows_through(tmp_path, upstream, mode):
    seen: list[types.ElicitRequestParams] = []

    async def elicitation(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        seen.append(params)
        return types.ElicitResult(action="accept", content={"name": "Ada Lovelace", "check": True, "integer": 7})

    async with harness.gateway(tmp_path, config(upstream), mode=mode, elicitation_callback=elicitation) as s:
        env = await s.envelope(ELICITATION, {})
        assert env.status in ("ok", "partial"), env.summary
        assert len(seen) == 1, f"the agent was asked {len(seen)} times"
        assert seen[0].message.startswith("Please provide inputs")
        assert "name" in seen[0].requested_schema["properties"]
        data = json.dumps(env.data)
        assert "Ada Lovelace" in data
        assert "Favorite Integer: 7" in data
        # URL mode: the agent is only told the address (nothing here opens it).
        env = await s.envelope("everything_trigger-url-elicitation", {"url": "https://example.com/authorize"})
        assert env.status in ("ok", "partial"), env.summary
        assert len(seen) == 2
        assert seen[1].mode == "url" and seen[1].url == "https://example.com/authorize", seen[1]


async def test_an_agent_without_the_callbacks_gets_a_clear_error(tmp_path, upstream, mode):
    async with harness.gateway(tmp_path, config(upstream), mode=mode) as s:
        tools = await s.tool_names()
        # The gateway declares both capabilities to the upstream, whatever this agent supports.
        assert SAMPLING in tools and ELICITATION in tools, sorted(tools)
        if mode == "legacy":
            # The upstream is refused and ends its call with an error, which the envelope
            # carries.
            with anyio.fail_after(UPSTREAM_TIMEOUT - 5):
                sampled = await s.envelope(SAMPLING, {"prompt": "Name one colour", "maxTokens": 25})
                elicited = await s.envelope(ELICITATION, {})
            assert sampled.status == "error", sampled.summary
            assert "does not support sampling" in sampled.text, sampled.text
            assert elicited.status == "error", elicited.summary
            assert "does not support elicitation" in elicited.text, elicited.text
            return
        # 2026-07-28: the call itself fails with -32021, naming the capability to declare.
        for tool, arguments, required, words in [
            (SAMPLING, {"prompt": "Name one colour", "maxTokens": 25}, {"sampling": {}}, "does not support sampling"),
            (ELICITATION, {}, {"elicitation": {"form": {}}}, "does not support elicitation"),
        ]:
            with anyio.fail_after(UPSTREAM_TIMEOUT - 5), pytest.raises(MCPError) as refused:
                await s.call(tool, arguments)
            assert refused.value.code == -32021, refused.value
            assert refused.value.data == {"requiredCapabilities": required}, refused.value.data
            assert words in refused.value.message, refused.value.message
        # Nothing is left behind: the next call works as usual.
        env = await s.envelope("everything_echo", {"message": "still here"})
        assert env.status == "ok" and "still here" in env.text, env.text


def gateway_url(session: harness.Session) -> str:
    assert session.url is not None, "the session is not over HTTP"
    return session.url


async def test_two_agent_sessions_never_see_each_others_requests(tmp_path, upstream):
    """Session A's call waits in its sampling callback while session B's call asks too. Over
    Streamable HTTP the upstream's request arrives on B's call's own stream, so it goes to B;
    over stdio nothing tells the two apart, so B's request is refused, never sent to A."""
    a_entered = anyio.Event()
    a_release = anyio.Event()
    a_seen: list[str] = []
    b_seen: list[str] = []

    async def sampling_a(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        a_seen.append(prompt_text(params))
        a_entered.set()
        await a_release.wait()
        return reply("reply for session A")

    async def sampling_b(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        b_seen.append(prompt_text(params))
        return reply("reply for session B")

    results: dict[str, Any] = {}
    async with harness.gateway(tmp_path, config(upstream), transport="http", sampling_callback=sampling_a) as a:
        async with Client(gateway_url(a), mode="legacy", sampling_callback=sampling_b) as b:
            # As agents do: list first (this also starts the upstream before the race).
            assert SAMPLING in await a.tool_names()
            with anyio.fail_after(60):
                assert SAMPLING in [t.name for t in (await b.list_tools()).tools]

            async def call_a() -> None:
                results["a"] = await a.call(SAMPLING, {"prompt": "prompt of session A", "maxTokens": 10})

            async with anyio.create_task_group() as tg:
                tg.start_soon(call_a)
                with anyio.fail_after(30):
                    await a_entered.wait()
                with anyio.fail_after(30):
                    results["b"] = await b.call_tool(SAMPLING, {"prompt": "prompt of session B", "maxTokens": 10})
                a_release.set()

    env_a = harness.parse_envelope(results["a"], SAMPLING)
    env_b = harness.parse_envelope(results["b"], SAMPLING)
    assert a_seen == [a_seen[0]] and "prompt of session A" in a_seen[0], a_seen
    assert env_a.status in ("ok", "partial"), env_a.summary
    assert "reply for session A" in json.dumps(env_a.data)
    if "url" in upstream:
        assert len(b_seen) == 1 and "prompt of session B" in b_seen[0], b_seen
        assert "reply for session B" in json.dumps(env_b.data), env_b.text
    else:
        assert b_seen == [], b_seen
        assert env_b.status == "error", env_b.summary
        assert "could not be attributed to one session" in env_b.text, env_b.text


async def test_a_forged_request_state_reaches_no_parked_call(tmp_path):
    """A 2026-07-28 retry names its parked call by an opaque state: another caller's guess,
    or a state already used, gets a clear error and resumes nothing; a retry without the
    answer is asked again."""
    held = anyio.Event()

    async def sampling(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        held.set()
        return reply("the rightful answer")

    upstream = harness.node_stdio("mcp-server-everything", "stdio", timeout_secs=UPSTREAM_TIMEOUT)
    async with harness.gateway(tmp_path, config(upstream), mode="2026-07-28", sampling_callback=sampling) as s:
        asked = await s.client.session.call_tool(
            SAMPLING, {"prompt": "Name one colour", "maxTokens": 10}, allow_input_required=True
        )
        assert isinstance(asked, types.InputRequiredResult), asked
        assert list(asked.input_requests) == ["input-1"], asked
        state = asked.request_state
        with pytest.raises(Exception, match="names no call waiting for input"):
            await s.client.session.call_tool(SAMPLING, {}, request_state="0" * 32, input_responses={})
        # A retry that carries no answer is asked again, under a new state; the old one is spent.
        again = await s.client.session.call_tool(
            SAMPLING, {}, request_state=state, input_responses={}, allow_input_required=True
        )
        assert isinstance(again, types.InputRequiredResult), again
        assert list(again.input_requests) == ["input-1"], again
        assert again.request_state != state
        with pytest.raises(Exception, match="names no call waiting for input"):
            await s.client.session.call_tool(SAMPLING, {}, request_state=state, input_responses={})
        state = again.request_state
        answer = reply("the rightful answer").model_dump(mode="json", by_alias=True, exclude_none=True)
        done = await s.client.session.call_tool(
            SAMPLING, {}, request_state=state, input_responses={"input-1": answer}
        )
        env = harness.parse_envelope(done, SAMPLING)
        assert env.status in ("ok", "partial"), env.summary
        assert "the rightful answer" in json.dumps(env.data)
        with pytest.raises(Exception, match="names no call waiting for input"):
            await s.client.session.call_tool(SAMPLING, {}, request_state=state, input_responses={"input-1": answer})
        assert not held.is_set(), "the SDK was not meant to drive these rounds"


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_prompt_and_a_resource_read_can_ask_the_agent_too(tmp_path, mode, transport):
    """An upstream may ask for input while a prompt is got or a resource read, not only during
    a tool call: the request reaches the agent the same way (`input_required` rounds for
    2026-07-28, which the SDK drives), and the answer reaches the upstream."""
    asked: list[str] = []

    async def elicitation(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        field = next(iter(params.requested_schema["properties"]))
        return types.ElicitResult(action="accept", content={field: "from the agent"})

    cfg = {"upstreams": {"fixture": harness.fixture_stdio(timeout_secs=UPSTREAM_TIMEOUT)}}
    async with harness.gateway(tmp_path, cfg, transport, mode=mode, elicitation_callback=elicitation) as s:
        with anyio.fail_after(UPSTREAM_TIMEOUT - 5):
            prompts = [p.name for p in (await s.client.list_prompts()).prompts]
            name = next(p for p in prompts if p.endswith("test_input_required_result_prompt"))
            prompt = await s.client.get_prompt(name)
            read = await s.client.read_resource("test://input-required")
        assert asked == ["What context should the prompt use?", "Whose greeting is this?"], asked
        assert prompt.messages[0].content.text == "Prompt with context: from the agent", prompt
        assert read.contents[0].text == "Greeting for from the agent", read
        # Prompts and reads that ask nothing are untouched.
        plain = await s.client.get_prompt(next(p for p in prompts if p.endswith("test_simple_prompt")))
        assert plain.messages[0].content.text == "This is a simple prompt for testing."
        assert len(asked) == 2


async def test_a_prompt_that_needs_a_capability_the_agent_lacks_says_which(tmp_path, mode):
    cfg = {"upstreams": {"fixture": harness.fixture_stdio(timeout_secs=UPSTREAM_TIMEOUT)}}
    async with harness.gateway(tmp_path, cfg, mode=mode) as s:
        prompts = [p.name for p in (await s.client.list_prompts()).prompts]
        name = next(p for p in prompts if p.endswith("test_input_required_result_prompt"))
        with anyio.fail_after(UPSTREAM_TIMEOUT - 5), pytest.raises(MCPError) as refused:
            await s.client.get_prompt(name)
        assert "does not support elicitation" in refused.value.message, refused.value
        if mode == "2026-07-28":
            # The protocol's own error, naming what to declare on a retry.
            assert refused.value.code == -32021, refused.value
            assert refused.value.data == {"requiredCapabilities": {"elicitation": {"form": {}}}}, refused.value.data
        with anyio.fail_after(UPSTREAM_TIMEOUT - 5), pytest.raises(MCPError) as refused:
            await s.client.read_resource("test://input-required")
        assert "does not support elicitation" in refused.value.message, refused.value
        if mode == "2026-07-28":
            assert refused.value.code == -32021, refused.value
