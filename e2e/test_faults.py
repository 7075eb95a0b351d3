"""Hostile and broken upstreams, for real: the sample upstream's fault tools behind
`toolshape serve`, next to a healthy upstream (PyPI `mcp-server-time`). Each fault must give
an error envelope within its time-out, and the gateway must keep serving the other upstream
(and, after a crash, the restarted one)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
import pytest

import harness

# Bounds on how long calls take: run alone, after the tests that run side by side.
pytestmark = [pytest.mark.anyio, pytest.mark.serial]

TIMEOUT_SECS = 3
SLACK_SECS = 3.0


def config(**sample_extra) -> dict:
    return {
        "upstreams": {
            "sample": harness.sample_stdio(**{"timeout_secs": TIMEOUT_SECS, **sample_extra}),
            "other": harness.venv_stdio("mcp-server-time", "--local-timezone", "UTC"),
        },
        "defaults": {"budget_tokens": 1500},
    }


def text_of(env: harness.Envelope) -> str:
    return env.summary + "\n" + json.dumps(env.data)


async def other_still_answers(s: harness.Session) -> None:
    env = await s.envelope("other_get_current_time", {"timezone": "Europe/Paris"}, timeout=30)
    assert env.status == "ok", env.summary
    assert "Europe/Paris" in json.dumps(env.data)


async def sample_answers_again(s: harness.Session, within: float = 30.0) -> None:
    """The sample upstream answers again (restarted with backoff if it died)."""
    deadline = time.monotonic() + within
    last = None
    while time.monotonic() < deadline:
        last = await s.envelope("sample_light_status", {"entity": "light.office"}, timeout=30)
        if last.status == "ok":
            return
        await anyio.sleep(0.5)
    raise AssertionError(f"the sample upstream did not answer again within {within} s: {last and last.summary}")


async def timed(s: harness.Session, tool: str, args: dict) -> tuple[harness.Envelope, float]:
    started = time.monotonic()
    env = await s.envelope(tool, args, timeout=TIMEOUT_SECS + 30)
    return env, time.monotonic() - started


async def test_is_error_result_becomes_a_short_error_envelope(tmp_path):
    async with harness.gateway(tmp_path, config()) as s:
        env = await s.envelope("sample_fail_with_error", {"message": "canceling statement due to statement timeout"})
        assert env.status == "error"
        text = text_of(env)
        assert "QueryCanceledError" in text
        # Stack traces shrink to the exception type and the last three frames.
        assert text.count('File \\"') + text.count('File "') <= 3, text
        assert "starlette/routing.py" not in text
        await other_still_answers(s)


async def test_an_upstream_that_never_answers_times_out(tmp_path):
    async with harness.gateway(tmp_path, config()) as s:
        env, took = await timed(s, "sample_slow", {"ms": 600_000})
        assert env.status == "error"
        assert "timed out" in text_of(env).lower() or "time-out" in text_of(env).lower(), env.summary
        assert TIMEOUT_SECS - 0.5 <= took <= TIMEOUT_SECS + SLACK_SECS, took
        await other_still_answers(s)
        await sample_answers_again(s)


async def test_a_crash_mid_call_is_a_clear_error_and_the_upstream_restarts(tmp_path):
    async with harness.gateway(tmp_path, config()) as s:
        env, took = await timed(s, "sample_crash", {"after_ms": 300})
        assert env.status == "error"
        assert took <= TIMEOUT_SECS + SLACK_SECS, took
        text = text_of(env).lower()
        assert "sample" in text and any(w in text for w in ("exit", "crash", "closed", "died")), env.summary
        await other_still_answers(s)
        await sample_answers_again(s)


@pytest.mark.parametrize("kind", ["text", "partial", "binary"])
async def test_garbage_on_stdout_does_not_break_the_gateway(tmp_path, kind):
    async with harness.gateway(tmp_path, config()) as s:
        env, took = await timed(s, "sample_garbage", {"lines": 5, "kind": kind})
        # Either the garbage is skipped and the answer arrives, or it is a clear error.
        assert env.status in ("ok", "error"), env.summary
        assert took <= TIMEOUT_SECS + SLACK_SECS, took
        await other_still_answers(s)
        await sample_answers_again(s)


async def test_garbage_then_silence_times_out(tmp_path):
    async with harness.gateway(tmp_path, config()) as s:
        env, took = await timed(s, "sample_garbage", {"lines": 3, "answer": False})
        assert env.status == "error", env.summary
        assert took <= TIMEOUT_SECS + SLACK_SECS, took
        await other_still_answers(s)


async def test_a_slow_drip_times_out(tmp_path):
    async with harness.gateway(tmp_path, config()) as s:
        env, took = await timed(s, "sample_drip", {"chars": 300, "interval_ms": 1000})
        assert env.status == "error", env.summary
        assert took <= TIMEOUT_SECS + SLACK_SECS, took
        await other_still_answers(s)


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


@pytest.mark.timeout(400)
async def test_a_200_mb_result_is_refused_with_bounded_memory(tmp_path):
    # Over HTTP toward the agent, so the gateway's process id is known here.
    async with harness.gateway(tmp_path, config(timeout_secs=120), transport="http") as s:
        await other_still_answers(s)
        before = peak_rss_mib(s.proc.pid)
        env = await s.envelope("sample_huge", {"mb": 200}, timeout=240)
        after = peak_rss_mib(s.proc.pid)
        assert env.status == "error", env.summary
        assert any(w in text_of(env).lower() for w in ("too large", "more than", "size", "bytes", "limit")), env.summary
        # The default cap is 16 MiB: the gateway never holds the 200 MB.
        assert after - before < 160, f"peak RSS grew from {before:.0f} to {after:.0f} MiB"
        await other_still_answers(s)
        await sample_answers_again(s)


async def test_a_large_result_under_the_cap_is_shaped(tmp_path):
    async with harness.gateway(tmp_path, config(timeout_secs=60)) as s:
        env = await s.envelope("sample_huge", {"mb": 10, "format": "json"}, timeout=90)
        assert env.status == "partial", env.summary
        records = harness.page_records(env)
        # The first records in order, then the result's last record (shown after them).
        head = [r["index"] for r in records[:-1]]
        assert head == list(range(len(head))) and records[-1]["index"] > head[-1], [r["index"] for r in records]
        assert env.omitted and env.next


async def test_a_missing_upstream_is_an_error_and_the_others_keep_serving(tmp_path):
    cfg = config()
    cfg["upstreams"]["ghost"] = {"command": [str(tmp_path / "no-such-mcp-server")]}
    cfg["masks"] = [{
        "name": "ghost_ping",
        "handler": "ghost/ping",
        "description": "A tool over an upstream that cannot start.",
    }]
    async with harness.gateway(tmp_path, cfg) as s:
        names = await s.tool_names()
        assert "ghost_ping" in names and "other_get_current_time" in names and "sample_get_issue" in names
        env = await s.envelope("ghost_ping")
        assert env.status == "error"
        assert "ghost" in text_of(env), env.summary
        await other_still_answers(s)
