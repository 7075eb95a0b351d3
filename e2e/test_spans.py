"""The span log, end to end: every call through `toolshape serve` writes exactly one span,
and its figures match what the model received (tokens after shaping recounted here with
tiktoken), whatever the call: a masked result cut to its budget, a page read with
`result_read`, an unmasked tool, a refused call, a failing upstream."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

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
