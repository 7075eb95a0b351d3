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
