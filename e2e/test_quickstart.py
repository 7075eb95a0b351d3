"""`examples/quickstart.yaml` served by `toolshape serve`, in front of the sample upstream:
the masks shape multi-megabyte answers into budgets, pages follow `next` with no gap and no
duplicate, state-changing calls answer with their status, and the unmasked tools (some with
structuredContent and an outputSchema upstream) come back as envelopes too."""

from __future__ import annotations

import json
import subprocess
import time

import anyio
import pytest

import harness
from harness import REPO, SAMPLE, TOOLSHAPE

pytestmark = pytest.mark.anyio

QUICKSTART = REPO / "examples" / "quickstart.yaml"
# What the budgets are in the quickstart (the harness checks every result against them).
BUDGETS = {
    "defaults": {"budget_tokens": 2000},
    "masks": [
        {"name": "open_issues", "result": {"budget_tokens": 1500}},
        {"name": "recent_errors", "result": {"budget_tokens": 1200}},
    ],
}
# Start the built sample binary instead of `cargo run` (see the quickstart's comments).
ENV = {"TOOLSHAPE_SAMPLE_UPSTREAM": str(SAMPLE)}
OPEN_ISSUE_FIELDS = ["number", "title", "author", "labels", "updated_at"]


def quickstart(tmp_path, **kw):
    return harness.gateway(tmp_path, BUDGETS, config_file=QUICKSTART, env=ENV, **kw)


async def open_issues_direct(tmp_path, **args):
    result = await harness.direct_call(
        tmp_path, [str(SAMPLE)], "list_issues",
        {"state": "open", "sort": "updated", "direction": "desc", "per_page": 10000, **args},
    )
    return harness.records_of(result)


def test_check_passes():
    harness.need(TOOLSHAPE, "the toolshape binary")
    out = subprocess.run(
        [str(TOOLSHAPE), "check", "--config", str(QUICKSTART)],
        cwd=REPO, env=harness.base_env(), capture_output=True, text=True, timeout=60,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_tools_live_lists_what_the_gateway_serves_with_costs():
    """`toolshape tools --live` starts the upstreams and lists the served surface."""
    harness.need(TOOLSHAPE, "the toolshape binary")
    out = subprocess.run(
        [str(TOOLSHAPE), "tools", "--config", str(QUICKSTART), "--live", "--format", "json"],
        cwd=REPO, env=harness.base_env(**ENV), capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    listing = json.loads(out.stdout)
    costs = {t["name"]: t["tokens"] for t in listing["tools"]}
    for name in ["open_issues", "kitchen_light", "tracker_get_issue", "result_read"]:
        assert costs.get(name, 0) > 0, f"{name} missing or free: {costs}"
    assert "tracker_list_issues" not in costs
    assert listing["total_tokens"] == sum(costs.values())


async def test_lists_masks_unmasked_tools_and_result_read(tmp_path):
    async with quickstart(tmp_path) as s:
        tools = await s.tools()
        for name in ["open_issues", "recent_errors", "kitchen_light", "result_read", "tracker_get_issue",
                     "tracker_search_issues", "tracker_query_table", "tracker_light_status"]:
            assert name in tools, f"{name} not listed: {sorted(tools)}"
        # An upstream tool a mask covers is reached through the mask only.
        assert "tracker_list_issues" not in tools and "tracker_switch_light" not in tools
        # The fixed arguments are not the model's to send.
        assert set(tools["open_issues"].input_schema.get("properties", {})) == {"label"}
        # An upstream outputSchema is never listed unchanged: results are envelopes now.
        schema = tools["tracker_get_issue"].output_schema
        assert schema is None or "status" in schema.get("properties", {}), schema


async def test_open_issues_first_page_is_projected_sorted_and_counted(tmp_path):
    expected = await open_issues_direct(tmp_path)
    async with quickstart(tmp_path) as s:
        env = await s.envelope("open_issues")
    assert env.status == "partial", env.summary
    records = harness.page_records(env)
    assert 5 <= len(records) < len(expected)
    assert all(list(r) == OPEN_ISSUE_FIELDS for r in records), records[0]
    assert [r["number"] for r in records] == [i["number"] for i in expected[: len(records)]]
    assert records[0]["author"] == expected[0]["user"]["login"]
    assert records[0]["labels"] == [label["name"] for label in expected[0]["labels"]]
    assert env.omitted["count"] == len(expected) - len(records), env.omitted
    assert env.next["tool"] == "result_read"
    # The summary is written for a model that reads nothing else: it says how many.
    assert f"{len(expected):,}" in env.summary or str(len(expected)) in env.summary, env.summary


async def test_open_issues_pages_reassemble_every_record_once_in_order(tmp_path):
    expected = await open_issues_direct(tmp_path)
    async with quickstart(tmp_path) as s:
        first = await s.envelope("open_issues")
        pages = await s.follow(first)
    numbers = [r["number"] for page in pages for r in harness.page_records(page)]
    assert len(pages) > 5
    assert numbers == [i["number"] for i in expected]
    assert pages[-1].next is None and pages[-1].status == "ok"


async def test_open_issues_with_a_label(tmp_path):
    expected = await open_issues_direct(tmp_path, label="bug")
    async with quickstart(tmp_path) as s:
        env = await s.envelope("open_issues", {"label": "bug"})
        pages = await s.follow(env)
    records = [r for p in pages for r in harness.page_records(p)]
    assert [r["number"] for r in records] == [i["number"] for i in expected]
    assert all("bug" in r["labels"] for r in records)


async def test_recent_errors_keeps_whole_lines_and_counts_levels(tmp_path):
    direct = await harness.direct_call(tmp_path, [str(SAMPLE)], "read_log", {"min_level": "ERROR"})
    expected = direct.content[0].text.splitlines()
    async with quickstart(tmp_path) as s:
        env = await s.envelope("recent_errors")
        assert env.status == "partial", env.summary
        # Head and tail lines, whole, with one marker line between them saying what was left out.
        lines = harness.page_text(env).splitlines()
        markers = [i for i, line in enumerate(lines) if harness.OMITTED_MARKER_RE.match(line)]
        assert len(markers) == 1, lines[:3]
        head, tail = lines[: markers[0]], lines[markers[0] + 1 :]
        assert head and tail
        harness.assert_lines_match(expected[: len(head)], head, "head")
        harness.assert_lines_match(expected[-len(tail) :], tail, "tail")
        pages = await s.follow(env)
    # The pages after the first read the middle, from the end of the head to the start of the
    # tail the first page showed: every line exactly once.
    rest = [line for p in pages[1:] for line in harness.page_text(p).splitlines()]
    harness.assert_lines_match(expected, head + rest + tail, "head, the pages after it, then the tail")
    # Credentials in the log never reach the model.
    assert "[URL_CREDENTIALS]" in "\n".join(head + rest + tail)


async def test_a_whole_log_is_summarized_with_its_level_counts(tmp_path):
    # Unmasked (the quickstart covers read_log with a mask), with default shaping.
    config = {"upstreams": {"tracker": harness.sample_stdio()}, "defaults": {"budget_tokens": 1500}}
    async with harness.gateway(tmp_path, config) as s:
        env = await s.envelope("tracker_read_log", {})
        assert env.status == "partial", env.summary
        assert "ERROR" in env.summary and "WARN" in env.summary, env.summary


async def test_kitchen_light_answers_status_only_and_really_switches(tmp_path):
    async with quickstart(tmp_path) as s:
        env = await s.envelope("kitchen_light", {"on": True})
        assert env.status == "ok", env.summary
        assert "succeeded" in env.summary
        assert env.omitted is None and env.next is None
        assert len(json.dumps(env.data)) < 120, env.data
        status = await s.envelope("tracker_light_status", {"entity": "light.kitchen"})
        assert status.status == "ok", status.summary
        assert '"state": "on"' in json.dumps(status.data) or "'state': 'on'" in str(status.data), status.data
        off = await s.envelope("kitchen_light", {"on": False})
        assert off.status == "ok"


async def test_invalid_arguments_are_error_envelopes(tmp_path):
    async with quickstart(tmp_path) as s:
        for tool, args, hint in [
            ("open_issues", {"owner": "someone-else"}, "owner"),
            ("open_issues", {"label": 5}, "label"),
            ("kitchen_light", {}, "on"),
        ]:
            env = await s.envelope(tool, args)
            assert env.status == "error", (tool, args, env.summary)
            assert hint in env.summary + json.dumps(env.data), (tool, env.summary)


async def test_unmasked_structured_tools_come_back_as_envelopes(tmp_path):
    expected = await open_issues_direct(tmp_path)
    number = expected[0]["number"]
    async with quickstart(tmp_path) as s:
        one = await s.envelope("tracker_get_issue", {"number": number})
        assert one.status == "ok", one.summary
        assert str(number) in json.dumps(one.data)
        missing = await s.envelope("tracker_get_issue", {"number": 1})
        assert missing.status == "error" and "does not exist" in missing.summary + json.dumps(missing.data)
        table = await s.envelope("tracker_query_table", {"limit": 20000})
        assert table.status == "partial" and table.next is not None, table.summary
        rows = harness.page_records(table)
        assert rows and "order_id" in rows[0]


async def test_result_read_narrows_and_refuses_a_tampered_cursor(tmp_path):
    async with quickstart(tmp_path) as s:
        first = await s.envelope("open_issues")
        cursor = first.next["arguments"]["cursor"]
        narrowed = await s.envelope("result_read", {"cursor": cursor, "pattern": "regression"})
        assert narrowed.status in ("ok", "partial"), narrowed.summary
        assert all("regression" in json.dumps(r).lower() for r in harness.page_records(narrowed))
        flipped = cursor[:-2] + ("A" if cursor[-2] != "A" else "B") + cursor[-1]
        tampered = await s.envelope("result_read", {"cursor": flipped})
        assert tampered.status == "error", tampered.summary
        assert "cursor" in tampered.summary.lower()


# A bound on how long four calls at once take: run alone, after the tests run side by side.
@pytest.mark.serial
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
@pytest.mark.parametrize("agent", ["stdio", "http"])
async def test_progress_is_forwarded_and_concurrent_calls_are_matched(tmp_path, agent, mode):
    async with quickstart(tmp_path, transport=agent, mode=mode) as s:
        seen: list[float] = []

        async def on_progress(progress, total, message):
            seen.append(progress)

        with anyio.fail_after(30):
            result = await s.client.call_tool("tracker_slow", {"ms": 1500}, progress_callback=on_progress)
        env = harness.parse_envelope(result, "tracker_slow")
        assert env.status == "ok" and "slept 1500 ms" in json.dumps(env.data)
        assert seen, "no progress notification reached the client"

        # Four 1.5 s calls at once finish together, each with its own answer.
        answers: dict[int, str] = {}

        async def one(ms: int) -> None:
            answers[ms] = json.dumps((await s.envelope("tracker_slow", {"ms": ms})).data)

        started = time.monotonic()
        async with anyio.create_task_group() as tg:
            for ms in (1500, 1501, 1502, 1503):
                tg.start_soon(one, ms)
        assert time.monotonic() - started < 5.5
        assert all(f"slept {ms} ms" in text for ms, text in answers.items()), answers


@pytest.mark.timeout(600)
@pytest.mark.serial  # runs `cargo`, which waits while another test's build holds the build folder
async def test_the_default_command_builds_and_starts_the_sample_with_cargo(tmp_path):
    """The newcomer's path: no TOOLSHAPE_SAMPLE_UPSTREAM, so the quickstart runs `cargo run`."""
    async with harness.gateway(tmp_path, BUDGETS, config_file=QUICKSTART) as s:
        env = await s.envelope("kitchen_light", {"on": True}, timeout=500)
        assert env.status == "ok", env.summary


async def test_tool_list_changes_are_forwarded(tmp_path):
    changed = anyio.Event()

    async def on_message(message):
        if type(message).__name__ == "ToolListChangedNotification":
            changed.set()

    config = {"upstreams": {"tracker": harness.sample_stdio()}, "defaults": {"budget_tokens": 1500}}
    cfg = harness.write_config(tmp_path / "toolshape.yaml", config)
    with open(tmp_path / "toolshape.log", "w") as errlog:
        params = harness.StdioServerParameters(
            command=str(TOOLSHAPE), args=["serve", "--config", str(cfg)], env=harness.base_env(), cwd=str(REPO)
        )
        async with harness.Client(harness.stdio_client(params, errlog=errlog), mode="legacy", message_handler=on_message) as client:
            s = harness.Session(client, config, tmp_path / "toolshape.log", "stdio")
            assert "tracker_bonus_tool" not in await s.tool_names()
            toggled = await s.envelope("tracker_toggle_bonus_tool")
            assert toggled.status == "ok", toggled.summary
            with anyio.fail_after(10):
                await changed.wait()
            assert "tracker_bonus_tool" in await s.tool_names()
            bonus = await s.envelope("tracker_bonus_tool", {"name": "e2e"})
            assert bonus.status == "ok" and "bonus! hello, e2e" in json.dumps(bonus.data)


@pytest.mark.parametrize("agent", ["stdio", "http"])
async def test_a_2026_agent_hears_of_list_changes_on_its_subscription(tmp_path, agent):
    """2026-07-28 has no sessions: an agent opens `subscriptions/listen` for the lists it
    follows, and a change an upstream announces reaches it there."""
    from mcp.client.subscriptions import ToolsListChanged

    config = {"upstreams": {"tracker": harness.sample_stdio()}, "defaults": {"budget_tokens": 1500}}
    async with harness.gateway(tmp_path, config, transport=agent, mode="2026-07-28") as s:
        assert s.client.protocol_version == "2026-07-28"
        assert "tracker_bonus_tool" not in await s.tool_names()
        events: list[object] = []
        async with s.client.listen(tools_list_changed=True, resource_subscriptions=["file:///x"]) as sub:
            # The lists are offered; watching single resources is not.
            assert sub.honored.tools_list_changed and not sub.honored.resource_subscriptions, sub.honored
            toggled = await s.envelope("tracker_toggle_bonus_tool")
            assert toggled.status == "ok", toggled.summary
            with anyio.fail_after(10):
                events.append(await sub.__anext__())
        assert events == [ToolsListChanged()], events
        assert "tracker_bonus_tool" in await s.tool_names()
        bonus = await s.envelope("tracker_bonus_tool", {"name": "e2e"})
        assert bonus.status == "ok" and "bonus! hello, e2e" in json.dumps(bonus.data)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_cancellation_reaches_the_upstream(tmp_path, mode):
    config = {"upstreams": {"tracker": harness.sample_stdio()}, "defaults": {"budget_tokens": 1500}}
    async with harness.gateway(tmp_path, config, mode=mode) as s:
        assert (await s.envelope("tracker_light_status")).status == "ok"
        with anyio.move_on_after(1.0) as scope:
            await s.client.call_tool("tracker_slow", {"ms": 30_000})
        assert scope.cancelled_caught
        # The sample upstream writes to stderr when its `slow` is cancelled; the gateway logs it.
        deadline = time.monotonic() + 10
        while "slow: cancelled after" not in s.log.read_text() and time.monotonic() < deadline:
            await anyio.sleep(0.1)
        assert "slow: cancelled after" in s.log.read_text(), "the upstream call was not cancelled"
        assert (await s.envelope("tracker_light_status")).status == "ok"
