"""A FastMCP proxy in front of one stdio MCP server, with FastMCP's own response-size limit
(`ResponseLimitingMiddleware`, which cuts a tool result's text at a byte count): the
nearest thing FastMCP offers to toolshape's budget, for bench/overhead.py and bench/load.py.

Usage: python bench/fastmcp_proxy.py [--http PORT] [--max-bytes N] -- COMMAND [ARGS...]
Serves stdio unless --http is given (Streamable HTTP on 127.0.0.1:PORT, path /mcp).
"""

from __future__ import annotations

import argparse
import logging
import sys

from fastmcp.server import create_proxy
from fastmcp.server.middleware.response_limiting import ResponseLimitingMiddleware


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on this loopback port")
    ap.add_argument("--max-bytes", type=int, default=16_000, help="ResponseLimitingMiddleware max_size (default 16,000)")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the upstream server command, after --")
    a = ap.parse_args()
    command = [c for c in a.command if c != "--"] if a.command[:1] == ["--"] else a.command
    if not command:
        ap.error("give the upstream command after --")
    # One upstream: FastMCP does not prefix its tool names.
    config = {"mcpServers": {"upstream": {"command": command[0], "args": command[1:]}}}
    proxy = create_proxy(config, name="fastmcp-proxy")
    proxy.add_middleware(ResponseLimitingMiddleware(max_size=a.max_bytes))
    logging.getLogger("fastmcp").setLevel(logging.WARNING)
    if a.http is not None:
        proxy.run(transport="http", host="127.0.0.1", port=a.http, show_banner=False, log_level="warning")
    else:
        proxy.run(transport="stdio", show_banner=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
