"""Tool search with deferred loading, end to end: toolshape in front of six real upstream
servers (over 50 tools together) lists only a few tools and a search tool; a client finds a
deferred tool by search and calls it, over stdio and Streamable HTTP, both as a client that
follows `tools/list_changed` (it lists again and calls the tool by name) and as one that
does not (it calls through the generic call tool)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import anyio
import pytest

import harness
from test_spans import read_spans

pytestmark = pytest.mark.anyio

ALWAYS = ["time_get_current_time", "tracker_*"]
OWN = {"search_tools", "call_tool", "result_read"}


def make_repo(path: Path) -> None:
    harness.which("git")
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    (path / "a.txt").write_text("hello\n")
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "add", "a.txt"], cwd=path, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "first"], cwd=path, check=True, env={**harness.base_env(), **env})


def config(tmp: Path) -> dict[str, Any]:
    root = tmp / "files"
    root.mkdir()
    (root / "notes.txt").write_text("the launch code is not here\n")
    repo = tmp / "repo"
    repo.mkdir()
    make_repo(repo)
    return {
        "upstreams": {
            "everything": harness.node_stdio("mcp-server-everything", "stdio", timeout_secs=30),
            "fs": harness.node_stdio("mcp-server-filesystem", str(root), timeout_secs=30),
            "memory": harness.node_stdio("mcp-server-memory", env={"MEMORY_FILE_PATH": str(tmp / "memory.jsonl")}),
            "git": harness.venv_stdio("mcp-server-git", "--repository", str(repo)),
            "time": harness.venv_stdio("mcp-server-time", "--local-timezone", "UTC"),
            "tracker": harness.sample_stdio(),
        },
        "defaults": {"budget_tokens": 3000},
        "search": {"always_loaded": ALWAYS},
    }


def loaded(names: list[str]) -> set[str]:
    return {n for n in names if n not in OWN}


async def search(s: harness.Session, query: str, **extra: Any) -> harness.Envelope:
    env = await s.envelope("search_tools", {"query": query, **extra})
    assert env.status in ("ok", "partial", "empty"), env.summary
    return env


def found(env: harness.Envelope) -> list[str]:
    return [r["name"] for r in harness.page_records(env)]


@pytest.mark.parametrize("agent", ["stdio", "http"])
async def test_a_deferred_tool_is_found_listed_and_called_by_name(tmp_path, agent):
    notices: list[str] = []

    async def on_message(message: Any) -> None:
        notices.append(type(getattr(message, "root", message)).__name__ + " " + repr(message)[:200])

    cfg = config(tmp_path)
    async with harness.gateway(tmp_path, cfg, transport=agent, message_handler=on_message) as s:
        tools = await s.tools()
        names = list(tools)
        assert OWN <= set(names), names
        assert "time_get_current_time" in names and "tracker_list_issues" in names
        assert not any(n.startswith(("memory_", "fs_", "git_", "everything_")) for n in names), names
        description = tools["search_tools"].description
        deferred = int(description.split(": ", 1)[1].split(" ", 1)[0])
        assert deferred > 50 - len(loaded(names)), description

        env = await search(s, "create entities in the knowledge graph")
        hits = found(env)
        assert hits and hits[0] == "memory_create_entities", hits
        record = harness.page_records(env)[0]
        assert record["input_schema"]["properties"]["entities"], record
        assert len(hits) <= 5

        # The client is told its list changed, and the found tools are listed from now on.
        with anyio.fail_after(10):
            while not any("ToolListChanged" in n for n in notices):
                await anyio.sleep(0.05)
        names = await s.tool_names()
        assert set(hits) <= set(names), (hits, names)
        made = await s.envelope("memory_create_entities", {"entities": [{"name": "toolshape", "entityType": "project", "observations": ["shapes results"]}]})
        assert made.status == "ok", made.summary
        graph = await s.envelope("call_tool", {"name": "memory_read_graph", "arguments": {}})
        assert graph.status == "ok" and "shapes results" in graph.text, graph.summary


@pytest.mark.parametrize("agent", ["stdio", "http"])
async def test_a_2026_agent_hears_of_its_found_tools_on_its_subscription(tmp_path, agent):
    """With no session, the tools a search activates are the caller's scope's, and the
    caller's open `subscriptions/listen` is told its list changed."""
    from mcp.client.subscriptions import ToolsListChanged

    cfg = config(tmp_path)
    async with harness.gateway(tmp_path, cfg, transport=agent, mode="2026-07-28") as s:
        assert not any(n.startswith("memory_") for n in await s.tool_names())
        async with s.client.listen(tools_list_changed=True) as sub:
            hits = found(await search(s, "create entities in the knowledge graph"))
            assert hits and hits[0] == "memory_create_entities", hits
            with anyio.fail_after(10):
                assert await sub.__anext__() == ToolsListChanged()
        names = await s.tool_names()
        assert set(hits) <= set(names), (hits, names)
        made = await s.envelope("memory_create_entities", {"entities": [{"name": "modern", "entityType": "client", "observations": ["listens"]}]})
        assert made.status == "ok", made.summary


@pytest.mark.parametrize("agent", ["stdio", "http"])
async def test_a_client_that_never_lists_again_calls_through_call_tool(tmp_path, agent):
    cfg = config(tmp_path)
    async with harness.gateway(tmp_path, cfg, transport=agent) as s:
        env = await search(s, "list the files in a directory")
        hits = found(env)
        assert "fs_list_directory" in hits, hits
        root = cfg["upstreams"]["fs"]["command"][-1]
        listed = await s.envelope("call_tool", {"name": "fs_list_directory", "arguments": {"path": root}})
        assert listed.status == "ok" and "notes.txt" in listed.text, listed.summary

        log = await s.envelope("call_tool", {"name": "git_git_log", "arguments": {"repo_path": str(tmp_path / "repo")}})
        assert log.status in ("ok", "partial") and "first" in log.text, log.summary


async def test_search_modes_limits_and_errors(tmp_path):
    cfg = config(tmp_path)
    async with harness.gateway(tmp_path, cfg) as s:
        # A namespace prefix finds the whole group.
        env = await search(s, "git", limit=20)
        assert sum(1 for n in found(env) if n.startswith("git_")) >= 8, found(env)
        env = await search(s, "^fs_.*directory", mode="regex", limit=10)
        assert found(env) and all(n.startswith("fs_") and "directory" in n for n in found(env)), found(env)

        nothing = await search(s, "zzqx frobnicate wibble")
        assert nothing.status == "empty" and "rephrase" in nothing.summary, nothing.summary

        for arguments, says in [
            ({"query": "a" * 201, "mode": "regex"}, "200"),
            ({"query": "([a-z", "mode": "regex"}, "regular expression"),
            ({"query": "word " * 101}, "500"),
            ({"query": "x", "limit": 0}, "limit"),
        ]:
            env = await s.envelope("search_tools", arguments)
            assert env.status == "error" and says in env.summary, (arguments, env.summary)

        missing = await s.envelope("call_tool", {"name": "memory_create_entitys", "arguments": {}})
        assert missing.status == "error" and "memory_create_entities" in missing.summary, missing.summary
        own = await s.envelope("call_tool", {"name": "search_tools", "arguments": {"query": "x"}})
        assert own.status == "error", own.summary


async def test_every_tool_deferred_is_refused_at_load(tmp_path):
    cfg = {"upstreams": {"tracker": harness.sample_stdio()}, "search": {"always_loaded": []}}
    path = harness.write_config(tmp_path / "bad.yaml", cfg)
    out = subprocess.run([str(harness.TOOLSHAPE), "check", "--config", str(path)], capture_output=True, text=True)
    assert out.returncode != 0
    text = out.stdout + out.stderr
    assert "always_loaded" in text and "every tool would be deferred" in text, text


def surface_tokens(tools: dict[str, Any]) -> int:
    """Tokens of the tool definitions as a client puts them in the model's context."""
    defs = [{"name": t.name, "description": t.description, "inputSchema": t.input_schema} for t in tools.values()]
    return harness.count_tokens(json.dumps(defs, separators=(",", ":")))


async def test_deferral_shrinks_the_tool_surface(tmp_path):
    cfg = config(tmp_path)
    cfg["search"] = {"always_loaded": ["time_get_current_time"]}
    async with harness.gateway(tmp_path, cfg, name="deferred") as s:
        deferred = await s.tools()
    full_cfg = {k: v for k, v in cfg.items() if k != "search"}
    async with harness.gateway(tmp_path, full_cfg, name="full") as s:
        full = await s.tools()
    with_search, without = surface_tokens(deferred), surface_tokens(full)
    print(f"\ntool surface: {len(full)} tools {without} tokens; deferred: {len(deferred)} tools {with_search} tokens")
    assert len(full) > 50 and len(deferred) == 4, (len(full), sorted(deferred))
    # The search tool and the loaded group cost a small fraction of every definition.
    assert with_search * 4 < without, (with_search, without)


def summary_counts(env: harness.Envelope) -> tuple[int, int]:
    """(matched, shown) as the summary of a search that showed tools says them."""
    matched = int(env.summary.split(" tools matched", 1)[0].rsplit(" ", 1)[-1])
    return matched, len(found(env))


async def test_a_search_says_how_many_matched_and_declines_nonsense(tmp_path):
    cfg = config(tmp_path)
    async with harness.gateway(tmp_path, cfg) as s:
        env = await search(s, "git", limit=3)
        matched, shown = summary_counts(env)
        assert shown == 3 and matched >= 8, env.summary
        assert f"the best 3 are shown ({matched - 3} more" in env.summary, env.summary

        env = await search(s, "^memory_", mode="regex", limit=50)
        matched, shown = summary_counts(env)
        assert matched == shown >= 5 and "all shown" in env.summary, env.summary

        for nonsense in ["zzqx frobnicate wibble", "qwrtzp vbnmkl"]:
            nothing = await search(s, nonsense)
            assert nothing.status == "empty", nothing.summary
            assert nothing.data is None, nothing.data
            # What to try: rephrase, or one of the namespaces that exist.
            assert "rephrase" in nothing.summary and "`memory`" in nothing.summary and "`git`" in nothing.summary, nothing.summary


async def test_a_search_hint_is_indexed_but_never_shown(tmp_path):
    cfg = config(tmp_path)
    cfg["upstreams"]["memory"]["search_hint"] = "rolodex scrapbook"
    async with harness.gateway(tmp_path, cfg) as s:
        env = await search(s, "rolodex scrapbook", limit=5)
        hits = found(env)
        assert len(hits) == 5 and all(n.startswith("memory_") for n in hits), hits
        records = json.dumps(env.data)
        assert "rolodex" not in records and "scrapbook" not in records, records
        tools = await s.tools()
        listed = json.dumps([[t.name, t.description, t.input_schema] for t in tools.values()])
        assert "rolodex" not in listed and "scrapbook" not in listed


async def test_search_spans_and_the_report_hit_rate(tmp_path):
    spans = tmp_path / "spans.sqlite"
    cfg = config(tmp_path)
    cfg["telemetry"] = {"spans": str(spans)}
    async with harness.gateway(tmp_path, cfg) as s:
        hits = found(await search(s, "create entities in the knowledge graph"))
        assert hits[0] == "memory_create_entities", hits
        nothing = await search(s, "zzqx frobnicate wibble")
        assert nothing.status == "empty"
        made = await s.envelope("call_tool", {"name": "memory_create_entities", "arguments": {"entities": [{"name": "t", "entityType": "x", "observations": ["y"]}]}})
        assert made.status == "ok", made.summary
    rows = read_spans(spans, 3)
    assert [r["tool"] for r in rows] == ["search_tools", "search_tools", "memory_create_entities"], [dict(r) for r in rows]
    assert rows[0]["search_query"] == "create entities in the knowledge graph"
    assert json.loads(rows[0]["search_returned"]) == hits
    assert rows[0]["search_matched"] >= len(hits)
    assert rows[1]["search_query"] == "zzqx frobnicate wibble" and json.loads(rows[1]["search_returned"]) == []
    assert rows[2]["search_query"] is None

    out = subprocess.run([str(harness.TOOLSHAPE), "report", "--spans", str(spans), "--json"], capture_output=True, text=True, env=harness.base_env())
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)["search"]
    assert (report["searches"], report["empty"], report["followed"]) == (2, 1, 1), report
    assert report["hit_rate"] == 1.0
    assert [q["query"] for q in report["unused"]] == ["zzqx frobnicate wibble"], report
    table = subprocess.run([str(harness.TOOLSHAPE), "report", "--spans", str(spans)], capture_output=True, text=True, env=harness.base_env())
    assert "hit rate 100%" in table.stdout and "zzqx frobnicate wibble" in table.stdout, table.stdout


async def test_claude_code_is_told_to_keep_the_loaded_tools(tmp_path):
    from mcp.types import Implementation

    cfg = config(tmp_path)
    async with harness.gateway(tmp_path, cfg, client_info=Implementation(name="claude-code", version="2.1.0")) as s:
        tools = await s.tools()
    kept = sorted(n for n, t in tools.items() if (t.meta or {}).get("anthropic/alwaysLoad") is True)
    assert kept == sorted(["call_tool", "search_tools", "time_get_current_time", *[n for n in tools if n.startswith("tracker_")]]), kept
    async with harness.gateway(tmp_path, cfg, name="plain") as s:
        tools = await s.tools()
    assert not any((t.meta or {}).get("anthropic/alwaysLoad") for t in tools.values())
