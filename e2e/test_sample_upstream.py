"""The bundled sample upstream on its own, with the official Python client and no gateway:
its schemas are honest (the client validates every structuredContent against the listed
outputSchema), its data is deterministic, and its fault tools misbehave as documented.
These tests pin the ground the gateway tests stand on."""

from __future__ import annotations

import json
import time

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

import harness

pytestmark = pytest.mark.anyio


def sample_client(tmp_path, mode: str = "legacy", *args: str) -> Client:
    errlog = open(tmp_path / "sample.log", "w")
    params = StdioServerParameters(command=str(harness.SAMPLE), args=list(args), env=harness.base_env())
    return Client(stdio_client(params, errlog=errlog), mode=mode)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_lists_every_tool_with_honest_schemas(tmp_path, mode):
    async with sample_client(tmp_path, mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == {
            "list_issues", "get_issue", "search_issues", "read_log", "query_table", "switch_light",
            "light_status", "fail_with_error", "slow", "huge", "crash", "garbage", "drip", "toggle_bonus_tool",
            "render_image", "render_audio", "mixed_media", "hostile_media",
        }
        assert {n for n, t in tools.items() if t.output_schema} == {
            "get_issue", "search_issues", "query_table", "switch_light", "light_status"
        }
        # Each structured tool's answer passes the client's own outputSchema validation.
        first = json.loads((await client.call_tool("list_issues", {"per_page": 1})).content[0].text)[0]
        for name, args in [
            ("get_issue", {"number": first["number"]}),
            ("search_issues", {"query": first["title"].split()[0], "per_page": 5}),
            ("query_table", {"limit": 50, "region": "APAC", "order_by": "amount", "descending": True}),
            ("switch_light", {"entity": "light.office", "on": True, "brightness": 80}),
            ("light_status", {}),
        ]:
            result = await client.call_tool(name, args)
            assert not result.is_error, (name, result.content)
            assert isinstance(result.structured_content, dict), name
            assert json.loads(result.content[0].text) == result.structured_content


async def test_large_data_is_large_and_deterministic(tmp_path):
    async with sample_client(tmp_path) as client:
        everything = await client.call_tool("list_issues", {"state": "all", "per_page": 10000})
        issues = json.loads(everything.content[0].text)
        assert len(issues) == 5000
        assert len(everything.content[0].text) > 20_000_000
        open_ = json.loads((await client.call_tool("list_issues", {"per_page": 10000})).content[0].text)
        assert 1000 < len(open_) < 5000 and all(i["state"] == "open" for i in open_)
        log = (await client.call_tool("read_log", {})).content[0].text
        assert len(log) > 3_000_000 and log.count("\n") == 50_000
    # Another process, the same bytes.
    async with sample_client(tmp_path) as client:
        again = await client.call_tool("list_issues", {"state": "all", "per_page": 10000})
        assert again.content[0].text == everything.content[0].text


async def test_bad_arguments_are_tool_errors_and_unknown_tools_protocol_errors(tmp_path):
    async with sample_client(tmp_path) as client:
        bad = await client.call_tool("list_issues", {"owner": "acme"})
        assert bad.is_error and "unknown argument(s) owner" in bad.content[0].text
        missing = await client.call_tool("get_issue", {"number": 1})
        assert missing.is_error and "does not exist" in missing.content[0].text
        with pytest.raises(MCPError):
            await client.call_tool("no_such_tool", {})


async def test_fault_tools_misbehave_as_documented(tmp_path):
    async with sample_client(tmp_path) as client:
        err = await client.call_tool("fail_with_error", {"message": "boom"})
        assert err.is_error
        assert err.content[0].text.startswith("Traceback (most recent call last):")
        assert err.content[0].text.endswith("QueryCanceledError: boom")

        started = time.monotonic()
        slept = await client.call_tool("slow", {"ms": 300})
        assert slept.content[0].text == "slept 300 ms" and time.monotonic() - started >= 0.3

        big = await client.call_tool("huge", {"mb": 3})
        assert len(big.content[0].text) >= 3 * 1024 * 1024

        # Garbage on stdout: the Python client skips the lines it cannot parse; the answer follows.
        junk = await client.call_tool("garbage", {"lines": 2})
        assert "wrote 2 text garbage line(s)" in junk.content[0].text

        dripped = await client.call_tool("drip", {"chars": 8, "interval_ms": 2})
        assert dripped.content[0].text == "dripdrip"

        with pytest.raises(MCPError):
            with anyio.fail_after(10):
                await client.call_tool("crash", {})


async def test_http_transport(tmp_path):
    server = harness.start_sample_http(tmp_path)
    try:
        async with Client(server.url, mode="legacy") as client:
            result = await client.call_tool("list_issues", {"per_page": 3})
            assert len(json.loads(result.content[0].text)) == 3
            junk = await client.call_tool("garbage", {})
            assert junk.is_error and "stdio" in junk.content[0].text
    finally:
        harness.stop(server.proc)


async def test_toggle_bonus_tool_changes_the_list_and_says_so(tmp_path):
    changed = anyio.Event()

    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    errlog = open(tmp_path / "sample.log", "w")
    params = StdioServerParameters(command=str(harness.SAMPLE), env=harness.base_env())
    async with Client(stdio_client(params, errlog=errlog), mode="legacy", message_handler=on_message) as client:
        assert client.server_capabilities.tools.list_changed
        assert "bonus_tool" not in {t.name for t in (await client.list_tools()).tools}
        await client.call_tool("toggle_bonus_tool", {})
        with anyio.fail_after(5):
            await changed.wait()
        assert "bonus_tool" in {t.name for t in (await client.list_tools()).tools}
        assert (await client.call_tool("bonus_tool", {"name": "e2e"})).content[0].text == "bonus! hello, e2e"
