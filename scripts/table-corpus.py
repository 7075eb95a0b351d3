#!/usr/bin/env python3
"""Gather the generic sentences the static embedding table is trained on.

Usage: python3 scripts/table-corpus.py OUT.jsonl [--limit 32000] [--seed 7]

The table (crates/search/data/token-vectors.bin) is trained by `scripts/train-table.py`
so that the mean of a sentence's token rows points where the full sentence-transformer's
embedding of that sentence points. Any text that says what some software does will do, as
long as none of it comes from the sets the search is measured on. The sources, all read
from this machine and none downloaded:

- `python`: the first line of the docstrings (module, class, function) of the Python
  standard library (PSF License 2.0), read with `ast` from the source files, nothing
  imported;
- `pypi`: the same from installed PyPI packages whose metadata names a permissive licence
  (MIT, BSD, Apache, PSF, ISC), in every `site-packages` / `dist-packages` folder of the
  interpreter running the script and of Debian's Python;
- `npm`: the `description` of every `package.json` under the global `node_modules`
  (`npm root -g`) whose `license` is MIT, ISC, BSD or Apache;
- `debian`: the one-line summary of every package in the Debian archive index
  (`apt-cache dumpavail`), written by each package's maintainers (all packages of Debian
  main are under licences that the Debian Free Software Guidelines accept);
- `man`: the summary after the dash on the NAME line of every English manual page under
  `/usr/share/man/man1` to `man8`, at most 200 pages per program (the part of the file
  name before the first `_` or `.`).

Packages that are themselves tool-retrieval data or tool servers (names with `mcp`,
`agentdojo`, `nestful`, `seal`, `toole`, `metatool`, `bfcl`, `gorilla`) are skipped.
From each sentence a short request is also made: its words up to the first comma,
semicolon or parenthesis, at most eight, lowercased and without a final full stop
("Return the number of items in a container" → "return the number of items in a
container"; "ls - list directory contents" → "list directory contents"), so that the
table also learns how short queries embed.

Each output line is `{"text": ..., "source": ...}`; sentences are deduplicated (case and
spacing ignored), kept at 3 to 40 words, and sampled evenly from the sources up to
`--limit` with a fixed seed.
"""

import argparse
import ast
import gzip
import json
import random
import re
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

EXCLUDED = re.compile(r"mcp|agentdojo|nestful|seal|toole|metatool|bfcl|gorilla", re.I)
PERMISSIVE = re.compile(r"\b(mit|bsd|apache|psf|python software foundation|isc)\b", re.I)
WORD = re.compile(r"[A-Za-z]")
MAN_PAGES_PER_PROGRAM = 200


def first_line(doc):
    """The docstring's first sentence-like line, or None."""
    for line in doc.strip().splitlines():
        line = line.strip()
        if line:
            return line
    return None


def clean(text):
    text = " ".join(text.split())
    words = text.split()
    if not 3 <= len(words) <= 40:
        return None
    # Mostly prose: at least half of the words hold a letter, no code-like lines.
    if sum(bool(WORD.search(w)) for w in words) * 2 < len(words) or text.startswith((">>>", "..", "#", "$")):
        return None
    if not text.isascii() or "http" in text or "::" in text or text.count("_") > 2:
        return None
    return text


def docstrings(folder, skip_tests=True):
    """First lines of the docstrings of every Python file under `folder`."""
    for path in sorted(folder.rglob("*.py")):
        parts = set(path.relative_to(folder).parts)
        if skip_tests and (parts & {"test", "tests", "testing", "idle_test", "site-packages", "dist-packages"}):
            continue
        if any(EXCLUDED.search(p) for p in parts):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError, OSError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=True)
                line = doc and first_line(doc)
                if line:
                    yield line


def permissive_packages(folder):
    """Top-level import folders of the permissively licensed distributions in `folder`."""
    for meta in list(folder.glob("*.dist-info")) + list(folder.glob("*.egg-info")):
        name = meta.name.split("-")[0]
        if EXCLUDED.search(name):
            continue
        text = ""
        for file in ("METADATA", "PKG-INFO"):
            if (meta / file).exists():
                text = (meta / file).read_text(encoding="utf-8", errors="replace")
        licence = "\n".join(l for l in text.splitlines() if l.startswith(("License:", "Classifier: License", "License-Expression:")))
        if not PERMISSIVE.search(licence):
            continue
        tops = [name]
        if (meta / "top_level.txt").exists():
            tops = (meta / "top_level.txt").read_text().split()
        for top in tops:
            if (folder / top).is_dir():
                yield top, folder / top


def python_sources():
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    python = list(docstrings(stdlib))
    folders = set(site.getsitepackages()) | {"/usr/lib/python3/dist-packages"}
    pypi, seen = [], set()
    for folder in sorted(folders):
        folder = Path(folder)
        if not folder.is_dir():
            continue
        for top, path in permissive_packages(folder):
            if top in seen:
                continue
            seen.add(top)
            pypi.extend(docstrings(path))
    return python, pypi, sorted(seen)


def npm_descriptions():
    try:
        root = Path(subprocess.run(["npm", "root", "-g"], capture_output=True, text=True, check=True).stdout.strip())
    except (OSError, subprocess.CalledProcessError):
        return []
    out = []
    for path in sorted(root.rglob("package.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, OSError):
            continue
        if not isinstance(data, dict) or not isinstance(data.get("description"), str):
            continue
        licence = data.get("license")
        if not isinstance(licence, str) or not PERMISSIVE.search(licence) or EXCLUDED.search(str(data.get("name", ""))):
            continue
        out.append(data["description"])
    return out


def debian_summaries():
    try:
        dump = subprocess.run(["apt-cache", "dumpavail"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    out, package = [], ""
    for line in dump.splitlines():
        if line.startswith("Package: "):
            package = line[9:]
        elif line.startswith("Description: ") and not EXCLUDED.search(package):
            out.append(line[13:])
    return out


def man_summaries():
    out, per_program = [], {}
    for section in range(1, 9):
        for path in sorted(Path(f"/usr/share/man/man{section}").glob("*.gz")):
            # One program's subcommand pages (thousands for some) would drown the rest.
            program = re.split(r"[_.]", path.name, maxsplit=1)[0]
            per_program[program] = per_program.get(program, 0) + 1
            if per_program[program] > MAN_PAGES_PER_PROGRAM:
                continue
            try:
                with gzip.open(path, "rt", encoding="utf-8", errors="replace") as page:
                    text = page.read(4000)
            except (OSError, EOFError):
                continue
            match = re.search(r"^\.S[Hh]\s+\"?NAME\"?\s*\n(.*?)(?=^\.S[Hh])", text, re.M | re.S)
            if not match:
                continue
            name = " ".join(l for l in match.group(1).splitlines() if not l.startswith(".") or l.startswith(".Nd"))
            name = name.replace(".Nd", " - ").replace("\\-", "-").replace("\\(em", "-")
            name = re.sub(r"\\f[BIRP]|\\&|\\\(..|\\", "", name)
            if " - " in name:
                out.append(name.split(" - ", 1)[1].strip())
    return out


def request(text):
    """A short lowercase request made from a sentence."""
    head = re.split(r"[,;(:]| - ", text, maxsplit=1)[0]
    words = head.rstrip(". ").split()[:8]
    return " ".join(words).lower() if len(words) >= 2 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--limit", type=int, default=32000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    python, pypi, packages = python_sources()
    sources = {"python": python, "pypi": pypi, "npm": npm_descriptions(), "debian": debian_summaries(),
               "man": man_summaries()}
    print(f"permissively licensed Python packages read: {', '.join(packages)}", file=sys.stderr)
    seen = set()
    pools = {}
    for name, texts in sources.items():
        pool = []
        for text in texts:
            text = clean(text)
            if text is None or text.lower() in seen:
                continue
            seen.add(text.lower())
            pool.append(text)
        pools[name] = pool
    requests = []
    for pool in pools.values():
        for text in pool:
            short = request(text)
            if short and short != text.lower() and short not in seen and len(short.split()) >= 2:
                seen.add(short)
                requests.append(short)
    pools["request"] = requests
    rng = random.Random(args.seed)
    for pool in pools.values():
        rng.shuffle(pool)
    # Even shares: a source smaller than its share gives all it has, the rest is shared out.
    chosen, remaining = {}, dict(pools)
    budget = args.limit
    while remaining and budget > 0:
        share = budget // len(remaining)
        small = {n: p for n, p in remaining.items() if len(p) <= share}
        if not small:
            for name, pool in remaining.items():
                chosen[name] = pool[:share]
            break
        for name, pool in small.items():
            chosen[name] = pool
            budget -= len(pool)
            del remaining[name]
    rows = [{"text": t, "source": n} for n, pool in chosen.items() for t in pool]
    rng.shuffle(rows)
    with open(args.out, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
    counts = ", ".join(f"{n} {len(chosen.get(n, []))} of {len(p)}" for n, p in pools.items())
    print(f"{args.out}: {len(rows)} sentences ({counts})", file=sys.stderr)


if __name__ == "__main__":
    main()
