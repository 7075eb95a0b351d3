"""HTTP mode security with the official Python MCP client: `toolshape serve --http` with two
principals in the config (`alice`, who sees every tool, and `triager`, limited to the
`triage` profile), each with a bearer token from the environment, in front of the bundled
sample upstream.

Checked: a principal with a profile lists and calls only that profile's tools; a cursor
made by one principal reads nothing for the other; requests without a token or with a wrong
one are refused with `401` and a Bearer challenge; no token value ever appears in an answer
or in the gateway's log; and a non-loopback address is refused without principals.
"""

from __future__ import annotations

import json
import subprocess
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import AsyncIterator, Iterator

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

import harness

pytestmark = pytest.mark.anyio

TOKENS = {
    "ALICE_TOKEN": "alice-e2e-5f1c0b9a7d3e2c4b",
    "TRIAGE_TOKEN": "triage-e2e-8c2e4a6b1d9f0e7a",
}
ALICE = TOKENS["ALICE_TOKEN"]
TRIAGE = TOKENS["TRIAGE_TOKEN"]

MASK = harness.OPEN_ISSUES_MASK


def config(with_auth: bool = True) -> dict:
    cfg = {
        "upstreams": {"tracker": harness.sample_stdio()},
        "defaults": {"budget_tokens": 3000},
        "masks": [MASK],
        "profiles": {"triage": ["open_issues"]},
    }
    if with_auth:
        cfg["auth"] = {
            "principals": {
                "alice": {"token_env": "ALICE_TOKEN"},
                "triager": {"token_env": "TRIAGE_TOKEN", "profile": "triage"},
            }
        }
    return cfg


@contextmanager
def served(tmp: Path) -> Iterator[tuple[str, Path]]:
    """`toolshape serve --http` on a free loopback port, with the tokens in its environment."""
    cfg = harness.write_config(tmp / "toolshape.yaml", config())
    log = tmp / "toolshape.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [str(harness.TOOLSHAPE), "serve", "--config", str(cfg), "--http", "127.0.0.1:0"],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=harness.base_env(**TOKENS),
            cwd=str(harness.REPO),
        )
        try:
            port = harness.wait_for_gateway(proc, log)
            yield f"http://127.0.0.1:{port}/mcp", log
        finally:
            harness.stop(proc)


@asynccontextmanager
async def connect(url: str, log: Path, token: str, mode: str = "legacy") -> AsyncIterator[harness.Session]:
    """An MCP client as the principal whose bearer token is `token`: a session begun with
    `initialize` (`legacy`), or 2026-07-28 requests with no session at all."""
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            yield harness.Session(client, config(), log, "http")


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_a_principal_with_a_profile_sees_only_its_tools(tmp_path, mode):
    with served(tmp_path) as (url, log):
        async with connect(url, log, TRIAGE, mode) as triager:
            assert sorted(await triager.tool_names()) == ["open_issues", "result_read"]
            first = await triager.envelope("open_issues")
            assert first.status == "partial", first.summary
            # A tool of the upstream outside the profile: listed for alice, not callable here.
            refused = harness.parse_envelope(await triager.call("tracker_get_issue", {"number": 1}))
            assert refused.status == "error", refused.summary
        async with connect(url, log, ALICE, mode) as alice:
            assert {"open_issues", "tracker_get_issue", "result_read"} <= set(await alice.tool_names())


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_another_principal_cannot_read_a_cursor(tmp_path, mode):
    with served(tmp_path) as (url, log):
        async with connect(url, log, ALICE, mode) as alice:
            first = await alice.envelope("open_issues")
            assert first.status == "partial" and first.next, first.summary
            page = await alice.envelope(first.next["tool"], first.next["arguments"])
            own_titles = [r["title"] for r in harness.page_records(page)]
            assert own_titles, page.summary
            async with connect(url, log, TRIAGE, mode) as triager:
                stolen = harness.parse_envelope(await triager.call(first.next["tool"], first.next["arguments"]))
                assert stolen.status == "error", stolen.summary
                assert stolen.data is None and stolen.next is None, stolen.body
                assert "another session" in stolen.summary, stolen.summary
                for title in own_titles[:20]:
                    assert title not in stolen.text, f"alice's data reached another principal: {title}"
            # The owner still reads it after the attempt.
            again = await alice.envelope(first.next["tool"], first.next["arguments"])
            titles = [r["title"] for r in harness.page_records(again)]
            # Exactly the same page: where a page ends does not depend on the answer's random
            # delimiter nonce, only on the snapshot, the cursor and the budget.
            assert titles == own_titles, (len(titles), len(own_titles), titles[-2:], own_titles[-2:])
            assert (again.summary, again.omitted) == (page.summary, page.omitted), (again.summary, page.summary)
        logged = log.read_text(errors="replace")
        for token in TOKENS.values():
            assert token not in logged, "a token value reached the log"


async def test_requests_without_a_valid_token_get_401(tmp_path):
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}},
    }
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    with served(tmp_path) as (url, log):
        async with httpx2.AsyncClient(timeout=10) as http:
            missing = await http.post(url, content=json.dumps(init), headers=headers)
            assert missing.status_code == 401, missing.text
            assert missing.headers["www-authenticate"].startswith("Bearer"), missing.headers
            wrong_token = ALICE[:-1] + ("0" if ALICE[-1] != "0" else "1")
            wrong = await http.post(
                url, content=json.dumps(init), headers={**headers, "Authorization": f"Bearer {wrong_token}"}
            )
            assert wrong.status_code == 401, wrong.text
            assert 'error="invalid_token"' in wrong.headers["www-authenticate"]
            for answer in (missing, wrong):
                for token in (*TOKENS.values(), wrong_token):
                    assert token not in answer.text and token not in str(answer.headers)
            # The client library itself cannot connect without the token.
            with pytest.raises(Exception):
                async with Client(url, mode="legacy") as client:
                    await client.list_tools()


def test_a_non_loopback_address_needs_allow_remote_and_principals(tmp_path):
    def serve(cfg: dict, *args: str) -> subprocess.CompletedProcess[str]:
        path = harness.write_config(tmp_path / "exposed.yaml", cfg)
        return subprocess.run(
            [str(harness.TOOLSHAPE), "serve", "--config", str(path), "--http", f"0.0.0.0:{harness.free_port()}", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env=harness.base_env(**TOKENS),
            stdin=subprocess.DEVNULL,
        )

    no_auth = serve(config(with_auth=False), "--allow-remote")
    assert no_auth.returncode == 2, no_auth.stderr
    assert "auth" in no_auth.stderr and "token_env" in no_auth.stderr, no_auth.stderr
    not_allowed = serve(config())
    assert not_allowed.returncode == 2, not_allowed.stderr
    assert "--allow-remote" in not_allowed.stderr, not_allowed.stderr
