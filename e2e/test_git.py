"""PyPI `mcp-server-git` behind `toolshape serve`: a long `git_log` of a real repository is
shaped into the budget, and its pages reassemble the upstream's answer exactly."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import harness

pytestmark = pytest.mark.anyio

COMMITS = 400


def make_repo(path: Path, commits: int = COMMITS) -> None:
    """A repository with `commits` commits, made in one `git fast-import` (fixed authors and
    dates, so the same every run)."""
    harness.which("git")
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    stream = []
    for i in range(1, commits + 1):
        message = f"Change {i}: adjust the shaping of result page {i % 17}\n\nLonger explanation of change {i}.\n"
        content = f"version {i}\n"
        stream.append("commit refs/heads/main\n")
        stream.append(f"mark :{i}\n")
        stream.append(f"author Dev {i % 7} <dev{i % 7}@example.com> {1_700_000_000 + i * 3600} +0000\n")
        stream.append(f"committer Dev {i % 7} <dev{i % 7}@example.com> {1_700_000_000 + i * 3600} +0000\n")
        stream.append(f"data {len(message.encode())}\n{message}")
        if i > 1:
            stream.append(f"from :{i - 1}\n")
        stream.append(f"M 644 inline file{i % 10}.txt\ndata {len(content.encode())}\n{content}\n")
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input="".join(stream).encode(), check=True)
    subprocess.run(["git", "checkout", "-q", "main"], cwd=path, check=True)


async def test_a_long_git_log_is_shaped_and_pages_reassemble(tmp_path):
    repo = tmp_path / "repo"
    make_repo(repo)
    server = [str(harness.VENV_BIN / "mcp-server-git"), "--repository", str(repo)]
    direct = await harness.direct_call(tmp_path, server, "git_log", {"repo_path": str(repo), "max_count": COMMITS})
    expected = direct.content[0].text
    assert expected.count("Commit: ") == COMMITS
    config = {
        "upstreams": {"git": {"command": server, "timeout_secs": 60}},
        "defaults": {"budget_tokens": 1500},
    }
    async with harness.gateway(tmp_path, config) as s:
        first = await s.envelope("git_git_log", {"repo_path": str(repo), "max_count": COMMITS})
        assert first.status == "partial", first.summary
        assert harness.page_text(first).startswith("Commit history:\n")
        pages = await s.follow(first)
    shown = harness.reassemble_text(pages)
    # Author emails are redacted before anything is shown; everything else is as the upstream said.
    assert "@example.com" not in shown
    harness.assert_lines_match(expected.split("\n"), shown.split("\n"), "git log")
