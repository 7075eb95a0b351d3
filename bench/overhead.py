"""Per-call overhead of toolshape as an MCP gateway, measured with the official Python MCP
client (`mcp` SDK), against the same sample upstream reached directly, through `mcp-proxy`
(PyPI) and through a FastMCP proxy with its `ResponseLimitingMiddleware` (PyPI `fastmcp`,
bench/fastmcp_proxy.py), all in one run, round-robin, on loopback.

Variants (each a long-lived session opened once, before any timing):

  small call (`light_status` on one light, a ~200-byte structured result):
    direct          client --stdio--> toolshape-sample-upstream
    relay           client --stdio--> toolshape-byte-relay --stdio--> sample upstream
                    (copies bytes, parses nothing: the floor of any stdio gateway)
    toolshape       client --stdio--> toolshape serve --stdio--> sample upstream
    toolshape-http  client --HTTP---> toolshape serve --http --stdio--> sample upstream
    mcp-proxy-http  client --HTTP---> mcp-proxy --port --stdio--> sample upstream
    rust-proxy-http client --HTTP---> Rust `mcp-proxy` (crates.io) --stdio--> sample upstream
  about 100 KB result (`list_issues`, a page of 20 issues):
    direct-100kb, relay-100kb, toolshape-100kb (stdio), toolshape-http-100kb and
    rust-proxy-100kb (HTTP): toolshape with its default shaping, the others pass it whole
    fastmcp         client --stdio--> FastMCP proxy (response limit) --stdio--> sample upstream
    fastmcp-http    client --HTTP---> FastMCP proxy (response limit) --stdio--> sample upstream
  1 MiB result (`huge` with mb=1, text lines):
    direct-1mb          the full 1 MiB text, straight from the upstream
    toolshape-1mb       toolshape's default shaping: cut to the 4,000-token default budget
    toolshape-1mb-full  toolshape with budget_tokens large enough to pass all of it on
    toolshape-http-1mb  toolshape's default shaping, over HTTP
    mcp-proxy-1mb       the full 1 MiB through mcp-proxy (HTTP)
    rust-proxy-1mb      the full 1 MiB through the Rust mcp-proxy (HTTP)
    fastmcp-1mb         FastMCP's ResponseLimitingMiddleware cutting it to 16,000 bytes (stdio)
    fastmcp-http-1mb    the same over HTTP

With `--upstream time`, every variant fronts PyPI `mcp-server-time` instead and calls its
`get_current_time`: a real server, whose own answer takes a few milliseconds, so the share a
gateway adds is seen at the scale agents meet it.

Each round calls every variant once, in a fresh random order; rounds go on until every
variant has `--calls` timed calls or `--seconds` have passed. Latency is the wall time of
`await client.call_tool(...)` in the client, measured with perf_counter_ns. Ratios are
computed round by round (each variant against the direct call of the same round), and the
table gives the median of those per-round ratios next to the ratio of the p50s.

Run it through bench/overhead.sh, which installs and builds what it needs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

# The port and process helpers are the end-to-end harness's own.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
from harness import free_port, stop, wait_for_port  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
if not TARGET.is_absolute():
    TARGET = REPO / TARGET
# Absolute: the gateways start their upstream from a temporary folder, where a relative
# path given on the command line would name nothing.
TOOLSHAPE = Path(os.environ.get("TOOLSHAPE_BIN", TARGET / "release" / "toolshape")).resolve()
SAMPLE = Path(os.environ.get("TOOLSHAPE_SAMPLE_UPSTREAM_BIN", TARGET / "release" / "toolshape-sample-upstream")).resolve()
# Built from the same package as the sample upstream.
RELAY = SAMPLE.with_name("toolshape-byte-relay")
_PROXY_VENVS = [REPO / "bench" / ".venv-proxy", REPO / ".cache" / "e2e-proxy-venv"]
MCP_PROXY = Path(
    os.environ.get("MCP_PROXY_BIN")
    or next((str(v / "bin" / "mcp-proxy") for v in _PROXY_VENVS if (v / "bin" / "mcp-proxy").is_file()), str(_PROXY_VENVS[0] / "bin" / "mcp-proxy"))
)
# The Rust `mcp-proxy` from crates.io (bench/overhead.sh installs it into .cache/rust-mcp-proxy):
# a gateway that shapes nothing, the floor a Rust gateway can reach over HTTP.
RUST_MCP_PROXY = Path(os.environ.get("RUST_MCP_PROXY_BIN", REPO / ".cache" / "rust-mcp-proxy" / "bin" / "mcp-proxy"))
# The Python of bench/.venv, where bench/run.sh installs fastmcp.
FASTMCP_PYTHON = Path(os.environ.get("FASTMCP_PYTHON", REPO / "bench" / ".venv" / "bin" / "python"))
FASTMCP_PROXY = REPO / "bench" / "fastmcp_proxy.py"
# FastMCP's limit is in bytes; about the size of toolshape's default 4,000-token budget.
FASTMCP_MAX_BYTES = 16_000

# Seconds one call may take before the run stops with that variant named.
CALL_TIMEOUT_SECS = 60
SMALL_TOOL = "light_status"
SMALL_ARGS = {"entity": "light.kitchen"}
# `--upstream time`: PyPI mcp-server-time (installed by e2e/setup.sh next to this Python), a
# real server whose own answer takes longer than the sample's.
TIME_SERVER = Path(sys.executable).parent / "mcp-server-time"
TIME_TOOL = "get_current_time"
TIME_ARGS = {"timezone": "UTC"}
BIG_TOOL = "huge"
BIG_ARGS = {"mb": 1}
MEDIUM_TOOL = "list_issues"
MEDIUM_ARGS = {"per_page": 20}


def env(**extra: str) -> dict[str, str]:
    out = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/root"),
        "LANG": "C.UTF-8",
    }
    out.update(extra)
    return out


def write_config(path: Path, budget_tokens: int | None, upstream: list[str]) -> Path:
    # The sample upstream as a stdio upstream named `s`: its tools appear as `s_<tool>`,
    # with default shaping (the config has no masks).
    lines = [
        "upstreams:",
        "  s:",
        "    command: [" + ", ".join(repr(part) for part in upstream) + "]",
        "    timeout_secs: 60",
        "    max_response_bytes: 33554432",
        "defaults:",
        "  expose_unmasked: true",
        # The bench repeats one call on purpose: repeated-call detection would answer it
        # short after the third time, without asking the upstream.
        "  repeat_limit: 0",
    ]
    if budget_tokens is not None:
        lines.append(f"  budget_tokens: {budget_tokens}")
    path.write_text("\n".join(lines).replace("'", '"') + "\n")
    return path


def write_rust_proxy_config(path: Path, port: int, upstream: list[str]) -> Path:
    # The Rust mcp-proxy's TOML: one stdio backend named `s` (tools appear as `s/<tool>`).
    quoted = ", ".join(json.dumps(part) for part in upstream[1:])
    path.write_text(
        "[proxy]\nname = \"bench\"\n[proxy.listen]\nhost = \"127.0.0.1\"\n"
        f"port = {port}\n\n[[backends]]\nname = \"s\"\ntransport = \"stdio\"\n"
        f"command = {json.dumps(upstream[0])}\nargs = [{quoted}]\n"
    )
    return path


@asynccontextmanager
async def stdio_session(command: list[str], log: Path, extra_env: dict[str, str] | None = None) -> AsyncIterator[Client]:
    with open(log, "w") as errlog:
        params = StdioServerParameters(command=command[0], args=command[1:], env=env(**(extra_env or {})), cwd=str(REPO))
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            yield client


@asynccontextmanager
async def http_session(command: list[str], port: int, path: str, log: Path) -> AsyncIterator[Client]:
    with open(log, "w") as out:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env(), cwd=str(REPO))
        try:
            wait_for_port(port, proc, log)
            async with Client(f"http://127.0.0.1:{port}{path}", mode="legacy") as client:
                yield client
        finally:
            stop(proc)


async def tool_named(client: Client, suffix: str) -> str:
    tools = await client.list_tools()
    names = [t.name for t in tools.tools]
    for name in names:
        if name == suffix or name.endswith("_" + suffix) or name.endswith("/" + suffix):
            return name
    raise RuntimeError(f"no tool ending in {suffix!r} among {names}")


def result_chars(result: Any) -> int:
    if getattr(result, "is_error", False):
        raise RuntimeError(f"tool error: {result.content[0].text[:500] if result.content else result}")
    n = sum(len(getattr(block, "text", "") or "") for block in result.content)
    return n


def pct(sorted_ns: list[int], p: float) -> float:
    """Nearest-rank percentile, in milliseconds."""
    k = max(1, min(len(sorted_ns), int(-(-p * len(sorted_ns) // 100))))
    return sorted_ns[k - 1] / 1e6


def machine() -> str:
    model = "?"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.strip().startswith("Model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()
    return f"{os.cpu_count()} cores ({model}), Linux {platform.release()}, Python {platform.python_version()}, load average at start {load[0]:.2f}"


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=400, help="timed calls per variant (default 400)")
    ap.add_argument("--warmup", type=int, default=30, help="untimed calls per variant first (default 30)")
    ap.add_argument("--seconds", type=float, default=300, help="stop timing after this long (default 300)")
    ap.add_argument("--no-proxy", action="store_true", help="leave mcp-proxy out")
    ap.add_argument("--no-rust-proxy", action="store_true", help="leave the Rust mcp-proxy out")
    ap.add_argument("--no-medium", action="store_true", help="leave the 100 KB variants out")
    ap.add_argument("--no-big", action="store_true", help="leave the 1 MiB variants out")
    ap.add_argument("--no-fastmcp", action="store_true", help="leave the FastMCP proxy out")
    ap.add_argument("--json", type=Path, help="also write the statistics here as JSON")
    ap.add_argument(
        "--upstream",
        choices=["sample", "time"],
        default="sample",
        help="the server behind every variant: the bundled sample (default) or PyPI mcp-server-time "
        "(small calls only: implies --no-big)",
    )
    a = ap.parse_args()
    if a.upstream == "time":
        if not TIME_SERVER.is_file():
            print(f"missing {TIME_SERVER}: run e2e/setup.sh, and this script with its Python", file=sys.stderr)
            return 1
        a.no_big = True
        a.no_medium = True
        upstream, small_tool, small_args = [str(TIME_SERVER)], TIME_TOOL, TIME_ARGS
    else:
        upstream, small_tool, small_args = [str(SAMPLE)], SMALL_TOOL, SMALL_ARGS

    for binary in (TOOLSHAPE, SAMPLE, RELAY):
        if not binary.is_file():
            print(f"missing {binary}: run bench/overhead.sh (it builds it)", file=sys.stderr)
            return 1
    use_proxy = not a.no_proxy
    if use_proxy and not MCP_PROXY.is_file():
        print(f"missing {MCP_PROXY}: run bench/run.sh or e2e/setup.sh --with-proxy (or pass --no-proxy)", file=sys.stderr)
        return 1
    use_rust_proxy = not a.no_rust_proxy
    if use_rust_proxy and not RUST_MCP_PROXY.is_file():
        print(f"missing {RUST_MCP_PROXY}: run bench/overhead.sh (or pass --no-rust-proxy)", file=sys.stderr)
        return 1
    use_fastmcp = not a.no_fastmcp
    if use_fastmcp and not FASTMCP_PYTHON.is_file():
        print(f"missing {FASTMCP_PYTHON}: run bench/run.sh (or pass --no-fastmcp)", file=sys.stderr)
        return 1

    tmp = Path(tempfile.mkdtemp(prefix="toolshape-overhead-"))
    default_cfg = write_config(tmp / "default.yaml", None, upstream)
    full_cfg = write_config(tmp / "full.yaml", 2_000_000, upstream)
    print(f"machine: {machine()}")
    print(f"binaries: {TOOLSHAPE}, {upstream[0]}" + (f", {MCP_PROXY}" if use_proxy else ""))
    print(f"logs and configs: {tmp}")

    async with AsyncExitStack() as stack:
        sessions: dict[str, Client] = {}
        sessions["direct"] = await stack.enter_async_context(stdio_session(upstream, tmp / "direct.log"))
        sessions["relay"] = await stack.enter_async_context(stdio_session([str(RELAY), *upstream], tmp / "relay.log"))
        # toolshape's own default log level (info), as a user would run it.
        sessions["toolshape"] = await stack.enter_async_context(
            stdio_session([str(TOOLSHAPE), "serve", "--config", str(default_cfg)], tmp / "toolshape.log")
        )
        port = free_port()
        sessions["toolshape-http"] = await stack.enter_async_context(
            http_session(
                [str(TOOLSHAPE), "serve", "--config", str(default_cfg), "--http", f"127.0.0.1:{port}"],
                port, "/mcp", tmp / "toolshape-http.log",
            )
        )
        if use_proxy:
            port = free_port()
            # mcp-proxy's default log level (INFO), as a user would run it.
            sessions["mcp-proxy-http"] = await stack.enter_async_context(
                http_session(
                    [str(MCP_PROXY), "--host", "127.0.0.1", "--port", str(port), "--", *upstream],
                    port, "/mcp", tmp / "mcp-proxy.log",
                )
            )
        if use_rust_proxy:
            port = free_port()
            rust_cfg = write_rust_proxy_config(tmp / "rust-proxy.toml", port, upstream)
            # Its default log level, as a user would run it.
            sessions["rust-proxy-http"] = await stack.enter_async_context(
                # It serves MCP at the root of its listener.
                http_session([str(RUST_MCP_PROXY), "--config", str(rust_cfg)], port, "/", tmp / "rust-proxy.log")
            )
        if use_fastmcp:
            fastmcp = [str(FASTMCP_PYTHON), str(FASTMCP_PROXY), "--max-bytes", str(FASTMCP_MAX_BYTES)]
            sessions["fastmcp"] = await stack.enter_async_context(
                stdio_session([*fastmcp, "--", *upstream], tmp / "fastmcp.log")
            )
            port = free_port()
            sessions["fastmcp-http"] = await stack.enter_async_context(
                http_session([*fastmcp, "--http", str(port), "--", *upstream], port, "/mcp", tmp / "fastmcp-http.log")
            )
        if not a.no_big:
            sessions["toolshape-full"] = await stack.enter_async_context(
                stdio_session([str(TOOLSHAPE), "serve", "--config", str(full_cfg)], tmp / "toolshape-full.log")
            )

        # variant name -> (session, tool name, arguments)
        variants: dict[str, tuple[Client, str, dict[str, Any]]] = {}
        for name in ("direct", "relay", "toolshape", "toolshape-http", "mcp-proxy-http", "rust-proxy-http", "fastmcp", "fastmcp-http"):
            if name in sessions:
                variants[name] = (sessions[name], await tool_named(sessions[name], small_tool), small_args)
        if not a.no_medium:
            for name, session in (
                ("direct-100kb", "direct"),
                ("relay-100kb", "relay"),
                ("toolshape-100kb", "toolshape"),
                ("toolshape-http-100kb", "toolshape-http"),
                ("rust-proxy-100kb", "rust-proxy-http"),
            ):
                # A peer left out (--no-rust-proxy) has no session.
                if session in sessions:
                    variants[name] = (sessions[session], await tool_named(sessions[session], MEDIUM_TOOL), MEDIUM_ARGS)
        if not a.no_big:
            for name, session in (
                ("direct-1mb", "direct"),
                ("toolshape-1mb", "toolshape"),
                ("toolshape-1mb-full", "toolshape-full"),
                ("toolshape-http-1mb", "toolshape-http"),
                ("mcp-proxy-1mb", "mcp-proxy-http"),
                ("rust-proxy-1mb", "rust-proxy-http"),
                ("fastmcp-1mb", "fastmcp"),
                ("fastmcp-http-1mb", "fastmcp-http"),
            ):
                if session in sessions:
                    variants[name] = (sessions[session], await tool_named(sessions[session], BIG_TOOL), BIG_ARGS)

        sizes: dict[str, int] = {}

        async def once(name: str) -> int:
            client, tool, args = variants[name]
            t0 = time.perf_counter_ns()
            try:
                # A call that never answers must not hold the benchmark forever: it is
                # reported with the variant's name and the run stops.
                with anyio.fail_after(CALL_TIMEOUT_SECS):
                    result = await client.call_tool(tool, args)
            except TimeoutError as e:
                raise RuntimeError(f"{name}: no answer within {CALL_TIMEOUT_SECS} s; the servers' logs are in {tmp}") from e
            dt = time.perf_counter_ns() - t0
            sizes[name] = result_chars(result)
            return dt

        rng = random.Random(20261130)
        names = list(variants)
        print(f"variants: {', '.join(names)}")
        t_warm = time.monotonic()
        for _ in range(a.warmup):
            order = names[:]
            rng.shuffle(order)
            for name in order:
                await once(name)
        print(f"warm-up: {a.warmup} calls each in {time.monotonic() - t_warm:.1f}s")

        samples: dict[str, list[int]] = {n: [] for n in names}
        start = time.monotonic()
        rounds = 0
        timed_out = False
        while rounds < a.calls:
            if time.monotonic() - start > a.seconds:
                timed_out = True
                break
            order = names[:]
            rng.shuffle(order)
            for name in order:
                samples[name].append(await once(name))
            rounds += 1
        elapsed = time.monotonic() - start
        print(f"timed: {rounds} rounds in {elapsed:.1f}s" + (" (stopped by --seconds)" if timed_out else ""))

    def stats(name: str) -> dict[str, float]:
        s = sorted(samples[name])
        return {"n": len(s), "min": s[0] / 1e6, "p50": pct(s, 50), "p99": pct(s, 99), "max": s[-1] / 1e6}

    table = {n: stats(n) for n in names}

    def baseline(name: str) -> str:
        if name.endswith("100kb"):
            return "direct-100kb"
        return "direct-1mb" if name.endswith("1mb") or name.endswith("1mb-full") else "direct"

    def paired(name: str, other: str) -> float:
        """Median over rounds of this variant's time divided by `other`'s in the same round."""
        ratios = sorted(x / y for x, y in zip(samples[name], samples[other]))
        return ratios[len(ratios) // 2]

    print()
    print(f"| variant | path | result chars | n | min ms | p50 ms | p99 ms | max ms | p50 vs direct | p99 vs direct | paired median vs direct |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    paths = {
        "direct": "stdio → upstream",
        "relay": "stdio → byte relay → upstream",
        "toolshape": "stdio → toolshape → upstream",
        "toolshape-http": "HTTP → toolshape → upstream",
        "mcp-proxy-http": "HTTP → mcp-proxy → upstream",
        "rust-proxy-http": "HTTP → Rust mcp-proxy → upstream",
        "direct-100kb": "stdio → upstream",
        "relay-100kb": "stdio → byte relay → upstream",
        "toolshape-100kb": "stdio → toolshape (default shaping) → upstream",
        "toolshape-http-100kb": "HTTP → toolshape (default shaping) → upstream",
        "rust-proxy-100kb": "HTTP → Rust mcp-proxy → upstream",
        "rust-proxy-1mb": "HTTP → Rust mcp-proxy → upstream",
        "direct-1mb": "stdio → upstream",
        "toolshape-1mb": "stdio → toolshape (default 4,000-token budget) → upstream",
        "toolshape-1mb-full": "stdio → toolshape (budget 2,000,000: all of it) → upstream",
        "mcp-proxy-1mb": "HTTP → mcp-proxy → upstream",
        "fastmcp": "stdio → FastMCP proxy → upstream",
        "fastmcp-http": "HTTP → FastMCP proxy → upstream",
        "toolshape-http-1mb": "HTTP → toolshape (default 4,000-token budget) → upstream",
        "fastmcp-1mb": f"stdio → FastMCP proxy (ResponseLimitingMiddleware, {FASTMCP_MAX_BYTES:,} bytes) → upstream",
        "fastmcp-http-1mb": f"HTTP → FastMCP proxy (ResponseLimitingMiddleware, {FASTMCP_MAX_BYTES:,} bytes) → upstream",
    }
    for name in names:
        st = table[name]
        base = table[baseline(name)]
        print(
            f"| {name} | {paths[name]} | {sizes[name]:,} | {st['n']} | {st['min']:.3f} | {st['p50']:.3f} | {st['p99']:.3f} | {st['max']:.3f} "
            f"| {st['p50'] / base['p50']:.2f}× | {st['p99'] / base['p99']:.2f}× | {paired(name, baseline(name)):.2f}× |"
        )
    print()
    print("Added latency per call (p50 minus direct p50):")
    for name in names:
        base = table[baseline(name)]
        if name != baseline(name):
            print(f"  {name}: {table[name]['p50'] - base['p50']:+.3f} ms")
    if "relay" in table and "toolshape" in table:
        # What toolshape does with a call, apart from being one more process on the way.
        print(f"toolshape's own work (toolshape p50 minus relay p50): {table['toolshape']['p50'] - table['relay']['p50']:+.3f} ms")
    if "toolshape-http" in table and "mcp-proxy-http" in table:
        t, m = table["toolshape-http"], table["mcp-proxy-http"]
        print(f"toolshape-http vs mcp-proxy-http: p50 {t['p50'] / m['p50']:.2f}×, p99 {t['p99'] / m['p99']:.2f}×")
    print()
    print("Head to head, same rounds (toolshape's time / the other's; below 1× means toolshape is faster):")
    pairs = [
        ("toolshape", "relay"),
        ("toolshape-http", "mcp-proxy-http"),
        ("toolshape-http", "rust-proxy-http"),
        ("toolshape-100kb", "relay-100kb"),
        ("toolshape-http-100kb", "rust-proxy-100kb"),
        ("toolshape-1mb-full", "rust-proxy-1mb"),
        ("toolshape", "fastmcp"),
        ("toolshape-http", "fastmcp-http"),
        ("toolshape-1mb-full", "mcp-proxy-1mb"),
        ("toolshape-http-1mb", "mcp-proxy-1mb"),
        ("toolshape-1mb", "fastmcp-1mb"),
        ("toolshape-http-1mb", "fastmcp-http-1mb"),
    ]
    head_to_head = {}
    for t_name, o_name in pairs:
        if t_name in table and o_name in table:
            t, o = table[t_name], table[o_name]
            head_to_head[f"{t_name} / {o_name}"] = {"p50": t["p50"] / o["p50"], "p99": t["p99"] / o["p99"], "paired": paired(t_name, o_name)}
            print(
                f"  {t_name} / {o_name}: p50 {t['p50'] / o['p50']:.2f}×, p99 {t['p99'] / o['p99']:.2f}×, "
                f"paired median {paired(t_name, o_name):.2f}×"
            )
    if a.json:
        a.json.write_text(json.dumps({"machine": machine(), "stats": table, "sizes": sizes, "head_to_head": head_to_head}, indent=1))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
