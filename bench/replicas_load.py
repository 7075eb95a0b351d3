"""Load across two toolshape replicas sharing one Redis, with no sticky sessions, bounded in time.

Starts a `redis-server` on a free loopback port and two `toolshape serve --http` replicas in
front of the bundled sample upstream, both with `store: {backend: redis}` and the same
TOOLSHAPE_SECRET. Opens `--sessions` MCP sessions, each on one replica, then for `--seconds`
every session sends one call at a time, each to the other replica than its previous call:
three calls in four are `tracker_get_issue` for an issue number of its own; the fourth reads
page 2 of the session's own `open_issues` result through its cursor (a snapshot that lives in
Redis, made by whichever replica answered `open_issues`). Every answer is checked against its
request: the JSON-RPC id must be the one sent, a `get_issue` answer must be that issue, and a
page must hold the upstream's own records from where page 2 starts (a page may end a record
sooner or later from one read to the next: the random nonce in each answer is counted in its
token budget). A call with no answer within the time-out counts as lost.

Resident memory of both replicas (the toolshape processes; their upstreams separately) is
sampled before the load, every half second during it, and after it; throughput is calls per second with p50 and p99
latency. Stops by itself: after `--seconds`, calls in flight are awaited and counted.

Usage (after `cargo build -p toolshape -p toolshape-sample-upstream`; needs redis-server):
    .cache/e2e-venv/bin/python bench/replicas_load.py [--sessions 32] [--seconds 20] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
import httpx2 as httpx  # noqa: E402

import harness  # noqa: E402
from replicas import HoppingSession, Replica, sample_config, start_redis, start_replicas  # noqa: E402

# A call with no answer after this long is lost (the slowest normal call takes milliseconds).
CALL_TIMEOUT = 20.0


async def expected_open_issues(tmp: Path) -> list[int]:
    """Issue numbers as the upstream lists them for `open_issues` (ground truth)."""
    result = await harness.direct_call(
        tmp, [str(harness.SAMPLE)], "list_issues",
        {"state": "open", "sort": "updated", "direction": "desc", "per_page": 10000},
    )
    return [issue["number"] for issue in harness.records_of(result)]


class Worker:
    """One session and what its answers must be."""

    def __init__(self, index: int, session: HoppingSession, sticky: bool = False) -> None:
        self.index = index
        self.sticky = sticky
        self.session = session
        self.numbers: list[int] = []
        self.cursor: dict[str, Any] = {}
        # What page 2 must hold: the upstream's records from `page2_start` on.
        self.expected: list[int] = []
        self.page2_start = 0

    async def prepare(self, expected: list[int]) -> None:
        """Open the session, make its `open_issues` snapshot on one replica and read page 2
        on the other; both pages must match the upstream's list."""
        home = self.index % 2
        await self.session.open(home)
        first = await self.session.call(home, "open_issues")
        page1 = [r["number"] for r in first["data"]]
        assert page1 == expected[: len(page1)], f"session {self.index}: page 1 differs from the upstream"
        self.cursor = first["next"]["arguments"]
        second = await self.session.call(1 - home, "result_read", self.cursor)
        self.expected = expected
        self.page2_start = len(page1)
        assert self.page2_matches([r["number"] for r in second["data"]]), f"session {self.index}: page 2 differs"
        # Issue numbers of its own for get_issue: a slice of the upstream's list.
        self.numbers = expected[self.index * 7 % len(expected) :][:50] or expected[:50]

    def page2_matches(self, numbers: list[int]) -> bool:
        start = self.page2_start
        return bool(numbers) and numbers == self.expected[start : start + len(numbers)]

    async def one(self, k: int) -> tuple[str, int]:
        """Call number `k`: (outcome, replica), outcome one of ok, mismatched, failed, lost."""
        replica = self.index % 2 if self.sticky else (self.index + k) % 2
        try:
            if k % 4 == 3:
                env = await asyncio.wait_for(self.session.call(replica, "result_read", self.cursor), CALL_TIMEOUT)
                if env["status"] != "partial":
                    return "failed", replica
                got = [r["number"] for r in env["data"]]
                return ("ok" if self.page2_matches(got) else "mismatched"), replica
            number = self.numbers[k % len(self.numbers)]
            env = await asyncio.wait_for(self.session.call(replica, "tracker_get_issue", {"number": number}), CALL_TIMEOUT)
            if env["status"] not in ("ok", "partial"):
                return "failed", replica
            # A large issue may be cut to fit its budget: its number or its URL names it.
            data = env["data"] if isinstance(env["data"], dict) else {}
            named = data.get("number") == number or str(data.get("url", "")).endswith(f"/issues/{number}")
            return ("ok" if named else "mismatched"), replica
        except asyncio.TimeoutError:
            return "lost", replica
        except AssertionError as e:
            # parse_message asserts the id of the answer is the id sent.
            return ("mismatched" if "answer to id" in str(e) else "failed"), replica
        except (httpx.HTTPError, Exception):  # noqa: BLE001 - every failure is counted, none stops the load
            return "failed", replica


def percentile(sorted_ms: list[float], q: float) -> float:
    if not sorted_ms:
        return 0.0
    return sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))]


async def load(
    replicas: list[Replica], expected: list[int], sessions: int, seconds: float, sticky: bool = False
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=2 * sessions + 8, max_keepalive_connections=2 * sessions + 8)
    async with httpx.AsyncClient(timeout=CALL_TIMEOUT, limits=limits) as client:
        urls = [r.url for r in replicas]
        workers = [Worker(i, HoppingSession(client, urls), sticky) for i in range(sessions)]
        await asyncio.gather(*(w.prepare(expected) for w in workers))
        # One warm-up round on each replica before measuring.
        await asyncio.gather(*(w.one(k) for w in workers for k in (0, 1)))
        rss_before = [r.rss_kib() for r in replicas]
        upstream_before = [r.rss_kib(children=True) - r.rss_kib() for r in replicas]
        samples: list[list[int]] = []
        counts = {"ok": 0, "mismatched": 0, "failed": 0, "lost": 0}
        per_replica = [0 for _ in replicas]
        latencies: list[float] = []
        deadline = time.monotonic() + seconds
        started = time.monotonic()

        async def sample() -> None:
            while time.monotonic() < deadline:
                samples.append([r.rss_kib() for r in replicas])
                await asyncio.sleep(0.5)

        async def run(worker: Worker) -> None:
            k = 2
            while time.monotonic() < deadline:
                t0 = time.perf_counter()
                outcome, replica = await worker.one(k)
                latencies.append((time.perf_counter() - t0) * 1000)
                counts[outcome] += 1
                per_replica[replica] += 1
                k += 1

        await asyncio.gather(sample(), *(run(w) for w in workers))
        elapsed = time.monotonic() - started
        for w in workers:
            await w.session.close(w.index % 2)
    await asyncio.sleep(1.0)
    rss_after = [r.rss_kib() for r in replicas]
    upstream_after = [r.rss_kib(children=True) - r.rss_kib() for r in replicas]
    latencies.sort()
    calls = sum(counts.values())
    return {
        "sessions": sessions,
        "sticky": sticky,
        "seconds": round(elapsed, 2),
        "calls": calls,
        **counts,
        "per_replica": per_replica,
        "calls_per_s": round(calls / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(percentile(latencies, 0.50), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "mean_ms": round(statistics.fmean(latencies), 2) if latencies else 0.0,
        "rss_kib_before": rss_before,
        "rss_kib_max_during": [max(s[i] for s in samples) if samples else 0 for i in range(len(replicas))],
        "rss_kib_after": rss_after,
        "rss_samples": len(samples),
        "upstream_rss_kib_before": upstream_before,
        "upstream_rss_kib_after": upstream_after,
    }


def run(tmp: Path, sessions: int = 32, seconds: float = 20.0, sticky: bool = False) -> dict[str, Any]:
    """Start Redis and two replicas in `tmp`, load them, stop everything, return the numbers."""
    expected = asyncio.run(expected_open_issues(tmp))
    redis = start_redis(tmp)
    replicas: list[Replica] = []
    try:
        store = {"backend": "redis", "url": redis.url, "key_prefix": "ts-load:", "ttl_secs": 600}
        # Quiet logs: every call would otherwise write a line, and the replicas share two cores.
        replicas = start_replicas(tmp, sample_config(store), TOOLSHAPE_LOG="warn")
        result = asyncio.run(load(replicas, expected, sessions, seconds, sticky))
        result["redis_keys"] = int(redis.cli("DBSIZE") or 0)
        return result
    finally:
        for r in replicas:
            r.stop()
        redis.stop()


def table(result: dict[str, Any]) -> str:
    mib = lambda kib: f"{kib / 1024:.0f}"  # noqa: E731
    rows = [
        ("sessions", f"{result['sessions']}{' (sticky)' if result['sticky'] else ' (every call to the other replica)'}"),
        ("duration (s)", result["seconds"]),
        ("calls", result["calls"]),
        ("calls/s", result["calls_per_s"]),
        ("p50 / p99 (ms)", f"{result['p50_ms']} / {result['p99_ms']}"),
        ("ok / mismatched / failed / lost", f"{result['ok']} / {result['mismatched']} / {result['failed']} / {result['lost']}"),
        ("calls per replica", " / ".join(map(str, result["per_replica"]))),
        ("RSS before (MiB, per replica)", " / ".join(map(mib, result["rss_kib_before"]))),
        ("RSS max during (MiB)", " / ".join(map(mib, result["rss_kib_max_during"]))),
        ("RSS after (MiB)", " / ".join(map(mib, result["rss_kib_after"]))),
        ("upstream RSS before / after (MiB)", " / ".join(map(mib, result["upstream_rss_kib_before"] + result["upstream_rss_kib_after"]))),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0, help="load duration (at most 30)")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    parser.add_argument(
        "--sticky", action="store_true", help="baseline: each session stays on one replica (after its setup)"
    )
    args = parser.parse_args()
    seconds = min(args.seconds, 30.0)
    with tempfile.TemporaryDirectory(prefix="toolshape-replicas-") as tmp:
        result = run(Path(tmp), args.sessions, seconds, args.sticky)
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    clean = result["mismatched"] == 0 and result["lost"] == 0 and result["failed"] == 0
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
