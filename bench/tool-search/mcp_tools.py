#!/usr/bin/env python3
"""Gather the tool catalogs of real MCP servers from npm and PyPI into one catalog file.

Usage: python3 bench/tool-search/mcp_tools.py OUT_DIR [--install]

With --install, the servers are installed first: npm packages into OUT_DIR/npm (with
browser downloads switched off) and PyPI packages into a venv at OUT_DIR/venv. Each server is
then started over stdio, asked `initialize` and `tools/list` (plain JSON-RPC, no client
library), and stopped. Servers that need an account are given a placeholder token: listing
tools makes no request to their service. Each tool is written with its server's name as a
prefix (`github__create_issue`), the way a gateway exposes many servers at once, to
OUT_DIR/mcp.catalog.json, with a per-server count on stderr.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NPM = {
    "everything": ("@modelcontextprotocol/server-everything", ["mcp-server-everything"]),
    "filesystem": ("@modelcontextprotocol/server-filesystem", ["mcp-server-filesystem", "{tmp}"]),
    "memory": ("@modelcontextprotocol/server-memory", ["mcp-server-memory"]),
    "github": ("@modelcontextprotocol/server-github", ["mcp-server-github"]),
    "gitlab": ("@modelcontextprotocol/server-gitlab", ["mcp-server-gitlab"]),
    "puppeteer": ("@modelcontextprotocol/server-puppeteer", ["mcp-server-puppeteer"]),
    "slack": ("@modelcontextprotocol/server-slack", ["mcp-server-slack"]),
    "brave": ("@modelcontextprotocol/server-brave-search", ["mcp-server-brave-search"]),
    "maps": ("@modelcontextprotocol/server-google-maps", ["mcp-server-google-maps"]),
    "postgres": ("@modelcontextprotocol/server-postgres", ["mcp-server-postgres", "postgresql://localhost/none"]),
    "thinking": ("@modelcontextprotocol/server-sequential-thinking", ["mcp-server-sequential-thinking"]),
    "playwright": ("@playwright/mcp", ["playwright-mcp", "--executable-path", "/usr/bin/chromium"]),
    "devtools": ("chrome-devtools-mcp", ["chrome-devtools-mcp", "--executablePath", "/usr/bin/chromium"]),
    "notion": ("@notionhq/notion-mcp-server", ["notion-mcp-server"]),
    "firecrawl": ("firecrawl-mcp", ["firecrawl-mcp"]),
}
PYPI = {
    "git": ("mcp-server-git", ["mcp-server-git"]),
    "time": ("mcp-server-time", ["mcp-server-time"]),
    "fetch": ("mcp-server-fetch", ["mcp-server-fetch"]),
}
PLACEHOLDERS = {
    "GITHUB_PERSONAL_ACCESS_TOKEN": "placeholder", "GITLAB_PERSONAL_ACCESS_TOKEN": "placeholder",
    "SLACK_BOT_TOKEN": "placeholder", "SLACK_TEAM_ID": "T000", "BRAVE_API_KEY": "placeholder",
    "GOOGLE_MAPS_API_KEY": "placeholder", "FIRECRAWL_API_KEY": "fc-placeholder",
    "NOTION_TOKEN": "placeholder", "PUPPETEER_SKIP_DOWNLOAD": "1",
}


def install(out):
    npm_dir = out / "npm"
    npm_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PUPPETEER_SKIP_DOWNLOAD="1", PUPPETEER_SKIP_CHROMIUM_DOWNLOAD="1")
    subprocess.run(["npm", "init", "-y"], cwd=npm_dir, check=True, capture_output=True)
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", *[p for p, _ in NPM.values()]],
                   cwd=npm_dir, check=True, env=env)
    venv = out / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *[p for p, _ in PYPI.values()]], check=True)


def rpc(proc, message):
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()


def list_tools(command, env, timeout=60.0):
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    try:
        rpc(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "catalog-lister", "version": "1"}}})
        deadline = time.time() + timeout
        tools, cursor, asked = [], None, False
        while time.time() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                continue
            if message.get("id") == 1 and not asked:
                rpc(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
                rpc(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
                asked = True
            elif message.get("id") == 2:
                result = message.get("result") or {}
                tools.extend(result.get("tools", []))
                cursor = result.get("nextCursor")
                if not cursor:
                    return tools
                rpc(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": cursor}})
        return tools
    finally:
        proc.kill()
        proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--install", action="store_true")
    args = parser.parse_args()
    out = args.out.resolve()
    if args.install:
        install(out)
    tmp = tempfile.mkdtemp()
    catalog = []
    servers = [(name, out / "npm" / "node_modules" / ".bin", argv) for name, (_, argv) in NPM.items()]
    servers += [(name, out / "venv" / "bin", argv) for name, (_, argv) in PYPI.items()]
    for name, bin_dir, argv in servers:
        command = [str(bin_dir / argv[0])] + [a.replace("{tmp}", tmp) for a in argv[1:]]
        env = dict(os.environ, **PLACEHOLDERS, HOME=tmp)
        tools = list_tools(command, env)
        print(f"{name}: {len(tools)} tools", file=sys.stderr)
        for tool in tools:
            catalog.append({"name": f"{name}__{tool['name']}", "description": tool.get("description") or "",
                            "inputSchema": tool.get("inputSchema") or {}})
    (out / "mcp.catalog.json").write_text(json.dumps({"tools": catalog}, indent=1), encoding="utf-8")
    print(f"{len(catalog)} tools -> {out / 'mcp.catalog.json'}", file=sys.stderr)


if __name__ == "__main__":
    main()
