"""Shared pieces of the end-to-end tests: where the binaries are, how to write a config,
how to start `toolshape serve` (stdio or Streamable HTTP) with the official Python MCP
client in front of it, and how to read and check what the model reads (the envelope).

Everything here drives real processes: the `toolshape` binary built by cargo, the bundled
sample upstream, and the npm and PyPI MCP servers installed by `e2e/setup.sh`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
if not TARGET.is_absolute():
    TARGET = REPO / TARGET
PROFILE = os.environ.get("E2E_PROFILE", "debug")
TOOLSHAPE = Path(os.environ.get("TOOLSHAPE_BIN", TARGET / PROFILE / "toolshape"))
SAMPLE = Path(os.environ.get("TOOLSHAPE_SAMPLE_UPSTREAM_BIN", TARGET / PROFILE / "toolshape-sample-upstream"))
NODE_BIN = REPO / "e2e" / "node_modules" / ".bin"
# mcp-server-git and mcp-server-time live in the same venv as this Python.
VENV_BIN = Path(sys.executable).parent

# Where toolshape writes its default span log during the tests (see base_env).
STATE_HOME = Path(tempfile.gettempdir()) / f"toolshape-e2e-state-{os.getuid()}"
ENVELOPE_KEYS = ["status", "summary", "data", "omitted", "next"]
STATUSES = {"ok", "partial", "empty", "error", "ambiguous"}
OPEN_RE = re.compile(r"^<<<tool-result ([a-z]+(?: [a-z]+){4})$")
CLOSE_FMT = "<<<end {}"


def base_env(**extra: str) -> dict[str, str]:
    """The environment for toolshape and the servers it starts: PATH and HOME (node and
    git need them), quiet logs, and `extra`."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/root"),
        "LANG": "C.UTF-8",
        "TOOLSHAPE_LOG": os.environ.get("TOOLSHAPE_LOG", "info"),
        # The npm servers print nothing useful to stdout, but never let them update-check.
        "NO_UPDATE_NOTIFIER": "1",
        # toolshape's default span log lives in the state folder: keep the tests' spans out
        # of the user's own.
        "XDG_STATE_HOME": str(STATE_HOME),
    }
    env.update(extra)
    return env


# ---------------------------------------------------------------------------------------
# Upstream specs for configs
# ---------------------------------------------------------------------------------------


# A mask over the sample tracker whose answers always need several pages: open issues,
# number and title only, 600 tokens a page.
OPEN_ISSUES_MASK: dict[str, Any] = {
    "name": "open_issues",
    "handler": "tracker/list_issues",
    "description": "Open issues, newest first.",
    "handler_input": {"state": "open", "per_page": 500},
    "result": {"project": ["number", "title"], "budget_tokens": 600, "noun": "issues"},
}


def sample_stdio(**extra: Any) -> dict[str, Any]:
    """The bundled sample server as a stdio upstream."""
    return {"command": [str(SAMPLE)], **extra}


def node_stdio(binary: str, *args: str, **extra: Any) -> dict[str, Any]:
    """An npm MCP server from e2e/node_modules as a stdio upstream."""
    return {"command": [str(NODE_BIN / binary), *args], **extra}


def fixture_stdio(**extra: Any) -> dict[str, Any]:
    """e2e/conformance-fixture.mjs, this repository's own MCP server of the conformance suite's
    `test_*` tools, prompts and resources, as a stdio upstream (run by `node`)."""
    script = REPO / "e2e" / "conformance-fixture.mjs"
    need(NODE_BIN.parent / "@modelcontextprotocol" / "sdk", "the MCP SDK for node")
    return {"command": [which("node"), str(script)], **extra}


def venv_stdio(binary: str, *args: str, **extra: Any) -> dict[str, Any]:
    """A PyPI MCP server from the e2e venv as a stdio upstream."""
    return {"command": [str(VENV_BIN / binary), *args], **extra}


def http_upstream(url: str, **extra: Any) -> dict[str, Any]:
    """A Streamable HTTP upstream."""
    return {"url": url, **extra}


def write_config(path: Path, config: dict[str, Any]) -> Path:
    """Write `config` as the config file. JSON is YAML, so no YAML library is needed."""
    path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n")
    return path


# ---------------------------------------------------------------------------------------
# Processes
# ---------------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen[Any], log: Path, timeout: float = 30.0) -> None:
    """Wait until something accepts connections on `port`; fail early if `proc` exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode} before listening:\n{tail(log)}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listened on port {port} within {timeout} s:\n{tail(log)}")


def wait_for_gateway(proc: subprocess.Popen[Any], log: Path, timeout: float = 30.0) -> int:
    """The port a `toolshape serve --http 127.0.0.1:0` bound, read from its log once it is
    serving. Port 0 lets the kernel choose, so no other process can hold the port between
    choosing it and binding it (as with `free_port`, where two tests run side by side can
    be given the same port)."""
    deadline = time.monotonic() + timeout
    serving = re.compile(r"serving MCP over Streamable HTTP at \S+ address=127\.0\.0\.1:(\d+)")
    while time.monotonic() < deadline:
        found = serving.search(log.read_text(errors="replace"))
        if found:
            return int(found.group(1))
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode} before serving:\n{tail(log)}")
        time.sleep(0.05)
    raise RuntimeError(f"toolshape did not say it was serving within {timeout} s:\n{tail(log)}")


def stop(proc: subprocess.Popen[Any], grace: float = 5.0) -> None:
    """Stop a process this test started: SIGTERM, then SIGKILL after `grace` seconds."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(grace)


def tail(path: Path, lines: int = 40) -> str:
    """The last lines of a log file, for failure messages."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


@dataclass
class HttpServer:
    """A server process listening on Streamable HTTP."""

    url: str
    proc: subprocess.Popen[Any]
    log: Path


def start_sample_http(tmp: Path, *args: str) -> HttpServer:
    """Start the sample upstream on a free port; it reports its address on stderr."""
    log = tmp / "sample-http.log"
    out = open(log, "w")
    proc = subprocess.Popen(
        [str(SAMPLE), "--http", "127.0.0.1:0", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=out,
        env=base_env(),
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        m = re.search(r"listening on (http://\S+)", log.read_text())
        if m:
            return HttpServer(m.group(1), proc, log)
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    stop(proc)
    raise RuntimeError(f"the sample upstream did not start over HTTP:\n{tail(log)}")


def start_everything_http(tmp: Path) -> HttpServer:
    """Start @modelcontextprotocol/server-everything over Streamable HTTP on a free port."""
    port = free_port()
    log = tmp / "everything-http.log"
    proc = subprocess.Popen(
        [str(NODE_BIN / "mcp-server-everything"), "streamableHttp"],
        stdin=subprocess.DEVNULL,
        stdout=open(log, "w"),
        stderr=subprocess.STDOUT,
        env=base_env(PORT=str(port)),
    )
    wait_for_port(port, proc, log)
    return HttpServer(f"http://127.0.0.1:{port}/mcp", proc, log)


# ---------------------------------------------------------------------------------------
# The gateway and the client in front of it
# ---------------------------------------------------------------------------------------


@dataclass
class Session:
    """A connected MCP client session with `toolshape serve`, and what is needed to check it."""

    client: Client
    config: dict[str, Any]
    log: Path
    transport: str
    proc: subprocess.Popen[Any] | None = None
    url: str | None = None
    _budgets: dict[str, int] = field(default_factory=dict)

    async def call(self, tool: str, arguments: dict[str, Any] | None = None, timeout: float = 60.0) -> Any:
        """Call a tool; fail the test (with the gateway's log) if no answer comes in time."""
        try:
            with anyio.fail_after(timeout):
                return await self.client.call_tool(tool, arguments or {})
        except TimeoutError as e:
            raise AssertionError(f"{tool} gave no answer within {timeout} s; gateway log:\n{tail(self.log)}") from e

    async def envelope(self, tool: str, arguments: dict[str, Any] | None = None, timeout: float = 60.0) -> "Envelope":
        """Call a tool and check its result is a well-formed envelope within the budget."""
        result = await self.call(tool, arguments, timeout)
        env = parse_envelope(result, tool)
        budget = self.budget(tool)
        if budget is not None:
            used = count_tokens(env.text)
            assert used <= budget, f"{tool}: {used} tokens over its budget of {budget}: {env.summary}"
            env.tokens = used
        return env

    async def tool_names(self) -> list[str]:
        with anyio.fail_after(60):
            listed = await self.client.list_tools()
        return [t.name for t in listed.tools]

    async def tools(self) -> dict[str, Any]:
        with anyio.fail_after(60):
            listed = await self.client.list_tools()
        return {t.name: t for t in listed.tools}

    def budget(self, tool: str) -> int | None:
        """The token budget `tool` answers within, by the config."""
        for mask in self.config.get("masks", []):
            if mask["name"] == tool:
                plan = mask.get("result") or {}
                if "budget_tokens" in plan:
                    return int(plan["budget_tokens"])
        return int(self.config.get("defaults", {}).get("budget_tokens", 4000))

    async def follow(self, first: "Envelope", max_pages: int = 2000) -> list["Envelope"]:
        """Every page from `first` on, following `next` until it is null."""
        pages = [first]
        env = first
        seen: set[str] = set()
        while env.next is not None:
            assert len(pages) < max_pages, f"more than {max_pages} pages: `next` never ends"
            assert isinstance(env.next, dict) and set(env.next) >= {"tool", "arguments"}, env.next
            call = json.dumps(env.next, sort_keys=True)
            assert call not in seen, f"page {len(pages)}: `next` repeats an earlier call, so reading never ends: {call[:200]}"
            seen.add(call)
            env = await self.envelope(env.next["tool"], env.next["arguments"])
            assert env.status in ("ok", "partial"), f"page {len(pages)}: {env.status}: {env.summary}"
            pages.append(env)
        return pages


@asynccontextmanager
async def gateway(
    tmp: Path,
    config: dict[str, Any],
    transport: str = "stdio",
    mode: str = "legacy",
    extra_args: tuple[str, ...] = (),
    name: str = "toolshape",
    config_file: Path | None = None,
    env: dict[str, str] | None = None,
    message_handler: Any = None,
    sampling_callback: Any = None,
    elicitation_callback: Any = None,
    client_info: Any = None,
) -> AsyncIterator[Session]:
    """Start `toolshape serve` on `config` and connect the Python MCP client to it.

    `transport` is how the agent side is reached (`stdio` or `http`); `mode` is the
    client's protocol negotiation (`legacy`: the initialize handshake; `auto`: discover the
    newest version first). With `config_file`, that file is served and `config` only tells
    the budgets. `message_handler` sees every message the server sends (notifications).
    `sampling_callback` and `elicitation_callback`, when given, answer the server's sampling
    and elicitation requests (and declare those capabilities). `client_info` (an
    `mcp.types.Implementation`) is who the client says it is.
    """
    callbacks = {"sampling_callback": sampling_callback, "elicitation_callback": elicitation_callback}
    if client_info is not None:
        callbacks["client_info"] = client_info
    need(TOOLSHAPE, "the toolshape binary")
    cfg = config_file or write_config(tmp / f"{name}.yaml", config)
    log = tmp / f"{name}.log"
    args = ["serve", "--config", str(cfg), *extra_args]
    environment = base_env(**(env or {}))
    if transport == "stdio":
        with open(log, "w") as errlog:
            params = StdioServerParameters(command=str(TOOLSHAPE), args=args, env=environment, cwd=str(REPO))
            async with Client(
                stdio_client(params, errlog=errlog), mode=mode, message_handler=message_handler, **callbacks
            ) as client:
                yield Session(client, config, log, transport)
    elif transport == "http":
        with open(log, "w") as out:
            proc = subprocess.Popen(
                [str(TOOLSHAPE), *args, "--http", "127.0.0.1:0"],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=environment,
                cwd=str(REPO),
            )
            try:
                port = wait_for_gateway(proc, log)
                async with Client(
                    f"http://127.0.0.1:{port}/mcp", mode=mode, message_handler=message_handler, **callbacks
                ) as client:
                    yield Session(client, config, log, transport, proc, url=f"http://127.0.0.1:{port}/mcp")
            finally:
                stop(proc)
    else:
        raise ValueError(transport)


# ---------------------------------------------------------------------------------------
# Envelopes
# ---------------------------------------------------------------------------------------


@dataclass
class Envelope:
    """One result as the model reads it: the rendered text and the parsed envelope."""

    text: str
    body: dict[str, Any]
    result: Any
    tokens: int | None = None

    @property
    def status(self) -> str:
        return self.body["status"]

    @property
    def summary(self) -> str:
        return self.body["summary"]

    @property
    def data(self) -> Any:
        return self.body["data"]

    @property
    def omitted(self) -> Any:
        return self.body["omitted"]

    @property
    def next(self) -> Any:
        return self.body["next"]


def parse_envelope(result: Any, tool: str = "?") -> Envelope:
    """Check `result` (a CallToolResult) is one envelope inside provenance delimiters, each
    on a line of its own, with the five keys in order; return it parsed."""
    texts = [c.text for c in result.content if getattr(c, "type", None) == "text"]
    assert len(texts) == 1, f"{tool}: expected one text block, got {[getattr(c, 'type', c) for c in result.content]}"
    text = texts[0]
    lines = text.split("\n")
    assert len(lines) >= 3, f"{tool}: not delimited: {text[:300]!r}"
    m = OPEN_RE.match(lines[0])
    assert m, f"{tool}: first line is not an opening delimiter: {lines[0][:200]!r}"
    assert lines[-1] == CLOSE_FMT.format(m.group(1)), f"{tool}: last line is not the closing delimiter: {lines[-1][:200]!r}"
    inner = "\n".join(lines[1:-1])
    try:
        body = json.loads(inner)
    except json.JSONDecodeError as e:
        raise AssertionError(f"{tool}: the envelope is not JSON ({e}): {inner[:300]!r}") from e
    assert isinstance(body, dict) and list(body) == ENVELOPE_KEYS, f"{tool}: keys {list(body)}"
    assert body["status"] in STATUSES, f"{tool}: status {body['status']!r}"
    assert isinstance(body["summary"], str) and body["summary"] and "\n" not in body["summary"], body["summary"]
    if body["status"] == "error":
        assert result.is_error, f"{tool}: an error envelope without isError"
    if result.structured_content is not None:
        assert result.structured_content == body, f"{tool}: structuredContent differs from the text envelope"
    if body["next"] is not None:
        assert body["omitted"] is not None, f"{tool}: `next` without `omitted`"
    return Envelope(text, body, result)


_TOKENS_CACHE: dict[str, int] = {}


def count_tokens(text: str) -> int:
    """The exact token count, as toolshape's budgets count (o200k_base), by `toolshape tokens`."""
    if text in _TOKENS_CACHE:
        return _TOKENS_CACHE[text]
    out = subprocess.run(
        [str(TOOLSHAPE), "tokens", "-"], input=text.encode(), capture_output=True, timeout=60, check=False
    )
    assert out.returncode == 0, f"toolshape tokens failed: {out.stderr.decode(errors='replace')}"
    n = int(out.stdout.decode().strip())
    _TOKENS_CACHE[text] = n
    return n


def page_text(env: Envelope) -> str:
    """The text a page carries: its `data` when it is text."""
    data = env.data
    if isinstance(data, str):
        return data
    if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), str):
        return next(iter(data.values()))
    raise AssertionError(f"page data is not text: {str(data)[:200]}")


def reassemble_text(pages: list[Envelope]) -> str:
    """The text `pages` carry, put back together. A first page showing a text's head and
    tail (the default without a mask) holds the head, a marker line `[… …]` and the tail;
    the pages after it hold the lines in between (texts here are whole lines)."""
    first = page_text(pages[0])
    rest = "".join(page_text(p) for p in pages[1:])
    marker = re.search(r"(?m)^\[… [^\n]*…\]\n", first)
    if marker is None:
        return first + rest
    return first[: marker.start()] + rest + first[marker.end() :]


def page_records(env: Envelope) -> list[Any]:
    """The records a page carries: a list, or the table view of records that share their
    fields (`{"columns": [...], "rows": [[...]]}`) as the records it shows."""
    data = env.data
    if isinstance(data, dict) and isinstance(data.get("columns"), list) and isinstance(data.get("rows"), list):
        return [dict(zip(data["columns"], row)) for row in data["rows"]]
    assert isinstance(data, list), f"page data is not records: {str(data)[:200]}"
    return data


def need(path: Path, what: str) -> None:
    """Fail (not skip) with a clear message when a part the tests need is missing."""
    assert path.exists(), f"{what} is missing at {path}: run e2e/run.sh (or e2e/setup.sh and cargo build)"


def which(name: str) -> str:
    found = shutil.which(name)
    assert found, f"`{name}` is not on PATH"
    return found


# ---------------------------------------------------------------------------------------
# Talking to an upstream directly (the ground truth a gateway result is compared with)
# ---------------------------------------------------------------------------------------


async def direct_call(tmp: Path, command: list[str], tool: str, arguments: dict[str, Any], env: dict[str, str] | None = None) -> Any:
    """Call `tool` on the stdio MCP server `command` directly, without toolshape."""
    with open(tmp / "direct.log", "a") as errlog:
        params = StdioServerParameters(command=command[0], args=command[1:], env=base_env(**(env or {})))
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            with anyio.fail_after(120):
                return await client.call_tool(tool, arguments)


def records_of(direct_result: Any) -> Any:
    """The JSON an upstream answered: its structuredContent, or its text parsed."""
    if direct_result.structured_content is not None:
        return direct_result.structured_content
    return json.loads(direct_result.content[0].text)


# ---------------------------------------------------------------------------------------
# Comparing shaped text with the upstream's (redaction replaces secrets before anything is
# shown, so a shaped line may differ from the upstream's exactly where a secret was)
# ---------------------------------------------------------------------------------------

PLACEHOLDER_RE = re.compile(r"\\\[[A-Z][A-Z0-9_]*\\\]|(?:\\\*){3,}")
OMITTED_MARKER_RE = re.compile(r"^\[… .* omitted …\]$")


def same_but_redacted(expected: str, shown: str) -> bool:
    """Whether `shown` is `expected` with some values replaced by typed placeholders
    (`[EMAIL]`) or partial masks (`138****0000`)."""
    if expected == shown:
        return True
    pattern = PLACEHOLDER_RE.sub(".+?", re.escape(shown))
    return pattern != re.escape(shown) and re.fullmatch(pattern, expected) is not None


def assert_lines_match(expected: list[str], shown: list[str], what: str) -> None:
    """`shown` is `expected` line for line, except for redacted values."""
    assert len(shown) == len(expected), f"{what}: {len(shown)} lines, expected {len(expected)}"
    for i, (e, s) in enumerate(zip(expected, shown)):
        assert same_but_redacted(e, s), f"{what}: line {i + 1} differs:\n  expected {e[:300]!r}\n  shown    {s[:300]!r}"
