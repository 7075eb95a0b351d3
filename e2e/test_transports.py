"""Every pair of transports: the agent reaches `toolshape serve` over stdio or Streamable
HTTP, toolshape reaches the sample upstream over stdio or Streamable HTTP, and the client
negotiates with the initialize handshake (`legacy`, 2025-11-25) or discovery of the newest
protocol (`auto`, which settles on 2026-07-28: no handshake, no session). Each pair lists the
tools, pages a masked result and calls a structured tool."""

from __future__ import annotations

import json

import pytest

import harness

pytestmark = pytest.mark.anyio

MASK = harness.OPEN_ISSUES_MASK
# What each way of connecting settles on: toolshape serves every version its SDK knows.
NEGOTIATED = {"legacy": "2025-11-25", "auto": "2026-07-28"}


@pytest.mark.parametrize("mode", ["legacy", "auto"])
@pytest.mark.parametrize("upstream", ["stdio", "http"])
@pytest.mark.parametrize("agent", ["stdio", "http"])
async def test_pair(tmp_path, agent, upstream, mode):
    server = harness.start_sample_http(tmp_path) if upstream == "http" else None
    spec = harness.http_upstream(server.url) if server else harness.sample_stdio()
    config = {"upstreams": {"tracker": spec}, "defaults": {"budget_tokens": 3000}, "masks": [MASK]}
    try:
        async with harness.gateway(tmp_path, config, transport=agent, mode=mode) as s:
            assert s.client.protocol_version == NEGOTIATED[mode]
            names = await s.tool_names()
            assert {"open_issues", "result_read", "tracker_get_issue"} <= set(names), names
            first = await s.envelope("open_issues")
            assert first.status == "partial", first.summary
            second = await s.envelope(first.next["tool"], first.next["arguments"])
            a = [r["number"] for r in harness.page_records(first)]
            b = [r["number"] for r in harness.page_records(second)]
            assert a and b and not set(a) & set(b) and min(a) > max(b), (a[-3:], b[:3])
            issue = await s.envelope("tracker_get_issue", {"number": a[0]})
            assert issue.status == "ok" and str(a[0]) in json.dumps(issue.data), issue.summary
    finally:
        if server:
            harness.stop(server.proc)
