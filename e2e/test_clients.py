"""What each MCP client's model reads of a result.

Some clients show their model a result's `structuredContent` instead of its text when both
are sent; toolshape sends those the delimited text alone (and lists no `outputSchema`), and
every other client both (see crates/gateway/src/server/client.rs and docs/clients.md).

- With the Python MCP client posing as each known client (`clientInfo` at `initialize`, or
  in each request's metadata for a 2026-07-28 agent), over stdio and HTTP.
- With the real client CLIs (Claude Code, Codex CLI, Gemini CLI) started against a loopback
  stand-in for their model's API (`fake_model_api.py`), which records what each sends its
  model as the tool's result. These install the CLIs from npm (about 900 MB), so they run only
  when TOOLSHAPE_E2E_CLIENTS=1; otherwise they skip and say so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mcp.types import Implementation

import harness
from harness import OPEN_ISSUES_MASK, REPO, TOOLSHAPE

pytestmark = pytest.mark.anyio

CONFIG = {"upstreams": {"tracker": harness.sample_stdio()}, "masks": [OPEN_ISSUES_MASK]}
# (clientInfo.name, whether results carry structuredContent)
CLIENTS = [
    ("claude-code", False),
    ("codex-mcp-client", False),
    ("Visual Studio Code", False),
    ("gemini-cli-mcp-client", True),
    ("e2e-agent", True),
]


@pytest.mark.parametrize(("transport", "mode"), [("stdio", "legacy"), ("stdio", "2026-07-28"), ("http", "legacy")])
@pytest.mark.parametrize(("client", "structured"), CLIENTS)
async def test_each_client_is_sent_what_its_model_reads(tmp_path, client, structured, transport, mode):
    info = Implementation(name=client, version="1.0")
    async with harness.gateway(tmp_path, CONFIG, transport=transport, mode=mode, client_info=info) as s:
        tools = await s.tools()
        assert (tools["open_issues"].output_schema is not None) == structured, tools["open_issues"].output_schema
        result = await s.call("open_issues")
        # The text is always the delimited envelope; structuredContent, when sent, is the same.
        env = harness.parse_envelope(result, "open_issues")
        assert env.status == "partial" and env.next is not None, env.summary
        assert (result.structured_content is not None) == structured, result.structured_content
        page = await s.envelope(env.next["tool"], env.next["arguments"])
        assert (page.result.structured_content is not None) == structured


async def test_a_config_can_send_structured_content_to_every_client(tmp_path):
    config = {**CONFIG, "clients": {"structured_content": "always"}}
    async with harness.gateway(tmp_path, config, client_info=Implementation(name="claude-code", version="2")) as s:
        result = await s.call("open_issues")
        assert result.structured_content is not None
        assert harness.parse_envelope(result).body == result.structured_content


# ---------------------------------------------------------------------------------------
# The real client CLIs
# ---------------------------------------------------------------------------------------

CLIENTS_DIR = REPO / ".cache" / "e2e-clients"
CLI_PACKAGES = {"claude": "@anthropic-ai/claude-code@2.1.332", "codex": "@openai/codex@0.171.0",
                "gemini": "@google/gemini-cli@0.61.0"}
FAKE_API = Path(__file__).parent / "fake_model_api.py"


def real_clients() -> Path:
    if os.environ.get("TOOLSHAPE_E2E_CLIENTS") != "1":
        pytest.skip("the real client CLIs are about 900 MB from npm: set TOOLSHAPE_E2E_CLIENTS=1 to run them")
    harness.need(TOOLSHAPE, "the toolshape binary")
    bin_dir = CLIENTS_DIR / "node_modules" / ".bin"
    if not all((bin_dir / name).exists() for name in CLI_PACKAGES):
        CLIENTS_DIR.mkdir(parents=True, exist_ok=True)
        if not (CLIENTS_DIR / "package.json").exists():
            (CLIENTS_DIR / "package.json").write_text('{"private": true}\n')
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", *CLI_PACKAGES.values()],
                       cwd=CLIENTS_DIR, check=True, capture_output=True, timeout=900)
    return bin_dir


@pytest.fixture
def fake_api(tmp_path):
    """The stand-in for the model's API on a free loopback port: (url, where requests go)."""
    port = harness.free_port()
    log = tmp_path / "model-requests.jsonl"
    out = open(tmp_path / "fake-api.log", "w")
    proc = subprocess.Popen([sys.executable, str(FAKE_API), str(port)], env={**os.environ, "FAKE_API_LOG": str(log),
                            "FAKE_API_TOOL": "open_issues"}, stdout=out, stderr=subprocess.STDOUT)
    try:
        harness.wait_for_port(port, proc, tmp_path / "fake-api.log")
        yield f"http://127.0.0.1:{port}", log
    finally:
        harness.stop(proc)
        out.close()


def cli_env(home: Path, **extra: str) -> dict[str, str]:
    """A temporary HOME, and every request that is not to loopback sent to a closed port."""
    dead = "http://127.0.0.1:9"
    return {
        "PATH": os.environ.get("PATH", ""), "HOME": str(home), "LANG": "C.UTF-8",
        "HTTPS_PROXY": dead, "HTTP_PROXY": dead, "ALL_PROXY": dead, "NO_PROXY": "127.0.0.1,localhost",
        "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1", "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "NO_UPDATE_NOTIFIER": "1", **extra,
    }


def tool_results(log: Path) -> list[str]:
    """The tool results the CLI sent its model, as text."""
    found: list[str] = []
    for line in log.read_text().splitlines():
        body = json.loads(line)["body"] or {}
        for message in body.get("messages", []):  # Anthropic
            for block in message.get("content", []) if isinstance(message.get("content"), list) else []:
                if block.get("type") == "tool_result":
                    content = block.get("content")
                    found.append(content if isinstance(content, str) else json.dumps(content))
        for item in body.get("input", []):  # OpenAI Responses
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                output = item.get("output")
                found.append(output if isinstance(output, str) else json.dumps(output))
        for content in body.get("contents", []):  # Gemini
            for part in content.get("parts", []):
                if "functionResponse" in part:
                    found.append(json.dumps(part["functionResponse"].get("response")))
    return found


def served_config(tmp_path: Path) -> Path:
    return harness.write_config(tmp_path / "toolshape.yaml", {**CONFIG, "telemetry": {"spans": "off"}})


def assert_model_read_the_delimited_envelope(results: list[str], cli: str) -> None:
    assert results, f"{cli} sent its model no tool result"
    text = results[-1]
    assert "<<<tool-result " in text and "\n<<<end " in text, f"{cli}: {text[:600]}"


@pytest.mark.timeout(1200)
def test_claude_code_shows_its_model_the_delimited_text(tmp_path, fake_api):
    bin_dir = real_clients()
    url, log = fake_api
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir(), project.mkdir()
    env = cli_env(home, ANTHROPIC_BASE_URL=url, ANTHROPIC_API_KEY="sk-ant-test", ENABLE_TOOL_SEARCH="false")
    add = [str(bin_dir / "claude"), "mcp", "add", "ts", "-e", f"TOOLSHAPE_SAMPLE_UPSTREAM={harness.SAMPLE}", "--",
           str(TOOLSHAPE), "serve", "--config", str(served_config(tmp_path))]
    subprocess.run(add, cwd=project, env=env, check=True, capture_output=True, timeout=120)
    run = subprocess.run([str(bin_dir / "claude"), "-p", "list the open issues", "--allowedTools", "mcp__ts__open_issues"],
                         cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert_model_read_the_delimited_envelope(tool_results(log), "claude")


@pytest.mark.timeout(1200)
def test_codex_shows_its_model_the_delimited_text(tmp_path, fake_api):
    bin_dir = real_clients()
    url, log = fake_api
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".codex").mkdir(parents=True), project.mkdir()
    (home / ".codex" / "config.toml").write_text(f"""model = "gpt-5"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.fake]
name = "fake"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "OPENAI_API_KEY"

[mcp_servers.ts]
command = "{TOOLSHAPE}"
args = ["serve", "--config", "{served_config(tmp_path)}"]
default_tools_approval_mode = "approve"
env = {{ TOOLSHAPE_SAMPLE_UPSTREAM = "{harness.SAMPLE}" }}
""")
    run = subprocess.run([str(bin_dir / "codex"), "exec", "--skip-git-repo-check", "list the open issues"],
                         cwd=project, env=cli_env(home, OPENAI_API_KEY="test"), capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert_model_read_the_delimited_envelope(tool_results(log), "codex")


@pytest.mark.timeout(1200)
def test_gemini_cli_shows_its_model_the_delimited_text(tmp_path, fake_api):
    bin_dir = real_clients()
    url, log = fake_api
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".gemini").mkdir(parents=True), (project / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({
        "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        "security": {"folderTrust": {"enabled": False}, "auth": {"selectedType": "gemini-api-key"}},
    }))
    (project / ".gemini" / "settings.json").write_text(json.dumps({"mcpServers": {"ts": {
        "command": str(TOOLSHAPE), "args": ["serve", "--config", str(served_config(tmp_path))],
        "env": {"TOOLSHAPE_SAMPLE_UPSTREAM": str(harness.SAMPLE)}, "trust": True}}}))
    env = cli_env(home, GEMINI_API_KEY="test", GOOGLE_GEMINI_BASE_URL=url)
    run = subprocess.run([str(bin_dir / "gemini"), "-p", "list the open issues"], cwd=project, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert_model_read_the_delimited_envelope(tool_results(log), "gemini")
