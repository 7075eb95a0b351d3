"""`@modelcontextprotocol/server-everything` behind `toolshape serve`, over stdio and over
Streamable HTTP: every tool it lists is called through the gateway with valid arguments and
answers a five-key envelope within the budget; prompts and resources pass through."""

from __future__ import annotations

import base64
import json
from typing import Any

import anyio
import pytest
from mcp import types
from mcp.shared.exceptions import MCPError

import harness

pytestmark = pytest.mark.anyio

BUDGET = 1200
PREFIX = "everything_"

# Arguments for tools whose generic ones would be poor (or would reach the network).
OVERRIDES: dict[str, dict[str, Any]] = {
    "echo": {"message": "hello through toolshape"},
    "get-sum": {"a": 2, "b": 3},
    "get-structured-content": {"location": "Chicago"},
    "trigger-long-running-operation": {"duration": 1, "steps": 2},
    "get-resource-links": {"count": 3},
    "get-resource-reference": {"resourceType": "Text", "resourceId": 1},
    "gzip-file-as-resource": {
        "name": "hello.txt.gz",
        "data": "data:text/plain;base64," + base64.b64encode(b"hello through toolshape\n" * 50).decode(),
    },
    "simulate-research-query": {"topic": "tool result budgets", "ambiguous": False},
    # This client declares neither sampling nor elicitation: these answer an error envelope
    # saying so (the relay itself is tested in test_sampling.py).
    "trigger-sampling-request": {"prompt": "Say hi", "maxTokens": 20},
    "trigger-url-elicitation": {"url": "https://example.com/authorize"},
}
# Tools that must work whatever the gateway's client capabilities are.
MUST_SUCCEED = {"echo", "get-sum", "get-structured-content", "get-annotated-message", "get-tiny-image",
                "get-resource-links", "get-resource-reference", "trigger-long-running-operation"}


def example(schema: dict[str, Any]) -> Any:
    """A valid value for a JSON Schema (the subset MCP servers use)."""
    if "default" in schema:
        return schema["default"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "object":
        props = schema.get("properties", {})
        return {k: example(v) for k, v in props.items() if k in schema.get("required", [])}
    if kind == "array":
        return [example(schema.get("items", {"type": "string"}))] * max(1, schema.get("minItems", 0))
    if kind in ("number", "integer"):
        low = schema.get("minimum", 1)
        return max(low, 1)
    if kind == "boolean":
        return False
    return "example"


def everything_config(upstream: dict[str, Any]) -> dict[str, Any]:
    return {"upstreams": {"everything": upstream}, "defaults": {"budget_tokens": BUDGET}}


@pytest.fixture(params=["stdio", "http"])
def upstream(request, tmp_path):
    if request.param == "stdio":
        yield harness.node_stdio("mcp-server-everything", "stdio", timeout_secs=30)
        return
    server = harness.start_everything_http(tmp_path)
    try:
        yield harness.http_upstream(server.url, timeout_secs=30)
    finally:
        harness.stop(server.proc)


async def test_every_tool_answers_an_envelope_within_budget(tmp_path, upstream):
    async with harness.gateway(tmp_path, everything_config(upstream)) as s:
        tools = await s.tools()
        upstream_tools = {n[len(PREFIX):]: t for n, t in tools.items() if n.startswith(PREFIX)}
        assert MUST_SUCCEED <= set(upstream_tools), sorted(tools)
        outcomes: dict[str, str] = {}
        for name, tool in sorted(upstream_tools.items()):
            args = OVERRIDES.get(name, example(tool.input_schema))
            env = await s.envelope(PREFIX + name, args, timeout=60)
            assert env.tokens is not None and env.tokens <= BUDGET
            outcomes[name] = f"{env.status}: {env.summary}"
            if name in MUST_SUCCEED:
                assert env.status in ("ok", "partial"), (name, env.summary)
        # Spot checks of what came through.
        echo = await s.envelope(PREFIX + "echo", OVERRIDES["echo"])
        assert "hello through toolshape" in json.dumps(echo.data)
        total = await s.envelope(PREFIX + "get-sum", OVERRIDES["get-sum"])
        assert "5" in json.dumps(total.data)
        # The upstream outputSchema is not listed unchanged (the client validated each result
        # against whatever was listed).
        listed = tools[PREFIX + "get-structured-content"].output_schema
        assert listed is None or "status" in listed.get("properties", {}), listed
        print(json.dumps(outcomes, indent=1))


async def test_prompts_and_resources_pass_through(tmp_path, upstream):
    # Listed first thing, as agents do when they connect: the listing starts the lazy
    # upstream and waits for it (a regression: it used to list only upstreams already up).
    async with harness.gateway(tmp_path, everything_config(upstream)) as s:
        with anyio.fail_after(60):
            prompts = (await s.client.list_prompts()).prompts
            resources = (await s.client.list_resources()).resources
        assert prompts, "no prompts listed through the gateway"
        assert resources, "no resources listed through the gateway"
        simple = next(p for p in prompts if not p.arguments or not any(a.required for a in p.arguments))
        with anyio.fail_after(60):
            got = await s.client.get_prompt(simple.name, {})
            assert got.messages
            read = await s.client.read_resource(resources[0].uri)
            assert read.contents


async def test_completions_come_from_the_upstream_that_listed_the_prompt_or_template(tmp_path, upstream):
    # Asked first thing, before any listing: the gateway lists to find the prompt's upstream.
    async with harness.gateway(tmp_path, everything_config(upstream)) as s:
        prompt = types.PromptReference(type="ref/prompt", name=PREFIX + "completable-prompt")
        with anyio.fail_after(60):
            department = await s.client.complete(prompt, {"name": "department", "value": "Eng"})
            assert department.completion.values == ["Engineering"], department
            # The context of earlier arguments reaches the upstream too.
            name = await s.client.complete(prompt, {"name": "name", "value": ""}, {"department": "Sales"})
            assert name.completion.values == ["David", "Eve", "Frank"], name
            template = types.ResourceTemplateReference(
                type="ref/resource", uri="demo://resource/dynamic/text/{resourceId}"
            )
            resource_id = await s.client.complete(template, {"name": "resourceId", "value": "42"})
            assert resource_id.completion.values == ["42"], resource_id
            nothing = await s.client.complete(template, {"name": "resourceId", "value": "not a number"})
            assert nothing.completion.values == [], nothing
        with anyio.fail_after(60), pytest.raises(MCPError, match="no prompt named"):
            await s.client.complete(
                types.PromptReference(type="ref/prompt", name="nobody_has_this"), {"name": "x", "value": ""}
            )
