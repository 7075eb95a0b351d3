"""The condensed tables of BENCHMARKS.md, from the outputs of one `bench/run.sh` run, so that
pasting new numbers is a copy and not a retyping.

Usage: python3 bench/report.py bench/out/STAMP
Reads overhead.txt, compare.json and load.json of that folder (whichever exist) and prints
markdown: the small-call and 1 MiB overhead tables, the shaping-cost table, the throughput
table, and the headline ratios.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SMALL = [
    ("direct", "direct, stdio", None),
    ("toolshape", "toolshape, stdio", None),
    ("fastmcp", "FastMCP proxy + response limit, stdio", "toolshape / fastmcp"),
    ("toolshape-http", "toolshape, HTTP", None),
    ("mcp-proxy-http", "`mcp-proxy`, HTTP", "toolshape-http / mcp-proxy-http"),
    ("fastmcp-http", "FastMCP proxy + response limit, HTTP", "toolshape-http / fastmcp-http"),
]
BIG = [
    ("direct-1mb", "direct, stdio", None, ""),
    ("toolshape-1mb", "toolshape, stdio, default budget", None, " (4,000 tokens, with `next`)"),
    ("fastmcp-1mb", "FastMCP, stdio, `ResponseLimitingMiddleware`", "toolshape-1mb / fastmcp-1mb", " (a byte cut)"),
    ("toolshape-http-1mb", "toolshape, HTTP, default budget", None, ""),
    ("mcp-proxy-1mb", "`mcp-proxy`, HTTP", "toolshape-http-1mb / mcp-proxy-1mb", ""),
    ("fastmcp-http-1mb", "FastMCP, HTTP, `ResponseLimitingMiddleware`", "toolshape-http-1mb / fastmcp-http-1mb", ""),
    ("toolshape-1mb-full", "toolshape, stdio, budget 2,000,000 (all of it)", "toolshape-1mb-full / mcp-proxy-1mb", ""),
]


def overhead_rows(text: str) -> dict[str, dict[str, str]]:
    """The rows of overhead.py's markdown table, by variant."""
    rows: dict[str, dict[str, str]] = {}
    header: list[str] = []
    for line in text.splitlines():
        if line.startswith("| variant"):
            header = [c.strip() for c in line.strip("|").split("|")]
        elif header and line.startswith("| ") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) == len(header):
                rows[cells[0]] = dict(zip(header, cells))
    return rows


def head_to_head(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if " / " in line and "paired median" in line:
            pair, rest = line.split(":", 1)
            out[pair.strip()] = rest.rsplit("paired median", 1)[1].strip()
    return out


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    folder = Path(sys.argv[1])
    overhead = folder / "overhead.txt"
    if overhead.exists():
        text = overhead.read_text()
        rows, pairs = overhead_rows(text), head_to_head(text)
        print("Small call (`light_status`, a 200-byte result):\n")
        print("| variant | p50 ms | p99 ms | paired median vs direct | toolshape vs it (paired) |")
        print("|---|---|---|---|---|")
        for key, label, pair in SMALL:
            if key in rows:
                r = rows[key]
                vs = f"**{pairs[pair]}**" if pair and pair in pairs else "—"
                print(f"| {label} | {r['p50 ms']} | {r['p99 ms']} | {r['paired median vs direct']} | {vs} |")
        print("\n1 MiB result (`huge`, text lines):\n")
        print("| variant | what the client gets | p50 ms | p99 ms | paired median vs direct | toolshape vs it (paired) |")
        print("|---|---|---|---|---|---|")
        for key, label, pair, note in BIG:
            if key in rows:
                r = rows[key]
                vs = f"**{pairs[pair]}**" if pair and pair in pairs else "—"
                if key == "toolshape-1mb-full" and vs != "—":
                    vs += " vs `mcp-proxy`"
                print(f"| {label} | {r['result chars']} chars{note} | {r['p50 ms']} | {r['p99 ms']} | {r['paired median vs direct']} | {vs} |")
        print()
    compare = folder / "compare.json"
    if compare.exists():
        print("| work | command | median ms | min–max ms | vs toolshape (paired) |")
        print("|---|---|---|---|---|")
        last = None
        for row in json.loads(compare.read_text()):
            group = row["group"] if row["group"] != last else ""
            last = row["group"]
            name = row["name"].replace("|", "\\|")
            if group:  # the group's first command is toolshape's
                ratio = "1×"
            elif row["ratio"] >= 1:
                ratio = f"**{row['ratio']:.2f}×** slower"
            else:
                ratio = f"**{row['ratio']:.2f}×**: faster than toolshape"
            print(f"| {group} | {name} | {row['median']:,.0f} | {row['min']:,.0f}–{row['max']:,.0f} | {ratio} |")
        print()
    load = folder / "load.json"
    if load.exists():
        results = json.loads(load.read_text())
        print("| server | calls/s | p50 ms | p99 ms | calls | mismatched | failed | RSS MiB before → halfway → after | CPU s server+upstream / client |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in results:
            name = {"mcp-proxy": "`mcp-proxy`", "fastmcp-proxy": "FastMCP proxy"}.get(r["server"], r["server"])
            print(
                f"| {name} | {r['calls_per_s']:,.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['calls']:,} | {r['mismatched']} | {r['failed']} "
                f"| {r['rss_before_mib']:.0f} → {r.get('rss_half_mib', 0):.0f} → {r['rss_after_mib']:.0f} | {r['server_cpu_s']} / {r['client_cpu_s']} |"
            )
        base = results[0]["calls_per_s"]
        print("\n" + ", ".join(f"toolshape / {r['server']}: {base / r['calls_per_s']:.2f}× calls/s" for r in results[1:] if r["calls_per_s"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
