"""Context saved: how many tokens the model reads of realistic tool results, four ways, and
whether the answer to one question per payload survives.

For each payload (generated issue lists of 100, 1,000 and 10,000 records, a multi-megabyte
log, a sales table, and what real MCP servers answer: server-filesystem's `directory_tree`
and `read_text_file`, mcp-server-git's `git_log`):

  none      the raw result, as a client without shaping passes it on
  char cut  the longest prefix of the raw text that fits the same budget as toolshape's
            default (4,000 tokens): what naive truncation (a byte or character limit) does
  default   `toolshape shape FILE` (no config: the default plan, 4,000-token budget)
  mask      `toolshape shape --config CONFIG --tool MASK FILE`, with a mask of examples/ or,
            where examples/ has none for that server, of bench/masks.yaml

The question's answer is computed from the raw payload, then looked for in what the model
reads: in the first read, or in the pages reached by following `next` at most twice (the
`result_read` calls an agent would make). For "none" the answer is in the data by
definition; the column says whether the data fits a 128k-token context at all. For the
directory tree, whose mask stores the result and answers a handle, the follow-up read is a
real `result_read` call with a `pattern`, through `toolshape serve`.

Token counts are exact (`toolshape tokens`, o200k_base) and deterministic (fixed seeds and
nonces), so one run suffices; the script prints a markdown table.

Run through bench/run.sh (it installs the servers and builds the binaries); alone:
  E2E_PROFILE=release .cache/e2e-venv/bin/python bench/context.py --out FILE
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

os.environ.setdefault("E2E_PROFILE", "release")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
import harness  # noqa: E402

REPO = harness.REPO
TOOLSHAPE = harness.TOOLSHAPE
SAMPLE = harness.SAMPLE
FIXTURES = harness.TARGET / harness.PROFILE / "toolshape-fixtures"
DEFAULT_BUDGET = 4000
CONTEXT_WINDOW = 128_000
# A nonce as the gateway makes them (five words, each one token), fixed for reproducible output.
NONCE = "amber copper maple river harbor"
# No step may hang the suite: each process gets this long.
STEP_TIMEOUT_SECS = 300
# Configs may name environment variables (examples/github-triage.yaml needs a token to be
# set to load); nothing here reaches a network.
ENV = {**os.environ, "GITHUB_TOKEN": os.environ.get("GITHUB_TOKEN", "unused-by-the-benchmark")}


def tokens(text: str) -> int:
    out = subprocess.run([str(TOOLSHAPE), "tokens", "-"], input=text.encode(), capture_output=True, check=True, timeout=STEP_TIMEOUT_SECS)
    return int(out.stdout.decode().strip())


def char_cut(raw: str, budget: int) -> str:
    """The longest character prefix of `raw` whose token count fits `budget` (bisection)."""
    lo, hi = 0, min(len(raw), budget * 12)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if tokens(raw[:mid]) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return raw[:lo]


def shape(args: list[str]) -> dict[str, Any]:
    """Run `toolshape shape ARGS`: the text the model reads and its envelope."""
    common = ["--nonce", NONCE]
    text = subprocess.run([str(TOOLSHAPE), "shape", *common, *args], capture_output=True, env=ENV, cwd=REPO, timeout=STEP_TIMEOUT_SECS)
    if text.returncode != 0:
        raise RuntimeError(f"toolshape shape {' '.join(args)}: {text.stderr.decode()[:500]}")
    env = subprocess.run([str(TOOLSHAPE), "shape", *common, "--format", "json", *args], capture_output=True, env=ENV, cwd=REPO, timeout=STEP_TIMEOUT_SECS, check=True)
    return {"text": text.stdout.decode(), "envelope": json.loads(env.stdout)}


def next_args(nxt: dict[str, Any]) -> list[str]:
    """`next` of an offline shape names `toolshape shape` and its flags: turn it back into argv."""
    out: list[str] = []
    file_arg = None
    for key, value in nxt["arguments"].items():
        if key == "file":
            file_arg = str(value)
        else:
            out += [f"--{key.replace('_', '-')}", str(value)]
    return out + ([file_arg] if file_arg else [])


@dataclass
class Payload:
    name: str
    what: str
    file: Path
    question: str
    answer: str
    present: Callable[[str], bool]
    mask: list[str] | None  # ["--config", C, "--tool", T]
    mask_label: str
    gateway_mask: Callable[[], Any] | None = None  # async: (first text, follow-up texts) through serve
    # Through the gateway with `toolshape call`: (config, tool, JSON arguments) for each way.
    call_default: tuple[Path, str, str] | None = None
    call_mask: tuple[Path, str, str] | None = None
    rows: dict[str, Any] = field(default_factory=dict)


def found_in(first: str, follow: list[str], present: Callable[[str], bool]) -> str:
    if present(first):
        return "yes, first read"
    for i, page in enumerate(follow, start=1):
        if present(page):
            return f"yes, read {i + 1}"
    return "**no**" if not follow else f"**no** (3 reads)"


def run_shaped(p: Payload, args: list[str]) -> tuple[int, str, str]:
    """(tokens of the first read, where the answer is, status/summary)."""
    first = shape(args + [str(p.file)])
    follow: list[str] = []
    nxt = first["envelope"].get("next")
    while nxt is not None and len(follow) < 2 and nxt.get("tool") == "toolshape shape":
        page = shape(next_args(nxt))
        follow.append(page["text"])
        nxt = page["envelope"].get("next")
    return tokens(first["text"]), found_in(first["text"], follow, p.present), first["envelope"]["summary"]


def run_called(p: Payload, config: Path, tool: str, arguments: str) -> tuple[int, str, str]:
    """`toolshape call` through the gateway: tokens of the first read (the rendered text),
    then where the answer is, following `next` (real `result_read` calls) at most twice."""
    call_env = {**ENV, "TOOLSHAPE_SAMPLE_UPSTREAM": str(SAMPLE), "TOOLSHAPE_LOG": "warn"}
    base = [str(TOOLSHAPE), "call", "--config", str(config), tool, arguments]
    first = subprocess.run(base, capture_output=True, env=call_env, cwd=REPO, timeout=STEP_TIMEOUT_SECS, check=True).stdout.decode()
    pages = subprocess.run([*base, "--envelope", "--follow", "2"], capture_output=True, env=call_env, cwd=REPO, timeout=STEP_TIMEOUT_SECS, check=True)
    envelopes = [line for line in pages.stdout.decode().splitlines() if line.strip()]
    follow = envelopes[1:3]
    summary = json.loads(envelopes[0]).get("summary", "") if envelopes else ""
    return tokens(first), found_in(first, follow, p.present), summary


# ---------------------------------------------------------------------------------------
# Payloads
# ---------------------------------------------------------------------------------------


def fixtures(kind: str, count: int, out: Path, *extra: str) -> Path:
    if not out.exists():
        subprocess.run([str(FIXTURES), kind, str(count), "--seed", "7", *extra, "-o", str(out)], check=True)
    return out


def issues_payload(data: Path, n: int) -> Payload:
    path = fixtures("issues", n, data / f"issues-{n}.json")
    issues = json.loads(path.read_text())
    bugs = [i for i in issues if any(lab["name"] == "bug" for lab in i["labels"])]
    best = max(bugs, key=lambda i: i["updated_at"])
    number, title = best["number"], best["title"]

    def present(text: str) -> bool:
        # The number and the title, both (titles repeat across issues).
        return re.search(rf"\b{number}\b", text) is not None and title in text.replace("\\/", "/")

    return Payload(
        f"issues-{n}", f"GitHub-like issue list, {n:,} records", path,
        "title of the most recently updated issue labelled `bug`", f"#{number} {title}", present,
        ["--config", "examples/github-triage.yaml", "--tool", "open_issues"], "github-triage.yaml `open_issues`",
    )


def open_issues_payload(data: Path, n: int) -> Payload:
    """The open issues of the list, as the upstream answers `list_issues` with `state: open`
    (which is what the triage masks send), and a question that needs every record."""
    source = fixtures("issues", n, data / f"issues-{n}.json")
    path = data / f"issues-{n}-open.json"
    issues = [i for i in json.loads(source.read_text()) if i["state"] == "open"]
    if not path.exists():
        path.write_text(json.dumps(issues))
    bugs = sum(1 for i in issues if any(lab["name"] == "bug" for lab in i["labels"]))

    def present(text: str) -> bool:
        return re.search(rf"\bbug\W{{1,3}}{bugs}\b", text) is not None

    return Payload(
        f"issues-{n}-open", f"the {len(issues):,} open issues of that list", path,
        "how many open issues are labelled `bug`", str(bugs), present,
        ["--config", "examples/github-triage.yaml", "--tool", "issue_stats"], "github-triage.yaml `issue_stats`",
    )


async def tracker_payload(data: Path, tmp: Path) -> Payload:
    """The bundled sample tracker's open issues, through `toolshape call` (the gateway, with
    real `result_read` calls for `next`): its `examples/quickstart.yaml` mask against a
    config with no mask (default shaping of the namespaced upstream tool)."""
    arguments = {"state": "open", "sort": "updated", "direction": "desc", "per_page": 10000}
    direct = await harness.direct_call(tmp, [str(SAMPLE)], "list_issues", arguments)
    path = data / "tracker-open-issues.json"
    path.write_text(direct.content[0].text)
    issues = json.loads(path.read_text())
    bugs = [i for i in issues if any(lab["name"] == "bug" for lab in i["labels"])]
    best = max(bugs, key=lambda i: i["updated_at"])
    number, title = best["number"], best["title"]
    plain = tmp / "tracker-plain.yaml"
    plain.write_text(
        "upstreams:\n"
        f"  tracker:\n    command: [{json.dumps(str(SAMPLE))}]\n    timeout_secs: 60\n    max_response_bytes: 33554432\n"
        "defaults:\n  expose_unmasked: true\n"
    )
    return Payload(
        "tracker", f"sample tracker `list_issues`, {len(issues):,} open issues, via `toolshape call`", path,
        "title of the most recently updated open issue labelled `bug`", f"#{number} {title}",
        lambda t: re.search(rf"\b{number}\b", t) is not None and title in t,
        None, "quickstart.yaml `open_issues {label: bug}`",
        call_default=(plain, "tracker_list_issues", json.dumps(arguments)),
        call_mask=(REPO / "examples" / "quickstart.yaml", "open_issues", json.dumps({"label": "bug"})),
    )


def log_payload(data: Path) -> Payload:
    path = fixtures("logs", 50_000, data / "app-50000.log")
    text = path.read_text()
    errors = sum(1 for line in text.splitlines() if re.match(r"^\S+ ERROR ", line))

    def present(shown: str) -> bool:
        return re.search(rf"ERROR:? ({errors:,}|{errors})\b", shown) is not None

    return Payload(
        "log", "application log, 50,000 lines", path,
        "how many ERROR lines", str(errors), present,
        ["--config", "examples/quickstart.yaml", "--tool", "recent_errors"], "quickstart.yaml `recent_errors`",
    )


def table_payload(data: Path) -> Payload:
    path = fixtures("table", 20_000, data / "table-20000.json")
    rows = json.loads(path.read_text())
    top = max(rows, key=lambda r: r["amount"])
    order = top["order_id"]
    return Payload(
        "table", "sales table, 20,000 rows", path,
        "order id of the row with the largest amount", order, lambda t: order in t,
        ["--config", "bench/masks.yaml", "--tool", "top_orders"], "bench/masks.yaml `top_orders`",
    )


def make_tree(root: Path, seed: int = 7) -> str:
    """A source tree of about 3,000 entries; one file to find, deep in the last folder."""
    rng = random.Random(seed)
    parts = ["api", "auth", "billing", "cache", "cli", "core", "db", "docs", "events", "http",
             "jobs", "mail", "metrics", "search", "storage", "ui", "users", "web", "worker", "zeta"]
    exts = [".rs", ".py", ".ts", ".md", ".json", ".yaml", ".sql", ".txt"]
    for top in parts:
        for sub in range(8):
            d = root / top / f"{top}_mod{sub}"
            d.mkdir(parents=True, exist_ok=True)
            for f in range(rng.randint(10, 24)):
                (d / f"{rng.choice(parts)}_{f}{rng.choice(exts)}").write_text("x\n")
    needle = root / "zeta" / "zeta_mod7" / "fixtures" / "quarterly-forecast-2026.xlsx"
    needle.parent.mkdir(parents=True, exist_ok=True)
    needle.write_text("x\n")
    return needle.name


def make_repo(path: Path, commits: int = 3000) -> str:
    """A git history written with fast-import; the oldest commit's message is the answer."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    rng = random.Random(7)
    verbs = ["Fix", "Add", "Refactor", "Document", "Speed up", "Test", "Remove", "Rename"]
    things = ["the parser", "pagination", "retry logic", "the cache", "login flow", "CSV export", "webhooks", "metrics"]
    stream = []
    first = "Initial import of the widgets service"
    for i in range(1, commits + 1):
        subject = first if i == 1 else f"{rng.choice(verbs)} {rng.choice(things)} (#{1000 + i})"
        message = f"{subject}\n\nDetails of change {i}.\n"
        who = i % 9
        stream.append("commit refs/heads/main\n")
        stream.append(f"mark :{i}\n")
        stream.append(f"author Dev {who} <dev{who}@example.com> {1_700_000_000 + i * 3600} +0000\n")
        stream.append(f"committer Dev {who} <dev{who}@example.com> {1_700_000_000 + i * 3600} +0000\n")
        stream.append(f"data {len(message.encode())}\n{message}")
        if i > 1:
            stream.append(f"from :{i - 1}\n")
        content = f"version {i}\n"
        stream.append(f"M 644 inline file{i % 10}.txt\ndata {len(content.encode())}\n{content}\n")
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input="".join(stream).encode(), check=True)
    subprocess.run(["git", "checkout", "-q", "main"], cwd=path, check=True)
    return first


async def real_server_payloads(data: Path, tmp: Path) -> list[Payload]:
    out: list[Payload] = []
    root = tmp / "srv"
    root.mkdir()
    needle = make_tree(root / "tree")
    fixtures("logs", 30_000, root / "service.log")
    fs = [str(harness.NODE_BIN / "mcp-server-filesystem"), str(root)]

    tree_result = await harness.direct_call(tmp, fs, "directory_tree", {"path": str(root / "tree")})
    tree_file = data / "fs-directory-tree.json"
    tree_file.write_text(tree_result.content[0].text)

    async def tree_through_gateway() -> tuple[str, list[str]]:
        # The mask stores the tree and answers a handle; one `result_read` with a pattern finds it.
        config = {
            "upstreams": {"fs": harness.node_stdio("mcp-server-filesystem", str(root), timeout_secs=60, max_response_bytes=64 << 20)},
            "defaults": {"budget_tokens": DEFAULT_BUDGET, "expose_unmasked": False},
            "masks": [{
                "name": "tree", "handler": "fs/directory_tree", "description": "The folder tree, stored; a handle and a summary.",
                "handler_input": {"path": str(root / "tree")}, "result": {"form": "reference", "noun": "entries"},
            }],
        }
        async with harness.gateway(tmp, config, name="tree-gateway") as s:
            first = await s.envelope("tree", {})
            handle_call = first.next or {}
            follow: list[str] = []
            if handle_call:
                args = dict(handle_call.get("arguments", {}))
                args["pattern"] = "forecast"
                page = await s.call(handle_call.get("tool", "result_read"), args)
                follow.append("".join(getattr(b, "text", "") for b in page.content))
            return first.text, follow

    out.append(Payload(
        "fs-tree", "server-filesystem `directory_tree`, about 3,000 entries", tree_file,
        "is there a file named like `*forecast*`, and where", needle, lambda t: needle in t,
        ["--config", "bench/masks.yaml", "--tool", "tree"], "`form: reference` + `result_read` pattern",
        gateway_mask=tree_through_gateway,
    ))

    read_result = await harness.direct_call(tmp, fs, "read_text_file", {"path": str(root / "service.log")})
    read_file = data / "fs-read-text-file.txt"
    read_file.write_text(read_result.content[0].text)
    last_line = read_result.content[0].text.rstrip("\n").rsplit("\n", 1)[-1].strip()
    out.append(Payload(
        "fs-read", "server-filesystem `read_text_file`, a 2.8 MB log", read_file,
        "the file's last line", last_line, lambda t: last_line in t,
        ["--config", "examples/filesystem-reader.yaml", "--tool", "read_doc"], "filesystem-reader.yaml `read_doc`",
    ))

    repo = tmp / "repo"
    oldest = make_repo(repo)
    git = [str(harness.VENV_BIN / "mcp-server-git"), "--repository", str(repo)]
    log_result = await harness.direct_call(tmp, git, "git_log", {"repo_path": str(repo), "max_count": 3000})
    log_file = data / "git-log.txt"
    log_file.write_text(log_result.content[0].text)
    out.append(Payload(
        "git-log", "mcp-server-git `git_log`, 3,000 commits", log_file,
        "message of the oldest commit", oldest, lambda t: oldest in t,
        ["--config", "bench/masks.yaml", "--tool", "git_history"], "bench/masks.yaml `git_history`",
    ))
    return out


# ---------------------------------------------------------------------------------------


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, help="also write the markdown table here")
    ap.add_argument("--data", type=Path, default=REPO / "bench" / "out" / "data", help="payload folder")
    ap.add_argument("--no-servers", action="store_true", help="skip the real MCP servers")
    a = ap.parse_args()
    a.data.mkdir(parents=True, exist_ok=True)
    harness.need(TOOLSHAPE, "the toolshape binary")

    payloads = [issues_payload(a.data, n) for n in (100, 1_000, 10_000)]
    payloads += [open_issues_payload(a.data, 10_000), log_payload(a.data), table_payload(a.data)]
    with tempfile.TemporaryDirectory(prefix="toolshape-context-") as tmpdir:
        tmp = Path(tmpdir)
        if not a.no_servers:
            payloads += await real_server_payloads(a.data, tmp)
        payloads.append(await tracker_payload(a.data, tmp))

        lines = [
            f"| payload | question | none: tokens | char cut ({DEFAULT_BUDGET:,}) | toolshape default | mask | mask used |",
            "|---|---|---|---|---|---|---|",
        ]
        summary: list[dict[str, Any]] = []
        for p in payloads:
            t0 = time.monotonic()
            raw = p.file.read_text()
            raw_tokens = tokens(raw)
            fits = "fits 128k" if raw_tokens <= CONTEXT_WINDOW else "**exceeds 128k**"
            cut = char_cut(raw, DEFAULT_BUDGET)
            cut_tokens = tokens(cut)
            cut_found = "yes" if p.present(cut) else "**no**"
            if p.call_default is not None:
                d_tokens, d_found, d_summary = run_called(p, *p.call_default)
            else:
                d_tokens, d_found, d_summary = run_shaped(p, [])
            if p.call_mask is not None:
                m_tokens, m_found, _ = run_called(p, *p.call_mask)
            elif p.gateway_mask is not None:
                first, follow = await p.gateway_mask()
                m_tokens = tokens(first)
                m_found = found_in(first, follow, p.present)
            else:
                m_tokens, m_found, _ = run_shaped(p, p.mask or [])
            lines.append(
                f"| {p.what} | {p.question} | {raw_tokens:,} ({fits}) "
                f"| {cut_tokens:,}: {cut_found} | {d_tokens:,}: {d_found} | {m_tokens:,}: {m_found} | {p.mask_label} |"
            )
            summary.append({"payload": p.name, "raw": raw_tokens, "cut": cut_tokens, "default": d_tokens, "mask": m_tokens,
                            "cut_found": cut_found, "default_found": d_found, "mask_found": m_found, "answer": p.answer,
                            "default_summary": d_summary})
            print(f"{p.name}: {raw_tokens:,} raw, cut {cut_tokens} {cut_found}, default {d_tokens} {d_found}, "
                  f"mask {m_tokens} {m_found} ({time.monotonic() - t0:.1f}s); answer: {p.answer}", file=sys.stderr)

    raw_total = sum(s["raw"] for s in summary)
    mask_total = sum(s["mask"] for s in summary)
    table = "\n".join(lines)
    notes = [
        "",
        f"Cells: tokens the model reads in its first read, then whether the answer is there "
        f"(\"read 2\" and \"read 3\": after following `next` once or twice). Raw total {raw_total:,} tokens; "
        f"masks total {mask_total:,} ({raw_total / max(mask_total, 1):,.0f}× fewer).",
        "",
        "The issue lists are generated newest first, as GitHub lists them by default, so the most recently "
        "updated issues are near the start and even a plain cut keeps them; the count of `bug` issues needs every record.",
        "",
        "Answers (computed from the raw payload): " + "; ".join(f"{s['payload']}: `{s['answer']}`" for s in summary),
    ]
    text = table + "\n" + "\n".join(notes) + "\n"
    print(text)
    if a.out:
        a.out.write_text(text)
        (a.out.with_suffix(".json")).write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
