"""Pieces for running several `toolshape serve --http` replicas against one shared store: a
real `redis-server` on a free loopback port (stoppable and restartable mid-test), replica
processes, and a thin MCP client over raw JSON-RPC that sends each request of one session
to whichever replica it is told to, the way a load balancer without sticky sessions would.

The client speaks Streamable HTTP directly (httpx, no SDK) so that a test decides, per
request, which replica answers: the session id travels in the `mcp-session-id` header and
nothing else ties a session to a process. Used by e2e/test_replicas.py and
bench/replicas_load.py.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx

from harness import REPO, SAMPLE, TOOLSHAPE, base_env, free_port, stop, tail, wait_for_port, write_config

PROTOCOL = "2025-06-18"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
# One shared secret, as every replica of a deployment would have.
SECRET = "replica-test-secret-6f1d0c6e9a8b4b21a7c3"


# ---------------------------------------------------------------------------------------
# Redis
# ---------------------------------------------------------------------------------------


def redis_server_binary() -> str:
    """The `redis-server` binary; fails (never skips) with how to install it when missing."""
    found = shutil.which("redis-server")
    assert found, "`redis-server` is not installed: `apt-get install -y redis-server` (scripts/test.sh does it)"
    return found


@dataclass
class Redis:
    """A `redis-server` this test started on a loopback port, with an append-only file in
    `workdir`, so that data written before a restart is there after it (as a production
    Redis with persistence would behave)."""

    port: int
    workdir: Path
    proc: subprocess.Popen[Any] | None = None
    restarts: int = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None, "redis is already running"
        self.workdir.mkdir(parents=True, exist_ok=True)
        log = self.workdir / f"redis-{self.restarts}.log"
        self.proc = subprocess.Popen(
            [
                redis_server_binary(),
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--dir", str(self.workdir),
                "--save", "",
                "--appendonly", "yes",
                "--appendfsync", "always",
                "--maxmemory", "512mb",
                "--maxmemory-policy", "volatile-lru",
                "--protected-mode", "no",
            ],
            stdin=subprocess.DEVNULL,
            stdout=open(log, "w"),
            stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, self.proc, log)
        self.restarts += 1

    def stop(self) -> None:
        """Stop it (SIGTERM: Redis flushes its append-only file and exits)."""
        if self.proc is not None:
            stop(self.proc, grace=10)

    def cli(self, *args: str) -> str:
        """Run a `redis-cli` command against it, for checks."""
        out = subprocess.run(
            ["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True, timeout=10, check=True
        )
        return out.stdout.strip()


def start_redis(tmp: Path) -> Redis:
    redis = Redis(free_port(), tmp / "redis")
    redis.start()
    return redis


# ---------------------------------------------------------------------------------------
# Replicas
# ---------------------------------------------------------------------------------------


@dataclass
class Replica:
    """One `toolshape serve --http` process."""

    name: str
    port: int
    config: Path
    log: Path
    env: dict[str, str]
    proc: subprocess.Popen[Any] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def start(self) -> None:
        assert TOOLSHAPE.exists(), f"the toolshape binary is missing at {TOOLSHAPE}: run e2e/run.sh"
        out = open(self.log, "a")
        self.proc = subprocess.Popen(
            [str(TOOLSHAPE), "serve", "--config", str(self.config), "--http", f"127.0.0.1:{self.port}"],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=self.env,
            cwd=str(REPO),
        )
        wait_for_port(self.port, self.proc, self.log)

    def stop(self, graceful: bool = True) -> None:
        """Stop the replica: with `graceful`, SIGINT (it stops its upstreams and exits),
        else (or when that takes too long) SIGTERM, then SIGKILL."""
        if self.proc is None or self.proc.poll() is not None:
            return
        if graceful:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
                return
            except subprocess.TimeoutExpired:
                pass
        stop(self.proc)

    def rss_kib(self, children: bool = False) -> int:
        """Resident memory of the replica (with `children`: and its upstream processes), in KiB."""
        assert self.proc is not None
        pids = [self.proc.pid]
        if children:
            out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.proc.pid)], capture_output=True, text=True)
            pids += [int(p) for p in out.stdout.split()]
        total = 0
        for pid in pids:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except OSError:
                pass
        return total


def start_replicas(tmp: Path, config: dict[str, Any], count: int = 2, **extra_env: str) -> list[Replica]:
    """Start `count` replicas of `config`, sharing TOOLSHAPE_SECRET, each on its own port."""
    path = write_config(tmp / "replicas.yaml", config)
    env = base_env(TOOLSHAPE_SECRET=SECRET, **extra_env)
    replicas = [
        Replica(f"r{i}", free_port(), path, tmp / f"replica-{i}.log", env) for i in range(count)
    ]
    try:
        for r in replicas:
            r.start()
    except BaseException:
        for r in replicas:
            r.stop()
        raise
    return replicas


def sample_config(store: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """The sample upstream behind toolshape with `store`, and masks that make large results:
    `open_issues` (records, paged by cursors) and `issues_ref` (a reference: a handle)."""
    return {
        "upstreams": {
            "tracker": {
                "command": [str(SAMPLE)],
                "timeout_secs": 60,
                "max_response_bytes": 33554432,
            }
        },
        # The load calls the same issues again and again on purpose, to check that no answer
        # is mixed up; repeated-call detection would answer those calls short, so it is off.
        "defaults": {"budget_tokens": 2000, "expose_unmasked": True, "repeat_limit": 0},
        "masks": [
            {
                "name": "open_issues",
                "handler": "tracker/list_issues",
                "description": "Open issues of the sample tracker, most recently updated first.",
                "input_schema": {"type": "object", "properties": {}},
                "handler_input": {"state": "open", "sort": "updated", "direction": "desc", "per_page": 10000},
                "result": {
                    "project": ["number", "title", "user.login as author", "updated_at"],
                    "budget_tokens": 1500,
                    "noun": "open issues",
                },
            },
            {
                "name": "issues_ref",
                "handler": "tracker/list_issues",
                "description": "Open issues of the sample tracker, kept whole behind a handle.",
                "input_schema": {"type": "object", "properties": {}},
                "handler_input": {"state": "open", "per_page": 10000},
                "result": {"form": "reference"},
            },
        ],
        "store": store,
        **extra,
    }


# ---------------------------------------------------------------------------------------
# A session that hops between replicas
# ---------------------------------------------------------------------------------------


class StoreDown(Exception):
    """A request the gateway refused because its store is unavailable (HTTP 5xx)."""


def parse_message(resp: httpx.Response, rid: int | None) -> dict[str, Any]:
    """The JSON-RPC response with id `rid` from a JSON body or an event stream."""
    ctype = resp.headers.get("content-type", "")
    if "text/event-stream" not in ctype:
        return resp.json()
    for line in resp.text.splitlines():
        if line.startswith("data:") and line[5:].strip():
            message = json.loads(line[5:])
            if message.get("id") == rid and ("result" in message or "error" in message):
                return message
    raise AssertionError(f"no response with id {rid} in the event stream: {resp.text[:300]!r}")


def envelope_of(message: dict[str, Any]) -> dict[str, Any]:
    """The envelope inside a tools/call result's text (between the delimiter lines)."""
    assert "result" in message, f"JSON-RPC error: {message.get('error')}"
    texts = [c["text"] for c in message["result"]["content"] if c.get("type") == "text"]
    assert len(texts) == 1, message
    lines = texts[0].split("\n")
    assert lines[0].startswith("<<<tool-result ") and lines[-1].startswith("<<<end "), texts[0][:200]
    return json.loads("\n".join(lines[1:-1]))


@dataclass
class HoppingSession:
    """One MCP session whose requests go to the replica each call names."""

    client: httpx.AsyncClient
    urls: list[str]
    headers: dict[str, str] = field(default_factory=lambda: dict(HEADERS))
    next_id: int = 1
    served_by: list[int] = field(default_factory=list)

    @property
    def session_id(self) -> str:
        return self.headers["mcp-session-id"]

    async def open(self, replica: int = 0) -> None:
        """initialize and notifications/initialized on `replica`."""
        resp = await self.client.post(self.urls[replica], headers=self.headers, json={
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "replica-test", "version": "1"}},
        })
        assert resp.status_code == 200, f"initialize: HTTP {resp.status_code}: {resp.text[:300]}"
        self.headers["mcp-session-id"] = resp.headers["mcp-session-id"]
        version = parse_message(resp, 0)["result"]["protocolVersion"]
        self.headers["mcp-protocol-version"] = version
        note = await self.client.post(self.urls[replica], headers=self.headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert note.status_code < 300, f"initialized: HTTP {note.status_code}: {note.text[:300]}"

    async def request(self, replica: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one request to `replica`; raises StoreDown on an HTTP 5xx."""
        rid = self.next_id
        self.next_id += 1
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            body["params"] = params
        resp = await self.client.post(self.urls[replica], headers=self.headers, json=body)
        if resp.status_code >= 500:
            raise StoreDown(f"HTTP {resp.status_code}: {resp.text[:300]}")
        assert resp.status_code == 200, f"{method} on replica {replica}: HTTP {resp.status_code}: {resp.text[:300]}"
        message = parse_message(resp, rid)
        assert message.get("id") == rid, f"answer to id {message.get('id')} for request {rid}"
        self.served_by.append(replica)
        return message

    async def call(self, replica: int, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Call a tool on `replica` and return its envelope."""
        message = await self.request(replica, "tools/call", {"name": tool, "arguments": arguments or {}})
        return envelope_of(message)

    async def tool_names(self, replica: int) -> list[str]:
        message = await self.request(replica, "tools/list")
        return [t["name"] for t in message["result"]["tools"]]

    async def follow(self, first: dict[str, Any], start_replica: int, max_pages: int = 5000) -> list[dict[str, Any]]:
        """Every page from `first` on, each `next` sent to the replica after the previous one."""
        pages = [first]
        env = first
        replica = start_replica
        while env["next"] is not None:
            assert len(pages) < max_pages, "`next` never ends"
            replica = (replica + 1) % len(self.urls)
            env = await self.call(replica, env["next"]["tool"], env["next"]["arguments"])
            assert env["status"] in ("ok", "partial"), f"page {len(pages)} on replica {replica}: {env['status']}: {env['summary']}"
            pages.append(env)
        return pages

    async def close(self, replica: int = 0) -> None:
        try:
            await self.client.delete(self.urls[replica], headers=self.headers)
        except httpx.HTTPError:
            pass


def wait_until(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen within {timeout} s")


def logs(replicas: list[Replica]) -> str:
    return "\n".join(f"--- {r.name} ---\n{tail(r.log, 30)}" for r in replicas)


@contextlib.contextmanager
def running(replicas: list[Replica]):
    """Yield `replicas`; a failed assertion inside carries their logs, and they are stopped
    on the way out whatever happened."""
    try:
        yield replicas
    except AssertionError as e:
        raise AssertionError(f"{e}\n{logs(replicas)}") from e
    finally:
        for r in replicas:
            r.stop()

