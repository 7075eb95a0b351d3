"""From the servers a user already has to toolshape in front of them: `toolshape init` reads
a client's config, `toolshape install` rewrites it, and the client starts toolshape exactly as
the rewritten config says.

The first test needs nothing beyond the usual e2e setup: a Claude Desktop config with a real
npm server (server-memory) and a real PyPI server (mcp-server-time), started by the Python MCP
client as Claude Desktop would, from another working folder. The others drive the real
client CLIs from npm (Claude Code, Codex, Gemini CLI; about 900 MB): they run when
TOOLSHAPE_HEAVY_TESTS=1 (CI sets it) and are skipped, saying so, otherwise.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

import harness

pytestmark = pytest.mark.anyio

CLIENT_BIN = harness.REPO / "e2e" / "clients" / "node_modules" / ".bin"
HEAVY = os.environ.get("TOOLSHAPE_HEAVY_TESTS") == "1"
heavy = pytest.mark.skipif(
    not HEAVY,
    reason="needs the client CLIs from npm (about 900 MB): set TOOLSHAPE_HEAVY_TESTS=1 (CI does) to run it",
)
SECRET = "mem-s3cr3t-7f3a9c1e5b2d4f60"


def toolshape(home: Path, cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run the toolshape binary with `home` as HOME, in `cwd`."""
    env = harness.base_env(HOME=str(home), XDG_STATE_HOME=str(home / ".state"))
    done = subprocess.run(
        [str(harness.TOOLSHAPE), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )
    if check:
        assert done.returncode == 0, f"toolshape {' '.join(args)}: {done.stdout}\n{done.stderr}"
    return done


def memory_server() -> tuple[str, list[str]]:
    """server-memory from e2e/node_modules, as node runs it."""
    script = harness.NODE_BIN.parent / "@modelcontextprotocol" / "server-memory" / "dist" / "index.js"
    harness.need(script, "server-memory (e2e/setup.sh)")
    return harness.which("node"), [str(script)]


async def call_through(entry: dict, cwd: Path, home: Path) -> tuple[harness.Envelope, harness.Envelope]:
    """Start the client entry exactly as written (command, args, env) from `cwd`, as a client
    does, and call a tool of each fronted server."""
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_STATE_HOME": str(home / ".state")}
    env.update(entry.get("env", {}))
    params = StdioServerParameters(command=entry["command"], args=entry["args"], env=env, cwd=str(cwd))
    with open(cwd / "toolshape.log", "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"memory_create_entities", "memory_read_graph", "time_get_current_time"} <= names, names
            created = await client.call_tool(
                "memory_create_entities",
                {"entities": [{"name": "toolshape", "entityType": "project", "observations": ["fronts servers"]}]},
            )
            graph = harness.parse_envelope(await client.call_tool("memory_read_graph", {}), "memory_read_graph")
            assert not created.is_error
            now = harness.parse_envelope(
                await client.call_tool("time_get_current_time", {"timezone": "Europe/Paris"}), "time_get_current_time"
            )
            return graph, now


async def test_claude_desktop_config_imported_installed_and_served(tmp_path):
    home = tmp_path / "home"
    project = tmp_path / "project"
    elsewhere = tmp_path / "elsewhere"
    for d in (home, project, elsewhere):
        d.mkdir()
    node, memory_args = memory_server()
    desktop = home / ".config" / "Claude" / "claude_desktop_config.json"
    desktop.parent.mkdir(parents=True)
    memory_file = tmp_path / "memory.jsonl"
    original = json.dumps(
        {
            "mcpServers": {
                "memory": {"command": node, "args": memory_args, "env": {"MEMORY_FILE_PATH": str(memory_file), "API_TOKEN": SECRET}},
                "time": {"command": str(harness.VENV_BIN / "mcp-server-time"), "args": ["--local-timezone", "UTC"]},
            },
            "globalShortcut": "Ctrl+Space",
        },
        indent=2,
    ).encode()
    desktop.write_bytes(original)

    init = toolshape(home, project, "init", "--client", "claude-desktop")
    yaml = (project / "toolshape.yaml").read_text()
    assert SECRET not in yaml and SECRET not in init.stdout
    assert "MEMORY_API_TOKEN" in init.stdout, init.stdout
    toolshape(home, project, "install", "--client", "claude-desktop")
    installed = json.loads(desktop.read_text())
    assert list(installed["mcpServers"]) == ["toolshape"]
    assert installed["globalShortcut"] == "Ctrl+Space"
    entry = installed["mcpServers"]["toolshape"]
    assert Path(entry["command"]).is_absolute() and Path(entry["args"][2]).is_absolute(), entry
    assert entry["env"]["MEMORY_API_TOKEN"] == SECRET

    graph, now = await call_through(entry, elsewhere, home)
    assert graph.status == "ok" and "fronts servers" in json.dumps(graph.data), graph.body
    assert now.status == "ok" and "Europe/Paris" in json.dumps(now.data), now.body
    assert memory_file.exists(), "the memory server did not get its env"

    toolshape(home, project, "uninstall", "--client", "claude-desktop")
    assert desktop.read_bytes() == original


def client_env(home: Path) -> dict[str, str]:
    env = harness.base_env(HOME=str(home), XDG_STATE_HOME=str(home / ".state"))
    env["PATH"] = f"{CLIENT_BIN}:{env['PATH']}"
    # No telemetry, update checks or browsers from the client CLIs.
    env.update({"DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1", "CI": "1", "NO_BROWSER": "1"})
    return env


def run_client(home: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(list(args), cwd=cwd, env=client_env(home), capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, f"{' '.join(args)}: {done.stdout}\n{done.stderr}"
    return done


@heavy
def test_claude_code_reports_toolshape_connected(tmp_path):
    harness.need(CLIENT_BIN / "claude", "the Claude Code CLI (e2e/setup.sh with TOOLSHAPE_HEAVY_TESTS=1)")
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    node, memory_args = memory_server()
    claude = str(CLIENT_BIN / "claude")
    run_client(home, project, claude, "mcp", "add", "memory", "-e", f"API_TOKEN={SECRET}", "--", node, *memory_args)
    run_client(home, project, claude, "mcp", "add", "time", "--", str(harness.VENV_BIN / "mcp-server-time"))
    init = toolshape(home, project, "init", "--client", "claude-code")
    assert "memory" in init.stdout and "time" in init.stdout, init.stdout
    assert SECRET not in (project / "toolshape.yaml").read_text()
    toolshape(home, project, "install", "--client", "claude-code")
    listed = run_client(home, project, claude, "mcp", "list").stdout
    line = next((l for l in listed.splitlines() if l.startswith("toolshape:")), "")
    assert "Connected" in line, listed
    assert not any(l.startswith(("memory:", "time:")) for l in listed.splitlines()), listed
    # Claude Code rewrites its file as it runs; uninstall puts the servers back all the same.
    toolshape(home, project, "uninstall", "--client", "claude-code")
    after = run_client(home, project, claude, "mcp", "list").stdout
    assert "memory:" in after and "time:" in after and "toolshape:" not in after, after


@heavy
def test_codex_and_gemini_configs_written_by_their_own_cli(tmp_path):
    harness.need(CLIENT_BIN / "codex", "the Codex CLI (e2e/setup.sh with TOOLSHAPE_HEAVY_TESTS=1)")
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    node, memory_args = memory_server()
    run_client(home, project, str(CLIENT_BIN / "codex"), "mcp", "add", "memory", "--env", f"API_TOKEN={SECRET}", "--", node, *memory_args)
    run_client(home, project, str(CLIENT_BIN / "gemini"), "mcp", "add", "time", str(harness.VENV_BIN / "mcp-server-time"))
    codex_file = home / ".codex" / "config.toml"
    gemini_file = project / ".gemini" / "settings.json"
    originals = {codex_file: codex_file.read_bytes(), gemini_file: gemini_file.read_bytes()}
    toolshape(home, project, "init", "--client", "codex", "--output", "codex.yaml")
    toolshape(home, project, "init", "--client", "gemini", "--output", "gemini.yaml")
    assert SECRET not in (project / "codex.yaml").read_text()
    assert "MEMORY_API_TOKEN" in (project / "codex.yaml").read_text()
    toolshape(home, project, "install", "--client", "codex", "--config", "codex.yaml")
    toolshape(home, project, "install", "--client", "gemini", "--config", "gemini.yaml")
    listed = run_client(home, project, str(CLIENT_BIN / "codex"), "mcp", "list").stdout
    assert "toolshape" in listed and "memory" not in listed.replace("MEMORY", ""), listed
    settings = json.loads(gemini_file.read_text())
    assert list(settings["mcpServers"]) == ["toolshape"], settings
    check = toolshape(home, project, "tools", "--live", "--config", "gemini.yaml")
    assert "time_get_current_time" in check.stdout, check.stdout
    toolshape(home, project, "uninstall", "--client", "codex")
    toolshape(home, project, "uninstall", "--client", "gemini")
    for path, text in originals.items():
        assert path.read_bytes() == text, path


@pytest.mark.serial  # runs `cargo`, which waits while another test's build holds the build folder
async def test_quickstart_served_from_another_folder(tmp_path):
    """An agent starts toolshape in a folder of its own: the quickstart's `cargo run` still
    starts the sample server, since an upstream starts in its config's folder."""
    env = {k: v for k, v in harness.base_env().items()}
    params = StdioServerParameters(
        command=str(harness.TOOLSHAPE),
        args=["serve", "--config", str(harness.REPO / "examples" / "quickstart.yaml")],
        env=env,
        cwd=str(tmp_path),
    )
    with open(tmp_path / "toolshape.log", "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            result = harness.parse_envelope(await client.call_tool("open_issues", {"label": "bug"}), "open_issues")
            assert result.status == "partial" and result.data, result.body
