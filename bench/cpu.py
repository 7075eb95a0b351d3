"""CPU time a gateway spends per call, from the kernel's own accounting: the user and system
time of the gateway's process alone (`/proc/PID/stat`, not its upstream's), read before and
after N calls over Streamable HTTP, divided by N. The same calls go through each gateway in
front of the same sample upstream:

  toolshape   `toolshape serve --http` with one upstream and no mask (default shaping)
  rust-proxy  the Rust `mcp-proxy` from crates.io (bench/overhead.sh installs it into
              .cache/rust-mcp-proxy), which passes results on without shaping them

Calls: `small` is `light_status` (about 200 bytes), `medium` a page of 20 issues (about
100 KB; toolshape shapes it to its default budget, the proxy passes it whole). Each gateway
gets untimed warm-up calls first. Standard library only:

  python3 bench/cpu.py [--toolshape target/release/toolshape] [--sample target/release/toolshape-sample-upstream]
                       [--rust-proxy .cache/rust-mcp-proxy/bin/mcp-proxy] [--calls 2000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from memory import Session, free_port, wait_listening  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")
CALLS = {
    "small": ("light_status", {"entity": "light.kitchen"}),
    "medium": ("list_issues", {"per_page": 20}),
}


def cpu_seconds(pid: int) -> float:
    """User plus system time of `pid` so far (fields 14 and 15 of /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start(kind: str, binary: str, sample: str, tmp: Path) -> tuple[subprocess.Popen, int, str, str]:
    """Start one gateway in front of the sample upstream; returns it, its port, its MCP path
    and the prefix its tool names carry."""
    port = free_port()
    if kind == "toolshape":
        config = tmp / "toolshape.yaml"
        # The bench repeats one call on purpose: repeated-call detection is off so that every
        # call reaches the upstream.
        config.write_text(f'upstreams:\n  s:\n    command: ["{sample}"]\ndefaults:\n  expose_unmasked: true\n  repeat_limit: 0\n')
        command = [binary, "serve", "--config", str(config), "--http", f"127.0.0.1:{port}"]
        prefix, path = "s_", "/mcp"
    else:
        config = tmp / "rust-proxy.toml"
        config.write_text(
            f'[proxy]\nname = "bench"\n[proxy.listen]\nhost = "127.0.0.1"\nport = {port}\n\n'
            f'[[backends]]\nname = "s"\ntransport = "stdio"\ncommand = {json.dumps(sample)}\nargs = []\n'
        )
        command = [binary, "--config", str(config)]
        # It serves MCP at the root of its listener.
        prefix, path = "s/", "/"
    log = open(tmp / f"{kind}.log", "w")
    proc = subprocess.Popen(command, cwd=tmp, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    wait_listening(port, proc, kind)
    return proc, port, path, prefix


def measure(kind: str, binary: str, sample: str, calls: int, warmup: int) -> dict[str, float]:
    """Microseconds of the gateway's CPU per call, for each kind of call."""
    with tempfile.TemporaryDirectory(prefix="toolshape-cpu-") as d:
        proc, port, path, prefix = start(kind, binary, sample, Path(d))
        try:
            s = Session(port, path)
            s.open()
            s.request("tools/list", {})
            out = {}
            for name, (tool, args) in CALLS.items():
                for _ in range(warmup):
                    s.call(prefix + tool, args)
                before = cpu_seconds(proc.pid)
                for _ in range(calls):
                    s.call(prefix + tool, args)
                out[name] = (cpu_seconds(proc.pid) - before) / calls * 1e6
            return out
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--toolshape", default=str(REPO / "target" / "release" / "toolshape"))
    ap.add_argument("--sample", default=str(REPO / "target" / "release" / "toolshape-sample-upstream"))
    ap.add_argument("--rust-proxy", default=str(REPO / ".cache" / "rust-mcp-proxy" / "bin" / "mcp-proxy"))
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    # The gateways run in a temporary folder: every path given is made absolute first.
    a.toolshape, a.sample, a.rust_proxy = (str(Path(p).resolve()) for p in (a.toolshape, a.sample, a.rust_proxy))
    gateways = {"toolshape": a.toolshape}
    if Path(a.rust_proxy).is_file():
        gateways["rust-proxy"] = a.rust_proxy
    else:
        print(f"no Rust mcp-proxy at {a.rust_proxy}: measuring toolshape alone", file=sys.stderr)
    results: dict[str, dict[str, list[float]]] = {g: {c: [] for c in CALLS} for g in gateways}
    for _ in range(a.rounds):
        # Alternating, so that a change in the machine's load falls on both.
        for kind, binary in gateways.items():
            for call, us in measure(kind, binary, a.sample, a.calls, a.warmup).items():
                results[kind][call].append(us)
    print(f"CPU per call, µs (median of {a.rounds} rounds of {a.calls} calls; clock tick {1e6 / TICKS:.0f} µs "
          f"over the whole round, so ±{1e6 / TICKS / a.calls:.1f} µs per call)")
    print("| gateway | " + " | ".join(CALLS) + " |")
    print("|---|" + "---|" * len(CALLS))
    for kind in gateways:
        cells = [f"{sorted(v)[len(v) // 2]:.0f}" for v in results[kind].values()]
        print(f"| {kind} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
