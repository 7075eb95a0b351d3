"""PyPI `mcp-server-time` behind `toolshape serve`: small JSON answers pass whole, inside the
envelope, and its own errors become error envelopes."""

from __future__ import annotations

import json

import pytest

import harness

pytestmark = pytest.mark.anyio


def time_config() -> dict:
    return {
        "upstreams": {"time": harness.venv_stdio("mcp-server-time", "--local-timezone", "UTC")},
        "defaults": {"budget_tokens": 800},
    }


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_current_time_and_conversion(tmp_path, transport):
    async with harness.gateway(tmp_path, time_config(), transport=transport) as s:
        now = await s.envelope("time_get_current_time", {"timezone": "Asia/Tokyo"})
        assert now.status == "ok" and now.omitted is None and now.next is None, now.body
        assert "Asia/Tokyo" in json.dumps(now.data)
        converted = await s.envelope(
            "time_convert_time", {"source_timezone": "UTC", "time": "12:30", "target_timezone": "America/New_York"}
        )
        assert converted.status == "ok", converted.summary
        assert "America/New_York" in json.dumps(converted.data)
        bad = await s.envelope("time_get_current_time", {"timezone": "Mars/Olympus_Mons"})
        assert bad.status == "error", bad.summary
