"""Throughput under many concurrent sessions over Streamable HTTP, bounded in time.

Starts one server at a time in front of the bundled sample upstream (stdio): `toolshape
serve --http`, then, side by side, `mcp-proxy` and the FastMCP proxy of
bench/fastmcp_proxy.py. Opens `--sessions` MCP sessions (initialize, initialized), and for
`--seconds` every session calls `get_issue` on a number of its own, one call at a time, as
fast as answers come back. Every answer is checked: the JSON-RPC id must be the one sent and
the text must carry the issue number asked for, so a response delivered to the wrong
session or call counts as mismatched. Stops by itself after the duration; calls still in
flight then are awaited (with a time-out) and counted.

The client is deliberately thin (raw JSON-RPC over httpx, no SDK) so that it takes as
little of the two cores as possible; it still shares them with the server, so calls/s is a
floor for the server alone.

Usage: .cache/e2e-venv/bin/python bench/load.py [--sessions 32] [--seconds 20] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
from harness import free_port, stop, wait_for_port  # noqa: E402
from overhead import FASTMCP_MAX_BYTES, FASTMCP_PROXY, FASTMCP_PYTHON, MCP_PROXY, SAMPLE, TOOLSHAPE, env, pct, write_config  # noqa: E402

PROTOCOL = "2025-06-18"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def rss_kib(pid: int) -> int:
    """Resident memory of the server process alone (not the upstream it started), in KiB."""
    total = 0
    for p in [pid]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its children (the upstream included)."""
    total = 0.0
    pids = [pid]
    try:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
        pids += [int(p) for p in out.split()]
    except OSError:
        pass
    tick = os.sysconf("SC_CLK_TCK")
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


def parse_response(resp: httpx.Response) -> dict[str, Any]:
    """The JSON-RPC response, from a JSON body or the last `data:` event of an SSE body."""
    ctype = resp.headers.get("content-type", "")
    if "text/event-stream" in ctype:
        message = None
        for line in resp.text.splitlines():
            if line.startswith("data:"):
                payload = line[5:].strip()
                if payload:
                    candidate = json.loads(payload)
                    if "id" in candidate and ("result" in candidate or "error" in candidate):
                        message = candidate
        if message is None:
            raise ValueError(f"no response in event stream: {resp.text[:200]}")
        return message
    return resp.json()


class Session:
    def __init__(self, client: httpx.AsyncClient, url: str) -> None:
        self.client = client
        self.url = url
        self.headers = dict(HEADERS)
        self.next_id = 1

    async def open(self) -> None:
        resp = await self.client.post(self.url, headers=self.headers, json={
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "toolshape-load", "version": "1"}},
        })
        resp.raise_for_status()
        sid = resp.headers.get("mcp-session-id")
        if sid:
            self.headers["mcp-session-id"] = sid
        version = parse_response(resp).get("result", {}).get("protocolVersion")
        if version:
            self.headers["mcp-protocol-version"] = version
        note = await self.client.post(self.url, headers=self.headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        if note.status_code >= 400:
            raise RuntimeError(f"initialized: HTTP {note.status_code}")

    async def call(self, tool: str, arguments: dict[str, Any]) -> tuple[int, str]:
        """(id of the answer, its text); raises on a transport or JSON-RPC error."""
        rid = self.next_id
        self.next_id += 1
        resp = await self.client.post(self.url, headers=self.headers, json={
            "jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": tool, "arguments": arguments},
        })
        resp.raise_for_status()
        message = parse_response(resp)
        if "error" in message:
            raise RuntimeError(f"JSON-RPC error: {message['error']}")
        text = "".join(block.get("text", "") for block in message["result"].get("content", []))
        return (message.get("id") if message.get("id") == rid else -1), text

    async def close(self) -> None:
        try:
            await self.client.delete(self.url, headers=self.headers)
        except httpx.HTTPError:
            pass


async def tool_name(session: Session, suffix: str) -> str:
    resp = await session.client.post(session.url, headers=session.headers, json={"jsonrpc": "2.0", "id": 999_999, "method": "tools/list"})
    names = [t["name"] for t in parse_response(resp)["result"]["tools"]]
    for name in names:
        if name == suffix or name.endswith("_" + suffix):
            return name
    raise RuntimeError(f"no tool ending in {suffix!r} among {names}")


async def issue_numbers(session: Session, tool: str) -> tuple[int, int]:
    """The sample tracker's issue number range, from the error for an unknown number."""
    _, text = await session.call(tool, {"number": 1})
    numbers = [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]{3,}", text)]
    if len(numbers) < 2:
        raise RuntimeError(f"cannot find the issue number range in: {text[:300]}")
    return min(numbers), max(numbers)


async def run_load(name: str, url: str, pid: int, sessions: int, seconds: float) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=sessions + 4, max_keepalive_connections=sessions + 4)
    async with httpx.AsyncClient(timeout=30.0, limits=limits) as client:
        probe = Session(client, url)
        await probe.open()
        tool = await tool_name(probe, "get_issue")
        lo, hi = await issue_numbers(probe, tool)
        await probe.close()
        opened = [Session(client, url) for _ in range(sessions)]
        await asyncio.gather(*(s.open() for s in opened))
        # Warm every session once before timing.
        await asyncio.gather(*(s.call(tool, {"number": lo}) for s in opened))
        rss_before = rss_kib(pid)
        server_cpu0 = cpu_seconds(pid)
        client_cpu0 = time.process_time()
        latencies: list[int] = []
        counts = {"ok": 0, "mismatched": 0, "failed": 0}
        errors: list[str] = []
        deadline = time.monotonic() + seconds

        async def worker(index: int, session: Session) -> None:
            k = 0
            while time.monotonic() < deadline:
                # Issue numbers are not contiguous: ask for one near a target and accept an
                # unknown-number error as a valid, checked answer too.
                number = lo + ((index * 7919 + k * 104729) % (hi - lo + 1))
                k += 1
                t0 = time.perf_counter_ns()
                try:
                    rid, text = await session.call(tool, {"number": number})
                except Exception as e:  # noqa: BLE001 - every failure is counted, none stops the load
                    counts["failed"] += 1
                    if len(errors) < 5:
                        errors.append(f"{type(e).__name__}: {str(e)[:200]}")
                    continue
                latencies.append(time.perf_counter_ns() - t0)
                if rid == -1 or str(number) not in text:
                    counts["mismatched"] += 1
                else:
                    counts["ok"] += 1

        rss_samples: list[int] = []

        async def sample_rss() -> None:
            # Once a second: a steady climb over the run would be a leak, a plateau is warm-up.
            while time.monotonic() < deadline:
                rss_samples.append(rss_kib(pid))
                await asyncio.sleep(1.0)

        start = time.monotonic()
        sampler = asyncio.create_task(sample_rss())
        await asyncio.wait_for(asyncio.gather(*(worker(i, s) for i, s in enumerate(opened))), timeout=seconds + 60)
        elapsed = time.monotonic() - start
        await sampler
        rss_after = rss_kib(pid)
        server_cpu = cpu_seconds(pid) - server_cpu0
        client_cpu = time.process_time() - client_cpu0
        await asyncio.gather(*(s.close() for s in opened))
    latencies.sort()
    total = counts["ok"] + counts["mismatched"] + counts["failed"]
    return {
        "server": name, "sessions": sessions, "seconds": round(elapsed, 1), "calls": total,
        "calls_per_s": total / elapsed, "p50_ms": pct(latencies, 50) if latencies else 0, "p99_ms": pct(latencies, 99) if latencies else 0,
        **counts, "rss_before_mib": rss_before / 1024, "rss_after_mib": rss_after / 1024, "errors": errors,
        "rss_peak_mib": max(rss_samples + [rss_after]) / 1024,
        "rss_half_mib": (rss_samples[len(rss_samples) // 2] if rss_samples else rss_after) / 1024,
        "server_cpu_s": round(server_cpu, 1), "client_cpu_s": round(client_cpu, 1),
    }


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--only-toolshape", action="store_true", help="leave the Python proxies out")
    ap.add_argument("--json", type=Path, help="also write the results here as JSON")
    a = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="toolshape-load-"))
    config = write_config(tmp / "default.yaml", None, [str(SAMPLE)])
    servers: list[tuple[str, list[str]]] = [("toolshape", [str(TOOLSHAPE), "serve", "--config", str(config), "--http", "127.0.0.1:{port}"])]
    if not a.only_toolshape:
        if MCP_PROXY.is_file():
            servers.append(("mcp-proxy", [str(MCP_PROXY), "--host", "127.0.0.1", "--port", "{port}", "--", str(SAMPLE)]))
        if FASTMCP_PYTHON.is_file():
            servers.append(("fastmcp-proxy", [str(FASTMCP_PYTHON), str(FASTMCP_PROXY), "--max-bytes", str(FASTMCP_MAX_BYTES), "--http", "{port}", "--", str(SAMPLE)]))
    results = []
    for name, template in servers:
        port = free_port()
        command = [part.replace("{port}", str(port)) for part in template]
        log = tmp / f"{name}.log"
        with open(log, "w") as out:
            # Logging at warnings only for every server: per-request info lines would be
            # measured as well otherwise.
            proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                    env=env(RUST_LOG="warn", TOOLSHAPE_LOG="warn"), cwd=str(Path(__file__).resolve().parent.parent))
            try:
                wait_for_port(port, proc, log)
                result = await run_load(name, f"http://127.0.0.1:{port}/mcp", proc.pid, a.sessions, a.seconds)
                result["alive_after"] = proc.poll() is None
            finally:
                stop(proc)
        results.append(result)
        print(json.dumps(result), file=sys.stderr)

    print(f"| server | sessions | seconds | calls | calls/s | p50 ms | p99 ms | ok | mismatched | failed | RSS MiB: before → halfway → after (peak) | CPU s: server+upstream / client |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r['server']} | {r['sessions']} | {r['seconds']} | {r['calls']:,} | {r['calls_per_s']:,.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} "
            f"| {r['ok']:,} | {r['mismatched']} | {r['failed']} | {r['rss_before_mib']:.0f} → {r['rss_half_mib']:.0f} → {r['rss_after_mib']:.0f} ({r['rss_peak_mib']:.0f}) | {r['server_cpu_s']} / {r['client_cpu_s']} |"
        )
    base = results[0]
    for r in results[1:]:
        if r["calls_per_s"] > 0:
            print(f"\ntoolshape calls/s / {r['server']} calls/s: {base['calls_per_s'] / r['calls_per_s']:.2f}×", end="")
    print()
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0 if all(r["mismatched"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
