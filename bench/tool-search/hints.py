#!/usr/bin/env python3
"""Write a `search_hint` for each tool of the MCP-servers catalog from its server's README.

Usage: python3 bench/tool-search/hints.py [WORK_DIR]   (default: bench/tool-search/.work)

Reads WORK_DIR/mcp/mcp.catalog.json (written by mcp_tools.py) and the README each server
package ships (npm: README.md in its folder; PyPI: the long description in its METADATA).
A tool's hint is what that README says where it names the tool: the block of lines from
the first line naming it (as `read_file`, `read-file` or `readFile`) to the next blank line,
heading or line naming another tool of the server, with Markdown marks and the tool's own
name taken out, cut to 500 characters (the limit the config puts on `search_hint`). Tools
their README never names get no hint. Nothing here looks at the evaluation's requests: the
hints are what an operator could paste from the server's documentation.

Writes WORK_DIR/mcp/mcp-hinted.catalog.json: the same tools, each hint appended to the
description after a newline, which is how the gateway indexes `search_hint`. Prints how
many tools got a hint, per server.
"""

import json
import re
import sys
from email.parser import Parser
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAX_HINT_CHARS = 500
NPM = {
    "everything": "@modelcontextprotocol/server-everything", "filesystem": "@modelcontextprotocol/server-filesystem",
    "memory": "@modelcontextprotocol/server-memory", "github": "@modelcontextprotocol/server-github",
    "gitlab": "@modelcontextprotocol/server-gitlab", "puppeteer": "@modelcontextprotocol/server-puppeteer",
    "slack": "@modelcontextprotocol/server-slack", "brave": "@modelcontextprotocol/server-brave-search",
    "maps": "@modelcontextprotocol/server-google-maps", "postgres": "@modelcontextprotocol/server-postgres",
    "thinking": "@modelcontextprotocol/server-sequential-thinking", "playwright": "@playwright/mcp",
    "devtools": "chrome-devtools-mcp", "notion": "@notionhq/notion-mcp-server", "firecrawl": "firecrawl-mcp",
}
PYPI = {"git": "mcp_server_git", "time": "mcp_server_time", "fetch": "mcp_server_fetch"}


def readme(mcp, server):
    if server in NPM:
        path = mcp / "npm" / "node_modules" / NPM[server] / "README.md"
        return path.read_text(encoding="utf-8") if path.exists() else ""
    for info in (mcp / "venv").glob(f"lib/python*/site-packages/{PYPI[server]}-*.dist-info/METADATA"):
        message = Parser().parsestr(info.read_text(encoding="utf-8"))
        return message.get_payload() or ""
    return ""


def spellings(name):
    words = [w for w in re.split(r"[^A-Za-z0-9]+", name) if w]
    camel = words[0].lower() + "".join(w.capitalize() for w in words[1:]) if words else name
    return {name, "-".join(words), "_".join(words), camel}


def names_in(line, forms):
    return any(re.search(rf"(?<![A-Za-z0-9_-]){re.escape(form)}(?![A-Za-z0-9_-])", line) for form in forms)


def hint_for(text, tool, others):
    lines = text.splitlines()
    own, rest = spellings(tool), set().union(*[spellings(o) for o in others]) if others else set()
    for start, line in enumerate(lines):
        if not names_in(line, own):
            continue
        block = [line]
        for follow in lines[start + 1:]:
            if not follow.strip() or follow.lstrip().startswith("#") or names_in(follow, rest):
                break
            block.append(follow)
        words = " ".join(block)
        for form in sorted(own, key=len, reverse=True):
            words = words.replace(form, " ")
        words = re.sub(r"[`*_#>|\[\]()]+|<[^>]+>|https?://\S+", " ", words)
        words = re.sub(r"\s+", " ", words).strip(" -:.")
        if len(re.findall(r"[A-Za-z]{3,}", words)) >= 2:
            return words[:MAX_HINT_CHARS].rsplit(" ", 1)[0] if len(words) > MAX_HINT_CHARS else words
    return ""


def main():
    work = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / ".work"
    mcp = work / "mcp"
    catalog = json.loads((mcp / "mcp.catalog.json").read_text(encoding="utf-8"))
    by_server = {}
    for tool in catalog["tools"]:
        server, _, bare = tool["name"].partition("__")
        by_server.setdefault(server, []).append(bare)
    texts = {server: readme(mcp, server) for server in by_server}
    hinted, counts = [], {}
    for tool in catalog["tools"]:
        server, _, bare = tool["name"].partition("__")
        hint = hint_for(texts[server], bare, [o for o in by_server[server] if o != bare])
        counts.setdefault(server, [0, 0])[1] += 1
        tool = dict(tool)
        if hint:
            counts[server][0] += 1
            tool["description"] = f"{tool.get('description', '')}\n{hint}"
        hinted.append(tool)
    (mcp / "mcp-hinted.catalog.json").write_text(json.dumps({"tools": hinted}, ensure_ascii=False), encoding="utf-8")
    total = sum(c[0] for c in counts.values())
    print(f"{total} of {len(hinted)} tools got a hint: "
          + ", ".join(f"{s} {c[0]}/{c[1]}" for s, c in sorted(counts.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
