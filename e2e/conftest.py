"""pytest setup for the end-to-end tests: async tests run on asyncio through anyio, the
binaries must exist, and a failing test shows the logs of the processes it started."""

from __future__ import annotations

from pathlib import Path

import pytest

import harness


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session", autouse=True)
def _binaries_built() -> None:
    harness.need(harness.SAMPLE, "the sample upstream binary")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    tmp = getattr(item, "funcargs", {}).get("tmp_path")
    if not isinstance(tmp, Path):
        return
    for log in sorted(tmp.glob("*.log")):
        report.sections.append((f"log {log.name} (last lines)", harness.tail(log, 60)))
