#!/usr/bin/env python3
"""Measure `toolshape search` on public and own tool-retrieval sets, against plain BM25.

Usage:
  python3 bench/tool-search/eval.py DATA_DIR [--bin PATH] [--sets NAME,...] [--ablate]
                                  [--fetch] [--extra ARGS] [--cosine] [--compare-bin PATH]

Sets (each a catalog of MCP tool definitions and labelled queries):
- DATA_DIR/seal-tools/ (Seal-Tools, Apache-2.0) and DATA_DIR/toole/ (MetaTool's ToolE, MIT);
- NESTFUL (PyPI `nestful-wrapper`, Apache-2.0) and AgentDojo (PyPI `agentdojo`, MIT),
  converted by registry_sets.py into bench/tool-search/.work/ (`--fetch` runs it);
- real MCP servers from npm and PyPI (tool lists gathered by mcp_tools.py into
  .work/mcp/, `--fetch` runs it) with the requests in sets/mcp-servers.jsonl, written for
  this evaluation: single-step, multi-tool, and requests no tool fits;
- requests no AgentDojo tool fits (sets/agentdojo-no-fit.jsonl), for declining.

Each set is ranked by `--mode bm25-plain` (the baseline) and by toolshape's ranking; with
`--ablate`, also with each component turned off (`--without NAME`); with `--cosine`, also
by the embedding cosine alone (keyword share 0, no declining: `--fusion linear:0 --without
decline`); with `--compare-bin`, toolshape's runs are repeated with a second binary (one
built with another embedding table, say) in the same run, with `--compare-extra` in place
of `--extra`. Prints one markdown
table: Recall@1, Recall@5, every gold tool in the top 5 (all queries, then multi-tool
queries only), nDCG@10, and the precision and recall of declining on requests no tool fits.

Which sets are for tuning and which for confirming is fixed here (`ROLE`): ranking choices
were made on the "tune" sets and checked on the "confirm" sets.

The binary defaults to the newer of target/release/toolshape and target/debug/toolshape;
build one first (`cargo build -p toolshape`).
"""

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORK = HERE / ".work"
# Requests in these sets run to about 1,300 characters: longer than a model's search query
# (the gateway's limit is 500), so the offline limit is raised to rank them whole.
MAX_QUERY_CHARS = 5000
# ToolE's 20,614 single-tool requests are sampled one in ten, to keep a run short.
TOOLE_SAMPLE = 10
COMPONENTS = ["embeddings", "split", "cover", "names", "decline", "word-vectors", "diversity"]
ROLE = {
    "Seal-Tools dev": "tune", "ToolE single-tool": "tune", "AgentDojo": "tune",
    "Seal-Tools in-domain": "confirm", "Seal-Tools out-of-domain": "confirm", "ToolE multi-tool": "confirm",
    "NESTFUL": "confirm", "MCP servers": "confirm",
}


def write_lines(path, rows):
    with open(path, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def save_pair(stem, rows):
    """Split `{"id", "query", "tools"}` rows into the queries and gold files the CLI reads."""
    queries_path, gold_path = WORK / f"{stem}.queries.jsonl", WORK / f"{stem}.gold.jsonl"
    write_lines(queries_path, [{"id": r["id"], "query": r["query"]} for r in rows])
    write_lines(gold_path, [{"id": r["id"], "tools": r["tools"]} for r in rows])
    return queries_path, gold_path


def read_rows(path):
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def seal_tools(data):
    """Seal-Tools: one catalog of 4,076 tools; the gold of a query is every API it calls."""
    folder = data / "seal-tools"
    tools = []
    with open(folder / "tool.jsonl", encoding="utf-8") as lines:
        for line in lines:
            api = json.loads(line)
            properties = {
                name: {"type": str(spec.get("type", "string")), "description": spec.get("description", "")}
                for name, spec in (api.get("parameters") or {}).items()
            }
            tools.append({
                "name": api["api_name"],
                "description": api.get("api_description", ""),
                "inputSchema": {"type": "object", "properties": properties},
            })
    sets = []
    for split, label in [("dev", "Seal-Tools dev"), ("test_in_domain", "Seal-Tools in-domain"),
                         ("test_out_domain", "Seal-Tools out-of-domain")]:
        rows = []
        with open(folder / f"{split}.jsonl", encoding="utf-8") as lines:
            for line in lines:
                item = json.loads(line)
                rows.append({"id": item["id"], "query": item["query"],
                             "tools": sorted({call["api"] for call in item["calling"]})})
        # As in the data's reference numbers, a split is searched over the tools its queries
        # use (about 1,000 to 1,400).
        used = {name for row in rows for name in row["tools"]}
        catalog = WORK / f"seal-tools.{split}.catalog.json"
        catalog.write_text(json.dumps({"tools": [t for t in tools if t["name"] in used]}, ensure_ascii=False),
                           encoding="utf-8")
        sets.append((label, catalog, save_pair(f"seal-tools.{split}", rows)))
    return sets


def toole(data):
    """ToolE: 199 tools described in one sentence each, no parameters."""
    folder = data / "toole"
    descriptions = json.loads((folder / "plugin_des.json").read_text(encoding="utf-8"))
    catalog = WORK / "toole.catalog.json"
    catalog.write_text(json.dumps({"tools": [{"name": n, "description": d} for n, d in descriptions.items()]},
                                  ensure_ascii=False), encoding="utf-8")
    with open(folder / "all_clean_data.csv", encoding="utf-8", newline="") as lines:
        single = [{"id": n, "query": row["Query"], "tools": [row["Tool"]]}
                  for n, row in enumerate(csv.DictReader(lines)) if n % TOOLE_SAMPLE == 0]
    multi = [{"id": n, "query": item["query"], "tools": sorted(set(item["tool"]))}
             for n, item in enumerate(json.loads((folder / "multi_tool_query_golden.json").read_text("utf-8")))]
    return [("ToolE single-tool", catalog, save_pair("toole.single", single)),
            ("ToolE multi-tool", catalog, save_pair("toole.multi", multi))]


def registry(fetch):
    if fetch or not (WORK / "agentdojo.jsonl").exists():
        subprocess.run([sys.executable, str(HERE / "registry_sets.py"), str(WORK)], check=True)
    if fetch or not (WORK / "mcp" / "mcp.catalog.json").exists():
        subprocess.run([sys.executable, str(HERE / "mcp_tools.py"), str(WORK / "mcp"), "--install"], check=True)
    agentdojo = read_rows(WORK / "agentdojo.jsonl") + read_rows(HERE / "sets" / "agentdojo-no-fit.jsonl")
    return [
        ("NESTFUL", WORK / "nestful.catalog.json", save_pair("nestful", read_rows(WORK / "nestful.jsonl"))),
        ("AgentDojo", WORK / "agentdojo.catalog.json", save_pair("agentdojo", agentdojo)),
        ("MCP servers", WORK / "mcp" / "mcp.catalog.json",
         save_pair("mcp", read_rows(HERE / "sets" / "mcp-servers.jsonl"))),
    ]


def measure(binary, catalog, queries, gold, extra):
    command = [str(binary), "search", "--catalog", str(catalog), "--queries", str(queries),
               "--gold", str(gold), "--max-query-chars", str(MAX_QUERY_CHARS), *extra]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"`{' '.join(command)}` failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


def cell(value):
    return "–" if value is None else f"{value:.3f}".replace("0.", ".", 1) if value < 1 else f"{value:.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, help="folder with seal-tools/ and toole/")
    parser.add_argument("--bin", type=Path, help="the toolshape binary")
    parser.add_argument("--sets", help="comma-separated substrings of set names to run (default: all)")
    parser.add_argument("--ablate", action="store_true", help="also run with each component turned off")
    parser.add_argument("--fetch", action="store_true", help="download and convert the registry sets again")
    parser.add_argument("--extra", default="", help="more arguments for every toolshape run (space-separated)")
    parser.add_argument("--cosine", action="store_true", help="also rank by the embedding cosine alone")
    parser.add_argument("--compare-bin", type=Path, help="a second toolshape binary whose runs are listed beside")
    parser.add_argument("--compare-extra", default="",
                        help="more arguments for the second binary's runs, instead of --extra (space-separated)")
    args = parser.parse_args()
    binary = args.bin
    if binary is None:
        built = [ROOT / "target" / profile / "toolshape" for profile in ("release", "debug")]
        built = [path for path in built if path.exists()]
        if not built:
            sys.exit("no toolshape binary: run `cargo build -p toolshape` or pass --bin")
        binary = max(built, key=lambda path: path.stat().st_mtime)
    WORK.mkdir(exist_ok=True)
    sets = seal_tools(args.data) + toole(args.data) + registry(args.fetch)
    if args.sets:
        wanted = [w.strip().lower() for w in args.sets.split(",")]
        sets = [s for s in sets if any(w in s[0].lower() for w in wanted)]
    runs = [("plain BM25", ["--mode", "bm25-plain"]), ("toolshape", [])]
    if args.cosine:
        runs.append(("cosine alone", ["--fusion", "linear:0", "--without", "decline"]))
    if args.ablate:
        runs += [(f"without {c}", ["--without", c]) for c in COMPONENTS]
    extra, compare_extra = args.extra.split(), args.compare_extra.split()
    ours = runs[1:]
    runs = runs[:1] + [(name, options + extra, binary) for name, options in ours]
    runs[0] = (*runs[0], binary)
    if args.compare_bin:
        runs += [(f"{name} ({args.compare_bin.name})", options + compare_extra, args.compare_bin)
                 for name, options in ours]
    print("| set (role) | ranking | R@1 | R@5 | complete@5 | complete@5 multi | nDCG@10 | decline P | decline R |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, catalog, (queries, gold) in sets:
        for name, options, program in runs:
            m = measure(program, catalog, queries, gold, options)
            cells = " | ".join(cell(m[key]) for key in ("recall@1", "recall@5", "all_gold@5", "multi_all_gold@5",
                                                          "ndcg@10", "decline_precision", "decline_recall"))
            role = ROLE.get(label, "")
            print(f"| {label} ({role}, {m['queries']}+{m['no_fit_queries']}) | {name} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
