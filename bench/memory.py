"""Resident memory of `toolshape serve` (Streamable HTTP) in front of one upstream, the sample
server, with the quickstart config (default tokenizer o200k_base, memory store):

  idle        started, no client yet
  listed      one session initialized and the tools listed (the upstream is started)
  first call  one small call (`light_status`)
  mixed N     after N more calls, one kind after another: small structured results, one
              issue, a page of 20 issues (about 100 KB), and every tenth call a large one
              (the `open_issues` mask over about 7 MB, or `recent_errors` over a 4.6 MB log)

For each point: VmRSS of the toolshape process alone (not its upstream), and its parts: RssAnon
(heap and stacks) and RssFile (pages mapped from the binary). Standard library only:

  python3 bench/memory.py [--toolshape target/release/toolshape] [--calls 1000] [--rounds 1]

With several binaries (`--toolshape A --toolshape B`) they are measured one after the other,
alternating, `--rounds` times each, and every number is reported per binary.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROTOCOL = "2025-06-18"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen, what: str) -> None:
    """Wait until `proc` accepts connections on `port` (at most 30 s), or stop with `what`
    named if it exits or never does."""
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"{what} did not start listening")
            time.sleep(0.05)


def memory_kib(pid: int) -> dict[str, int]:
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
                out[key] = int(rest.split()[0])
    return out


class Session:
    """One MCP session over Streamable HTTP, with the standard library's HTTP client."""

    def __init__(self, port: int, path: str = "/mcp") -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.path = path
        self.session_id: str | None = None
        self.next_id = 1

    def post(self, message: dict) -> dict | None:
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
            headers["Mcp-Protocol-Version"] = PROTOCOL
        self.conn.request("POST", self.path, body=json.dumps(message), headers=headers)
        resp = self.conn.getresponse()
        body = resp.read().decode()
        if resp.status >= 400:
            raise RuntimeError(f"HTTP {resp.status}: {body[:300]}")
        self.session_id = resp.getheader("Mcp-Session-Id") or self.session_id
        if "id" not in message:
            return None
        if resp.getheader("Content-Type", "").startswith("text/event-stream"):
            for line in body.splitlines():
                if line.startswith("data:") and line[5:].strip():
                    data = json.loads(line[5:])
                    if data.get("id") == message["id"]:
                        return data
            raise RuntimeError(f"no answer in the event stream: {body[:300]}")
        return json.loads(body)

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        answer = self.post({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        if answer is None or "error" in answer:
            raise RuntimeError(f"{method}: {answer}")
        return answer["result"]

    def open(self) -> None:
        self.request(
            "initialize",
            {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "memory-bench", "version": "1"}},
        )
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(self, name: str, arguments: dict) -> dict:
        result = self.request("tools/call", {"name": name, "arguments": arguments})
        # An envelope with status error (an unknown tool, a failed upstream) would measure
        # nothing of the workload.
        text = json.dumps(result)
        if result.get("isError") or '\\"status\\":\\"error\\"' in text:
            raise RuntimeError(f"{name} answered an error: {text[:300]}")
        return result


# One cycle of ten calls: mostly small, one large.
CYCLE = [
    ("tracker_light_status", {}),
    ("tracker_get_issue", {"number": None}),
    ("tracker_search_issues", {"query": "dark mode", "per_page": 20}),
    ("tracker_light_status", {"entity": "light.kitchen"}),
    ("tracker_get_issue", {"number": None}),
    ("tracker_light_status", {}),
    ("tracker_search_issues", {"query": "crash", "per_page": 20}),
    ("tracker_get_issue", {"number": None}),
    ("tracker_light_status", {}),
    (None, {}),  # the large one
]


def config_without_repeat_detection() -> Path:
    """The quickstart config with repeated-call detection off: the workload repeats calls on
    purpose, and with detection on, repeats would be answered short without the upstream
    (and without the memory their results take)."""
    text = (REPO / "examples" / "quickstart.yaml").read_text()
    text = text.replace("\ndefaults:\n", "\ndefaults:\n  repeat_limit: 0\n", 1)
    if "repeat_limit: 0" not in text:
        raise RuntimeError("examples/quickstart.yaml has no `defaults:` section to extend")
    out = Path(tempfile.mkdtemp(prefix="toolshape-memory-")) / "quickstart.yaml"
    out.write_text(text)
    return out


def measure(toolshape: str, sample: str, calls: int) -> dict[str, dict[str, int]]:
    port = free_port()
    env = dict(os.environ, TOOLSHAPE_SAMPLE_UPSTREAM=sample)
    proc = subprocess.Popen(
        [toolshape, "serve", "--config", str(config_without_repeat_detection()), "--http", f"127.0.0.1:{port}"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    points: dict[str, dict[str, int]] = {}
    try:
        wait_listening(port, proc, "toolshape")
        time.sleep(2)
        points["idle"] = memory_kib(proc.pid)
        s = Session(port)
        s.open()
        tools = [t["name"] for t in s.request("tools/list", {})["tools"]]
        time.sleep(0.5)
        points["listed"] = memory_kib(proc.pid)
        s.call("tracker_light_status", {})
        time.sleep(0.5)
        points["first call"] = memory_kib(proc.pid)
        # The quickstart masks `list_issues` (as `open_issues`), so the unmasked search finds
        # an issue number and serves the pages of 20.
        missing = sorted({name for name, _ in CYCLE if name} - set(tools))
        if missing:
            raise RuntimeError(f"the workload's tools are not listed: {missing}")
        listed = json.dumps(s.call("tracker_search_issues", {"query": "dark mode", "per_page": 1}))
        found = re.search(r'number\\?"\s*:\s*(\d+)', listed)
        number = int(found.group(1)) if found else 1
        peak = 0
        for k in range(calls):
            name, args = CYCLE[k % len(CYCLE)]
            args = dict(args)
            if name is None:
                name = "open_issues" if (k // len(CYCLE)) % 2 == 0 else "recent_errors"
            if "number" in args:
                args["number"] = number
            s.call(name, args)
            if k % 25 == 0:
                peak = max(peak, memory_kib(proc.pid)["VmRSS"])
        time.sleep(1)
        after = memory_kib(proc.pid)
        after["peak sampled"] = max(peak, after["VmRSS"])
        points[f"mixed {calls}"] = after
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--toolshape", action="append", help="toolshape binaries (default target/release/toolshape)")
    parser.add_argument("--sample", default=str(REPO / "target" / "release" / "toolshape-sample-upstream"))
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    binaries = args.toolshape or [str(REPO / "target" / "release" / "toolshape")]
    # The gateway runs the sample from the config's folder (a temporary one): a path given
    # relative to where this script was started must be made absolute first.
    binaries = [str(Path(b).resolve()) for b in binaries]
    args.sample = str(Path(args.sample).resolve())
    for r in range(args.rounds):
        for binary in binaries:
            points = measure(binary, args.sample, args.calls)
            print(f"## {binary} (round {r + 1})")
            print("| point | VmRSS MiB | RssAnon MiB | RssFile MiB |")
            print("|---|---|---|---|")
            for name, m in points.items():
                line = f"| {name} | {m['VmRSS'] / 1024:.1f} | {m['RssAnon'] / 1024:.1f} | {m['RssFile'] / 1024:.1f} |"
                if "peak sampled" in m:
                    line += f" peak sampled {m['peak sampled'] / 1024:.1f} MiB"
                print(line)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
