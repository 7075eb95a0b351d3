"""Times groups of commands that do the same work, interleaved: each run executes every
command of a group once, in a fresh random order, so the machine's drift hits all of them
alike; the ratio of each command to the group's first (toolshape) is computed run by run,
and its median reported with the median time and the min-max range.

Usage: python bench/pairs.py --runs N SPEC.json [--json OUT]
SPEC.json: [{"group": "title", "commands": [{"name": "...", "argv": [...]}, ...]}, ...]
Prints a markdown table. Output of the commands goes to /dev/null; a failing command aborts.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path


def run_once(argv: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - t0) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec", type=Path)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    groups = json.loads(a.spec.read_text())
    rng = random.Random(7)
    out = []
    print("| work | command | median ms | min–max ms | paired ratio to toolshape (median) |")
    print("|---|---|---|---|---|")
    for group in groups:
        commands = group["commands"]
        for c in commands:  # one warm-up run each (page cache, lazy loading)
            run_once(c["argv"])
        times = {c["name"]: [] for c in commands}
        for _ in range(a.runs):
            order = commands[:]
            rng.shuffle(order)
            for c in order:
                times[c["name"]].append(run_once(c["argv"]))
        first = commands[0]["name"]
        for c in commands:
            t = times[c["name"]]
            ratios = [x / y for x, y in zip(t, times[first])]
            row = {"group": group["group"], "name": c["name"], "median": statistics.median(t), "min": min(t), "max": max(t),
                   "ratio": statistics.median(ratios), "runs": len(t)}
            out.append(row)
            ratio = "1×" if c["name"] == first else f"{row['ratio']:.2f}×"
            shown = c["name"].replace("|", "\\|")
            print(f"| {group['group']} | {shown} | {row['median']:,.0f} | {row['min']:,.0f}–{row['max']:,.0f} | {ratio} |")
        sys.stdout.flush()
    if a.json:
        a.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
