"""Hot reload: an edited config is validated and applied while `toolshape serve` runs, and the
agent is told its tool list changed; an edit with problems keeps the running config and logs
every problem; SIGHUP asks for the same check."""

from __future__ import annotations

import json
import signal

import anyio
import pytest

import harness

pytestmark = pytest.mark.anyio

OPEN = {
    "name": "open_issues",
    "handler": "tracker/list_issues",
    "description": "Open issues.",
    "handler_input": {"state": "open", "per_page": 50},
    "result": {"project": ["number", "title"], "budget_tokens": 600},
}
CLOSED = {**OPEN, "name": "closed_issues", "description": "Closed issues.", "handler_input": {"state": "closed", "per_page": 50}}


def config(*masks: dict) -> dict:
    return {
        "upstreams": {"tracker": harness.sample_stdio()},
        "defaults": {"budget_tokens": 1500, "expose_unmasked": False},
        "masks": list(masks),
    }


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_an_edit_is_applied_and_a_broken_one_is_not(tmp_path, transport):
    changed = anyio.Event()

    async def on_message(message):
        if type(message).__name__ == "ToolListChangedNotification":
            changed.set()

    path = harness.write_config(tmp_path / "toolshape.yaml", config(OPEN))
    async with harness.gateway(tmp_path, config(OPEN), transport=transport, config_file=path, message_handler=on_message) as s:
        assert (await s.envelope("open_issues")).status in {"ok", "partial"}
        assert "closed_issues" not in await s.tool_names()

        harness.write_config(path, config(OPEN, CLOSED))
        with anyio.fail_after(15):
            await changed.wait()
        assert {"open_issues", "closed_issues"} <= set(await s.tool_names())
        closed = await s.envelope("closed_issues")
        assert closed.status in {"ok", "partial"}, closed.summary

        # Two problems at once: both logged, nothing applied.
        broken = config(OPEN, {**CLOSED, "handler": "no-slash"}, {**OPEN, "name": "bad name!"})
        harness.write_config(path, broken)
        with anyio.fail_after(15):
            while "config not reloaded" not in s.log.read_text():
                await anyio.sleep(0.2)
        await anyio.sleep(0.5)
        log = s.log.read_text()
        problems = [l for l in log.splitlines() if "config not reloaded" in l]
        assert any("no-slash" in l for l in problems) and any("bad name!" in l for l in problems), log[-3000:]
        assert {"open_issues", "closed_issues"} <= set(await s.tool_names())

        if transport == "http":
            # SIGHUP reloads (the file is fixed meanwhile) and does not stop the server.
            changed = anyio.Event()
            harness.write_config(path, config(CLOSED))
            s.proc.send_signal(signal.SIGHUP)
            with anyio.fail_after(15):
                await changed.wait()
            assert s.proc.poll() is None
            names = set(await s.tool_names())
            assert "closed_issues" in names and "open_issues" not in names, names
            assert "config reloaded" in s.log.read_text()
