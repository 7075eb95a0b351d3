"""Cold start of `toolshape serve` over stdio, as an MCP client starts it: from spawning the
process to the answer of `tools/list` (spawn, `initialize`, the upstream started, the tool
list), and on to the answer of the first `tools/call`: by default 1 MiB of JSON records
(the sample's `huge`, made on the spot), which is shaped to the budget, so the first count
of the process, which loads its tokenizer table, is on that call's path. (A small result
that fits by its bytes alone is answered before any count.)

One upstream, the sample server, with the quickstart config. Messages are written as plain
JSON-RPC lines, so no client library stands between the clock and the gateway. With several
binaries (`--toolshape A --toolshape B`) every round starts each once, in a shuffled order,
and the report gives each binary's median and the median of its per-round ratio to the
first binary. Standard library only:

  python3 bench/cold_start.py --toolshape OLD --toolshape NEW \
      [--sample target/release/toolshape-sample-upstream] [--rounds 40]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "cold-start-bench", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}


def call_message(name: str, arguments: dict) -> dict:
    return {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


def answer(proc: subprocess.Popen, want_id: int) -> dict:
    """The next line that answers request `want_id` (notifications are skipped)."""
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the gateway closed its output before answering request {want_id}")
        message = json.loads(line)
        if message.get("id") == want_id:
            if "error" in message:
                raise RuntimeError(f"request {want_id} failed: {message['error']}")
            return message


def send(proc: subprocess.Popen, message: dict) -> None:
    assert proc.stdin is not None
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def one_start(toolshape: str, sample: str, call: dict) -> tuple[float, float]:
    """Milliseconds from spawn to the tool list, and to the first call's answer."""
    env = dict(os.environ, TOOLSHAPE_SAMPLE_UPSTREAM=sample, TOOLSHAPE_LOG="warn")
    started = time.perf_counter()
    proc = subprocess.Popen(
        [toolshape, "serve", "--config", str(REPO / "examples" / "quickstart.yaml")],
        cwd=REPO, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    try:
        send(proc, INITIALIZE)
        answer(proc, 1)
        send(proc, INITIALIZED)
        send(proc, LIST)
        tools = answer(proc, 2)["result"]["tools"]
        listed = time.perf_counter()
        if not any(t["name"] == call["params"]["name"] for t in tools):
            raise RuntimeError(f"{call['params']['name']} is not in the tool list")
        send(proc, call)
        answered = answer(proc, 3)["result"]
        if answered.get("isError"):
            raise RuntimeError(f"the first call failed: {json.dumps(answered)[:300]}")
        called = time.perf_counter()
    finally:
        if proc.stdin:
            proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return (listed - started) * 1000, (called - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--toolshape", action="append", help="toolshape binaries (default target/release/toolshape)")
    parser.add_argument("--sample", default=str(REPO / "target" / "release" / "toolshape-sample-upstream"))
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--call", default="tracker_huge", help="the tool of the first call")
    parser.add_argument("--arguments", default='{"mb": 1, "format": "json"}', help="its arguments, as JSON")
    parser.add_argument("--warmup", type=int, default=2, help="rounds run first and not counted")
    args = parser.parse_args()
    binaries = args.toolshape or [str(REPO / "target" / "release" / "toolshape")]
    sample = str(Path(args.sample).resolve())
    call = call_message(args.call, json.loads(args.arguments))
    times: dict[str, list[tuple[float, float]]] = {b: [] for b in binaries}
    for round_no in range(args.warmup + args.rounds):
        order = binaries[:]
        random.shuffle(order)
        for binary in order:
            result = one_start(binary, sample, call)
            if round_no >= args.warmup:
                times[binary].append(result)
    first = binaries[0]
    print(f"{args.rounds} rounds, binaries in a shuffled order each round; first call {args.call} {args.arguments}\n")
    print("| binary | to the tool list, p50 ms | to the first call's answer, p50 ms | list, paired vs first | first call, paired vs first |")
    print("|---|---|---|---|---|")
    for binary in binaries:
        listed = statistics.median(t[0] for t in times[binary])
        called = statistics.median(t[1] for t in times[binary])
        ratios = [
            (t[0] / f[0], t[1] / f[1]) for t, f in zip(times[binary], times[first], strict=True)
        ]
        list_ratio = statistics.median(r[0] for r in ratios)
        call_ratio = statistics.median(r[1] for r in ratios)
        print(f"| {binary} | {listed:.1f} | {called:.1f} | {list_ratio:.3f}× | {call_ratio:.3f}× |")


if __name__ == "__main__":
    main()
