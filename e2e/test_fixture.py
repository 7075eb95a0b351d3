"""The repository's conformance fixture (e2e/conformance-fixture.mjs) behind `toolshape serve`,
for what its `test_*` tools do that the other servers here do not."""

from __future__ import annotations

import time

import anyio
import pytest

import harness

pytestmark = pytest.mark.anyio


async def test_an_upstreams_log_messages_are_kept_in_the_gateways_log(tmp_path):
    """`notifications/message` from an upstream is written to toolshape's log, marked with
    the upstream's name; before, it was dropped without a trace."""
    cfg = {"upstreams": {"fixture": harness.fixture_stdio(timeout_secs=20)}}
    async with harness.gateway(tmp_path, cfg) as s:
        env = await s.envelope("fixture_test_tool_with_logging", {})
        assert env.status == "ok", env.summary
        wanted = ["log: Tool execution started", "log: Tool processing data", "log: Tool execution completed"]
        deadline = time.monotonic() + 10
        while not all(w in s.log.read_text() for w in wanted) and time.monotonic() < deadline:
            await anyio.sleep(0.1)
        lines = [line for line in s.log.read_text().splitlines() if "log: Tool" in line]
        assert [w for w in wanted if not any(w in line for line in lines)] == [], lines
        assert all('upstream="fixture"' in line and " INFO " in line for line in lines), lines


def notices_of(kind: str, into: list):
    """A message handler keeping the server notifications of type `kind`."""

    async def on_message(message):
        inner = getattr(message, "root", message)
        if type(inner).__name__ == kind:
            into.append(inner.params)

    return on_message


@pytest.mark.parametrize("agent", ["stdio", "http"])
async def test_log_messages_of_a_call_reach_the_session_at_the_level_it_set(tmp_path, agent):
    """`logging/setLevel` is answered; an upstream's log messages during a call then reach
    the agent whose call it was, from that level up, with the upstream named as the logger.
    Without a level set the agent is sent none."""
    logs: list = []
    cfg = {"upstreams": {"fixture": harness.fixture_stdio(timeout_secs=20)}}
    async with harness.gateway(tmp_path, cfg, transport=agent, message_handler=notices_of("LoggingMessageNotification", logs)) as s:
        assert s.client.server_capabilities.logging is not None

        async def call_and_settle():
            env = await s.envelope("fixture_test_tool_with_logging", {})
            assert env.status == "ok", env.summary
            await anyio.sleep(0.3)

        await call_and_settle()
        assert logs == [], "no level was set, so no log message is sent"
        await s.client.set_logging_level("info")
        await call_and_settle()
        assert [p.data for p in logs] == ["Tool execution started", "Tool processing data", "Tool execution completed"]
        assert {(p.level, p.logger) for p in logs} == {("info", "fixture")}
        logs.clear()
        await s.client.set_logging_level("error")
        await call_and_settle()
        assert logs == [], "info messages are below the level now set"


async def test_a_resource_subscription_is_relayed_and_made_once_upstream(tmp_path):
    """`resources/subscribe` reaches the upstream that lists the resource, once however many
    sessions subscribe; `notifications/resources/updated` reaches the subscribed sessions only;
    the upstream is unsubscribed when the last session unsubscribes."""
    first: list = []
    second: list = []
    uri = "test://watched-resource"
    # The test polls the upstream's subscription list with the same (empty) arguments more
    # than three times a minute, and the state it reads changes: repeats are not counted.
    cfg = {"upstreams": {"fixture": harness.fixture_stdio(timeout_secs=20)}, "defaults": {"repeat_limit": 0}}

    async def upstream_subscriptions(s) -> list:
        env = await s.envelope("fixture_test_subscriptions", {})
        if env.status == "empty":  # `[]` reads as an empty envelope
            return []
        assert env.status == "ok" and isinstance(env.data, list), (env.status, env.data)
        return env.data

    async def touch(s):
        await s.envelope("fixture_test_touch_resource", {"uri": uri})
        await anyio.sleep(0.3)

    async with harness.gateway(tmp_path, cfg, transport="http", message_handler=notices_of("ResourceUpdatedNotification", first)) as s:
        assert s.client.server_capabilities.resources.subscribe is True
        async with harness.Client(s.url, mode="legacy", message_handler=notices_of("ResourceUpdatedNotification", second)) as other:
            await s.client.subscribe_resource(uri)
            assert await upstream_subscriptions(s) == [uri]
            await touch(s)
            assert [p.uri for p in first] == [uri] and second == [], "only the subscribed session is told"

            await other.subscribe_resource(uri)
            await s.client.subscribe_resource(uri)  # again: still one subscription
            assert await upstream_subscriptions(s) == [uri]
            await touch(s)
            assert [p.uri for p in first] == [uri, uri] and [p.uri for p in second] == [uri]

            await s.client.unsubscribe_resource(uri)
            assert await upstream_subscriptions(s) == [uri], "the other session still watches it"
            await touch(s)
            assert len(first) == 2 and len(second) == 2
            await other.unsubscribe_resource(uri)
            assert await upstream_subscriptions(s) == [], "nobody watches it: the upstream is unsubscribed"


async def test_subscribing_where_no_upstream_offers_subscriptions_is_a_clear_error(tmp_path):
    """The sample upstream offers no subscriptions: the agent is told so, by name, and the
    gateway goes on serving."""
    cfg = {"upstreams": {"tracker": harness.sample_stdio()}}
    async with harness.gateway(tmp_path, cfg) as s:
        await s.tool_names()
        with pytest.raises(Exception) as refused:
            await s.client.subscribe_resource("tracker://nothing")
        assert "does not offer resource subscriptions" in str(refused.value), refused.value
        assert "tracker" in str(refused.value), refused.value
        env = await s.envelope("tracker_light_status", {"entity": "light.kitchen"})
        assert env.status == "ok", env.summary
