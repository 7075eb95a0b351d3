"""A test upstream whose tool definitions come from a JSON file, for the trust tests.

Usage: `python trust_upstream.py DEFINITIONS.json [CALLS.jsonl]` (stdio). The file holds
`{"tools": [MCP tool objects], "later": [MCP tool objects]}` and is read again at every
`tools/list`, so a test changes what the server lists between two starts by rewriting it.
Every listed tool answers its arguments back as JSON text. The tool `change_tools` (listed
only while the file has `later`) replaces `tools` with `later` in the file and announces
`notifications/tools/list_changed`: a change made while serving. With CALLS.jsonl, every
call that reaches the server is appended to it (tool and arguments, one JSON line), so a test
can tell what a blocked call never delivered.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.stdio import stdio_server

DEFINITIONS = Path(sys.argv[1])
CALLS = Path(sys.argv[2]) if len(sys.argv) > 2 else None
CHANGE = {
    "name": "change_tools",
    "description": "Replaces this server's tools with the next set and announces the change.",
    "inputSchema": {"type": "object", "properties": {}},
}


def load() -> dict[str, Any]:
    return json.loads(DEFINITIONS.read_text())


def listed() -> list[dict[str, Any]]:
    data = load()
    return [*data["tools"], *([CHANGE] if data.get("later") else [])]


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in listed()])


def text(s: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=s)], is_error=error)


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    if CALLS is not None:
        with CALLS.open("a") as log:
            log.write(json.dumps({"tool": params.name, "arguments": params.arguments or {}}) + "\n")
    if params.name == "change_tools":
        data = load()
        data["tools"], data["later"] = data.get("later") or data["tools"], None
        DEFINITIONS.write_text(json.dumps(data))
        await ctx.session.send_tool_list_changed()
        return text("tools changed")
    if all(t["name"] != params.name for t in listed()):
        return text(f"no tool {params.name}", error=True)
    return text(json.dumps({"tool": params.name, "arguments": params.arguments or {}}, sort_keys=True))


server = Server("trust-upstream", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read, write):
        options = server.create_initialization_options(NotificationOptions(tools_changed=True))
        await server.run(read, write, options)


if __name__ == "__main__":
    anyio.run(main)
