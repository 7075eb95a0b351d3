"""The span log, end to end: every call through `toolshape serve` writes exactly one span,
and its figures match what the model received (tokens after shaping recounted here with
tiktoken), whatever the call: a masked result cut to its budget, a page read with
`result_read`, an unmasked tool, a refused call, a failing upstream."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

import harness

pytestmark = pytest.mark.anyio

MASK = harness.OPEN_ISSUES_MASK


def read_spans(path: Path, expected: int, timeout: float = 15.0) -> list[sqlite3.Row]:
    """The spans in the log, once `expected` of them are there (the gateway writes them on a
    background thread after answering)."""
    deadline = time.monotonic() + timeout
    rows: list[sqlite3.Row] = []
    while time.monotonic() < deadline:
        if path.exists():
            with sqlite3.connect(path) as db:
                db.row_factory = sqlite3.Row
                try:
                    rows = db.execute("SELECT * FROM spans ORDER BY id").fetchall()
                except sqlite3.OperationalError:
                    rows = []
            if len(rows) >= expected:
                return rows
        time.sleep(0.1)
    return rows


@pytest.mark.parametrize("agent", ["stdio", "http"])
async def test_every_call_writes_one_span_matching_what_the_model_read(tmp_path, agent):
    spans = tmp_path / "spans.sqlite"
    config = {
        "upstreams": {"tracker": harness.sample_stdio()},
        "defaults": {"budget_tokens": 2000},
        "masks": [MASK],
        "telemetry": {"spans": str(spans)},
    }
    calls: list[tuple[str, harness.Envelope]] = []
    async with harness.gateway(tmp_path, config, transport=agent) as s:
        first = await s.envelope("open_issues")
        calls.append(("open_issues", first))
        page = await s.envelope(first.next["tool"], first.next["arguments"])
        calls.append(("result_read", page))
        calls.append(("tracker_light_status", await s.envelope("tracker_light_status", {})))
        calls.append(("no_such_tool", await s.envelope("no_such_tool", {})))
        calls.append(("tracker_fail_with_error", await s.envelope("tracker_fail_with_error", {})))
    rows = read_spans(spans, len(calls))
    assert len(rows) == len(calls), [dict(r) for r in rows]
    for (tool, env), row in zip(calls, rows):
        assert row["tool"] == tool, (tool, dict(row))
        assert row["status"] == env.status, (tool, row["status"], env.status)
        assert row["tokens_after"] == harness.count_tokens(env.text), (tool, row["tokens_after"], env.text[:200])
        assert row["bytes_after"] == len(env.text.encode()), (tool, row["bytes_after"])
    masked = rows[0]
    assert masked["mask"] == "open_issues" and masked["upstream"] == "tracker"
    # The pre-shaping count is exact (counted after the answer went out) and far larger.
    assert masked["tokens_before_estimated"] == 0
    assert masked["tokens_before"] > 50 * masked["tokens_after"], dict(masked)
    assert masked["records_omitted"] > 0 and masked["records_kept"] > 0
    assert rows[3]["status"] == "error" and rows[3]["tokens_before"] == 0
    # An upstream's error answer is measured like any result: the traceback it sent.
    failed = rows[4]
    assert failed["status"] == "error" and failed["tokens_before"] > 100 and failed["bytes_before"] > 400, dict(failed)


def rpc(proc: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def answer(proc: subprocess.Popen[bytes], id: int) -> dict[str, Any]:
    """The response to request `id` (notifications before it are skipped)."""
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        assert line, "toolshape closed its output"
        message = json.loads(line)
        if message.get("id") == id:
            return message


@pytest.mark.parametrize("agent", ["stdio", "http"])
async def test_sigterm_right_after_a_call_still_writes_its_span(tmp_path, agent):
    """Agents, service managers and containers stop a server with SIGTERM. toolshape stops
    cleanly on it (exit status 0, not death by the signal): the upstreams are stopped and the
    span of a call answered a moment before is written."""
    spans = tmp_path / "spans.sqlite"
    config = {
        "upstreams": {"tracker": harness.sample_stdio()},
        "defaults": {"budget_tokens": 2000},
        "telemetry": {"spans": str(spans)},
    }
    if agent == "http":
        async with harness.gateway(tmp_path, config, transport="http") as s:
            env = await s.envelope("tracker_light_status", {})
            assert env.status == "ok", env.summary
            proc = s.proc
            assert proc is not None
            harness.stop(proc)
        status = proc.returncode
    else:
        cfg = harness.write_config(tmp_path / "toolshape.yaml", config)
        with open(tmp_path / "toolshape.log", "w") as log:
            proc = subprocess.Popen(
                [str(harness.TOOLSHAPE), "serve", "--config", str(cfg)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                env=harness.base_env(),
                cwd=str(harness.REPO),
            )
            try:
                client = {"name": "sigterm-test", "version": "0"}
                rpc(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client}})
                answer(proc, 1)
                rpc(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
                rpc(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                           "params": {"name": "tracker_light_status", "arguments": {}}})
                result = answer(proc, 2)["result"]
                assert result["structuredContent"]["status"] == "ok", result
                proc.send_signal(signal.SIGTERM)
                status = proc.wait(15)
            finally:
                harness.stop(proc)
    assert status == 0, f"toolshape died of the signal (status {status}):\n{harness.tail(tmp_path / 'toolshape.log')}"
    rows = read_spans(spans, 1, timeout=2.0)
    assert [r["tool"] for r in rows] == ["tracker_light_status"], [dict(r) for r in rows]
